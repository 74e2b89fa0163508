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
//! also yields the bivalue cells the search branches on. This file is our own implementation
//! of that published design (tables are computed by `const fn` below, not copied).

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

/// How many bivalue cells the search scores before picking one to branch on. Against taking
/// the first bivalue cell, scoring cuts the search nodes per puzzle from 260 to 197 on
/// forum-hardest-1106 and from 19.5 to 13.6 on magictour-top1465; scoring all of them saves
/// a few more nodes but costs more time than they do, most of all on easy puzzles.
const SCORED_PAIRS: u32 = 6;

/// A contradiction: the position has no solution.
struct Dead;

/// Solver state. `poss[3 * digit + band]` holds the cells of `band` where `digit` may go.
#[derive(Clone, Copy)]
struct Grid {
    poss: [u32; 27],
    /// `poss` as of the last time its band logic ran; a difference means work to do.
    seen: [u32; 27],
    unsolved: [u32; 3],
    /// Unsolved cells with exactly two candidates, per band (filled by `naked_singles`).
    pairs: [u32; 3],
}

/// Where the search reports: stops at `limit`, keeps the first solution when asked to.
struct Tally {
    limit: usize,
    count: usize,
    first: Option<[u8; 81]>,
    want_first: bool,
}

impl Grid {
    fn from_cells(cells: &[u8]) -> Option<Grid> {
        let mut grid = Grid {
            poss: [ALL; 27],
            seen: [0; 27],
            unsolved: [ALL; 3],
            pairs: [0; 3],
        };
        for (i, &v) in cells.iter().enumerate().take(81) {
            if v == 0 {
                continue;
            }
            let band = i / 27;
            let mask = 1u32 << (i % 27);
            let sub = 3 * (v as usize - 1) + band;
            if grid.poss[sub] & mask == 0 {
                return None;
            }
            grid.place(sub, mask);
        }
        Some(grid)
    }

    /// Puts digit `sub / 3` in the cell `mask` of band `sub % 3` and removes what it rules out
    /// directly; the band logic in `update` finishes the job.
    #[inline(always)]
    fn place(&mut self, sub: usize, mask: u32) {
        let band = sub % 3;
        let digit_base = sub - band;
        let i = mask.trailing_zeros() as usize;
        // Mask every band and every digit, then restore this sub-band: no branches.
        let own = self.poss[sub] & OWN_BAND_KEEP[i];
        let col = !COLUMN[i];
        self.poss[digit_base] &= col;
        self.poss[digit_base + 1] &= col;
        self.poss[digit_base + 2] &= col;
        let not_cell = !mask;
        for d in 0..9 {
            self.poss[3 * d + band] &= not_cell;
        }
        self.poss[sub] = own;
        self.unsolved[band] &= not_cell;
    }

    /// Runs the band logic on every changed digit-band until nothing changes.
    ///
    /// The changed digit-bands are gathered into a bit mask by branch-free compares and then
    /// visited in order: testing each of the 27 in turn mispredicted often enough to cost
    /// more than the band logic itself.
    #[inline(always)]
    fn update(&mut self) -> Result<(), Dead> {
        loop {
            let mut dirty = 0u32;
            for sub in 0..27 {
                dirty |= ((self.poss[sub] != self.seen[sub]) as u32) << sub;
            }
            if dirty == 0 {
                return Ok(());
            }
            while dirty != 0 {
                let sub = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                self.update_one(sub)?;
            }
        }
    }

