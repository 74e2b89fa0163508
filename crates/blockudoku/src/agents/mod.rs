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

use puzzle_rules::blockudoku::{catalogue, Board, Dealer, Piece};

use crate::search::strong::{self, Weighing, MAX_SAMPLES, SAMPLES, TIMED_CANDIDATES};
use crate::search::{
    final_board, Beam, BestLine, Control, HandPieces, Job, Method, Outcome, Tally, Valuation,
    DEFAULT_BEAM, FULL_BEAM, POINTS_BEAM,
};

mod settings;

pub use settings::{Settings, OTHER_NAMES, SETTINGS};

/// Which agent chooses the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// Whole-hand beam search with merged orders and a shape evaluation.
    Default,
    /// The original agent of the blog post: depth-first, leaf value = mobility, stop at the
    /// first leaf > 1500. Also accepted as `seed`, its former name.
    Original,
    /// The default agent's search, then the best final boards weighed by the exact chance
    /// that the next hand dies on them (see [`crate::search::strong`]).
    Strong,
}

/// Every agent, in documentation order.
pub const AGENTS: [Agent; 3] = [Agent::Default, Agent::Original, Agent::Strong];

impl Agent {
    /// The option value naming the agent.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Default => "default",
            Agent::Original => "original",
            Agent::Strong => "strong",
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

/// What an agent is asked: who plays, for what, with which parameters, and how (beam,
/// threads, the position's streak, clock).
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// The agent.
    pub agent: Agent,
    /// What it plays for.
    pub objective: Objective,
    /// The parameters.
    pub settings: &'a Settings,
    /// The beam the search starts from.
    pub beam: Beam,
    /// Search threads.
    pub threads: usize,
    /// The scoring rule and the position's streak (counted with objective `points`).
    pub tally: Tally,
    /// A clock will stop the search (`go movetime`, `go infinite`): the agent spends it.
    pub clock: bool,
}

impl Request<'static> {
    /// `agent` playing for `objective` with the engine's parameters and the objective's beam,
    /// one thread, no streak, no clock.
    pub fn new(agent: Agent, objective: Objective) -> Request<'static> {
        Request {
            agent,
            objective,
            settings: &SETTINGS,
            beam: objective.beam(),
            threads: 1,
            tally: Tally::default(),
            clock: false,
        }
    }
}

/// One search as the policy set it up: the agent that plays, whether points count, and
/// whether the dearer prices of a set where crises are rare apply.
#[derive(Clone, Copy)]
struct Plan {
    agent: Agent,
    points: bool,
    rare_crises: bool,
}

/// The answer of `req` to `hand` on `board`, with the next hands dealt from `set` (what the
/// strong agent weighs and the safety net of points looks at).
pub fn answer(
    board: Board,
    hand: &HandPieces,
    req: &Request,
    set: &[Piece],
    ctl: &Control,
) -> Outcome {
    // Given a clock, the default agent spends it as the strong agent does.
    let agent = if req.clock && req.agent == Agent::Default {
        Agent::Strong
    } else {
        req.agent
    };
    let points = req.objective == Objective::Points;
    let plan = Plan {
        agent,
        points,
        rare_crises: !points && crises_are_rare(set),
    };
    let (best, weighed) = play(plan, board, hand, req, set, ctl);
    let best = if points && agent != Agent::Original {
        safety_net(best, board, hand, req, set, ctl)
    } else {
        best
    };
    Outcome {
        best,
        nodes: ctl.nodes(),
        weighed,
    }
}

/// The search `plan` asks for; true with the answer when the strong agent weighed it.
fn play(
    plan: Plan,
    board: Board,
    hand: &HandPieces,
    req: &Request,
    set: &[Piece],
    ctl: &Control,
) -> (BestLine, bool) {
    let s = req.settings;
    let mut weights = s.weights;
    if plan.agent == Agent::Strong && plan.rare_crises {
        weights.nofit = s.next_hand.strong_nofit;
    }
    let valuation = Valuation {
        weights,
        lookahead: s.lookahead,
        points: plan.points.then_some(s.points),
    };
    let job = Job {
        board,
        hand,
        method: match plan.agent {
            Agent::Original => Method::Mobility,
            Agent::Default | Agent::Strong => Method::Beam,
        },
        valuation: &valuation,
        threads: req.threads,
        ctl,
        beam: req.beam,
        tally: req.tally,
    };
    if plan.agent != Agent::Strong {
        return (job.run().best, false);
    }
    let mut next = s.next_hand;
    if !plan.rare_crises {
        next.crisis_entry = 0;
    }
    // With a clock: more candidates, and next hands in batches until the clock stops it; the
    // price of a crisis entry answered crowded positions worse there and is not paid.
    let batches = if req.clock {
        next.candidates = TIMED_CANDIDATES;
        next.next_hands = SAMPLES;
        next.weigh_crowded = true;
        next.crisis_entry = 0;
        MAX_SAMPLES / SAMPLES
    } else {
        1
    };
    let (best, top) = strong::strong_base(job, next.crowded_unpruned);
    let dealer = Dealer::new(set);
    let weighing = Weighing {
        job,
        dealer: &dealer,
        next: &next,
        batches,
    };
    strong::choose(best, top, &weighing)
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
    set: &[Piece],
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
        agent: Agent::Strong,
        points: false,
        rare_crises: false,
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

/// [`answer`] on the game's own pieces from the request's beam, then (when `widen`) with
/// doubled beams until the full search completes or the control stops it; keeps the best
/// line found by any pass. An answer the strong agent weighed ends the widening: its hand
/// lookahead has spent the time on the boards that pass found best.
pub fn answer_widening(
    board: Board,
    hand: &HandPieces,
    req: &Request,
    ctl: &Control,
    widen: bool,
) -> Outcome {
    let mut beam = req.beam;
    let mut best: BestLine = None;
    loop {
        let out = answer(board, hand, &Request { beam, ..*req }, catalogue(), ctl);
        if out.weighed {
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
                weighed: false,
            };
        }
        beam = if beam[0] >= 64 {
            FULL_BEAM
        } else {
            [beam[0] * 2, beam[1] * 2, beam[2]]
        };
    }
}
