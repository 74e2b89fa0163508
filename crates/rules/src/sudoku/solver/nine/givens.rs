//! The grid of a puzzle's givens: what the givens rule out directly, and the first band
//! update of all digit-bands at once.

use super::propagate::{live_minirows, live_minirows_pext};
use super::tables::*;
use super::{Dead, Grid};

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
    pub(super) fn from_cells(cells: &[u8; 81]) -> Grid {
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

    /// The band logic of [`Grid::update_one`] on all 27 digit-bands at once, each from the
    /// grid as it is on entry (not from each other's results), then every removal applied
    /// together. Used once, on the grid of the givens, where every digit-band is new: the
    /// 27 updates have no dependencies between them, so they overlap, where one by one each
    /// waited for the stores of the one before. Each word is marked seen as it was on
    /// entry, so whatever this round (or its own permutation rule) removed from it is
    /// looked at again by [`Grid::update`], which reaches the same fixed point.
    #[inline(always)]
    pub(super) fn batch_update<const PEXT: bool>(&mut self) -> Result<u32, Dead> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn value_masks_agree_with_the_plain_version() {
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
}
