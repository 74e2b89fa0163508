//! The strong agent's weighing: look at the next hand before choosing.
//!
//! The default agent's search keeps its best final boards and picks one by its one-piece
//! lookahead. The strong agent first asks whether the next hand (three pieces of the dealt
//! set, uniformly with replacement) could die on that board: the chance is exact and cheap
//! ([`Dealer::dead_chance`]). Where it is zero and the board is not crowded (most rounds)
//! the default agent's move stands (its search runs without pruning on crowded hands,
//! `crowded_unpruned`: [`strong_base`]). Elsewhere (`weigh_crowded`: crowded boards too,
//! best final evaluation below `crowded_below`), the boards the default agent likes best
//! (`candidates`, 4) are weighed by a hand lookahead: `(1 - d) * A - price(d)`
//! ([`NextHand::death_cost`]: `death_price` per unit of `d`, and `low_risk_price` more per
//! unit up to `low_risk_to`), with `d` the exact chance of a dead next hand and `A` the mean,
//! over sampled next hands that can be placed (`next_hands`, 64; the same hands for every
//! candidate, drawn from a seed of the position so the answer is reproducible), of the
//! evaluation of the best final board a narrow default search (`next_hand_beam`, 3) reaches
//! with that hand.
//!
//! Minimising `d` alone was tried first and died three to four times as often as the default
//! agent on the hard piece set: it keeps today's board safe at the price of tomorrow's shape.
//! The evaluation of the next hand's best board keeps both in view. On that set most of the
//! hazard comes from a few boards in deep trouble (`d` of 0.1 and more), so the noise of the
//! sampled mean matters more than the width of the inner search: many hands, narrow search.
//! Weighing crowded boards as well, before the default's board can die, gave the largest
//! gain of the settings tried (EXPERIMENTS.md, "The strong agent on the hard set").
//!
//! With a price of entering a crisis (`crisis_entry`) the hand lookahead also prices the
//! crisis a next hand would leave: each of the inner search's best boards on which some two
//! pieces cannot both be placed ([`Dealer::has_dead_pair`], nearly every board a next hand
//! dies on with chance 0.001 or more) costs that much, and the best of them counts. A crisis
//! there costs the risk of the many rounds it lasts, not one hand's; inside one (the board
//! the hand was dealt on has a dead pair) every line is in it already, and the price is not
//! paid.
//!
//! Pure computation, told when to stop: a stopped search answers with the boards weighed so
//! far (the default agent's choice when none).

use puzzle_rules::blockudoku::{Board, Dealer};
use puzzle_rules::rng::SplitMix64;

use super::beam::unpruned;
use super::lookahead::{is_crowded, lookahead, rerank_pick, WIDE_LOOKAHEAD};
use super::{hand_of, BestLine, Collected, Control, Deal, FinalBoard, Job, Method, Tally, Workers};

/// The strong agent's parameters: its base search, and the next-hand lookahead that weighs
/// the boards it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextHand {
    /// The value of a next hand that cannot be placed, as a penalty: the price of a death
    /// chance of 1.
    pub death_price: i64,
    /// A steeper price of small death chances: each unit of next-hand death chance up to
    /// `low_risk_to` millionths costs this much more than `death_price` (a crisis avoided
    /// where one can be; where every board is risky, `death_price` alone tells them apart).
    pub low_risk_price: i64,
    /// Millionths of death chance up to which `low_risk_price` is paid.
    pub low_risk_to: i64,
    /// Boards weighed by the hand lookahead.
    pub candidates: usize,
    /// Next hands sampled per weighing (without a clock).
    pub next_hands: usize,
    /// The beam of the hand lookahead's searches: this many placements after the first
    /// piece, half as many (rounded up) after the second; no one-piece lookahead.
    pub next_hand_beam: usize,
    /// Crowded boards (evaluation below `crowded_below`) are weighed even where the default
    /// choice cannot die on the next hand.
    pub weigh_crowded: bool,
    /// A crowded hand (best final evaluation below `crowded_below` with the beam asked for)
    /// is searched again without pruning.
    pub crowded_unpruned: bool,
    /// The price of a hard piece that fits nowhere, in every search the strong agent runs on
    /// a piece set where crises are rare (the agents' rule `crises_are_rare`): there a board
    /// where a big piece fits nowhere is what the rare crises start from; on harder sets such
    /// boards are everyday ones and the dearer price costs (EXPERIMENTS.md, "Twice the price
    /// of a piece that fits nowhere").
    pub strong_nofit: i64,
    /// The hand lookahead's price of an inner board on which some two pieces cannot both be
    /// placed (a crisis the next hand would leave), where crises are rare; 0: none
    /// (EXPERIMENTS.md, "The price of a crisis the next hand leaves").
    pub crisis_entry: i64,
}

