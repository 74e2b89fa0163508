//! The default agent's board evaluation: penalties for shapes that make the board hard to
//! keep clear, summed with weights (higher evaluation is better).
//!
//! The terms are those of the public engine blokie (gary-z/blokie, `simpleEvalImpl`):
//! filled cells and occupied 3x3 boxes by the box's place on the board, ends of runs of
//! empty cells, empty cells cornered or squashed between filled ones, cells no 3-cell line
//! can cover, 5-cell and diagonal pieces that fit nowhere, and the scarcity of their
//! placements on crowded boards. They replaced this engine's first evaluation, which died
//! about five times as often (EXPERIMENTS.md, "The evaluation"). The code is written for this
//! crate's board bits (`row * 9 + col` in a `u128`) and computes the terms in three stages,
//! cheapest first, so that a caller who only needs to know whether a board beats a bound can
//! stop early (every weight is a penalty, so a partial sum only falls).

use puzzle_rules::blockudoku::masks::{
    column, row, ABOVE_BOUNDARY, ANCHORS_3X3, BELOW_BOUNDARY, BOX_CORNERS, CENTER_BOX,
    CORNER_BOXES, EDGES, H3_ANCHORS, LEFT_OF_BOUNDARY, REGIONS, RIGHT_OF_BOUNDARY, SIDE_BOXES,
    V3_ANCHORS,
};
use puzzle_rules::blockudoku::{catalogue, Board, Piece, FULL};

