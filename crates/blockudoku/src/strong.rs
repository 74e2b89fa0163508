//! The strong agent: look at the next hand before choosing.
//!
//! The default agent's search keeps its best final boards and picks one by its one-piece
//! lookahead. The strong agent first asks whether the next hand (three pieces of the dealt
//! set, uniformly with replacement) could die on that board: the chance is exact and cheap
//! ([`Dealer::dead_chance`]). Where it is zero and the board is not crowded (most rounds)
//! the default agent's move stands (its search runs without pruning on crowded hands, weight
//! `crowded_full`: [`crate::search::Job`]'s strong base search). Elsewhere (weight `weigh_crowded`, 1: crowded boards too,
//! best final evaluation below `wide_below`), the boards the default agent likes best (weight `candidates`, 4)
//! are weighed by a hand lookahead: `(1 - d) * A - price(d)` ([`Weights::death_price`]: weight
//! `death` per unit of `d`, and `steep` more per unit up to `steep_to`), with `d` the exact chance of a
//! dead next hand and `A` the mean, over sampled next hands that can be placed (weight
//! `samples`, 64; the same hands for every candidate, drawn from a seed of the position so
//! the answer is reproducible), of the evaluation of the best final board a narrow default
//! search (weight `inner_width`, 3) reaches with that hand.
//!
//! Minimising `d` alone was tried first and died three to four times as often as the default
//! agent on the hard piece set: it keeps today's board safe at the price of tomorrow's shape.
//! The evaluation of the next hand's best board keeps both in view. On that set most of the
//! hazard comes from a few boards in deep trouble (`d` of 0.1 and more), so the noise of the
//! sampled mean matters more than the width of the inner search: many hands, narrow search.
//! Weighing crowded boards as well, before the default's board can die, gave the largest
//! gain of the settings tried (EXPERIMENTS.md, "The strong agent on the hard set").
//!
//! With weight `inner_pair` (on the game's own 47 pieces `game_inner_pair` stands for it)
//! the hand lookahead also prices the crisis a next hand would leave: each of the inner search's
//! best boards on which some two pieces cannot both be placed ([`Dealer::has_dead_pair`],
//! nearly every board a next hand dies on with chance 0.001 or more) costs that much, and
//! the best of them counts. A crisis there costs the risk of the many rounds it lasts, not
//! one hand's; inside one (the board the hand was dealt on has a dead pair) every line is in
//! it already, and the price is not paid; nor with a clock.
//!
//! A deep crisis (weight `deep_from`, off; on the game's own 47 pieces `game_deep_from`,
//! also off, stands for it: 1000 there gave no measurable gain, EXPERIMENTS.md): where the
//! best candidate's death chance is at least `deep_from` millionths, every kept board is
//! weighed, with `deep_samples` (64) next hands, and the hand lookahead weighs its inner
//! boards by the death chance of the hand after (as weight `inner_death`). Without a clock
//! only. It costs seconds per hand in such a crisis.
//!
//! Rollouts (weight `rollouts`, off): where the weighed choice's death chance is at least
//! `rollout_from` millionths, each candidate is played on by the default agent for
//! `rollout_rounds` hands, `rollouts` times on the same deals, and the candidate whose
//! continuations carry the least risk is answered ([`rollout_risk`]). Without a clock only.
//!
//! Pure computation, told when to stop: a stopped search answers with the boards weighed so
//! far (the default agent's choice when none).

use std::sync::atomic::Ordering;

use puzzle_rules::blockudoku::{can_place_all, Board, Dealer};
use puzzle_rules::rng::SplitMix64;

use crate::search::{
    final_board, hand_of, is_crowded, lookahead, rerank_pick, Agent, Control, Job, Kept, Step,
    Tally, Weights, DEFAULT_BEAM,
};

/// Final boards the strong agent weighs.
pub const KEPT: usize = 16;

/// Boards weighed when the search has a clock.
pub const TIMED_CANDIDATES: usize = 8;

