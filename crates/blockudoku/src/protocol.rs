//! The `blockudoku 1` line protocol: lines in -> [`Command`], engine facts -> reply lines.
//!
//! Parsing is total: every byte sequence gives a command or an error message, never a panic
//! (a property test feeds it arbitrary bytes and grammar-built token soup). The option table
//! [`options`] drives `setoption` validation, the `hello` reply and the protocol document.

use std::time::Duration;

use engine_kit::head::{bestmove, no_args, number, GoLimits};
use engine_kit::options::{OptionSpec, OptionTable};
use puzzle_rules::blockudoku::{Board, GameState, Hand, Piece, Scoring, SCORINGS};

use crate::agents::{Agent, Limits, Objective, AGENTS, OBJECTIVES};
use crate::search::{Outcome, Step};

pub mod analyse;
mod quoting;
pub use analyse::AnalyseRequest;
pub use quoting::{quoted, shown};
use quoting::{refused_board, refused_piece, twice};

/// Protocol name and version announced by `hello`.
pub const PROTOCOL: &str = "blockudoku 1";

/// Every option the engine understands: drives `setoption` parsing and the `hello` reply.
pub fn options() -> OptionTable<Setting> {
    OptionTable {
        specs: vec![
            OptionSpec::spin("Threads", 1, 1, 64, |n| Setting::Threads(n as usize)),
            OptionSpec::combo(
                "Scoring",
                "blockudoku",
                SCORINGS.iter().map(|s| s.name()).collect(),
                |v| v.parse().ok().map(Setting::Scoring),
            ),
            OptionSpec::combo(
                "Agent",
                "default",
                AGENTS.iter().map(|a| a.name()).collect(),
                |v| Agent::from_name(v).map(Setting::Agent),
            ),
            OptionSpec::combo(
                "Objective",
                "survive",
                OBJECTIVES.iter().map(|o| o.name()).collect(),
                |v| Objective::from_name(v).map(Setting::Objective),
            ),
        ],
    }
}

/// A validated option setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Search threads.
    Threads(usize),
    /// Scoring rule.
    Scoring(Scoring),
    /// Agent.
    Agent(Agent),
    /// What the agent plays for.
    Objective(Objective),
}

/// What the search may spend for `limits`: a bare `go` answers at once from the objective's
/// beam; given time or nodes it widens; `movetime` and `infinite` give it a clock to spend.
pub fn search_limits(limits: &GoLimits) -> Limits {
    let clock = limits.movetime.is_some() || limits.infinite;
    Limits {
        nodes: limits.nodes.unwrap_or(u64::MAX),
        widen: clock || limits.nodes.is_some(),
        clock,
    }
}

/// One placement as written: hand slot (1-based) and top-left cell (0-based row, col).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacementText {
    /// Hand slot, 1-based.
    pub slot: usize,
    /// Row, 0-based.
    pub row: usize,
    /// Column, 0-based.
    pub col: usize,
}

/// One input line, understood.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `position ...`.
    Position {
        /// Board, score and streak.
        state: GameState,
        /// The hand.
        hand: Hand,
    },
    /// `play <placement>...`.
    Play(Vec<PlacementText>),
    /// `show`.
    Show,
    /// `eval`.
    Eval,
    /// `catalogue`: the shapes of the 47 catalogue pieces.
    Catalogue,
    /// `fits`: whether each piece of the hand fits somewhere on the board on its own.
    Fits,
    /// `analyse ...`: the agent's line and alternatives with their figures.
    Analyse(AnalyseRequest),
    /// One-shot line `<board> <p> [<p> [<p>]]`.
    OneShot {
        /// The board.
        board: Board,
        /// The pieces.
        hand: Hand,
    },
}

/// Highest `score` a `position` accepts: 2^53, exact in a double (front ends in JavaScript
/// read it unrounded) and far from `u64::MAX`, so playing on from it can never wrap.
pub const MAX_SCORE: u64 = 1 << 53;

/// Highest `streak` a `position` accepts: 2^31 - 1 (a signed 32-bit number), far from
/// `u32::MAX`, so playing on from it can never wrap.
pub const MAX_STREAK: u64 = i32::MAX as u64;

