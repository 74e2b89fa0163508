//! The agents: which search answers a hand, with which settings, for which objective and
//! on which clock. Every such choice is made here, in [`answer`]; the search
//! (`crate::search`) only does what it is told.
//!
//! - `default`: the beam search and the one-piece lookahead.
//! - `original`: the original agent of the blog post (depth-first, mobility).
//! - `strong`: the default agent's search keeping more final boards, weighed by the next
//!   hand ([`crate::search::strong`]). Given a clock, the default agent answers as the strong
//!   agent does, and the strong agent samples next hands until the clock stops it.
//! - Objective `points` counts the line's points ([`crate::search::points`]) and has a
//!   safety net: where the next hand could die on its answer's board, the strong agent
//!   playing to survive answers instead if its board is less likely to die.
//! - On a piece set where crises are rare ([`crises_are_rare`]), the strong agent playing to
//!   survive prices hard pieces that fit nowhere and the entry into a crisis dearer
//!   (`strong_nofit`, `crisis_entry`).

use std::sync::atomic::AtomicBool;

use puzzle_rules::blockudoku::{catalogue, Board, Dealer, Piece};

use crate::search::strong::{self, Weighed, Weighing};
use crate::search::{
    final_board, Beam, BestLine, Control, HandPieces, Job, Method, Outcome, Tally, Valuation,
    Workers, DEFAULT_BEAM, FULL_BEAM, POINTS_BEAM,
};

mod settings;

pub use settings::Settings;

/// Which agent chooses the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// Whole-hand beam search with merged orders and a shape evaluation.
    Default,
    /// The original agent of the blog post: depth-first, leaf value = mobility, stop at the
    /// first leaf > 1500. Also accepted as `seed`, its former name.
    Original,
    /// The default agent's search, then the best final boards weighed by the exact chance
    /// that the next hand dies on them (see `search::strong`).
    Strong,
    /// The default agent on the classic evaluation (the handcrafted terms alone, no learned
    /// value).
    ClassicDefault,
    /// The strong agent on the classic evaluation.
    ClassicStrong,
}

/// Every agent, in documentation order.
pub const AGENTS: [Agent; 5] = [
    Agent::Default,
    Agent::Original,
    Agent::Strong,
    Agent::ClassicDefault,
    Agent::ClassicStrong,
];

impl Agent {
    /// The option value naming the agent.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Default => "default",
            Agent::Original => "original",
            Agent::Strong => "strong",
            Agent::ClassicDefault => "classic-default",
            Agent::ClassicStrong => "classic-strong",
        }
    }

    /// The search the agent runs: `Default`, `Strong` or `Original` (a classic agent runs its
    /// namesake's search on the classic evaluation).
    pub fn search(self) -> Agent {
        match self {
            Agent::ClassicDefault => Agent::Default,
            Agent::ClassicStrong => Agent::Strong,
            other => other,
        }
    }

    /// Whether the agent plays on the classic evaluation (no learned value).
    pub fn classic(self) -> bool {
        matches!(self, Agent::ClassicDefault | Agent::ClassicStrong)
    }

    /// The strong agent on the same evaluation.
    fn strong(self) -> Agent {
        if self.classic() {
            Agent::ClassicStrong
        } else {
            Agent::Strong
        }
    }

    /// The agent called `name`, if any (`seed` is the former name of `original`).
    pub fn from_name(name: &str) -> Option<Agent> {
        let name = if name == "seed" { "original" } else { name };
        AGENTS.iter().copied().find(|a| a.name() == name)
    }
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
}

/// Whether crises are rare on the piece set `set`: on the game's own 47 pieces they are
/// (a board where a big piece fits nowhere, or some two pieces cannot both be placed, is
/// what the rare crises start from, and pricing it dearer pays); on harder sets such boards
/// are everyday ones and the dearer prices cost.
pub fn crises_are_rare(set: &[Piece]) -> bool {
    set == catalogue()
}

/// What an agent is asked, the settings of a search: who plays, for what, with which
/// parameters, from which beam, on which workers, and the scoring with the position's streak.
/// With the position (board and hand) and the [`Limits`] it is all a search is given.
#[derive(Clone, Debug)]
pub struct Request {
    /// The agent.
    pub agent: Agent,
    /// What it plays for.
    pub objective: Objective,
    /// The parameters.
    pub settings: Settings,
    /// The beam the search starts from.
    pub beam: Beam,
    /// The worker threads (their pool is made once, when the thread count is set).
    pub workers: Workers,
    /// The scoring rule and the position's streak (counted with objective `points`).
    pub tally: Tally,
}

