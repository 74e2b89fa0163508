//! `check-play`: how close an agent (`default` unless told otherwise) is to perfect play.
//!
//! Games between varied built-in agents (the arena's games, every pair of the `--players`,
//! at a node limit so the positions replay from the seed) give the positions; every distinct
//! position in which the mover has a move is solved by the exact solver ([`sudoku_agent::exact`]),
//! the measured agent is asked for its move at the measured limit, and the move's proven
//! value is compared with the best: the share of optimal choices (with a 95% Wilson
//! interval) and the points lost per move (the best value minus the chosen move's, from the
//! mover's side). Positions the solver's budget does not solve are skipped and counted.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use puzzle_rules::sudoku::{Board, Game, Mode, Move, Shape};

use crate::arena::{self, MoveLimit};
use crate::record::Step;
use sudoku_agent::agents::{Agent, AgentKind};
use sudoku_agent::exact::{self, Budget, Effect, Solution};
use sudoku_agent::protocol::{self, position_line};

mod report;

use report::Summary;

/// Arguments of `check-play`.
#[derive(Args)]
pub struct CheckPlayArgs {
    /// Block shape (rows x columns of one block): 2x2 (a 4x4 board) or 2x3 (6x6).
    #[arg(long, default_value = "2x2")]
    shape: String,
    /// Play mode: classic, rows, border or random.
    #[arg(long, default_value = "classic")]
    mode: String,
    /// Random givens added to the start of each pair of games, e.g. 16-20 or 18 (as the
    /// arena's `--givens`).
    #[arg(long)]
    givens: Option<String>,
    /// Agents that play the games, comma-separated; every pair of them (each agent with
    /// itself too) plays `--games` games.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,greedy,territory,mcts,default"
    )]
    players: Vec<String>,
    /// Games per pair of players (sides swap every game).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Nodes per move of the players (`default` and `original` count search nodes, `mcts`
    /// playouts), so the games replay exactly from the seed.
    #[arg(long, default_value_t = 2000)]
    play_nodes: u64,
    /// Seed of the start positions and of the players' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Measure only positions with at least this many filled cells (the exact solver
    /// refuses boards with more than 1,000,000 sudoku solutions).
    #[arg(long, default_value_t = 0)]
    min_filled: usize,
    /// The agent measured.
    #[arg(long, default_value = "default")]
    agent: String,
    /// Milliseconds the measured agent gets per position (`go movetime`).
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// Nodes the measured agent gets per position instead (`go nodes`; a run that replays
    /// exactly).
    #[arg(long)]
    nodes: Option<u64>,
    /// Search nodes of the exact solver per position (positions it cannot solve are skipped
    /// and counted).
    #[arg(long, default_value_t = 5_000_000)]
    max_nodes: u64,
    /// Ask the agent again at this many nodes in every position where it missed, to tell
    /// choices a deeper search corrects from those its model of the game gets wrong.
    #[arg(long)]
    recheck_nodes: Option<u64>,
    /// Suboptimal choices printed, the most points lost first.
    #[arg(long, default_value_t = 5)]
    worst: usize,
    /// One JSON object instead of text lines.
    #[arg(long)]
    json: bool,
}

/// The games that give the positions.
#[derive(Clone, Debug)]
pub struct Games {
    /// Block shape.
    pub shape: Shape,
    /// Play mode.
    pub mode: Mode,
    /// Random givens at the start of each pair of games (lowest, highest).
    pub givens: Option<(usize, usize)>,
    /// The agents that play; every pair of them plays.
    pub players: Vec<AgentKind>,
    /// Games per pair of players.
    pub games_per_pair: usize,
    /// Nodes per move of the players.
    pub play_nodes: u64,
    /// Seed of the start positions and of the players.
    pub seed: u64,
}

/// One game played to collect positions.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Its number, from 1.
    pub number: usize,
    /// The agent of player 1 in odd-numbered games of its pair, player 2 in the others.
    pub first: AgentKind,
    /// The other agent.
    pub second: AgentKind,
    /// Steps played.
    pub steps: usize,
    /// Positions in which the mover had a move.
    pub positions: usize,
    /// Those not reached in an earlier game (or earlier in this one).
    pub new: usize,
}

