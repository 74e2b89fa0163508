//! What the arena prints and writes: the per-game line, the JSON lines and the summary
//! with its 95% Wilson interval and forfeit counts.

use std::fs::File;
use std::io::Write;
use std::time::Duration;

use puzzle_rules::sudoku::game::{Mode, Player};

/// How a side lost by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ForfeitKind {
    Illegal,
    TabooListed,
    NoMove,
}

impl ForfeitKind {
    pub(super) fn name(self) -> &'static str {
        match self {
            ForfeitKind::Illegal => "illegal",
            ForfeitKind::TabooListed => "taboo-listed",
            ForfeitKind::NoMove => "no-move",
        }
    }
}

#[derive(Clone, Debug)]
pub(super) struct GameResult {
    pub(super) index: usize,
    /// Which player the first agent was.
    pub(super) first_is: Player,
    pub(super) scores: [u32; 2],
    /// Result for the first agent: 1, 0.5, 0.
    pub(super) points: f64,
    pub(super) forfeit: Option<(usize, ForfeitKind, String)>,
    pub(super) moves: usize,
    pub(super) start_rows: String,
    /// Every move in order; taboo moves end in `!`, forced passes are `pass`.
    pub(super) history: Vec<String>,
    /// The start position, every step with who played it, and the end (for `--record`).
    pub(super) start: puzzle_rules::sudoku::game::Game,
    pub(super) steps: Vec<crate::record::Step>,
    pub(super) end: puzzle_rules::sudoku::game::Game,
}

/// The settings the summary line names.
pub(super) struct Setting<'a> {
    pub(super) board: &'a str,
    pub(super) givens: Option<(usize, usize)>,
    pub(super) mode: Mode,
    pub(super) movetime: u64,
    pub(super) nodes: Option<u64>,
    pub(super) seed: u64,
    pub(super) elapsed: Duration,
}

/// The line printed after each game (unless `--quiet`).
pub(super) fn game_line(r: &GameResult, names: [&str; 2]) -> String {
    let me = r.first_is.index();
    format!(
        "game {} {} (player {}) vs {}: {}-{} {}{} moves {}",
        r.index + 1,
        names[0],
        r.first_is.number(),
        names[1],
        r.scores[me],
        r.scores[1 - me],
        match r.points {
            1.0 => "win",
            0.0 => "loss",
            _ => "draw",
        },
        r.forfeit
            .as_ref()
            .map(|(s, k, t)| format!(" (forfeit by {}: {} {})", names[*s], k.name(), t))
            .unwrap_or_default(),
        r.moves
    )
}

/// One JSON object per game.
pub(super) fn write_jsonl(
    file: &mut File,
    results: &[GameResult],
    names: [&str; 2],
    mode: Mode,
    movetime: u64,
    nodes: Option<u64>,
) -> std::io::Result<()> {
    // `"nodes":N` only in node-limited matches, so time-limited records keep their shape.
    let nodes = nodes.map(|n| format!(",\"nodes\":{n}")).unwrap_or_default();
    for r in results {
        let forfeit = match &r.forfeit {
            Some((s, k, t)) => format!(
                "{{\"by\":\"{}\",\"kind\":\"{}\",\"detail\":\"{}\"}}",
                if *s == 0 { "first" } else { "second" },
                k.name(),
                json_escape(t)
            ),
            None => "null".to_string(),
        };
        writeln!(
            file,
            "{{\"game\":{},\"first\":\"{}\",\"second\":\"{}\",\"first_player\":{},\"scores\":[{},{}],\"first_points\":{},\"forfeit\":{},\"moves\":{},\"start\":\"{}\",\"mode\":\"{}\",\"movetime\":{}{},\"history\":\"{}\"}}",
            r.index + 1,
            json_escape(names[0]),
            json_escape(names[1]),
            r.first_is.number(),
            r.scores[0],
            r.scores[1],
            r.points,
            forfeit,
            r.moves,
            json_escape(&r.start_rows),
            mode,
            movetime,
            nodes,
            r.history.join(" ")
        )?;
    }
    Ok(())
}

/// The summary: setting, score with its 95% interval, forfeits, moves per game.
pub(super) fn print_summary(results: &[GameResult], names: [&str; 2], setting: &Setting) {
    let n = results.len() as f64;
    let wins = results.iter().filter(|r| r.points == 1.0).count();
    let losses = results.iter().filter(|r| r.points == 0.0).count();
    let draws = results.len() - wins - losses;
    let mean = results.iter().map(|r| r.points).sum::<f64>() / n;
    let (lo, hi) = engine_kit::stats::wilson(mean, n, 1.959_964);
    let count = |side: usize, kind: ForfeitKind| {
        results
            .iter()
            .filter(|r| matches!(r.forfeit, Some((s, k, _)) if s == side && k == kind))
            .count()
    };
    let moves = results.iter().map(|r| r.moves).sum::<usize>() as f64 / n;
    engine_kit::println_or_exit!(
        "arena: {} vs {} on {}{} {} mode, {} games, {}, seed {}, {:.1} s",
        names[0],
        names[1],
        setting.board,
        setting
            .givens
            .map(|(lo, hi)| format!(" +{lo}-{hi} givens"))
            .unwrap_or_default(),
        setting.mode,
        results.len(),
        match setting.nodes {
            Some(n) => format!("{n} nodes per move"),
            None => format!("movetime {} ms", setting.movetime),
        },
        setting.seed,
        setting.elapsed.as_secs_f64()
    );
    engine_kit::println_or_exit!(
        "{}: wins {wins} draws {draws} losses {losses} score {:.1}% (95% CI {:.1}%..{:.1}%)",
        names[0],
        100.0 * mean,
        100.0 * lo,
        100.0 * hi
    );
    for (side, name) in names.iter().enumerate() {
        let (i, t, m) = (
            count(side, ForfeitKind::Illegal),
            count(side, ForfeitKind::TabooListed),
            count(side, ForfeitKind::NoMove),
        );
        engine_kit::println_or_exit!(
            "forfeits {name}: {} (illegal {i}, taboo-listed {t}, no move {m})",
            i + t + m
        );
    }
    engine_kit::println_or_exit!("moves per game: {moves:.1}");
}

fn json_escape(s: &str) -> String {
    s.chars()
        .flat_map(|c| match c {
            '"' => "\\\"".chars().collect::<Vec<_>>(),
            '\\' => "\\\\".chars().collect(),
            c if (c as u32) < 0x20 => format!("\\u{:04x}", c as u32).chars().collect(),
            c => vec![c],
        })
        .collect()
}
