//! Whole-hand search: pure computation over the rules crate, told when to stop.
//!
//! A "move" here is the whole hand: every piece placed, in some order, clearing between
//! placements. The search never looks at a clock; the caller sets `stop` (a timer, a `stop`
//! command) and gives a node budget. Neither is honoured before one complete placement of the
//! hand has been found, so every search that can place the hand returns a legal answer.
//!
//! - [`beam`]: the beam search over every order of the hand, orders reaching the same board
//!   merged, keeping the best final boards.
//! - [`lookahead`]: the one-piece lookahead that re-ranks the kept final boards.
//! - [`strong`]: the strong agent's weighing of the kept boards by the next hand.
//! - [`points`]: what a line's points are worth when the objective counts them.
//!
//! Which of these runs, with which settings, is the agents' choice (`crate::agents`); the
//! search only does what its [`Job`] says.

use std::sync::atomic::{AtomicBool, AtomicU64};

use puzzle_rules::blockudoku::{catalogue, Board, Piece, Scoring};

use crate::eval::Weights;

pub mod beam;
pub mod lookahead;
pub mod points;
pub mod strong;
mod workers;

pub use lookahead::LookaheadParams;
pub use points::PointsParams;
pub use workers::Workers;

/// One placement of the chosen line: hand slot (0-based), anchor cell `row * 9 + col`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Hand slot, 0-based.
    pub slot: usize,
    /// Cell of the bounding box's top-left, `row * 9 + col`.
    pub anchor: u8,
}

/// The best line (all pieces, in play order) with its value, or `None` when the hand is
/// dead.
pub type BestLine = Option<(Vec<Step>, i64)>;

/// The pieces a search places: each with its hand slot (0-based). The protocol's hand
/// gives them by `Hand::live`, a deal of set indices by [`hand_of`].
pub type HandPieces<'a> = [(usize, &'a Piece)];

/// A deal: three indices into the piece set.
pub type Deal = [usize; 3];

/// How points are counted (with [`PointsParams`]): the scoring rule and the streak the
/// position starts with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The scoring rule.
    pub scoring: Scoring,
    /// Consecutive clearing placements up to the position (the next clear earns the bonus).
    pub streak: u32,
}

/// A final board the search keeps for the lookahead.
#[derive(Clone, Debug)]
pub struct FinalBoard {
    /// The search's value: the evaluation plus `bonus`.
    pub value: i64,
    /// The line (all pieces, in play order).
    pub line: Vec<Step>,
    /// The board after the line.
    pub board: Board,
    /// The weighed points of the line (0 when points are not counted).
    pub bonus: i64,
    /// The streak after the line.
    pub streak: u32,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The best line and its value.
    pub best: BestLine,
    /// Placements tried.
    pub nodes: u64,
    /// What the strong agent's hand lookahead did when it chose the answer (its value is then
    /// the lookahead's, not comparable with a plain search's); `None`: it did not.
    pub weighed: Option<strong::Weighed>,
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

    /// Whether the caller has asked the search to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Placements tried so far, over all workers.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Beam widths: how many placements of each piece are searched further after the first and
/// after the second placement (the last piece is always tried everywhere), then how many of
/// the best final boards are re-ranked by the one-piece lookahead (0 or 1: none).
pub type Beam = [usize; 3];

/// The default agent's beam for a `go` without limits (tuned by self-play for speed).
pub const DEFAULT_BEAM: Beam = [10, 6, 4];

/// The beam of objective points for a `go` without limits: with the default beam it scored
/// 44.45 points per round, with this one 45.60 and with no pruning 45.59 (EXPERIMENTS.md,
/// "Objective points").
pub const POINTS_BEAM: Beam = [30, 15, DEFAULT_BEAM[2]];

/// No pruning: every placement of every piece in every order.
pub const FULL_BEAM: Beam = [usize::MAX, usize::MAX, DEFAULT_BEAM[2]];

/// How the search values a final board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The shape evaluation, orders reaching the same board merged, the beam pruning the
    /// placements and the best final boards kept for the lookahead.
    Beam,
    /// The original agent of the blog post: depth-first over every placement, leaf value =
    /// mobility, stop at the first leaf above 1500.
    Mobility,
}

