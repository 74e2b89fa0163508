//! Sudoku: boards of any block shape, the solver, and the competitive game rules.
//!
//! - [`board`]: block shape, board, moves, legality and the competitive score of a move.
//! - [`solver`]: solution counting, one solution, the solvability oracle (dispatches 3x3
//!   boards to [`solver9`], 4x4 boards to [`solver16`]).
//! - [`solver9`]: the band bitboard solver for 9x9.
//! - [`solver16`]: the same design for 16x16.
//! - [`reference`]: a deliberately naive solver, used to cross-check the fast ones.
//! - [`check`]: is a filled grid a correct sudoku.
//! - [`generate`]: seeded puzzles with a unique solution.
//! - [`game`]: Competitive Sudoku (classic and allowed-squares rules, taboo moves).

pub mod board;
pub mod check;
pub mod game;
pub mod generate;
pub mod reference;
pub mod solver;
pub mod solver16;
pub mod solver9;

pub use board::{Board, Move, MoveError, ParseError, Shape};
pub use game::{Forfeit, Game, Mode, Outcome, Player};