impl Games {
    /// Plays the games and returns every distinct position (by its `position` line) in which
    /// the mover has a move, in the order reached, with the games.
    pub fn positions(&self) -> (Vec<Game>, Vec<PlayedGame>) {
        let base = Game::new(Board::empty(self.shape), self.mode, 0);
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        let mut played = Vec::new();
        let mut index = 0;
        for (i, &first) in self.players.iter().enumerate() {
            for &second in &self.players[i..] {
                for _ in 0..self.games_per_pair {
                    let start =
                        arena::start_position(&base, self.mode, self.givens, self.seed, index / 2);
                    let steps = arena::play_builtin(
                        [first, second],
                        start.clone(),
                        index,
                        self.seed,
                        MoveLimit::Nodes(self.play_nodes),
                    );
                    let mut game = PlayedGame {
                        number: index + 1,
                        first,
                        second,
                        steps: steps.len(),
                        positions: 0,
                        new: 0,
                    };
                    let mut position = start;
                    for step in steps {
                        if position.can_move(position.turn()) {
                            game.positions += 1;
                            if seen.insert(position_line(&position)) {
                                game.new += 1;
                                out.push(position.clone());
                            }
                        }
                        match step {
                            Step::Move { mv, .. } => {
                                position.play(mv).expect("the arena played it");
                            }
                            Step::Pass { .. } => position.pass(),
                        }
                    }
                    played.push(game);
                    index += 1;
                }
            }
        }
        (out, played)
    }
}

/// What the measured agent chose in one solved position.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The position, as a `position` line.
    pub position: String,
    /// The move chosen (`None`: no move although the mover has one).
    pub chosen: Option<Move>,
    /// Its proven value (`None`: no move, or a move the rules do not allow).
    pub chosen_value: Option<i32>,
    /// The game value (the best move's value).
    pub best: i32,
    /// The moves of that value.
    pub best_moves: Vec<Move>,
    /// Every optimal move is a taboo move (a deliberate pass).
    pub best_is_pass: bool,
    /// The move chosen is a taboo move (a pass) and another pass is optimal: the choice of
    /// which pass to play lost the points.
    pub worse_pass: bool,
    /// Sudoku solutions of the board.
    pub solutions: usize,
    /// Empty cells.
    pub empty: usize,
    /// The agent's move at the recheck limit and its value (misses only, when asked).
    pub recheck: Option<(Option<Move>, Option<i32>)>,
}

/// The proven value of `mv` in the solved position.
fn value_of(truth: &Solution, mv: Option<Move>) -> Option<i32> {
    let mv = mv?;
    truth
        .first_moves
        .iter()
        .find(|m| m.play == Some(mv))
        .map(|m| m.value)
}

impl Choice {
    /// The verdict on `chosen` in `game`, solved as `truth` (no recheck).
    pub fn of(game: &Game, truth: &Solution, chosen: Option<Move>) -> Choice {
        let is_pass = |mv: Option<Move>| {
            truth
                .first_moves
                .iter()
                .any(|m| m.play == mv && m.effect == Effect::Taboo)
        };
        Choice {
            position: position_line(game),
            chosen,
            chosen_value: value_of(truth, chosen),
            best: truth.value,
            best_moves: truth.best_moves().filter_map(|m| m.play).collect(),
            best_is_pass: truth.best_moves().all(|m| m.effect == Effect::Taboo),
            worse_pass: is_pass(chosen)
                && truth
                    .best_moves()
                    .any(|m| m.effect == Effect::Taboo && m.play != chosen),
            solutions: truth.sudoku_solutions,
            empty: game.board().cells().iter().filter(|&&v| v == 0).count(),
            recheck: None,
        }
    }

    /// Points lost: the best value minus the chosen move's (`None` for no or a forbidden
    /// move).
    pub fn lost(&self) -> Option<i32> {
        self.chosen_value.map(|v| self.best - v)
    }
}

/// What a measurement found.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Positions measured.
    pub positions: u64,
    /// Positions the exact solver solved.
    pub solved: u64,
    /// Positions it did not solve within its budget (not measured).
    pub skipped: u64,
    /// Solved positions in which some move of the mover is not optimal.
    pub contested: u64,
    /// Solved positions in which the agent chose a move of optimal value.
    pub optimal: u64,
    /// Contested positions in which it did.
    pub contested_optimal: u64,
    /// Solved positions in which it gave no move or one the rules do not allow.
    pub forbidden: u64,
    /// Points lost, summed over the solved positions with an allowed choice.
    pub lost: i64,
    /// The most points lost in one position.
    pub max_lost: i32,
    /// Every choice that was not optimal, in the order measured.
    pub misses: Vec<Choice>,
    /// Milliseconds spent by the exact solver.
    pub solve_ms: u64,
}