/// A `play` that would take the score past [`MAX_SCORE`] or the streak past [`MAX_STREAK`]
/// is refused with this error (`state` is the position it would leave), so every `play`
/// reply is itself a valid `position`.
pub fn check_play_limits(state: &GameState) -> Result<(), String> {
    if state.score > MAX_SCORE {
        return Err(format!(
            "play: score would be {}, more than {MAX_SCORE}",
            state.score
        ));
    }
    if u64::from(state.streak) > MAX_STREAK {
        return Err(format!(
            "play: streak would be {}, more than {MAX_STREAK}",
            state.streak
        ));
    }
    Ok(())
}

/// Keywords of `position` that end the piece list.
const POSITION_KEYWORDS: [&str; 5] = ["board", "empty", "pieces", "score", "streak"];

fn parse_pieces<'a>(
    toks: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
) -> Result<Hand, String> {
    let mut hand = Vec::new();
    while let Some(&t) = toks.peek() {
        if POSITION_KEYWORDS.contains(&t) {
            break;
        }
        toks.next();
        if hand.len() == 3 {
            return Err(format!("a hand has at most 3 pieces, got {}", quoted(t)));
        }
        if t == "-" {
            hand.push(None);
        } else {
            let piece = Piece::parse(t).map_err(|e| refused_piece(t, e))?;
            hand.push(Some(piece));
        }
    }
    if hand.iter().all(|p| p.is_none()) {
        return Err("needs 1 to 3 pieces".into());
    }
    Ok(Hand::new(hand))
}

fn parse_position<'a>(toks: impl Iterator<Item = &'a str>) -> Result<Command, String> {
    let mut toks = toks.peekable();
    let mut state = GameState::default();
    match toks.next() {
        Some("empty") => {}
        Some("board") => {
            let b = toks.next().ok_or("board needs a value")?;
            state.board = Board::parse(b).map_err(|e| refused_board(b, e))?;
        }
        Some("pieces") => return finish_position(state, parse_pieces(&mut toks)?, toks),
        Some(other) => return Err(format!("unexpected {}", quoted(other))),
        None => return Err("needs pieces".into()),
    }
    match toks.next() {
        Some("pieces") => {}
        Some("board") => return Err(twice("board")),
        Some("empty") => return Err("unexpected 'empty' after the board".into()),
        Some(other) => return Err(format!("expected pieces, got {}", quoted(other))),
        None => return Err("needs pieces".into()),
    }
    let hand = parse_pieces(&mut toks)?;
    finish_position(state, hand, toks)
}

fn finish_position<'a>(
    mut state: GameState,
    hand: Hand,
    mut toks: impl Iterator<Item = &'a str>,
) -> Result<Command, String> {
    let (mut score_seen, mut streak_seen) = (false, false);
    while let Some(t) = toks.next() {
        match t {
            "score" if score_seen => return Err(twice(t)),
            "streak" if streak_seen => return Err(twice(t)),
            "score" => {
                state.score = number("score", toks.next(), 0, MAX_SCORE)?;
                score_seen = true;
            }
            "streak" => {
                let v = number("streak", toks.next(), 0, MAX_STREAK)?;
                state.streak = u32::try_from(v).expect("MAX_STREAK fits a u32");
                streak_seen = true;
            }
            "pieces" => return Err(twice(t)),
            "board" | "empty" => return Err(format!("{} must come before pieces", quoted(t))),
            other => return Err(format!("unexpected {}", quoted(other))),
        }
    }
    Ok(Command::Position { state, hand })
}

/// Parses `<slot>@r<row>c<col>`.
pub fn parse_placement(tok: &str) -> Result<PlacementText, String> {
    let bad = || format!("bad placement {} (want <slot>@r<row>c<col>)", quoted(tok));
    let (slot, cell) = tok.split_once('@').ok_or_else(bad)?;
    let cell = cell.strip_prefix('r').ok_or_else(bad)?;
    let (row, col) = cell.split_once('c').ok_or_else(bad)?;
    let digit = |s: &str| -> Result<usize, String> {
        if s.len() == 1 && s.as_bytes()[0].is_ascii_digit() {
            Ok((s.as_bytes()[0] - b'0') as usize)
        } else {
            Err(bad())
        }
    };
    let (slot, row, col) = (digit(slot)?, digit(row)?, digit(col)?);
    if !(1..=3).contains(&slot) {
        return Err(format!("slot must be 1 to 3 in {}", quoted(tok)));
    }
    if !(1..=9).contains(&row) || !(1..=9).contains(&col) {
        return Err(format!("row and column must be 1 to 9 in {}", quoted(tok)));
    }
    Ok(PlacementText {
        slot,
        row: row - 1,
        col: col - 1,
    })
}

