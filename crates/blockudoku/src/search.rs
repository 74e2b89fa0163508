//! Whole-hand search: pure computation over the rules crate, told when to stop.
//!
//! A "move" here is the whole hand: every piece placed, in some order, clearing between
//! placements. The search never looks at a clock; the caller sets `stop` (a timer, a `stop`
//! command) and gives a node budget. Neither is honoured before one complete placement of the
//! hand has been found, so every search that can place the hand returns a legal answer.

use puzzle_rules::blockudoku::masks::cells;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use puzzle_rules::blockudoku::{catalogue, Board, Piece, Scoring};

use crate::eval::{combo_bonus, eval_bits, table_for, NofitTable};
pub use crate::eval::{evaluate, evaluate_above, Terms, Weights, WEIGHTS};

/// Which agent chooses the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// The strongest agent: whole-hand search with merged orders and a shape evaluation.
    Default,
    /// The original agent of the blog post: depth-first, leaf value = mobility, stop at the
    /// first leaf > 1500. Also accepted as `seed`, its former name.
    Original,
    /// The default agent's search, then the best final boards weighed by the exact chance
    /// that the next hand dies on them (see [`crate::strong`]).
    Strong,
}

/// Every agent, in documentation order.
pub const AGENTS: [Agent; 3] = [Agent::Default, Agent::Original, Agent::Strong];

impl Agent {
    /// The option value naming the agent.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Default => "default",
            Agent::Original => "original",
            Agent::Strong => "strong",
        }
    }

    /// The agent called `name`, if any (`seed` is the former name of `original`).
    pub fn from_name(name: &str) -> Option<Agent> {
        let name = if name == "seed" { "original" } else { name };
        AGENTS.iter().copied().find(|a| a.name() == name)
    }
}

/// One placement of the chosen line: hand slot (0-based), anchor cell `row * 9 + col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Hand slot, 0-based.
    pub slot: usize,
    /// Cell of the bounding box's top-left, `row * 9 + col`.
    pub anchor: u8,
}

/// What the agents play for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// The longest game: the final board's shape alone.
    #[default]
    Survive,
    /// Points too: the line's points weighed against the board's shape.
    Points,
}

/// Every objective, in documentation order.
pub const OBJECTIVES: [Objective; 2] = [Objective::Survive, Objective::Points];

/// The weight per point of objective `points` (evaluation units per point).
pub const POINTS_WEIGHT: i64 = 1000;

/// The weights of objective `points`: the line's points, and on boards whose shape is not
/// very crowded (evaluation at least -435000) a bonus per filled cell and per nearly full
/// region (1 to 3 empty cells), which makes several regions clear at once more often (the
/// safety net of [`Job::run`] keeps the hazard down). Chosen by self-play on chains against
/// their hazard probe (EXPERIMENTS.md, "Objective points"), before `game_nofit`,
/// `game_inner_pair` and `game_deep_from`, which it leaves off.
pub const POINTS_WEIGHTS: Weights = Weights {
    points: POINTS_WEIGHT,
    fill: 2500,
    open: 8000,
    open_gate: -435_000,
    game_nofit: 0,
    game_inner_pair: 0,
    game_deep_from: 0,
    ..WEIGHTS
};

impl Objective {
    /// The option value naming the objective.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Survive => "survive",
            Objective::Points => "points",
        }
    }

    /// The objective called `name`, if any.
    pub fn from_name(name: &str) -> Option<Objective> {
        OBJECTIVES.iter().copied().find(|o| o.name() == name)
    }

    /// The beam a search for this objective starts from: points need wider beams, since a
    /// line that sets up a combo with its first piece looks worse than one that does not
    /// until the last piece completes it.
    pub fn beam(self) -> Beam {
        match self {
            Objective::Survive => DEFAULT_BEAM,
            Objective::Points => POINTS_BEAM,
        }
    }

    /// The weights that play for this objective.
    pub fn weights(self) -> Weights {
        match self {
            Objective::Survive => WEIGHTS,
            Objective::Points => POINTS_WEIGHTS,
        }
    }
}

/// How a line's points are counted when the objective is points (weight `points` above 0):
/// the scoring rule and the streak the position starts with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The scoring rule.
    pub scoring: Scoring,
    /// Consecutive clearing placements up to the position (the next clear earns the bonus).
    pub streak: u32,
}

/// A final board the search keeps for the lookahead.
#[derive(Clone, Debug)]
pub struct Kept {
    /// The search's value: the evaluation plus `bonus`.
    pub value: i64,
    /// The line (all pieces, in play order).
    pub line: Vec<Step>,
    /// The board after the line.
    pub board: Board,
    /// The weighed points of the line (0 when the objective is to survive).
    pub bonus: i64,
    /// The streak after the line.
    pub streak: u32,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The best line (all pieces, in play order) and its value, or `None` when the hand is dead.
    pub best: Option<(Vec<Step>, i64)>,
    /// Placements tried.
    pub nodes: u64,
    /// The strong agent weighed the answer by its hand lookahead (its value is then the
    /// lookahead's, not comparable with a plain search's).
    pub deep: bool,
}

