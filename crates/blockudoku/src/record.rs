//! Game records (protocol/records.md, "Blockudoku"): writing them (the lab's
//! `selfplay --record`), and replaying them through the rules to each game's final position
//! and score, or the first illegal step (the lab's `replay`).

use std::fmt::Write as _;

use anyhow::{bail, Result};

use puzzle_rules::blockudoku::{catalogue, hand_is_dead, GameState, Hand, Piece, Scoring};

use crate::protocol::{self, parse_placement};

/// The first line of every record.
pub const HEADER: &str = "blockudoku-record 1";

/// The `set` line of a piece set: `set catalogue` for the game's own 47 pieces, else every
/// shape.
pub fn set_line(set: &[Piece]) -> String {
    if set == catalogue() {
        "set catalogue".into()
    } else {
        let shapes: Vec<String> = set.iter().map(|p| p.shape()).collect();
        format!("set {}", shapes.join(" "))
    }
}

/// The header of a record file: version, piece set and scoring.
pub fn file_header(set: &[Piece], scoring: Scoring, comment: &str) -> String {
    format!(
        "{HEADER}\n# {comment}\n{}\nscoring {}\n",
        set_line(set),
        scoring.name()
    )
}

/// One game being written: its lines, appended round by round.
pub struct GameRecord {
    text: String,
}

impl GameRecord {
    /// A game's opening line (`game <index> seed <seed>`).
    pub fn new(index: u64, seed: u64) -> GameRecord {
        GameRecord {
            text: format!("game {index} seed {seed}\n"),
        }
    }

    /// A dealt hand: 1-based numbers into the set.
    pub fn hand(&mut self, deal: &[usize]) {
        let nums: Vec<String> = deal.iter().map(|i| (i + 1).to_string()).collect();
        let _ = writeln!(self.text, "hand {}", nums.join(" "));
    }

    /// The placements of the hand just dealt.
    pub fn play(&mut self, line: &[crate::search::Step]) {
        let _ = writeln!(self.text, "play {}", protocol::placements_text(line));
    }

    /// The game's last line; returns the game's text.
    pub fn finish(mut self, died: bool, rounds: u64, score: u64) -> String {
        let result = if died { "died" } else { "capped" };
        let _ = writeln!(
            self.text,
            "result {result} rounds {rounds} score {score}\nend"
        );
        self.text
    }
}

/// A game replayed: where it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The game's number in the record.
    pub index: u64,
    /// Hands played.
    pub rounds: u64,
    /// The final position (board, score, streak).
    pub state: GameState,
    /// The last hand's unplayed pieces (the dead hand), if any.
    pub hand: Hand,
    /// `died`, `capped` or `open` (no result line).
    pub result: String,
}

/// Replays the record `text`: every game through the rules. An error names the line.
pub fn replay(text: &str) -> Result<Vec<Replayed>> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(n, l)| (n + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    check_header(lines.next())?;
    let mut record = RecordReplay::new();
    for (n, line) in lines {
        record
            .read(line)
            .map_err(|msg| anyhow::anyhow!("line {n}: {msg}"))?;
    }
    record.finish()
}

/// The game number of a `game <N> [seed <S>]` line's words after `game` (`N` and `S` whole
/// numbers of 64 bits), or what is wrong with them.
fn parse_game_line(rest: &str) -> Result<u64, String> {
    let number = |what: &str, tok: Option<&str>| match tok {
        Some(t) => t.parse::<u64>().map_err(|_| {
            format!(
                "game line: {what} must be a whole number 0 to {}, got {}",
                u64::MAX,
                protocol::quoted(t)
            )
        }),
        None => Err(format!(
            "game line: want game <N> [seed <S>], {what} missing"
        )),
    };
    let mut toks = rest.split_whitespace();
    let index = number("N", toks.next())?;
    match toks.next() {
        None => return Ok(index),
        Some("seed") => number("S", toks.next())?,
        Some(t) => {
            return Err(format!(
                "game line: want game <N> [seed <S>], got {}",
                protocol::quoted(t)
            ))
        }
    };
    match toks.next() {
        None => Ok(index),
        Some(t) => Err(format!(
            "game line: unexpected {} after the seed",
            protocol::quoted(t)
        )),
    }
}

/// The first line that is neither blank nor a comment must be [`HEADER`].
fn check_header(first: Option<(usize, &str)>) -> Result<()> {
    match first {
        Some((_, HEADER)) => Ok(()),
        Some((n, l)) => bail!(
            "line {n}: want {HEADER:?} first, got {}",
            protocol::shown(l)
        ),
        None => bail!("empty record"),
    }
}