impl Request {
    /// `agent` playing for `objective` with the engine's parameters and the objective's beam,
    /// one thread, no streak.
    pub fn new(agent: Agent, objective: Objective) -> Request {
        Request {
            agent,
            objective,
            settings: Settings::default(),
            beam: objective.beam(),
            workers: Workers::ONE,
            tally: Tally::default(),
        }
    }
}

impl Request {
    /// The evaluation's weights the agent plays with: the settings' weights, without the
    /// learned value for a classic agent.
    pub fn weights(&self) -> crate::eval::Weights {
        let mut w = self.settings.weights;
        if self.agent.classic() {
            w.learned = 0;
        }
        w
    }
}

/// What a search may spend: the limits of `go` as the agents read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Placements over all workers (`u64::MAX`: no limit).
    pub nodes: u64,
    /// Widen the beam while there is time or nodes left ([`search`]).
    pub widen: bool,
    /// A clock will stop the search (`go movetime`, `go infinite`): the agent spends it.
    pub clock: bool,
}

impl Default for Limits {
    /// A bare `go`: no node limit, no widening, no clock.
    fn default() -> Limits {
        Limits {
            nodes: u64::MAX,
            widen: false,
            clock: false,
        }
    }
}

/// One search as the policy set it up: the agent that plays, whether points count, whether
/// the dearer prices of a set where crises are rare apply, and whether a clock stops it.
#[derive(Clone, Copy)]
struct Plan {
    agent: Agent,
    points: bool,
    rare_crises: bool,
    /// A clock will stop the search: the strong agent samples until it does.
    clock: bool,
}

/// The answer of `req` to `hand` on `board` within `limits` (the beam is not widened: see
/// [`search`]), with the next hands dealt from `set` (what the strong agent weighs and the
/// safety net of points looks at); `stop` ends it early once a line exists.
pub fn answer(
    board: Board,
    hand: &HandPieces,
    req: &Request,
    limits: &Limits,
    set: &[Piece],
    stop: &AtomicBool,
) -> Outcome {
    let ctl = Control::new(stop, limits.nodes);
    answer_within(board, hand, req, limits.clock, set, &ctl)
}

/// [`answer`] under the control `ctl`.
fn answer_within(
    board: Board,
    hand: &HandPieces,
    req: &Request,
    clock: bool,
    set: &[Piece],
    ctl: &Control,
) -> Outcome {
    // Given a clock, the default agent spends it as the strong agent does.
    let agent = if clock && req.agent.search() == Agent::Default {
        req.agent.strong()
    } else {
        req.agent
    };
    let points = req.objective == Objective::Points;
    let plan = Plan {
        agent,
        points,
        rare_crises: !points && crises_are_rare(set),
        clock,
    };
    let (best, weighed) = play(plan, board, hand, req, set, ctl);
    let best = if points && agent.search() != Agent::Original {
        safety_net(best, board, hand, req, (set, clock), ctl)
    } else {
        best
    };
    Outcome {
        best,
        nodes: ctl.nodes(),
        weighed,
    }
}

/// The search `plan` asks for; what the strong agent's weighing did when it chose the answer.
fn play(
    plan: Plan,
    board: Board,
    hand: &HandPieces,
    req: &Request,
    set: &[Piece],
    ctl: &Control,
) -> (BestLine, Option<Weighed>) {
    let s = &req.settings;
    let mut weights = s.weights;
    let search = plan.agent.search();
    if search == Agent::Strong && plan.rare_crises {
        weights.nofit = s.next_hand.strong_nofit;
    }
    if plan.agent.classic() {
        weights.learned = 0;
    }
    let valuation = Valuation {
        weights,
        lookahead: s.lookahead,
        points: plan.points.then_some(s.points),
    };
    let job = Job {
        board,
        hand,
        method: match search {
            Agent::Original => Method::Mobility,
            _ => Method::Beam,
        },
        valuation: &valuation,
        workers: &req.workers,
        ctl,
        beam: req.beam,
        tally: req.tally,
    };
    if search != Agent::Strong {
        return (job.run().best, None);
    }
    let mut next = s.next_hand;
    if !plan.rare_crises {
        next.crisis_entry = 0;
    }
    let dealer = Dealer::new(set);
    // With a clock: stages of more boards and more next hands until the clock stops it; the
    // price of a crisis entry answered crowded positions worse there and is not paid
    // (EXPERIMENTS.md, "The price of a crisis the next hand leaves").
    if plan.clock {
        next.weigh_crowded = true;
        next.crisis_entry = 0;
        let (best, weighed) = strong::weigh_with_clock(job, &dealer, &next);
        return (best, (weighed.candidates > 0).then_some(weighed));
    }
    let (best, top) = strong::strong_base(job, next.crowded_unpruned);
    let weighing = Weighing {
        job,
        dealer: &dealer,
        next: &next,
        every: false,
    };
    let (best, weighed) = strong::choose(best, top, &weighing);
    let report = Weighed {
        stages: 1,
        candidates: next.candidates,
        hands: next.next_hands,
    };
    (best, weighed.then_some(report))
}

