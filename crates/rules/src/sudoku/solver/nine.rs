//! The specialised 9x9 solver: a band bitboard solver in the style of JCZSolve.
//!
//! Why this shape: the taboo oracle and `bench-solver` are dominated by 9x9 boards, and the
//! fastest published 9x9 solvers all keep, for every digit and every band (three rows), a
//! 27-bit mask of the cells where the digit may still go. One `u32` then holds a whole
//! "digit in band" sub-problem, and the constraints inside a band become table look-ups:
//!
//! - inside a band a digit takes one cell per row and one per box, i.e. one of 6 row-to-box
//!   permutations; [`PERM_KEEP`] keeps only the mini-rows used by a permutation still possible
//!   (this covers pointing and claiming locked candidates and hidden singles in rows/boxes);
//! - a box whose digit is confined to one column in this band removes that column from the
//!   other two bands ([`COL_LOCK`]); this is also what forbids a digit twice in a column;
//! - a row of the band with a single cell left for the digit solves that cell.
//!
//! Naked singles are found by counting candidates per cell with three running masks, which
//! also yields bivalue cells. This file is our own implementation of that published design
//! (tables are computed by `const fn` below, not copied).
//!
//! The search branches the way tdoku does (its write-up calls them band configurations): in
//! the horizontal band with the fewest digit configurations left, it takes a digit with the
//! fewest (at least two) and tries each of its configurations, a whole "which mini-row in
//! each row" choice. On forum-hardest-1106 that needs 141 search nodes per puzzle against
//! 197 when branching on the best bivalue cell, and takes about a fifth less time.
//! The band logic does not know that a mini-row holds exactly three digits; when the rest
//! of the propagation is stuck, [`Grid::minirow_triads`] applies that (tdoku's triads, for
//! horizontal mini-rows): it fails a mini-row that must take four digits (configuration
//! guesses in an almost empty band cause that; without the check, counting two solutions of
//! the empty grid did not finish within minutes), and it cuts search nodes on
//! forum-hardest-1106 from 139 to 122 per puzzle (propagations from 306 to 253). On nearly
//! full grids it costs more than it saves and is skipped ([`TRIAD_MIN_EMPTY`]).
//!
//! The propagation and search are compiled twice ([`Path`]): for the target's baseline and
//! for x86-64 CPUs with AVX2 and BMI2, picked at run time; the code is the same but for one
//! BMI2 bit extract (table look-ups on the baseline path).

use super::answer::{Answer, Request};

/// All 27 cells of a band.
const ALL: u32 = (1 << 27) - 1;

/// A 3-bit mask of the boxes (mini-rows) of one 9-bit band row that still hold candidates.
const fn shrink(row9: u32) -> u32 {
    ((row9 & 0o7 != 0) as u32)
        | (((row9 & 0o70 != 0) as u32) << 1)
        | (((row9 & 0o700 != 0) as u32) << 2)
}

const SHRINK: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = shrink(i as u32) as u8;
        i += 1;
    }
    t
};

/// For a 9-bit set of live mini-rows (bit `3*row + box`), the 27-bit cell mask of the
/// mini-rows that belong to at least one row-to-box permutation made only of live mini-rows.
const PERM_KEEP: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut keep = 0u32;
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let mut ok = true;
            let mut row = 0;
            while row < 3 {
                if s & (1 << (3 * row + perm[row])) == 0 {
                    ok = false;
                }
                row += 1;
            }
            if ok {
                let mut row = 0;
                while row < 3 {
                    keep |= 0o7 << (9 * row + 3 * perm[row]);
                    row += 1;
                }
            }
            p += 1;
        }
        t[s] = keep;
        s += 1;
    }
    t
};

/// For the 9-bit set of columns a digit may use in a band, the cells the other two bands
/// may keep: a box confined to one column in this band owns that column.
const COL_LOCK: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut remove = 0u32;
        let mut bx = 0;
        while bx < 3 {
            let c: u32 = (cols as u32 >> (3 * bx)) & 7;
            if c.count_ones() == 1 {
                let col = c.trailing_zeros() + 3 * bx as u32;
                remove |= (1 << col) | (1 << (col + 9)) | (1 << (col + 18));
            }
            bx += 1;
        }
        t[cols] = ALL & !remove;
        cols += 1;
    }
    t
};

/// For the 9-bit set of columns where a digit can only go in this band (no other band has
/// it there), the cells this band may keep: a box holding such a column must put the digit
/// in it, so its other columns go. This is column-to-box claiming, which also finds hidden
/// singles in columns; the band logic above only covers rows and boxes.
const CLAIM: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut only = 0;
    while only < 512 {
        let mut remove = 0u32;
        let mut bx = 0;
        while bx < 3 {
            let c = (only as u32 >> (3 * bx)) & 7;
            if c != 0 {
                let mut k = 0;
                while k < 3 {
                    if c & (1 << k) == 0 {
                        let col = 3 * bx as u32 + k;
                        remove |= (1 << col) | (1 << (col + 9)) | (1 << (col + 18));
                    }
                    k += 1;
                }
            }
            bx += 1;
        }
        t[only] = ALL & !remove;
        only += 1;
    }
    t
};

/// For a 9-bit band row, the row itself when it has exactly one cell, else 0.
const ROW_SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut r = 0;
    while r < 512 {
        if (r as u32).count_ones() == 1 {
            t[r] = r as u16;
        }
        r += 1;
    }
    t
};

/// For a 3-bit set of the rows of a band, their cells.
const ROWS_OF: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut s = 0;
    while s < 8 {
        let mut r = 0;
        while r < 3 {
            if s & (1 << r) != 0 {
                t[s] |= 0o777 << (9 * r);
            }
            r += 1;
        }
        s += 1;
    }
    t
};

/// For a 3-bit set of the boxes of a band, their cells.
const BOXES_OF: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut s = 0;
    while s < 8 {
        let mut b = 0;
        while b < 3 {
            if s & (1 << b) != 0 {
                t[s] |= 0o007_007_007 << (3 * b);
            }
            b += 1;
        }
        s += 1;
    }
    t
};

