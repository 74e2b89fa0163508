//! The hand: up to three slots, each a piece or empty once played. Slots are numbered from
//! 1 in the protocol; [`Hand::take`] answers [`PlacementError::NoSuchSlot`] or
//! [`PlacementError::SlotUsed`] for the slots a move may not use.

use super::board::Board;
use super::game::PlacementError;
use super::piece::Piece;

/// The pieces in hand, by slot (`None`: played).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hand {
    /// The slots, slot 1 first.
    pub slots: Vec<Option<Piece>>,
}

impl Hand {
    /// A hand of these slots.
    pub fn new(slots: Vec<Option<Piece>>) -> Hand {
        Hand { slots }
    }

    /// True when no slot holds a piece (also when there are no slots).
    pub fn no_pieces(&self) -> bool {
        self.slots.iter().all(Option::is_none)
    }

    /// The piece in `slot` (1-based), or why that slot cannot be played.
    pub fn piece(&self, slot: usize) -> Result<&Piece, PlacementError> {
        match slot.checked_sub(1).and_then(|i| self.slots.get(i)) {
            None => Err(PlacementError::NoSuchSlot(slot)),
            Some(None) => Err(PlacementError::SlotUsed(slot)),
            Some(Some(piece)) => Ok(piece),
        }
    }

    /// Takes the piece out of `slot` (1-based), leaving the slot empty.
    pub fn take(&mut self, slot: usize) -> Result<Piece, PlacementError> {
        self.piece(slot)?;
        Ok(self.slots[slot - 1].take().expect("checked above"))
    }

    /// The pieces still in hand with their 0-based slot index.
    pub fn live(&self) -> Vec<(usize, &Piece)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_ref().map(|p| (i, p)))
            .collect()
    }

    /// For each slot: `Some(true)` when its piece fits somewhere on `board` on its own,
    /// `Some(false)` when it fits nowhere, `None` for a played slot.
    pub fn fitting(&self, board: Board) -> Vec<Option<bool>> {
        self.slots
            .iter()
            .map(|p| p.as_ref().map(|p| p.fit_anchors(board) != 0))
            .collect()
    }
}
