//! Sudoku: boards of any block shape, the solver, and the competitive game rules.
//!
//! - [`board`]: block shape, board, moves, legality and the competitive score of a move.
//! - [`solver`]: solution counting, one solution, the solvability oracle.
//! - [`game`]: Competitive Sudoku (classic and allowed-squares rules, taboo moves).

pub mod board;
pub mod game;
pub mod solver;

pub use board::{Board, Move, MoveError, ParseError, Shape};
pub use game::{Forfeit, Game, Mode, Outcome, Player};
