//! Game records (protocol/records.md, "Blockudoku"): writing them for `selfplay --record`,
//! and `blockudoku replay`, which plays a record through the rules and prints each game's
//! final position and score, or the first illegal step.

use std::fmt::Write as _;

use anyhow::{bail, Context, Result};
use engine_kit::cli::CommandLineCheck;

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
    pub index: String,
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
    match lines.next() {
        Some((_, HEADER)) => {}
        Some((n, l)) => bail!(
            "line {n}: want {HEADER:?} first, got {}",
            protocol::shown(l)
        ),
        None => bail!("empty record"),
    }
    let mut set: Option<Vec<Piece>> = None;
    let mut scoring = Scoring::Blockudoku;
    let mut games: Vec<Replayed> = Vec::new();
    // The game being replayed and whether its last hand has been played.
    let mut game: Option<(Replayed, bool)> = None;
    for (n, line) in lines {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let at = |msg: String| anyhow::anyhow!("line {n}: {msg}");
        match word {
            "set" if games.is_empty() && game.is_none() => {
                set = Some(if rest.trim() == "catalogue" {
                    catalogue().to_vec()
                } else {
                    rest.split_whitespace()
                        .map(Piece::parse)
                        .collect::<Result<_, _>>()
                        .map_err(|e| at(e.to_string()))?
                });
            }
            "scoring" if games.is_empty() && game.is_none() => {
                scoring = rest
                    .trim()
                    .parse()
                    .map_err(|e: puzzle_rules::blockudoku::UnknownScoring| at(e.to_string()))?;
            }
            "game" => {
                if let Some((g, _)) = game.take() {
                    games.push(g);
                }
                let index = rest.split_whitespace().next().unwrap_or("?").to_string();
                game = Some((
                    Replayed {
                        index,
                        rounds: 0,
                        state: GameState::default(),
                        hand: Hand::default(),
                        result: "open".into(),
                    },
                    true,
                ));
            }
            "hand" => {
                let set = set
                    .as_ref()
                    .ok_or_else(|| at("hand before the set line".into()))?;
                let (g, played) = game
                    .as_mut()
                    .ok_or_else(|| at("hand before a game line".into()))?;
                if g.result != "open" {
                    return Err(at("hand after the result".into()));
                }
                if !*played {
                    return Err(at("a hand dealt before the last one was played".into()));
                }
                let mut slots = Vec::new();
                for tok in rest.split_whitespace() {
                    let i: usize = tok
                        .parse()
                        .ok()
                        .filter(|i| (1..=set.len()).contains(i))
                        .ok_or_else(|| {
                            at(format!(
                                "piece {} is not 1-{} of the set",
                                protocol::shown(tok),
                                set.len()
                            ))
                        })?;
                    slots.push(Some(set[i - 1].clone()));
                }
                if slots.is_empty() || slots.len() > 3 {
                    return Err(at("a hand has 1 to 3 pieces".into()));
                }
                g.hand = Hand::new(slots);
                *played = false;
            }
            "play" => {
                let (g, played) = game
                    .as_mut()
                    .ok_or_else(|| at("play before a game line".into()))?;
                if *played || g.result != "open" {
                    return Err(at("play without a hand dealt".into()));
                }
                if rest.split_whitespace().next().is_none() {
                    return Err(at("play needs placements".into()));
                }
                let mut state = g.state;
                let mut hand = g.hand.clone();
                for tok in rest.split_whitespace() {
                    let p = parse_placement(tok).map_err(at)?;
                    let piece = hand.take(p.slot).map_err(|e| at(format!("{tok}: {e}")))?;
                    state
                        .place(&piece, p.row, p.col, scoring)
                        .map_err(|e| at(format!("{tok}: {e}")))?;
                }
                g.state = state;
                g.hand = hand;
                // A hand may be played over several lines (the window writes one placement
                // per line); it counts as a round once every piece is placed.
                if g.hand.no_pieces() {
                    g.rounds += 1;
                    *played = true;
                }
            }
            "result" => {
                let (g, played) = game
                    .as_mut()
                    .ok_or_else(|| at("result before a game line".into()))?;
                let toks: Vec<&str> = rest.split_whitespace().collect();
                let [kind, "rounds", rounds, "score", score] = toks[..] else {
                    return Err(at("want: result died|capped rounds <n> score <n>".into()));
                };
                let died = match kind {
                    "died" => true,
                    "capped" => false,
                    other => return Err(at(format!("unknown result {}", protocol::shown(other)))),
                };
                if died {
                    let pieces: Vec<&Piece> = g.hand.live().into_iter().map(|(_, p)| p).collect();
                    if *played || !hand_is_dead(g.state.board, &pieces) {
                        return Err(at("result died, but the last hand can be placed".into()));
                    }
                } else if !*played {
                    return Err(at("result capped with a hand unplayed".into()));
                }
                if rounds != g.rounds.to_string() || score != g.state.score.to_string() {
                    return Err(at(format!(
                        "result says rounds {rounds} score {score}, the replay gives rounds {} score {}",
                        g.rounds, g.state.score
                    )));
                }
                g.result = kind.to_string();
            }
            "end" => {
                let (g, _) = game
                    .take()
                    .ok_or_else(|| at("end before a game line".into()))?;
                games.push(g);
            }
            other => return Err(at(format!("unknown line {}", protocol::shown(other)))),
        }
    }
    if let Some((g, _)) = game {
        bail!("game {} has no end line", g.index);
    }
    if games.is_empty() {
        bail!("the record holds no game");
    }
    Ok(games)
}

/// `blockudoku replay FILE`: each game's result line and final `position` line.
pub fn run_replay(path: &std::path::Path) -> Result<()> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read record {}", path.display()))
        .on_command_line()?;
    let games = replay(&text).with_context(|| format!("{}", path.display()))?;
    for g in games {
        println!(
            "game {} rounds {} score {} result {}",
            g.index, g.rounds, g.state.score, g.result
        );
        let pieces = if g.hand.no_pieces() {
            String::new()
        } else {
            format!(" pieces {}", protocol::hand_tokens(&g.hand))
        };
        println!(
            "position board {}{pieces} score {} streak {}",
            g.state.board, g.state.score, g.state.streak
        );
    }
    Ok(())
}

/// Arguments of `blockudoku replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The record file (protocol/records.md).
    file: std::path::PathBuf,
}

impl ReplayArgs {
    /// Runs the replay.
    pub fn run(&self) -> Result<()> {
        run_replay(&self.file)
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
