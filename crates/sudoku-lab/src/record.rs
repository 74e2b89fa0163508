//! Game records (`protocol/records.md`, "Competitive Sudoku records"): the text a finished or
//! unfinished game is kept in, written by `arena --record`, checked by `replay`.
//!
//! The referee of a record is the rules crate's [`Game`]: [`replay_text`] builds the start
//! position from the setup lines, plays every recorded step through [`Game::play`] and
//! compares what the rules say (taboo or placed, scores, winner, final position) with what
//! the record says. The first disagreement is the answer, with its line and move number.

use std::fmt::Write as _;

use anyhow::{bail, Context, Result};
use puzzle_rules::sudoku::board::{parse_cell, Move, Shape};
use puzzle_rules::sudoku::game::{Game, Mode, Outcome, Player};
use puzzle_rules::sudoku::notation::{parse_owned_rows, Extras, GameSetup};

use sudoku_agent::protocol::{position_line, printable};

/// The first line of a record file.
pub const HEADER: &str = "competitive-sudoku-record 1";

/// One step of a game: a move (placed or found taboo) or a forced pass, with who played it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `player` proposed `mv`; `taboo` when the referee found it taboo (nothing placed).
    Move {
        /// Who moved.
        player: Player,
        /// The move.
        mv: Move,
        /// The move left the sudoku unsolvable.
        taboo: bool,
    },
    /// `player` could not move and passed.
    Pass {
        /// Who passed.
        player: Player,
    },
}

/// A side's name and its limit per move as the record shows them (`movetime 100`,
/// `nodes 5000`, `none`).
#[derive(Clone, Debug)]
pub struct Side {
    /// Who played the side (an agent name, `human`, a command).
    pub name: String,
    /// Its limit per move.
    pub time: String,
}

/// A game to write: where it started, who played, what happened.
pub struct GameRecord<'a> {
    /// The game's number in the file (from 1).
    pub number: usize,
    /// The start position.
    pub start: &'a Game,
    /// Player 1's and player 2's side.
    pub sides: [Side; 2],
    /// Every step in order.
    pub steps: &'a [Step],
    /// A loss by rule: the player and why (a word, then free text).
    pub forfeit: Option<(Player, String)>,
    /// The position after the last step.
    pub end: &'a Game,
}

fn cells_text(cells: &[(usize, usize)]) -> String {
    let mut out = String::new();
    for (r, c) in cells {
        let _ = write!(out, " {r},{c}");
    }
    out
}

/// The record of one game, `game N` to `end`, each line ending in a newline.
pub fn format_game(rec: &GameRecord) -> String {
    let start = rec.start;
    let shape = start.board().shape();
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(format!("game {}", rec.number));
    line(format!("shape {}x{}", shape.m(), shape.n()));
    line(format!("mode {}", start.mode()));
    line(format!("start {}", start.to_owned_rows()));
    if start.mode() != Mode::Classic {
        line(format!("allowed1{}", cells_text(start.starts(Player::One))));
        line(format!("allowed2{}", cells_text(start.starts(Player::Two))));
    }
    line(format!("turn {}", start.turn().number()));
    let [a, b] = start.scores();
    line(format!("scores {a} {b}"));
    if !start.taboo().is_empty() {
        let moves: Vec<String> = start.taboo().iter().map(Move::to_string).collect();
        line(format!("taboo {}", moves.join(" ")));
    }
    for (p, side) in rec.sides.iter().enumerate() {
        line(format!("player{} {}", p + 1, one_line(&side.name)));
        line(format!("time{} {}", p + 1, one_line(&side.time)));
    }
    for (i, step) in rec.steps.iter().enumerate() {
        line(match step {
            Step::Move { player, mv, taboo } => format!(
                "move {} {} {mv}{}",
                i + 1,
                player.number(),
                if *taboo { " taboo" } else { "" }
            ),
            Step::Pass { player } => format!("move {} {} pass", i + 1, player.number()),
        });
    }
    if let Some((player, why)) = &rec.forfeit {
        line(format!("forfeit {} {}", player.number(), one_line(why)));
    }
    let end = rec.end;
    let finished = rec.forfeit.is_some() || end.is_over();
    if finished {
        let [a, b] = end.scores();
        line(format!(
            "result scores {a} {b} winner {}",
            winner_word(winner_of(end, rec.forfeit.as_ref().map(|f| f.0)))
        ));
    }
    line(format!("final {}", position_line(end)));
    line("end".to_string());
    out
}

