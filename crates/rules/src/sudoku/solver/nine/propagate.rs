//! The band logic: propagates a grid to a fixed point with the band updates, naked
//! singles, column claiming and mini-row triads.

use super::tables::*;
use super::{Counts, Dead, Grid};

/// [`Grid::minirow_triads`] runs on grids with at least this many empty cells (40 was 4%
/// faster on serg-benchmark than always, and the same on the other collections).
pub(super) const TRIAD_MIN_EMPTY: u32 = 40;
/// The live mini-rows of a digit-band word (bit `3 * row + box`) with BMI2's bit extract:
/// one instruction instead of three table look-ups. Only for [`super::Path::Avx2`] (see
/// [`Grid::update_one`]); elsewhere it is never called.
#[inline(always)]
pub(super) fn live_minirows_pext(p: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: only called with `PEXT` true, i.e. from the AVX2 copy, which runs only on
        // CPUs with BMI2 (`Path::is_supported`).
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
pub(super) fn live_minirows(p: u32) -> usize {
    SHRINK[(p & 0o777) as usize] as usize
        | (SHRINK[((p >> 9) & 0o777) as usize] as usize) << 3
        | (SHRINK[(p >> 18) as usize] as usize) << 6
}

impl Grid {
    /// Puts digit `sub / 3` in the cell `mask` of band `sub % 3`, a cell no other digit can
    /// take (a naked single): only the digit's own three words change.
    #[inline(always)]
    pub(super) fn place_single(&mut self, sub: usize, mask: u32) -> u32 {
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
    pub(super) fn update<const PEXT: bool>(&mut self, mut dirty: u32) -> Result<(), Dead> {
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
    pub(super) fn changed_words(&self) -> u32 {
        let mut dirty = 0u32;
        for sub in 0..27 {
            // SAFETY: in bounds; volatile only keeps these loads scalar.
            let p = unsafe { std::ptr::read_volatile(&self.poss[sub]) };
            dirty |= ((p != self.seen[sub]) as u32) << sub;
        }
        dirty
    }

    #[inline(always)]
    pub(super) fn update_one<const PEXT: bool>(&mut self, sub: usize) -> Result<(), Dead> {
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
    pub(super) fn claim_columns(&mut self) -> Result<u32, Dead> {
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
    pub(super) fn naked_singles(&mut self) -> Result<u32, Dead> {
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
    pub(super) fn candidate_counts(&self) -> Counts {
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
    pub(super) fn candidate_counts_plain(&self) -> Counts {
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
    pub(super) fn empty_cells(&self) -> u32 {
        self.unsolved[0].count_ones()
            + self.unsolved[1].count_ones()
            + self.unsolved[2].count_ones()
    }

    pub(super) fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// Propagates to a fixed point. `Ok` means solved or stuck (a guess is needed). Inlined
    /// into each compiled copy of the solver ([`super::Engine::propagate`]).
    #[inline(always)]
    pub(super) fn propagate_body<const PEXT: bool>(
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

    /// Mini-row logic: a mini-row holds exactly three digits. Where three digits must go
    /// in a mini-row (every configuration left to each uses it), no other digit may; where
    /// only three digits may go, each of them must, so it leaves the mini-rows that share a
    /// row or box with it. Mini-rows of all three bands are handled at once, packed as bit
    /// `9 * band + 3 * row + box`. Returns the digit-bands it changed.
    #[inline(always)]
    pub(super) fn minirow_triads(&mut self) -> Result<u32, Dead> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn candidate_counts_agree_with_the_plain_version() {
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
