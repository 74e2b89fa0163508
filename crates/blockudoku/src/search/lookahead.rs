//! The one-piece lookahead: final boards re-ranked by what the next piece is likely to
//! meet on them, where the evaluation only sees the board as it stands.

use std::sync::atomic::Ordering;

use puzzle_rules::blockudoku::masks::cells;
use puzzle_rules::blockudoku::{catalogue, Board};

use super::{BestLine, Control, FinalBoard, Tally, Valuation};
use crate::eval::{eval_bits, nofit_table, NofitTable};

/// The lookahead's settings: carried over from this engine's first evaluation at the same
/// quantiles of self-play boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LookaheadParams {
    /// The lookahead's value for a piece that fits nowhere on the board.
    pub nofit_value: i64,
    /// Static evaluation under which the best final board counts as crowded: the search
    /// then re-ranks more final boards by the lookahead.
    pub crowded_below: i64,
}

/// The default lookahead settings.
pub const LOOKAHEAD: LookaheadParams = LookaheadParams {
    nofit_value: -1_330_000,
    crowded_below: -390_000,
};

/// Whether the best of the kept final boards `top` (best first) is crowded: its evaluation,
/// without the line's points, is below `crowded_below`. Games are lost on crowded boards.
pub fn is_crowded(top: &[FinalBoard], settings: &LookaheadParams) -> bool {
    top.first()
        .is_some_and(|t| t.value - t.bonus < settings.crowded_below)
}

/// Final boards re-ranked by the lookahead when the best of them is crowded
/// (the lookahead width asked for, when wider, wins).
pub const WIDE_LOOKAHEAD: usize = 16;

/// The one-piece lookahead: the mean over the 47 catalogue pieces of the best evaluation
/// after placing that piece (`nofit_value` when it fits nowhere). It is what the next hand is
/// likely to meet, where `evaluate` only sees the board as it stands. When `v` counts points,
/// each placement's points (by `tally`, from its streak) count too: a board that sets up a
/// combo for many pieces rises.
pub fn lookahead(board: Board, v: &Valuation, tally: Tally) -> (i64, u64) {
    let table = nofit_table();
    // Thousands of evaluations per call: compile the whole loop for popcnt, not each call.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor supports popcnt (checked just above).
        return unsafe { lookahead_popcnt(board, v, table, tally) };
    }
    lookahead_with(board, v, table, tally)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn lookahead_popcnt(
    board: Board,
    v: &Valuation,
    table: &NofitTable,
    tally: Tally,
) -> (i64, u64) {
    lookahead_with(board, v, table, tally)
}

#[inline(always)]
fn lookahead_with(board: Board, v: &Valuation, table: &NofitTable, tally: Tally) -> (i64, u64) {
    let mut total = 0;
    let mut nodes = 0;
    for piece in catalogue() {
        let mut best = v.lookahead.nofit_value;
        let fits = piece.fit_anchors(board);
        for a in cells(fits) {
            if let Some(mask) = piece.mask_at(a / 9, a % 9) {
                nodes += 1;
                let (after, cleared) = board.place_mask(mask);
                let bonus = if let Some(points) = &v.points {
                    let left = (mask & !cleared.cells).count_ones();
                    let p =
                        (tally.scoring).points(piece.size(), left, cleared.regions, tally.streak);
                    points.per_point * p as i64
                } else {
                    0
                };
                best = best.max(eval_bits(after.bits(), &v.weights, table, best - bonus) + bonus);
            }
        }
        total += best;
    }
    (total / catalogue().len() as i64, nodes)
}

/// Picks among the best final boards by the one-piece lookahead (value reported: the
/// lookahead's). Keeps `best` when there is nothing to choose between.
pub fn rerank(
    best: BestLine,
    top: Vec<FinalBoard>,
    tally: Tally,
    valuation: &Valuation,
    ctl: &Control,
    width: usize,
) -> BestLine {
    match rerank_pick(&top, tally, valuation, ctl, width) {
        Some((i, value)) => top.into_iter().nth(i).map(|t| (t.line, value)),
        None => best,
    }
}

/// The index in `top` of the board the lookahead prefers, with its lookahead value (plus the
/// line's weighed points); `None` when there is nothing to choose between or the search was
/// stopped before any lookahead.
pub fn rerank_pick(
    top: &[FinalBoard],
    tally: Tally,
    valuation: &Valuation,
    ctl: &Control,
    width: usize,
) -> Option<(usize, i64)> {
    if top.len() < 2 || width < 2 {
        return None;
    }
    // Crowded boards (where games are lost) get the wider lookahead; their pieces have few
    // placements, so it costs little.
    let n = if is_crowded(top, &valuation.lookahead) {
        WIDE_LOOKAHEAD.max(width)
    } else {
        width
    };
    let mut chosen: Option<(usize, i64)> = None;
    for (i, kept) in top.iter().enumerate().take(n) {
        // A stopped search must answer now: keep what the lookahead has ranked so far.
        if ctl.stopped() {
            return chosen;
        }
        let tally = Tally {
            streak: kept.streak,
            ..tally
        };
        let (value, nodes) = lookahead(kept.board, valuation, tally);
        let value = value + kept.bonus;
        ctl.nodes.fetch_add(nodes, Ordering::Relaxed);
        if chosen.is_none_or(|c| value > c.1) {
            chosen = Some((i, value));
        }
    }
    chosen
}
