//! The engine kit: what the Blockudoku engine and the Competitive Sudoku agent share, so
//! each binary keeps only its command line (`main.rs`), its session and its `protocol.rs`
//! (commands and replies).
//!
//! - [`io`]: the stdin reader thread (end of input reads as `None`, i.e. quit) and
//!   line-atomic output, so a search thread and the loop never interleave mid-line; and
//!   [`println_or_exit!`], the output of one-shot commands, which ends the program on a
//!   closed stdout.
//! - [`handle`]: the search handle (Stockfish's `engine.h` in small): `go` runs a search on
//!   its own thread with a stop flag, an optional timer and `infinite` hold; `stop`, `join`;
//!   and the deadline a `movetime` aims at.
//! - [`options`]: one option table that writes the `hello` lines and validates
//!   `setoption` values.
//! - [`cli`]: command-line parsing with one-line errors and non-zero exits.
//! - [`stats`]: the intervals and tests self-play and the arena report (Wilson, exact
//!   Poisson and Clopper-Pearson intervals, exact binomial test, rate ratio).
//!
//! It depends on std, anyhow and clap only, and knows nothing of either game.
#![deny(missing_docs)]

pub mod cli;
pub mod handle;
pub mod io;
pub mod options;
pub mod stats;
