//! The evaluation's weights: one penalty per unit of each term of [`super::Terms`].

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
    /// Per hard piece that fits nowhere: a 5-cell piece (terms `nofit`) or a 3-cell diagonal
    /// (term `nofit_diag`).
    pub nofit: i64,
    /// On boards with more than 20 filled cells: (filled - 20) times the placements the
    /// hard pieces miss to 4 each.
    pub scarcity: i64,
    /// The learned value's weight: evaluation units per unit of the learned value (the
    /// discounted chance of dead hands ahead, `super::learned`); 0: the classic evaluation.
    pub learned: i64,
}

/// The classic weights: blokie's published values for these terms (its `getDefault`, tuned
/// there by self-play with the same 47 pieces; it prices both kinds of hard piece alike),
/// without the learned value.
pub const CLASSIC: Weights = Weights {
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
    scarcity: 200,
    learned: 0,
};

/// The default weights: the classic terms plus the learned value (EXPERIMENTS.md, "A learned
/// value").
pub const WEIGHTS: Weights = Weights {
    learned: LEARNED,
    ..CLASSIC
};

/// The learned value's weight in the default evaluation.
pub const LEARNED: i64 = 4_000_000;

impl Weights {
    /// The term weights in `Terms::named` order (`nofit` prices both kinds of hard piece).
    pub(super) fn per_term(&self) -> [i64; 15] {
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
            self.nofit,
            self.scarcity,
        ]
    }

    #[inline(always)]
    pub(super) fn stage1(&self) -> [i64; 6] {
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
    pub(super) fn stage2(&self) -> [i64; 5] {
        [
            self.ends,
            self.ends_aligned,
            self.cornered,
            self.squashed,
            self.squashed_edge,
        ]
    }
}
