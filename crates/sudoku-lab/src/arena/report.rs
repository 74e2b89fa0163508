//! What the arena prints and writes: the header line, the per-game line, the JSON lines and
//! the summary with its 95% Wilson interval, forfeit counts and answer times.

use std::time::Duration;

use lab_kit::json::json_string;
use puzzle_rules::sudoku::game::{Mode, Player};

use crate::record::{self, GameRecord, Side};
use sudoku_agent::protocol::position_line;

use super::answer::Answer;
use super::MoveLimit;

/// The C9 allowance: a `bestmove` later than this after the movetime is late.
const BESTMOVE_ALLOWANCE_MS: u64 = 10;

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
    /// The opening's number in its suite (from 1) when the match plays one.
    pub(super) opening: Option<usize>,
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
    /// Each side's answer times in this game (side 0 is the first agent).
    pub(super) timing: [Timing; 2],
    /// How long the referee took over its taboo decisions.
    pub(super) referee: RefereeTimes,
}

/// How far past the protocol's budget the referee had to go for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RefereeReach {
    /// Decided within `referee_nodes`.
    Budget,
    /// Decided within [`REFEREE_ESCALATION`] times the budget.
    Escalated,
    /// Decided only by the unbounded solve.
    Unbounded,
}

/// The second, larger budget of the arena's referee, in multiples of the protocol's: about
/// four seconds on a 25x25 board, where one budget is about a quarter of a second.
pub(super) const REFEREE_ESCALATION: usize = 16;

/// The referee's decisions: the longest, and how many needed more than the protocol's budget.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RefereeTimes {
    pub(super) longest: Longest,
    /// Moves decided within the larger budget, and only by the unbounded solve.
    pub(super) escalated: usize,
    pub(super) unbounded: usize,
}

impl RefereeTimes {
    /// Counts one decision that took `time` at (game, move).
    pub(super) fn add(&mut self, time: Duration, reach: RefereeReach, at: (usize, usize)) {
        self.longest.add(time, at);
        match reach {
            RefereeReach::Budget => {}
            RefereeReach::Escalated => self.escalated += 1,
            RefereeReach::Unbounded => self.unbounded += 1,
        }
    }

    fn merge(&mut self, other: &RefereeTimes) {
        self.longest.merge(&other.longest);
        self.escalated += other.escalated;
        self.unbounded += other.unbounded;
    }
}

/// The longest of some times, with the game and move where it was seen.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Longest {
    pub(super) time: Duration,
    /// Game number (from 1) and the move's number in that game (from 1).
    pub(super) at: Option<(usize, usize)>,
}

impl Longest {
    fn add(&mut self, time: Duration, at: (usize, usize)) {
        if self.at.is_none() || time > self.time {
            *self = Longest { time, at: Some(at) };
        }
    }

    fn merge(&mut self, other: &Longest) {
        if let Some(at) = other.at {
            self.add(other.time, at);
        }
    }

    fn text(&self) -> String {
        match self.at {
            Some((game, mv)) => format!(
                "{:.1} ms (game {game} move {mv})",
                self.time.as_secs_f64() * 1000.0
            ),
            None => "-".to_string(),
        }
    }
}

/// One side's answer times: from `go` to its first legal move (its first `propose` that the
/// rules accept, or its `bestmove` when no propose came before it) and to its `bestmove`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Timing {
    pub(super) moves: usize,
    pub(super) first_legal: Longest,
    pub(super) bestmove: Longest,
    /// Moves with no legal move proposed by the movetime: a framework that takes the last
    /// proposal at its deadline gets none.
    pub(super) missed: usize,
    /// Moves whose `bestmove` came more than the allowance after the movetime.
    pub(super) late: usize,
    /// Moves of an external agent with no `bestmove` before the arena stopped waiting.
    pub(super) silent: usize,
}

impl Timing {
    /// Counts one `go` of game `game` (numbered from 0), the game's move `mv`.
    pub(super) fn add(&mut self, answer: &Answer, limit: MoveLimit, game: usize, mv: usize) {
        let at = (game + 1, mv);
        self.moves += 1;
        let movetime = match limit {
            MoveLimit::Time(ms) => Some(Duration::from_millis(ms)),
            MoveLimit::Nodes(_) => None,
        };
        match answer.first_legal {
            Some(t) => {
                self.first_legal.add(t, at);
                if movetime.is_some_and(|m| t > m) {
                    self.missed += 1;
                }
            }
            None => self.missed += 1,
        }
        match answer.bestmove {
            Some(t) => {
                self.bestmove.add(t, at);
                let allowed = movetime.map(|m| m + Duration::from_millis(BESTMOVE_ALLOWANCE_MS));
                if allowed.is_some_and(|a| t > a) {
                    self.late += 1;
                }
            }
            None => self.silent += 1,
        }
    }