/// The strong agent's default parameters.
pub const NEXT_HAND: NextHand = NextHand {
    death_price: 4_000_000,
    low_risk_price: 36_000_000,
    low_risk_to: 1000,
    candidates: 4,
    next_hands: 64,
    next_hand_beam: 3,
    weigh_crowded: true,
    crowded_unpruned: true,
    strong_nofit: 36_000,
    crisis_entry: 500_000,
};

impl NextHand {
    /// The price of a next-hand death chance `d`, in evaluation units: `death_price * d`,
    /// plus `low_risk_price` per unit of `d` up to `low_risk_to` millionths.
    pub fn death_cost(&self, d: f64) -> f64 {
        let bend = self.low_risk_to as f64 * 1e-6;
        self.death_price as f64 * d + self.low_risk_price as f64 * d.min(bend)
    }
}

/// Final boards the strong agent's base search keeps for the weighing.
pub const STRONG_POOL: usize = 16;

/// Boards weighed by the first stage of a search with a clock: the stages after it double the
/// boards (up to [`MAX_CANDIDATES`]) and the sampled next hands in turn, so that each costs
/// about twice the one before.
pub const TIMED_CANDIDATES: usize = 4;

/// Next hands sampled by the first stage of a search with a clock.
pub const TIMED_HANDS: usize = 16;

/// Most boards weighed by a stage.
pub const MAX_CANDIDATES: usize = 256;

/// Most stages of a search with a clock (the last samples `TIMED_HANDS << 19` hands, far more
/// than any clock allows).
pub const MAX_STAGES: u32 = 40;

/// The boards weighed and the next hands sampled by stage `stage` of a search with a clock.
pub fn stage_size(stage: u32) -> (usize, usize) {
    let candidates = (TIMED_CANDIDATES << stage.div_ceil(2).min(16)).min(MAX_CANDIDATES);
    // Twice the work of the stage before: boards times hands.
    let work = (TIMED_CANDIDATES * TIMED_HANDS) << stage;
    (candidates, work / candidates)
}

/// Inner boards the hand lookahead prices with `crisis_entry`.
const INNER_KEEP: usize = 4;

/// How the strong agent weighs one hand: its search (the job's valuation, beam and tally),
/// the dealer of the next hands, its parameters, and whether every hand is weighed.
#[derive(Clone, Copy)]
pub struct Weighing<'a> {
    /// The strong agent's search.
    pub job: Job<'a>,
    /// The next hands' dealer.
    pub dealer: &'a Dealer<'a>,
    /// The parameters.
    pub next: &'a NextHand,
    /// Weigh every hand, even where the default agent's board is safe and not crowded (a
    /// search with a clock).
    pub every: bool,
}

/// What the strong agent's weighing did: the stages it completed, and the boards weighed and
/// next hands sampled by the last of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Weighed {
    /// Stages completed (1 without a clock).
    pub stages: u32,
    /// Boards weighed by the last stage.
    pub candidates: usize,
    /// Next hands sampled by the last stage.
    pub hands: usize,
}

/// The strong agent's base search: the default search of the job's beam, keeping at least
/// [`STRONG_POOL`] final boards. Crowded hands are where games are lost, and their pieces have
/// few placements: with `crowded_unpruned`, a hand whose best final board is crowded is
/// searched again without pruning (unless stopped midway).
pub fn strong_base(job: Job, crowded_unpruned: bool) -> Collected {
    let wide = [job.beam[0], job.beam[1], job.beam[2].max(STRONG_POOL)];
    let default = Job {
        method: Method::Beam,
        beam: wide,
        ..job
    };
    let found = default.collect();
    let full = unpruned(wide);
    let crowded = is_crowded(&found.1, &job.valuation.lookahead);
    if !crowded_unpruned || !crowded || wide == full || job.ctl.stopped() {
        return found;
    }
    let again = Job {
        beam: full,
        ..default
    }
    .collect();
    if job.ctl.stopped() {
        found
    } else {
        again
    }
}

/// The value of a final board `b` of evaluation `eval` to the hand lookahead: less `entry`
/// where some two pieces cannot both be placed on it.
fn inner_value(eval: i64, b: Board, dealer: &Dealer, entry: i64) -> i64 {
    if entry != 0 && dealer.has_dead_pair(b) {
        eval - entry
    } else {
        eval
    }
}

