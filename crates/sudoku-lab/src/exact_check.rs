//! `check-exact`: ground truth for the `default` agent's `exact` scores. Random 2x2
//! positions (partial games of random legal moves in every mode, from the empty board or a
//! few givens) are solved by the exact solver ([`sudoku_agent::exact`]); the real agent then
//! searches each at random limits (`nodes` or `depth`) with 1 and 2 threads, and every
//! `info ... exact` it reports must give the exhaustive value, with a principal move of
//! optimal value.

use std::sync::atomic::AtomicBool;

use anyhow::{bail, Result};
use clap::Args;
use puzzle_rules::rng::SplitMix64;
use puzzle_rules::sudoku::generate::full_grid;
use puzzle_rules::sudoku::{Board, Game, Mode, Player, Shape};

use sudoku_agent::agents::{Agent, AgentKind};
use sudoku_agent::agents::{Event, Limits};
use sudoku_agent::exact::{self, Budget, Solution};
use sudoku_agent::protocol::position_line;

/// Arguments of `check-exact`.
#[derive(Args)]
pub struct CheckExactArgs {
    /// Random positions to check.
    #[arg(long, default_value_t = 100)]
    positions: u64,
    /// Seed of the first position; position k uses seed + k.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Node budget of the exact solver per position (positions it cannot solve are skipped
    /// and counted).
    #[arg(long, default_value_t = 5_000_000)]
    max_nodes: u64,
}

