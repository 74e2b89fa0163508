//! The hard pieces' fit tests, split for speed: which 5-cell pieces fit nowhere and how
//! many placements they miss.

use puzzle_rules::blockudoku::catalogue;
use puzzle_rules::blockudoku::masks::H3_ANCHORS;

/// The hard pieces of the evaluation's `nofit` and `scarcity` terms: the catalogue's 5-cell
/// pieces, ids 33 to 47 (the 3-cell diagonals, ids 6 and 7, are counted apart).
pub const BIG_PIECES_FROM: usize = 32;

/// The `nofit` pieces, split for speed. Every catalogue piece is a straight line (`lines`,
/// tested on runs of empty cells) or fits a 3x3 box (`small`). The small ones all fit when
/// some 3x3 square is empty, which spares their tests on most boards; otherwise each is a
/// shift-and test sharing the shifts of the empty cells: the distinct cell offsets
/// (`row * 9 + col`) and, per piece, its anchors and the indices of its cells' offsets,
/// padded with `ALL`, a slot that is all ones.
pub(crate) struct NofitTable {
    offsets: Vec<u32>,
    /// Straight lines (anchors, length - 1, vertical): tested on runs of empty cells.
    lines: Vec<(u128, usize, bool)>,
    small: Vec<(u128, [u8; 5])>,
}

// Small pieces have their cells in a 3x3 frame: at most 9 distinct offsets.
const ALL: usize = 9;

/// The table of the hard 5-cell pieces, built once.
pub(crate) fn nofit_table() -> &'static NofitTable {
    static TABLE: std::sync::OnceLock<NofitTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut offsets: Vec<u32> = Vec::new();
        let (mut lines, mut small) = (Vec::new(), Vec::new());
        for p in &catalogue()[BIG_PIECES_FROM..] {
            let anchors = p.placements().iter().fold(0u128, |m, &(a, _)| m | 1 << a);
            if p.height() == 1 || p.width() == 1 {
                // A catalogue piece is connected, so one row or column is a line.
                assert!(p.size() <= 5, "catalogue piece {p}");
                lines.push((anchors, p.size() as usize - 1, p.width() == 1));
                continue;
            }
            assert!(p.height() <= 3 && p.width() <= 3, "catalogue piece {p}");
            let mut used = [ALL as u8; 5];
            for (u, &(r, c)) in used.iter_mut().zip(p.cells()) {
                let o = r as u32 * 9 + c as u32;
                let k = match offsets.iter().position(|&x| x == o) {
                    Some(k) => k,
                    None => {
                        offsets.push(o);
                        offsets.len() - 1
                    }
                };
                *u = k as u8;
            }
            small.push((anchors, used));
        }
        NofitTable {
            offsets,
            lines,
            small,
        }
    })
}

/// Anchors of empty runs of 1 to 5 cells, along rows (step 1) or columns (step 9); runs
/// that wrap past a row end are outside every line piece's anchors.
#[inline(always)]
fn runs(e: u128, step: u32) -> [u128; 5] {
    let r2 = e & e >> step;
    let r4 = r2 & r2 >> (2 * step);
    [e, r2, r2 & e >> (2 * step), r4, r4 & e >> (4 * step)]
}

/// Per piece of `table`, the anchors where it fits on the board with empty cells `e`.
#[inline(always)]
fn for_each_fit(e: u128, table: &NofitTable, small_too: bool, mut f: impl FnMut(u128)) {
    let (h, v) = (runs(e, 1), runs(e, 9));
    for &(anchors, len, vertical) in &table.lines {
        f(anchors & if vertical { v[len] } else { h[len] });
    }
    if !small_too {
        return;
    }
    let mut shifted = [!0u128; 16];
    for (s, &o) in shifted.iter_mut().zip(&table.offsets) {
        *s = e >> o;
    }
    for &(anchors, [i0, i1, i2, i3, i4]) in &table.small {
        let s = |i: u8| shifted[i as usize & 15];
        f(anchors & s(i0) & s(i1) & s(i2) & s(i3) & s(i4));
    }
}

/// Catalogue pieces of `table` that fit nowhere on the board with empty cells `e`.
#[inline(always)]
pub(super) fn nofit_count(e: u128, table: &NofitTable) -> u32 {
    // Every small piece fits an empty 3x3 square.
    let h3 = e & (e >> 1) & (e >> 2) & H3_ANCHORS;
    let small_too = h3 & h3 >> 9 & h3 >> 18 == 0;
    let mut n = 0;
    for_each_fit(e, table, small_too, |fits| n += (fits == 0) as u32);
    n
}

/// (pieces of `table` that fit nowhere, placements they miss to 4 in all).
#[inline(always)]
pub(super) fn fit_counts(e: u128, table: &NofitTable) -> (u32, u32) {
    let (mut none, mut missing) = (0, 0);
    for_each_fit(e, table, true, |fits| {
        let n = fits.count_ones();
        none += (n == 0) as u32;
        missing += 4u32.saturating_sub(n);
    });
    (none, missing)
}
