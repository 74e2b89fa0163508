//! The Blockudoku engine as a library: the agents that choose a hand's placements, their
//! limits, the search, the analysis of a position, the `blockudoku 1` protocol and game
//! records. The `blockudoku` binary serves the protocol on stdin/stdout with it; the lab
//! (`blockudoku-lab`: self-play, hazard chains, crises, records) links it; a Rust program can
//! play through it directly (`examples/play.rs`).
//!
//! The way from `go` to `bestmove` runs one way:
//!
//! - [`protocol`]: commands in, replies out, the option table; no I/O.
//! - [`session`]: the game state and the commands, served by `engine-kit`'s protocol loop
//!   (reader thread, line-atomic output, the search handle, the option table); [`legacy`]:
//!   the original GUI's I/O.
//! - [`agents`]: which search answers, with which parameters, objective and clock.
//! - [`search`]: the whole-hand search, the lookahead and the strong agent's weighing (pure
//!   computation, told when to stop).
//! - [`eval`]: the board evaluation and its weights.
//! - [`analysis`]: the `analyse` command's lines and figures.
//! - [`record`]: game records, written and replayed through the rules.
//!
//! The rules themselves (board, pieces, clearing, scoring) live in `puzzle_rules::blockudoku`.
#![warn(missing_docs)]

pub mod agents;
pub mod analysis;
pub mod eval;
pub mod legacy;
pub mod protocol;
pub mod record;
pub mod search;
pub mod session;