/// The evaluation weights: each is the penalty per unit of its term (`Terms` has the counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per filled cell of the centre box.
    pub sq_center: i64,
    /// Per filled cell of the four side boxes.
    pub sq_side: i64,
    /// Per filled cell of the four corner boxes.
    pub sq_corner: i64,
    /// For an occupied centre box.
    pub box_center: i64,
    /// Per occupied side box.
    pub box_side: i64,
    /// Per occupied corner box.
    pub box_corner: i64,
    /// Per end of a run of empty cells in a row or a column (an end: the run's last cell
    /// before a filled cell or the wall), except ends on a box boundary.
    pub ends: i64,
    /// Per run end whose blocking neighbour lies across a box boundary inside the board.
    pub ends_aligned: i64,
    /// Per (empty cell, corner) with filled cells on both sides of that corner.
    pub cornered: i64,
    /// Per empty cell off the board's edge blocked on both sides in a row, and in a column.
    pub squashed: i64,
    /// The same on the board's edge.
    pub squashed_edge: i64,
    /// Per empty cell no 3-cell line covers, in a row, and in a column.
    pub bar3: i64,
    /// Per catalogue piece from index `nofit_from` on (the 5-cell pieces) that fits nowhere.
    pub nofit: i64,
    /// Catalogue pieces with index `nofit_from..47` count in `nofit` and `scarcity`.
    pub nofit_from: usize,
    /// Per 3-cell diagonal piece (ids 6 and 7) that fits nowhere.
    pub nofit_diag: i64,
    /// On boards with more than 20 filled cells: (filled - 20) times the placements the
    /// `nofit` and diagonal pieces miss to 4 each.
    pub scarcity: i64,
    /// The lookahead's value for a piece that fits nowhere.
    pub no_fit: i64,
    /// Static evaluation under which the best final board counts as crowded (the search
    /// then re-ranks more final boards by the lookahead).
    pub wide_below: i64,
    /// The strong agent's value of a next hand that cannot be placed, as a penalty (the
    /// evaluation of the best board a next hand reaches is weighed against it).
    pub death: i64,
    /// A steeper price of small death chances: each unit of next-hand death chance up to
    /// `steep_to` millionths costs this much more than `death` (a crisis avoided where one
    /// can be; where every board is risky, `death` alone tells them apart).
    pub steep: i64,
    /// Millionths of death chance up to which `steep` is paid.
    pub steep_to: i64,
    /// On the game's own 47 pieces, the strong agent prices `nofit` and `nofit_diag` at this
    /// instead (0: as given). There a board where a big piece fits nowhere is what the rare
    /// crises start from; on harder sets such boards are everyday ones and the dearer price
    /// costs (EXPERIMENTS.md, "Twice the price of a piece that fits nowhere").
    pub game_nofit: i64,
    /// The strong agent's boards weighed by its hand lookahead.
    pub candidates: i64,
    /// The strong agent's next hands sampled per weighing (without a clock).
    pub samples: i64,
    /// The strong agent also weighs crowded boards (evaluation below `wide_below`) whose
    /// default choice cannot die on the next hand (1) or not (0).
    pub weigh_crowded: i64,
    /// The strong agent searches a crowded hand (best final evaluation below `wide_below`
    /// with the beam asked for) again without pruning (1) or not (0).
    pub crowded_full: i64,
    /// The strong agent weighs boards only where the default choice's next-hand death
    /// chance is at least this many millionths (and above 0).
    pub crisis: i64,
    /// The hand lookahead weighs its best inner boards by the death chance of the hand
    /// after (1) or takes the evaluation alone (0).
    pub inner_death: i64,
    /// The hand lookahead's price of an inner board on which some two pieces cannot both be
    /// placed (a crisis the next hand would leave; [`puzzle_rules::blockudoku::Dealer::has_dead_pair`]); 0: off.
    pub inner_pair: i64,
    /// On the game's own 47 pieces, the strong agent's `inner_pair` is this instead (0: as
    /// given). There a crisis is rare and costs many rounds of risk; on harder sets boards
    /// with a dead pair are everyday ones.
    pub game_inner_pair: i64,
    /// The beam of the hand lookahead's searches: this many placements after the first
    /// piece, half as many (rounded up) after the second; no one-piece lookahead.
    pub inner_width: i64,
    /// The strong agent also weighs the kept board with the lowest next-hand death chance
    /// (1) or not (0).
    pub safest: i64,
    /// A deep crisis: where the best candidate's next-hand death chance is at least this
    /// many millionths (0: never), the strong agent weighs every kept board, with
    /// `deep_samples` next hands, and the hand lookahead weighs its inner boards by the death
    /// chance of the hand after (as `inner_death`).
    pub deep_from: i64,
    /// Next hands sampled per weighing in a deep crisis.
    pub deep_samples: i64,
    /// On the game's own 47 pieces, the strong agent's `deep_from` is this instead (0: as
    /// given). There deep crises are rare, and weighing them more closely costs little time
    /// overall; on harder sets they are everyday ones. Off: 1000 gave no measurable gain over
    /// 2M fresh rounds (EXPERIMENTS.md, "A deep crisis weighing").
    pub game_deep_from: i64,
    /// Rollouts in a crisis (0: off): where the weighed choice's next-hand death chance is at
    /// least `rollout_from` millionths, the strong agent plays this many continuations of
    /// `rollout_rounds` hands from each candidate (the default agent answering, the same
    /// deals for every candidate) and answers the candidate whose continuations carry the
    /// least risk. Without a clock and without points only.
    pub rollouts: i64,
    /// Hands per rollout.
    pub rollout_rounds: i64,
    /// Millionths of next-hand death chance from which rollouts are played (and above 0).
    pub rollout_from: i64,
    /// Per point the line scores (objective `points`; 0: points are not counted, the
    /// objective is to survive).
    pub points: i64,
    /// With points counted, a bonus per empty cell that two nearly full regions (at most
    /// `open_below` empty cells) share, doubled where three do: combos in the making.
    pub combo: i64,
    /// With points counted, a bonus per nearly full region.
    pub open: i64,
    /// With points counted, a bonus per filled cell (a fuller board clears more at once).
    pub fill: i64,
    /// With points counted, a bonus for a line whose last placement cleared (the next
    /// clear earns the streak bonus).
    pub streak_end: i64,
    /// Regions with fewer empty cells than this (and at least one) are nearly full.
    pub open_below: i64,
    /// The combo bonus counts only on boards whose evaluation is at least this.
    pub open_gate: i64,
    /// With points counted, the safety net also looks at boards evaluated below this.
    pub net_below: i64,
    /// With points counted: where a next hand dies on the board the hand was dealt on with
    /// a chance of at least this many millionths (a crisis; 0: never), the strong agent's
    /// search without points answers, whatever the points line's risk.
    pub survive_from: i64,
}

/// The default weights: blokie's published values for these terms (its `getDefault`, tuned
/// there by self-play with the same 47 pieces); `no_fit` and `wide_below` are this engine's
/// lookahead settings, carried over from the first evaluation at the same quantiles of
/// self-play boards.
pub const WEIGHTS: Weights = Weights {
    sq_center: 1607,
    sq_side: 2000,
    sq_corner: 3067,
    box_center: 204,
    box_side: 1358,
    box_corner: 908,
    ends: 4450,
    ends_aligned: 1776,
    cornered: 6540,
    squashed: 524,
    squashed_edge: 3386,
    bar3: 2665,
    nofit: 18185,
    nofit_from: 32,
    nofit_diag: 18185,
    scarcity: 200,
    no_fit: -1_330_000,
    wide_below: -390_000,
    death: 4_000_000,
    steep: 36_000_000,
    steep_to: 1000,
    game_nofit: 36_000,
    candidates: 4,
    samples: 64,
    weigh_crowded: 1,
    crowded_full: 1,
    crisis: 0,
    inner_death: 0,
    inner_pair: 0,
    game_inner_pair: 500_000,
    inner_width: 3,
    safest: 0,
    deep_from: 0,
    deep_samples: 64,
    game_deep_from: 0,
    rollouts: 0,
    rollout_rounds: 8,
    rollout_from: 1000,
    points: 0,
    combo: 0,
    open: 0,
    fill: 0,
    streak_end: 0,
    open_below: 4,
    open_gate: -250_000,
    net_below: i64::MIN,
    survive_from: 0,
};