/// Text on one line: control characters (newlines among them) escaped.
fn one_line(text: &str) -> String {
    let text = printable(text);
    if text.trim().is_empty() {
        "-".to_string()
    } else {
        text.trim().to_string()
    }
}

fn winner_of(game: &Game, forfeit_by: Option<Player>) -> Option<Player> {
    match forfeit_by {
        Some(p) => Some(p.other()),
        None => game.winner(),
    }
}

fn winner_word(winner: Option<Player>) -> String {
    winner.map_or("draw".to_string(), |p| p.number().to_string())
}

/// What `replay` found for one game.
#[derive(Debug)]
pub struct Replayed {
    /// The game's number in the file.
    pub number: usize,
    /// The position after the last step.
    pub game: Game,
    /// Steps played.
    pub steps: usize,
    /// The position before each step, as `position` lines.
    pub before: Vec<String>,
    /// The winner when the game is finished (`Some(None)` a draw), `None` when it is not.
    pub result: Option<Option<Player>>,
}

/// The setup lines of a game read so far.
#[derive(Default)]
struct Setup {
    shape: Option<Shape>,
    mode: Option<Mode>,
    start: Option<String>,
    allowed: [Option<Vec<(usize, usize)>>; 2],
    turn: Option<Player>,
    scores: Option<[u32; 2]>,
    taboo: Vec<Move>,
}

impl Setup {
    fn build(&mut self) -> Result<Game> {
        let shape = self
            .shape
            .context("no 'shape' line before the first move")?;
        let mode = self.mode.context("no 'mode' line before the first move")?;
        let rows = self
            .start
            .as_deref()
            .context("no 'start' line before the first move")?;
        let (board, owners) =
            parse_owned_rows(shape, rows).map_err(|e| anyhow::anyhow!("start: {e}"))?;
        if mode != Mode::Classic && self.allowed.iter().any(Option::is_none) {
            bail!("mode {mode} needs 'allowed1' and 'allowed2' lines");
        }
        let setup = GameSetup {
            board,
            owners,
            extras: Extras {
                mode: Some(mode),
                turn: self.turn,
                scores: self.scores,
                taboo: std::mem::take(&mut self.taboo),
                allowed: std::mem::take(&mut self.allowed),
            },
        };
        setup.build().map_err(|e| anyhow::anyhow!("setup: {e}"))
    }

    /// One setup line: its key and the words after it.
    fn read(&mut self, key: SetupKey, rest: &[&str]) -> Result<()> {
        match key {
            SetupKey::Shape => {
                let text = rest.first().context("shape needs a block shape like 3x3")?;
                self.shape = Some(Shape::parse(text).map_err(|e| anyhow::anyhow!("{e}"))?);
            }
            SetupKey::Mode => {
                let text = rest.first().copied().unwrap_or("");
                self.mode = Some(Mode::parse(text).with_context(|| {
                    format!("unknown mode '{}'", sudoku_agent::protocol::quote(text))
                })?);
            }
            SetupKey::Start => match rest {
                [rows] => self.start = Some(rows.to_string()),
                _ => bail!("start needs the rows joined by '/'"),
            },
            SetupKey::Allowed(player) => {
                let cells = rest
                    .iter()
                    .map(|w| {
                        parse_cell(w).map_err(|e| anyhow::anyhow!("allowed{}: {e}", player + 1))
                    })
                    .collect::<Result<Vec<_>>>()?;
                self.allowed[player] = Some(cells);
            }
            SetupKey::Turn => self.turn = Some(parse_player(rest.first().copied())?),
            SetupKey::Scores => self.scores = Some(parse_scores(rest)?),
            SetupKey::Taboo => {
                for w in rest {
                    self.taboo
                        .push(Move::parse(w).map_err(|e| anyhow::anyhow!("taboo: {e}"))?);
                }
            }
        }
        Ok(())
    }
}

/// The key of a setup line: what it sets of the start position.
#[derive(Clone, Copy)]
enum SetupKey {
    Shape,
    Mode,
    Start,
    /// `allowed1` or `allowed2`: player 1's (0) or player 2's (1) start cells.
    Allowed(usize),
    Turn,
    Scores,
    Taboo,
}