/// For a cell of a band (0..27), the cells of the same digit in the same band that may stay:
/// everything but its row and box peers (the cell itself stays).
const OWN_BAND_KEEP: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let row = i / 9;
        let bx = (i % 9) / 3;
        let mut peers = 0u32;
        let mut j = 0;
        while j < 27 {
            if j / 9 == row || (j % 9) / 3 == bx {
                peers |= 1 << j;
            }
            j += 1;
        }
        t[i] = (ALL & !peers) | (1 << i);
        i += 1;
    }
    t
};

/// For a cell of a band, the three cells of its column within any band.
const COLUMN: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let col = i % 9;
        t[i] = (1 << col) | (1 << (col + 9)) | (1 << (col + 18));
        i += 1;
    }
    t
};

/// The six ways a digit can cross a band: `PERMS[p][row]` is the box (mini-row) it takes
/// in `row`. Read with rows as bands and boxes as the columns of one box, the same six are
/// the ways a digit crosses a stack of boxes (a vertical band).
const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// For a 9-bit set of live mini-rows (bit `3*row + box`), the set of [`PERMS`] made only of
/// live mini-rows: a digit's possible configurations in the band.
const CONFIGS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut s = 0;
    while s < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            if s & (1 << perm[0]) != 0
                && s & (1 << (3 + perm[1])) != 0
                && s & (1 << (6 + perm[2])) != 0
            {
                t[s] |= 1 << p;
            }
            p += 1;
        }
        s += 1;
    }
    t
};

/// For a set of configurations (see [`CONFIGS`]), the mini-rows (bit `3*row + box`) that
/// every one of them uses: the digit must go there.
const CONFIG_MUST: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut set = 1;
    while set < 64 {
        let mut must = 0o777u16;
        let mut p = 0;
        while p < 6 {
            if set & (1 << p) != 0 {
                let mut used = 0u16;
                let mut row = 0;
                while row < 3 {
                    used |= 1 << (3 * row + PERMS[p][row]);
                    row += 1;
                }
                must &= used;
            }
            p += 1;
        }
        t[set] = must;
        set += 1;
    }
    t
};

/// For a set of configurations (see [`CONFIGS`]), the mini-rows (bit `3*row + box`) that at
/// least one of them uses: where the digit may still go.
const CONFIG_ANY: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut set = 1;
    while set < 64 {
        let mut p = 0;
        while p < 6 {
            if set & (1 << p) != 0 {
                let mut row = 0;
                while row < 3 {
                    t[set] |= 1 << (3 * row + PERMS[p][row]);
                    row += 1;
                }
            }
            p += 1;
        }
        set += 1;
    }
    t
};

/// For a 9-bit set of mini-rows of a band (bit `3*row + box`), their cells.
const MINIROW_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut k = 0;
        while k < 9 {
            if s & (1 << k) != 0 {
                t[s] |= 0o7 << (3 * k);
            }
            k += 1;
        }
        s += 1;
    }
    t
};

/// For a configuration of [`PERMS`] in a horizontal band, the cells it leaves the digit.
const CONFIG_CELLS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        let mut row = 0;
        while row < 3 {
            t[p] |= 0o7 << (9 * row + 3 * PERMS[p][row]);
            row += 1;
        }
        p += 1;
    }
    t
};

/// For a vertical band (stack) `v` and a configuration `p` of [`PERMS`] (band to column of
/// the stack), `STACK_CONFIG_CELLS[v][p][band]` is the cells band `band` keeps for the digit.
const STACK_CONFIG_CELLS: [[[u32; 3]; 6]; 3] = {
    let mut t = [[[0u32; 3]; 6]; 3];
    let mut v = 0;
    while v < 3 {
        let mut p = 0;
        while p < 6 {
            let mut band = 0;
            while band < 3 {
                let mut remove = 0u32;
                let mut j = 0;
                while j < 3 {
                    if j != PERMS[p][band] {
                        let col = 3 * v + j;
                        remove |= (1 << col) | (1 << (col + 9)) | (1 << (col + 18));
                    }
                    j += 1;
                }
                t[v][p][band] = ALL & !remove;
                band += 1;
            }
            p += 1;
        }
        v += 1;
    }
    t
};

/// `BAND_BYTES[k][band]` selects, in the `k`-th `u64` of [`Grid::configs`], the bytes of the
/// digit-bands of `band` (byte `i` of the array belongs to band `i % 3`; bytes 27.. are 0).
const BAND_BYTES: [[u64; 3]; 4] = {
    let mut t = [[0u64; 3]; 4];
    let mut i = 0;
    while i < 27 {
        t[i / 8][i % 3] |= 0xff << (8 * (i % 8));
        i += 1;
    }
    t
};

/// [`Grid::minirow_triads`] runs on grids with at least this many empty cells (40 was 4%
/// faster on serg-benchmark than always, and the same on the other collections).
const TRIAD_MIN_EMPTY: u32 = 40;

/// [`Grid::pick_config`] takes the digit with the most configurations, not the fewest,
/// below this many empty cells until a guess fails (40 and 50 gave the same serg-benchmark
/// time, -5%; 50 cost magictour-top1465 2%, no bound 3-4% on it and on 17-clue).
const WIDEST_MAX_EMPTY: u32 = 40;

/// The live mini-rows of a digit-band word (bit `3 * row + box`) with BMI2's bit extract:
/// one instruction instead of three table look-ups. Only for [`Path::Avx2`] (see
/// [`Grid::update_one`]); elsewhere it is never called.
#[inline(always)]
fn live_minirows_pext(p: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: only called with `PEXT` true, i.e. from `propagate_avx2`, which runs only
        // on CPUs with BMI2 (`Path::is_supported`).
        unsafe { std::arch::x86_64::_pext_u32(p | (p >> 1) | (p >> 2), 0o111_111_111) as usize }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        unreachable!("no bit extract on this target: {p}")
    }
}

