//! The competitive-sudoku protocol's text: lines in become [`Command`]s, game states are
//! built from `position` tokens (through `rules::sudoku::notation`), and replies are
//! formatted here, with the option table. No I/O: `position file` becomes
//! [`Command::PositionFile`], which the session reads with [`crate::board_file`].

use std::fmt::Write as _;

use engine_kit::head::{no_args, number, quoted, twice, unknown_command};
use engine_kit::options::{OptionSpec, OptionTable};

use puzzle_rules::sudoku::board::{parse_cell, Board, Move, Shape};
use puzzle_rules::sudoku::game::{Game, Mode, Player};
use puzzle_rules::sudoku::notation::{parse_owned_rows, Extras, GameSetup};

use crate::agents::AgentKind;
use crate::agents::Event;

/// Protocol and version announced by `hello`.
pub const PROTOCOL: &str = "competitive-sudoku 1";
/// Largest accepted `movetime` (one day), so deadlines never overflow: the kit's.
pub use engine_kit::head::MAX_MOVETIME as MAX_MOVETIME_MS;
/// Largest accepted score in `position`: a game adds at most 7 points per cell (4,375 on
/// 25x25), so a score never wraps.
pub const MAX_SCORE: u32 = 2_147_483_647;
/// Largest accepted `Threads`.
pub const MAX_THREADS: usize = 256;

/// The options, in `hello` order: the table drives `setoption` and the `hello` lines.
/// `threads` is the default of `Threads` (the number of CPUs).
pub fn options(threads: usize) -> OptionTable<Setting> {
    OptionTable {
        specs: vec![
            OptionSpec::spin("Threads", threads as u64, 1, MAX_THREADS as u64, |n| {
                Setting::Threads(n as usize)
            }),
            OptionSpec::combo(
                "Agent",
                "default",
                AgentKind::ALL.iter().map(|a| a.name()).collect(),
                |v| AgentKind::parse(v).map(Setting::Agent),
            ),
            OptionSpec::spin("Seed", 0, 0, u64::MAX, Setting::Seed),
        ],
    }
}

/// A validated option setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Search threads of `default`.
    Threads(usize),
    /// The agent.
    Agent(AgentKind),
    /// Seed of the random choices.
    Seed(u64),
}

/// Formats a search event as its protocol line.
pub fn event_line(event: &Event) -> String {
    match event {
        Event::Propose(m) => format!("propose {m}"),
        Event::Info {
            depth,
            nodes,
            millis,
            score,
            pv,
            exact,
        } => {
            let nps = nodes * 1000 / (*millis).max(1);
            let exact = if *exact { " exact" } else { "" };
            format!(
                "info depth {depth} nodes {nodes} nps {nps} time {millis} score {score}{exact} pv {pv}"
            )
        }
    }
}

/// A parsed line of the game's own commands (the shared head, `hello` to `quit`, is read
/// by `engine_kit::head`).
#[derive(Debug)]
pub enum Command {
    /// `position ...`, already turned into a game.
    Position(Box<Game>),
    /// `position file <path> [extras]`: the session reads the file (see
    /// [`crate::board_file`]).
    PositionFile {
        /// The file.
        path: String,
        /// The words after the path, overriding the file.
        extras: Vec<String>,
    },
    /// `play <move>` or `play none`.
    Play(Option<Move>),
    /// `show`.
    Show,
}

/// An error line made one printable line (the kit's, which every session error passes).
pub use engine_kit::quote::printable;
/// Shortens user text quoted in an error line (lines may be a megabyte long).
pub use puzzle_rules::sudoku::notation::quote;

/// Parses one line of the game's commands. `Err` holds the text after `error ` of the
/// reply: one printable line, `<command>: <what was wrong>` (the conventions' error form,
/// the input quoted as [`quoted`] does), or `unknown command '<word>'` for a first word no
/// game command has.
pub fn parse_line(line: &str) -> Result<Command, String> {
    match parse_game(line) {
        Ok(Some(cmd)) => Ok(cmd),
        Ok(None) => Err(unknown_command(
            line.split_whitespace().next().unwrap_or_default(),
        )),
        Err(e) => Err(printable(&e)),
    }
}

