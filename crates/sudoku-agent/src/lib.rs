//! Competitive Sudoku as a library: the agents that choose a move, the limits they are
//! given, the searches behind them and the protocol's text forms.
//!
//! The engine binary (`sudoku-agent`, `src/main.rs`) serves the competitive-sudoku protocol
//! (`protocol/competitive-sudoku.md`) through [`serve`] and keeps `bench`; the measuring
//! tools (`sudoku-lab`: arena, records, the game solver's checks) link this library, so a
//! Rust program plays through the same code as the engine, without pipes:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use sudoku_agent::agents::{Agent, AgentKind, Limits};
//! use sudoku_agent::protocol::{parse_line, Command};
//!
//! let Ok(Command::Position(game)) = parse_line("position 2x2 1.../..../..../....") else {
//!     panic!("not a position");
//! };
//! let agent = Agent::new(AgentKind::Default, 1, 0);
//! let limits = Limits { nodes: Some(2000), ..Limits::default() };
//! let best = agent.choose(&game, limits, &AtomicBool::new(false), &mut |_| {});
//! assert!(best.is_some());
//! ```
//!
//! - [`agents`]: one module per agent (`random`, `greedy`, `original`, `default`,
//!   `territory`, `mcts`), the [`agents::Limits`] they obey, the [`agents::Event`]s they
//!   report and the dispatch ([`agents::Agent::choose`]).
//! - [`cell_game`]: the reduced game the strong agents play: the board's geometry and
//!   positions as plain arrays.
//! - [`eval`]: the territory evaluation of the allowed-squares game.
//! - [`exact`]: the exact solver of the game on small boards (the `default` agent's
//!   endgame, and the lab's yardstick).
//! - [`protocol`]: commands in, replies out, the option table; no I/O.
//! - [`board_file`]: reads the file of `position file` (at most 1 MB).
//! - [`serve`]: the protocol loop on stdin/stdout (reader thread, options, search handle).
//!
//! The rules themselves (board, moves, taboo, scores) live in `puzzle_rules::sudoku`.

#![deny(missing_docs)]

pub mod agents;
pub mod board_file;
pub mod cell_game;
pub mod eval;
pub mod exact;
pub mod protocol;
mod session;

pub use session::serve;
