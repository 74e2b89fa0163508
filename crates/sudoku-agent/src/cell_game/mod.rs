//! The cell game: the reduced game the `default`, `territory` and `mcts` agents play.
//!
//! The score of a move depends only on which cell is filled, never on the value, and on a
//! solvable board every empty cell has a value from a solution. So once one solution of the
//! board is known, the game reduces to "players alternately fill playable cells" (a side
//! without a playable cell passes; the `default` search adds passes by taboo moves).
//!
//! - [`geometry`]: the fixed geometry of a board shape (regions, neighbours, masks).
//! - [`position`]: positions as plain arrays, borrowed ([`View`]) or owned ([`Pos`]).

pub mod geometry;
pub mod position;

pub use geometry::{Geometry, Masks};
pub use position::{Pos, View, POINTS};
