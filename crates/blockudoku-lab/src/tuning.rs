//! Tuning overrides: the engine's parameters set by name, as `selfplay --weights` and agent
//! specs (`strong/name=value`) give them. The engine itself plays with
//! `Settings::default()`; only the lab sets parameters by name.

use blockudoku::{PointsParams, Settings, Weights};

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

/// Sets the parameter called `name` of `settings` (the field names of the four groups).
/// Evaluation weights and prices are penalties and must not be negative; counts and widths are
/// at least 1; a yes-or-no parameter is 0 or 1.
pub(crate) fn set(settings: &mut Settings, name: &str, value: i64) -> Result<(), String> {
    let at_least = |min: i64| {
        if value < min {
            Err(format!("{name} must be at least {min}: {value}"))
        } else {
            Ok(value)
        }
    };
    let n = &mut settings.next_hand;
    match name {
        "nofit_value" => settings.lookahead.nofit_value = value,
        "crowded_below" => settings.lookahead.crowded_below = value,
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
        "per_point" => settings.points.per_point = at_least(1)?,
        "open" | "fill" | "open_gate" => {
            *points_by_name(&mut settings.points, name).expect("a points parameter") = value
        }
        _ => {
            let w = weight_by_name(&mut settings.weights, name).ok_or_else(|| {
                format!(
                    "unknown weight {name} (the eval terms but nofit_diag, learned, or {})",
                    OTHER_NAMES.join(", ")
                )
            })?;
            *w = at_least(0).map_err(|_| format!("weight {name} is negative: {value}"))?;
        }
    }
    Ok(())
}

/// A yes-or-no parameter given as 1 or 0.
fn yes_or_no(name: &str, value: i64) -> Result<bool, String> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(format!("{name} is 0 or 1: {value}")),
    }
}

/// The weight called `name` (the field names).
fn weight_by_name<'a>(w: &'a mut Weights, name: &str) -> Option<&'a mut i64> {
    Some(match name {
        "sq_center" => &mut w.sq_center,
        "sq_side" => &mut w.sq_side,
        "sq_corner" => &mut w.sq_corner,
        "box_center" => &mut w.box_center,
        "box_side" => &mut w.box_side,
        "box_corner" => &mut w.box_corner,
        "ends" => &mut w.ends,
        "ends_aligned" => &mut w.ends_aligned,
        "cornered" => &mut w.cornered,
        "squashed" => &mut w.squashed,
        "squashed_edge" => &mut w.squashed_edge,
        "bar3" => &mut w.bar3,
        "nofit" => &mut w.nofit,
        "scarcity" => &mut w.scarcity,
        "learned" => &mut w.learned,
        _ => return None,
    })
}

/// The worth of points parameter called `name` (the field names).
fn points_by_name<'a>(p: &'a mut PointsParams, name: &str) -> Option<&'a mut i64> {
    Some(match name {
        "per_point" => &mut p.per_point,
        "open" => &mut p.open,
        "fill" => &mut p.fill,
        "open_gate" => &mut p.open_gate,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_checks_names_and_signs() {
        let mut s = Settings::default();
        set(&mut s, "cornered", 7).unwrap();
        assert_eq!(s.weights.cornered, 7);
        assert!(set(&mut s, "cornered", -1).is_err());
        assert!(set(&mut s, "corners", 1).is_err());
        set(&mut s, "nofit_value", -5).unwrap();
        assert_eq!(s.lookahead.nofit_value, -5);
        assert!(set(&mut s, "low_risk_price", -1).is_err());
        assert!(set(&mut s, "low_risk_to", -1).is_err());
        assert!(set(&mut s, "next_hands", 0).is_err());
        assert!(set(&mut s, "per_point", 0).is_err());
        set(&mut s, "weigh_crowded", 0).unwrap();
        assert!(!s.next_hand.weigh_crowded);
        assert!(set(&mut s, "crowded_unpruned", 2).is_err());
        set(&mut s, "open_gate", -7).unwrap();
        assert_eq!(s.points.open_gate, -7);
    }

    // Every parameter has a name that sets it, and there are at most 31 of them.
    #[test]
    fn every_parameter_is_set_by_its_name() {
        let eval_names = blockudoku::lab::Terms::default().named().map(|(n, _)| n);
        let mut names: Vec<&str> = eval_names
            .iter()
            .copied()
            .filter(|&n| n != "nofit_diag")
            .collect();
        names.push("learned");
        names.extend(OTHER_NAMES);
        assert_eq!(names.len(), 31);
        for name in names {
            let changes = |v: i64| {
                let mut s = Settings::default();
                set(&mut s, name, v).is_ok() && s != Settings::default()
            };
            assert!(changes(0) || changes(2), "{name}");
        }
    }

    // The price of a death chance: `death_price` per unit, and `low_risk_price` more per
    // unit up to the bend, so the price is continuous, steep below the bend and as before
    // above it.
    #[test]
    fn death_cost_is_steep_below_its_bend() {
        let mut s = Settings::default();
        set(&mut s, "death_price", 1_000).unwrap();
        set(&mut s, "low_risk_price", 0).unwrap();
        assert_eq!(s.next_hand.death_cost(0.5), 500.0);
        set(&mut s, "low_risk_price", 9_000).unwrap();
        set(&mut s, "low_risk_to", 0).unwrap();
        assert_eq!(
            s.next_hand.death_cost(0.5),
            500.0,
            "no bend: nothing steeper"
        );
        set(&mut s, "low_risk_to", 100_000).unwrap();
        let w = s.next_hand;
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert_eq!(w.death_cost(0.0), 0.0);
        assert!(close(w.death_cost(0.05), 500.0));
        assert!(close(w.death_cost(0.1), 1_000.0));
        assert!(close(w.death_cost(0.5), 1_400.0));
    }
}