/// One search limit the agent gets.
#[derive(Clone, Copy, Debug)]
pub enum Limit {
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth D`.
    Depth(u32),
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Nodes(n) => write!(f, "go nodes {n}"),
            Limit::Depth(d) => write!(f, "go depth {d}"),
        }
    }
}

/// An `exact` report of the agent that disagrees with the exhaustive value.
#[derive(Clone, Debug)]
pub struct Disagreement {
    /// The position, as a `position` line.
    pub position: String,
    /// The limit of the search.
    pub limit: Limit,
    /// Search threads.
    pub threads: usize,
    /// What went wrong.
    pub what: String,
}

/// What a run of checks found.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Positions solved exactly.
    pub solved: u64,
    /// Positions the exact solver's budget did not solve (not checked).
    pub skipped: u64,
    /// Agent searches run.
    pub searches: u64,
    /// `exact` reports checked.
    pub exact_reports: u64,
    /// Reports that disagree with the exhaustive value.
    pub disagreements: Vec<Disagreement>,
    /// Searches and `exact` reports by mode, start and threads.
    pub kinds: Vec<KindTally>,
}

/// The searches of one kind: a mode, a start (the empty board or givens) and threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindTally {
    /// The mode of the positions.
    pub mode: Mode,
    /// The positions start from givens (else from the empty board).
    pub givens: bool,
    /// Search threads.
    pub threads: usize,
    /// Agent searches run.
    pub searches: u64,
    /// Searches that reported at least one `exact` score.
    pub exact_searches: u64,
}

impl Tally {
    /// Counts a search of `kind` that gave `reports` exact reports.
    fn count(&mut self, mode: Mode, givens: bool, threads: usize, reports: u64) {
        self.searches += 1;
        self.exact_reports += reports;
        let at = match self
            .kinds
            .iter()
            .position(|k| (k.mode, k.givens, k.threads) == (mode, givens, threads))
        {
            Some(at) => at,
            None => {
                self.kinds.push(KindTally {
                    mode,
                    givens,
                    threads,
                    searches: 0,
                    exact_searches: 0,
                });
                self.kinds.len() - 1
            }
        };
        self.kinds[at].searches += 1;
        self.kinds[at].exact_searches += u64::from(reports > 0);
    }
}

/// A random 2x2 position: a random mode, the empty board or a few givens of a random grid,
/// then random legal moves played by the referee (taboo moves included); and whether it
/// started from givens.
pub fn random_position(rng: &mut SplitMix64) -> (Game, bool) {
    let shape = Shape::new(2, 2).expect("2x2 is a shape");
    let mode = [Mode::Classic, Mode::Rows, Mode::Border, Mode::Random][rng.below(4)];
    let mut board = Board::empty(shape);
    let givens = rng.below(3) == 0;
    if givens {
        let grid = full_grid(shape, rng);
        for _ in 0..1 + rng.below(4) {
            let cell = rng.below(16);
            board = Board::from_cells(shape, &{
                let mut cells = board.cells().to_vec();
                cells[cell] = grid[cell];
                cells
            })
            .expect("values of one grid");
        }
    }
    let mut game = Game::new(board, mode, 0);
    for _ in 0..rng.below(17) {
        if game.is_over() {
            break;
        }
        let moves = game.legal_moves(game.turn());
        if moves.is_empty() {
            game.pass();
            continue;
        }
        let mv = moves[rng.below(moves.len())];
        game.play(mv).expect("a legal move");
    }
    (game, givens)
}

/// Checks the agent's `exact` reports on `game` at `limit` with `threads` threads against
/// `truth`; returns the reports checked.
pub fn check_search(
    game: &Game,
    truth: &Solution,
    limit: Limit,
    threads: usize,
    out: &mut Vec<Disagreement>,
) -> u64 {
    let agent = Agent::new(AgentKind::Default, threads, 0);
    let limits = match limit {
        Limit::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        Limit::Depth(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
    };
    let stop = AtomicBool::new(false);
    let mut exact_scores = Vec::new();
    agent.choose(game, limits, &stop, &mut |event| {
        if let Event::Info {
            score,
            pv,
            exact: true,
            depth,
            ..
        } = event
        {
            exact_scores.push((depth, score, pv));
        }
    });
    // The agent's score is the final difference from the mover's side.
    let [one, two] = game.scores();
    let now = match game.turn() {
        Player::One => one as i64 - two as i64,
        Player::Two => two as i64 - one as i64,
    };
    let expected = now + truth.value as i64;
    for &(depth, score, pv) in &exact_scores {
        let mut fail = |what: String| {
            out.push(Disagreement {
                position: position_line(game),
                limit,
                threads,
                what,
            })
        };
        if score as i64 != expected {
            fail(format!(
                "depth {depth}: score {score} exact, the exhaustive value is {expected}"
            ));
        }
        let pv_value = truth
            .first_moves
            .iter()
            .find(|m| m.play == Some(pv))
            .map(|m| m.value);
        if pv_value != Some(truth.value) {
            fail(format!(
                "depth {depth}: pv {pv} has value {pv_value:?}, the best is {}",
                truth.value
            ));
        }
    }
    exact_scores.len() as u64
}

/// Checks `positions` random positions from `seed` on.
pub fn check(positions: u64, seed: u64, max_nodes: u64) -> Tally {
    let mut tally = Tally::default();
    let budget = Budget {
        max_nodes,
        ..Budget::default()
    };
    for k in 0..positions {
        let mut rng = SplitMix64(seed.wrapping_add(k));
        let (game, givens) = random_position(&mut rng);
        let Ok(truth) = exact::solve(&game, budget) else {
            tally.skipped += 1;
            continue;
        };
        tally.solved += 1;
        if !game.can_move(game.turn()) {
            continue;
        }
        for threads in [1, 2] {
            let limit = if rng.below(2) == 0 {
                Limit::Nodes(1 + (1u64 << rng.below(18)) + rng.below(1000) as u64)
            } else {
                Limit::Depth(1 + rng.below(20) as u32)
            };
            let reports = check_search(&game, &truth, limit, threads, &mut tally.disagreements);
            tally.count(game.mode(), givens, threads, reports);
        }
    }
    tally
}

/// Runs `check-exact`: one line per disagreement, then a summary; fails when any.
pub fn run(args: CheckExactArgs) -> Result<()> {
    let tally = check(args.positions, args.seed, args.max_nodes);
    for d in &tally.disagreements {
        engine_kit::println_or_exit!(
            "disagree {} | {} | Threads {} | {}",
            d.position,
            d.limit,
            d.threads,
            d.what
        );
    }
    let mut kinds = tally.kinds.clone();
    kinds.sort_by_key(|k| (k.mode as u8, k.givens, k.threads));
    for k in &kinds {
        engine_kit::println_or_exit!(
            "mode {} start {} threads {} searches {} with-exact {}",
            k.mode,
            if k.givens { "givens" } else { "empty" },
            k.threads,
            k.searches,
            k.exact_searches
        );
    }
    engine_kit::println_or_exit!(
        "positions {} solved {} skipped {} searches {} exact-reports {} disagreements {}",
        args.positions,
        tally.solved,
        tally.skipped,
        tally.searches,
        tally.exact_reports,
        tally.disagreements.len()
    );
    if !tally.disagreements.is_empty() {
        bail!("{} exact reports disagree", tally.disagreements.len());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::position_game as game;

    /// The protocol document's endgame: the agent's `exact -9` is the exhaustive value, and
    /// the same report against a wrong value is caught.
    #[test]
    fn the_checker_accepts_a_true_exact_score_and_catches_a_false_one() {
        let g = game("position 2x2 1+2-3+./3-4+1-./2+1-4+./4-3+2-. scores 5 6");
        let truth = exact::solve(&g, Budget::default()).unwrap();
        let mut found = Vec::new();
        let reports = check_search(&g, &truth, Limit::Depth(10), 1, &mut found);
        assert_eq!(reports, 1);
        assert!(found.is_empty(), "{found:?}");
        let mut wrong = truth.clone();
        wrong.value += 1;
        for m in &mut wrong.first_moves {
            m.value += 1;
        }
        check_search(&g, &wrong, Limit::Depth(10), 2, &mut found);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].what.contains("the exhaustive value is -8"),
            "{found:?}"
        );
    }

    /// Positions where `check-exact` found the agent's `exact` score wrong with one thread
    /// while its search offered one pass for all and only the mover's taboo moves as passes
    /// (the brute force of the exact solver's tests agrees with the solver on the first). All
    /// are within reach of the agent's exact endgame (the first board, with two solutions,
    /// only through it), so each search reports one proven score, the exhaustive value.
    #[test]
    fn the_agent_exact_scores_equal_the_exhaustive_value() {
        let cases = [
            (
                "position 2x2 .1-../24-.3+/1+.../4+.31+ mode border turn 2 scores 0 0 taboo 2,3=1",
                Limit::Depth(12),
            ),
            (
                "position 2x2 ..4+1+/..../3.../4-12. mode rows turn 2 scores 0 0 taboo 3,3=4 1,2=1",
                Limit::Nodes(66_497),
            ),
            (
                "position 2x2 .1+3-2-/3+..4+/...1+/..2+. mode border turn 1 scores 0 0 \
                 taboo 3,0=3 3,0=4 2,0=4",
                Limit::Depth(12),
            ),
            (
                "position 2x2 ..../1+2-3-./3+1+../2-... mode classic turn 1 scores 0 0 \
                 taboo 0,2=1 0,1=4",
                Limit::Depth(19),
            ),
        ];
        let mut found = Vec::new();
        for (line, limit) in cases {
            let g = game(line);
            let truth = exact::solve(&g, Budget::default()).unwrap();
            let reports = check_search(&g, &truth, limit, 1, &mut found);
            assert_eq!(reports, 1, "{line} {limit}");
        }
        assert!(found.is_empty(), "{found:#?}");
    }

    /// A short fuzz: random positions and limits, 1 and 2 threads.
    #[test]
    fn random_positions_and_limits_give_no_false_exact() {
        let tally = check(20, 1, 500_000);
        assert!(tally.solved > 0 && tally.exact_reports > 0, "{tally:?}");
        assert!(tally.disagreements.is_empty(), "{:#?}", tally.disagreements);
    }
}
