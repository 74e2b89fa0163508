//! Playing one game of a match: asking each side for its move, timing its answer, applying
//! the move by the rules and scoring the end (or the forfeit).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context;

use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::{referee_nodes, Forfeit, Game, Outcome, PlayError, Player};

use crate::record::Step;
use sudoku_agent::agents::{Agent, AgentKind, Event};
use sudoku_agent::protocol;

use super::answer::Answer;
use super::external::External;
use super::limits::split_movetime;
use super::report::{
    ForfeitKind, GameResult, RefereeReach, RefereeTimes, Timing, REFEREE_ESCALATION,
};
use super::MoveLimit;

/// One side of a game: a built-in agent or another program.
pub(super) enum Contender {
    Builtin(Agent),
    External(External),
}

impl Contender {
    /// Asks for a move in `game` at `limit` and times the answer.
    fn answer(&mut self, game: &Game, limit: MoveLimit, never: &AtomicBool) -> Answer {
        match self {
            Contender::Builtin(agent) => builtin_answer(agent, game, limit, never),
            Contender::External(ext) => ext.choose(game, limit),
        }
    }
}

/// A built-in agent's answer, timed from the `go` to its first legal proposal and its move.
fn builtin_answer(agent: &Agent, game: &Game, limit: MoveLimit, never: &AtomicBool) -> Answer {
    let go = Instant::now();
    let mut first_legal = None;
    let mut seen = |e: Event| {
        if let (None, Event::Propose(m)) = (first_legal, e) {
            if game.check(m).is_ok() {
                first_legal = Some(go.elapsed());
            }
        }
    };
    let mv = agent.choose(game, limit.limits(go), never, &mut seen);
    let took = go.elapsed();
    if mv.is_some_and(|m| game.check(m).is_ok()) {
        first_legal = first_legal.or(Some(took));
    }
    Answer {
        choice: Ok(mv),
        first_legal,
        bestmove: Some(took),
    }
}

pub(super) fn make_contender(spec: &str, seed: u64) -> anyhow::Result<Contender> {
    if let Some(cmd) = spec.strip_prefix("cmd:") {
        return Ok(Contender::External(External::spawn(cmd)?));
    }
    let (name, _) = split_movetime(spec)?;
    let kind = AgentKind::parse(name).with_context(|| {
        format!("unknown agent '{spec}' (random, greedy, original, default, territory, mcts, alphabeta, cmd:<command>)")
    })?;
    Ok(Contender::Builtin(Agent::new(kind, 1, seed)))
}

/// The seeds of the two agents of game `index` (from 0) of a match with `seed`.
pub(super) fn agent_seeds(seed: u64, index: usize) -> [u64; 2] {
    let seed = seed.wrapping_add(index as u64 * 7919);
    [seed, seed ^ 0xABCD]
}

/// Game `index` (from 0) of a match between two built-in agents from `start`, played as
/// [`super::run`] plays it (the first agent is player 1 in even games, the same seeds): every
/// step in order, up to the end or a forfeit.
pub(crate) fn play_builtin(
    kinds: [AgentKind; 2],
    start: Game,
    index: usize,
    seed: u64,
    limit: MoveLimit,
) -> Vec<Step> {
    let seeds = agent_seeds(seed, index);
    let mut contenders =
        [0, 1].map(|side| Contender::Builtin(Agent::new(kinds[side], 1, seeds[side])));
    play_game(start, index, &mut contenders, [limit; 2]).steps
}

/// The final scores of a game between two built-in agents from `start` (the first is
/// player 1), both at `limit`: the `openings` generator's balance check.
pub(crate) fn self_play_scores(
    kinds: [AgentKind; 2],
    start: Game,
    seed: u64,
    limit: MoveLimit,
) -> [u32; 2] {
    let seeds = agent_seeds(seed, 0);
    let mut contenders =
        [0, 1].map(|side| Contender::Builtin(Agent::new(kinds[side], 1, seeds[side])));
    play_game(start, 0, &mut contenders, [limit; 2]).scores
}

/// A side's loss by rule: which side (0 the first agent), how, and the detail.
type SideForfeit = (usize, ForfeitKind, String);

/// A game under way: the position and what has been played so far.
struct Play {
    game: Game,
    moves: usize,
    history: Vec<String>,
    steps: Vec<Step>,
    referee: RefereeTimes,
    /// The game's number (from 1), for where the referee's longest decision was.
    number: usize,
}

impl Play {
    /// The mover has no move: it passes.
    fn pass(&mut self, player: Player) {
        self.game.pass();
        self.history.push("pass".to_string());
        self.steps.push(Step::Pass { player });
    }

    /// Plays `player`'s answer by the rules; `Err` says how the answer forfeits the game.
    fn apply(
        &mut self,
        player: Player,
        choice: Result<Option<Move>, String>,
    ) -> Result<(), (ForfeitKind, String)> {
        let mv = match choice {
            Err(text) => {
                return Err((
                    ForfeitKind::Illegal,
                    format!("bad answer '{}'", protocol::quote(&text)),
                ))
            }
            Ok(None) => return Err((ForfeitKind::NoMove, "no move".to_string())),
            Ok(Some(mv)) => mv,
        };
        let started = Instant::now();
        let decided = referee(&mut self.game, mv);
        self.referee
            .add(started.elapsed(), decided.1, (self.number, self.moves + 1));
        match decided.0 {
            Ok(outcome) => {
                self.moves += 1;
                let mark = if outcome == Outcome::Taboo { "!" } else { "" };
                self.history.push(format!("{mv}{mark}"));
                self.steps.push(Step::Move {
                    player,
                    mv,
                    taboo: outcome == Outcome::Taboo,
                });
                Ok(())
            }
            Err(f) => {
                let kind = if f == Forfeit::TabooListed {
                    ForfeitKind::TabooListed
                } else {
                    ForfeitKind::Illegal
                };
                Err((kind, format!("{mv}: {f}")))
            }
        }
    }
}

