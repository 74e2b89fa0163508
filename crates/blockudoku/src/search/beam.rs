//! The beam search over a whole hand: every order of the pieces, orders that reach the same
//! board merged, the placements of each piece but the last cut to the beam's width by their
//! evaluation, and the best final boards kept for the lookahead.

use std::sync::atomic::Ordering;

use puzzle_rules::blockudoku::masks::cells;
use puzzle_rules::blockudoku::Board;

use super::lookahead::WIDE_LOOKAHEAD;
use super::{mobility, Beam, BestLine, Collected, Control, FinalBoard, HandPieces, Job, Method};
use super::{Step, Tally, Valuation, FULL_BEAM};
use crate::eval::{eval_bits, nofit_table, NofitTable};

// Largest merge table per worker (entries); see `MergeTable::merged`.
const SEEN_CAP: usize = 1 << 17;

/// How many nodes a worker counts before it publishes them and looks at the stop flag.
pub const POLL: u64 = 256;

/// Pieces in a hand at most (the merge key has three bits for the pieces used).
const HAND_MAX: usize = 3;

/// Slots of the merge table a search starts with, as a power of two: room for the few
/// thousand boards of a pruned search without growing, and small enough to stay in the
/// processor's cache. A table grown past it is not kept for the next search.
const TABLE_BITS: u32 = 15;

/// Where a key's generation starts: above the board's 81 bits and the 16-bit tag.
const GENERATION_SHIFT: u32 = 97;

/// The boards the search has reached, each with a tag: the pieces used (bits 0-2), whether
/// the streak runs (bit 3) and the line's points so far (bits 4-15, 0 when points are not
/// counted). A key is the board's 81 bits, the tag above them and the search's generation
/// on top; a slot holding another generation's key is empty, so a new search clears nothing.
/// Open addressing, linear probing, at most half full.
struct MergeTable {
    slots: Vec<u128>,
    /// This search's generation, 1 or more (a zeroed slot is empty for every search).
    generation: u128,
    len: usize,
}

thread_local! {
    // Each thread's merge table and its last generation, kept between searches: self-play
    // runs thousands of short searches.
    static TABLE_POOL: std::cell::RefCell<(Vec<u128>, u128)> = std::cell::RefCell::default();
}

impl MergeTable {
    /// This thread's table for a new search, given back when dropped.
    fn take() -> MergeTable {
        let (mut slots, last) = TABLE_POOL.with(|p| std::mem::take(&mut *p.borrow_mut()));
        let mut generation = last + 1;
        if slots.len() != 1 << TABLE_BITS || generation >> (128 - GENERATION_SHIFT) != 0 {
            slots = vec![0; 1 << TABLE_BITS];
            generation = 1;
        }
        MergeTable {
            slots,
            generation,
            len: 0,
        }
    }

    /// The key of `board` with `tag` in this search.
    #[inline]
    fn key(&self, board: Board, tag: u16) -> u128 {
        board.bits() | (tag as u128) << 81 | self.generation << GENERATION_SHIFT
    }

    #[inline]
    fn home(&self, key: u128) -> usize {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let h = ((key as u64).wrapping_mul(K) ^ (key >> 64) as u64).wrapping_mul(K);
        (h >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// Whether `key` was reached before in this search; a new key is recorded while the
    /// table holds fewer than SEEN_CAP (past that it stops growing: one rehash of a huge
    /// table would take longer than the stop latency allows; the search stays correct, just
    /// slower).
    #[inline]
    fn merged(&mut self, key: u128) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = self.slots[i];
            if slot == key {
                return true;
            }
            if slot >> GENERATION_SHIFT != self.generation {
                break;
            }
            i = (i + 1) & mask;
        }
        if self.len >= SEEN_CAP {
            return false;
        }
        self.slots[i] = key;
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
        false
    }

