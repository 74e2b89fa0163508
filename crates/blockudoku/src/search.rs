//! Whole-hand search: pure computation over the rules crate, told when to stop.
//!
//! A "move" here is the whole hand: every piece placed, in some order, clearing between
//! placements. The search never looks at a clock; the caller sets `stop` (a timer, a `stop`
//! command) and gives a node budget. Neither is honoured before one complete placement of the
//! hand has been found, so every search that can place the hand returns a legal answer.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use puzzle_rules::blockudoku::{catalogue, Board, Piece, FULL};

/// Which agent chooses the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// The strongest agent: whole-hand search with merged orders and a shape evaluation.
    Default,
    /// The original agent: depth-first, leaf value = mobility, stop at the first leaf > 1500.
    Seed,
}

/// Every agent, in documentation order.
pub const AGENTS: [Agent; 2] = [Agent::Default, Agent::Seed];

impl Agent {
    /// The option value naming the agent.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Default => "default",
            Agent::Seed => "seed",
        }
    }

    /// The agent called `name`, if any.
    pub fn from_name(name: &str) -> Option<Agent> {
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

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The best line (all pieces, in play order) and its value, or `None` when the hand is dead.
    pub best: Option<(Vec<Step>, i64)>,
    /// Placements tried.
    pub nodes: u64,
}

/// The evaluation weights (penalties; higher evaluation is better).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// Per filled cell.
    pub cells: i64,
    /// Per 3x3 box holding at least one filled cell.
    pub boxes: i64,
    /// Per empty cell with all four neighbours filled (or the wall).
    pub isolated: i64,
    /// Per empty cell squashed between two filled cells (or wall) in a row or a column.
    pub squashed: i64,
    /// Per filled/empty transition between neighbouring cells in a row or a column.
    pub transitions: i64,
    /// Per catalogue piece (ids above `nofit_from`) that fits nowhere.
    pub nofit: i64,
    /// Catalogue pieces with index `nofit_from..47` (id `nofit_from + 1` up) count in `nofit`.
    pub nofit_from: usize,
    /// Per empty cell that no straight 3-cell line can cover.
    pub uncovered3: i64,
    /// Per row or column holding a filled cell.
    pub lines: i64,
    /// Per empty cell with two or more filled (or wall) neighbours among its four.
    pub crowded: i64,
}

/// Weights tuned by self-play on a hard piece set (ids 14-47 only, so games end within a few
/// hundred rounds and differences show in minutes): rounds survived over 60 seeded games.
pub const WEIGHTS: Weights = Weights {
    cells: 1,
    boxes: 5,
    isolated: 14,
    squashed: 4,
    transitions: 3,
    nofit: 8,
    nofit_from: 32,
    uncovered3: 6,
    lines: 2,
    crowded: 3,
};

const fn col_mask(c: usize) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        m |= 1u128 << (r * 9 + c);
        r += 1;
    }
    m
}
const COL0: u128 = col_mask(0);
const COL8: u128 = col_mask(8);
const ROW0: u128 = 0x1ff;
const ROW8: u128 = 0x1ff << 72;
const H3_ANCHORS: u128 = FULL & !col_mask(7) & !COL8;
const V3_ANCHORS: u128 = FULL & !(ROW8 | ROW8 >> 9);

/// The evaluation's terms for one board (counts, before weighting).
#[derive(Clone, Copy, Debug, Default)]
pub struct Terms {
    /// Filled cells.
    pub cells: u32,
    /// Boxes holding a filled cell.
    pub boxes: u32,
    /// Empty cells with all four neighbours blocked.
    pub isolated: u32,
    /// Empty cells blocked on both sides in a row or in a column (counted per direction).
    pub squashed: u32,
    /// Filled/empty transitions in rows and columns, walls excluded.
    pub transitions: u32,
    /// Catalogue pieces (from the weights' `nofit_from`) with no legal placement.
    pub nofit: u32,
    /// Empty cells no horizontal or vertical 3-cell line can cover.
    pub uncovered3: u32,
    /// Rows and columns holding a filled cell.
    pub lines: u32,
    /// Empty cells with at least two blocked neighbours.
    pub crowded: u32,
}

