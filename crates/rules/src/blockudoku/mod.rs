//! Blockudoku rules: the 9x9 board as an 81-bit bitboard, the 47-piece catalogue and custom
//! pieces, placement, clearing, dead-hand detection, the dealer with the exact chance that the next hand is dead, and
//! the three scoring rules.
//!
//! Cells are numbered `row * 9 + col` (0-based, row 0 at the top); a [`Board`] is the set of
//! filled cells as the low 81 bits of a `u128`, so legality is one AND and clearing is 27
//! mask compares. Every [`Piece`] carries its placements precomputed as cell masks, which is
//! what the engine's search iterates over. [`masks`] names the masks evaluation reads
//! (`row()`, `column()`, `box3()`, edges, box boundaries) and iterates set bits; [`Hand`]
//! holds the slots a `play` names and answers `NoSuchSlot`/`SlotUsed`.
//!
//! ```
//! use puzzle_rules::blockudoku::{Board, GameState, Piece, Scoring};
//! let mut state = GameState::default();
//! let bar = Piece::parse("#####").unwrap();
//! state.place(&bar, 0, 0, Scoring::Blockudoku).unwrap();
//! assert_eq!(state.board.count(), 5);
//! assert_eq!(Board::parse(&state.board.to_string()).unwrap(), state.board);
//! ```

mod board;
mod catalogue_data;
mod deal;
mod game;
mod hand;
pub mod masks;
mod piece;

pub use board::{cell_bit, Board, BoardParseError, Cleared};
pub use deal::{Dealer, MAX_SET_PIECES};
pub use game::{
    can_place_all, hand_is_dead, GameState, PlacementError, PlacementReport, Scoring,
    UnknownScoring, SCORINGS,
};
pub use hand::Hand;
pub use masks::{CELLS, FULL, REGIONS};
pub use piece::{catalogue, Piece, PieceParseError, CATALOGUE_SIZE, MAX_SIDE};