/// [`parse_line`], `Ok(None)` for a line whose first word no game command has (or a blank
/// line); the session makes the error one printable line.
pub fn parse_game(line: &str) -> Result<Option<Command>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else {
        return Ok(None);
    };
    let named = |what: String| format!("{head}: {what}");
    let cmd = match head {
        "show" => no_args(head, Command::Show, rest.iter().copied())?,
        "position" => parse_position(rest).map_err(named)?,
        "play" => match rest {
            ["none"] => Command::Play(None),
            [mv] => Command::Play(Some(parse_move(mv).map_err(named)?)),
            _ => {
                return Err(named(
                    "needs one move r,c=v or r<row>c<col>=v (or none)".into(),
                ))
            }
        },
        _ => return Ok(None),
    };
    Ok(Some(cmd))
}

/// A cell as people name it, `r<row>c<col>` (1-based, as in every message), as its
/// 0-based row and column; `None` for any other text (`r0c1` included).
fn parse_named_cell(text: &str) -> Option<(usize, usize)> {
    let (row, col) = text.strip_prefix('r')?.split_once('c')?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(row) || !digits(col) {
        return None;
    }
    let (row, col): (usize, usize) = (row.parse().ok()?, col.parse().ok()?);
    Some((row.checked_sub(1)?, col.checked_sub(1)?))
}

/// A cell in either form: the wire's `r,c` (0-based) or `r<row>c<col>` (1-based).
pub fn parse_cell_token(text: &str) -> Option<(usize, usize)> {
    parse_cell(text).ok().or_else(|| parse_named_cell(text))
}

/// A move in either form: the wire's `r,c=v` (0-based, the course framework's
/// `Move(i, j, value)`) or `r<row>c<col>=v` (1-based, the cell as messages name it).
pub fn parse_move(text: &str) -> Result<Move, String> {
    if let Ok(m) = Move::parse(text) {
        return Ok(m);
    }
    let named = text.split_once('=').and_then(|(cell, value)| {
        let (row, col) = parse_named_cell(cell)?;
        let value: u8 = value.parse().ok()?;
        Some(Move::new(row, col, value))
    });
    let form = "is not a move of the form r,c=v or r<row>c<col>=v";
    named.ok_or_else(|| format!("{} {form}", quoted(text)))
}

const KEYWORDS: [&str; 6] = ["mode", "turn", "scores", "taboo", "allowed1", "allowed2"];

/// The optional words after a position (`mode`, `turn`, `scores`, `taboo`, `allowed1/2`).
/// The error is the text after `error position: `.
pub fn parse_extras(tokens: &[&str]) -> Result<Extras, String> {
    let mut ex = Extras::default();
    let mut i = 0;
    let mut seen: Vec<&str> = Vec::new();
    while i < tokens.len() {
        let key = tokens[i];
        if !KEYWORDS.contains(&key) {
            return Err(format!("unexpected {}", quoted(key)));
        }
        if seen.contains(&key) {
            return Err(twice(key));
        }
        seen.push(key);
        i += 1;
        let list_end = tokens[i..]
            .iter()
            .position(|t| KEYWORDS.contains(t))
            .map_or(tokens.len(), |p| i + p);
        let args = &tokens[i..list_end];
        match key {
            "mode" => {
                let [m] = args else {
                    return Err("mode needs one of classic, rows, border, random".into());
                };
                let unknown =
                    || format!("unknown mode {} (classic, rows, border, random)", quoted(m));
                ex.mode = Some(Mode::parse(m).ok_or_else(unknown)?);
            }
            "turn" => {
                ex.turn = match args {
                    ["1"] => Some(Player::One),
                    ["2"] => Some(Player::Two),
                    _ => return Err("turn needs 1 or 2".into()),
                };
            }
            "scores" => {
                let [a, b] = args else {
                    return Err("scores needs two numbers".into());
                };
                let score = |t: &str| number("scores", Some(t), 0, u64::from(MAX_SCORE));
                ex.scores = Some([score(a)? as u32, score(b)? as u32]);
            }
            "taboo" => {
                for t in args {
                    ex.taboo.push(parse_move(t)?);
                }
            }
            _ => {
                let mut cells = Vec::new();
                for t in args {
                    let not_cell = || format!("{} is not a cell r,c or r<row>c<col>", quoted(t));
                    cells.push(parse_cell_token(t).ok_or_else(not_cell)?);
                }
                ex.allowed[if key == "allowed1" { 0 } else { 1 }] = Some(cells);
            }
        }
        i = list_end;
    }
    Ok(ex)
}