/// The live mini-rows of a digit-band word (27 bits; bit `3 * row + box`) by table
/// look-ups: the baseline path's [`live_minirows_pext`].
#[inline(always)]
fn live_minirows(p: u32) -> usize {
    SHRINK[(p & 0o777) as usize] as usize
        | (SHRINK[((p >> 9) & 0o777) as usize] as usize) << 3
        | (SHRINK[(p >> 18) as usize] as usize) << 6
}

/// What [`Grid::candidate_counts`] finds, per band: the cells with at least one candidate
/// (`one`), with at least two (`two`), and for `k` in 0..4 the cells where some digit `d`
/// (0..9) with bit `k` of `d` set may go (`bits[k]`): on a cell with one candidate they spell
/// its digit.
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    one: [u32; 3],
    two: [u32; 3],
    bits: [[u32; 3]; 4],
}

/// A contradiction: the position has no solution.
struct Dead;

/// Solver state. `poss[3 * digit + band]` holds the cells of `band` where `digit` may go.
#[derive(Clone, Copy)]
struct Grid {
    poss: [u32; 27],
    /// `poss` as of the last time its band logic ran; a difference means work to do.
    seen: [u32; 27],
    unsolved: [u32; 3],
    /// The configurations (see [`CONFIGS`]) of `poss[sub]` as of its last band update.
    /// (Padded to 32 bytes so that [`Grid::pick_config`] can read it as four `u64`.)
    configs: [u8; 32],
    /// The columns (9 bits) of `poss[sub]` as of its last band update.
    cols: [u16; 27],
}

/// For each value `v` in 0..=9 and band `b`, the cells of the band holding `v`, at
/// `3 * v + b` (value 0 is an empty cell).
#[inline(always)]
fn value_masks(cells: &[u8; 81]) -> [u32; 30] {
    #[cfg(target_arch = "x86_64")]
    {
        value_masks_sse2(cells)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        value_masks_plain(cells)
    }
}

/// [`value_masks`] one cell at a time, for targets without SSE2 (and tests).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn value_masks_plain(cells: &[u8; 81]) -> [u32; 30] {
    let mut masks = [0u32; 30];
    for (i, &v) in cells.iter().enumerate() {
        if v <= 9 {
            masks[3 * v as usize + i / 27] |= 1 << (i % 27);
        }
    }
    masks
}

/// [`value_masks`] with SSE2 (part of the x86-64 baseline, so every path may use it): one
/// byte compare and one mask extraction per 16 cells and value. Placing givens one by one
/// was a tenth of the solve time on puzzles with many givens. Reads `cells` in place: the
/// second load of the last band starts 5 bytes early and drops them (copying the cells into
/// a padded buffer first cost a memcpy per solve).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn value_masks_sse2(cells: &[u8; 81]) -> [u32; 30] {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let mut masks = [0u32; 30];
    for band in 0..3 {
        // Cells 27 * band + 16 .. 27 * band + 27 at bit 0 of the second mask: for the last
        // band the load starts at 65 so as to end at 81, and its first 5 bytes are dropped.
        let (hi_at, hi_skip) = if band == 2 {
            (65, 5)
        } else {
            (27 * band + 16, 0)
        };
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads read bytes
        // 27 * band .. 27 * band + 16 <= 70 and hi_at .. hi_at + 16 <= 81 of `cells`
        // (unaligned loads).
        unsafe {
            let lo = _mm_loadu_si128(cells.as_ptr().add(27 * band) as *const __m128i);
            let hi = _mm_loadu_si128(cells.as_ptr().add(hi_at) as *const __m128i);
            for v in 0..10 {
                let value = _mm_set1_epi8(v as i8);
                let m = _mm_movemask_epi8(_mm_cmpeq_epi8(lo, value)) as u32
                    | (_mm_movemask_epi8(_mm_cmpeq_epi8(hi, value)) as u32 >> hi_skip) << 16;
                masks[3 * v + band] = m & ALL;
            }
        }
    }
    masks
}

/// Where the search reports: stops at `limit`, keeps the first solution when asked to.
struct Tally {
    limit: usize,
    count: usize,
    first: Option<[u8; 81]>,
    want_first: bool,
    /// Whether a guess of this solve has led to a contradiction yet (see
    /// [`Grid::pick_config`]).
    dead_end: bool,
}

impl Grid {
    /// The grid of a puzzle's givens with what they rule out directly (each given's row, column
    /// and box peers, and its cell for the other digits); the band logic in `update` finishes
    /// the job. When two givens of a digit share a row, column or box, the first digit-band
    /// is left empty, so that [`Grid::batch_update`] fails (not an `Option`: returning one
    /// copied the grid, a memcpy per solve).
    ///
    /// Built for all givens at once, without branches: on puzzles with many givens placing
    /// them one by one was a tenth of the solve time.
    #[inline(always)]
    fn from_cells(cells: &[u8; 81]) -> Grid {
        let given = value_masks(cells);
        // A cell holding something other than 0..=9 counts as filled by no digit: no solution.
        let occupied = [ALL & !given[0], ALL & !given[1], ALL & !given[2]];
        let given = &given[3..];
        let mut grid = Grid {
            poss: [0; 27],
            seen: [0; 27],
            unsolved: occupied.map(|o| ALL & !o),
            configs: [0; 32],
            cols: [0o777; 27],
        };
        let mut conflict = false;
        for d in 0..9 {
            let g = [given[3 * d], given[3 * d + 1], given[3 * d + 2]];
            let cols = g.map(|g| (g | (g >> 9) | (g >> 18)) & 0o777);
            let all_cols = cols[0] | cols[1] | cols[2];
            let count = g[0].count_ones() + g[1].count_ones() + g[2].count_ones();
            let (mut rows, mut boxes) = (0, 0);
            let col_keep = !(all_cols | (all_cols << 9) | (all_cols << 18));
            for band in 0..3 {
                let row_set = (g[band] & 0o777 != 0) as usize
                    | ((g[band] & (0o777 << 9) != 0) as usize) << 1
                    | ((g[band] & (0o777 << 18) != 0) as usize) << 2;
                let box_set = SHRINK[cols[band] as usize] as usize;
                rows += row_set.count_ones();
                boxes += box_set.count_ones();
                let keep = col_keep & !ROWS_OF[row_set] & !BOXES_OF[box_set] & !occupied[band];
                grid.poss[3 * d + band] = (ALL & keep) | g[band];
            }
            // One given per row, column and box: as many of each used as there are givens.
            conflict |= all_cols.count_ones() != count || rows != count || boxes != count;
        }
        grid.poss[0] &= (conflict as u32).wrapping_sub(1);
        grid
    }