impl SetupKey {
    fn parse(key: &str) -> Option<SetupKey> {
        Some(match key {
            "shape" => SetupKey::Shape,
            "mode" => SetupKey::Mode,
            "start" => SetupKey::Start,
            "allowed1" => SetupKey::Allowed(0),
            "allowed2" => SetupKey::Allowed(1),
            "turn" => SetupKey::Turn,
            "scores" => SetupKey::Scores,
            "taboo" => SetupKey::Taboo,
            _ => return None,
        })
    }
}

/// One game being read: its setup until the first step, then the game in play.
struct Reading {
    number: usize,
    setup: Setup,
    game: Option<Game>,
    steps: usize,
    /// The position before each step, as `position` lines.
    before: Vec<String>,
    forfeit: Option<Player>,
    result: Option<Option<Player>>,
}

impl Reading {
    fn game(&mut self) -> Result<&mut Game> {
        if self.game.is_none() {
            self.game = Some(self.setup.build()?);
        }
        Ok(self.game.as_mut().expect("built above"))
    }

    /// `result scores A B winner 1|2|draw`: checked against the game played.
    fn check_result(&mut self, rest: &[&str]) -> Result<()> {
        let game = self.game()?.clone();
        let (scores, winner) = match rest {
            ["scores", a, b, "winner", w] => (parse_scores(&[a, b])?, *w),
            _ => bail!("result needs 'scores A B winner 1|2|draw'"),
        };
        if self.forfeit.is_none() && !game.is_over() {
            bail!("result: the game is not over after the last move");
        }
        if scores != game.scores() {
            bail!(
                "result: recorded scores {} {}, the moves give {} {}",
                scores[0],
                scores[1],
                game.scores()[0],
                game.scores()[1]
            );
        }
        let expected = winner_of(&game, self.forfeit);
        if winner != winner_word(expected) {
            bail!(
                "result: recorded winner {winner}, the moves give {}",
                winner_word(expected)
            );
        }
        self.result = Some(expected);
        Ok(())
    }

    /// `final <position>`: the recorded position must be the one the moves reach.
    fn check_final(&mut self, rest: &[&str]) -> Result<()> {
        let line = position_line(self.game()?);
        if rest.join(" ") != line {
            bail!("final: the recorded position differs from the moves' {line}");
        }
        Ok(())
    }

    /// `end`: the game as replayed.
    fn end(mut self) -> Result<Replayed> {
        let game = self.game()?.clone();
        Ok(Replayed {
            number: self.number,
            game,
            steps: self.steps,
            before: self.before,
            result: self.result,
        })
    }
}

fn parse_player(word: Option<&str>) -> Result<Player> {
    word.and_then(|w| w.parse().ok())
        .and_then(Player::from_number)
        .context("the player must be 1 or 2")
}

fn parse_scores(words: &[&str]) -> Result<[u32; 2]> {
    match words {
        [a, b] => Ok([
            a.parse().context("scores must be two numbers")?,
            b.parse().context("scores must be two numbers")?,
        ]),
        _ => bail!("scores must be two numbers"),
    }
}

/// Plays every game of a record file through the referee. The first line that is not a
/// well-formed record line, or whose step the rules refuse or judge otherwise than the
/// record, is the error (`line L: game G move M: why`).
pub fn replay_text(text: &str) -> Result<Vec<Replayed>> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let first = lines
        .by_ref()
        .find(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    match first {
        Some((_, l)) if l == HEADER => {}
        Some((n, l)) => bail!(
            "line {n}: expected '{HEADER}', found '{}'",
            sudoku_agent::protocol::quote(l)
        ),
        None => bail!("empty record: expected '{HEADER}'"),
    }
    let mut done = Vec::new();
    let mut current: Option<Reading> = None;
    for (n, line) in lines {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |r: &Option<Reading>| match r {
            Some(r) if r.steps > 0 => format!("line {n}: game {} move {}", r.number, r.steps),
            Some(r) => format!("line {n}: game {}", r.number),
            None => format!("line {n}"),
        };
        let step = |r: &Option<Reading>| match r {
            Some(r) => format!("line {n}: game {} move {}", r.number, r.steps + 1),
            None => format!("line {n}"),
        };
        let context = if line.starts_with("move ") {
            step(&current)
        } else {
            at(&current)
        };
        read_line(line, &mut current, &mut done).with_context(|| context)?;
    }
    if let Some(r) = current {
        bail!("game {}: no 'end' line", r.number);
    }
    if done.is_empty() {
        bail!("no game in the record");
    }
    Ok(done)
}