    fn merge(&mut self, other: &Timing) {
        self.moves += other.moves;
        self.first_legal.merge(&other.first_legal);
        self.bestmove.merge(&other.bestmove);
        self.missed += other.missed;
        self.late += other.late;
        self.silent += other.silent;
    }
}

/// The settings the header and the summary name.
pub(super) struct Setting<'a> {
    pub(super) board: &'a str,
    /// The opening file, its number of openings, and whether their modes differ.
    pub(super) openings: Option<(&'a str, usize, bool)>,
    pub(super) givens: Option<(usize, usize)>,
    pub(super) mode: Mode,
    pub(super) games: usize,
    /// Each side's limit per move (side 0 is the first agent).
    pub(super) limits: [MoveLimit; 2],
    pub(super) seed: u64,
    /// Games played at the same time.
    pub(super) threads: usize,
}

/// The run's first line: what was asked, each side's limit, the seed that reproduces it.
pub(super) fn header_line(names: [&str; 2], setting: &Setting) -> String {
    format!(
        "arena games {} seed {} {}{} mode {} first {} {} second {} {} threads {}",
        setting.games,
        setting.seed,
        match setting.openings {
            Some((path, n, _)) => format!("openings {path} ({n})"),
            None => format!("board {}", setting.board),
        },
        setting
            .givens
            .map(|(lo, hi)| format!(" givens {lo}-{hi}"))
            .unwrap_or_default(),
        mode_text(setting),
        names[0],
        setting.limits[0].text(),
        names[1],
        setting.limits[1].text(),
        setting.threads
    )
}

/// The mode as the header and summary name it: `mixed` for a suite of several modes.
fn mode_text(setting: &Setting) -> String {
    match setting.openings {
        Some((_, _, true)) => "mixed".to_string(),
        _ => setting.mode.to_string(),
    }
}

/// Finds, game by game in order, the games that repeat an earlier one (the same start and
/// the same moves).
#[derive(Default)]
pub(super) struct Repeats {
    first: std::collections::HashMap<(String, Vec<String>), usize>,
}

impl Repeats {
    /// The earlier game (numbered from 1) that `r` repeats; `r` is remembered when it repeats
    /// none.
    pub(super) fn of(&mut self, r: &GameResult) -> Option<usize> {
        use std::collections::hash_map::Entry;
        match self
            .first
            .entry((position_line(&r.start), r.history.clone()))
        {
            Entry::Occupied(first) => Some(*first.get()),
            Entry::Vacant(slot) => {
                slot.insert(r.index + 1);
                None
            }
        }
    }
}

/// For each game (in game order) the first earlier game it repeats move for move from the
/// same start, numbered from 1: a repeated game adds nothing a match can learn from.
pub(super) fn repeats(results: &[GameResult]) -> Vec<Option<usize>> {
    let mut seen = Repeats::default();
    results.iter().map(|r| seen.of(r)).collect()
}