/// Builds the game from a board, its owners and the optional parts. The error is the text
/// after `error position: `.
pub fn build_game(board: Board, owners: Vec<u8>, extras: Extras) -> Result<Game, String> {
    if let Some(s) = extras.scores.iter().flatten().find(|&&s| s > MAX_SCORE) {
        return Err(format!("scores must be 0 to {MAX_SCORE}, got '{s}'"));
    }
    let setup = GameSetup {
        board,
        owners,
        extras,
    };
    setup.build().map_err(|e| e.to_string())
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    match rest {
        [] => Err("needs <m>x<n> <rows> or file <path>".into()),
        ["file"] => Err("file needs a path".into()),
        ["file", path, extras @ ..] => Ok(Command::PositionFile {
            path: path.to_string(),
            extras: extras.iter().map(|t| t.to_string()).collect(),
        }),
        [_] => Err("needs the rows after the block shape".into()),
        [shape, rows, extras @ ..] => {
            let shape = Shape::parse(shape).map_err(|e| e.to_string())?;
            let (board, owners) = parse_owned_rows(shape, rows).map_err(|e| e.to_string())?;
            let game = build_game(board, owners, parse_extras(extras)?)?;
            Ok(Command::Position(Box::new(game)))
        }
    }
}

/// The `position` line that recreates `game` (what the arena sends external agents).
pub fn position_line(game: &Game) -> String {
    let shape = game.board().shape();
    let mut out = format!(
        "position {}x{} {} mode {} turn {} scores {} {}",
        shape.m(),
        shape.n(),
        game.to_owned_rows(),
        game.mode(),
        game.turn().number(),
        game.scores()[0],
        game.scores()[1]
    );
    if !game.taboo().is_empty() {
        out.push_str(" taboo");
        for mv in game.taboo() {
            let _ = write!(out, " {mv}");
        }
    }
    if game.mode() != Mode::Classic {
        for (key, p) in [("allowed1", Player::One), ("allowed2", Player::Two)] {
            out.push(' ');
            out.push_str(key);
            for (r, c) in game.starts(p) {
                let _ = write!(out, " {r},{c}");
            }
        }
    }
    out
}