    #[cold]
    fn grow(&mut self) {
        let wider = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, wider);
        let mask = self.slots.len() - 1;
        for key in old {
            if key >> GENERATION_SHIFT == self.generation {
                let mut i = self.home(key);
                while self.slots[i] != 0 {
                    i = (i + 1) & mask;
                }
                self.slots[i] = key;
            }
        }
    }
}

impl Drop for MergeTable {
    fn drop(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        let generation = self.generation;
        TABLE_POOL.with(|p| *p.borrow_mut() = (slots, generation));
    }
}

/// A line held in place while the search runs (no allocation per leaf).
#[derive(Clone, Copy, Default)]
struct Line {
    steps: [Step; HAND_MAX],
    len: usize,
}

impl Line {
    fn to_vec(self) -> Vec<Step> {
        self.steps[..self.len].to_vec()
    }
}

/// A kept final board while the search runs: [`FinalBoard`] with the line held in place.
#[derive(Clone, Copy)]
struct Kept {
    value: i64,
    line: Line,
    board: Board,
    bonus: i64,
    streak: u32,
}

impl Kept {
    fn final_board(self) -> FinalBoard {
        FinalBoard {
            value: self.value,
            line: self.line.to_vec(),
            board: self.board,
            bonus: self.bonus,
            streak: self.streak,
        }
    }
}

/// What a worker needs of each hand piece, found once per search.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The piece's cells with its bounding box's top-left on cell 0: its mask at anchor `a`
    /// is this shifted up by `a` (every anchor the fit test gives keeps the box on the board).
    origin: u128,
    /// The earlier hand pieces of the same shape (bit `j` for piece `j`).
    same_before: u8,
}

fn slots_of(hand: &HandPieces) -> [Slot; HAND_MAX] {
    assert!(hand.len() <= HAND_MAX, "a hand has at most 3 pieces");
    let mut out = [Slot::default(); HAND_MAX];
    for (i, slot) in out.iter_mut().enumerate().take(hand.len()) {
        let piece = hand[i].1;
        slot.origin = piece.mask_at(0, 0).unwrap_or(0);
        slot.same_before = (0..i)
            .filter(|&j| hand[j].1.cells() == piece.cells())
            .fold(0, |m, j| m | 1 << j);
    }
    out
}

struct Worker<'c, 'a> {
    ctl: &'c Control<'a>,
    hand: &'c HandPieces<'c>,
    slots: [Slot; HAND_MAX],
    method: Method,
    valuation: Valuation,
    table: &'static NofitTable,
    /// The processor has popcnt: the search runs compiled for it.
    popcnt: bool,
    local: u64,
    halted: bool,
    seen: MergeTable,
    path: Line,
    best: Option<(Line, i64)>,
    beam: Beam,
    /// How many final boards are kept for the lookahead (`boards_kept(beam[2])`).
    keep: usize,
    /// The best final boards, best first, for the lookahead.
    top: Vec<Kept>,
    tally: Tally,
    /// Points of the path so far (counted when `valuation.points` is set).
    points: u32,
    /// Streak after the path's last placement.
    streak: u32,
}

impl Worker<'_, '_> {
    #[inline(always)]
    fn tick(&mut self) {
        self.local += 1;
        if self.local.is_multiple_of(POLL) {
            self.publish();
        }
    }

    #[cold]
    fn publish(&mut self) {
        let total = self.ctl.nodes.fetch_add(POLL, Ordering::Relaxed) + POLL;
        let found = self.best.is_some() || self.ctl.found.load(Ordering::Relaxed);
        if found && (total >= self.ctl.node_limit || self.ctl.stop.load(Ordering::Relaxed)) {
            self.halted = true;
        }
    }

    /// The best line and the kept final boards, as the search gives them.
    fn collected(self) -> Collected {
        let best = self.best.map(|(line, value)| (line.to_vec(), value));
        (best, self.top.iter().map(|k| k.final_board()).collect())
    }