/// A side's limit as the summary says it.
fn limit_words(limit: MoveLimit) -> String {
    match limit {
        MoveLimit::Time(ms) => format!("movetime {ms} ms"),
        MoveLimit::Nodes(n) => format!("{n} nodes per move"),
    }
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

/// The game's JSON object, one line (`repeat`: the earlier game it repeats, from 1).
pub(super) fn jsonl_line(
    r: &GameResult,
    repeat: Option<usize>,
    names: [&str; 2],
    movetime: u64,
    nodes: Option<u64>,
    limits: [MoveLimit; 2],
) -> String {
    // `"nodes":N` only in node-limited matches, so time-limited records keep their shape.
    let nodes = nodes.map(|n| format!(",\"nodes\":{n}")).unwrap_or_default();
    // With an opening suite, which opening and whether the game repeats an earlier one.
    let opening = r
        .opening
        .map(|k| {
            let repeat = repeat.map_or("null".to_string(), |g| g.to_string());
            format!(",\"opening\":{k},\"repeat_of\":{repeat}")
        })
        .unwrap_or_default();
    let forfeit = match &r.forfeit {
        Some((s, k, t)) => format!(
            "{{\"by\":\"{}\",\"kind\":\"{}\",\"detail\":{}}}",
            if *s == 0 { "first" } else { "second" },
            k.name(),
            json_string(t)
        ),
        None => "null".to_string(),
    };
    format!(
        "{{\"game\":{},\"first\":{},\"second\":{},\"first_player\":{},\"scores\":[{},{}],\"first_points\":{},\"forfeit\":{},\"moves\":{},\"start\":{},\"mode\":\"{}\",\"movetime\":{}{}{},\"first_limit\":\"{}\",\"second_limit\":\"{}\",\"history\":\"{}\"}}",
        r.index + 1,
        json_string(names[0]),
        json_string(names[1]),
        r.first_is.number(),
        r.scores[0],
        r.scores[1],
        r.points,
        forfeit,
        r.moves,
        json_string(&r.start_rows),
        r.start.mode(),
        movetime,
        nodes,
        opening,
        limits[0].text(),
        limits[1].text(),
        r.history.join(" ")
    )
}

/// The summary: setting, score with its 95% interval, forfeits, answer times, moves per game.
pub(super) fn print_summary(
    results: &[GameResult],
    names: [&str; 2],
    setting: &Setting,
    elapsed: Duration,
) {
    let n = results.len() as f64;
    let wins = results.iter().filter(|r| r.points == 1.0).count();
    let losses = results.iter().filter(|r| r.points == 0.0).count();
    let draws = results.len() - wins - losses;
    let mean = results.iter().map(|r| r.points).sum::<f64>() / n;
    let (lo, hi) = lab_kit::stats::wilson(mean, n, 1.959_964);
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
        match setting.openings {
            Some((path, 1, _)) => format!("1 opening of {path}"),
            Some((path, n, _)) => format!("{n} openings of {path}"),
            None => setting.board.to_string(),
        },
        setting
            .givens
            .map(|(lo, hi)| format!(" +{lo}-{hi} givens"))
            .unwrap_or_default(),
        mode_text(setting),
        results.len(),
        match setting.limits {
            [a, b] if a == b => limit_words(a),
            [a, b] => format!("{} vs {}", limit_words(a), limit_words(b)),
        },
        setting.seed,
        elapsed.as_secs_f64()
    );
    engine_kit::println_or_exit!(
        "{}: wins {wins} draws {draws} losses {losses} score {:.1}% (95% CI {:.1}%..{:.1}%)",
        names[0],
        100.0 * mean,
        100.0 * lo,
        100.0 * hi
    );
    let distinct = repeats(results).iter().filter(|r| r.is_none()).count();
    let player_wins = |p: Player| {
        results
            .iter()
            .filter(|r| (r.points == 1.0) == (r.first_is == p) && r.points != 0.5)
            .count()
    };
    engine_kit::println_or_exit!(
        "distinct games: {distinct} of {} (different move sequences or starts); player 1 won {}, player 2 won {}, drawn {draws}",
        results.len(),
        player_wins(Player::One),
        player_wins(Player::Two)
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
    for (side, name) in names.iter().enumerate() {
        let mut t = Timing::default();
        for r in results {
            t.merge(&r.timing[side]);
        }
        engine_kit::println_or_exit!(
            "times {name}: {} moves, go to first legal move max {}, go to bestmove max {}; no legal move by the movetime {}, bestmove over movetime+{BESTMOVE_ALLOWANCE_MS} ms {}, no bestmove {}",
            t.moves,
            t.first_legal.text(),
            t.bestmove.text(),
            t.missed,
            t.late,
            t.silent
        );
    }
    let mut referee = RefereeTimes::default();
    for r in results {
        referee.merge(&r.referee);
    }
    engine_kit::println_or_exit!(
        "referee: longest taboo decision {}; moves past its budget: {} decided within {REFEREE_ESCALATION} times the budget, {} only by an unbounded solve",
        referee.longest.text(),
        referee.escalated,
        referee.unbounded
    );
    engine_kit::println_or_exit!("moves per game: {moves:.1}");
}

/// The head of the `--record` file.
pub(super) fn record_header(names: [&str; 2]) -> String {
    format!(
        "{}\n# sudoku-lab arena: {} vs {}\n",
        record::HEADER,
        names[0],
        names[1]
    )
}

/// The game as a record.
pub(super) fn record_text(r: &GameResult, names: [&str; 2], limits: [MoveLimit; 2]) -> String {
    // Side 0 (the first agent) is player `first_is`.
    let side = |p: Player| if p == r.first_is { 0 } else { 1 };
    let sides = [Player::One, Player::Two].map(|p| Side {
        name: names[side(p)].to_string(),
        time: limits[side(p)].record_text(),
    });
    let forfeit = r.forfeit.as_ref().map(|(s, kind, detail)| {
        let player = if *s == 0 {
            r.first_is
        } else {
            r.first_is.other()
        };
        (player, format!("{} {detail}", kind.name()))
    });
    record::format_game(&GameRecord {
        number: r.index + 1,
        start: &r.start,
        sides,
        steps: &r.steps,
        forfeit,
        end: &r.end,
    })
}
