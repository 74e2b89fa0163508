//! Placing pieces: legality, scoring rules, game state and dead-hand detection.

use super::masks::cells;
use std::fmt;
use std::str::FromStr;

use super::board::Board;
use super::piece::Piece;

/// A scoring rule, selectable by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scoring {
    /// The commercial game as publicly reverse-engineered: 1 per placed cell still on the
    /// board after clearing, 18 * k * ceil(k/2) for k regions cleared at once, +9 when the
    /// previous placement also cleared.
    #[default]
    Blockudoku,
    /// The original Python front end: cells in the piece + 16 per cleared region.
    Classic,
    /// The numpy prototype: (regions cleared by the placement) squared.
    Squared,
}

/// Every scoring rule, in documentation order.
pub const SCORINGS: [Scoring; 3] = [Scoring::Blockudoku, Scoring::Classic, Scoring::Squared];

impl Scoring {
    /// The rule's protocol name.
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Blockudoku => "blockudoku",
            Scoring::Classic => "classic",
            Scoring::Squared => "squared",
        }
    }

    /// Points for one placement of a `piece_cells`-cell piece of which `cells_left` remain
    /// after clearing `regions` regions; `streak` is how many placements in a row before this
    /// one cleared something.
    pub fn points(self, piece_cells: u32, cells_left: u32, regions: u32, streak: u32) -> u64 {
        let k = regions as u64;
        match self {
            Scoring::Blockudoku => {
                let clear = 18 * k * k.div_ceil(2);
                let bonus = if k > 0 && streak > 0 { 9 } else { 0 };
                cells_left as u64 + clear + bonus
            }
            Scoring::Classic => piece_cells as u64 + 16 * k,
            Scoring::Squared => k * k,
        }
    }
}

/// An unknown scoring rule name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownScoring(pub String);

impl fmt::Display for UnknownScoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown scoring {:?} (blockudoku, classic, squared)",
            self.0
        )
    }
}

impl std::error::Error for UnknownScoring {}

impl FromStr for Scoring {
    type Err = UnknownScoring;
    fn from_str(s: &str) -> Result<Scoring, UnknownScoring> {
        SCORINGS
            .iter()
            .copied()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownScoring(s.to_string()))
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a placement is not legal (the text was understood; the rules say no).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlacementError {
    /// The hand slot (1-based) is outside the hand.
    NoSuchSlot(usize),
    /// The hand slot (1-based) was already played.
    SlotUsed(usize),
    /// The piece would stick out of the board.
    OffBoard,
    /// The piece would cover a filled cell.
    Overlap,
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::NoSuchSlot(s) => write!(f, "slot {s} is not in the hand"),
            PlacementError::SlotUsed(s) => write!(f, "slot {s} was already played"),
            PlacementError::OffBoard => f.write_str("piece does not fit on the board there"),
            PlacementError::Overlap => f.write_str("piece overlaps filled cells"),
        }
    }
}

impl std::error::Error for PlacementError {}

/// A board with score and streak, the state a game carries between placements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameState {
    /// The board.
    pub board: Board,
    /// Points so far.
    pub score: u64,
    /// Number of consecutive placements, up to the last one, that cleared something.
    pub streak: u32,
}

/// What one placement did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacementReport {
    /// Regions cleared by this placement.
    pub regions: u32,
    /// Points scored by this placement.
    pub points: u64,
}

impl GameState {
    /// Places `piece` with its bounding box's top-left on (`row`, `col`), 0-based, clears full
    /// regions and scores the placement. The state is unchanged on error.
    pub fn place(
        &mut self,
        piece: &Piece,
        row: usize,
        col: usize,
        scoring: Scoring,
    ) -> Result<PlacementReport, PlacementError> {
        let mask = piece.mask_at(row, col).ok_or(PlacementError::OffBoard)?;
        if !self.board.fits(mask) {
            return Err(PlacementError::Overlap);
        }
        Ok(self.place_mask(mask, piece.size(), scoring))
    }