    /// Puts digit `sub / 3` in the cell `mask` of band `sub % 3`, a cell no other digit can
    /// take (a naked single): only the digit's own three words change.
    #[inline(always)]
    fn place_single(&mut self, sub: usize, mask: u32) -> u32 {
        let band = sub % 3;
        let digit_base = sub - band;
        let i = mask.trailing_zeros() as usize;
        // Mask every band, then restore this one: no branches.
        let old = self.poss[sub];
        let own = old & OWN_BAND_KEEP[i];
        let gone = COLUMN[i];
        let (w0, w1, w2) = (
            self.poss[digit_base],
            self.poss[digit_base + 1],
            self.poss[digit_base + 2],
        );
        let changed = ((w0 & gone != 0) as u32
            | ((w1 & gone != 0) as u32) << 1
            | ((w2 & gone != 0) as u32) << 2)
            << digit_base;
        self.poss[digit_base] = w0 & !gone;
        self.poss[digit_base + 1] = w1 & !gone;
        self.poss[digit_base + 2] = w2 & !gone;
        self.poss[sub] = own;
        self.unsolved[band] &= !mask;
        // The own word's column bit is the placed cell, which stays: its bit above came
        // from it; whether the word changed is whether the row and box peers went.
        (changed & !(1 << sub)) | ((own != old) as u32) << sub
    }

    /// Runs the band logic on every changed digit-band until nothing changes, starting
    /// from `dirty`, the digit-bands the caller changed (every other word must be up to
    /// date: the guess, the placed singles, claiming and triads report what they changed,
    /// which saved a fifth of the scans below and 7% of the time on serg-benchmark).
    ///
    /// After each round the changed digit-bands are gathered into a bit mask by branch-free
    /// compares ([`Grid::changed_words`]) and then visited in order: testing each of the 27
    /// in turn mispredicted often enough to cost more than the band logic itself. Tracking
    /// the changes of every write of the band logic instead (exact change bits for the
    /// column locks and solved rows) cost more than the scans it saved: 10% on
    /// serg-benchmark, more when the next word to visit waited on those bits.
    #[inline(always)]
    fn update<const PEXT: bool>(&mut self, mut dirty: u32) -> Result<(), Dead> {
        while dirty != 0 {
            while dirty != 0 {
                let sub = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                self.update_one::<PEXT>(sub)?;
            }
            dirty = self.changed_words();
        }
        Ok(())
    }

    /// The digit-bands whose words changed since their last band update. The compares load
    /// `poss` one word at a time: the compiler's vector loads had to wait for the scalar
    /// stores of the band logic just before them (a store cannot be forwarded to a wider
    /// load), a sixth of the time on easy puzzles. (`seen` as vectors is faster than as
    /// scalar loads too, by about 10% on serg-benchmark.)
    #[inline(always)]
    fn changed_words(&self) -> u32 {
        let mut dirty = 0u32;
        for sub in 0..27 {
            // SAFETY: in bounds; volatile only keeps these loads scalar.
            let p = unsafe { std::ptr::read_volatile(&self.poss[sub]) };
            dirty |= ((p != self.seen[sub]) as u32) << sub;
        }
        dirty
    }

    #[inline(always)]
    fn update_one<const PEXT: bool>(&mut self, sub: usize) -> Result<(), Dead> {
        let p = self.poss[sub];
        let live = if PEXT {
            live_minirows_pext(p)
        } else {
            live_minirows(p)
        };
        let p = p & PERM_KEEP[live];
        if p == 0 {
            return Err(Dead);
        }
        self.poss[sub] = p;
        self.seen[sub] = p;
        self.configs[sub] = CONFIGS[live];

        let band = sub % 3;
        let digit_base = sub - band;
        let cols = (p | (p >> 9) | (p >> 18)) & 0o777;
        self.cols[sub] = cols as u16;
        let keep = COL_LOCK[cols as usize];
        // Writing all three and restoring ours needs no branch on which band is ours.
        let own = self.poss[sub];
        self.poss[digit_base] &= keep;
        self.poss[digit_base + 1] &= keep;
        self.poss[digit_base + 2] &= keep;
        self.poss[sub] = own;

        let solved = ROW_SINGLE[(p & 0o777) as usize] as u32
            | (ROW_SINGLE[((p >> 9) & 0o777) as usize] as u32) << 9
            | (ROW_SINGLE[(p >> 18) as usize] as u32) << 18;
        let solved = solved & self.unsolved[band];
        // Unconditional: whether a row was solved is too random to branch on.
        self.unsolved[band] &= !solved;
        let not_solved = !solved;
        for d in 0..9 {
            self.poss[3 * d + band] &= not_solved;
        }
        self.poss[sub] = p;
        Ok(())
    }

    /// Column claiming for every digit (see [`CLAIM`]). Returns the digit-bands it changed.
    #[inline(always)]
    fn claim_columns(&mut self) -> Result<u32, Dead> {
        // Reads the column sets the band updates left (all words are up to date here), and
        // touches a digit's words only when its claiming removes something, which is rare.
        let mut changed = 0u32;
        for base in (0..27).step_by(3) {
            let (c0, c1, c2) = (
                self.cols[base] as u32,
                self.cols[base + 1] as u32,
                self.cols[base + 2] as u32,
            );
            if c0 | c1 | c2 != 0o777 {
                return Err(Dead);
            }
            let keep = [
                CLAIM[(c0 & !(c1 | c2)) as usize],
                CLAIM[(c1 & !(c0 | c2)) as usize],
                CLAIM[(c2 & !(c0 | c1)) as usize],
            ];
            // Column bits of a band word read off its first row of `keep`.
            let fire = (c0 & !keep[0]) | (c1 & !keep[1]) | (c2 & !keep[2]);
            if fire & 0o777 != 0 {
                for (b, &k) in keep.iter().enumerate() {
                    changed |= ((self.poss[base + b] & !k != 0) as u32) << (base + b);
                    self.poss[base + b] &= k;
                }
            }
        }
        Ok(changed)
    }