fn read_line(line: &str, current: &mut Option<Reading>, done: &mut Vec<Replayed>) -> Result<()> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (&key, rest) = words.split_first().expect("line is not empty");
    if key == "game" {
        *current = Some(start_game(current.as_ref(), rest)?);
        return Ok(());
    }
    let Some(r) = current.as_mut() else {
        bail!(
            "'{}' outside a game (a game starts with 'game N')",
            sudoku_agent::protocol::quote(key)
        );
    };
    let setup_key = SetupKey::parse(key);
    if setup_key.is_some() && r.game.is_some() {
        bail!("'{key}' after the first move");
    }
    if r.result.is_some() && !matches!(key, "final" | "end") {
        bail!("'{key}' after the result");
    }
    if let Some(setup_key) = setup_key {
        return r.setup.read(setup_key, rest);
    }
    match key {
        "player1" | "player2" | "time1" | "time2" => {
            if rest.is_empty() {
                bail!("{key} needs a value");
            }
        }
        "move" => play_step(r, rest)?,
        "forfeit" => {
            r.game()?;
            if r.forfeit.is_some() {
                bail!("a second 'forfeit' line");
            }
            r.forfeit = Some(parse_player(rest.first().copied())?);
        }
        "result" => r.check_result(rest)?,
        "final" => r.check_final(rest)?,
        "end" => {
            let r = current.take().expect("checked above");
            done.push(r.end()?);
        }
        other => bail!("unknown line '{}'", sudoku_agent::protocol::quote(other)),
    }
    Ok(())
}

/// `game N`: a new game, once the one before has its `end` line.
fn start_game(current: Option<&Reading>, rest: &[&str]) -> Result<Reading> {
    if let Some(r) = current {
        bail!("game {} has no 'end' line", r.number);
    }
    let number: usize = match rest {
        [n] => n.parse().context("game needs a number")?,
        _ => bail!("game needs a number"),
    };
    Ok(Reading {
        number,
        setup: Setup::default(),
        game: None,
        steps: 0,
        before: Vec::new(),
        forfeit: None,
        result: None,
    })
}

/// `move N P <move> [taboo]` or `move N P pass`: one step through the referee.
fn play_step(r: &mut Reading, words: &[&str]) -> Result<()> {
    if r.forfeit.is_some() {
        bail!("a move after the forfeit");
    }
    let number = r.steps + 1;
    let (n, player, what, mark) = match words {
        [n, p, what] => (n, p, *what, None),
        [n, p, what, mark] => (n, p, *what, Some(*mark)),
        _ => bail!("a move line is 'move N PLAYER ROW,COL=VALUE [taboo]' or 'move N PLAYER pass'"),
    };
    if n.parse::<usize>().ok() != Some(number) {
        bail!(
            "numbered '{}', expected {number}",
            sudoku_agent::protocol::quote(n)
        );
    }
    let player = parse_player(Some(player))?;
    let before = position_line(r.game()?);
    r.before.push(before);
    let game = r.game()?;
    if game.is_over() {
        bail!("the game is already over");
    }
    if player != game.turn() {
        bail!(
            "player {} moved, but player {} is to move",
            player.number(),
            game.turn().number()
        );
    }
    if what == "pass" {
        if mark.is_some() {
            bail!("a pass takes no mark");
        }
        if game.can_move(player) {
            bail!("player {} passed but has moves", player.number());
        }
        game.pass();
    } else {
        let taboo = match mark {
            None => false,
            Some("taboo") => true,
            Some(m) => bail!(
                "unknown mark '{}' (only 'taboo')",
                sudoku_agent::protocol::quote(m)
            ),
        };
        let mv = Move::parse(what).map_err(|e| anyhow::anyhow!("{e}"))?;
        let outcome = game.play(mv).map_err(|f| anyhow::anyhow!("{mv}: {f}"))?;
        match (outcome, taboo) {
            (Outcome::Taboo, false) => {
                bail!("{mv} is taboo (the sudoku has no solution after it), recorded as placed")
            }
            (Outcome::Placed { .. }, true) => {
                bail!("{mv} is recorded as taboo, but the sudoku stays solvable")
            }
            _ => {}
        }
    }
    r.steps = number;
    Ok(())
}