    /// Places a legal cell mask of a `piece_cells`-cell piece (checked by the caller).
    #[inline]
    pub fn place_mask(
        &mut self,
        mask: u128,
        piece_cells: u32,
        scoring: Scoring,
    ) -> PlacementReport {
        let (board, cleared) = self.board.place_mask(mask);
        let left = (mask & !cleared.cells).count_ones();
        let points = scoring.points(piece_cells, left, cleared.regions, self.streak);
        self.board = board;
        // Saturating: a score or streak at the top of its type stays there, never wraps.
        self.score = self.score.saturating_add(points);
        self.streak = if cleared.regions > 0 {
            self.streak.saturating_add(1)
        } else {
            0
        };
        PlacementReport {
            regions: cleared.regions,
            points,
        }
    }
}

/// Whether some order and some placements put every piece of `hand` on `board`, clearing
/// between placements. An empty hand is never dead.
pub fn can_place_all(board: Board, hand: &[&Piece]) -> bool {
    fn go(board: Board, hand: &[&Piece], used: u32) -> bool {
        if used.count_ones() as usize == hand.len() {
            return true;
        }
        for (i, piece) in hand.iter().enumerate() {
            if used >> i & 1 == 1 {
                continue;
            }
            // Identical pieces later in the hand would repeat this subtree.
            if hand[..i]
                .iter()
                .enumerate()
                .any(|(j, q)| used >> j & 1 == 0 && q.cells() == piece.cells())
            {
                continue;
            }
            let fits = piece.fit_anchors(board);
            for anchor in cells(fits) {
                let mask = piece
                    .mask_at(anchor / 9, anchor % 9)
                    .expect("fit anchors keep the piece on the board");
                let (next, _) = board.place_mask(mask);
                if go(next, hand, used | 1 << i) {
                    return true;
                }
            }
        }
        false
    }
    go(board, hand, 0)
}