    /// The evaluation of `board` when above `bound` (see `evaluate_above`).
    #[inline(always)]
    fn evaluate_above(&self, board: Board, bound: i64) -> i64 {
        eval_bits(board.bits(), &self.valuation.weights, self.table, bound)
    }

    #[inline(always)]
    fn leaf(&mut self, board: Board) {
        let keep = self.keep;
        // The line's points and the board's bonus (objective points); the board's bonus only
        // where its shape is at least `open_gate`.
        let (points, combo) = match &self.valuation.points {
            Some(p) => (
                p.per_point * self.points as i64,
                p.board_bonus(board.bits()),
            ),
            None => (0, 0),
        };
        let mut bonus = points;
        let value = match self.method {
            Method::Beam => {
                // Only a board above this bound changes `best` or the boards the lookahead
                // will see: all `keep` of them on a crowded board, else the best `beam[2]`
                // (`best` only rises, so once it is not crowded the answer is not either).
                let bound = if keep > 1 {
                    let crowded = self
                        .best
                        .as_ref()
                        .is_none_or(|b| b.1 < self.valuation.lookahead.crowded_below);
                    let need = if crowded { keep } else { self.beam[2] };
                    match self.top.get(need - 1) {
                        Some(t) => t.value,
                        None => i64::MIN,
                    }
                } else {
                    self.best.as_ref().map_or(i64::MIN, |b| b.1)
                };
                let shape = self.evaluate_above(board, bound.saturating_sub(points + combo));
                if self.valuation.points.is_some_and(|p| shape >= p.open_gate) {
                    bonus += combo;
                }
                shape + bonus
            }
            Method::Mobility => mobility(board),
        };
        if self.best.as_ref().is_none_or(|b| value > b.1) {
            self.best = Some((self.path, value));
            self.ctl.found.store(true, Ordering::Relaxed);
        }
        if self.method == Method::Beam
            && keep > 1
            && (self.top.len() < keep || self.top.last().is_some_and(|t| value > t.value))
        {
            self.keep_board(value, board, bonus);
        }
        // The original agent takes the first leaf with more than 1500 placements.
        if self.method == Method::Mobility && value > 1500 {
            self.halted = true;
        }
    }

    /// Puts the path's final board among the kept ones, by value.
    fn keep_board(&mut self, value: i64, board: Board, bonus: i64) {
        let at = self.top.partition_point(|t| t.value >= value);
        let kept = Kept {
            value,
            line: self.path,
            board,
            bonus,
            streak: self.streak,
        };
        self.top.insert(at, kept);
        self.top.truncate(self.keep);
    }

    /// The search below `board` with the pieces of `used` placed, compiled for popcnt where
    /// the processor has it (the evaluation counts a dozen masks per board).
    fn dfs(&mut self, board: Board, used: u8) {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: the processor supports popcnt (checked when the worker was made).
            return unsafe { self.dfs_popcnt(board, used) };
        }
        self.dfs_with(board, used)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn dfs_popcnt(&mut self, board: Board, used: u8) {
        self.dfs_with(board, used)
    }

    /// [`Worker::expand`] from the root, compiled as [`Worker::dfs`] is.
    fn expand_root(&mut self, board: Board, i: usize, fits: u128) {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            // SAFETY: the processor supports popcnt (checked when the worker was made).
            return unsafe { self.expand_root_popcnt(board, i, fits) };
        }
        self.expand(board, 0, i, fits)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn expand_root_popcnt(&mut self, board: Board, i: usize, fits: u128) {
        self.expand(board, 0, i, fits)
    }

    #[inline(always)]
    fn dfs_with(&mut self, board: Board, used: u8) {
        if used as usize == (1 << self.hand.len()) - 1 {
            self.leaf(board);
            return;
        }
        for i in 0..self.hand.len() {
            // A duplicate piece earlier in the hand and still unused covers this subtree.
            if used >> i & 1 == 1 || self.slots[i].same_before & !used != 0 {
                continue;
            }
            self.expand(board, used, i, self.hand[i].1.fit_anchors(board));
            if self.halted {
                return;
            }
        }
    }