impl Weights {
    /// The strong agent's price of a next-hand death chance `d`, in evaluation units:
    /// `death * d`, plus `steep` per unit of `d` up to `steep_to` millionths.
    pub fn death_price(&self, d: f64) -> f64 {
        let bend = self.steep_to as f64 * 1e-6;
        self.death as f64 * d + self.steep as f64 * d.min(bend)
    }

    /// The weights the strong agent plays with when hands are dealt from `set`: on the game's
    /// own 47 pieces (the catalogue), `game_nofit` stands for `nofit` and `nofit_diag`,
    /// `game_inner_pair` for `inner_pair` and `game_deep_from` for `deep_from` (each unless
    /// it is 0).
    pub fn for_set(&self, set: &[Piece]) -> Weights {
        let mut w = *self;
        if set != catalogue() {
            return w;
        }
        if self.game_nofit != 0 {
            w.nofit = self.game_nofit;
            w.nofit_diag = self.game_nofit;
        }
        if self.game_inner_pair != 0 {
            w.inner_pair = self.game_inner_pair;
        }
        if self.game_deep_from != 0 {
            w.deep_from = self.game_deep_from;
        }
        w
    }

    /// Sets the weight called `name` (the field names). Term weights are penalties and must
    /// not be negative; `nofit_from` is 0..=47.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        let w = match name {
            "no_fit" => &mut self.no_fit,
            "wide_below" => &mut self.wide_below,
            "death" if value < 0 => return Err(format!("weight death is negative: {value}")),
            "death" => &mut self.death,
            "candidates" if value < 1 => {
                return Err(format!("candidates must be at least 1: {value}"))
            }
            "candidates" => &mut self.candidates,
            "samples" if value < 1 => return Err(format!("samples must be at least 1: {value}")),
            "samples" => &mut self.samples,
            "weigh_crowded" => &mut self.weigh_crowded,
            "crowded_full" => &mut self.crowded_full,
            "crisis" => &mut self.crisis,
            "inner_death" => &mut self.inner_death,
            "inner_pair" if value < 0 => return Err(format!("inner_pair is negative: {value}")),
            "inner_pair" => &mut self.inner_pair,
            "game_inner_pair" if value < 0 => {
                return Err(format!("game_inner_pair is negative: {value}"))
            }
            "game_inner_pair" => &mut self.game_inner_pair,
            "inner_width" if value < 1 => {
                return Err(format!("inner_width must be at least 1: {value}"))
            }
            "inner_width" => &mut self.inner_width,
            "safest" => &mut self.safest,
            "deep_from" if value < 0 => return Err(format!("deep_from is negative: {value}")),
            "deep_from" => &mut self.deep_from,
            "deep_samples" if value < 1 => {
                return Err(format!("deep_samples must be at least 1: {value}"))
            }
            "deep_samples" => &mut self.deep_samples,
            "game_deep_from" if value < 0 => {
                return Err(format!("game_deep_from is negative: {value}"))
            }
            "game_deep_from" => &mut self.game_deep_from,
            "rollouts" if value < 0 => return Err(format!("rollouts is negative: {value}")),
            "rollouts" => &mut self.rollouts,
            "rollout_rounds" if value < 1 => {
                return Err(format!("rollout_rounds must be at least 1: {value}"))
            }
            "rollout_rounds" => &mut self.rollout_rounds,
            "rollout_from" if value < 0 => {
                return Err(format!("rollout_from is negative: {value}"))
            }
            "rollout_from" => &mut self.rollout_from,
            "points" if value < 0 => return Err(format!("weight points is negative: {value}")),
            "points" => &mut self.points,
            "combo" => &mut self.combo,
            "open" => &mut self.open,
            "fill" => &mut self.fill,
            "streak_end" => &mut self.streak_end,
            "open_below" => &mut self.open_below,
            "open_gate" => &mut self.open_gate,
            "net_below" => &mut self.net_below,
            "survive_from" if value < 0 => {
                return Err(format!("survive_from is negative: {value}"))
            }
            "survive_from" => &mut self.survive_from,
            "nofit_from" if (0..=47).contains(&value) => {
                self.nofit_from = value as usize;
                return Ok(());
            }
            "nofit_from" => return Err(format!("nofit_from {value} is not in 0..=47")),
            _ if value < 0 => return Err(format!("weight {name} is negative: {value}")),
            "sq_center" => &mut self.sq_center,
            "sq_side" => &mut self.sq_side,
            "sq_corner" => &mut self.sq_corner,
            "box_center" => &mut self.box_center,
            "box_side" => &mut self.box_side,
            "box_corner" => &mut self.box_corner,
            "ends" => &mut self.ends,
            "ends_aligned" => &mut self.ends_aligned,
            "cornered" => &mut self.cornered,
            "squashed" => &mut self.squashed,
            "squashed_edge" => &mut self.squashed_edge,
            "bar3" => &mut self.bar3,
            "nofit" => &mut self.nofit,
            "nofit_diag" => &mut self.nofit_diag,
            "scarcity" => &mut self.scarcity,
            "steep" => &mut self.steep,
            "steep_to" => &mut self.steep_to,
            "game_nofit" => &mut self.game_nofit,
            _ => return Err(format!("unknown weight {name}")),
        };
        *w = value;
        Ok(())
    }
}