    /// Places every cell with a single candidate. Returns the digit-bands it changed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<u32, Dead> {
        let mut placed = 0u32;
        let Counts { one, two, bits } = self.candidate_counts();
        if one != [ALL; 3] {
            return Err(Dead);
        }
        for band in 0..3 {
            // Counted before the singles of the bands above were placed: a cell they
            // emptied is caught below, one they left single is found in the next round.
            let mut singles = (one[band] & !two[band]) & self.unsolved[band];
            while singles != 0 {
                let mask = singles & singles.wrapping_neg();
                singles &= singles - 1;
                // The cell's digit read off the bit planes of the digit numbers (a single
                // has one digit, so they spell it): four bit tests, where testing the nine
                // digits' words would take nine loads. An earlier single may have taken its last
                // candidate since (then the planes still name that digit).
                let i = mask.trailing_zeros();
                let digit = ((bits[0][band] >> i) & 1)
                    | ((bits[1][band] >> i) & 1) << 1
                    | ((bits[2][band] >> i) & 1) << 2
                    | ((bits[3][band] >> i) & 1) << 3;
                let sub = 3 * digit as usize + band;
                if sub >= 27 || self.poss[sub] & mask == 0 {
                    return Err(Dead);
                }
                placed |= self.place_single(sub, mask);
            }
        }
        Ok(placed)
    }

    /// Per band, the cells with at least one candidate, those with at least two, and the bit
    /// planes of the digit numbers (see [`Counts`]).
    #[inline(always)]
    fn candidate_counts(&self) -> Counts {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{
                __m128i, _mm_and_si128, _mm_loadu_si128, _mm_or_si128, _mm_setzero_si128,
                _mm_srli_si128, _mm_storeu_si128,
            };
            // One 4-word load per digit takes its three bands at once (SSE2 is part of the
            // x86-64 baseline, so every path may use it).
            let base = self.poss.as_ptr();
            // SAFETY: the loads read words 3 * d .. 3 * d + 4 <= 24 for d < 8 and 23..27
            // for the last digit, all inside `poss` (unaligned loads).
            unsafe {
                let mut one = _mm_setzero_si128();
                let mut two = _mm_setzero_si128();
                let mut planes = [_mm_setzero_si128(); 3];
                for d in 0..8 {
                    let m = _mm_loadu_si128(base.add(3 * d) as *const __m128i);
                    two = _mm_or_si128(two, _mm_and_si128(one, m));
                    one = _mm_or_si128(one, m);
                    for (k, plane) in planes.iter_mut().enumerate() {
                        if d & (1 << k) != 0 {
                            *plane = _mm_or_si128(*plane, m);
                        }
                    }
                }
                let m = _mm_srli_si128::<4>(_mm_loadu_si128(base.add(23) as *const __m128i));
                two = _mm_or_si128(two, _mm_and_si128(one, m));
                one = _mm_or_si128(one, m);
                let mut out = [[0u32; 4]; 6];
                for (o, v) in out
                    .iter_mut()
                    .zip([one, two, planes[0], planes[1], planes[2], m])
                {
                    _mm_storeu_si128(o.as_mut_ptr() as *mut __m128i, v);
                }
                let three = |o: [u32; 4]| [o[0], o[1], o[2]];
                Counts {
                    one: three(out[0]),
                    two: three(out[1]),
                    bits: [three(out[2]), three(out[3]), three(out[4]), three(out[5])],
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.candidate_counts_plain()
        }
    }

    /// [`Grid::candidate_counts`] one word at a time, for targets without SSE2 (and tests).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    fn candidate_counts_plain(&self) -> Counts {
        let (mut one, mut two) = ([0u32; 3], [0u32; 3]);
        let mut bits = [[0u32; 3]; 4];
        for d in 0..9 {
            for band in 0..3 {
                let m = self.poss[3 * d + band];
                two[band] |= one[band] & m;
                one[band] |= m;
                for (k, plane) in bits.iter_mut().enumerate() {
                    if d & (1 << k) != 0 {
                        plane[band] |= m;
                    }
                }
            }
        }
        Counts { one, two, bits }
    }

    /// The cells not yet solved.
    fn empty_cells(&self) -> u32 {
        self.unsolved[0].count_ones()
            + self.unsolved[1].count_ones()
            + self.unsolved[2].count_ones()
    }

    /// The band logic of [`Grid::update_one`] on all 27 digit-bands at once, each from the
    /// grid as it is on entry (not from each other's results), then every removal applied
    /// together. Used once, on the grid of the givens, where every digit-band is new: the
    /// 27 updates have no dependencies between them, so they overlap, where one by one each
    /// waited for the stores of the one before. Each word is marked seen as it was on
    /// entry, so whatever this round (or its own permutation rule) removed from it is
    /// looked at again by [`Grid::update`], which reaches the same fixed point.
    #[inline(always)]
    fn batch_update<const PEXT: bool>(&mut self) -> Result<u32, Dead> {
        // Indexed [digit][band], so that the band is a constant in the unrolled loops.
        let mut kept = [[0u32; 3]; 9];
        let mut singles = [[0u32; 3]; 9];
        let mut keep = [[0u32; 3]; 9];
        let unsolved = self.unsolved;
        let mut dead = false;
        for d in 0..9 {
            for band in 0..3 {
                let sub = 3 * d + band;
                let p = self.poss[sub];
                let live = if PEXT {
                    live_minirows_pext(p)
                } else {
                    live_minirows(p)
                } & 0o777;
                let q = p & PERM_KEEP[live];
                dead |= q == 0;
                kept[d][band] = q;
                self.seen[sub] = p;
                self.configs[sub] = CONFIGS[live];
                let cols = (q | (q >> 9) | (q >> 18)) & 0o777;
                self.cols[sub] = cols as u16;
                keep[d][band] = COL_LOCK[cols as usize];
                singles[d][band] = (ROW_SINGLE[(q & 0o777) as usize] as u32
                    | (ROW_SINGLE[((q >> 9) & 0o777) as usize] as u32) << 9
                    | (ROW_SINGLE[((q >> 18) & 0o777) as usize] as u32) << 18)
                    & unsolved[band];
            }
        }
        // The cells solved in each band, and those claimed by two digits at once.
        let (mut one, mut two) = ([0u32; 3], 0u32);
        for s in singles.iter() {
            for band in 0..3 {
                two |= one[band] & s[band];
                one[band] |= s[band];
            }
        }
        let mut changed = 0u32;
        for d in 0..9 {
            let k = keep[d];
            let others = [k[1] & k[2], k[0] & k[2], k[0] & k[1]];
            for band in 0..3 {
                let sub = 3 * d + band;
                let p = kept[d][band] & others[band] & !(one[band] & !singles[d][band]);
                changed |= ((p != self.seen[sub]) as u32) << sub;
                self.poss[sub] = p;
            }
        }
        for (u, o) in self.unsolved.iter_mut().zip(one) {
            *u &= !o;
        }
        if dead || two != 0 {
            return Err(Dead);
        }
        Ok(changed)
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// Propagates to a fixed point. `Ok` means solved or stuck (a guess is needed). Inlined
    /// into each compiled copy of the solver ([`Engine::propagate`]).
    #[inline(always)]
    fn propagate_body<const PEXT: bool>(
        &mut self,
        mut dirty: u32,
        claim: bool,
    ) -> Result<(), Dead> {
        loop {
            self.update::<PEXT>(dirty)?;
            if self.is_solved() {
                return Ok(());
            }
            dirty = self.naked_singles()?;
            if dirty != 0 {
                continue;
            }
            // Claiming only when singles are exhausted: it rarely fires earlier, and is what
            // saves guesses on the hardest puzzles.
            // Triads last, and only on grids with many empty cells: they are what fails
            // overfull mini-rows in sparse bands and cuts guesses on the hardest puzzles,
            // but on nearly full grids (serg-benchmark) they cost more than they save.
            dirty = if claim { self.claim_columns()? } else { 0 };
            if dirty == 0 && self.empty_cells() >= TRIAD_MIN_EMPTY {
                dirty = self.minirow_triads()?;
            }
            if dirty == 0 {
                return Ok(());
            }
        }
    }

    fn solution(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for sub in 0..27 {
            let (digit, band) = (sub / 3, sub % 3);
            let mut m = self.poss[sub];
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                out[band * 27 + i] = digit as u8 + 1;
            }
        }
        out
    }

    /// Mini-row logic: a mini-row holds exactly three digits. Where three digits must go
    /// in a mini-row (every configuration left to each uses it), no other digit may; where
    /// only three digits may go, each of them must, so it leaves the mini-rows that share a
    /// row or box with it. Mini-rows of all three bands are handled at once, packed as bit
    /// `9 * band + 3 * row + box`. Returns the digit-bands it changed.
    #[inline(always)]
    fn minirow_triads(&mut self) -> Result<u32, Dead> {
        let mut must = [0u32; 9];
        let mut may = [0u32; 9];
        let (mut m1, mut m2, mut m3, mut m4) = (0u32, 0u32, 0u32, 0u32);
        let (mut c1, mut c2, mut c3, mut c4) = (0u32, 0u32, 0u32, 0u32);
        for d in 0..9 {
            let c = [
                self.configs[3 * d] as usize,
                self.configs[3 * d + 1] as usize,
                self.configs[3 * d + 2] as usize,
            ];
            let mu = CONFIG_MUST[c[0]] as u32
                | (CONFIG_MUST[c[1]] as u32) << 9
                | (CONFIG_MUST[c[2]] as u32) << 18;
            let ma = CONFIG_ANY[c[0]] as u32
                | (CONFIG_ANY[c[1]] as u32) << 9
                | (CONFIG_ANY[c[2]] as u32) << 18;
            must[d] = mu;
            may[d] = ma;
            m4 |= m3 & mu;
            m3 |= m2 & mu;
            m2 |= m1 & mu;
            m1 |= mu;
            c4 |= c3 & ma;
            c3 |= c2 & ma;
            c2 |= c1 & ma;
            c1 |= ma;
        }
        if m4 != 0 || c3 != ALL {
            return Err(Dead);
        }
        // Only mini-rows where a rule removes something: three digits must go there and a
        // fourth may, or three may and not all of them must yet.
        let full = m3 & c4;
        let forced = c3 & !c4 & !m3;
        if full | forced == 0 {
            return Ok(0);
        }
        let mut changed = 0u32;
        for d in 0..9 {
            let f = forced & may[d];
            // Rows and boxes (within each band) of the forced mini-rows.
            let rows = ((f | (f >> 1) | (f >> 2)) & 0o111_111_111) * 7;
            let boxes = ((f | (f >> 3) | (f >> 6)) & 0o007_007_007) * 0o111;
            let gone = ((rows | boxes) & !f) | (full & !must[d]);
            for band in 0..3 {
                let remove = MINIROW_CELLS[((gone >> (9 * band)) & 0o777) as usize];
                let old = self.poss[3 * d + band];
                changed |= ((old & remove != 0) as u32) << (3 * d + band);
                self.poss[3 * d + band] = old & !remove;
            }
        }
        Ok(changed)
    }

    /// Where to branch: the band (0..3 horizontal, 3..6 vertical) with the fewest digit
    /// configurations that is not yet fixed, and in it a digit with the fewest
    /// configurations (at least two), or the most when `dead_end` is false (no guess of
    /// this solve has failed yet) and fewer than [`WIDEST_MAX_EMPTY`] cells are empty. Returns the band, the digit and the digit's set of
    /// configurations. Branching on a whole configuration of a digit in its most
    /// constrained band (tdoku's choice) needs far fewer guesses on hard puzzles than
    /// branching on a bivalue cell.
    #[inline(always)]
    fn pick_config(&self, dead_end: bool) -> (usize, usize, u8) {
        // The configuration count of a band is the number of set bits in the bytes of its
        // digits: four 64-bit popcounts of masked words per band.
        let mut totals = [0u32; 6];
        for (k, chunk) in self.configs.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            for (band, total) in totals.iter_mut().take(3).enumerate() {
                *total += (word & BAND_BYTES[k][band]).count_ones();
            }
        }
        let mut stacks = [[0u8; 3]; 9];
        if totals[0] + totals[1] + totals[2] == 27 {
            for (d, stack) in stacks.iter_mut().enumerate() {
                let base = 3 * d;
                let cols = |p: u32| (p | (p >> 9) | (p >> 18)) & 0o777;
                let (c0, c1, c2) = (
                    cols(self.poss[base]),
                    cols(self.poss[base + 1]),
                    cols(self.poss[base + 2]),
                );
                for (v, s) in stack.iter_mut().enumerate() {
                    let shift = 3 * v;
                    let live = ((c0 >> shift) & 7)
                        | (((c1 >> shift) & 7) << 3)
                        | (((c2 >> shift) & 7) << 6);
                    *s = CONFIGS[live as usize];
                    totals[3 + v] += s.count_ones();
                }
            }
        }
        // A fixed band has one configuration per digit.
        let mut band = 0;
        let mut best = u32::MAX;
        for (i, &t) in totals.iter().enumerate() {
            if t > 9 && t < best {
                best = t;
                band = i;
            }
        }
        // Widest while the search has not met a contradiction on a nearly full grid: such
        // a grid likely has many solutions (serg-benchmark), and a guess that fixes more
        // gets there in fewer propagations (8.31 -> 7.37 per puzzle there).
        let widest = !dead_end && self.empty_cells() < WIDEST_MAX_EMPTY;
        let mut pick = (band, 0, 0u8);
        let mut fewest = u32::MAX;
        for (d, stack) in stacks.iter().enumerate() {
            let set = if band < 3 {
                self.configs[3 * d + band]
            } else {
                stack[band - 3]
            };
            let n = set.count_ones();
            // Ties go to the digit with the fewest cells left in the band: 4% fewer
            // propagations on magictour-top1465 than the first digit found.
            let cells = if band < 3 {
                self.poss[3 * d + band].count_ones()
            } else {
                0
            };
            let score = if widest { 8 - n } else { n } * 64 + cells;
            if n >= 2 && score < fewest {
                fewest = score;
                pick = (band, d, set);
            }
        }
        pick
    }

    /// Restricts `digit` to configuration `config` of `band` (as numbered by
    /// [`Grid::pick_config`]).
    #[inline(always)]
    fn assume(&mut self, band: usize, digit: usize, config: usize) -> u32 {
        let base = 3 * digit;
        if band < 3 {
            // The digit has another configuration, whose cells go: the word changes.
            self.poss[base + band] &= CONFIG_CELLS[config];
            1 << (base + band)
        } else {
            let keep = &STACK_CONFIG_CELLS[band - 3][config];
            let mut changed = 0;
            for (b, &k) in keep.iter().enumerate() {
                changed |= ((self.poss[base + b] & !k != 0) as u32) << (base + b);
                self.poss[base + b] &= k;
            }
            changed
        }
    }

    /// Depth-first search on a propagated grid: one child per configuration of the chosen
    /// digit in the chosen band; the last child reuses this grid. Inlined into each compiled
    /// copy of the solver ([`Engine::search`]).
    #[inline(always)]
    fn search_body<E: Engine>(&mut self, tally: &mut Tally) {
        if self.is_solved() {
            tally.count += 1;
            if tally.want_first && tally.first.is_none() {
                tally.first = Some(self.solution());
            }
            return;
        }
        let (band, digit, mut configs) = self.pick_config(tally.dead_end);
        // Column claiming (after the first propagation) only once a guess of this solve
        // has failed: before that the puzzle likely has many solutions, and claiming
        // almost never fires (0.05 times per serg-benchmark puzzle) but costs a pass over
        // all digits per propagation (serg-benchmark 1.81 -> 1.73 us; magictour-top1465
        // +1%, the other two unchanged or faster).
        let claim = tally.dead_end;
        // Unsolved after propagation means some band is not fixed: a digit has two or more.
        debug_assert!(configs.count_ones() >= 2);
        while configs != 0 {
            let config = configs.trailing_zeros() as usize;
            configs &= configs - 1;
            if configs == 0 {
                let dirty = self.assume(band, digit, config);
                if E::propagate(self, dirty, claim).is_ok() {
                    E::search(self, tally);
                } else {
                    tally.dead_end = true;
                }
                return;
            }
            let mut child = *self;
            let dirty = child.assume(band, digit, config);
            if E::propagate(&mut child, dirty, claim).is_ok() {
                E::search(&mut child, tally);
                if tally.count >= tally.limit {
                    return;
                }
            } else {
                tally.dead_end = true;
            }
        }
    }
}