/// What a final board and a line are worth: the evaluation's weights, the lookahead's
/// settings and, when the objective counts points, their worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Valuation {
    /// The evaluation's weights.
    pub weights: Weights,
    /// The one-piece lookahead's settings.
    pub lookahead: LookaheadParams,
    /// Points counted (`None`: the objective is to survive).
    pub points: Option<PointsParams>,
}

/// One whole-hand search: the board, the hand, how boards are valued, and how (workers,
/// control, beam).
#[derive(Clone, Copy)]
pub struct Job<'a> {
    /// The board the hand is placed on.
    pub board: Board,
    /// The hand's pieces with their slots.
    pub hand: &'a HandPieces<'a>,
    /// Which search: the beam search or the original mobility search.
    pub method: Method,
    /// How final boards are valued.
    pub valuation: &'a Valuation,
    /// The worker threads.
    pub workers: &'a Workers,
    /// The stop flag, node limit and node counter.
    pub ctl: &'a Control<'a>,
    /// The beam's width where the method is a beam.
    pub beam: Beam,
    /// How points are counted (when `valuation.points` is set).
    pub tally: Tally,
}

/// A line with its value, and the kept final boards, best first.
pub type Collected = (BestLine, Vec<FinalBoard>);

impl<'a> Job<'a> {
    /// The beam search of `hand` on `board` valued by `valuation`: default beam, one thread, no
    /// streak.
    #[cfg(test)]
    pub fn new(
        board: Board,
        hand: &'a HandPieces<'a>,
        valuation: &'a Valuation,
        ctl: &'a Control<'a>,
    ) -> Job<'a> {
        Job {
            board,
            hand,
            method: Method::Beam,
            valuation,
            workers: &Workers::ONE,
            ctl,
            beam: DEFAULT_BEAM,
            tally: Tally::default(),
        }
    }

    /// The search and the one-piece lookahead over its kept final boards.
    pub fn run(self) -> Outcome {
        let (best, top) = self.collect();
        let best = lookahead::rerank(
            best,
            top,
            self.tally,
            self.valuation,
            self.ctl,
            self.beam[2],
        );
        Outcome {
            best,
            nodes: self.ctl.nodes(),
            weighed: None,
        }
    }
}

/// The hand (slot, piece) of the set indices `ids`, slots in order.
pub fn hand_of<'a>(set: &'a [Piece], ids: &[usize]) -> Vec<(usize, &'a Piece)> {
    ids.iter().enumerate().map(|(i, &p)| (i, &set[p])).collect()
}