/// The misses, counted by what they have in common.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MissKinds {
    /// Misses.
    pub misses: u64,
    /// On boards with one sudoku solution.
    pub unique: u64,
    /// Where only deliberate passes (taboo moves) are optimal.
    pub best_is_pass: u64,
    /// Where the agent passed (played a taboo move) and another pass was optimal.
    pub worse_pass: u64,
    /// Misses rechecked deeper.
    pub rechecked: u64,
    /// Rechecked misses where the deeper search chose an optimal move.
    pub corrected: u64,
    /// Rechecked misses on boards with one solution the deeper search still got wrong.
    pub unique_uncorrected: u64,
}

impl Tally {
    /// The share of optimal choices among solved positions, with its 95% Wilson interval.
    pub fn optimal_share(&self) -> (f64, f64, f64) {
        share(self.optimal, self.solved)
    }

    /// Mean points lost per move (solved positions with an allowed choice).
    pub fn mean_lost(&self) -> f64 {
        let n = self.solved - self.forbidden;
        if n == 0 {
            0.0
        } else {
            self.lost as f64 / n as f64
        }
    }

    /// What the misses have in common.
    pub fn miss_kinds(&self) -> MissKinds {
        let mut k = MissKinds::default();
        for c in &self.misses {
            k.misses += 1;
            k.unique += u64::from(c.solutions == 1);
            k.best_is_pass += u64::from(c.best_is_pass);
            k.worse_pass += u64::from(c.worse_pass);
            if let Some((_, value)) = c.recheck {
                k.rechecked += 1;
                let corrected = value == Some(c.best);
                k.corrected += u64::from(corrected);
                k.unique_uncorrected += u64::from(!corrected && c.solutions == 1);
            }
        }
        k
    }

    /// The misses, the most points lost first (no or forbidden moves before all), ties in
    /// the order measured.
    pub fn worst(&self) -> Vec<&Choice> {
        let mut worst: Vec<&Choice> = self.misses.iter().collect();
        worst.sort_by_key(|c| std::cmp::Reverse(c.lost().unwrap_or(i32::MAX)));
        worst
    }
}

/// `k` of `n` as a share with its 95% Wilson interval (0 to 1).
fn share(k: u64, n: u64) -> (f64, f64, f64) {
    let p = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let (lo, hi) = lab_kit::stats::wilson(p, n as f64, 1.96);
    (p, lo, hi)
}

/// Solves each position (within `budget`), asks `agent` for its move at `limit` and adds the
/// verdict to a tally; where the move is not optimal, asks again at `recheck` if given.
pub fn measure(
    positions: &[Game],
    agent: &Agent,
    limit: MoveLimit,
    recheck: Option<MoveLimit>,
    budget: Budget,
) -> Tally {
    let mut tally = Tally::default();
    let stop = AtomicBool::new(false);
    for game in positions {
        tally.positions += 1;
        let start = Instant::now();
        let solved = exact::solve(game, budget);
        tally.solve_ms += start.elapsed().as_millis() as u64;
        let Ok(truth) = solved else {
            tally.skipped += 1;
            continue;
        };
        tally.solved += 1;
        let ask = |limit: MoveLimit| {
            agent.clear();
            agent.choose(
                game,
                limit.limits(std::time::Instant::now()),
                &stop,
                &mut |_| {},
            )
        };
        let chosen = ask(limit);
        let mut choice = Choice::of(game, &truth, chosen);
        if choice.lost() != Some(0) {
            choice.recheck = recheck.map(|limit| {
                let mv = ask(limit);
                (mv, value_of(&truth, mv))
            });
        }
        let contested = truth.first_moves.iter().any(|m| m.value < truth.value);
        tally.contested += u64::from(contested);
        match choice.lost() {
            None => {
                tally.forbidden += 1;
                tally.misses.push(choice);
            }
            Some(0) => {
                tally.optimal += 1;
                tally.contested_optimal += u64::from(contested);
            }
            Some(lost) => {
                tally.lost += i64::from(lost);
                tally.max_lost = tally.max_lost.max(lost);
                tally.misses.push(choice);
            }
        }
    }
    tally
}

/// What a `check-play` command line asks for, checked.
struct Request {
    games: Games,
    /// The agent measured.
    kind: AgentKind,
    limit: MoveLimit,
    recheck: Option<MoveLimit>,
}

