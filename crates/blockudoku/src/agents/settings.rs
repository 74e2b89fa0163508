//! Every tunable parameter of the engine, grouped by its owner, with one table for setting
//! them by name (`selfplay --weights`, agent specs `strong/name=value`).

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

/// The engine's parameters.
pub const SETTINGS: Settings = Settings {
    weights: WEIGHTS,
    lookahead: LOOKAHEAD,
    next_hand: NEXT_HAND,
    points: POINTS,
};

/// The names of the parameters that are not evaluation weights, in documentation order
/// (the evaluation weights are named as the `eval` reply's terms, `nofit` for both kinds of
/// hard piece).
pub const OTHER_NAMES: [&str; 16] = [
    "nofit_value",
    "crowded_below",
    "death_price",
    "low_risk_price",
    "low_risk_to",
    "candidates",
    "next_hands",
    "next_hand_beam",
    "weigh_crowded",
    "crowded_unpruned",
    "strong_nofit",
    "crisis_entry",
    "per_point",
    "open",
    "fill",
    "open_gate",
];

impl Settings {
    /// Sets the parameter called `name` (the field names of the four groups). Evaluation
    /// weights and prices are penalties and must not be negative; counts and widths are at
    /// least 1; a yes-or-no parameter is 0 or 1.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        let at_least = |min: i64| {
            if value < min {
                Err(format!("{name} must be at least {min}: {value}"))
            } else {
                Ok(value)
            }
        };
        let n = &mut self.next_hand;
        match name {
            "nofit_value" => self.lookahead.nofit_value = value,
            "crowded_below" => self.lookahead.crowded_below = value,
            "death_price" => n.death_price = at_least(0)?,
            "low_risk_price" => n.low_risk_price = at_least(0)?,
            "low_risk_to" => n.low_risk_to = at_least(0)?,
            "candidates" => n.candidates = at_least(1)? as usize,
            "next_hands" => n.next_hands = at_least(1)? as usize,
            "next_hand_beam" => n.next_hand_beam = at_least(1)? as usize,
            "weigh_crowded" => n.weigh_crowded = yes_or_no(name, value)?,
            "crowded_unpruned" => n.crowded_unpruned = yes_or_no(name, value)?,
            "strong_nofit" => n.strong_nofit = at_least(0)?,
            "crisis_entry" => n.crisis_entry = at_least(0)?,
            "per_point" => self.points.per_point = at_least(1)?,
            "open" | "fill" | "open_gate" => {
                *self.points.by_name(name).expect("a points parameter") = value
            }
            _ => {
                let w = self.weights.by_name(name).ok_or_else(|| {
                    format!(
                        "unknown weight {name} (the eval terms but nofit_diag, or {})",
                        OTHER_NAMES.join(", ")
                    )
                })?;
                *w = at_least(0).map_err(|_| format!("weight {name} is negative: {value}"))?;
            }
        }
        Ok(())
    }
}

/// A yes-or-no parameter given as 1 or 0.
fn yes_or_no(name: &str, value: i64) -> Result<bool, String> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(format!("{name} is 0 or 1: {value}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_checks_names_and_signs() {
        let mut s = SETTINGS;
        s.set("cornered", 7).unwrap();
        assert_eq!(s.weights.cornered, 7);
        assert!(s.set("cornered", -1).is_err());
        assert!(s.set("corners", 1).is_err());
        s.set("nofit_value", -5).unwrap();
        assert_eq!(s.lookahead.nofit_value, -5);
        assert!(s.set("low_risk_price", -1).is_err());
        assert!(s.set("low_risk_to", -1).is_err());
        assert!(s.set("next_hands", 0).is_err());
        assert!(s.set("per_point", 0).is_err());
        s.set("weigh_crowded", 0).unwrap();
        assert!(!s.next_hand.weigh_crowded);
        assert!(s.set("crowded_unpruned", 2).is_err());
        s.set("open_gate", -7).unwrap();
        assert_eq!(s.points.open_gate, -7);
    }

    // Every parameter has a name that sets it, and there are at most 30 of them.
    #[test]
    fn every_parameter_is_set_by_its_name() {
        let eval_names = crate::eval::Terms::default().named().map(|(n, _)| n);
        let mut names: Vec<&str> = eval_names
            .iter()
            .copied()
            .filter(|&n| n != "nofit_diag")
            .collect();
        names.extend(OTHER_NAMES);
        assert_eq!(names.len(), 30);
        for name in names {
            let changes = |v: i64| {
                let mut s = SETTINGS;
                s.set(name, v).is_ok() && s != SETTINGS
            };
            assert!(changes(0) || changes(2), "{name}");
        }
    }

    // The price of a death chance: `death_price` per unit, and `low_risk_price` more per
    // unit up to the bend, so the price is continuous, steep below the bend and as before
    // above it.
    #[test]
    fn death_cost_is_steep_below_its_bend() {
        let mut s = SETTINGS;
        s.set("death_price", 1_000).unwrap();
        s.set("low_risk_price", 0).unwrap();
        assert_eq!(s.next_hand.death_cost(0.5), 500.0);
        s.set("low_risk_price", 9_000).unwrap();
        s.set("low_risk_to", 0).unwrap();
        assert_eq!(
            s.next_hand.death_cost(0.5),
            500.0,
            "no bend: nothing steeper"
        );
        s.set("low_risk_to", 100_000).unwrap();
        let w = s.next_hand;
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert_eq!(w.death_cost(0.0), 0.0);
        assert!(close(w.death_cost(0.05), 500.0));
        assert!(close(w.death_cost(0.1), 1_000.0));
        assert!(close(w.death_cost(0.5), 1_400.0));
    }
}