/// Nearly full regions of the board `bits` (between 1 and `below - 1` empty cells), and the
/// empty cells two of them share plus those three share: where one piece could clear several
/// regions at once.
pub fn combo_terms(bits: u128, below: i64) -> (u32, u32) {
    let empty = !bits & FULL;
    let (mut one, mut two, mut three, mut open) = (0u128, 0u128, 0u128, 0);
    for r in REGIONS {
        let e = empty & r;
        let n = e.count_ones() as i64;
        if n > 0 && n < below {
            open += 1;
            three |= two & e;
            two |= one & e;
            one |= e;
        }
    }
    (open, two.count_ones() + three.count_ones())
}

/// The bonus of the combo terms of the board `bits` under `w` (0 unless points are counted).
#[inline]
pub fn combo_bonus(bits: u128, w: &Weights) -> i64 {
    if w.points == 0 || (w.combo == 0 && w.open == 0 && w.fill == 0) {
        return 0;
    }
    let (open, shared) = combo_terms(bits, w.open_below);
    w.open * open as i64 + w.combo * shared as i64 + w.fill * bits.count_ones() as i64
}

/// The evaluation's terms for one board (counts, before weighting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Filled cells of the centre box.
    pub sq_center: u32,
    /// Filled cells of the side boxes.
    pub sq_side: u32,
    /// Filled cells of the corner boxes.
    pub sq_corner: u32,
    /// Occupied centre box (0 or 1).
    pub box_center: u32,
    /// Occupied side boxes.
    pub box_side: u32,
    /// Occupied corner boxes.
    pub box_corner: u32,
    /// Ends of empty runs, box boundaries excluded.
    pub ends: u32,
    /// Ends of empty runs on box boundaries.
    pub ends_aligned: u32,
    /// (Empty cell, corner) pairs blocked by filled cells on both sides of the corner.
    pub cornered: u32,
    /// Squashed empty cells per direction, off the edge.
    pub squashed: u32,
    /// Squashed empty cells per direction, on the edge.
    pub squashed_edge: u32,
    /// Empty cells no 3-cell line covers, per direction.
    pub bar3: u32,
    /// Catalogue pieces from `nofit_from` with no placement.
    pub nofit: u32,
    /// Diagonal 3-cell pieces with no placement.
    pub nofit_diag: u32,
    /// Scarcity of hard-piece placements on a crowded board.
    pub scarcity: u32,
}

impl Terms {
    /// Measures `board` (`nofit_from` as in `Weights`).
    pub fn of(board: Board, nofit_from: usize) -> Terms {
        let table = &nofit_tables()[nofit_from.min(47)];
        let b = board.bits();
        let e = !b & FULL;
        let s1 = stage1(b);
        let s2 = stage2(b, e);
        let (s3, diag_short) = stage3(e);
        let s4 = stage4(b, e, table, diag_short);
        Terms {
            sq_center: s1[0],
            sq_side: s1[1],
            sq_corner: s1[2],
            box_center: s1[3],
            box_side: s1[4],
            box_corner: s1[5],
            ends: s2[0],
            ends_aligned: s2[1],
            cornered: s2[2],
            squashed: s2[3],
            squashed_edge: s2[4],
            bar3: s3[0],
            nofit: s4[0],
            nofit_diag: s3[1],
            scarcity: s4[1],
        }
    }

