//! The hard pieces' fit tests, written for speed: which 5-cell pieces fit nowhere and how
//! many placements they miss.
//!
//! Every hard piece is a straight line of five or fits a 3x3 frame, and each is a union of
//! two or three shapes the evaluation already has: empty cells, horizontal dominoes, and the
//! 3-cell lines `h3`/`v3` of its `bar3` term. So a piece's fitting anchors are those shapes'
//! anchor masks shifted to the piece's cells and ANDed: two or three constant shifts per
//! piece, where a cell-by-cell test takes five. The shapes are checked against the catalogue
//! once ([`nofit_table`]) and by the tests, placement by placement.

use puzzle_rules::blockudoku::catalogue;
use puzzle_rules::blockudoku::masks::{column, FULL};

/// The hard pieces of the evaluation's `nofit` and `scarcity` terms: the catalogue's 5-cell
/// pieces, ids 33 to 47 (the 3-cell diagonals, ids 6 and 7, are counted apart).
pub const BIG_PIECES_FROM: usize = 32;

/// The hard pieces' shapes, ids 33 to 47, in the order of [`Shapes::fits`].
const HARD_SHAPES: [&str; 15] = [
    "#/#/#/#/#",
    "#####",
    ".#./###/.#.",
    "###/#.#",
    "#.#/###",
    "##/.#/##",
    "##/#./##",
    ".#./.#./###",
    "###/.#./.#.",
    "#../###/#..",
    "..#/###/..#",
    "..#/..#/###",
    "###/#../#..",
    "###/..#/..#",
    "#../#../###",
];

/// Witness that the catalogue's hard pieces are the shapes [`Shapes::fits`] is written for:
/// made once by [`nofit_table`], which checks them.
pub(crate) struct NofitTable(());

/// The hard pieces' fit tests, checked against the catalogue on first use.
pub(crate) fn nofit_table() -> &'static NofitTable {
    static TABLE: std::sync::OnceLock<NofitTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let hard: Vec<String> = catalogue()[BIG_PIECES_FROM..]
            .iter()
            .map(|p| p.shape())
            .collect();
        assert_eq!(hard, HARD_SHAPES, "the catalogue's hard pieces");
        NofitTable(())
    })
}

const COL8: u128 = column(8);

/// The shapes the hard pieces are made of, as anchor masks on the board with empty cells `e`.
#[derive(Clone, Copy)]
pub(super) struct Shapes {
    /// Empty cells.
    pub e: u128,
    /// Left ends of empty horizontal 3-cell lines (columns 0-6).
    pub h3: u128,
    /// Top ends of empty vertical 3-cell lines (rows 0-6).
    pub v3: u128,
}

impl Shapes {
    /// Per hard piece (ids 33 to 47, in order), the anchors where it fits.
    #[inline(always)]
    pub fn fits(self) -> [u128; 15] {
        let Shapes { e, h3, v3 } = self;
        // Left ends of empty horizontal dominoes (columns 0-7).
        let h2 = e & e >> 1 & !COL8;
        // Each line's anchors keep the piece on the board: an `h3` anchor is in columns 0-6,
        // a `v3` anchor in rows 0-6, and a cell below row 8 is never empty.
        [
            v3 & v3 >> 18,
            h3 & h3 >> 2,
            h3 >> 9 & v3 >> 1,
            h3 & e >> 9 & e >> 11,
            h3 >> 9 & e & e >> 2,
            h2 & h2 >> 18 & e >> 10,
            h2 & h2 >> 18 & e >> 9,
            v3 >> 1 & h3 >> 18,
            h3 & v3 >> 1,
            v3 & h3 >> 9,
            v3 >> 2 & h3 >> 9,
            v3 >> 2 & h3 >> 18,
            h3 & v3,
            h3 & v3 >> 2,
            v3 & h3 >> 18,
        ]
    }

    /// Whether some 3x3 square is empty: every hard piece but the two lines then fits.
    #[inline(always)]
    fn empty_square(self) -> bool {
        self.h3 & self.h3 >> 9 & self.h3 >> 18 != 0
    }
}

/// Hard pieces that fit nowhere.
#[inline(always)]
pub(super) fn nofit_count(s: Shapes, _: &NofitTable) -> u32 {
    let fits = s.fits();
    if s.empty_square() {
        return (fits[0] == 0) as u32 + (fits[1] == 0) as u32;
    }
    fits.iter().map(|&f| (f == 0) as u32).sum()
}

/// (hard pieces that fit nowhere, placements they miss to 4 in all).
#[inline(always)]
pub(super) fn fit_counts(s: Shapes, _: &NofitTable) -> (u32, u32) {
    let (mut none, mut missing) = (0, 0);
    for f in s.fits() {
        let n = f.count_ones();
        none += (n == 0) as u32;
        missing += 4u32.saturating_sub(n);
    }
    (none, missing)
}

/// The shapes of the board with empty cells `e` (no bits above the board).
#[inline(always)]
pub(super) fn shapes(e: u128) -> Shapes {
    debug_assert_eq!(e & !FULL, 0);
    let h3 = e & e >> 1 & e >> 2 & puzzle_rules::blockudoku::masks::H3_ANCHORS;
    let v3 = e & e >> 9 & e >> 18;
    Shapes { e, h3, v3 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_rules::blockudoku::Board;

    // Each piece's fit test against the catalogue's own placements, on boards of every
    // density, including the board edges where a shifted shape could wrap to the next row.
    #[test]
    fn fits_match_the_catalogue_placements() {
        use rand::{Rng, SeedableRng};
        nofit_table();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for n in 0..20_000 {
            let density = [0.05, 0.2, 0.4, 0.6, 0.8][n % 5];
            let board = Board::from_fn(|_| rng.gen_bool(density));
            let fits = shapes(!board.bits() & FULL).fits();
            for (k, piece) in catalogue()[BIG_PIECES_FROM..].iter().enumerate() {
                assert_eq!(
                    fits[k],
                    piece.fit_anchors(board),
                    "piece {piece} on {board}"
                );
            }
        }
    }
}