/// Objective points plays for points where that costs no safety: where the next hand (dealt
/// from `set`) could die on the board `best` leaves, the strong agent's search playing to
/// survive (without the dearer prices of a set where crises are rare, with the points
/// search's beam) answers instead if its board is less likely to die.
fn safety_net(
    best: BestLine,
    board: Board,
    hand: &HandPieces,
    req: &Request,
    (set, clock): (&[Piece], bool),
    ctl: &Control,
) -> BestLine {
    let Some((line, _)) = &best else { return best };
    let dealer = Dealer::new(set);
    let going = || !ctl.stopped();
    let after = final_board(board, hand, line);
    let Some(dead) = dealer.dead_deals_until(after, going) else {
        return best;
    };
    if dead == 0 {
        return best;
    }
    let net = Plan {
        agent: req.agent.strong(),
        points: false,
        rare_crises: false,
        clock,
    };
    let (safe, _) = play(net, board, hand, req, set, ctl);
    let safer = safe.as_ref().is_some_and(|(line, _)| {
        let d = dealer.dead_deals_until(final_board(board, hand, line), going);
        d.is_some_and(|d| d < dead)
    });
    if safer {
        safe
    } else {
        best
    }
}

/// The search `go` runs: [`answer`] on the game's own pieces from the request's beam, then
/// (when the limits widen) with doubled beams until the full search completes, `stop` is set
/// or the node limit is spent; keeps the best line found by any pass. An answer the strong
/// agent weighed ends the widening: its hand lookahead has spent the time on the boards that
/// pass found best.
pub fn search(
    board: Board,
    hand: &HandPieces,
    req: &Request,
    limits: &Limits,
    stop: &AtomicBool,
) -> Outcome {
    let ctl = Control::new(stop, limits.nodes);
    let widen = limits.widen;
    let mut req = req.clone();
    let mut best: BestLine = None;
    loop {
        let beam = req.beam;
        let out = answer_within(board, hand, &req, limits.clock, catalogue(), &ctl);
        if out.weighed.is_some() {
            return out;
        }
        if let Some(b) = out.best {
            if best.as_ref().is_none_or(|x| b.1 > x.1) {
                best = Some(b);
            }
        }
        let stopped = ctl.stopped() || out.nodes >= ctl.node_limit;
        let done = beam == FULL_BEAM || req.agent == Agent::Original || best.is_none();
        if !widen || stopped || done {
            return Outcome {
                best,
                nodes: out.nodes,
                weighed: None,
            };
        }
        req.beam = if beam[0] >= 64 {
            FULL_BEAM
        } else {
            [beam[0] * 2, beam[1] * 2, beam[2]]
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tests::hand;
    use puzzle_rules::blockudoku::{can_place_all, GameState, Scoring};
    use std::sync::atomic::AtomicBool;

    /// A random board (each cell filled with chance `fill`) and three catalogue ids.
    fn random_deal(rng: &mut impl rand::Rng, fill: f64) -> (Board, Vec<usize>) {
        let board = Board::from_fn(|_| rng.gen_bool(fill));
        (board, (0..3).map(|_| rng.gen_range(1..=47)).collect())
    }

    /// The answer of `req` on `set` without limits.
    fn line(board: Board, hand: &HandPieces, req: &Request, set: &[Piece]) -> BestLine {
        let stop = AtomicBool::new(false);
        answer(board, hand, req, &Limits::default(), set, &stop).best
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
                let req = Request {
                    beam: FULL_BEAM,
                    ..Request::new(agent, Objective::Survive)
                };
                let best = line(board, &hand(&ids), &req, catalogue());
                assert_eq!(best.is_some(), can_place_all(board, &pieces));
                if let Some((line, _)) = best {
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

    // The strong agent plays legal lines; where the default agent's board cannot die on the
    // next hand it plays the default agent's line; elsewhere its board is one the default
    // search kept.
    #[test]
    fn strong_keeps_safe_default_lines_and_answers_legally() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(21);
        let dealer = Dealer::new(catalogue());
        // Crowded boards are weighed whatever the default's board: leave them out here.
        let mut settings = Settings::default();
        settings.next_hand.weigh_crowded = false;
        let (mut same, mut differed) = (0, 0);
        for _ in 0..60 {
            let board = Board::from_fn(|_| rng.gen_bool(0.42));
            let ids: Vec<usize> = (0..3).map(|_| rng.gen_range(1..=20)).collect();
            let h = hand(&ids);
            let play = |agent| {
                let req = Request {
                    settings,
                    ..Request::new(agent, Objective::Survive)
                };
                line(board, &h, &req, catalogue())
            };
            let (Some(d), Some(s)) = (play(Agent::Default), play(Agent::Strong)) else {
                assert!(play(Agent::Strong).is_none() && play(Agent::Default).is_none());
                continue;
            };
            let (bd, bs) = (final_board(board, &h, &d.0), final_board(board, &h, &s.0));
            if dealer.dead_chance(bd) == 0.0 {
                assert_eq!(d.0, s.0);
                same += 1;
            } else if bd != bs {
                differed += 1;
            }
        }
        assert!(same > 0 && differed > 0, "same {same} differed {differed}");
    }

    // The price of entering a crisis changes some answers of the strong agent on the game's
    // pieces, and its answers stay legal lines of the whole hand.
    #[test]
    fn crisis_entry_changes_answers_and_keeps_them_legal() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        let mut plain = Settings::default();
        plain.next_hand.crisis_entry = 0;
        let (mut answered, mut changed) = (0, 0);
        for _ in 0..12 {
            // Crowded enough to be weighed, not so crowded that a dead pair turns it off.
            let board = Board::from_fn(|_| rng.gen_bool(0.3));
            let ids: Vec<usize> = (0..3).map(|_| rng.gen_range(1..=20)).collect();
            let h = hand(&ids);
            let play = |settings| {
                let req = Request {
                    settings,
                    ..Request::new(Agent::Strong, Objective::Survive)
                };
                line(board, &h, &req, catalogue())
            };
            let (Some(p), Some(d)) = (play(plain), play(Settings::default())) else {
                continue;
            };
            let mut slots: Vec<usize> = d.0.iter().map(|s| s.slot).collect();
            slots.sort();
            assert_eq!(slots, [0, 1, 2], "{board}");
            let end = final_board(board, &h, &d.0);
            answered += 1;
            changed += (final_board(board, &h, &p.0) != end) as usize;
        }
        assert!(
            answered > 0 && changed > 0,
            "answered {answered} changed {changed}"
        );
    }

    // Objective points never leaves a board the next hand is more likely to kill than the
    // board the strong agent playing to survive (its safety net) leaves, unless no next
    // hand can die on it.
    #[test]
    fn points_answers_are_no_riskier_than_survive_answers() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(12);
        let dealer = Dealer::new(catalogue());
        let (mut at_risk, mut differed) = (0, 0);
        for _ in 0..150 {
            let (board, ids) = random_deal(&mut rng, 0.5);
            let h = hand(&ids);
            let req = Request {
                beam: DEFAULT_BEAM,
                ..Request::new(Agent::Default, Objective::Points)
            };
            let stop = AtomicBool::new(false);
            let ctl = Control::new(&stop, u64::MAX);
            let net = Plan {
                agent: Agent::Strong,
                points: false,
                rare_crises: false,
                clock: false,
            };
            let survive = play(net, board, &h, &req, catalogue(), &ctl).0;
            let points = line(board, &h, &req, catalogue());
            let (Some(s), Some(p)) = (survive, points) else {
                continue;
            };
            let (ds, dp) = (
                dealer.dead_chance(final_board(board, &h, &s.0)),
                dealer.dead_chance(final_board(board, &h, &p.0)),
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

    // The strong agent prices a hard piece that fits nowhere at `strong_nofit` on the game's
    // own pieces, in every search it runs, and at the evaluation's `nofit` on any other set.
    #[test]
    fn strong_prices_nofit_by_piece_set() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(41);
        let mut dearer = Settings::default();
        dearer.weights.nofit = Settings::default().next_hand.strong_nofit;
        let mut plain = Settings::default();
        plain.next_hand.strong_nofit = Settings::default().weights.nofit;
        let hard = &catalogue()[13..];
        assert!(crises_are_rare(catalogue()) && !crises_are_rare(hard));
        let mut differed = 0;
        for _ in 0..40 {
            let (board, ids) = random_deal(&mut rng, 0.4);
            let h = hand(&ids);
            let play = |settings, set| {
                let req = Request {
                    settings,
                    ..Request::new(Agent::Strong, Objective::Survive)
                };
                line(board, &h, &req, set)
            };
            let game = play(Settings::default(), catalogue());
            assert_eq!(game, play(dearer, catalogue()), "{board:?} {ids:?}");
            assert_eq!(
                play(Settings::default(), hard),
                play(plain, hard),
                "{board:?} {ids:?}"
            );
            differed += (game != play(plain, catalogue())) as u32;
        }
        // The price changes some answers.
        assert!(differed > 0);
    }
}