impl Request {
    /// Reads and checks the arguments.
    fn of(args: &CheckPlayArgs) -> Result<Request> {
        let shape =
            Shape::parse(&args.shape).map_err(|e| anyhow!("--shape '{}': {e}", args.shape))?;
        let mode = Mode::parse(&args.mode).ok_or_else(|| {
            anyhow!(
                "--mode '{}': use classic, rows, border or random",
                args.mode
            )
        })?;
        let givens = args
            .givens
            .as_deref()
            .map(arena::parse_givens)
            .transpose()?;
        let players = args
            .players
            .iter()
            .map(|p| AgentKind::parse(p).ok_or_else(|| anyhow!("--players: unknown agent '{p}'")))
            .collect::<Result<Vec<_>>>()?;
        let kind = AgentKind::parse(&args.agent)
            .ok_or_else(|| anyhow!("--agent: unknown agent '{}'", args.agent))?;
        if players.is_empty() || args.games == 0 || args.play_nodes == 0 {
            bail!("--players, --games and --play-nodes must not be empty or 0");
        }
        if args.movetime == 0 || args.movetime > protocol::MAX_MOVETIME_MS {
            bail!("--movetime must be 1..{}", protocol::MAX_MOVETIME_MS);
        }
        let limit = match args.nodes {
            Some(0) => bail!("--nodes must be at least 1"),
            Some(n) => MoveLimit::Nodes(n),
            None => MoveLimit::Time(args.movetime),
        };
        let recheck = match args.recheck_nodes {
            Some(0) => bail!("--recheck-nodes must be at least 1"),
            n => n.map(MoveLimit::Nodes),
        };
        let games = Games {
            shape,
            mode,
            givens,
            players,
            games_per_pair: args.games,
            play_nodes: args.play_nodes,
            seed: args.seed,
        };
        Ok(Request {
            games,
            kind,
            limit,
            recheck,
        })
    }

    /// The header line: every setting of the run, with its seed.
    fn header(&self, args: &CheckPlayArgs) -> String {
        let Games {
            shape,
            mode,
            givens,
            ..
        } = self.games;
        let limit_text = match self.limit {
            MoveLimit::Time(ms) => format!("movetime {ms}"),
            MoveLimit::Nodes(n) => format!("nodes {n}"),
        };
        let recheck_text = args
            .recheck_nodes
            .map_or(String::new(), |n| format!(" recheck-nodes {n}"));
        let names: Vec<&str> = self.games.players.iter().map(|p| p.name()).collect();
        let givens_text = givens.map_or("none".to_string(), |(lo, hi)| format!("{lo}-{hi}"));
        format!(
            "check-play shape {shape} mode {mode} givens {givens_text} players {} games-per-pair {} \
             play-nodes {} seed {} min-filled {} agent {} {limit_text}{recheck_text} max-nodes {}",
            names.join(","),
            args.games,
            args.play_nodes,
            args.seed,
            args.min_filled,
            self.kind.name(),
            args.max_nodes
        )
    }
}

