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
    column, row, ABOVE_BOUNDARY, ANCHORS_3X3, BOX_CORNERS, CENTER_BOX, CORNER_BOXES, EDGES,
    LEFT_OF_BOUNDARY, SIDE_BOXES,
};
use puzzle_rules::blockudoku::{Board, FULL};

pub mod learned;
mod nofit;
mod weights;

use nofit::{fit_counts, nofit_count, shapes, Shapes};
pub(crate) use nofit::{nofit_table, NofitTable};
pub use weights::{Weights, CLASSIC, LEARNED, WEIGHTS};

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
    /// 5-cell pieces (catalogue ids 33 to 47) with no placement.
    pub nofit: u32,
    /// Diagonal 3-cell pieces with no placement.
    pub nofit_diag: u32,
    /// Scarcity of hard-piece placements on a crowded board.
    pub scarcity: u32,
}

impl Terms {
    /// Measures `board`.
    pub fn of(board: Board) -> Terms {
        let table = nofit_table();
        let b = board.bits();
        let e = !b & FULL;
        let s1 = stage1(b);
        let s2 = stage2(b, e);
        let (s3, diag_short, shapes) = stage3(e);
        let s4 = stage4(b, shapes, table, diag_short);
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

    /// The weighted sum of the classic terms (the learned value not included): higher is
    /// better.
    pub fn value(&self, w: &Weights) -> i64 {
        -w.per_term()
            .iter()
            .zip(self.named())
            .map(|(w, (_, n))| w * n as i64)
            .sum::<i64>()
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

/// The learned value's part of the evaluation of `board` with weights `w` (0 when its weight
/// is 0): the value (at most 0) times its weight, rounded.
pub fn learned_part(board: Board, w: &Weights) -> i64 {
    if w.learned == 0 {
        return 0;
    }
    learned_bits(board.bits(), w)
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
    let table = nofit_table();
    // Software popcount costs about a dozen instructions per word; the evaluation counts
    // a dozen masks, so use the popcnt instruction when the processor has one.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor supports popcnt (checked just above).
        return unsafe { eval_popcnt(board.bits(), w, table, bound) };
    }
    eval_portable(board.bits(), w, table, bound)
}

// Kept out of line so that `evaluate_above` stays small enough to inline into the search:
// inlined, this copy made every call set up a large stack frame it never used.
#[inline(never)]
fn eval_portable(b: u128, w: &Weights, table: &NofitTable, bound: i64) -> i64 {
    eval_bits(b, w, table, bound)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn eval_popcnt(b: u128, w: &Weights, table: &NofitTable, bound: i64) -> i64 {
    eval_bits(b, w, table, bound)
}

/// `evaluate_above` on the bits `b`; inlined into each caller so that the popcnt build
/// counts with the instruction. The learned value only lowers the evaluation (its target is
/// never above 0, and what the network says above 0 is dropped), so a board the classic terms
/// already sink to the bound is not looked up.
#[inline(always)]
pub(crate) fn eval_bits(b: u128, w: &Weights, table: &NofitTable, bound: i64) -> i64 {
    let classic = classic_bits(b, w, table, bound);
    if w.learned == 0 || classic <= bound {
        return classic;
    }
    classic + learned_bits(b, w)
}

/// The learned value's part on the bits `b`: at most 0.
#[inline(always)]
fn learned_bits(b: u128, w: &Weights) -> i64 {
    let v = learned::shipped().value(b).min(0.0);
    (v * w.learned as f32).round() as i64
}

/// The classic terms' part of `eval_bits`.
#[inline(always)]
fn classic_bits(b: u128, w: &Weights, table: &NofitTable, bound: i64) -> i64 {
    let mut value = -weigh(w.stage1(), stage1(b));
    if value <= bound {
        return value;
    }
    let e = !b & FULL;
    value -= weigh(w.stage2(), stage2(b, e));
    if value <= bound {
        return value;
    }
    let (s3, diag_short, shapes) = stage3(e);
    value -= weigh([w.bar3, w.nofit], s3);
    if value <= bound {
        return value;
    }
    value - weigh([w.nofit, w.scarcity], stage4(b, shapes, table, diag_short))
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
    // Fold three rows, then three columns, into each box's top-left cell. The box corners
    // all lie in the low 64 bits: rows 0-5 fold there directly, rows 6-8 after a shift.
    let fold = |x: u64| {
        let three_rows = x | x >> 9 | x >> 18;
        three_rows | three_rows >> 1 | three_rows >> 2
    };
    const LOW_BANDS: u64 = (1 << 54) - 1;
    let occupied = fold(b as u64 & LOW_BANDS) | fold((b >> 54) as u64) << 54;
    [
        (b & CENTER_BOX).count_ones(),
        (b & SIDE_BOXES).count_ones(),
        (b & CORNER_BOXES).count_ones(),
        (occupied & CENTER_CORNER as u64).count_ones(),
        (occupied & SIDE_CORNERS as u64).count_ones(),
        (occupied & CORNER_CORNERS as u64).count_ones(),
    ]
}

/// Run ends (plain, aligned), cornered, squashed (off edge, on edge).
#[inline(always)]
fn stage2(b: u128, e: u128) -> [u32; 5] {
    // Filled neighbours inside the board, to the left, right, above and below each cell.
    let fl = (b << 1) & !COL0;
    let fr = (b >> 1) & !COL8;
    let fu = b << 9;
    let fd = b >> 9;
    // Empty cells whose neighbour on that side is filled or the wall: run ends.
    let bl = e & (fl | COL0);
    let br = e & (fr | COL8);
    let bu = e & (fu | ROW0);
    let bd = e & (fd | ROW8);
    // Every run of empty cells has one left (top) end and one right (bottom) end.
    let ends = 2 * (bl.count_ones() + bu.count_ones());
    // A box boundary holds an end exactly where one of the two cells across it is filled.
    let aligned = ((b ^ b >> 9) & ABOVE_BOUNDARY).count_ones()
        + ((b ^ b >> 1) & LEFT_OF_BOUNDARY).count_ones();
    // Corners made by filled cells only: the wall does not corner.
    let (up, down) = (e & fu, e & fd);
    let cornered = (up & fl).count_ones()
        + (up & fr).count_ones()
        + (down & fl).count_ones()
        + (down & fr).count_ones();
    let (h, v) = (bl & br, bu & bd);
    let squashed_edge = (h & EDGES).count_ones() + (v & EDGES).count_ones();
    [
        ends - aligned,
        aligned,
        cornered,
        h.count_ones() + v.count_ones() - squashed_edge,
        squashed_edge,
    ]
}

/// Cells no 3-line covers (per direction) and diagonal pieces that fit nowhere; also the
/// placements the two diagonals miss to 4, and the shapes `stage4` tests the hard pieces
/// with.
#[inline(always)]
fn stage3(e: u128) -> ([u32; 2], u32, Shapes) {
    let s = shapes(e);
    let (h3, v3) = (s.h3, s.v3);
    let bar3 = (e & !(h3 | h3 << 1 | h3 << 2)).count_ones()
        + (e & !(v3 | v3 << 9 | v3 << 18)).count_ones();
    let d1 = e & e >> 10 & e >> 20 & ANCHORS_3X3;
    let d2 = e >> 2 & e >> 10 & e >> 18 & ANCHORS_3X3;
    let short = |n: u32| 4u32.saturating_sub(n);
    (
        [bar3, (d1 == 0) as u32 + (d2 == 0) as u32],
        short(d1.count_ones()) + short(d2.count_ones()),
        s,
    )
}

/// `nofit` pieces that fit nowhere, and scarcity (`diag_short` and the shapes from `stage3`).
#[inline(always)]
fn stage4(b: u128, s: Shapes, table: &NofitTable, diag_short: u32) -> [u32; 2] {
    let cells = b.count_ones();
    if cells > 20 {
        let (nofit, missing) = fit_counts(s, table);
        [nofit, (cells - 20) * (diag_short + missing)]
    } else {
        [nofit_count(s, table), 0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nofit::BIG_PIECES_FROM;
    use puzzle_rules::blockudoku::REGIONS;
    use puzzle_rules::blockudoku::{catalogue, cell_bit};

    /// The terms computed the plain way: cell by cell, piece by piece.
    fn reference_terms(board: Board) -> Terms {
        let nofit_from = BIG_PIECES_FROM;
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
        t.nofit = (nofit_from..catalogue().len())
            .filter(|&i| fits(i) == 0)
            .count() as u32;
        t.nofit_diag = [5, 6].iter().filter(|&&i| fits(i) == 0).count() as u32;
        let cells = b.count_ones();
        if cells > 20 {
            let missing: u32 = (nofit_from..catalogue().len())
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
            let fast = Terms::of(board);
            assert_eq!(fast, reference_terms(board), "{board}");
            let w = CLASSIC;
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

    // With the learned value weighed in, the evaluation is the classic one plus the learned
    // value times its weight, and a bound still only ever lowers what is returned.
    #[test]
    fn learned_value_adds_to_the_classic_terms() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(12);
        let net = learned::shipped();
        for w in [
            WEIGHTS,
            Weights {
                learned: 1,
                ..CLASSIC
            },
        ] {
            for n in 0..1000 {
                let density = [0.2, 0.4, 0.6][n % 3];
                let board = Board::from_fn(|_| rng.gen_bool(density));
                let v = net.value(board.bits()).min(0.0);
                let extra = (v * w.learned as f32).round() as i64;
                let value = evaluate(board, &CLASSIC) + extra;
                assert_eq!(evaluate(board, &w), value);
                for bound in [value - 1, value, value + 1, value - 50_000, value + 50_000] {
                    let v = evaluate_above(board, &w, bound);
                    if value > bound {
                        assert_eq!(v, value);
                    } else {
                        assert!(v <= bound);
                    }
                }
            }
        }
    }

    #[test]
    fn terms_on_known_boards() {
        assert_eq!(
            Terms::of(Board::EMPTY),
            Terms {
                // Every row and column is one run: 18 runs, 2 ends each, all at the wall.
                ends: 36,
                ..Terms::default()
            }
        );
        // r1c2 and r2c1 filled: r1c1 is squashed on the edge both ways, cornered (down-right)
        // by the two, and no 3-line covers it either way; r2c2 is cornered (up-left).
        let b = Board::from_bits(cell_bit(0, 1) | cell_bit(1, 0));
        let t = Terms::of(b);
        assert_eq!((t.squashed_edge, t.cornered, t.bar3), (2, 2, 2));
        assert_eq!((t.sq_corner, t.box_corner, t.box_side), (2, 1, 0));
        // r2c2 is cornered (up-left) by the two filled cells.
        let b = Board::from_bits(cell_bit(0, 1) | cell_bit(1, 0) | cell_bit(0, 0));
        assert_eq!(Terms::of(b).cornered, 1);
    }
}
