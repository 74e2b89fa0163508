//! The beam search over a whole hand: every order of the pieces, orders that reach the same
//! board merged, the placements of each piece but the last cut to the beam's width by their
//! evaluation, and the best final boards kept for the lookahead.

use engine_kit::hash::WordHash;
use std::collections::HashSet;
use std::sync::atomic::Ordering;

use puzzle_rules::blockudoku::masks::cells;
use puzzle_rules::blockudoku::Board;

use super::lookahead::WIDE_LOOKAHEAD;
use super::{mobility, Beam, BestLine, Collected, Control, FinalBoard, HandPieces, Job, Method};
use super::{Step, Tally, Valuation, FULL_BEAM};
use crate::eval::{evaluate, evaluate_above};

// Largest merge table per worker (entries); see `expand`.
const SEEN_CAP: usize = 1 << 17;

/// How many nodes a worker counts before it publishes them and looks at the stop flag.
pub const POLL: u64 = 256;

/// Board bits and a tag: the pieces used (bits 0-2), whether the streak runs (bit 3) and the
/// line's points so far (bits 4-15, 0 when points are not counted).
type Seen = HashSet<(u128, u16), WordHash>;

thread_local! {
    // Each thread's merge table, kept between searches: growing a fresh table by rehashing
    // cost more than clearing an old one (self-play runs thousands of short searches).
    static SEEN_POOL: std::cell::RefCell<Seen> = std::cell::RefCell::default();
}

/// A merge table borrowed from this thread's pool and given back, cleared, when dropped.
struct PooledSeen(Seen);

impl PooledSeen {
    fn take() -> PooledSeen {
        PooledSeen(SEEN_POOL.with(|p| std::mem::take(&mut *p.borrow_mut())))
    }
}

impl Drop for PooledSeen {
    fn drop(&mut self) {
        let mut seen = std::mem::take(&mut self.0);
        seen.clear();
        SEEN_POOL.with(|p| *p.borrow_mut() = seen);
    }
}

struct Worker<'c, 'a> {
    ctl: &'c Control<'a>,
    hand: &'c HandPieces<'c>,
    method: Method,
    valuation: Valuation,
    local: u64,
    halted: bool,
    seen: PooledSeen,
    path: Vec<Step>,
    best: BestLine,
    beam: Beam,
    /// The best final boards, best first, for the lookahead.
    top: Vec<FinalBoard>,
    tally: Tally,
    /// Points of the path so far (counted when `valuation.points` is set).
    points: u32,
    /// Streak after the path's last placement.
    streak: u32,
}

impl Worker<'_, '_> {
    fn tick(&mut self) {
        self.local += 1;
        if self.local.is_multiple_of(POLL) {
            let total = self.ctl.nodes.fetch_add(POLL, Ordering::Relaxed) + POLL;
            let found = self.best.is_some() || self.ctl.found.load(Ordering::Relaxed);
            if found && (total >= self.ctl.node_limit || self.ctl.stop.load(Ordering::Relaxed)) {
                self.halted = true;
            }
        }
    }