/// The board after playing `line` on `board` with `hand` (slot, piece); the line must be
/// legal (a search's answer): panics otherwise.
pub fn final_board(board: Board, hand: &HandPieces, line: &[Step]) -> Board {
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::eval::{evaluate, WEIGHTS};
    use puzzle_rules::blockudoku::masks::cells;
    use puzzle_rules::blockudoku::{can_place_all, GameState};
    use std::sync::atomic::AtomicBool;

    /// The default agent's valuation: the evaluation's and the lookahead's defaults.
    pub(crate) const SURVIVE: Valuation = Valuation {
        weights: WEIGHTS,
        lookahead: lookahead::LOOKAHEAD,
        points: None,
    };

    /// Objective points' valuation.
    pub(crate) const POINTS: Valuation = Valuation {
        points: Some(points::POINTS),
        ..SURVIVE
    };

    /// The hand of catalogue ids `ids`, slots in order.
    pub(crate) fn hand(ids: &[usize]) -> Vec<(usize, &'static Piece)> {
        ids.iter()
            .enumerate()
            .map(|(i, &id)| (i, Piece::catalogue(id).unwrap()))
            .collect()
    }

    fn run(board: Board, ids: &[usize], threads: usize) -> Outcome {
        let stop = AtomicBool::new(false);
        let ctl = Control::new(&stop, u64::MAX);
        let h = hand(ids);
        let workers = Workers::new(threads);
        Job {
            workers: &workers,
            beam: FULL_BEAM,
            ..Job::new(board, &h, &SURVIVE, &ctl)
        }
        .run()
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
            let h = hand(&ids);
            for v in [SURVIVE, POINTS] {
                let stop = AtomicBool::new(false);
                let ctl = Control::new(&stop, u64::MAX);
                let job = Job {
                    beam: [1, 1, 0],
                    ..Job::new(board, &h, &v, &ctl)
                };
                assert_eq!(job.run().best.is_some(), placeable, "{ids:?} on {board:?}");
            }
        }
        assert!(live > 20, "only {live} live hands");
    }

    #[test]
    fn parallel_search_finds_the_same_value() {
        let board = Board::parse("###....../#######../.#......./........./....#..../........./..#....../........./.###.....").unwrap();
        let one = run(board, &[28, 14, 9], 1);
        let two = run(board, &[28, 14, 9], 2);
        assert_eq!(one.best.unwrap().1, two.best.unwrap().1);
    }

    #[test]
    fn node_limit_is_deterministic_and_stop_still_answers() {
        let stop = AtomicBool::new(true);
        let h = hand(&[33, 34, 35]);
        let run = || {
            let ctl = Control::new(&stop, 1000);
            Job::new(Board::EMPTY, &h, &SURVIVE, &ctl).run()
        };
        let (a, b) = (run(), run());
        assert!(a.best.is_some());
        assert_eq!(a.best.unwrap().0, b.best.unwrap().0);
        // The node limit bounds the search; the lookahead over the kept boards comes on top.
        let poll = beam::POLL;
        assert!(a.nodes < 1000 + poll + DEFAULT_BEAM[2] as u64 * mobility(Board::EMPTY) as u64);
    }

    /// The best value over every order and placement of `hand`, by the objective points'
    /// rules written out plainly: the game's own scoring, then shape plus weighed points
    /// plus the gated board bonus.
    fn brute_points(board: Board, hand: &HandPieces, v: &Valuation, streak: u32) -> i64 {
        fn go(state: GameState, hand: &HandPieces, used: u8, v: &Valuation) -> i64 {
            if used as usize == (1 << hand.len()) - 1 {
                let shape = evaluate(state.board, &v.weights);
                let p = v.points.unwrap();
                let mut bonus = p.per_point * state.score as i64;
                if shape >= p.open_gate {
                    bonus += p.board_bonus(state.board.bits());
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
                    best = best.max(go(next, hand, used | 1 << i, v));
                }
            }
            best
        }
        let state = GameState {
            board,
            score: 0,
            streak,
        };
        go(state, hand, 0, v)
    }

    // With points counted, merging orders only at equal points and streak loses nothing:
    // the full search (no lookahead) finds the brute force's best value.
    #[test]
    fn points_search_finds_the_best_line_of_every_order() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
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
                beam: [usize::MAX, usize::MAX, 1],
                tally,
                ..Job::new(board, &h, &POINTS, &ctl)
            };
            let (best, _) = job.collect();
            let want = brute_points(board, &h, &POINTS, streak);
            match best {
                None => assert_eq!(want, i64::MIN),
                Some((_, value)) => assert_eq!(value, want, "board {board:?} hand {ids:?}"),
            }
            let survive = Job {
                valuation: &SURVIVE,
                ..job
            };
            if let (Some(a), Some(b)) = (survive.collect().0, job.collect().0) {
                differed += (a.0 != b.0) as u32;
            }
        }
        // The objective changes some answers.
        assert!(differed > 0);
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