impl Terms {
    /// Measures `board`.
    #[inline]
    pub fn of(board: Board, nofit_from: usize) -> Terms {
        let table = &nofit_tables()[nofit_from.min(47)];
        // Software popcount costs about a dozen instructions per word; the evaluation counts
        // a dozen masks, so use the popcnt instruction when the processor has one.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor supports popcnt (checked just above).
            return unsafe { terms_popcnt(board.bits(), table) };
        }
        terms_of(board.bits(), table)
    }

    /// The weighted sum: higher is better.
    pub fn value(&self, w: &Weights) -> i64 {
        -(w.cells * self.cells as i64
            + w.boxes * self.boxes as i64
            + w.isolated * self.isolated as i64
            + w.squashed * self.squashed as i64
            + w.transitions * self.transitions as i64
            + w.nofit * self.nofit as i64
            + w.uncovered3 * self.uncovered3 as i64
            + w.lines * self.lines as i64
            + w.crowded * self.crowded as i64)
    }
}

/// The `nofit` pieces, split for speed. Every catalogue piece is a straight line (`lines`,
/// tested on runs of empty cells) or fits a 3x3 box (`small`). The small ones all fit when
/// some 3x3 square is empty, which spares their tests on most boards; otherwise each is a
/// shift-and test sharing the shifts of the empty cells: the distinct cell offsets
/// (`row * 9 + col`) and, per piece, its anchors and the indices of its cells' offsets,
/// padded with `ALL`, a slot that is all ones.
struct NofitTable {
    offsets: Vec<u32>,
    /// Straight lines (anchors, length - 1, vertical): tested on runs of empty cells.
    lines: Vec<(u128, usize, bool)>,
    small: Vec<(u128, [u8; 5])>,
}

// Small pieces have their cells in a 3x3 frame: at most 9 distinct offsets.
const ALL: usize = 9;

/// One table per `nofit_from` (0..=47).
fn nofit_tables() -> &'static [NofitTable] {
    static TABLES: std::sync::OnceLock<Vec<NofitTable>> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        (0..=47)
            .map(|from| {
                let mut offsets: Vec<u32> = Vec::new();
                let (mut lines, mut small) = (Vec::new(), Vec::new());
                for p in &catalogue()[from..] {
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
            .collect()
    })
}

const BOX_CORNERS: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        let mut c = 0;
        while c < 9 {
            m |= 1u128 << (r * 9 + c);
            c += 3;
        }
        r += 3;
    }
    m
};