/// The sum over `hands` (that can be placed) of the value of the best final board the
/// default search (`job`'s valuation) finds on `board` (see [`inner_value`]), with how many
/// hands could be placed; `None` when stopped.
fn hand_lookahead(
    board: Board,
    tally: Tally,
    hands: &[Deal],
    w: &Weighing,
    entry: i64,
) -> Option<(i64, usize)> {
    let (set, ctl) = (w.dealer.set(), w.job.ctl);
    let (mut sum, mut alive) = (0i64, 0usize);
    let width = w.next.next_hand_beam;
    let beam = [width, width.div_ceil(2), INNER_KEEP * (entry != 0) as usize];
    for h in hands {
        if ctl.stopped() {
            return None;
        }
        let hand = hand_of(set, h);
        let inner = Control::new(ctl.stop, u64::MAX);
        let job = Job {
            board,
            hand: &hand,
            method: Method::Beam,
            valuation: w.job.valuation,
            workers: &Workers::ONE,
            ctl: &inner,
            beam,
            tally,
        };
        let (best, top) = job.collect();
        let Some((_, v)) = best else { continue };
        let value = if top.len() < 2 {
            v
        } else {
            top.iter()
                .take(INNER_KEEP)
                .map(|t| inner_value(t.value - t.bonus, t.board, w.dealer, entry) + t.bonus)
                .max()
                .unwrap_or(v)
        };
        sum += value;
        alive += 1;
    }
    // A search stopped mid-hand may have answered a worse line: drop the batch.
    (!ctl.stopped()).then_some((sum, alive))
}

/// Runs `job` on each of `items`, on `pool` when there is one.
fn each<T: Sync, R: Send>(
    items: &[T],
    pool: Option<&rayon::ThreadPool>,
    job: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    match pool {
        Some(pool) if items.len() > 1 => {
            use rayon::prelude::*;
            pool.install(|| items.par_iter().map(&job).collect())
        }
        _ => items.iter().map(job).collect(),
    }
}

/// Kept board `i` of `top` with the tally its line leaves.
fn board_and_tally(top: &[FinalBoard], i: usize, tally: Tally) -> (Board, Tally) {
    let tally = Tally {
        streak: top[i].streak,
        ..tally
    };
    (top[i].board, tally)
}

/// The candidates: the boards the default agent looked at, best by its lookahead first,
/// `(lookahead value, index in top)`, cut to `candidates` (stopped: those ranked so far).
fn rank_candidates(top: &[FinalBoard], crowded: bool, w: &Weighing) -> Vec<(i64, usize)> {
    let (job, width) = (w.job, w.job.beam[2]);
    let looked = if crowded {
        WIDE_LOOKAHEAD.max(width)
    } else {
        width
    }
    .max(w.next.candidates)
    .min(top.len());
    let mut ranked: Vec<(i64, usize)> = Vec::with_capacity(looked);
    for (i, t) in top.iter().enumerate().take(looked) {
        if job.ctl.stopped() {
            break;
        }
        let tally = Tally {
            streak: t.streak,
            ..job.tally
        };
        ranked.push((lookahead(t.board, job.valuation, tally).0 + t.bonus, i));
    }
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.truncate(w.next.candidates);
    ranked
}

/// The sums of the hand lookahead over the sampled next hands, per board, with the hands
/// that could be placed; `None` when stopped.
fn sample_totals(
    boards: &[(Board, Tally)],
    seed_board: Board,
    entry: i64,
    w: &Weighing,
    pool: Option<&rayon::ThreadPool>,
) -> Option<Vec<(i64, usize)>> {
    let bits = seed_board.bits();
    let mut rng = SplitMix64(bits as u64 ^ (bits >> 64) as u64 ^ 0x5eed);
    let hands: Vec<Deal> = (0..w.next.next_hands)
        .map(|_| w.dealer.deal(&mut rng))
        .collect();
    let sums = each(boards, pool, |b| hand_lookahead(b.0, b.1, &hands, w, entry));
    sums.into_iter().collect::<Option<Vec<_>>>()
}