/// Next hands sampled for the hand lookahead (the same hands for every candidate); with a
/// clock, batches of this many until `stop` or [`MAX_SAMPLES`].
pub const SAMPLES: usize = 12;

/// Most next hands sampled with a clock.
pub const MAX_SAMPLES: usize = 1200;

/// Inner boards whose next-hand death chance the hand lookahead weighs (weight
/// `inner_death` on).
const INNER_KEEP: usize = 4;

/// The value of a final board `b` of evaluation `eval` to the hand lookahead: less
/// `inner_pair` where some two pieces cannot both be placed on it, and with `inner_death`
/// weighed by the chance `d` that the hand after dies there.
fn inner_value(eval: i64, b: Board, dealer: &Dealer, weights: &Weights) -> i64 {
    let eval = if weights.inner_pair != 0 && dealer.has_dead_pair(b) {
        eval - weights.inner_pair
    } else {
        eval
    };
    if weights.inner_death == 0 {
        return eval;
    }
    let d = dealer.dead_chance(b);
    ((1.0 - d) * eval as f64 - weights.death_price(d)).round() as i64
}

/// The sum over `hands` (that can be placed) of the value of the best final board the
/// default search finds (see [`inner_value`]), with how many hands could be placed; `None`
/// when stopped.
fn hand_lookahead(
    board: Board,
    tally: Tally,
    hands: &[[usize; 3]],
    dealer: &Dealer,
    weights: &Weights,
    ctl: &Control,
) -> Option<(i64, usize)> {
    let set = dealer.set();
    let (mut sum, mut alive) = (0i64, 0usize);
    let w = weights.inner_width as usize;
    let beam = [
        w,
        w.div_ceil(2),
        INNER_KEEP * (weights.inner_death != 0 || weights.inner_pair != 0) as usize,
    ];
    for h in hands {
        if ctl.stop.load(Ordering::Relaxed) {
            return None;
        }
        let hand = hand_of(set, h);
        let inner = Control::new(ctl.stop, u64::MAX);
        let job = Job {
            board,
            hand: &hand,
            agent: Agent::Default,
            weights,
            threads: 1,
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
                .map(|t| inner_value(t.value - t.bonus, t.board, dealer, weights) + t.bonus)
                .max()
                .unwrap_or(v)
        };
        sum += value;
        alive += 1;
    }
    // A search stopped mid-hand may have answered a worse line: drop the batch.
    (!ctl.stop.load(Ordering::Relaxed)).then_some((sum, alive))
}

