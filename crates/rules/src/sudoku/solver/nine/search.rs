//! The branching: which digit's band configurations to try, and the depth-first search
//! over them.

use super::tables::*;
use super::{Engine, Grid, Tally};

/// [`Grid::pick_config`] takes the digit with the most configurations, not the fewest,
/// below this many empty cells until a guess fails (40 and 50 gave the same serg-benchmark
/// time, -5%; 50 cost magictour-top1465 2%, no bound 3-4% on it and on 17-clue).
pub(super) const WIDEST_MAX_EMPTY: u32 = 40;
impl Grid {
    pub(super) fn solution(&self) -> [u8; 81] {
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

    /// Where to branch: the band (0..3 horizontal, 3..6 vertical) with the fewest digit
    /// configurations that is not yet fixed, and in it a digit with the fewest
    /// configurations (at least two), or the most when `dead_end` is false (no guess of
    /// this solve has failed yet) and fewer than [`WIDEST_MAX_EMPTY`] cells are empty. Returns the band, the digit and the digit's set of
    /// configurations. Branching on a whole configuration of a digit in its most
    /// constrained band (tdoku's choice) needs far fewer guesses on hard puzzles than
    /// branching on a bivalue cell.
    #[inline(always)]
    pub(super) fn pick_config(&self, dead_end: bool) -> (usize, usize, u8) {
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
    pub(super) fn assume(&mut self, band: usize, digit: usize, config: usize) -> u32 {
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
    pub(super) fn search_body<E: Engine>(&mut self, tally: &mut Tally) {
        tally.nodes += 1;
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