/// Whether the hand is dead: no order and no placements put all of it on the board.
pub fn hand_is_dead(board: Board, hand: &[&Piece]) -> bool {
    !can_place_all(board, hand)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blockudoku::board::cell_bit;

    fn p(id: usize) -> &'static Piece {
        Piece::catalogue(id).unwrap()
    }

    #[test]
    fn blockudoku_clear_table() {
        let table = [18, 36, 108, 144, 270, 324, 504, 576];
        for (i, want) in table.iter().enumerate() {
            let k = i as u32 + 1;
            assert_eq!(Scoring::Blockudoku.points(1, 0, k, 0), *want);
        }
        assert_eq!(
            Scoring::Blockudoku.points(5, 5, 0, 3),
            5,
            "no bonus without a clear"
        );
        assert_eq!(Scoring::Blockudoku.points(5, 2, 1, 1), 2 + 18 + 9);
        assert_eq!(Scoring::Classic.points(5, 0, 2, 1), 5 + 32);
        assert_eq!(Scoring::Squared.points(5, 0, 3, 1), 9);
        assert_eq!(Scoring::Squared.points(5, 5, 0, 0), 0);
        assert_eq!("classic".parse::<Scoring>().unwrap(), Scoring::Classic);
        assert!("nope".parse::<Scoring>().is_err());
    }

    #[test]
    fn score_and_streak_saturate_instead_of_wrapping() {
        let dot = Piece::parse("1").unwrap();
        let mut s = GameState {
            score: u64::MAX - 1,
            ..GameState::default()
        };
        s.place(&dot, 0, 0, Scoring::Blockudoku).unwrap();
        assert_eq!(s.score, u64::MAX);
        s.place(&dot, 0, 1, Scoring::Blockudoku).unwrap();
        assert_eq!(s.score, u64::MAX);
        // A full row but one cell: the last dot clears it with the streak at its top.
        let mut s = GameState {
            board: Board::parse(&format!("{}.{}", "#".repeat(8), ".".repeat(72))).unwrap(),
            score: 0,
            streak: u32::MAX,
        };
        s.place(&dot, 0, 8, Scoring::Blockudoku).unwrap();
        assert_eq!(s.streak, u32::MAX);
    }

    #[test]
    fn game_state_scores_and_streaks() {
        // Row 0 filled except its last 3 cells; a horizontal I3 completes it.
        let mut bits = 0u128;
        for c in 0..6 {
            bits |= cell_bit(0, c);
        }
        bits |= cell_bit(1, 8);
        let mut s = GameState {
            board: Board::from_bits(bits),
            score: 10,
            streak: 1,
        };
        let r = s.place(p(8), 0, 6, Scoring::Blockudoku).unwrap();
        assert_eq!(r.regions, 1);
        // 0 cells left of the piece, 18 for one region, 9 streak bonus.
        assert_eq!(r.points, 27);
        assert_eq!(s.score, 37);
        assert_eq!(s.streak, 2);
        assert_eq!(s.board, Board::from_bits(cell_bit(1, 8)));
        let r = s.place(p(1), 5, 5, Scoring::Blockudoku).unwrap();
        assert_eq!((r.regions, r.points, s.streak), (0, 1, 0));
        let before = s;
        assert_eq!(
            s.place(p(1), 5, 5, Scoring::Blockudoku),
            Err(PlacementError::Overlap)
        );
        assert_eq!(
            s.place(p(14), 0, 6, Scoring::Blockudoku),
            Err(PlacementError::OffBoard)
        );
        assert_eq!(s, before);
    }

    #[test]
    fn clearing_keeps_piece_cells_outside_cleared_regions() {
        // Column 0 filled except (8,0); an L (id 47: #../#../###) at (6,0) fills (6,0),(7,0),
        // (8,0),(8,1),(8,2)... column 0 then clears; (8,1),(8,2) stay.
        let mut bits = 0u128;
        for r in 0..6 {
            bits |= cell_bit(r, 0);
        }
        let mut s = GameState {
            board: Board::from_bits(bits),
            ..GameState::default()
        };
        let r = s.place(p(47), 6, 0, Scoring::Blockudoku).unwrap();
        assert_eq!(r.regions, 1);
        assert_eq!(r.points, 2 + 18);
        assert_eq!(s.board, Board::from_bits(cell_bit(8, 1) | cell_bit(8, 2)));
    }

    #[test]
    fn dead_hands_need_clearing_between_placements() {
        // Only one hole at (0,0): a single dot fits, a domino does not.
        let board = Board::from_bits(crate::blockudoku::FULL & !cell_bit(0, 0));
        assert!(!hand_is_dead(board, &[p(1)]));
        assert!(hand_is_dead(board, &[p(4)]));
        // The dot fills the board, which clears everything; then the domino fits. Order matters:
        // domino first is impossible, dot first works.
        assert!(!hand_is_dead(board, &[p(4), p(1)]));
        assert!(hand_is_dead(board, &[p(28), p(28), p(28)]));
        assert!(!hand_is_dead(Board::EMPTY, &[p(33), p(34), p(35)]));
        assert!(!hand_is_dead(board, &[]));
    }

    #[test]
    fn dead_hand_matches_brute_force_on_random_boards() {
        let mut rng = crate::rng::SplitMix64(7);
        for _ in 0..300 {
            let board = Board::from_fn(|_| rng.chance(0.72));
            let hand: Vec<&Piece> = (0..3).map(|_| p(1 + rng.below(47))).collect();
            assert_eq!(hand_is_dead(board, &hand), brute_dead(board, &hand));
        }
    }

    // Every order, every placement, no pruning, via the public GameState API.
    fn brute_dead(board: Board, hand: &[&Piece]) -> bool {
        fn alive(s: GameState, hand: &[&Piece], used: &mut Vec<bool>) -> bool {
            if used.iter().all(|u| *u) {
                return true;
            }
            for i in 0..hand.len() {
                if used[i] {
                    continue;
                }
                for r in 0..9 {
                    for c in 0..9 {
                        let mut t = s;
                        if t.place(hand[i], r, c, Scoring::Squared).is_ok() {
                            used[i] = true;
                            let ok = alive(t, hand, used);
                            used[i] = false;
                            if ok {
                                return true;
                            }
                        }
                    }
                }
            }
            false
        }
        let s = GameState {
            board,
            ..GameState::default()
        };
        !alive(s, hand, &mut vec![false; hand.len()])
    }
}
