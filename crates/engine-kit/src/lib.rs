//! The engine kit: what the Blockudoku engine and the Competitive Sudoku agent share, so
//! each binary keeps only its command line (`main.rs`), its session and its `protocol.rs`
//! (commands and replies).
//!
//! - [`head`]: the command head both protocols share (`hello`, `isready`, `setoption`,
//!   `newgame`, `go` with its one limits type, `stop`, `quit`), its error words and quoting.
//! - [`quote`]: how error lines quote input, and keep one printable line whatever they
//!   echo.
//! - [`session`]: the protocol loop both engines serve (Stockfish's `uci.cpp` in small): an
//!   engine supplies its commands and, for each `go`, its search; the loop answers
//!   `isready` and `stop` while a search runs, queues every other line until its answer,
//!   holds `go infinite` until `stop`, and ends on `quit` or the end of input.
//! - [`io`]: the stdin reader thread (lines of at most 1 MiB; end of input reads as `None`,
//!   i.e. quit) and line-atomic output, so a search thread and the loop never interleave
//!   mid-line; and [`println_or_exit!`], the output of one-shot commands, which ends the
//!   program on a closed stdout.
//! - [`handle`]: the search handle (Stockfish's `engine.h` in small): a [`handle::Search`]
//!   runs on its own thread with a stop flag, an optional timer and the `infinite` hold;
//!   and the deadline a `movetime` aims at.
//! - [`options`]: one typed option table that writes the `hello` lines and parses
//!   `setoption` into the engine's settings.
//! - [`hash`]: the word hasher of the engines' search tables.
//! - [`cli`]: command-line parsing with one-line errors and non-zero exits.
//! - [`fuzz`]: the parser fuzz of both engines' tests.
//!
//! It depends on std, anyhow and clap only, and knows nothing of either game.
#![deny(missing_docs)]

pub mod cli;
pub mod fuzz;
pub mod handle;
pub mod hash;
pub mod head;
pub mod io;
pub mod options;
pub mod quote;
pub mod session;
