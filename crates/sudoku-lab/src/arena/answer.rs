//! What a side answered to one `go`, and when.

use std::time::Duration;

use puzzle_rules::sudoku::board::Move;

/// What one `go` gave: the move (or the text of a malformed answer) and when, after the
/// `go`, the first legal move was proposed and the `bestmove` came.
pub(super) struct Answer {
    pub(super) choice: Result<Option<Move>, String>,
    pub(super) first_legal: Option<Duration>,
    /// `None` when an external agent gave no `bestmove` in time.
    pub(super) bestmove: Option<Duration>,
}