/// Chooses among the kept final boards `top` (best first) of the weighing's search, whose
/// best line is `best` (the job's beam gives the default agent's lookahead width). True with
/// the answer when the hand lookahead weighed it. A kept line's weighed points (objective
/// points) add to its value; the hand lookahead counts the next hand's points from the
/// streak the line leaves.
pub fn choose(best: BestLine, top: Vec<FinalBoard>, w: &Weighing) -> (BestLine, bool) {
    let (job, next, dealer) = (w.job, w.next, w.dealer);
    let ctl = job.ctl;
    if top.len() < 2 {
        return (best, false);
    }
    let pick = rerank_pick(&top, job.tally, job.valuation, ctl, job.beam[2]);
    let answer = |i: usize, value: i64, top: Vec<FinalBoard>| {
        top.into_iter().nth(i).map(|t| (t.line, value))
    };
    let default_answer = |top| match pick {
        Some((i, value)) => answer(i, value, top),
        None => best.clone(),
    };
    // The default agent's choice stands when no next hand can kill it (unless crowded boards
    // are weighed and this one is).
    let crowded = is_crowded(&top, &job.valuation.lookahead);
    if !(w.every || next.weigh_crowded && crowded) {
        let default_board = pick.map_or(top[0].board, |(i, _)| top[i].board);
        let dead = dealer.dead_deals_until(default_board, || !ctl.stopped());
        if dead.is_none_or(|d| d == 0) {
            return (default_answer(top), false);
        }
    }
    let ranked = rank_candidates(&top, crowded, w);
    let pool = job.workers.pool();
    let n = dealer.set().len() as f64;
    let boards: Vec<(Board, Tally)> = ranked
        .iter()
        .map(|&(_, i)| board_and_tally(&top, i, job.tally))
        .collect();
    // The chance that the next hand dies on each board (`None` when stopped).
    let chances = each(&boards, pool, |b| {
        dealer
            .dead_deals_until(b.0, || !ctl.stopped())
            .map(|d| d as f64 / (n * n * n))
    });
    let Some(chances) = chances.into_iter().collect::<Option<Vec<f64>>>() else {
        return (default_answer(top), false);
    };
    // The price of a crisis the next hand leaves guards the entry into one: inside a crisis
    // (the board this hand was dealt on has a dead pair) every line is in one already.
    let entry = if next.crisis_entry != 0 && dealer.has_dead_pair(job.board) {
        0
    } else {
        next.crisis_entry
    };
    let Some(totals) = sample_totals(&boards, top[0].board, entry, w, pool) else {
        return (default_answer(top), false);
    };
    let values: Vec<i64> = ranked
        .iter()
        .zip(&chances)
        .zip(&totals)
        .map(|(((_, i), d), (sum, alive))| {
            let mean = if *alive > 0 {
                *sum as f64 / *alive as f64
            } else {
                0.0
            };
            ((1.0 - d) * mean - next.death_cost(*d)).round() as i64 + top[*i].bonus
        })
        .collect();
    // The first best value.
    let Some(chosen) = (0..values.len()).reduce(|c, k| if values[k] > values[c] { k } else { c })
    else {
        return (default_answer(top), false);
    };
    (answer(ranked[chosen].1, values[chosen], top), true)
}

