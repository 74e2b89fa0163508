//! The Blockudoku engine as a library: ask an agent for the placements of a hand.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use blockudoku::{best_placements, placements_text, Agent, GameState, Hand, Limits, Objective, Piece, Request};
//!
//! let hand = Hand::new(["1", "##/#.", "47"].map(|p| Some(Piece::parse(p).unwrap())).to_vec());
//! let request = Request::new(Agent::Default, Objective::Survive);
//! let limits = Limits { nodes: 20_000, ..Limits::default() };
//! let outcome = best_placements(&GameState::default(), &hand, &request, &limits, &AtomicBool::new(false));
//! let (line, _value) = outcome.best.expect("the hand fits the empty board");
//! assert_eq!(placements_text(&line).split(' ').count(), 3); // like "2@r1c1 1@r3c1 3@r1c3"
//! ```
//!
//! - [`best_placements`]: the placements of the whole hand an agent plays ([`Request`]: who
//!   plays, for what, with which [`Settings`] and [`Workers`]) within [`Limits`], as the
//!   engine's `go` answers; [`placements_text`] writes them as the protocol does.
//! - The game itself (board, pieces, hand, scoring) is the rules crate's
//!   (`puzzle_rules::blockudoku`), re-exported here: [`Board`], [`Piece`], [`Hand`],
//!   [`GameState`], [`Scoring`], [`catalogue`].
//! - [`record`]: game records (protocol/records.md, "Blockudoku"), written and replayed
//!   through the rules.
//! - [`serve`]: the `blockudoku 1` protocol on stdin/stdout (protocol/blockudoku.md), what
//!   the `blockudoku` binary runs.
//! - [`lab`]: what the measuring tools (`blockudoku-lab`) use beyond a player's needs.
//!
//! Inside, the way from `go` to `bestmove` runs one way: the protocol's text (commands in,
//! replies out, the option table), the session on `engine-kit`'s loop (and the original
//! GUI's legacy I/O), the agents (which search answers, with which parameters, objective
//! and clock), the search (pure computation, told when to stop) and the evaluation.
#![deny(missing_docs)]

use std::sync::atomic::AtomicBool;

mod agents;
mod analysis;
mod eval;
mod legacy;
mod protocol;
pub mod record;
mod search;
mod session;

pub use agents::{Agent, Limits, Objective, Request, Settings, AGENTS, OBJECTIVES};
pub use eval::{Weights, CLASSIC, LEARNED, WEIGHTS};
pub use protocol::placements_text;
pub use puzzle_rules::blockudoku::{catalogue, Board, GameState, Hand, Piece, Scoring};
pub use search::strong::{NextHand, Weighed};
pub use search::{
    Beam, BestLine, LookaheadParams, Outcome, PointsParams, Step, Tally, Workers, DEFAULT_BEAM,
    FULL_BEAM, POINTS_BEAM,
};
pub use session::serve;

/// The placements `request` plays for `hand` on `state` within `limits` (its scoring counts
/// from the position's streak), as the engine's `go` answers: the whole hand's
/// [`Step`]s in play order with their value (`None` when the hand cannot be placed), and
/// the nodes searched. Setting `stop` (from another thread, a clock) ends the search early
/// with the best line found so far.
pub fn best_placements(
    state: &GameState,
    hand: &Hand,
    request: &Request,
    limits: &Limits,
    stop: &AtomicBool,
) -> Outcome {
    let tally = Tally {
        streak: state.streak,
        ..request.tally
    };
    let request = Request {
        tally,
        ..request.clone()
    };
    agents::search(state.board, &hand.live(), &request, limits, stop)
}

pub mod lab {
    //! What the measuring tools (`blockudoku-lab`: self-play, hazard chains, crises,
    //! training) use beyond a player's needs: a hand searched on another piece set, the
    //! board a line leaves, the evaluation's terms and the learned value's network.
    pub use crate::agents::{answer, search};
    pub use crate::eval::learned::{Net, SHIPPED_CHECKSUM};
    pub use crate::eval::{evaluate, Terms};
    pub use crate::protocol::hand_tokens;
    pub use crate::search::{final_board, hand_of, Deal, HandPieces};
}