    /// The `width` anchors of `fits` whose boards evaluate best (ties to the lower cell).
    /// The anchors come lowest first, so a later one never wins a tie: a board that does
    /// not beat the `width`-th best so far is out, and needs no exact evaluation.
    #[inline(always)]
    fn top_anchors(&mut self, board: Board, i: usize, fits: u128, width: usize) -> u128 {
        if width == 0 {
            return 0;
        }
        let piece = self.hand[i].1;
        let origin = self.slots[i].origin;
        // The best so far, best first: (value, anchor).
        let mut best = [(0i64, 0u8); 81];
        let mut n = 0;
        for anchor in cells(fits) {
            let mask = origin << anchor;
            self.tick();
            let (after, cleared) = board.place_mask(mask);
            let mut bonus = 0;
            if let Some(p) = self.valuation.points {
                let left = (mask & !cleared.cells).count_ones();
                let points =
                    (self.tally.scoring).points(piece.size(), left, cleared.regions, self.streak);
                bonus = p.per_point * points as i64;
            }
            let bound = if n == width { best[n - 1].0 } else { i64::MIN };
            let value = self.evaluate_above(after, bound.saturating_sub(bonus)) + bonus;
            if n < width || value > bound {
                let at = best[..n].partition_point(|b| b.0 >= value);
                n = (n + 1).min(width);
                best.copy_within(at..n - 1, at + 1);
                best[at] = (value, anchor as u8);
            }
        }
        best[..n].iter().fold(0u128, |m, &(_, a)| m | 1u128 << a)
    }

    #[inline(always)]
    fn expand(&mut self, board: Board, used: u8, i: usize, mut fits: u128) {
        let depth = used.count_ones() as usize;
        if self.method == Method::Beam && depth + 1 < self.hand.len() {
            let width = self.beam[depth.min(1)];
            if width < fits.count_ones() as usize {
                fits = self.top_anchors(board, i, fits, width);
            }
        }
        let piece = self.hand[i].1;
        let origin = self.slots[i].origin;
        let next_used = used | 1 << i;
        let last = next_used as usize == (1 << self.hand.len()) - 1;
        let step = Step {
            slot: self.hand[i].0,
            anchor: 0,
        };
        for anchor in cells(fits) {
            let mask = origin << anchor;
            let (next, cleared) = board.place_mask(mask);
            self.tick();
            let (points, streak) = (self.points, self.streak);
            if self.valuation.points.is_some() {
                let left = (mask & !cleared.cells).count_ones();
                let p = (self.tally.scoring).points(piece.size(), left, cleared.regions, streak);
                self.points += p as u32;
                self.streak = if cleared.regions > 0 {
                    streak.saturating_add(1)
                } else {
                    0
                };
            }
            // Orders that reach the same board with the same pieces left (and the same points
            // and streak, when counted) have the same future.
            let tag = next_used as u16
                | ((self.streak > 0) as u16) << 3
                | (self.points.min(0xfff) as u16) << 4;
            if self.method == Method::Beam && self.seen.merged(self.seen.key(next, tag)) {
                (self.points, self.streak) = (points, streak);
                continue;
            }
            self.path.steps[depth] = Step {
                anchor: anchor as u8,
                ..step
            };
            self.path.len = depth + 1;
            if last {
                self.leaf(next);
            } else {
                self.dfs(next, next_used);
            }
            self.path.len = depth;
            (self.points, self.streak) = (points, streak);
            if self.halted {
                return;
            }
        }
    }
}

/// How many final boards the search keeps for the lookahead of width `width`.
pub fn boards_kept(width: usize) -> usize {
    if width < 2 {
        width
    } else {
        width.max(WIDE_LOOKAHEAD)
    }
}

/// No pruning, with the lookahead width of `beam`.
pub fn unpruned(beam: Beam) -> Beam {
    [FULL_BEAM[0], FULL_BEAM[1], beam[2]]
}