/// The name of a one-shot line (`<board> <p> [<p> [<p>]]`) in its error messages.
pub const ONE_SHOT: &str = "one-shot";

/// Parses one line of the game's own commands (without its line end; a trailing `\r` is
/// whitespace); `Ok(None)` when its first word names none (the shared head, `hello` to
/// `quit`, is read by `engine_kit::head`). The error is the reply after `error `:
/// `<command>: <what was wrong>` with the offending input quoted ([`quoted`]).
pub fn parse_line(line: &str) -> Result<Option<Command>, String> {
    let mut toks = line.split_whitespace();
    let Some(first) = toks.next() else {
        return Ok(None);
    };
    let named = |what: String| format!("{first}: {what}");
    let cmd = match first {
        "show" => no_args(first, Command::Show, toks)?,
        "eval" => no_args(first, Command::Eval, toks)?,
        "catalogue" => no_args(first, Command::Catalogue, toks)?,
        "fits" => no_args(first, Command::Fits, toks)?,
        "position" => parse_position(toks).map_err(named)?,
        "analyse" => Command::Analyse(analyse::parse(toks).map_err(named)?),
        "play" => Command::Play(parse_play(toks).map_err(named)?),
        _ if looks_like_board(first) => {
            parse_one_shot(first, toks).map_err(|e| format!("{ONE_SHOT}: {e}"))?
        }
        _ => return Ok(None),
    };
    Ok(Some(cmd))
}

/// The placements of a `play`.
fn parse_play<'a>(toks: impl Iterator<Item = &'a str>) -> Result<Vec<PlacementText>, String> {
    let placements = toks.map(parse_placement).collect::<Result<Vec<_>, _>>()?;
    match placements.len() {
        0 => Err("needs 1 to 3 placements".into()),
        1..=3 => Ok(placements),
        _ => Err("takes at most 3 placements".into()),
    }
}

/// A one-shot line: its board `first`, then one to three pieces.
fn parse_one_shot<'a>(first: &str, toks: impl Iterator<Item = &'a str>) -> Result<Command, String> {
    let board = Board::parse(first).map_err(|e| refused_board(first, e))?;
    let mut hand = Vec::new();
    for t in toks {
        if hand.len() == 3 {
            return Err(format!("a hand has at most 3 pieces, got {}", quoted(t)));
        }
        hand.push(Some(Piece::parse(t).map_err(|e| refused_piece(t, e))?));
    }
    if hand.is_empty() {
        return Err("needs 1 to 3 pieces after the board".into());
    }
    let hand = Hand::new(hand);
    Ok(Command::OneShot { board, hand })
}

// A token made only of board characters and long enough to be meant as a board; shorter
// ones (`hello` typos, digits) stay unknown commands.
fn looks_like_board(tok: &str) -> bool {
    tok.len() >= 9
        && tok
            .chars()
            .all(|c| matches!(c, '.' | '#' | '0' | '1' | '/'))
}

/// `r<row>c<col>` of cell index `row * 9 + col`.
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

/// The placements of a line as protocol words (`1@r1c1 2@r2c1`).
pub fn placements_text(line: &[Step]) -> String {
    let moves: Vec<String> = line
        .iter()
        .map(|s| format!("{}@{}", s.slot + 1, cell_name(s.anchor as usize)))
        .collect();
    moves.join(" ")
}

/// The `bestmove` line for a search result.
pub fn bestmove_line(best: Option<&[Step]>) -> String {
    bestmove(best.map(placements_text))
}

/// The reply to `go`: one `info` line (nodes, speed over the `searched` time, `time` since
/// the `go` line was read, the evaluation and line when there is a move, and what the strong
/// agent's weighing did when it chose it), then `bestmove`.
pub fn go_reply(out: &Outcome, searched: Duration, since_go: Duration) -> [String; 2] {
    let ms = since_go.as_millis() as u64;
    let nps = (out.nodes as f64 / searched.as_secs_f64().max(1e-6)) as u64;
    let info = match &out.best {
        Some((line, value)) => format!(
            "info nodes {} nps {nps} time {ms} eval {value} pv {}",
            out.nodes,
            placements_text(line)
        ),
        None => format!("info nodes {} nps {nps} time {ms}", out.nodes),
    };
    let info = match out.weighed {
        Some(w) => format!(
            "{info} stages {} candidates {} hands {}",
            w.stages, w.candidates, w.hands
        ),
        None => info,
    };
    [info, bestmove_line(out.best.as_ref().map(|b| &b.0[..]))]
}