/// A record being replayed: its piece set and scoring, the games ended so far and the game
/// in play.
struct RecordReplay {
    /// The `set` line's pieces (a hand's numbers point into it).
    set: Option<Vec<Piece>>,
    /// The `scoring` line's rule.
    scoring: Scoring,
    /// The games ended so far.
    games: Vec<Replayed>,
    /// The game being replayed.
    game: Option<GameInPlay>,
}

/// A game being replayed, and whether its last hand has been played.
struct GameInPlay {
    replayed: Replayed,
    hand_played: bool,
}

impl RecordReplay {
    fn new() -> RecordReplay {
        RecordReplay {
            set: None,
            scoring: Scoring::Blockudoku,
            games: Vec::new(),
            game: None,
        }
    }

    /// One record line; the error is what is wrong with it.
    fn read(&mut self, line: &str) -> Result<(), String> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        // `set` and `scoring` belong to the file's header, before any game.
        let in_header = self.games.is_empty() && self.game.is_none();
        match word {
            "set" if in_header => self.set = Some(parse_set_line(rest)?),
            "scoring" if in_header => {
                self.scoring = rest
                    .trim()
                    .parse()
                    .map_err(|e: puzzle_rules::blockudoku::UnknownScoring| e.to_string())?;
            }
            "game" => self.start_game(rest)?,
            "hand" => self.deal_hand(rest)?,
            "play" => {
                let scoring = self.scoring;
                self.game
                    .as_mut()
                    .ok_or("play before a game line")?
                    .play(rest, scoring)?;
            }
            "result" => self
                .game
                .as_mut()
                .ok_or("result before a game line")?
                .check_result(rest)?,
            "end" => {
                let game = self.game.take().ok_or("end before a game line")?;
                self.games.push(game.replayed);
            }
            other => return Err(format!("unknown line {}", protocol::shown(other))),
        }
        Ok(())
    }

    /// `game <N> [seed <S>]`: the game before it, if it has no `end` line, counts as ended.
    fn start_game(&mut self, rest: &str) -> Result<(), String> {
        let index = parse_game_line(rest)?;
        if let Some(game) = self.game.take() {
            self.games.push(game.replayed);
        }
        self.game = Some(GameInPlay {
            replayed: Replayed {
                index,
                rounds: 0,
                state: GameState::default(),
                hand: Hand::default(),
                result: "open".into(),
            },
            hand_played: true,
        });
        Ok(())
    }

    /// `hand <n>...`: a new hand dealt from the set, once the last one has been played.
    fn deal_hand(&mut self, rest: &str) -> Result<(), String> {
        let set = self.set.as_ref().ok_or("hand before the set line")?;
        let game = self.game.as_mut().ok_or("hand before a game line")?;
        if game.replayed.result != "open" {
            return Err("hand after the result".into());
        }
        if !game.hand_played {
            return Err("a hand dealt before the last one was played".into());
        }
        game.replayed.hand = hand_from_set(set, rest)?;
        game.hand_played = false;
        Ok(())
    }

    /// The games replayed, once the text has been read to its end.
    fn finish(self) -> Result<Vec<Replayed>> {
        if let Some(game) = self.game {
            bail!("game {} has no end line", game.replayed.index);
        }
        if self.games.is_empty() {
            bail!("the record holds no game");
        }
        Ok(self.games)
    }
}

/// The pieces of a `set` line (the words after `set`; [`set_line`] writes it): `catalogue`,
/// or every piece's shape.
fn parse_set_line(rest: &str) -> Result<Vec<Piece>, String> {
    if rest.trim() == "catalogue" {
        return Ok(catalogue().to_vec());
    }
    rest.split_whitespace()
        .map(Piece::parse)
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())
}

/// The hand of a `hand` line: 1 to 3 pieces, each a 1-based number into `set`.
fn hand_from_set(set: &[Piece], rest: &str) -> Result<Hand, String> {
    let mut slots = Vec::new();
    for tok in rest.split_whitespace() {
        let i: usize = tok
            .parse()
            .ok()
            .filter(|i| (1..=set.len()).contains(i))
            .ok_or_else(|| {
                format!(
                    "piece {} is not 1-{} of the set",
                    protocol::shown(tok),
                    set.len()
                )
            })?;
        slots.push(Some(set[i - 1].clone()));
    }
    if slots.is_empty() || slots.len() > 3 {
        return Err("a hand has 1 to 3 pieces".into());
    }
    Ok(Hand::new(slots))
}