impl<'a> Job<'a> {
    /// The whole-hand search without the lookahead: the best line and the kept final boards.
    /// A pruned beam that finds no line searches again without pruning: a hand that can be
    /// placed is never given up for dead.
    pub fn collect(self) -> Collected {
        let found = self.collect_beam();
        let full = unpruned(self.beam);
        if found.0.is_some() || self.beam == full || self.method != Method::Beam {
            return found;
        }
        Job { beam: full, ..self }.collect_beam()
    }

    /// A worker for this job, with an empty merge table and nothing found yet.
    fn worker(&self) -> Worker<'_, 'a> {
        #[cfg(target_arch = "x86_64")]
        let popcnt = std::arch::is_x86_feature_detected!("popcnt");
        #[cfg(not(target_arch = "x86_64"))]
        let popcnt = false;
        let keep = boards_kept(self.beam[2]);
        Worker {
            beam: self.beam,
            ctl: self.ctl,
            hand: self.hand,
            slots: slots_of(self.hand),
            method: self.method,
            valuation: *self.valuation,
            table: nofit_table(),
            popcnt,
            local: 0,
            halted: false,
            seen: MergeTable::take(),
            path: Line::default(),
            best: None,
            keep,
            top: Vec::with_capacity(if keep > 1 { keep + 1 } else { 0 }),
            tally: self.tally,
            points: 0,
            streak: self.tally.streak,
        }
    }