/// The hand as protocol tokens (`-` for played slots).
pub fn hand_tokens(hand: &Hand) -> String {
    hand.slots
        .iter()
        .map(|p| p.as_ref().map_or("-".to_string(), |p| p.to_string()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The reply to `play`.
pub fn position_line(state: &GameState, hand: &Hand, cleared: u32) -> String {
    format!(
        "position board {} pieces {} score {} streak {} cleared {cleared}",
        state.board,
        hand_tokens(hand),
        state.score,
        state.streak
    )
}

/// The `catalogue` reply: every catalogue piece as `<id>:<shape>`, in id order, on one line
/// (front ends draw pieces from it, so the engine's catalogue is the only one).
pub fn catalogue_line() -> String {
    let mut line = String::from("catalogue");
    for piece in puzzle_rules::blockudoku::catalogue() {
        let id = piece.id().expect("catalogue pieces have ids");
        line += &format!(" {id}:{}", piece.shape());
    }
    line
}

/// The `fits` reply: per hand slot `1` (its piece fits somewhere on the board on its own), `0`
/// (it fits nowhere) or `-` (played); `fits none` for no hand. No search: front ends grey out
/// the pieces that cannot be placed.
pub fn fits_line(state: &GameState, hand: &Hand) -> String {
    let mut line = String::from("fits");
    for slot in hand.fitting(state.board) {
        line += match slot {
            Some(true) => " 1",
            Some(false) => " 0",
            None => " -",
        };
    }
    if hand.slots.is_empty() {
        line += " none";
    }
    line
}

/// The `show` drawing: a header, nine numbered rows, then the hand and the score.
pub fn show_lines(state: &GameState, hand: &Hand) -> Vec<String> {
    let mut out = vec!["   1 2 3 4 5 6 7 8 9".to_string()];
    for r in 0..9 {
        let cells: Vec<&str> = (0..9)
            .map(|c| {
                if state.board.is_filled(r, c) {
                    "#"
                } else {
                    "."
                }
            })
            .collect();
        out.push(format!("r{} {}", r + 1, cells.join(" ")));
    }
    out.push(format!(
        "pieces {} score {} streak {}",
        if hand.slots.is_empty() {
            "none".into()
        } else {
            hand_tokens(hand)
        },
        state.score,
        state.streak
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use engine_kit::fuzz;

    /// The reply after `error ` to `line` as the session reads it (the shared head's words
    /// are the kit's, tested there).
    fn error_of(line: &str) -> String {
        engine_kit::session::refusal(&mut Session::new(), line).expect("an error")
    }

    /// The game command `line` is.
    fn command(line: &str) -> Command {
        parse_line(line).unwrap().expect("a command")
    }

    #[test]
    fn parses_the_grammar() {
        assert_eq!(parse_line("  \r").unwrap(), None);
        assert_eq!(parse_line("isready\r").unwrap(), None);
        assert!(
            matches!(command("position empty pieces 1 2 3 score 5 streak 1"),
            Command::Position { state, hand } if state.score == 5 && state.streak == 1 && hand.slots.len() == 3)
        );
        assert!(matches!(command("position pieces ##/#. - 3"),
            Command::Position { hand, .. } if hand.slots[1].is_none()));
        assert_eq!(
            command("play 1@r1c1 3@r9c9"),
            Command::Play(vec![
                PlacementText {
                    slot: 1,
                    row: 0,
                    col: 0
                },
                PlacementText {
                    slot: 3,
                    row: 8,
                    col: 8
                }
            ])
        );
        assert!(matches!(
            command(&format!("{} 1 2 3", ".".repeat(81))),
            Command::OneShot { .. }
        ));
        assert_eq!(
            options().parse_setoption("name threads value 2".split_whitespace()),
            Ok(Setting::Threads(2))
        );
    }

    #[test]
    fn rejects_bad_input_with_messages() {
        for (line, msg) in [
            ("position", "position: needs pieces"),
            ("position garbage", "position: unexpected 'garbage'"),
            (
                "setoption name Threads value 0",
                "setoption: Threads must be 1 to 64, got '0'",
            ),
            (
                "position empty pieces 48",
                "position: piece '48': unknown piece id 48 (ids are 1-47)",
            ),
            (
                "play 1@r0c1",
                "play: row and column must be 1 to 9 in '1@r0c1'",
            ),
            ("play", "play: needs 1 to 3 placements"),
            ("frobnicate", "unknown command 'frobnicate'"),
            ("\u{1b}[2J", "unknown command '\\u{1b}[2J'"),
        ] {
            assert_eq!(error_of(line), msg, "{line}");
        }
    }

    #[test]
    fn refuses_numbers_that_could_wrap_naming_the_field() {
        let max = u64::MAX;
        for (line, msg) in [
            (
                format!("position empty pieces 1 score {max}"),
                format!("position: score must be 0 to {MAX_SCORE}, got '{max}'"),
            ),
            (
                format!("position empty pieces 1 score {}", MAX_SCORE + 1),
                format!(
                    "position: score must be 0 to {MAX_SCORE}, got '{}'",
                    MAX_SCORE + 1
                ),
            ),
            (
                "position empty pieces 1 streak 4294967295".into(),
                format!("position: streak must be 0 to {MAX_STREAK}, got '4294967295'"),
            ),
        ] {
            assert_eq!(error_of(&line), msg, "{line}");
        }
        // The limits themselves are accepted.
        let top = format!("position empty pieces 1 score {MAX_SCORE} streak {MAX_STREAK}");
        assert!(matches!(command(&top),
            Command::Position { state, .. } if state.score == MAX_SCORE && state.streak as u64 == MAX_STREAK));
    }

    const EMPTY: &str =
        "........./........./........./........./........./........./........./........./.........";

    #[test]
    fn refuses_repeated_keywords_naming_them() {
        for (line, msg) in [
            (
                "position empty pieces 1 score 1 score 2",
                "position: 'score' given twice",
            ),
            (
                "position empty pieces 1 streak 1 score 3 streak 2",
                "position: 'streak' given twice",
            ),
            (
                "position empty pieces 1 pieces 2",
                "position: 'pieces' given twice",
            ),
            (
                &format!("position board {EMPTY} board {EMPTY} pieces 1"),
                "position: 'board' given twice",
            ),
        ] {
            assert_eq!(error_of(line), msg, "{line}");
        }
    }

    #[test]
    fn every_error_names_its_command() {
        for line in [
            "hello there",
            "position empty pieces ##/#",
            "position board ..x pieces 1",
            "go depth 3",
            "play r1c1",
            "setoption name Scoring value golf",
            "setoption name Agent value best",
            ".........# 1 2 3",
            "......... 1 2 3 4",
        ] {
            let e = error_of(line);
            let command = line.split(' ').next().unwrap();
            let want = if command.starts_with('.') {
                ONE_SHOT
            } else {
                command
            };
            assert!(e.starts_with(&format!("{want}: ")), "{line}: {e}");
            assert!(
                e.contains('\''),
                "{line}: the offending input is quoted: {e}"
            );
        }
    }

    /// Lines of the grammar's words, of board, piece and placement characters, and of any
    /// bytes: each parses or is refused with one printable line, never a panic.
    #[test]
    fn fuzzed_lines_parse_or_are_refused_on_one_line() {
        let words = [
            "position",
            "board",
            "empty",
            "pieces",
            "score",
            "streak",
            "play",
            "show",
            "eval",
            "catalogue",
            "fits",
            "analyse",
            "lines",
            "Scoring",
            "Agent",
            "-",
            "47",
            "48",
            "1@r1c1",
            "3@r9c9",
            "4@r1c1",
            "1@r10c1",
            "##/#.",
            "######",
            "../..",
        ];
        let cases = fuzz::from_env("BLOCKUDOKU_FUZZ_CASES", 4000) as usize;
        let mut session = Session::new();
        for line in fuzz::Lines::new(1, &words, ".#01/@rc0123456789").take(cases) {
            if let Some(e) = engine_kit::session::refusal(&mut session, &line) {
                fuzz::assert_one_line(&line, &e);
            }
        }
    }
}
