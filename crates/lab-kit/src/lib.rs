//! The lab kit: what the measuring programs (`blockudoku-lab`, `sudoku-lab`, `sudoku-solver`)
//! share and the engines never use, so it ships in none of the engine binaries.
//!
//! - [`stats`]: the intervals and tests self-play and the arena report (Wilson, exact
//!   Poisson and Clopper-Pearson intervals, exact binomial test, rate ratio).
//! - [`json`]: the JSON string form of the tools' `--json` and `--jsonl` output.
//!
//! It depends on std only.
#![deny(missing_docs)]

pub mod json;
pub mod stats;