    /// [`Job::collect`] within the job's beam.
    fn collect_beam(self) -> Collected {
        let (board, hand, method, beam) = (self.board, self.hand, self.method, self.beam);
        let (threads, ctl) = (self.workers.threads(), self.ctl);
        let new_worker = || self.worker();
        let finish = |w: &Worker| w.local % POLL;
        if threads <= 1 || method == Method::Mobility || hand.is_empty() {
            let mut w = new_worker();
            w.dfs(board, 0);
            ctl.nodes.fetch_add(finish(&w), Ordering::Relaxed);
            return w.collected();
        }
        // Parallel: split the root by (first piece, half of its placements) so threads share work.
        use rayon::prelude::*;
        let mut roots: Vec<(usize, u128)> = Vec::new();
        for i in 0..hand.len() {
            if (0..i).any(|j| hand[j].1.cells() == hand[i].1.cells()) {
                continue;
            }
            let mut fits = hand[i].1.fit_anchors(board);
            if method == Method::Beam && hand.len() > 1 && beam[0] < fits.count_ones() as usize {
                fits = new_worker().top_anchors(board, i, fits, beam[0]);
            }
            let chunk = (fits.count_ones() as usize).div_ceil(threads * 2).max(1);
            while fits != 0 {
                let mut part = 0u128;
                for _ in 0..chunk {
                    if fits == 0 {
                        break;
                    }
                    let low = fits & fits.wrapping_neg();
                    part |= low;
                    fits &= fits - 1;
                }
                roots.push((i, part));
            }
        }
        let run = || {
            roots
                .par_iter()
                .map(|&(i, part)| {
                    let mut w = new_worker();
                    // The root was already cut to the beam above.
                    w.beam[0] = usize::MAX;
                    w.expand_root(board, i, part);
                    ctl.nodes.fetch_add(finish(&w), Ordering::Relaxed);
                    w.collected()
                })
                .collect::<Vec<_>>()
        };
        let results = match self.workers.pool() {
            Some(pool) => pool.install(run),
            None => run(),
        };
        let mut best: BestLine = None;
        let mut top = Vec::new();
        for (b, t) in results {
            top.extend(t);
            if let Some(b) = b {
                if best.as_ref().is_none_or(|x| b.1 > x.1) {
                    best = Some(b);
                }
            }
        }
        top.sort_by_key(|t| std::cmp::Reverse(t.value));
        top.truncate(boards_kept(beam[2]));
        (best, top)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{hand, POINTS, SURVIVE};
    use super::*;
    use crate::eval::evaluate;
    use puzzle_rules::blockudoku::Piece;
    use rand::{Rng, SeedableRng};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn the_merge_table_finds_a_board_again_in_its_search_only() {
        let board = Board::parse("#......../.#......./..#....../........./........./........./........./........./........#").unwrap();
        let mut table = MergeTable::take();
        let key = table.key(board, 0b011);
        assert!(!table.merged(key));
        assert!(table.merged(key));
        assert!(!table.merged(table.key(board, 0b111)), "another tag");
        // Past half full it grows and still finds every board.
        let keys: Vec<u128> = (1..40_000u128)
            .map(|i| table.key(Board::from_bits(i * 7919), 1))
            .collect();
        assert!(keys.iter().all(|&k| !table.merged(k)));
        assert!(keys.iter().all(|&k| table.merged(k)));
        assert!(table.slots.len() > 1 << TABLE_BITS);
        drop(table);
        // The next search on this thread starts empty.
        let mut next = MergeTable::take();
        assert!(!next.merged(next.key(board, 0b011)));
        assert!(!next.merged(next.key(Board::from_bits(7919), 1)));
    }

    #[test]
    fn the_merge_table_stops_recording_at_its_cap() {
        let mut table = MergeTable::take();
        let key = |t: &MergeTable, i: u128| t.key(Board::from_bits(i), 1);
        for i in 1..=SEEN_CAP as u128 {
            assert!(!table.merged(key(&table, i)));
        }
        let over = key(&table, SEEN_CAP as u128 + 1);
        assert!(!table.merged(over));
        assert!(!table.merged(over), "not recorded past the cap");
        assert!(table.merged(key(&table, 1)), "recorded before the cap");
    }

    // The bounded selection picks the placements a full sort by (value down, cell up) picks.
    #[test]
    fn top_anchors_are_the_best_by_a_full_sort() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for _ in 0..150 {
            let density = rng.gen_range(0.1..0.6);
            let board = Board::from_fn(|_| rng.gen_bool(density));
            let ids: Vec<usize> = (0..3).map(|_| rng.gen_range(1..=47)).collect();
            let h = hand(&ids);
            let streak = rng.gen_range(0..3);
            for v in [SURVIVE, POINTS] {
                let stop = AtomicBool::new(false);
                let ctl = Control::new(&stop, u64::MAX);
                let job = Job {
                    tally: Tally {
                        streak,
                        ..Tally::default()
                    },
                    ..Job::new(board, &h, &v, &ctl)
                };
                let mut w = job.worker();
                for (i, (_, piece)) in h.iter().enumerate() {
                    let fits = piece.fit_anchors(board);
                    for width in [1, 2, 6, 10, 30] {
                        let want = by_full_sort(board, piece, fits, width, &v, streak);
                        assert_eq!(
                            w.top_anchors(board, i, fits, width),
                            want,
                            "{ids:?} {board:?}"
                        );
                    }
                }
            }
        }
    }

    fn by_full_sort(
        board: Board,
        piece: &Piece,
        fits: u128,
        width: usize,
        v: &Valuation,
        streak: u32,
    ) -> u128 {
        let mut scored: Vec<(i64, usize)> = cells(fits)
            .map(|a| {
                let mask = piece.mask_at(a / 9, a % 9).unwrap();
                let (after, cleared) = board.place_mask(mask);
                let left = (mask & !cleared.cells).count_ones();
                let points =
                    Tally::default()
                        .scoring
                        .points(piece.size(), left, cleared.regions, streak);
                let bonus = v.points.map_or(0, |p| p.per_point * points as i64);
                (evaluate(after, &v.weights) + bonus, a)
            })
            .collect();
        scored.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        scored
            .iter()
            .take(width)
            .fold(0, |m, &(_, a)| m | 1u128 << a)
    }
}