/// Catalogue pieces of `table` that fit nowhere on the board with empty cells `e`; `h3` holds
/// the anchors of empty horizontal 3-cell runs.
#[inline(always)]
fn nofit_count(e: u128, h3: u128, table: &NofitTable) -> u32 {
    // Anchors of empty runs of 1 to 5 cells, along rows (step 1) or columns (step 9); runs
    // that wrap past a row end are outside every line piece's anchors.
    let runs = |step: u32| {
        let r2 = e & e >> step;
        let r4 = r2 & r2 >> (2 * step);
        [e, r2, r2 & e >> (2 * step), r4, r4 & e >> (4 * step)]
    };
    let (h, v) = (runs(1), runs(9));
    let mut n = 0;
    for &(anchors, len, vertical) in &table.lines {
        let run = if vertical { v[len] } else { h[len] };
        n += (anchors & run == 0) as u32;
    }
    if h3 & h3 >> 9 & h3 >> 18 != 0 || table.small.is_empty() {
        return n;
    }
    let mut shifted = [!0u128; 16];
    for (s, &o) in shifted.iter_mut().zip(&table.offsets) {
        *s = e >> o;
    }
    for &(anchors, [i0, i1, i2, i3, i4]) in &table.small {
        let s = |i: u8| shifted[i as usize & 15];
        n += (anchors & s(i0) & s(i1) & s(i2) & s(i3) & s(i4) == 0) as u32;
    }
    n
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn terms_popcnt(b: u128, table: &NofitTable) -> Terms {
    terms_of(b, table)
}

/// `Terms::of` on the bits `b`; inlined into each caller so that the popcnt build counts
/// with the instruction.
#[inline(always)]
fn terms_of(b: u128, table: &NofitTable) -> Terms {
    let e = !b & FULL;
    let left = ((b << 1) & !COL0) | COL0;
    let right = ((b >> 1) & !COL8) | COL8;
    let up = ((b << 9) & FULL) | ROW0;
    let down = (b >> 9) | ROW8;
    let h_block = e & left & right;
    let v_block = e & up & down;
    let isolated = h_block & v_block;
    let transitions =
        ((b ^ (b >> 1)) & !COL8).count_ones() + ((b ^ (b >> 9)) & (FULL >> 9)).count_ones();
    // At least two of the four neighbours blocked: pairwise ORs of ANDs.
    let crowded = e & ((left & (right | up | down)) | (right & (up | down)) | (up & down));
    // Rows: fold each row's nine cells into its first column (shifts below 9 stay in the row).
    let mut rows = b | b >> 1;
    rows |= rows >> 2;
    rows |= rows >> 4;
    rows |= b >> 8;
    // Columns: fold the nine rows into the first.
    let mut cols = b | b >> 9;
    cols |= cols >> 18;
    cols |= cols >> 36;
    cols |= b >> 72;
    let lines = (rows & COL0).count_ones() + (cols & ROW0).count_ones();
    // Boxes: fold three rows, then three columns, into each box's top-left cell.
    let three_rows = b | b >> 9 | b >> 18;
    let boxes = ((three_rows | three_rows >> 1 | three_rows >> 2) & BOX_CORNERS).count_ones();
    let h3 = e & (e >> 1) & (e >> 2) & H3_ANCHORS;
    let v3 = e & (e >> 9) & (e >> 18) & V3_ANCHORS;
    let covered = h3 | h3 << 1 | h3 << 2 | v3 | v3 << 9 | v3 << 18;
    let uncovered3 = (e & !covered).count_ones();
    let nofit = nofit_count(e, h3, table);
    Terms {
        cells: b.count_ones(),
        boxes,
        isolated: isolated.count_ones(),
        squashed: h_block.count_ones() + v_block.count_ones(),
        transitions,
        nofit,
        uncovered3,
        lines,
        crowded: crowded.count_ones(),
    }
}

/// The default agent's evaluation of a board.
#[inline]
pub fn evaluate(board: Board, w: &Weights) -> i64 {
    Terms::of(board, w.nofit_from).value(w)
}

/// The seed agent's leaf value: legal placements of all 47 catalogue pieces.
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
    nodes: AtomicU64,
    found: AtomicBool,
}