    fn leaf(&mut self, board: Board) {
        let keep = boards_kept(self.beam[2]);
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
                let shape = evaluate_above(
                    board,
                    &self.valuation.weights,
                    bound.saturating_sub(points + combo),
                );
                if self.valuation.points.is_some_and(|p| shape >= p.open_gate) {
                    bonus += combo;
                }
                shape + bonus
            }
            Method::Mobility => mobility(board),
        };
        if self.best.as_ref().is_none_or(|b| value > b.1) {
            self.best = Some((self.path.clone(), value));
            self.ctl.found.store(true, Ordering::Relaxed);
        }
        if self.method == Method::Beam
            && keep > 1
            && (self.top.len() < keep || self.top.last().is_some_and(|t| value > t.value))
        {
            let at = self.top.partition_point(|t| t.value >= value);
            let kept = FinalBoard {
                value,
                line: self.path.clone(),
                board,
                bonus,
                streak: self.streak,
            };
            self.top.insert(at, kept);
            self.top.truncate(keep);
        }
        // The original agent takes the first leaf with more than 1500 placements.
        if self.method == Method::Mobility && value > 1500 {
            self.halted = true;
        }
    }

    fn dfs(&mut self, board: Board, used: u8) {
        if used as usize == (1 << self.hand.len()) - 1 {
            self.leaf(board);
            return;
        }
        for i in 0..self.hand.len() {
            if used >> i & 1 == 1 {
                continue;
            }
            let piece = self.hand[i].1;
            // A duplicate piece earlier in the hand and still unused covers this subtree.
            if (0..i).any(|j| used >> j & 1 == 0 && self.hand[j].1.cells() == piece.cells()) {
                continue;
            }
            self.expand(board, used, i, piece.fit_anchors(board));
            if self.halted {
                return;
            }
        }
    }

    /// The `width` anchors of `fits` whose boards evaluate best (ties to the lower cell).
    fn top_anchors(&mut self, board: Board, i: usize, fits: u128, width: usize) -> u128 {
        let piece = self.hand[i].1;
        let mut buf = [(0i64, 0u8); 81];
        let mut n = 0;
        let rest = fits;
        for anchor in cells(rest) {
            if let Some(mask) = piece.mask_at(anchor / 9, anchor % 9) {
                self.tick();
                let (after, cleared) = board.place_mask(mask);
                let mut value = evaluate(after, &self.valuation.weights);
                if let Some(p) = self.valuation.points {
                    let left = (mask & !cleared.cells).count_ones();
                    let points = (self.tally.scoring).points(
                        piece.size(),
                        left,
                        cleared.regions,
                        self.streak,
                    );
                    value += p.per_point * points as i64;
                }
                buf[n] = (value, anchor as u8);
                n += 1;
            }
        }
        let scored = &mut buf[..n];
        scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored
            .iter()
            .take(width)
            .fold(0u128, |m, &(_, a)| m | 1u128 << a)
    }

    fn expand(&mut self, board: Board, used: u8, i: usize, mut fits: u128) {
        let depth = used.count_ones() as usize;
        if self.method == Method::Beam && depth + 1 < self.hand.len() {
            let width = self.beam[depth.min(1)];
            if width < fits.count_ones() as usize {
                fits = self.top_anchors(board, i, fits, width);
            }
        }
        let piece = self.hand[i].1;
        let next_used = used | 1 << i;
        for anchor in cells(fits) {
            let Some(mask) = piece.mask_at(anchor / 9, anchor % 9) else {
                continue;
            };
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
            // The table stops growing at SEEN_CAP: one rehash of a huge table would take
            // longer than the stop latency allows (the search stays correct, just slower).
            let tag = next_used as u16
                | ((self.streak > 0) as u16) << 3
                | (self.points.min(0xfff) as u16) << 4;
            let key = (next.bits(), tag);
            if self.method == Method::Beam
                && (self.seen.0.len() < SEEN_CAP || self.seen.0.contains(&key))
                && !self.seen.0.insert(key)
            {
                (self.points, self.streak) = (points, streak);
                continue;
            }
            self.path.push(Step {
                slot: self.hand[i].0,
                anchor: anchor as u8,
            });
            self.dfs(next, next_used);
            self.path.pop();
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

    /// [`Job::collect`] within the job's beam.
    fn collect_beam(self) -> Collected {
        let (board, hand, method, valuation) = (self.board, self.hand, self.method, self.valuation);
        let (threads, ctl, beam, tally) = (self.workers.threads(), self.ctl, self.beam, self.tally);
        let new_worker = || Worker {
            beam,
            ctl,
            hand,
            method,
            valuation: *valuation,
            local: 0,
            halted: false,
            seen: PooledSeen::take(),
            path: Vec::with_capacity(3),
            best: None,
            top: Vec::new(),
            tally,
            points: 0,
            streak: tally.streak,
        };
        let finish = |w: &Worker| w.local % POLL;
        if threads <= 1 || method == Method::Mobility || hand.is_empty() {
            let mut w = new_worker();
            w.dfs(board, 0);
            ctl.nodes.fetch_add(finish(&w), Ordering::Relaxed);
            return (w.best, w.top);
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
                    w.expand(board, 0, i, part);
                    ctl.nodes.fetch_add(finish(&w), Ordering::Relaxed);
                    (w.best, w.top)
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