/// The first agent's points: 1, 0.5 or 0 (a forfeit loses whatever the scores).
fn first_agent_points(scores: [u32; 2], first_is: Player, forfeit: Option<&SideForfeit>) -> f64 {
    let mine = scores[first_is.index()];
    let theirs = scores[first_is.other().index()];
    match forfeit {
        Some((0, ..)) => 0.0,
        Some(_) => 1.0,
        None if mine > theirs => 1.0,
        None if mine < theirs => 0.0,
        None => 0.5,
    }
}

pub(super) fn play_game(
    start: Game,
    index: usize,
    contenders: &mut [Contender; 2],
    limits: [MoveLimit; 2],
) -> GameResult {
    // The first agent plays player 1 in even games, player 2 in odd ones.
    let first_is = if index.is_multiple_of(2) {
        Player::One
    } else {
        Player::Two
    };
    let side_of = |p: Player| if p == first_is { 0 } else { 1 };
    let mut play = Play {
        game: start.clone(),
        moves: 0,
        history: Vec::new(),
        steps: Vec::new(),
        referee: RefereeTimes::default(),
        number: index + 1,
    };
    let mut forfeit = None;
    let mut timing = [Timing::default(), Timing::default()];
    let never = AtomicBool::new(false);
    while !play.game.is_over() {
        let p = play.game.turn();
        if !play.game.can_move(p) {
            play.pass(p);
            continue;
        }
        let side = side_of(p);
        let answer = contenders[side].answer(&play.game, limits[side], &never);
        timing[side].add(&answer, limits[side], index, play.moves + 1);
        if let Err((kind, detail)) = play.apply(p, answer.choice) {
            forfeit = Some((side, kind, detail));
            break;
        }
    }
    let scores = play.game.scores();
    let points = first_agent_points(scores, first_is, forfeit.as_ref());
    GameResult {
        index,
        opening: None,
        first_is,
        scores,
        points,
        forfeit,
        moves: play.moves,
        start_rows: start.to_owned_rows(),
        history: play.history,
        start,
        steps: play.steps,
        end: play.game,
        timing,
        referee: play.referee,
    }
}

/// The arena's referee: the protocol's budgeted taboo decision ([`Game::play_within`]) first,
/// which settles almost every move at once, then [`REFEREE_ESCALATION`] times that budget, and
/// the unbounded one ([`Game::play`]) only for a move both leave undecided, since a match must
/// go on (the course's referee, too, waits for its oracle). On sparse 16x16 and 25x25 boards
/// the unbounded search alone could take minutes over a move the budgeted one decides by a
/// solution of the board without it. How far each move went is counted and reported.
fn referee(game: &mut Game, mv: Move) -> (Result<Outcome, Forfeit>, RefereeReach) {
    let budget = referee_nodes(game.board().shape());
    for (nodes, reach) in [
        (budget, RefereeReach::Budget),
        (budget * REFEREE_ESCALATION, RefereeReach::Escalated),
    ] {
        match game.play_within(mv, nodes) {
            Ok(outcome) => return (Ok(outcome), reach),
            Err(PlayError::Forfeit(f)) => return (Err(f), reach),
            Err(PlayError::Undecided { .. }) => {}
        }
    }
    (game.play(mv), RefereeReach::Unbounded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_rules::sudoku::board::{Board, Shape};
    use puzzle_rules::sudoku::game::Mode;
    use std::time::Duration;

    #[test]
    fn a_game_with_different_times_per_side_keeps_to_each() {
        let shape = Shape::parse("2x2").unwrap();
        let start = Game::new(Board::empty(shape), Mode::Rows, 0);
        let mut contenders = [
            Contender::Builtin(Agent::new(AgentKind::Default, 1, 1)),
            Contender::Builtin(Agent::new(AgentKind::Default, 1, 2)),
        ];
        let limits = [MoveLimit::Time(5), MoveLimit::Time(150)];
        let r = play_game(start, 0, &mut contenders, limits);
        assert!(r.forfeit.is_none(), "{:?}", r.forfeit);
        assert!(r.end.is_over());
        let [quick, slow] = r.timing;
        assert_eq!(quick.moves + slow.moves, r.moves);
        assert!(quick.moves > 0 && slow.moves > 0);
        // Every move had a legal move proposed and a bestmove.
        assert_eq!((quick.missed, quick.silent), (0, 0));
        assert_eq!((slow.missed, slow.silent), (0, 0));
        // Generous bounds (a loaded machine): the 5 ms side never gets the 150 ms side's time.
        assert!(
            quick.bestmove.time < Duration::from_millis(120),
            "{quick:?}"
        );
        assert!(
            slow.bestmove.time > quick.bestmove.time,
            "{slow:?} {quick:?}"
        );
        assert!(slow.bestmove.time < Duration::from_millis(1000), "{slow:?}");
        assert!(quick.first_legal.time <= quick.bestmove.time);
    }
}