/// The strong agent with a clock: weighing in stages of more boards and more sampled next
/// hands ([`stage_size`]), every hand weighed, until the clock stops it (or [`MAX_STAGES`]); the answer is the last complete
/// stage's (the first stage's, however far it got, when none completed). Each stage is the
/// search a bare strong `go` would run with its settings, so the answer after a stage does not
/// depend on the clock. `next` gives the other parameters.
pub fn weigh_with_clock(job: Job, dealer: &Dealer, next: &NextHand) -> (BestLine, Weighed) {
    let ctl = job.ctl;
    let mut answer: Option<(BestLine, Weighed)> = None;
    for stage in 0..MAX_STAGES {
        let (candidates, hands) = stage_size(stage);
        let next = NextHand {
            candidates,
            next_hands: hands,
            ..*next
        };
        let job = Job {
            beam: [job.beam[0], job.beam[1], job.beam[2].max(candidates)],
            ..job
        };
        let (best, top) = strong_base(job, next.crowded_unpruned);
        let weighing = Weighing {
            job,
            dealer,
            next: &next,
            every: true,
        };
        let (line, weighed) = choose(best, top, &weighing);
        if ctl.stopped() && answer.is_some() {
            break;
        }
        let done = Weighed {
            stages: stage + 1,
            candidates: if weighed { candidates } else { 0 },
            hands: if weighed { next.next_hands } else { 0 },
        };
        answer = Some((line, done));
        if !weighed || ctl.stopped() || ctl.nodes() >= ctl.node_limit {
            break;
        }
    }
    answer.expect("at least one stage")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tests::{hand, SURVIVE};
    use crate::search::{DEFAULT_BEAM, FULL_BEAM};
    use puzzle_rules::blockudoku::{catalogue, cell_bit, Piece, FULL};
    use std::sync::atomic::{AtomicBool, Ordering};

    // The strong agent's base search keeps the beam's final boards on hands that are not
    // crowded and searches crowded hands without pruning (`crowded_unpruned`).
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
            let strong = Job::new(board, &h, &SURVIVE, &ctl);
            let keep = DEFAULT_BEAM[2].max(STRONG_POOL);
            let at = |beam: [usize; 2]| {
                Job {
                    beam: [beam[0], beam[1], keep],
                    ..strong
                }
                .collect()
            };
            let (pruned, full) = (
                at([DEFAULT_BEAM[0], DEFAULT_BEAM[1]]),
                at([FULL_BEAM[0], FULL_BEAM[1]]),
            );
            let base = strong_base(strong, true);
            if is_crowded(&pruned.1, &SURVIVE.lookahead) {
                crowded += 1;
                widened += (boards(&pruned) != boards(&full)) as u32;
                assert_eq!(boards(&base), boards(&full), "{board:?} {ids:?}");
            } else {
                assert_eq!(boards(&base), boards(&pruned), "{board:?} {ids:?}");
            }
            assert_eq!(boards(&strong_base(strong, false)), boards(&pruned));
        }
        assert!(widened > 0, "crowded {crowded} widened {widened}");
    }

    // Each stage of a search with a clock costs about twice the one before (boards times
    // hands) until the boards reach their cap; after that the hands alone double.
    #[test]
    fn stages_double_their_work() {
        let work = |k| {
            let (c, h) = stage_size(k);
            c * h
        };
        assert_eq!(stage_size(0), (TIMED_CANDIDATES, TIMED_HANDS));
        for k in 1..MAX_STAGES {
            assert_eq!(work(k), 2 * work(k - 1), "stage {k}");
            assert!(stage_size(k).0 <= MAX_CANDIDATES);
        }
    }

    // A search with a clock that is stopped at once still answers a legal line of the whole
    // hand, and reports at most one stage.
    #[test]
    fn a_stopped_clock_still_answers() {
        let board = Board::parse(".####.###/.#.#.#..#/##...#.#./....#..../.######.#/#.#..#.##/.##.#..##/.###.##.#/##.#...##").unwrap();
        let h = hand(&[5, 1, 12]);
        let dealer = Dealer::new(catalogue());
        let stop = AtomicBool::new(true);
        let ctl = Control::new(&stop, u64::MAX);
        let (best, weighed) =
            weigh_with_clock(Job::new(board, &h, &SURVIVE, &ctl), &dealer, &NEXT_HAND);
        let (line, _) = best.expect("the hand can be placed");
        let mut slots: Vec<usize> = line.iter().map(|s| s.slot).collect();
        slots.sort();
        assert_eq!(slots, [0, 1, 2]);
        assert!(weighed.stages <= 1);
    }

    // The price of a crisis the next hand leaves: inner boards with a dead pair lose it,
    // others keep their evaluation.
    #[test]
    fn crisis_entry_prices_inner_boards_with_a_dead_pair() {
        let dealer = Dealer::new(catalogue());
        let hole = Board::from_bits(FULL & !cell_bit(0, 0) & !cell_bit(4, 4));
        assert!(dealer.has_dead_pair(hole));
        assert_eq!(inner_value(-7, hole, &dealer, 500_000), -500_007);
        assert_eq!(inner_value(-7, Board::EMPTY, &dealer, 500_000), -7);
        assert_eq!(inner_value(-7, hole, &dealer, 0), -7);
    }

    #[test]
    fn hand_lookahead_counts_the_hands_that_can_be_placed() {
        let set: Vec<Piece> = [1, 4]
            .iter()
            .map(|&id| Piece::catalogue(id).unwrap().clone())
            .collect();
        let dealer = Dealer::new(&set);
        let stop = AtomicBool::new(false);
        let ctl = Control::new(&stop, u64::MAX);
        // One hole: hands with the dot (index 0) live, hands of dominoes die.
        let board = Board::from_bits(FULL & !cell_bit(0, 0));
        let hands = [[0, 1, 1], [1, 1, 1], [1, 0, 0]];
        let h = hand(&[1]);
        let w = Weighing {
            job: Job::new(board, &h, &SURVIVE, &ctl),
            dealer: &dealer,
            next: &NEXT_HAND,
            every: false,
        };
        let (_, alive) = hand_lookahead(board, Tally::default(), &hands, &w, 0).unwrap();
        assert_eq!(alive, 2);
        stop.store(true, Ordering::Relaxed);
        assert!(hand_lookahead(board, Tally::default(), &hands, &w, 0).is_none());
    }
}
