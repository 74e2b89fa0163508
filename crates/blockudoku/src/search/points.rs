//! Objective points: what a line's points and a board's promise of more are worth against
//! the board's shape.

use puzzle_rules::blockudoku::masks::REGIONS;
use puzzle_rules::blockudoku::FULL;

/// The worth of points (objective `points`): the line's points, and on boards whose shape is
/// not very crowded a bonus per filled cell and per nearly full region, which makes several
/// regions clear at once more often. Chosen by self-play on chains against their hazard
/// probe (EXPERIMENTS.md, "Objective points").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointsParams {
    /// Per point the line scores (evaluation units).
    pub per_point: i64,
    /// A bonus per nearly full region (one with 1 to 3 empty cells).
    pub open: i64,
    /// A bonus per filled cell (a fuller board clears more at once).
    pub fill: i64,
    /// The board bonuses count only on boards whose evaluation is at least this.
    pub open_gate: i64,
}

/// The default worth of points.
pub const POINTS: PointsParams = PointsParams {
    per_point: 1000,
    open: 8000,
    fill: 2500,
    open_gate: -435_000,
};

/// Regions with fewer empty cells than this (and at least one) are nearly full.
pub const NEARLY_FULL_BELOW: u32 = 4;

/// Regions of the board `bits` with between 1 and `NEARLY_FULL_BELOW - 1` empty cells.
pub fn nearly_full(bits: u128) -> u32 {
    let empty = !bits & FULL;
    REGIONS
        .iter()
        .filter(|&&r| (1..NEARLY_FULL_BELOW).contains(&(empty & r).count_ones()))
        .count() as u32
}

impl PointsParams {
    /// The bonus of the board `bits`: nearly full regions and filled cells (before the gate).
    #[inline]
    pub fn board_bonus(&self, bits: u128) -> i64 {
        if self.open == 0 && self.fill == 0 {
            return 0;
        }
        self.open * nearly_full(bits) as i64 + self.fill * bits.count_ones() as i64
    }
}