    /// `(name, count)` for every term, in declaration order.
    pub fn named(&self) -> [(&'static str, u32); 15] {
        [
            ("sq_center", self.sq_center),
            ("sq_side", self.sq_side),
            ("sq_corner", self.sq_corner),
            ("box_center", self.box_center),
            ("box_side", self.box_side),
            ("box_corner", self.box_corner),
            ("ends", self.ends),
            ("ends_aligned", self.ends_aligned),
            ("cornered", self.cornered),
            ("squashed", self.squashed),
            ("squashed_edge", self.squashed_edge),
            ("bar3", self.bar3),
            ("nofit", self.nofit),
            ("nofit_diag", self.nofit_diag),
            ("scarcity", self.scarcity),
        ]
    }

    /// The weighted sum: higher is better.
    pub fn value(&self, w: &Weights) -> i64 {
        -w.per_term()
            .iter()
            .zip(self.named())
            .map(|(w, (_, n))| w * n as i64)
            .sum::<i64>()
    }
}

impl Weights {
    /// The term weights in `Terms::named` order.
    fn per_term(&self) -> [i64; 15] {
        let [a, b, c, d, e, f] = self.stage1();
        let [g, h, i, j, k] = self.stage2();
        [
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            i,
            j,
            k,
            self.bar3,
            self.nofit,
            self.nofit_diag,
            self.scarcity,
        ]
    }

    #[inline(always)]
    fn stage1(&self) -> [i64; 6] {
        [
            self.sq_center,
            self.sq_side,
            self.sq_corner,
            self.box_center,
            self.box_side,
            self.box_corner,
        ]
    }
    #[inline(always)]
    fn stage2(&self) -> [i64; 5] {
        [
            self.ends,
            self.ends_aligned,
            self.cornered,
            self.squashed,
            self.squashed_edge,
        ]
    }
}

#[inline(always)]
fn weigh<const N: usize>(w: [i64; N], counts: [u32; N]) -> i64 {
    let mut s = 0;
    for i in 0..N {
        s += w[i] * counts[i] as i64;
    }
    s
}

/// The default agent's evaluation of a board.
#[inline]
pub fn evaluate(board: Board, w: &Weights) -> i64 {
    evaluate_above(board, w, i64::MIN)
}

/// The evaluation of `board` when it is above `bound`; otherwise some value `<= bound`
/// (the stages left out can only lower it).
#[inline]
pub fn evaluate_above(board: Board, w: &Weights, bound: i64) -> i64 {
    let table = &nofit_tables()[w.nofit_from.min(47)];
    // Software popcount costs about a dozen instructions per word; the evaluation counts
    // a dozen masks, so use the popcnt instruction when the processor has one.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor supports popcnt (checked just above).
        return unsafe { eval_popcnt(board.bits(), w, table, bound) };
    }
    eval_bits(board.bits(), w, table, bound)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn eval_popcnt(b: u128, w: &Weights, table: &NofitTable, bound: i64) -> i64 {
    eval_bits(b, w, table, bound)
}

/// `evaluate_above` on the bits `b`; inlined into each caller so that the popcnt build
/// counts with the instruction.
#[inline(always)]
pub(crate) fn eval_bits(b: u128, w: &Weights, table: &NofitTable, bound: i64) -> i64 {
    let mut value = -weigh(w.stage1(), stage1(b));
    if value <= bound {
        return value;
    }
    let e = !b & FULL;
    value -= weigh(w.stage2(), stage2(b, e));
    if value <= bound {
        return value;
    }
    let (s3, diag_short) = stage3(e);
    value -= weigh([w.bar3, w.nofit_diag], s3);
    if value <= bound {
        return value;
    }
    value - weigh([w.nofit, w.scarcity], stage4(b, e, table, diag_short))
}

/// The nofit table for `w` (for callers that evaluate many boards with `eval_bits`).
pub(crate) fn table_for(w: &Weights) -> &'static NofitTable {
    &nofit_tables()[w.nofit_from.min(47)]
}

const COL0: u128 = column(0);
const COL8: u128 = column(8);
const ROW0: u128 = row(0);
const ROW8: u128 = row(8);
const SIDE_CORNERS: u128 = BOX_CORNERS & SIDE_BOXES;
const CORNER_CORNERS: u128 = BOX_CORNERS & CORNER_BOXES;
const CENTER_CORNER: u128 = BOX_CORNERS & CENTER_BOX;

/// Filled cells and occupied boxes by box kind: centre, sides, corners.
#[inline(always)]
fn stage1(b: u128) -> [u32; 6] {
    // Fold three rows, then three columns, into each box's top-left cell.
    let three_rows = b | b >> 9 | b >> 18;
    let occupied = three_rows | three_rows >> 1 | three_rows >> 2;
    [
        (b & CENTER_BOX).count_ones(),
        (b & SIDE_BOXES).count_ones(),
        (b & CORNER_BOXES).count_ones(),
        (occupied & CENTER_CORNER).count_ones(),
        (occupied & SIDE_CORNERS).count_ones(),
        (occupied & CORNER_CORNERS).count_ones(),
    ]
}