/// Runs `check-play`.
pub fn run(args: CheckPlayArgs) -> Result<()> {
    let request = Request::of(&args)?;
    let header = request.header(&args);
    if !args.json {
        engine_kit::println_or_exit!("{header}");
    }
    let (positions, played) = request.games.positions();
    if !args.json {
        report::print_games(&played);
    }
    let reached = positions.len();
    let positions: Vec<Game> = positions
        .into_iter()
        .filter(|g| g.board().filled() >= args.min_filled)
        .collect();
    let budget = Budget {
        max_nodes: args.max_nodes,
        ..Budget::default()
    };
    let started = Instant::now();
    let tally = measure(
        &positions,
        &Agent::new(request.kind, 1, args.seed),
        request.limit,
        request.recheck,
        budget,
    );
    let seconds = started.elapsed().as_secs_f64();
    Summary {
        header: &header,
        games: played.len(),
        reached,
        tally: &tally,
        seconds,
        worst: args.worst,
        max_nodes: args.max_nodes,
        rechecked: request.recheck.is_some(),
    }
    .print(args.json);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::position_game as game;

    fn small_games(players: Vec<AgentKind>) -> Games {
        Games {
            shape: Shape::new(2, 2).unwrap(),
            mode: Mode::Rows,
            givens: Some((4, 4)),
            players,
            games_per_pair: 2,
            play_nodes: 200,
            seed: 3,
        }
    }

    /// One empty cell with one value left: the only move is optimal, for any agent.
    #[test]
    fn a_single_legal_move_is_always_optimal() {
        let g = game("position 2x2 .234/3412/2143/4321 scores 4 3");
        assert_eq!(g.legal_moves(g.turn()).len(), 1);
        for kind in [AgentKind::Random, AgentKind::Default] {
            let t = measure(
                std::slice::from_ref(&g),
                &Agent::new(kind, 1, 0),
                MoveLimit::Nodes(100),
                None,
                Budget::default(),
            );
            assert_eq!((t.solved, t.optimal, t.contested), (1, 1, 0), "{kind:?}");
            assert_eq!(t.optimal_share().0, 1.0);
            assert_eq!((t.lost, t.max_lost), (0, 0));
            assert!(t.misses.is_empty());
        }
    }

    /// Positions are distinct, each with a move for the mover, and the games replay from the
    /// seed.
    #[test]
    fn games_give_distinct_positions_that_replay() {
        let games = small_games(vec![AgentKind::Random, AgentKind::Greedy]);
        let (positions, played) = games.positions();
        assert_eq!(played.len(), 6);
        assert_eq!(played[5].number, 6);
        let lines: HashSet<String> = positions.iter().map(position_line).collect();
        assert_eq!(lines.len(), positions.len());
        assert!(positions.iter().all(|g| g.can_move(g.turn())));
        assert_eq!(played.iter().map(|g| g.new).sum::<usize>(), positions.len());
        let (again, _) = games.positions();
        assert_eq!(
            again.iter().map(position_line).collect::<HashSet<_>>(),
            lines
        );
    }

    /// The pass chosen matters: on this board with one solution the taboo move 0,2=2 is
    /// worth 2 and 3,2=4 is worth 13 (values of `sudoku-lab solve-game`).
    #[test]
    fn a_worse_pass_is_a_miss_of_its_own_kind() {
        let g = game("position 2x2 1-..3+/4-..1+/2+.../3-... scores 0 1");
        let truth = exact::solve(&g, Budget::default()).unwrap();
        let at = |text: &str| Some(Move::parse(text).unwrap());
        let worse = Choice::of(&g, &truth, at("0,2=2"));
        assert_eq!(
            (worse.lost(), worse.worse_pass, worse.best_is_pass),
            (Some(11), true, true)
        );
        assert_eq!(worse.solutions, 1);
        let best = Choice::of(&g, &truth, at("3,2=4"));
        assert_eq!((best.lost(), best.worse_pass), (Some(0), false));
        let placed = Choice::of(&g, &truth, at("0,1=2"));
        assert!(placed.lost().unwrap() > 0 && !placed.worse_pass);
        let none = Choice::of(&g, &truth, None);
        assert_eq!(none.lost(), None);
    }

    /// A random chooser is caught: below 100% optimal, with points lost and its misses
    /// listed with the values the solver gives them.
    #[test]
    fn a_random_chooser_is_detected_below_perfect_play() {
        let (positions, _) = small_games(vec![AgentKind::Random, AgentKind::Greedy]).positions();
        let t = measure(
            &positions,
            &Agent::new(AgentKind::Random, 1, 5),
            MoveLimit::Nodes(1),
            Some(MoveLimit::Nodes(1)),
            Budget::default(),
        );
        assert_eq!(t.solved, t.positions, "all small endgames solve");
        assert!(t.contested > 0);
        assert!(t.optimal < t.solved, "{t:?}");
        assert!(t.optimal_share().2 < 1.0);
        assert!(t.lost > 0 && t.max_lost > 0 && t.mean_lost() > 0.0);
        assert_eq!(t.misses.len() as u64, t.solved - t.optimal);
        let worst = t.worst();
        assert_eq!(worst[0].lost(), Some(t.max_lost));
        for c in &t.misses {
            let truth = exact::solve(&game(&c.position), Budget::default()).unwrap();
            let chosen = truth
                .first_moves
                .iter()
                .find(|m| m.play == c.chosen)
                .unwrap();
            assert_eq!(c.lost(), Some(truth.value - chosen.value));
            assert!(c.lost().unwrap() > 0);
            assert_eq!(c.solutions, truth.sudoku_solutions);
            let (mv, v) = c.recheck.expect("misses are rechecked");
            let again = truth.first_moves.iter().find(|m| m.play == mv).unwrap();
            assert_eq!(v, Some(again.value));
        }
        let kinds = t.miss_kinds();
        assert_eq!(
            (kinds.misses, kinds.rechecked),
            (t.misses.len() as u64, t.misses.len() as u64)
        );
        assert!(
            kinds.corrected < kinds.rechecked,
            "a random chooser stays random"
        );
    }
}