impl GameInPlay {
    /// `play <placement>...`: placements from the hand dealt, through the rules.
    fn play(&mut self, rest: &str, scoring: Scoring) -> Result<(), String> {
        let g = &mut self.replayed;
        if self.hand_played || g.result != "open" {
            return Err("play without a hand dealt".into());
        }
        if rest.split_whitespace().next().is_none() {
            return Err("play needs placements".into());
        }
        let mut state = g.state;
        let mut hand = g.hand.clone();
        for tok in rest.split_whitespace() {
            let p = parse_placement(tok)?;
            let piece = hand.take(p.slot).map_err(|e| format!("{tok}: {e}"))?;
            state
                .place(&piece, p.row, p.col, scoring)
                .map_err(|e| format!("{tok}: {e}"))?;
        }
        g.state = state;
        g.hand = hand;
        // A hand may be played over several lines (the window writes one placement
        // per line); it counts as a round once every piece is placed.
        if g.hand.no_pieces() {
            g.rounds += 1;
            self.hand_played = true;
        }
        Ok(())
    }

    /// `result died|capped rounds <n> score <n>`: checked against the replay.
    fn check_result(&mut self, rest: &str) -> Result<(), String> {
        let g = &mut self.replayed;
        let toks: Vec<&str> = rest.split_whitespace().collect();
        let [kind, "rounds", rounds, "score", score] = toks[..] else {
            return Err("want: result died|capped rounds <n> score <n>".into());
        };
        let died = match kind {
            "died" => true,
            "capped" => false,
            other => return Err(format!("unknown result {}", protocol::shown(other))),
        };
        if died {
            let pieces: Vec<&Piece> = g.hand.live().into_iter().map(|(_, p)| p).collect();
            if self.hand_played || !hand_is_dead(g.state.board, &pieces) {
                return Err("result died, but the last hand can be placed".into());
            }
        } else if !self.hand_played {
            return Err("result capped with a hand unplayed".into());
        }
        if rounds != g.rounds.to_string() || score != g.state.score.to_string() {
            return Err(format!(
                "result says rounds {rounds} score {score}, the replay gives rounds {} score {}",
                g.rounds, g.state.score
            ));
        }
        g.result = kind.to_string();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "blockudoku-record 1\n# a comment\nset catalogue\nscoring blockudoku\n\
        game 0 seed 7\nhand 1 1 1\nplay 1@r1c1 2@r1c2 3@r1c3\n";

    fn ended(text: &str) -> String {
        format!("{text}end\n")
    }

    #[test]
    fn replays_a_game_and_names_the_first_illegal_step() {
        let g = &replay(&ended(GAME)).unwrap()[0];
        assert_eq!((g.rounds, g.state.score, g.result.as_str()), (1, 3, "open"));
        assert_eq!(g.state.board.to_string().matches('#').count(), 3);
        let capped = format!("{GAME}result capped rounds 1 score 3\nend\n");
        assert_eq!(replay(&capped).unwrap()[0].result, "capped");
        assert!(replay(GAME)
            .unwrap_err()
            .to_string()
            .contains("no end line"));
        let bad = ended(&GAME.replace("3@r1c3", "3@r1c2"));
        let e = replay(&bad).unwrap_err().to_string();
        assert!(e.starts_with("line 7: 3@r1c2"), "{e}");
        let wrong = format!("{GAME}result capped rounds 1 score 99\nend\n");
        assert!(replay(&wrong).unwrap_err().to_string().contains("score 99"));
        assert!(replay("blockudoku-record 2\n").is_err());
        let split = GAME.replace(
            "play 1@r1c1 2@r1c2 3@r1c3\n",
            "play 1@r1c1\nplay 3@r1c3 2@r1c2\n",
        );
        assert_eq!(replay(&ended(&split)).unwrap()[0], *g);
        let unplayed = GAME.replace("play 1@r1c1 2@r1c2 3@r1c3\n", "play 1@r1c1\nhand 2 2 2\n");
        assert!(replay(&ended(&unplayed)).is_err());
        let not_dead = format!("{GAME}hand 1 1 1\nresult died rounds 1 score 3\nend\n");
        assert!(replay(&not_dead)
            .unwrap_err()
            .to_string()
            .contains("can be placed"));
        let after = format!("{GAME}result capped rounds 1 score 3\nhand 1 1 1\nend\n");
        assert!(replay(&after)
            .unwrap_err()
            .to_string()
            .contains("after the result"));
    }
}