/// Run ends (plain, aligned), cornered, squashed (off edge, on edge).
#[inline(always)]
fn stage2(b: u128, e: u128) -> [u32; 5] {
    // Empty cells whose neighbour on that side is filled or the wall.
    let bl = e & (((b << 1) & !COL0) | COL0);
    let br = e & ((b >> 1) & !COL8 | COL8);
    let bu = e & (((b << 9) & FULL) | ROW0);
    let bd = e & ((b >> 9) | ROW8);
    let aligned = (bu & BELOW_BOUNDARY).count_ones()
        + (bd & ABOVE_BOUNDARY).count_ones()
        + (bl & RIGHT_OF_BOUNDARY).count_ones()
        + (br & LEFT_OF_BOUNDARY).count_ones();
    let ends = bu.count_ones() + bd.count_ones() + bl.count_ones() + br.count_ones();
    // Corners made by filled cells only: the wall does not corner.
    let cornered = (bu & bl & !(ROW0 | COL0)).count_ones()
        + (bu & br & !(ROW0 | COL8)).count_ones()
        + (bd & bl & !(ROW8 | COL0)).count_ones()
        + (bd & br & !(ROW8 | COL8)).count_ones();
    let (h, v) = (bl & br, bu & bd);
    [
        ends - aligned,
        aligned,
        cornered,
        (h & !EDGES).count_ones() + (v & !EDGES).count_ones(),
        (h & EDGES).count_ones() + (v & EDGES).count_ones(),
    ]
}

/// Cells no 3-line covers (per direction) and diagonal pieces that fit nowhere; also the
/// placements the two diagonals miss to 4, for `stage4`.
#[inline(always)]
fn stage3(e: u128) -> ([u32; 2], u32) {
    let h3 = e & (e >> 1) & (e >> 2) & H3_ANCHORS;
    let v3 = e & (e >> 9) & (e >> 18) & V3_ANCHORS;
    let bar3 = (e & !(h3 | h3 << 1 | h3 << 2)).count_ones()
        + (e & !(v3 | v3 << 9 | v3 << 18)).count_ones();
    let d1 = e & e >> 10 & e >> 20 & ANCHORS_3X3;
    let d2 = e >> 2 & e >> 10 & e >> 18 & ANCHORS_3X3;
    let short = |n: u32| 4u32.saturating_sub(n);
    (
        [bar3, (d1 == 0) as u32 + (d2 == 0) as u32],
        short(d1.count_ones()) + short(d2.count_ones()),
    )
}

/// `nofit` pieces that fit nowhere, and scarcity (`diag_short` from `stage3`).
#[inline(always)]
fn stage4(b: u128, e: u128, table: &NofitTable, diag_short: u32) -> [u32; 2] {
    let cells = b.count_ones();
    if cells > 20 {
        let (nofit, missing) = fit_counts(e, table);
        [nofit, (cells - 20) * (diag_short + missing)]
    } else {
        [nofit_count(e, table), 0]
    }
}

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
fn nofit_count(e: u128, table: &NofitTable) -> u32 {
    // Every small piece fits an empty 3x3 square.
    let h3 = e & (e >> 1) & (e >> 2) & H3_ANCHORS;
    let small_too = h3 & h3 >> 9 & h3 >> 18 == 0;
    let mut n = 0;
    for_each_fit(e, table, small_too, |fits| n += (fits == 0) as u32);
    n
}