/// The risk of the continuations of `board` (with `tally`): the mean over `weights.rollouts`
/// rollouts of `weights.rollout_rounds` hands each, the default agent answering every hand,
/// of the chance that some hand in them cannot be placed. Each hand is dealt among those
/// that can be placed and the exact chance that it could not is counted instead, so a
/// rollout never ends early and its risk is exact given the hands dealt. Rollout `r` deals
/// from `seed` and `r` alone (the same deals for every board, as long as they can be
/// placed). `None` when stopped.
fn rollout_risk(
    board: Board,
    tally: Tally,
    seed: u64,
    dealer: &Dealer,
    weights: &Weights,
    ctl: &Control,
) -> Option<f64> {
    let set = dealer.set();
    let rollouts = weights.rollouts.max(1) as u64;
    let mut total = 0.0;
    for r in 0..rollouts {
        let mut rng = SplitMix64(seed ^ r.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let (mut b, mut alive, mut risk) = (board, 1.0f64, 0.0f64);
        for _ in 0..weights.rollout_rounds {
            if ctl.stop.load(Ordering::Relaxed) {
                return None;
            }
            let d = dealer.dead_chance(b);
            risk += alive * d;
            alive *= 1.0 - d;
            if alive <= 0.0 {
                break;
            }
            let hand = loop {
                let h = dealer.deal(&mut rng);
                let pieces = [&set[h[0]], &set[h[1]], &set[h[2]]];
                if can_place_all(b, &pieces) {
                    break hand_of(set, &h);
                }
            };
            let inner = Control::new(ctl.stop, u64::MAX);
            let job = Job {
                board: b,
                hand: &hand,
                agent: Agent::Default,
                weights,
                threads: 1,
                ctl: &inner,
                beam: DEFAULT_BEAM,
                tally,
            };
            let Some((line, _)) = job.run(set).best else {
                break;
            };
            b = final_board(b, &hand, &line);
        }
        total += risk;
    }
    Some(total / rollouts as f64)
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

/// Chooses among the kept final boards `top` (best first) of `job`'s search, whose best line
/// is `best` (the job's beam gives the default agent's lookahead width). True with the answer when the hand
/// lookahead weighed it. A kept line's weighed points (objective points) add to its value; the
/// hand lookahead counts the next hand's points from the streak the line leaves.
pub fn choose(
    best: Option<(Vec<Step>, i64)>,
    top: Vec<Kept>,
    dealer: &Dealer,
    job: Job,
) -> (Option<(Vec<Step>, i64)>, bool) {
    let (weights, threads, ctl, width) = (job.weights, job.threads, job.ctl, job.beam[2]);
    let tally = job.tally;
    if top.len() < 2 {
        return (best, false);
    }
    let stopped = || ctl.stop.load(Ordering::Relaxed);
    let pick = rerank_pick(&top, tally, weights, ctl, width);
    let answer =
        |i: usize, value: i64, top: Vec<Kept>| top.into_iter().nth(i).map(|t| (t.line, value));
    let default_answer = |top| match pick {
        Some((i, value)) => answer(i, value, top),
        None => best.clone(),
    };
    // The default agent's choice stands when no next hand can kill it (with a clock, only
    // on boards that are not crowded).
    let crowded = is_crowded(&top, weights);
    if !((ctl.timed || weights.weigh_crowded != 0) && crowded) {
        let default_board = pick.map_or(top[0].board, |(i, _)| top[i].board);
        let n = dealer.set().len() as u64;
        let crisis = weights.crisis as f64 * 1e-6 * (n * n * n) as f64;
        let dead = dealer.dead_deals_until(default_board, || !stopped());
        if dead.is_none_or(|d| d == 0 || (d as f64) < crisis) {
            return (default_answer(top), false);
        }
    }
    // Candidates: the boards the default agent looked at, best by its lookahead first.
    let looked = if crowded {
        crate::search::WIDE_LOOKAHEAD.max(width)
    } else {
        width
    }
    .min(top.len());
    let mut ranked: Vec<(i64, usize)> = Vec::with_capacity(looked);
    for (i, t) in top.iter().enumerate().take(looked) {
        if stopped() {
            break;
        }
        let tally = Tally {
            streak: t.streak,
            ..tally
        };
        ranked.push((lookahead(t.board, weights, tally).0 + t.bonus, i));
    }
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.truncate(if ctl.timed {
        TIMED_CANDIDATES
    } else {
        weights.candidates as usize
    });
    let pool = if threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()
    } else {
        None
    };
    let pool = pool.as_ref();
    let n = dealer.set().len() as f64;
    // The kept boards not among the candidates.
    let unranked = |ranked: &[(i64, usize)]| -> Vec<usize> {
        (0..top.len())
            .filter(|i| !ranked.iter().any(|r| r.1 == *i))
            .collect()
    };
    // The chance that the next hand dies on `board` (`None` when stopped).
    let chance = |board: Board| {
        dealer
            .dead_deals_until(board, || !stopped())
            .map(|d| d as f64 / (n * n * n))
    };
    // Kept board `i` with the tally its line leaves.
    let kept = |i: usize| {
        let tally = Tally {
            streak: top[i].streak,
            ..tally
        };
        (top[i].board, tally)
    };
    if weights.safest != 0 {
        // The kept board the next hand is least likely to kill joins the candidates.
        let rest = unranked(&ranked);
        let dead = each(&rest, pool, |&i| {
            dealer.dead_deals_until(top[i].board, || !stopped())
        });
        let safest = rest
            .iter()
            .zip(dead)
            .filter_map(|(&i, d)| d.map(|d| (d, i)))
            .min();
        if let Some((_, i)) = safest {
            ranked.push((i64::MIN, i));
        }
    }
    let mut boards: Vec<(Board, Tally)> = ranked.iter().map(|&(_, i)| kept(i)).collect();
    let chances = each(&boards, pool, |b| chance(b.0));
    let Some(mut chances) = chances.into_iter().collect::<Option<Vec<f64>>>() else {
        return (default_answer(top), false);
    };
    // A deep crisis: every kept board, more hands, inner boards weighed by their own risk.
    let deep = !ctl.timed
        && weights.deep_from > 0
        && chances
            .first()
            .is_some_and(|&d| d > 0.0 && d * 1e6 >= weights.deep_from as f64);
    let deep_weights = Weights {
        inner_death: 1,
        ..*weights
    };
    if deep {
        let rest = unranked(&ranked);
        let more = each(&rest, pool, |&i| chance(top[i].board));
        let Some(more) = more.into_iter().collect::<Option<Vec<f64>>>() else {
            return (default_answer(top), false);
        };
        for (&i, d) in rest.iter().zip(more) {
            ranked.push((i64::MIN, i));
            boards.push(kept(i));
            chances.push(d);
        }
    }
    let weights = if deep { &deep_weights } else { weights };
    // The price of a crisis the next hand leaves guards the entry into one: inside a crisis
    // (the board this hand was dealt on has a dead pair) every line is in one already.
    let entry_weights = Weights {
        inner_pair: 0,
        ..*weights
    };
    // With a clock (`go movetime`) it is not paid either: there it answered crowded positions
    // worse than without it (EXPERIMENTS.md, "The price of a crisis the next hand leaves").
    let weights = if weights.inner_pair != 0 && (ctl.timed || dealer.has_dead_pair(job.board)) {
        &entry_weights
    } else {
        weights
    };
    let bits = top[0].board.bits();
    let mut rng = SplitMix64(bits as u64 ^ (bits >> 64) as u64 ^ 0x5eed);
    let batches = if ctl.timed { MAX_SAMPLES / SAMPLES } else { 1 };
    let mut totals = vec![(0i64, 0usize); boards.len()];
    let mut done = 0;
    let batch = if ctl.timed {
        SAMPLES
    } else if deep {
        weights.deep_samples as usize
    } else {
        weights.samples as usize
    };
    for _ in 0..batches {
        let hands: Vec<[usize; 3]> = (0..batch).map(|_| dealer.deal(&mut rng)).collect();
        let sums = each(&boards, pool, |b| {
            hand_lookahead(b.0, b.1, &hands, dealer, weights, ctl)
        });
        let Some(sums) = sums.into_iter().collect::<Option<Vec<_>>>() else {
            break;
        };
        for (t, s) in totals.iter_mut().zip(sums) {
            t.0 += s.0;
            t.1 += s.1;
        }
        done += 1;
        if stopped() {
            break;
        }
    }
    if done == 0 {
        return (default_answer(top), false);
    }
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
            ((1.0 - d) * mean - weights.death_price(*d)).round() as i64 + top[*i].bonus
        })
        .collect();
    // The first best value.
    let Some(mut chosen) =
        (0..values.len()).reduce(|c, k| if values[k] > values[c] { k } else { c })
    else {
        return (default_answer(top), false);
    };
    // In a crisis, the candidate whose continuations carry the least risk (ties: the best
    // value).
    let roll = !ctl.timed
        && weights.rollouts > 0
        && weights.points == 0
        && chances[chosen] * 1e6 >= weights.rollout_from.max(1) as f64;
    if roll {
        let seed = SplitMix64(bits as u64 ^ (bits >> 64) as u64 ^ 0x0011_2233).next_u64();
        let risks = each(&boards, pool, |b| {
            rollout_risk(b.0, b.1, seed, dealer, weights, ctl)
        });
        if let Some(risks) = risks.into_iter().collect::<Option<Vec<f64>>>() {
            chosen = (0..risks.len())
                .reduce(|c, k| {
                    let better =
                        risks[k] < risks[c] || (risks[k] == risks[c] && values[k] > values[c]);
                    if better {
                        k
                    } else {
                        c
                    }
                })
                .unwrap_or(chosen);
        }
    }
    (answer(ranked[chosen].1, values[chosen], top), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{final_board, search, Agent, DEFAULT_BEAM, WEIGHTS};
    use puzzle_rules::blockudoku::{catalogue, cell_bit, Piece, FULL};
    use std::sync::atomic::AtomicBool;

    /// A hand of three catalogue pieces among the first 20.
    fn random_hand(rng: &mut impl rand::Rng) -> Vec<(usize, &'static Piece)> {
        (0..3)
            .map(|i| (i, Piece::catalogue(rng.gen_range(1..=20)).unwrap()))
            .collect()
    }

    // The strong agent plays legal lines; where the default agent's board cannot die on the
    // next hand it plays the default agent's line; elsewhere its board is one the default
    // search kept.
    #[test]
    fn strong_keeps_safe_default_lines_and_answers_legally() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(21);
        let dealer = Dealer::new(catalogue());
        let (mut same, mut differed) = (0, 0);
        for _ in 0..60 {
            let board = Board::from_fn(|_| rng.gen_bool(0.42));
            let hand = random_hand(&mut rng);
            let stop = AtomicBool::new(false);
            // Crowded boards are weighed whatever the default's board: leave them out here.
            let w = Weights {
                weigh_crowded: 0,
                ..WEIGHTS
            };
            let play = |agent| {
                let ctl = Control::new(&stop, u64::MAX);
                search(board, &hand, agent, &w, 1, &ctl, DEFAULT_BEAM).best
            };
            let (Some(d), Some(s)) = (play(Agent::Default), play(Agent::Strong)) else {
                assert!(play(Agent::Strong).is_none() && play(Agent::Default).is_none());
                continue;
            };
            let (bd, bs) = (
                final_board(board, &hand, &d.0),
                final_board(board, &hand, &s.0),
            );
            if dealer.dead_chance(bd) == 0.0 {
                assert_eq!(d.0, s.0);
                same += 1;
            } else if bd != bs {
                differed += 1;
            }
        }
        assert!(same > 0 && differed > 0, "same {same} differed {differed}");
    }

    /// Plays `n` random hands (boards of `density`, seeded by `seed`) with `reference` and
    /// with `variant` (and `same`, which must answer as `reference`), checks that `variant`
    /// answers a legal line of the whole hand, and counts the hands both answered and those
    /// where their final boards differ.
    fn legal_and_changed(
        seed: u64,
        density: f64,
        n: usize,
        reference: &Weights,
        variant: &Weights,
        same: Option<&Weights>,
    ) -> (usize, usize) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let (mut answered, mut changed) = (0, 0);
        for _ in 0..n {
            let board = Board::from_fn(|_| rng.gen_bool(density));
            let hand = random_hand(&mut rng);
            let stop = AtomicBool::new(false);
            let play = |w: &Weights| {
                let ctl = Control::new(&stop, u64::MAX);
                search(board, &hand, Agent::Strong, w, 1, &ctl, DEFAULT_BEAM).best
            };
            let plain = play(reference);
            if let Some(same) = same {
                assert_eq!(play(same), plain);
            }
            let (Some(p), Some(d)) = (plain, play(variant)) else {
                continue;
            };
            // A legal line (final_board checks every placement) that places the whole hand.
            let mut slots: Vec<usize> = d.0.iter().map(|s| s.slot).collect();
            slots.sort();
            assert_eq!(slots, [0, 1, 2], "{board}");
            let end = final_board(board, &hand, &d.0);
            answered += 1;
            changed += (final_board(board, &hand, &p.0) != end) as usize;
        }
        (answered, changed)
    }

    // A deep crisis: above its threshold the strong agent still answers a legal line of the
    // whole hand, and somewhere it answers differently; a threshold no chance reaches changes
    // nothing.
    #[test]
    fn deep_crises_answer_legal_lines_and_change_answers() {
        // Without the 47 pieces' own threshold, so that only `deep_from` tells them apart.
        let deep = |from| Weights {
            deep_from: from,
            deep_samples: 8,
            game_deep_from: 0,
            ..WEIGHTS
        };
        let (answered, changed) =
            legal_and_changed(5, 0.45, 10, &deep(0), &deep(1), Some(&deep(2_000_000)));
        assert!(
            answered > 0 && changed > 0,
            "answered {answered} changed {changed}"
        );
    }

    // Rollouts: one hand's rollout carries exactly the next hand's death chance; longer ones
    // carry at least that, none on an empty board; in a crisis the strong agent with
    // rollouts still answers legal lines of the whole hand, and somewhere differently, and a
    // threshold no chance reaches changes nothing.
    #[test]
    fn rollouts_count_the_risk_of_the_continuations() {
        let dealer = Dealer::new(catalogue());
        let stop = AtomicBool::new(false);
        let ctl = Control::new(&stop, u64::MAX);
        let w = |rollouts, rounds| Weights {
            rollouts,
            rollout_rounds: rounds,
            ..WEIGHTS.for_set(catalogue())
        };
        // The first random crowded board some next hands die on and others do not.
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let crowded = std::iter::repeat_with(|| Board::from_fn(|_| rng.gen_bool(0.5)))
            .find(|&b| (0.01..0.9).contains(&dealer.dead_chance(b)))
            .unwrap();
        let d = dealer.dead_chance(crowded);
        let risk = |b, w: &Weights| rollout_risk(b, Tally::default(), 7, &dealer, w, &ctl).unwrap();
        assert!((risk(crowded, &w(3, 1)) - d).abs() < 1e-12);
        assert!(risk(crowded, &w(3, 4)) >= d);
        assert_eq!(risk(Board::EMPTY, &w(2, 3)), 0.0);
        stop.store(true, Ordering::Relaxed);
        assert!(rollout_risk(crowded, Tally::default(), 7, &dealer, &w(2, 2), &ctl).is_none());
        let rolled = |from| Weights {
            rollouts: 4,
            rollout_rounds: 3,
            rollout_from: from,
            ..WEIGHTS
        };
        let (answered, changed) =
            legal_and_changed(5, 0.45, 10, &WEIGHTS, &rolled(1), Some(&rolled(2_000_000)));
        assert!(
            answered > 0 && changed > 0,
            "answered {answered} changed {changed}"
        );
    }

    // The price of a crisis the next hand leaves: inner boards with a dead pair lose it,
    // others keep their evaluation; the strong agent still answers legal lines of the whole
    // hand with it, and somewhere differently.
    #[test]
    fn inner_pair_prices_crises_the_next_hand_leaves() {
        let dealer = Dealer::new(catalogue());
        // Without the 47 pieces' own price, so that only `inner_pair` tells them apart.
        let plain = Weights {
            game_inner_pair: 0,
            ..WEIGHTS
        };
        let priced = Weights {
            inner_pair: 500_000,
            ..plain
        };
        let hole = Board::from_bits(FULL & !cell_bit(0, 0) & !cell_bit(4, 4));
        assert!(dealer.has_dead_pair(hole));
        assert_eq!(inner_value(-7, hole, &dealer, &priced), -500_007);
        assert_eq!(inner_value(-7, Board::EMPTY, &dealer, &priced), -7);
        assert_eq!(inner_value(-7, hole, &dealer, &plain), -7);
        // Crowded enough to be weighed, not so crowded that a dead pair turns it off.
        let (answered, changed) = legal_and_changed(9, 0.3, 12, &plain, &priced, None);
        assert!(
            answered > 0 && changed > 0,
            "answered {answered} changed {changed}"
        );
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
        let (_, alive) =
            hand_lookahead(board, Tally::default(), &hands, &dealer, &WEIGHTS, &ctl).unwrap();
        assert_eq!(alive, 2);
        stop.store(true, Ordering::Relaxed);
        assert!(hand_lookahead(board, Tally::default(), &hands, &dealer, &WEIGHTS, &ctl).is_none());
    }
}