/// Largest record file `replay` reads: a 25x25 game is about 10 kB, so 16 MB hold more than
/// a thousand of them, and an endless file (`/dev/zero`) is refused after 16 MB.
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// The text of the record file `path`. A file that cannot be read, is larger than
/// [`MAX_RECORD_BYTES`] or is not UTF-8 text is the command line's fault (exit 2).
fn read_record_file(path: &std::path::Path) -> Result<String> {
    use std::io::Read;
    let bad = |what: String| {
        anyhow::Error::new(engine_kit::cli::BadCommandLine(format!(
            "cannot read record {}: {what}",
            path.display()
        )))
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_RECORD_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| bad(e.to_string()))?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(bad(
            "larger than 16 MB, the most a record file may hold".into()
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        bad(format!(
            "not UTF-8 text (byte {} of the file)",
            e.utf8_error().valid_up_to() + 1
        ))
    })
}

/// `sudoku-lab replay FILE`: each game's final position and score, or the first bad step;
/// with `positions`, also the position before every step.
pub fn run(path: &std::path::Path, positions: bool) -> Result<()> {
    let text = read_record_file(path)?;
    let games = replay_text(&text)?;
    for g in games {
        let [a, b] = g.game.scores();
        let result = match g.result {
            Some(w) => format!("winner {}", winner_word(w)),
            None => "unfinished".to_string(),
        };
        engine_kit::println_or_exit!(
            "game {} moves {} scores {a} {b} {result}",
            g.number,
            g.steps
        );
        if positions {
            for (k, line) in g.before.iter().enumerate() {
                engine_kit::println_or_exit!("before {} {line}", k + 1);
            }
        }
        engine_kit::println_or_exit!("{}", position_line(&g.game));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_rules::sudoku::board::Board;

    fn played() -> (Game, Vec<Step>, Game) {
        let start = Game::new(Board::empty(Shape::new(2, 2).unwrap()), Mode::Rows, 0);
        let mut game = start.clone();
        let mut steps = Vec::new();
        while !game.is_over() {
            let p = game.turn();
            match game.legal_moves(p).first() {
                None => {
                    game.pass();
                    steps.push(Step::Pass { player: p });
                }
                Some(&mv) => {
                    let taboo = game.play(mv).unwrap() == Outcome::Taboo;
                    steps.push(Step::Move {
                        player: p,
                        mv,
                        taboo,
                    });
                }
            }
        }
        (start, steps, game)
    }

    fn text(start: &Game, steps: &[Step], end: &Game) -> String {
        let rec = GameRecord {
            number: 1,
            start,
            sides: [
                Side {
                    name: "first".into(),
                    time: "movetime 10".into(),
                },
                Side {
                    name: "second".into(),
                    time: "none".into(),
                },
            ],
            steps,
            forfeit: None,
            end,
        };
        format!("{HEADER}\n# a comment\n{}", format_game(&rec))
    }

    #[test]
    fn a_written_record_replays_to_its_end() {
        let (start, steps, end) = played();
        let games = replay_text(&text(&start, &steps, &end)).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].game, end);
        assert_eq!(games[0].steps, steps.len());
    }

    #[test]
    fn a_changed_value_is_the_first_illegal_step() {
        let (start, steps, end) = played();
        let good = text(&start, &steps, &end);
        // Move 2 repeats move 1's cell: occupied.
        let Step::Move { mv, .. } = steps[0] else {
            panic!()
        };
        let lines: Vec<String> = good
            .lines()
            .map(|l| {
                if l.starts_with("move 2 ") {
                    format!("move 2 2 {mv}")
                } else {
                    l.to_string()
                }
            })
            .collect();
        let err = format!("{:#}", replay_text(&lines.join("\n")).unwrap_err());
        assert!(err.contains("game 1 move 2"), "{err}");
        assert!(err.contains("illegal move"), "{err}");
    }

    #[test]
    fn a_wrong_score_or_turn_is_named() {
        let (start, steps, end) = played();
        let good = text(&start, &steps, &end);
        let bad = good.replace("move 1 1 ", "move 1 2 ");
        let err = format!("{:#}", replay_text(&bad).unwrap_err());
        assert!(err.contains("player 1 is to move"), "{err}");
        let [a, b] = end.scores();
        let bad = good.replace(
            &format!("result scores {a} {b}"),
            &format!("result scores {} {b}", a + 1),
        );
        let err = format!("{:#}", replay_text(&bad).unwrap_err());
        assert!(err.contains("recorded scores"), "{err}");
    }
}