    #[inline(always)]
    fn update_one(&mut self, sub: usize) -> Result<(), Dead> {
        let p = self.poss[sub];
        let live = SHRINK[(p & 0o777) as usize] as usize
            | (SHRINK[((p >> 9) & 0o777) as usize] as usize) << 3
            | (SHRINK[(p >> 18) as usize] as usize) << 6;
        let p = p & PERM_KEEP[live];
        if p == 0 {
            return Err(Dead);
        }
        self.poss[sub] = p;
        self.seen[sub] = p;

        let band = sub % 3;
        let digit_base = sub - band;
        let cols = (p | (p >> 9) | (p >> 18)) & 0o777;
        let keep = COL_LOCK[cols as usize];
        // Writing all three and restoring ours keeps this branch-free.
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

    /// Column claiming for every digit (see [`CLAIM`]). `Ok(true)` when it removed something.
    #[inline(always)]
    fn claim_columns(&mut self) -> Result<bool, Dead> {
        let mut changed = false;
        for base in (0..27).step_by(3) {
            let cols = |p: u32| (p | (p >> 9) | (p >> 18)) & 0o777;
            let (c0, c1, c2) = (
                cols(self.poss[base]),
                cols(self.poss[base + 1]),
                cols(self.poss[base + 2]),
            );
            if c0 | c1 | c2 != 0o777 {
                return Err(Dead);
            }
            let only = [c0 & !(c1 | c2), c1 & !(c0 | c2), c2 & !(c0 | c1)];
            // Branch-free (`CLAIM[0]` keeps everything): these tests were mostly mispredicted.
            for (b, &o) in only.iter().enumerate() {
                let p = self.poss[base + b];
                let q = p & CLAIM[o as usize];
                self.poss[base + b] = q;
                changed |= q != p;
            }
        }
        Ok(changed)
    }

    /// Places every cell with a single candidate; records bivalue cells. `Ok(true)` when
    /// something was placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<bool, Dead> {
        let mut placed = false;
        for band in 0..3 {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let m = self.poss[3 * d + band];
                three |= two & m;
                two |= one & m;
                one |= m;
            }
            if one != ALL {
                return Err(Dead);
            }
            self.pairs[band] = two & !three;
            let mut singles = (one & !two) & self.unsolved[band];
            while singles != 0 {
                let mask = singles & singles.wrapping_neg();
                singles &= singles - 1;
                // The cell's digit, found without a data-dependent branch per digit. An
                // earlier single of this band may have taken its last candidate.
                let mut digits = 0u32;
                for d in 0..9 {
                    digits |= ((self.poss[3 * d + band] & mask != 0) as u32) << d;
                }
                if digits == 0 {
                    return Err(Dead);
                }
                self.place(3 * digits.trailing_zeros() as usize + band, mask);
                placed = true;
            }
        }
        Ok(placed)
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// Propagates to a fixed point. `Ok` means solved or stuck (a guess is needed).
    #[inline(never)]
    fn propagate(&mut self) -> Result<(), Dead> {
        loop {
            self.update()?;
            if self.is_solved() {
                return Ok(());
            }
            if self.naked_singles()? {
                continue;
            }
            // Claiming only when singles are exhausted: it rarely fires earlier, and is what
            // saves guesses on the hardest puzzles.
            if !self.claim_columns()? {
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

    /// Among the first [`SCORED_PAIRS`] bivalue cells (band order), the one with the most
    /// bivalue peers (its row, box and column), if there is a bivalue cell. Its two branches
    /// tend to set off the most naked singles.
    #[inline(always)]
    fn pick_bivalue(&self) -> Option<(usize, u32)> {
        let mut best: Option<(u32, usize, u32)> = None;
        let mut scored = 0;
        for band in 0..3 {
            let (other1, other2) = (self.pairs[(band + 1) % 3], self.pairs[(band + 2) % 3]);
            let mut pairs = self.pairs[band];
            while pairs != 0 {
                let mask = pairs & pairs.wrapping_neg();
                pairs &= pairs - 1;
                let i = mask.trailing_zeros() as usize;
                let column = COLUMN[i];
                // Column cells of the two other bands, the second shifted one place so the
                // two sets cannot overlap: one popcount for both.
                let score = (self.pairs[band] & !OWN_BAND_KEEP[i] & ALL).count_ones()
                    + ((other1 & column) | ((other2 & column) << 1)).count_ones();
                if best.is_none_or(|(b, _, _)| score > b) {
                    best = Some((score, band, mask));
                }
                scored += 1;
                if scored == SCORED_PAIRS {
                    return best.map(|(_, band, mask)| (band, mask));
                }
            }
        }
        best.map(|(_, band, mask)| (band, mask))
    }

    /// Searches a copy of the grid with the digit of word `sub` placed in the cell `mask`;
    /// true when the tally has reached its limit.
    #[inline(always)]
    fn branch(&self, sub: usize, mask: u32, tally: &mut Tally) -> bool {
        let mut child = *self;
        child.place(sub, mask);
        if child.propagate().is_ok() {
            child.search(tally);
        }
        tally.count >= tally.limit
    }

    /// Depth-first search on a propagated grid.
    fn search(&mut self, tally: &mut Tally) {
        if self.is_solved() {
            tally.count += 1;
            if tally.want_first && tally.first.is_none() {
                tally.first = Some(self.solution());
            }
            return;
        }
        // Almost always some cell has two candidates: branching there halves the work.
        if let Some((band, mask)) = self.pick_bivalue() {
            // The cell's two digits, found without a data-dependent branch per digit.
            let mut digits = 0u32;
            for d in 0..9 {
                digits |= ((self.poss[3 * d + band] & mask != 0) as u32) << d;
            }
            let sub = 3 * digits.trailing_zeros() as usize + band;
            if self.branch(sub, mask, tally) {
                return;
            }
            let rest = digits & (digits - 1);
            if rest != 0 {
                self.poss[sub] &= !mask;
                let sub = 3 * rest.trailing_zeros() as usize + band;
                self.place(sub, mask);
                if self.propagate().is_ok() {
                    self.search(tally);
                }
            }
            return;
        }
        // No bivalue cell: branch on the first unsolved cell of the band whose first unsolved
        // cell has the fewest candidates (a cheap stand-in for a full MRV scan).
        let mut best: Option<(u32, usize, u32)> = None;
        for band in 0..3 {
            let u = self.unsolved[band];
            if u == 0 {
                continue;
            }
            let mask = u & u.wrapping_neg();
            let n: u32 = (0..9)
                .map(|d| (self.poss[3 * d + band] & mask != 0) as u32)
                .sum();
            if best.is_none_or(|(bn, _, _)| n < bn) {
                best = Some((n, band, mask));
            }
        }
        let Some((_, band, mask)) = best else {
            return;
        };
        let mut sub = band;
        while sub < 27 {
            if self.poss[sub] & mask != 0 && self.branch(sub, mask, tally) {
                return;
            }
            sub += 3;
        }
    }
}

/// Counts solutions of a 9x9 puzzle (81 cells, row-major, 0 empty, values 1..=9) up to
/// `limit`, and returns the first solution found when `want_first`. The givens must not
/// repeat a value in a row, column or box (a [`crate::sudoku::Board`] guarantees it); if they do, the
/// answer is 0.
pub fn solve_cells(cells: &[u8; 81], limit: usize, want_first: bool) -> (usize, Option<[u8; 81]>) {
    let mut tally = Tally {
        limit,
        count: 0,
        first: None,
        want_first,
    };
    if limit == 0 {
        return (0, None);
    }
    let Some(mut grid) = Grid::from_cells(cells) else {
        return (0, None);
    };
    if grid.propagate().is_ok() {
        grid.search(&mut tally);
    }
    (tally.count, tally.first)
}

/// [`solve_cells`] for the dispatch (no node budget: the worst case is a fraction of a
/// millisecond).
pub(super) fn solve(board_cells: &[u8], request: Request) -> Answer {
    let mut cells = [0u8; 81];
    cells.copy_from_slice(board_cells);
    let (count, first) = solve_cells(&cells, request.limit, request.want_first);
    Answer {
        count,
        first: first.map(|f| f.to_vec()),
        complete: true,
    }
}