/// The original agent's leaf value: legal placements of all 47 catalogue pieces.
pub fn mobility(board: Board) -> i64 {
    catalogue()
        .iter()
        .map(|p| p.fit_anchors(board).count_ones() as i64)
        .sum()
}

/// When to stop: a flag set from outside and a node budget, shared by all workers.
pub struct Control<'a> {
    /// Set by the caller to end the search (honoured once a line exists).
    pub stop: &'a AtomicBool,
    /// Node budget over all workers (`u64::MAX` for none).
    pub node_limit: u64,
    /// The search has a clock (`movetime`, `infinite`) and may spend it all: the strong
    /// agent's hand lookahead then samples until `stop`.
    pub timed: bool,
    nodes: AtomicU64,
    found: AtomicBool,
}

impl<'a> Control<'a> {
    /// A control reading `stop` with a node budget.
    pub fn new(stop: &'a AtomicBool, node_limit: u64) -> Control<'a> {
        Control {
            stop,
            node_limit,
            timed: false,
            nodes: AtomicU64::new(0),
            found: AtomicBool::new(false),
        }
    }
}

// Largest merge table per worker (entries); see `expand`.
const SEEN_CAP: usize = 1 << 17;

// How many nodes a worker counts before it publishes them and looks at the stop flag.
const POLL: u64 = 256;

#[derive(Default)]
struct FxHasher(u64);
impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(*b as u64);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64);
    }
}
/// Board bits and a tag: the pieces used (bits 0-2), whether the streak runs (bit 3) and the
/// line's points so far (bits 4-15, 0 when points are not counted).
type Seen = HashSet<(u128, u16), BuildHasherDefault<FxHasher>>;

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
    hand: &'c [(usize, &'c Piece)],
    agent: Agent,
    weights: Weights,
    local: u64,
    halted: bool,
    seen: PooledSeen,
    path: Vec<Step>,
    best: Option<(Vec<Step>, i64)>,
    beam: Beam,
    /// The best final boards, best first, for the lookahead.
    top: Vec<Kept>,
    tally: Tally,
    /// Points of the path so far (counted when `weights.points` is above 0).
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
        let keep = kept(self.beam[2]);
        // Points and combo bonus (objective points); the combo bonus only where the board's
        // shape is at least `open_gate`.
        let (points, combo) = if self.weights.points > 0 {
            let points = self.weights.points * self.points as i64
                + self.weights.streak_end * (self.streak > 0) as i64;
            (points, combo_bonus(board.bits(), &self.weights))
        } else {
            (0, 0)
        };
        let mut bonus = points;
        let value = match self.agent {
            Agent::Default | Agent::Strong => {
                // Only a board above this bound changes `best` or the boards the lookahead
                // will see: all `keep` of them on a crowded board, else the best `beam[2]`
                // (`best` only rises, so once it is not crowded the answer is not either).
                let bound = if keep > 1 {
                    let crowded = self
                        .best
                        .as_ref()
                        .is_none_or(|b| b.1 < self.weights.wide_below);
                    let need = if crowded { keep } else { self.beam[2] };
                    match self.top.get(need - 1) {
                        Some(t) => t.value,
                        None => i64::MIN,
                    }
                } else {
                    self.best.as_ref().map_or(i64::MIN, |b| b.1)
                };
                let shape =
                    evaluate_above(board, &self.weights, bound.saturating_sub(points + combo));
                if shape >= self.weights.open_gate {
                    bonus += combo;
                }
                shape + bonus
            }
            Agent::Original => mobility(board),
        };
        if self.best.as_ref().is_none_or(|b| value > b.1) {
            self.best = Some((self.path.clone(), value));
            self.ctl.found.store(true, Ordering::Relaxed);
        }
        if self.agent == Agent::Default
            && keep > 1
            && (self.top.len() < keep || self.top.last().is_some_and(|t| value > t.value))
        {
            let at = self.top.partition_point(|t| t.value >= value);
            let kept = Kept {
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
        if self.agent == Agent::Original && value > 1500 {
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
                let mut value = evaluate(after, &self.weights);
                if self.weights.points > 0 {
                    let left = (mask & !cleared.cells).count_ones();
                    let points = (self.tally.scoring).points(
                        piece.size(),
                        left,
                        cleared.regions,
                        self.streak,
                    );
                    value += self.weights.points * points as i64;
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
        if self.agent == Agent::Default && depth + 1 < self.hand.len() {
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
            if self.weights.points > 0 {
                let left = (mask & !cleared.cells).count_ones();
                let p = (self.tally.scoring).points(piece.size(), left, cleared.regions, streak);
                self.points += p as u32;
                self.streak = if cleared.regions > 0 { streak + 1 } else { 0 };
            }
            // Orders that reach the same board with the same pieces left (and the same points
            // and streak, when counted) have the same future.
            // The table stops growing at SEEN_CAP: one rehash of a huge table would take
            // longer than the stop latency allows (the search stays correct, just slower).
            let tag = next_used as u16
                | ((self.streak > 0) as u16) << 3
                | (self.points.min(0xfff) as u16) << 4;
            let key = (next.bits(), tag);
            if self.agent == Agent::Default
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

/// Beam widths of the default agent: how many placements of each piece are searched further
/// after the first and after the second placement (the last piece is always tried everywhere),
/// then how many of the best final boards are re-ranked by the one-piece lookahead (0 or 1:
/// none).
pub type Beam = [usize; 3];

/// The default agent's beam for a `go` without limits (tuned by self-play for speed).
pub const DEFAULT_BEAM: Beam = [10, 6, 4];

/// The beam of objective points for a `go` without limits: with the default beam it scored
/// 44.45 points per round, with this one 45.60 and with no pruning 45.59 (EXPERIMENTS.md,
/// "Objective points").
pub const POINTS_BEAM: Beam = [30, 15, DEFAULT_BEAM[2]];

/// No pruning: every placement of every piece in every order.
pub const FULL_BEAM: Beam = [usize::MAX, usize::MAX, DEFAULT_BEAM[2]];

/// No pruning, with the lookahead width of `beam`.
fn unpruned(beam: Beam) -> Beam {
    [FULL_BEAM[0], FULL_BEAM[1], beam[2]]
}

/// Whether the best of the kept final boards `top` (best first) is crowded: its evaluation,
/// without the line's points, is below `wide_below`. Games are lost on crowded boards.
pub(crate) fn is_crowded(top: &[Kept], weights: &Weights) -> bool {
    top.first()
        .is_some_and(|t| t.value - t.bonus < weights.wide_below)
}

/// Final boards re-ranked by the lookahead when the best of them evaluates below `WIDE_BELOW`
/// (the lookahead width asked for, when wider, wins).
pub const WIDE_LOOKAHEAD: usize = 16;

/// The one-piece lookahead: the mean over the 47 catalogue pieces of the best evaluation
/// after placing that piece (`no_fit` when it fits nowhere). It is what the next hand is
/// likely to meet, where `evaluate` only sees the board as it stands. When `w` counts points,
/// each placement's points (by `tally`, from its streak) count too: a board that sets up a
/// combo for many pieces rises.
pub fn lookahead(board: Board, w: &Weights, tally: Tally) -> (i64, u64) {
    let table = table_for(w);
    // Thousands of evaluations per call: compile the whole loop for popcnt, not each call.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor supports popcnt (checked just above).
        return unsafe { lookahead_popcnt(board, w, table, tally) };
    }
    lookahead_with(board, w, table, tally)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn lookahead_popcnt(
    board: Board,
    w: &Weights,
    table: &NofitTable,
    tally: Tally,
) -> (i64, u64) {
    lookahead_with(board, w, table, tally)
}

#[inline(always)]
fn lookahead_with(board: Board, w: &Weights, table: &NofitTable, tally: Tally) -> (i64, u64) {
    let mut total = 0;
    let mut nodes = 0;
    for piece in catalogue() {
        let mut best = w.no_fit;
        let fits = piece.fit_anchors(board);
        for a in cells(fits) {
            if let Some(mask) = piece.mask_at(a / 9, a % 9) {
                nodes += 1;
                let (after, cleared) = board.place_mask(mask);
                let bonus = if w.points > 0 {
                    let left = (mask & !cleared.cells).count_ones();
                    let p =
                        (tally.scoring).points(piece.size(), left, cleared.regions, tally.streak);
                    w.points * p as i64
                } else {
                    0
                };
                best = best.max(eval_bits(after.bits(), w, table, best - bonus) + bonus);
            }
        }
        total += best;
    }
    (total / catalogue().len() as i64, nodes)
}

/// How many final boards the search keeps for the lookahead of width `width`.
fn kept(width: usize) -> usize {
    if width < 2 {
        width
    } else {
        width.max(WIDE_LOOKAHEAD)
    }
}

/// Runs `job` (its beam is where it starts), then (when `widen`) with doubled beams until
/// the full search completes or the control stops it; keeps the best line found by any pass.
pub fn search_widening(job: Job, widen: bool) -> Outcome {
    let (agent, ctl) = (job.agent, job.ctl);
    let mut beam = job.beam;
    let mut best: Option<(Vec<Step>, i64)> = None;
    loop {
        let out = Job { beam, ..job }.run(catalogue());
        if out.deep {
            // The hand lookahead has spent the time on the boards this pass found best.
            return out;
        }
        if let Some(b) = out.best {
            if best.as_ref().is_none_or(|x| b.1 > x.1) {
                best = Some(b);
            }
        }
        let stopped = ctl.stop.load(Ordering::Relaxed) || out.nodes >= ctl.node_limit;
        if !widen || stopped || beam == FULL_BEAM || agent == Agent::Original || best.is_none() {
            return Outcome {
                best,
                nodes: out.nodes,
                deep: false,
            };
        }
        beam = if beam[0] >= 64 {
            FULL_BEAM
        } else {
            [beam[0] * 2, beam[1] * 2, beam[2]]
        };
    }
}

/// Searches `hand` (hand slot, piece) on `board` with beam `beam`, splitting the root over
/// `threads` workers when `threads > 1`. Deterministic for `threads == 1` at a node limit.
/// The strong agent weighs the next hand as dealt from the 47 catalogue pieces; points, when
/// `weights` counts them, by the `blockudoku` rule from no streak.
pub fn search(
    board: Board,
    hand: &[(usize, &Piece)],
    agent: Agent,
    weights: &Weights,
    threads: usize,
    ctl: &Control,
    beam: Beam,
) -> Outcome {
    Job {
        board,
        hand,
        agent,
        weights,
        threads,
        ctl,
        beam,
        tally: Tally::default(),
    }
    .run(catalogue())
}

/// One whole-hand search: the board, the hand (slot, piece), the agent and its weights, and
/// how (threads, control, beam).
#[derive(Clone, Copy)]
pub struct Job<'a> {
    pub board: Board,
    pub hand: &'a [(usize, &'a Piece)],
    pub agent: Agent,
    pub weights: &'a Weights,
    pub threads: usize,
    pub ctl: &'a Control<'a>,
    pub beam: Beam,
    /// How points are counted (when `weights.points` is above 0).
    pub tally: Tally,
}

/// A line with its value, and the kept final boards, best first.
pub(crate) type Collected = (Option<(Vec<Step>, i64)>, Vec<Kept>);

impl<'a> Job<'a> {
    /// The default agent's search of `hand` on `board`: default weights and beam, one thread,
    /// no points counted.
    pub fn new(board: Board, hand: &'a [(usize, &'a Piece)], ctl: &'a Control<'a>) -> Job<'a> {
        Job {
            board,
            hand,
            agent: Agent::Default,
            weights: &WEIGHTS,
            threads: 1,
            ctl,
            beam: DEFAULT_BEAM,
            tally: Tally::default(),
        }
    }

    /// [`search`] with the next hands dealt from `set` (what the strong agent weighs).
    pub fn run(self, set: &[Piece]) -> Outcome {
        let (best, deep) = if self.agent == Agent::Strong {
            let weights = self.weights.for_set(set);
            let job = Job {
                weights: &weights,
                ..self
            };
            let (best, top) = job.strong_base();
            let dealer = puzzle_rules::blockudoku::Dealer::new(set);
            crate::strong::choose(best, top, &dealer, job)
        } else {
            let (best, top) = self.collect();
            (
                rerank(best, top, self.tally, self.weights, self.ctl, self.beam[2]),
                false,
            )
        };
        let best = if self.weights.points > 0 && self.agent != Agent::Original {
            self.safe_points(best, set)
        } else {
            best
        };
        Outcome {
            best,
            nodes: self.ctl.nodes.load(Ordering::Relaxed),
            deep,
        }
    }

    /// Objective points plays for points where that costs no safety: where the next hand
    /// (dealt from `set`) could die on the board `best` leaves (or, with weight `net_below`,
    /// its evaluation is below that), the strong agent's search without points answers
    /// instead if its board is less likely to die (or as likely and, on a crowded board,
    /// better evaluated). In a crisis (weight `survive_from`: the board the hand was dealt on
    /// is that likely to kill a next hand) that search answers whatever the points line's
    /// risk.
    fn safe_points(
        self,
        best: Option<(Vec<Step>, i64)>,
        set: &[Piece],
    ) -> Option<(Vec<Step>, i64)> {
        let Some((line, _)) = &best else { return best };
        let dealer = puzzle_rules::blockudoku::Dealer::new(set);
        let going = || !self.ctl.stop.load(Ordering::Relaxed);
        let survive = Weights {
            points: 0,
            ..*self.weights
        };
        let safe = || {
            Job {
                weights: &survive,
                agent: Agent::Strong,
                ..self
            }
            .run(set)
            .best
        };
        if self.weights.survive_from > 0 {
            let n = set.len() as f64;
            let crisis = self.weights.survive_from as f64 * 1e-6 * n * n * n;
            let here = dealer.dead_deals_until(self.board, going);
            if here.is_some_and(|d| d as f64 >= crisis) {
                return safe().or(best);
            }
        }
        let board = self.after(line);
        let Some(dead) = dealer.dead_deals_until(board, going) else {
            return best;
        };
        let crowded = evaluate(board, self.weights) < self.weights.net_below;
        if dead == 0 && !crowded {
            return best;
        }
        let safe = safe();
        match &safe {
            Some((line, _)) => {
                let b = self.after(line);
                let d = dealer.dead_deals_until(b, going);
                let safer = d.is_some_and(|d| {
                    d < dead
                        || (d == dead
                            && crowded
                            && evaluate(b, self.weights) > evaluate(board, self.weights))
                });
                if safer {
                    safe
                } else {
                    best
                }
            }
            None => best,
        }
    }

    /// The strong agent's base search: the default search of the job's beam, keeping at
    /// least [`crate::strong::KEPT`] final boards. Crowded hands are where games are lost,
    /// and their pieces have few placements: with weight `crowded_full`, a hand whose best
    /// final board is crowded is searched again without pruning (unless stopped midway).
    fn strong_base(self) -> Collected {
        let wide = [
            self.beam[0],
            self.beam[1],
            self.beam[2].max(crate::strong::KEPT),
        ];
        let default = Job {
            agent: Agent::Default,
            beam: wide,
            ..self
        };
        let found = default.collect();
        let full = unpruned(wide);
        let stopped = || self.ctl.stop.load(Ordering::Relaxed);
        let crowded = is_crowded(&found.1, self.weights);
        if self.weights.crowded_full == 0 || !crowded || wide == full || stopped() {
            return found;
        }
        let again = Job {
            beam: full,
            ..default
        }
        .collect();
        if stopped() {
            found
        } else {
            again
        }
    }

    /// The board after playing `line` (from this search) on the job's board.
    fn after(&self, line: &[Step]) -> Board {
        final_board(self.board, self.hand, line)
    }

    /// The whole-hand search without the lookahead: the best line and the kept final boards.
    /// A pruned beam that finds no line searches again without pruning: a hand that can be
    /// placed is never given up for dead.
    pub(crate) fn collect(self) -> Collected {
        let found = self.collect_beam();
        let full = unpruned(self.beam);
        if found.0.is_some() || self.beam == full || self.agent != Agent::Default {
            return found;
        }
        Job { beam: full, ..self }.collect_beam()
    }

    /// [`Job::collect`] within the job's beam.
    fn collect_beam(self) -> Collected {
        let (board, hand, agent, weights) = (self.board, self.hand, self.agent, self.weights);
        let (threads, ctl, beam, tally) = (self.threads, self.ctl, self.beam, self.tally);
        let new_worker = || Worker {
            beam,
            ctl,
            hand,
            agent,
            weights: *weights,
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
        if threads <= 1 || agent == Agent::Original || hand.is_empty() {
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
            if agent == Agent::Default && hand.len() > 1 && beam[0] < fits.count_ones() as usize {
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
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
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
        let results = match pool {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        };
        let mut best: Option<(Vec<Step>, i64)> = None;
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
        top.truncate(kept(beam[2]));
        (best, top)
    }
}

/// The hand (slot, piece) of the set indices `ids`, slots in order.
pub fn hand_of<'a>(set: &'a [Piece], ids: &[usize]) -> Vec<(usize, &'a Piece)> {
    ids.iter().enumerate().map(|(i, &p)| (i, &set[p])).collect()
}

/// The board after playing `line` on `board` with `hand` (slot, piece); the line must be
/// legal (a search's answer): panics otherwise.
pub fn final_board(board: Board, hand: &[(usize, &Piece)], line: &[Step]) -> Board {
    line.iter().fold(board, |b, step| {
        let piece = hand
            .iter()
            .find(|h| h.0 == step.slot)
            .expect("slot in hand")
            .1;
        let a = step.anchor as usize;
        let mask = piece.mask_at(a / 9, a % 9).expect("placement on the board");
        assert!(b.fits(mask), "placement on filled cells");
        b.place_mask(mask).0
    })
}

/// Picks among the best final boards by the one-piece lookahead (value reported: the
/// lookahead's). Keeps `best` when there is nothing to choose between.
pub(crate) fn rerank(
    best: Option<(Vec<Step>, i64)>,
    top: Vec<Kept>,
    tally: Tally,
    weights: &Weights,
    ctl: &Control,
    width: usize,
) -> Option<(Vec<Step>, i64)> {
    match rerank_pick(&top, tally, weights, ctl, width) {
        Some((i, value)) => top.into_iter().nth(i).map(|t| (t.line, value)),
        None => best,
    }
}

/// The index in `top` of the board the lookahead prefers, with its lookahead value (plus the
/// line's weighed points); `None` when there is nothing to choose between or the search was
/// stopped before any lookahead.
pub(crate) fn rerank_pick(
    top: &[Kept],
    tally: Tally,
    weights: &Weights,
    ctl: &Control,
    width: usize,
) -> Option<(usize, i64)> {
    if top.len() < 2 || width < 2 {
        return None;
    }
    // Crowded boards (where games are lost) get the wider lookahead; their pieces have few
    // placements, so it costs little.
    let n = if is_crowded(top, weights) {
        WIDE_LOOKAHEAD.max(width)
    } else {
        width
    };
    let mut chosen: Option<(usize, i64)> = None;
    for (i, kept) in top.iter().enumerate().take(n) {
        // A stopped search must answer now: keep what the lookahead has ranked so far.
        if ctl.stop.load(Ordering::Relaxed) {
            return chosen;
        }
        let tally = Tally {
            streak: kept.streak,
            ..tally
        };
        let (value, nodes) = lookahead(kept.board, weights, tally);
        let value = value + kept.bonus;
        ctl.nodes.fetch_add(nodes, Ordering::Relaxed);
        if chosen.is_none_or(|c| value > c.1) {
            chosen = Some((i, value));
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_rules::blockudoku::{can_place_all, GameState, Scoring};

    /// A random board (each cell filled with chance `fill`) and three catalogue ids.
    fn random_deal(rng: &mut impl rand::Rng, fill: f64) -> (Board, Vec<usize>) {
        let board = Board::from_fn(|_| rng.gen_bool(fill));
        (board, (0..3).map(|_| rng.gen_range(1..=47)).collect())
    }

    /// The weights of the safety net of objective points: its own without points (the
    /// strong agent's survive weights but for `game_nofit`, which points leaves off).
    const NET: Weights = Weights {
        points: 0,
        ..POINTS_WEIGHTS
    };

    /// The strong agent playing to survive (as the safety net of objective points does), and
    /// the default agent playing for points, on the same board and hand.
    fn survive_and_points<'a>(
        board: Board,
        h: &'a [(usize, &'a Piece)],
        ctl: &'a Control<'a>,
    ) -> (Job<'a>, Job<'a>) {
        let survive = Job {
            agent: Agent::Strong,
            weights: &NET,
            ..Job::new(board, h, ctl)
        };
        let points = Job {
            weights: &POINTS_WEIGHTS,
            ..Job::new(board, h, ctl)
        };
        (survive, points)
    }

    fn hand(ids: &[usize]) -> Vec<(usize, &'static Piece)> {
        ids.iter()
            .enumerate()
            .map(|(i, &id)| (i, Piece::catalogue(id).unwrap()))
            .collect()
    }

    fn run(board: Board, ids: &[usize], agent: Agent, threads: usize) -> Outcome {
        let stop = AtomicBool::new(false);
        let ctl = Control::new(&stop, u64::MAX);
        search(board, &hand(ids), agent, &WEIGHTS, threads, &ctl, FULL_BEAM)
    }

    // A narrow beam can prune every line that places the whole hand: the search then looks
    // again without pruning rather than giving a live hand up for dead.
    #[test]
    fn narrow_beams_never_give_up_a_hand_that_can_be_placed() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
        let mut live = 0;
        for _ in 0..300 {
            let board = Board::from_fn(|_| rng.gen_bool(0.6));
            let ids: Vec<usize> = (0..3).map(|_| rng.gen_range(1..=47)).collect();
            let pieces: Vec<&Piece> = ids.iter().map(|&i| Piece::catalogue(i).unwrap()).collect();
            let placeable = can_place_all(board, &pieces);
            live += placeable as usize;
            for w in [WEIGHTS, POINTS_WEIGHTS] {
                let stop = AtomicBool::new(false);
                let ctl = Control::new(&stop, u64::MAX);
                let out = search(board, &hand(&ids), Agent::Default, &w, 1, &ctl, [1, 1, 0]);
                assert_eq!(out.best.is_some(), placeable, "{ids:?} on {board:?}");
            }
        }
        assert!(live > 20, "only {live} live hands");
    }

    #[test]
    fn answers_are_legal_and_dead_hands_say_none() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for _ in 0..60 {
            let board = Board::from_fn(|_| rng.gen_bool(0.55));
            let ids: Vec<usize> = (0..3).map(|_| rng.gen_range(1..=47)).collect();
            let pieces: Vec<&Piece> = ids.iter().map(|&i| Piece::catalogue(i).unwrap()).collect();
            for agent in AGENTS {
                let out = run(board, &ids, agent, 1);
                assert_eq!(out.best.is_some(), can_place_all(board, &pieces));
                if let Some((line, _)) = out.best {
                    let mut s = GameState {
                        board,
                        ..Default::default()
                    };
                    let mut slots: Vec<usize> = line.iter().map(|s| s.slot).collect();
                    for st in &line {
                        let a = st.anchor as usize;
                        s.place(pieces[st.slot], a / 9, a % 9, Scoring::Blockudoku)
                            .unwrap();
                    }
                    slots.sort();
                    assert_eq!(slots, vec![0, 1, 2]);
                }
            }
        }
    }

    #[test]
    fn parallel_search_finds_the_same_value() {
        let board = Board::parse("###....../#######../.#......./........./....#..../........./..#....../........./.###.....").unwrap();
        let one = run(board, &[28, 14, 9], Agent::Default, 1);
        let two = run(board, &[28, 14, 9], Agent::Default, 2);
        assert_eq!(one.best.unwrap().1, two.best.unwrap().1);
    }

    #[test]
    fn node_limit_is_deterministic_and_stop_still_answers() {
        let stop = AtomicBool::new(true);
        let h = hand(&[33, 34, 35]);
        let run = || {
            let ctl = Control::new(&stop, 1000);
            search(
                Board::EMPTY,
                &h,
                Agent::Default,
                &WEIGHTS,
                1,
                &ctl,
                DEFAULT_BEAM,
            )
        };
        let (a, b) = (run(), run());
        assert!(a.best.is_some());
        assert_eq!(a.best.unwrap().0, b.best.unwrap().0);
        // The node limit bounds the search; the lookahead over the kept boards comes on top.
        assert!(a.nodes < 1000 + POLL + DEFAULT_BEAM[2] as u64 * mobility(Board::EMPTY) as u64);
    }

    /// The best value over every order and placement of `hand`, by the objective points'
    /// rules written out plainly: the game's own scoring, then shape plus weighed points
    /// plus the gated board bonus.
    fn brute_points(board: Board, hand: &[(usize, &Piece)], w: &Weights, streak: u32) -> i64 {
        fn go(state: GameState, hand: &[(usize, &Piece)], used: u8, w: &Weights) -> i64 {
            if used as usize == (1 << hand.len()) - 1 {
                let shape = evaluate(state.board, w);
                let mut bonus = w.points * state.score as i64;
                bonus += w.streak_end * (state.streak > 0) as i64;
                if shape >= w.open_gate {
                    bonus += crate::eval::combo_bonus(state.board.bits(), w);
                }
                return shape + bonus;
            }
            let mut best = i64::MIN;
            for (i, (_, piece)) in hand.iter().enumerate() {
                if used >> i & 1 == 1 {
                    continue;
                }
                for a in cells(piece.fit_anchors(state.board)) {
                    let mut next = state;
                    next.place(piece, a / 9, a % 9, Scoring::Blockudoku)
                        .unwrap();
                    best = best.max(go(next, hand, used | 1 << i, w));
                }
            }
            best
        }
        let state = GameState {
            board,
            score: 0,
            streak,
        };
        go(state, hand, 0, w)
    }

    // With points counted, merging orders only at equal points and streak loses nothing:
    // the full search (no lookahead) finds the brute force's best value.
    #[test]
    fn points_search_finds_the_best_line_of_every_order() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
        let w = Weights {
            streak_end: 3000,
            ..POINTS_WEIGHTS
        };
        let mut differed = 0;
        for _ in 0..40 {
            let board = Board::from_fn(|_| rng.gen_bool(0.6));
            let ids: Vec<usize> = (0..3).map(|_| rng.gen_range(1..=13)).collect();
            let h = hand(&ids);
            let streak = rng.gen_range(0..2);
            let stop = AtomicBool::new(false);
            let ctl = Control::new(&stop, u64::MAX);
            let tally = Tally {
                scoring: Scoring::Blockudoku,
                streak,
            };
            let job = Job {
                weights: &w,
                beam: [usize::MAX, usize::MAX, 1],
                tally,
                ..Job::new(board, &h, &ctl)
            };
            let (best, _) = job.collect();
            let want = brute_points(board, &h, &w, streak);
            match best {
                None => assert_eq!(want, i64::MIN),
                Some((_, value)) => assert_eq!(value, want, "board {board:?} hand {ids:?}"),
            }
            let survive = Job {
                beam: [usize::MAX, usize::MAX, 1],
                ..Job::new(board, &h, &ctl)
            };
            if let (Some(a), Some(b)) = (survive.collect().0, job.collect().0) {
                differed += (a.0 != b.0) as u32;
            }
        }
        // The objective changes some answers.
        assert!(differed > 0);
    }

    // Objective points never leaves a board the next hand is more likely to kill than the
    // board the strong agent playing to survive (the net's weights) leaves, unless no next
    // hand can die on it.
    #[test]
    fn points_answers_are_no_riskier_than_survive_answers() {
        use puzzle_rules::blockudoku::Dealer;
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(12);
        let dealer = Dealer::new(catalogue());
        let (mut at_risk, mut differed) = (0, 0);
        for _ in 0..150 {
            let (board, ids) = random_deal(&mut rng, 0.5);
            let h = hand(&ids);
            let stop = AtomicBool::new(false);
            let ctl = Control::new(&stop, u64::MAX);
            let (survive, points) = survive_and_points(board, &h, &ctl);
            let (Some(s), Some(p)) = (survive.run(catalogue()).best, points.run(catalogue()).best)
            else {
                continue;
            };
            let (ds, dp) = (
                dealer.dead_chance(survive.after(&s.0)),
                dealer.dead_chance(points.after(&p.0)),
            );
            assert!(
                dp == 0.0 || dp <= ds,
                "points {dp} survive {ds} on {board:?} {ids:?}"
            );
            at_risk += (ds > 0.0) as u32;
            differed += (s.0 != p.0) as u32;
        }
        assert!(
            at_risk > 0 && differed > 0,
            "at risk {at_risk} differed {differed}"
        );
    }

    // With weight `survive_from`, objective points answers as the strong agent playing to
    // survive wherever the board it was dealt on is that likely to kill a next hand, and
    // elsewhere as without it.
    #[test]
    fn points_survive_first_in_a_crisis() {
        use puzzle_rules::blockudoku::Dealer;
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(14);
        let dealer = Dealer::new(catalogue());
        let from = 1000;
        let crisis_weights = Weights {
            survive_from: from,
            ..POINTS_WEIGHTS
        };
        let (mut crises, mut calm, mut changed) = (0, 0, 0);
        for _ in 0..150 {
            let (board, ids) = random_deal(&mut rng, 0.45);
            let h = hand(&ids);
            let stop = AtomicBool::new(false);
            let ctl = Control::new(&stop, u64::MAX);
            let (survive, points) = survive_and_points(board, &h, &ctl);
            let first = Job {
                weights: &crisis_weights,
                ..points
            };
            let line = |job: Job| job.run(catalogue()).best.map(|b| b.0);
            let (got, plain) = (line(first), line(points));
            if dealer.dead_chance(board) * 1e6 >= from as f64 {
                assert_eq!(got, line(survive), "{board:?} {ids:?}");
                crises += 1;
                changed += (got != plain) as u32;
            } else {
                assert_eq!(got, plain);
                calm += 1;
            }
        }
        assert!(
            crises > 0 && calm > 0 && changed > 0,
            "crises {crises} calm {calm} changed {changed}"
        );
    }

    // The strong agent prices a piece that fits nowhere at `game_nofit` on the game's own
    // pieces, in every search it runs, and at `nofit` on any other set.
    #[test]
    fn strong_prices_nofit_by_piece_set() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(41);
        let dearer = Weights {
            nofit: WEIGHTS.game_nofit,
            nofit_diag: WEIGHTS.game_nofit,
            game_nofit: 0,
            ..WEIGHTS
        };
        let plain = Weights {
            game_nofit: 0,
            ..WEIGHTS
        };
        let hard = &catalogue()[13..];
        let mut differed = 0;
        for _ in 0..40 {
            let (board, ids) = random_deal(&mut rng, 0.4);
            let h = hand(&ids);
            let stop = AtomicBool::new(false);
            let ctl = Control::new(&stop, u64::MAX);
            let line = |weights: &Weights, set: &[Piece]| {
                Job {
                    agent: Agent::Strong,
                    weights,
                    ..Job::new(board, &h, &ctl)
                }
                .run(set)
                .best
            };
            let game = line(&WEIGHTS, catalogue());
            assert_eq!(game, line(&dearer, catalogue()), "{board:?} {ids:?}");
            assert_eq!(
                line(&WEIGHTS, hard),
                line(&plain, hard),
                "{board:?} {ids:?}"
            );
            differed += (game != line(&plain, catalogue())) as u32;
        }
        // The price changes some answers.
        assert!(differed > 0);
    }

    // The strong agent's base search keeps the beam's final boards on hands that are not
    // crowded and searches crowded hands without pruning (weight `crowded_full`).
    #[test]
    fn strong_searches_crowded_hands_without_pruning() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(33);
        let boards = |c: &Collected| c.1.iter().map(|t| t.board).collect::<Vec<_>>();
        let (mut crowded, mut widened) = (0, 0);
        for _ in 0..200 {
            let board = Board::from_fn(|_| rng.gen_bool(0.45));
            let ids: Vec<usize> = (0..3).map(|_| rng.gen_range(1..=47)).collect();
            let h = hand(&ids);
            let stop = AtomicBool::new(false);
            let ctl = Control::new(&stop, u64::MAX);
            let strong = Job {
                agent: Agent::Strong,
                ..Job::new(board, &h, &ctl)
            };
            let keep = DEFAULT_BEAM[2].max(crate::strong::KEPT);
            let at = |beam: [usize; 2]| {
                Job {
                    agent: Agent::Default,
                    beam: [beam[0], beam[1], keep],
                    ..strong
                }
                .collect()
            };
            let (pruned, full) = (
                at([DEFAULT_BEAM[0], DEFAULT_BEAM[1]]),
                at([FULL_BEAM[0], FULL_BEAM[1]]),
            );
            let base = strong.strong_base();
            if is_crowded(&pruned.1, &WEIGHTS) {
                crowded += 1;
                widened += (boards(&pruned) != boards(&full)) as u32;
                assert_eq!(boards(&base), boards(&full), "{board:?} {ids:?}");
            } else {
                assert_eq!(boards(&base), boards(&pruned), "{board:?} {ids:?}");
            }
            let off = Weights {
                crowded_full: 0,
                ..WEIGHTS
            };
            let plain = Job {
                weights: &off,
                ..strong
            };
            assert_eq!(boards(&plain.strong_base()), boards(&pruned));
        }
        assert!(widened > 0, "crowded {crowded} widened {widened}");
    }

    #[test]
    fn mobility_of_the_empty_board_counts_every_placement() {
        assert_eq!(
            mobility(Board::EMPTY),
            catalogue()
                .iter()
                .map(|p| p.placements().len() as i64)
                .sum::<i64>()
        );
    }
}