/// The game a `position` line sets (tests across the crate set their positions this way).
#[cfg(test)]
pub(crate) fn position_game(line: &str) -> Game {
    match parse_line(line) {
        Ok(Command::Position(g)) => *g,
        other => panic!("not a position: {line}: {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use position_game as game;

    #[test]
    fn position_defaults_and_extras() {
        let g = game("position 2x2 1+2-../..../..../.... ");
        assert_eq!(g.turn(), Player::One);
        assert_eq!(g.mode(), Mode::Classic);
        let g = game("position 2x2 1+.../..../..../.... mode rows scores 3 1 taboo 1,1=4");
        assert_eq!(
            g.turn(),
            Player::One,
            "one fill plus one taboo move: player 1"
        );
        assert_eq!(g.scores(), [3, 1]);
        assert_eq!(g.starts(Player::Two), &[(3, 0), (3, 1), (3, 2), (3, 3)]);
        let g = game("position 2x2 ..../..../..../.... mode random allowed1 0,0 allowed2 3,3");
        assert_eq!(g.starts(Player::One), &[(0, 0)]);
        assert_eq!(position_line(&g), "position 2x2 ..../..../..../.... mode random turn 1 scores 0 0 allowed1 0,0 allowed2 3,3");
    }

    #[test]
    fn position_errors() {
        for bad in [
            "position",
            "position 2x2",
            "position 2x2 ..../..../..../.... turn 3",
            "position 2x2 ..../..../..../.... taboo 9,9=1",
            "position 2x2 ..../..../..../.... mode rows allowed1 5,0",
            "position 2x2 ..../..../..../.... mode",
            "position 2x2 ..../..../..../.... scores 1",
            "position 2x2 ..../..../..../.... turn 1 turn 2",
            "position 2x2 11../..../..../....",
            "position 7x7 ..../..../..../....",
            "play 1,1",
        ] {
            let e = parse_line(bad).expect_err(bad);
            assert!(e.starts_with(bad.split(' ').next().unwrap()), "{bad}: {e}");
        }
    }

    /// Found by tests/fuzz_engines.py: tokens echoed by the rules' parse errors kept their
    /// control characters (`play \x03,0`, a `\x1c` splits the line for Python readers).
    #[test]
    fn errors_escape_control_characters() {
        for bad in [
            "play \u{3},0",
            "play 1,1=\u{1c}",
            "position 2x2 1.../..\u{1b}./..../....",
            "position 2x2 ..../..../..../.... taboo 1,\u{1b}=1",
            "position 2x2 ..../..../..../.... mode rows allowed1 \u{7f}",
        ] {
            let e = parse_line(bad).expect_err("an error");
            assert!(!e.chars().any(char::is_control), "{e:?}");
            assert!(e.contains("\\u{"), "{e:?}");
        }
    }

    /// Lines of the grammar's words (half of them made `position` lines, some given a
    /// random board): each parses or is refused with one printable line, never a panic,
    /// and the games accepted take random moves without one either.
    #[test]
    fn fuzz_parser() {
        use rand::{Rng, SeedableRng};
        let secs = engine_kit::fuzz::from_env("SUDOKU_FUZZ_SECS", 2);
        let seed = engine_kit::fuzz::from_env("SUDOKU_FUZZ_SEED", 1);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let words = [
            "position",
            "play",
            "mode",
            "classic",
            "rows",
            "border",
            "random",
            "turn",
            "2",
            "scores",
            "taboo",
            "allowed1",
            "allowed2",
            "2x2",
            "3x3",
            "2x3",
            "0x9",
            "26x1",
            "1,1=1",
            "0,0=4",
            "3,3=2",
            "0,0",
            "9,9",
            "r1c1=1",
            "r0c1",
            "none",
            "show",
            "..../..../..../....",
            "1+2-../..../..../....",
            "12../34../..../....",
            "1.../.",
        ];
        let mut lines = engine_kit::fuzz::Lines::new(seed, &words, ".123456789A+-/,=rcx");
        let start = std::time::Instant::now();
        let (mut count, mut positions) = (0u64, 0u64);
        while start.elapsed().as_secs() < secs {
            let mut toks: Vec<String> =
                lines.next().unwrap().split(' ').map(String::from).collect();
            if rng.gen_bool(0.5) {
                toks[0] = "position".into();
            }
            if rng.gen_bool(0.3) {
                // A random board text of a random shape, mostly empty cells.
                let (m, k) = (rng.gen_range(1..4), rng.gen_range(1..4));
                let cell = |rng: &mut rand::rngs::SmallRng| match rng.gen_bool(0.8) {
                    true => '.',
                    false => b".123456789A+-"[rng.gen_range(0..13)] as char,
                };
                let rows: Vec<String> = (0..m * k)
                    .map(|_| (0..m * k).map(|_| cell(&mut rng)).collect())
                    .collect();
                toks.truncate(if rng.gen_bool(0.5) { 1 } else { toks.len() });
                toks.insert(1, format!("{m}x{k}"));
                toks.insert(2, rows.join("/"));
            }
            let line = toks.join(" ");
            count += 1;
            match parse_line(&line) {
                Err(e) => engine_kit::fuzz::assert_one_line(&line, &e),
                Ok(Command::Position(game)) => {
                    positions += 1;
                    let mut game = *game;
                    for _ in 0..4 {
                        let size = game.board().size();
                        let (r, c) = (rng.gen_range(0..size + 1), rng.gen_range(0..size + 1));
                        let _ = game.play(Move::new(r, c, rng.gen_range(0..size as u8 + 2)));
                        let _ = game.is_over();
                        let _ = position_line(&game);
                    }
                }
                Ok(_) => {}
            }
        }
        eprintln!("fuzz_parser: {count} lines, {positions} positions accepted, {secs} s, no panic");
        assert!(count > 0);
    }
}