/// Which compiled copy of the solver runs. The code is the same; the copies differ in the
/// instructions the compiler may use, so the fast one is chosen at run time from the CPU's
/// features and the plain one runs everywhere (and in tests, on purpose).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Baseline instructions of the target (SSE2 on x86-64): runs on any CPU.
    Scalar,
    /// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT: one-instruction popcounts and
    /// trailing-zero counts, flag-free shifts, a bit extract for the live mini-rows of a
    /// band (the one place where the code differs: same results). Falls back to
    /// [`Path::Scalar`] on CPUs without them.
    Avx2,
}

impl Path {
    /// The fastest path this CPU supports.
    pub fn fastest() -> Path {
        if Path::Avx2.is_supported() {
            Path::Avx2
        } else {
            Path::Scalar
        }
    }

    /// True when this CPU can run the path.
    pub fn is_supported(self) -> bool {
        match self {
            Path::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Path::Avx2 => false,
        }
    }
}

/// One compiled copy of the recursive part of the solver (propagation and search): the
/// search calls back through it, so a whole solve stays on one path.
trait Engine {
    /// Propagates `grid` to a fixed point; `dirty` holds at least the digit-bands changed
    /// since the last one.
    fn propagate(grid: &mut Grid, dirty: u32, claim: bool) -> Result<(), Dead>;
    fn search(grid: &mut Grid, tally: &mut Tally);
}

