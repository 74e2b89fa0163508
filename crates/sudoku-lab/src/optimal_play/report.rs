//! What `check-play` prints: a line per game played, then the measurement as text lines or
//! one JSON object.

use std::fmt::Write as _;

use puzzle_rules::sudoku::Move;

use super::{share, Choice, PlayedGame, Tally};
use lab_kit::json::json_string;

/// The measurement as printed.
pub(super) struct Summary<'a> {
    /// The header line.
    pub(super) header: &'a str,
    /// Games played.
    pub(super) games: usize,
    /// Distinct positions reached (before `--min-filled`).
    pub(super) reached: usize,
    pub(super) tally: &'a Tally,
    /// Seconds the measurement took.
    pub(super) seconds: f64,
    /// Suboptimal choices printed.
    pub(super) worst: usize,
    /// The exact solver's nodes per position.
    pub(super) max_nodes: u64,
    /// Misses were asked again deeper.
    pub(super) rechecked: bool,
}

/// A line per game that gave positions.
pub(super) fn print_games(played: &[PlayedGame]) {
    for g in played {
        engine_kit::println_or_exit!(
            "game {} {} vs {}: steps {} positions {} new {}",
            g.number,
            g.first.name(),
            g.second.name(),
            g.steps,
            g.positions,
            g.new
        );
    }
}

impl Summary<'_> {
    /// Prints the measurement as one JSON object or as text lines.
    pub(super) fn print(&self, json: bool) {
        let Summary {
            header,
            games,
            reached,
            tally,
            seconds,
            worst,
            max_nodes,
            rechecked,
        } = *self;
        let kinds = tally.miss_kinds();
        let (p, lo, hi) = tally.optimal_share();
        let (cp, clo, chi) = share(tally.contested_optimal, tally.contested);
        let all_worst = tally.worst();
        let worst = &all_worst[..all_worst.len().min(worst)];
        if json {
            let worst: Vec<String> = worst.iter().map(|c| choice_json(c)).collect();
            engine_kit::println_or_exit!(
                "{{\"header\":{},\"games\":{games},\"reached\":{reached},\"positions\":{},\"solved\":{},\
                 \"skipped\":{},\"optimal\":{},\"share\":{p:.5},\"share_low\":{lo:.5},\
                 \"share_high\":{hi:.5},\"contested\":{},\"contested_optimal\":{},\"forbidden\":{},\
                 \"mean_lost\":{:.5},\"max_lost\":{},\"misses\":{},\"misses_unique\":{},\
                 \"misses_best_is_pass\":{},\"misses_worse_pass\":{},\"rechecked\":{},\"corrected\":{},\
                 \"unique_uncorrected\":{},\"worst\":[{}],\"seconds\":{seconds:.1}}}",
                json_string(header),
                tally.positions,
                tally.solved,
                tally.skipped,
                tally.optimal,
                tally.contested,
                tally.contested_optimal,
                tally.forbidden,
                tally.mean_lost(),
                tally.max_lost,
                kinds.misses,
                kinds.unique,
                kinds.best_is_pass,
                kinds.worse_pass,
                kinds.rechecked,
                kinds.corrected,
                kinds.unique_uncorrected,
                worst.join(",")
            );
            return;
        }
        engine_kit::println_or_exit!(
            "positions {} (of {reached} reached) solved {} skipped {} (over {} nodes)",
            tally.positions,
            tally.solved,
            tally.skipped,
            max_nodes
        );
        engine_kit::println_or_exit!(
            "optimal {}/{} = {:.1}% (95% {:.1}..{:.1}); contested positions {}: {}/{} = {:.1}% \
             (95% {:.1}..{:.1}); no or forbidden move {}",
            tally.optimal,
            tally.solved,
            100.0 * p,
            100.0 * lo,
            100.0 * hi,
            tally.contested,
            tally.contested_optimal,
            tally.contested,
            100.0 * cp,
            100.0 * clo,
            100.0 * chi,
            tally.forbidden
        );
        engine_kit::println_or_exit!(
            "points lost per move: mean {:.4} max {}; time {seconds:.0} s (exact solver {} s)",
            tally.mean_lost(),
            tally.max_lost,
            tally.solve_ms / 1000
        );
        engine_kit::println_or_exit!(
            "misses {}: on boards with one solution {}, only passes optimal {}, a pass chosen where \
             another pass was better {}",
            kinds.misses,
            kinds.unique,
            kinds.best_is_pass,
            kinds.worse_pass
        );
        if rechecked {
            engine_kit::println_or_exit!(
                "rechecked {}: corrected by the deeper search {}, not corrected on boards with one \
                 solution {}",
                kinds.rechecked,
                kinds.corrected,
                kinds.unique_uncorrected
            );
        }
        for (i, c) in worst.iter().enumerate() {
            engine_kit::println_or_exit!("worst {}: {}", i + 1, choice_text(c));
        }
    }
}

fn move_text(mv: Option<Move>) -> String {
    mv.map_or_else(|| "none".to_string(), |m| m.to_string())
}

fn moves_text(moves: &[Move]) -> String {
    let list: Vec<String> = moves.iter().map(Move::to_string).collect();
    list.join(" ")
}

fn value_text(v: Option<i32>) -> String {
    v.map_or("none".to_string(), |v| v.to_string())
}

/// `lost L | position ... | chose M value V | best M... value B | solutions S empty E [| pass]
/// [| recheck M value V]`.
fn choice_text(c: &Choice) -> String {
    let lost = c.lost().map_or("forbidden".to_string(), |l| l.to_string());
    let mut out = format!(
        "lost {lost} | {} | chose {} value {} | best {} value {} | solutions {} empty {}",
        c.position,
        move_text(c.chosen),
        value_text(c.chosen_value),
        moves_text(&c.best_moves),
        c.best,
        c.solutions,
        c.empty
    );
    if c.best_is_pass {
        out.push_str(" | only passes optimal");
    }
    if c.worse_pass {
        out.push_str(" | a worse pass");
    }
    if let Some((mv, v)) = c.recheck {
        let _ = write!(out, " | recheck {} value {}", move_text(mv), value_text(v));
    }
    out
}

fn choice_json(c: &Choice) -> String {
    let mut out = format!(
        "{{\"position\":{},\"chosen\":{}",
        json_string(&c.position),
        json_string(&move_text(c.chosen))
    );
    match (c.chosen_value, c.lost()) {
        (Some(v), Some(l)) => {
            let _ = write!(out, ",\"chosen_value\":{v},\"lost\":{l}");
        }
        _ => out.push_str(",\"chosen_value\":null,\"lost\":null"),
    }
    let best: Vec<String> = c
        .best_moves
        .iter()
        .map(|m| json_string(&m.to_string()))
        .collect();
    let _ = write!(
        out,
        ",\"best\":[{}],\"value\":{},\"best_is_pass\":{},\"worse_pass\":{},\"solutions\":{},\"empty\":{}",
        best.join(","),
        c.best,
        c.best_is_pass,
        c.worse_pass,
        c.solutions,
        c.empty
    );
    if let Some((mv, v)) = c.recheck {
        let _ = write!(
            out,
            ",\"recheck\":{},\"recheck_value\":{}",
            json_string(&move_text(mv)),
            v.map_or("null".to_string(), |v| v.to_string())
        );
    }
    out.push('}');
    out
}
