//! Every tunable parameter of the engine, grouped by its owner. Setting them by name (the
//! lab's `selfplay --weights`, agent specs `strong/name=value`) is the lab's business
//! (`blockudoku-lab`): the engine plays with [`Settings::default`].

use crate::eval::{Weights, WEIGHTS};
use crate::search::lookahead::{LookaheadParams, LOOKAHEAD};
use crate::search::points::{PointsParams, POINTS};
use crate::search::strong::{NextHand, NEXT_HAND};

/// The parameters the agents play with: the evaluation's weights, the one-piece lookahead's
/// settings, the strong agent's next-hand lookahead and the worth of points (used only by
/// objective `points`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The evaluation's weights.
    pub weights: Weights,
    /// The one-piece lookahead's settings.
    pub lookahead: LookaheadParams,
    /// The strong agent's parameters.
    pub next_hand: NextHand,
    /// The worth of points (objective `points`).
    pub points: PointsParams,
}

impl Default for Settings {
    /// The engine's parameters.
    fn default() -> Settings {
        Settings {
            weights: WEIGHTS,
            lookahead: LOOKAHEAD,
            next_hand: NEXT_HAND,
            points: POINTS,
        }
    }
}