/// [`Path::Scalar`].
struct Scalar;

impl Engine for Scalar {
    #[inline(never)]
    fn propagate(grid: &mut Grid, dirty: u32, claim: bool) -> Result<(), Dead> {
        grid.propagate_body::<false>(dirty, claim)
    }

    fn search(grid: &mut Grid, tally: &mut Tally) {
        grid.search_body::<Scalar>(tally);
    }
}

/// [`Path::Avx2`]. Only used after [`Path::is_supported`] said yes (see [`solve_cells_on`]).
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
#[inline(never)]
fn propagate_avx2(grid: &mut Grid, dirty: u32, claim: bool) -> Result<(), Dead> {
    grid.propagate_body::<true>(dirty, claim)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn search_avx2(grid: &mut Grid, tally: &mut Tally) {
    grid.search_body::<Avx2>(tally);
}

/// Builds the grid of `cells` and solves it on [`Path::Avx2`]: the grid is built here too, so
/// that its popcounts are single instructions (on the baseline path they are a tenth of the
/// time on puzzles with many givens).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn solve_avx2(cells: &[u8; 81], tally: &mut Tally) {
    let mut grid = Grid::from_cells(cells);
    if let Ok(dirty) = grid.batch_update::<true>() {
        if propagate_avx2(&mut grid, dirty, true).is_ok() {
            search_avx2(&mut grid, tally);
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl Engine for Avx2 {
    #[inline(always)]
    fn propagate(grid: &mut Grid, dirty: u32, claim: bool) -> Result<(), Dead> {
        // SAFETY: `Avx2` is only reached through `solve_avx2`, which `solve_cells_on` calls
        // only after `Path::Avx2.is_supported()` confirmed every enabled feature.
        unsafe { propagate_avx2(grid, dirty, claim) }
    }

    #[inline(always)]
    fn search(grid: &mut Grid, tally: &mut Tally) {
        // SAFETY: as in `propagate` above.
        unsafe { search_avx2(grid, tally) }
    }
}

/// Counts solutions of a 9x9 puzzle (81 cells, row-major, 0 empty, values 1..=9) up to
/// `limit`, and returns the first solution found when `want_first`. The givens must not
/// repeat a value in a row, column or box (a [`crate::sudoku::Board`] guarantees it); if they do, the
/// answer is 0.
pub fn solve_cells(cells: &[u8; 81], limit: usize, want_first: bool) -> (usize, Option<[u8; 81]>) {
    solve_cells_on(Path::fastest(), cells, limit, want_first)
}

/// [`solve_cells`] on a chosen [`Path`] (one the CPU does not support runs as
/// [`Path::Scalar`]). Tests use it to run every path; the answers must not differ.
pub fn solve_cells_on(
    path: Path,
    cells: &[u8; 81],
    limit: usize,
    want_first: bool,
) -> (usize, Option<[u8; 81]>) {
    let mut tally = Tally {
        limit,
        count: 0,
        first: None,
        want_first,
        dead_end: false,
    };
    if limit == 0 {
        return (0, None);
    }
    match path {
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 if path.is_supported() => {
            // SAFETY: the CPU has every feature `solve_avx2` enables (checked just above).
            unsafe { solve_avx2(cells, &mut tally) }
        }
        _ => {
            let mut grid = Grid::from_cells(cells);
            let dirty = grid.batch_update::<false>();
            if dirty.is_ok_and(|dirty| Scalar::propagate(&mut grid, dirty, true).is_ok()) {
                Scalar::search(&mut grid, &mut tally);
            }
        }
    }
    (tally.count, tally.first)
}

/// [`solve_cells`] for the dispatch (no node budget: the worst case is a fraction of a
/// millisecond).
pub(super) fn solve(board_cells: &[u8], request: Request) -> Answer {
    // Read in place (a copy was a memcpy per solve); the dispatch sends only 9x9 boards.
    let cells: &[u8; 81] = board_cells.try_into().expect("a 9x9 board has 81 cells");
    let (count, first) = solve_cells(cells, request.limit, request.want_first);
    Answer {
        count,
        first: first.map(|f| f.to_vec()),
        complete: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_masks_agree_with_the_plain_version() {
        let mut cells = [0u8; 81];
        let mut x = 12345u32;
        for round in 0..200 {
            for c in cells.iter_mut() {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                // Mostly 0..=9, sometimes a value out of range.
                *c = ((x >> 16) % if round % 10 == 0 { 12 } else { 10 }) as u8;
            }
            assert_eq!(value_masks(&cells), value_masks_plain(&cells));
        }
        let masks = value_masks(&cells);
        let filled: u32 = (0..30).map(|k| masks[k].count_ones()).sum();
        assert!(filled > 0 && filled <= 81);
    }

    #[test]
    fn candidate_counts_agree_with_the_plain_version() {
        let mut x = 987_654_321u32;
        let mut seen_two = false;
        for _ in 0..200 {
            let mut grid = Grid::from_cells(&[0; 81]);
            for w in grid.poss.iter_mut() {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                // Sparse words, so that cells with one, two or no candidates all occur.
                *w = x & (x >> 5) & (x >> 9) & ALL;
            }
            let counts = grid.candidate_counts();
            assert_eq!(counts, grid.candidate_counts_plain());
            seen_two |= counts.two != [0; 3] && counts.one != counts.two;
        }
        assert!(seen_two);
    }
}