/// (pieces of `table` that fit nowhere, placements they miss to 4 in all).
#[inline(always)]
fn fit_counts(e: u128, table: &NofitTable) -> (u32, u32) {
    let (mut none, mut missing) = (0, 0);
    for_each_fit(e, table, true, |fits| {
        let n = fits.count_ones();
        none += (n == 0) as u32;
        missing += 4u32.saturating_sub(n);
    });
    (none, missing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_rules::blockudoku::cell_bit;
    use puzzle_rules::blockudoku::REGIONS;

    /// The terms computed the plain way: cell by cell, piece by piece.
    fn reference_terms(board: Board, nofit_from: usize) -> Terms {
        let b = board.bits();
        let e = !b & FULL;
        let filled = |r: i32, c: i32| {
            !(0..9).contains(&r) || !(0..9).contains(&c) || b >> (r * 9 + c) & 1 == 1
        };
        let inside_filled =
            |r: i32, c: i32| (0..9).contains(&r) && (0..9).contains(&c) && filled(r, c);
        let mut t = Terms::default();
        for r in 0..9 {
            for c in 0..9 {
                let kind = match (r / 3, c / 3) {
                    (1, 1) => 0,
                    (1, _) | (_, 1) => 1,
                    _ => 2,
                };
                if filled(r, c) {
                    *[&mut t.sq_center, &mut t.sq_side, &mut t.sq_corner][kind] += 1;
                    continue;
                }
                let (l, rt, u, d) = (
                    filled(r, c - 1),
                    filled(r, c + 1),
                    filled(r - 1, c),
                    filled(r + 1, c),
                );
                // A run end whose blocker is a filled cell across a box boundary is aligned.
                for (blocked, nr, nc) in
                    [(l, r, c - 1), (rt, r, c + 1), (u, r - 1, c), (d, r + 1, c)]
                {
                    if blocked {
                        let across = inside_filled(nr, nc) && (nr / 3 != r / 3 || nc / 3 != c / 3);
                        if across {
                            t.ends_aligned += 1;
                        } else {
                            t.ends += 1;
                        }
                    }
                }
                for (a, b) in [
                    ((r, c - 1), (r - 1, c)),
                    ((r, c + 1), (r - 1, c)),
                    ((r, c - 1), (r + 1, c)),
                    ((r, c + 1), (r + 1, c)),
                ] {
                    t.cornered += (inside_filled(a.0, a.1) && inside_filled(b.0, b.1)) as u32;
                }
                let edge = r == 0 || r == 8 || c == 0 || c == 8;
                let squashed = (l && rt) as u32 + (u && d) as u32;
                if edge {
                    t.squashed_edge += squashed;
                } else {
                    t.squashed += squashed;
                }
                let h = (c - 2..=c)
                    .any(|c0| (c0..c0 + 3).all(|x| (0..9).contains(&x) && !filled(r, x)));
                let v = (r - 2..=r)
                    .any(|r0| (r0..r0 + 3).all(|y| (0..9).contains(&y) && !filled(y, c)));
                t.bar3 += !h as u32 + !v as u32;
            }
        }
        for k in 0..9 {
            if b & REGIONS[18 + k] != 0 {
                match k {
                    4 => t.box_center += 1,
                    1 | 3 | 5 | 7 => t.box_side += 1,
                    _ => t.box_corner += 1,
                }
            }
        }
        let fits = |i: usize| {
            catalogue()[i]
                .placements()
                .iter()
                .filter(|&&(_, m)| m & e == m)
                .count() as u32
        };
        t.nofit = (nofit_from..47).filter(|&i| fits(i) == 0).count() as u32;
        t.nofit_diag = [5, 6].iter().filter(|&&i| fits(i) == 0).count() as u32;
        let cells = b.count_ones();
        if cells > 20 {
            let missing: u32 = (nofit_from..47)
                .chain([5, 6])
                .map(|i| 4u32.saturating_sub(fits(i)))
                .sum();
            t.scarcity = (cells - 20) * missing;
        }
        t
    }

    #[test]
    fn terms_match_a_plain_count() {
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
            assert_eq!(fast, reference_terms(board, from), "{board} from {from}");
            let w = Weights {
                nofit_from: from,
                ..WEIGHTS
            };
            let value = fast.value(&w);
            assert_eq!(evaluate(board, &w), value);
            // Above a bound the value is exact; at or below it, only known to be so.
            for bound in [value - 1, value, value + 1, i64::MIN] {
                let v = evaluate_above(board, &w, bound);
                if value > bound {
                    assert_eq!(v, value);
                } else {
                    assert!(v <= bound);
                }
            }
        }
    }

    #[test]
    fn terms_on_known_boards() {
        assert_eq!(
            Terms::of(Board::EMPTY, 32),
            Terms {
                // Every row and column is one run: 18 runs, 2 ends each, all at the wall.
                ends: 36,
                ..Terms::default()
            }
        );
        // r1c2 and r2c1 filled: r1c1 is squashed on the edge both ways, cornered (down-right)
        // by the two, and no 3-line covers it either way; r2c2 is cornered (up-left).
        let b = Board::from_bits(cell_bit(0, 1) | cell_bit(1, 0));
        let t = Terms::of(b, 32);
        assert_eq!((t.squashed_edge, t.cornered, t.bar3), (2, 2, 2));
        assert_eq!((t.sq_corner, t.box_corner, t.box_side), (2, 1, 0));
        // r2c2 is cornered (up-left) by the two filled cells.
        let b = Board::from_bits(cell_bit(0, 1) | cell_bit(1, 0) | cell_bit(0, 0));
        assert_eq!(Terms::of(b, 32).cornered, 1);
    }

    #[test]
    fn set_checks_names_and_signs() {
        let mut w = WEIGHTS;
        w.set("cornered", 7).unwrap();
        assert_eq!(w.cornered, 7);
        assert!(w.set("cornered", -1).is_err());
        assert!(w.set("corners", 1).is_err());
        assert!(w.set("nofit_from", 48).is_err());
        w.set("no_fit", -5).unwrap();
        assert_eq!(w.no_fit, -5);
        assert!(w.set("steep", -1).is_err());
        assert!(w.set("steep_to", -1).is_err());
        w.set("rollouts", 16).unwrap();
        w.set("rollout_rounds", 5).unwrap();
        w.set("rollout_from", 0).unwrap();
        assert_eq!((w.rollouts, w.rollout_rounds, w.rollout_from), (16, 5, 0));
        assert!(w.set("rollouts", -1).is_err());
        assert!(w.set("rollout_rounds", 0).is_err());
        assert!(w.set("rollout_from", -1).is_err());
    }

    // The price of a death chance: `death` per unit, and `steep` more per unit up to the
    // bend, so the price is continuous, steep below the bend and as before above it.
    #[test]
    fn death_price_is_steep_below_its_bend() {
        let mut w = WEIGHTS;
        w.set("death", 1_000).unwrap();
        w.set("steep", 0).unwrap();
        assert_eq!(w.death_price(0.5), 500.0);
        w.set("steep", 9_000).unwrap();
        w.set("steep_to", 0).unwrap();
        assert_eq!(w.death_price(0.5), 500.0, "no bend: nothing steeper");
        w.set("steep_to", 100_000).unwrap();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert_eq!(w.death_price(0.0), 0.0);
        assert!(close(w.death_price(0.05), 500.0));
        assert!(close(w.death_price(0.1), 1_000.0));
        assert!(close(w.death_price(0.5), 1_400.0));
    }

    // On the game's own pieces `game_nofit` stands for both nofit prices; on another set,
    // or with `game_nofit` 0, the weights are as given.
    #[test]
    fn the_game_set_has_its_own_nofit_price() {
        let mut w = WEIGHTS;
        w.set("nofit", 7).unwrap();
        w.set("nofit_diag", 8).unwrap();
        w.set("game_nofit", 9).unwrap();
        let game = w.for_set(catalogue());
        assert_eq!((game.nofit, game.nofit_diag), (9, 9));
        assert_eq!(
            Weights {
                nofit: 7,
                nofit_diag: 8,
                inner_pair: w.inner_pair,
                deep_from: w.deep_from,
                ..game
            },
            w
        );
        assert_eq!(w.for_set(&catalogue()[13..]), w);
        w.set("game_nofit", 0).unwrap();
        w.set("game_inner_pair", 0).unwrap();
        w.set("game_deep_from", 0).unwrap();
        assert_eq!(w.for_set(catalogue()), w);
        assert!(w.set("game_nofit", -1).is_err());
    }

    // On the game's own pieces `game_inner_pair` stands for `inner_pair`; elsewhere, or
    // with it 0, `inner_pair` is as given.
    #[test]
    fn the_game_set_has_its_own_crisis_price() {
        let mut w = WEIGHTS;
        assert_eq!(w.inner_pair, 0);
        assert_eq!(w.for_set(catalogue()).inner_pair, WEIGHTS.game_inner_pair);
        w.set("inner_pair", 5).unwrap();
        w.set("game_inner_pair", 6).unwrap();
        assert_eq!(w.for_set(catalogue()).inner_pair, 6);
        assert_eq!(w.for_set(&catalogue()[13..]).inner_pair, 5);
        w.set("game_inner_pair", 0).unwrap();
        assert_eq!(w.for_set(catalogue()).inner_pair, 5);
        assert!(w.set("inner_pair", -1).is_err());
        assert!(w.set("game_inner_pair", -1).is_err());
    }

    // On the game's own pieces `game_deep_from` stands for `deep_from`; elsewhere, or with
    // it 0, `deep_from` is as given (off by default).
    #[test]
    fn the_game_set_has_its_own_deep_crisis() {
        let mut w = WEIGHTS;
        assert_eq!(w.deep_from, 0);
        assert_eq!(w.for_set(catalogue()).deep_from, WEIGHTS.game_deep_from);
        w.set("game_deep_from", 1000).unwrap();
        assert_eq!(w.for_set(catalogue()).deep_from, 1000);
        assert_eq!(w.for_set(&catalogue()[13..]).deep_from, 0);
        w.set("deep_from", 5).unwrap();
        w.set("game_deep_from", 6).unwrap();
        assert_eq!(w.for_set(catalogue()).deep_from, 6);
        assert_eq!(w.for_set(&catalogue()[13..]).deep_from, 5);
        w.set("game_deep_from", 0).unwrap();
        assert_eq!(w.for_set(catalogue()).deep_from, 5);
        assert!(w.set("game_deep_from", -1).is_err());
    }
}
