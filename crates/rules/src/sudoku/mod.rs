//! Sudoku: boards of any block shape, the solver, and the competitive game rules.
//!
//! - [`board`]: block shape, board, moves, legality and the competitive score of a move.
//! - [`notation`]: position text: rows, owned rows, both course board-file formats, and
//!   [`notation::GameSetup`], the validating builder of a game.
//! - [`solver`]: solution counting, one solution, the solvability oracle: one dispatch
//!   over the 9x9 band solver, its 16x16 counterpart and the general path, one answer type.
//! - [`reference`]: a deliberately naive solver, used to cross-check the fast ones.
//! - [`check`]: is a filled grid a correct sudoku.
//! - [`generate`]: seeded puzzles with a unique solution.
//! - [`puzzle_set`]: the project's puzzle collections, made by the generator and chosen by
//!   the solver, entry by entry from a seed.
//! - [`game`]: Competitive Sudoku (classic and allowed-squares rules, taboo moves).

pub mod board;
pub mod check;
pub mod game;
pub mod generate;
pub mod notation;
pub mod puzzle_set;
pub mod reference;
pub mod solver;

pub use board::{Board, Move, MoveError, ParseError, Shape};
pub use game::{Forfeit, Game, Mode, Outcome, Player};