impl<'a> Control<'a> {
    /// A control reading `stop` with a node budget.
    pub fn new(stop: &'a AtomicBool, node_limit: u64) -> Control<'a> {
        Control {
            stop,
            node_limit,
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
type Seen = HashSet<(u128, u8), BuildHasherDefault<FxHasher>>;

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
    /// The best final boards (value, line, board), best first, for the lookahead.
    top: Vec<(i64, Vec<Step>, Board)>,
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
        let value = match self.agent {
            Agent::Default => evaluate(board, &self.weights),
            Agent::Seed => mobility(board),
        };
        if self.best.as_ref().is_none_or(|b| value > b.1) {
            self.best = Some((self.path.clone(), value));
            self.ctl.found.store(true, Ordering::Relaxed);
        }
        let keep = kept(self.beam[2]);
        if self.agent == Agent::Default
            && keep > 1
            && (self.top.len() < keep || self.top.last().is_some_and(|t| value > t.0))
        {
            let at = self.top.partition_point(|t| t.0 >= value);
            self.top.insert(at, (value, self.path.clone(), board));
            self.top.truncate(keep);
        }
        // The original agent takes the first leaf with more than 1500 placements.
        if self.agent == Agent::Seed && value > 1500 {
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
        let mut rest = fits;
        while rest != 0 {
            let anchor = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(mask) = piece.mask_at(anchor / 9, anchor % 9) {
                self.tick();
                buf[n] = (
                    evaluate(board.place_mask(mask).0, &self.weights),
                    anchor as u8,
                );
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
        while fits != 0 {
            let anchor = fits.trailing_zeros() as usize;
            fits &= fits - 1;
            let Some(mask) = piece.mask_at(anchor / 9, anchor % 9) else {
                continue;
            };
            let (next, _) = board.place_mask(mask);
            self.tick();
            // Orders that reach the same board with the same pieces left have the same future.
            // The table stops growing at SEEN_CAP: one rehash of a huge table would take
            // longer than the stop latency allows (the search stays correct, just slower).
            if self.agent == Agent::Default
                && (self.seen.0.len() < SEEN_CAP || self.seen.0.contains(&(next.bits(), next_used)))
                && !self.seen.0.insert((next.bits(), next_used))
            {
                continue;
            }
            self.path.push(Step {
                slot: self.hand[i].0,
                anchor: anchor as u8,
            });
            self.dfs(next, next_used);
            self.path.pop();
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

/// No pruning: every placement of every piece in every order.
pub const FULL_BEAM: Beam = [usize::MAX, usize::MAX, DEFAULT_BEAM[2]];

// Lookahead value of a piece that fits nowhere on the board (evaluations are around -100..-600).
// Hard set, seed 7, 300 games: -1000 beat -3000, -1500, -600 and -6000; on its own it did not
// confirm on seed 99, with `WIDE_LOOKAHEAD` it did (see the commit message).
const NO_FIT: i64 = -1000;

/// Final boards re-ranked by the lookahead when the best of them evaluates below `WIDE_BELOW`
/// (the lookahead width asked for, when wider, wins).
pub const WIDE_LOOKAHEAD: usize = 16;

/// Static evaluation under which the best final board counts as crowded.
pub const WIDE_BELOW: i64 = -250;

/// The one-piece lookahead: the mean over the 47 catalogue pieces of the best evaluation
/// after placing that piece (NO_FIT when it fits nowhere). It is what the next hand is
/// likely to meet, where `evaluate` only sees the board as it stands.
pub fn lookahead(board: Board, w: &Weights) -> (i64, u64) {
    let table = &nofit_tables()[w.nofit_from.min(47)];
    // Thousands of evaluations per call: compile the whole loop for popcnt, not each call.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor supports popcnt (checked just above).
        return unsafe { lookahead_popcnt(board, w, table) };
    }
    lookahead_with(board, w, table)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn lookahead_popcnt(board: Board, w: &Weights, table: &NofitTable) -> (i64, u64) {
    lookahead_with(board, w, table)
}

#[inline(always)]
fn lookahead_with(board: Board, w: &Weights, table: &NofitTable) -> (i64, u64) {
    let mut total = 0;
    let mut nodes = 0;
    for piece in catalogue() {
        let mut best = NO_FIT;
        let mut fits = piece.fit_anchors(board);
        while fits != 0 {
            let a = fits.trailing_zeros() as usize;
            fits &= fits - 1;
            if let Some(mask) = piece.mask_at(a / 9, a % 9) {
                nodes += 1;
                let after = board.place_mask(mask).0;
                best = best.max(terms_of(after.bits(), table).value(w));
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

/// Searches with the default beam, then (when `widen`) with doubled beams until the full
/// search completes or the control stops it; keeps the best line found by any pass.
pub fn search_widening(
    board: Board,
    hand: &[(usize, &Piece)],
    agent: Agent,
    weights: &Weights,
    threads: usize,
    ctl: &Control,
    widen: bool,
) -> Outcome {
    let mut beam = DEFAULT_BEAM;
    let mut best: Option<(Vec<Step>, i64)> = None;
    loop {
        let out = search(board, hand, agent, weights, threads, ctl, beam);
        if let Some(b) = out.best {
            if best.as_ref().is_none_or(|x| b.1 > x.1) {
                best = Some(b);
            }
        }
        let stopped = ctl.stop.load(Ordering::Relaxed) || out.nodes >= ctl.node_limit;
        if !widen || stopped || beam == FULL_BEAM || agent == Agent::Seed || best.is_none() {
            return Outcome {
                best,
                nodes: out.nodes,
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
pub fn search(
    board: Board,
    hand: &[(usize, &Piece)],
    agent: Agent,
    weights: &Weights,
    threads: usize,
    ctl: &Control,
    beam: Beam,
) -> Outcome {
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
    };
    let finish = |w: &Worker| w.local % POLL;
    if threads <= 1 || agent == Agent::Seed || hand.is_empty() {
        let mut w = new_worker();
        w.dfs(board, 0);
        ctl.nodes.fetch_add(finish(&w), Ordering::Relaxed);
        let best = rerank(w.best, w.top, weights, ctl, beam[2]);
        return Outcome {
            best,
            nodes: ctl.nodes.load(Ordering::Relaxed),
        };
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
    top.sort_by_key(|t| std::cmp::Reverse(t.0));
    top.truncate(kept(beam[2]));
    let best = rerank(best, top, weights, ctl, beam[2]);
    Outcome {
        best,
        nodes: ctl.nodes.load(Ordering::Relaxed),
    }
}

/// Picks among the best final boards by the one-piece lookahead (value reported: the
/// lookahead's). Keeps `best` when there is nothing to choose between.
fn rerank(
    best: Option<(Vec<Step>, i64)>,
    top: Vec<(i64, Vec<Step>, Board)>,
    weights: &Weights,
    ctl: &Control,
    width: usize,
) -> Option<(Vec<Step>, i64)> {
    if top.len() < 2 || width < 2 {
        return best;
    }
    // Crowded boards (where games are lost) get the wider lookahead; their pieces have few
    // placements, so it costs little.
    let n = if top[0].0 < WIDE_BELOW {
        WIDE_LOOKAHEAD.max(width)
    } else {
        width
    };
    let mut chosen: Option<(Vec<Step>, i64)> = None;
    for (_, line, board) in top.into_iter().take(n) {
        // A stopped search must answer now: keep what the lookahead has ranked so far.
        if ctl.stop.load(Ordering::Relaxed) {
            return chosen.or(best);
        }
        let (value, nodes) = lookahead(board, weights);
        ctl.nodes.fetch_add(nodes, Ordering::Relaxed);
        if chosen.as_ref().is_none_or(|c| value > c.1) {
            chosen = Some((line, value));
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_rules::blockudoku::{can_place_all, GameState, Scoring};

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

    #[test]
    fn answers_are_legal_and_dead_hands_say_none() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for _ in 0..60 {
            let mut bits = 0u128;
            for i in 0..81 {
                if rng.gen_bool(0.55) {
                    bits |= 1u128 << i;
                }
            }
            let board = Board::from_bits(bits);
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
        let a = search(
            Board::EMPTY,
            &h,
            Agent::Default,
            &WEIGHTS,
            1,
            &Control::new(&stop, 1000),
            DEFAULT_BEAM,
        );
        let b = search(
            Board::EMPTY,
            &h,
            Agent::Default,
            &WEIGHTS,
            1,
            &Control::new(&stop, 1000),
            DEFAULT_BEAM,
        );
        assert!(a.best.is_some());
        assert_eq!(a.best.unwrap().0, b.best.unwrap().0);
        // The node limit bounds the search; the lookahead over the kept boards comes on top.
        assert!(a.nodes < 1000 + POLL + DEFAULT_BEAM[2] as u64 * mobility(Board::EMPTY) as u64);
    }

    /// The evaluation terms computed the plain way: region by region, piece by piece.
    fn reference_terms(board: Board, nofit_from: usize) -> Terms {
        let b = board.bits();
        let e = !b & FULL;
        let filled = |r: i32, c: i32| {
            !(0..9).contains(&r) || !(0..9).contains(&c) || b >> (r * 9 + c) & 1 == 1
        };
        let mut t = Terms::default();
        for r in 0..9 {
            for c in 0..9 {
                if filled(r, c) {
                    t.cells += 1;
                    if c < 8 && !filled(r, c + 1) {
                        t.transitions += 1;
                    }
                    if r < 8 && !filled(r + 1, c) {
                        t.transitions += 1;
                    }
                    continue;
                }
                if c < 8 && filled(r, c + 1) {
                    t.transitions += 1;
                }
                if r < 8 && filled(r + 1, c) {
                    t.transitions += 1;
                }
                let (l, rt, u, d) = (
                    filled(r, c - 1),
                    filled(r, c + 1),
                    filled(r - 1, c),
                    filled(r + 1, c),
                );
                t.isolated += (l && rt && u && d) as u32;
                t.squashed += (l && rt) as u32 + (u && d) as u32;
                t.crowded += (l as u32 + rt as u32 + u as u32 + d as u32 >= 2) as u32;
                let h = (c - 2..=c)
                    .any(|c0| (c0..c0 + 3).all(|x| (0..9).contains(&x) && !filled(r, x)));
                let v = (r - 2..=r)
                    .any(|r0| (r0..r0 + 3).all(|y| (0..9).contains(&y) && !filled(y, c)));
                t.uncovered3 += (!h && !v) as u32;
            }
        }
        let regions = puzzle_rules::blockudoku::REGIONS;
        t.lines = regions[..18].iter().filter(|&&m| b & m != 0).count() as u32;
        t.boxes = regions[18..].iter().filter(|&&m| b & m != 0).count() as u32;
        t.nofit = catalogue()[nofit_from..]
            .iter()
            .filter(|p| p.placements().iter().all(|&(_, m)| m & e != m))
            .count() as u32;
        t
    }

    #[test]
    fn evaluation_terms_match_a_plain_count() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for n in 0..3000 {
            let density = [0.1, 0.3, 0.5, 0.7, 0.9][n % 5];
            let mut bits = 0u128;
            for i in 0..81 {
                if rng.gen_bool(density) {
                    bits |= 1u128 << i;
                }
            }
            let board = Board::from_bits(bits);
            let from = rng.gen_range(0..=47);
            let fast = Terms::of(board, from);
            let plain = reference_terms(board, from);
            assert_eq!(
                format!("{fast:?}"),
                format!("{plain:?}"),
                "{board} from {from}"
            );
            assert_eq!(
                terms_of(bits, &nofit_tables()[from]).value(&WEIGHTS),
                fast.value(&WEIGHTS)
            );
        }
    }

    #[test]
    fn evaluation_terms_on_known_boards() {
        let t = Terms::of(Board::EMPTY, 32);
        assert_eq!(
            (
                t.cells,
                t.boxes,
                t.isolated,
                t.transitions,
                t.nofit,
                t.uncovered3
            ),
            (0, 0, 0, 0, 0, 0)
        );
        // A single hole at r1c1 surrounded by walls and filled cells.
        let b = Board::from_bits(
            puzzle_rules::blockudoku::cell_bit(0, 1) | puzzle_rules::blockudoku::cell_bit(1, 0),
        );
        let t = Terms::of(b, 32);
        assert_eq!(t.isolated, 1);
        assert_eq!(t.uncovered3, 1);
        assert_eq!(t.boxes, 1);
        assert_eq!(
            mobility(Board::EMPTY),
            catalogue()
                .iter()
                .map(|p| p.placements().len() as i64)
                .sum::<i64>()
        );
    }
}
