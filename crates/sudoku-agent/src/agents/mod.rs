//! The agents, one file (or folder) each, and what they share: the [`Limits`] they are
//! given, the [`Event`]s they report, and the dispatch ([`Agent::choose`]).
//!
//! - [`random`], [`greedy`]: the baselines without search.
//! - [`original`]: the original report's minimax, kept as a baseline (`seed` is its former
//!   name).
//! - [`default`]: the strongest agent, alpha-beta over the cell game ([`crate::cell_game`])
//!   with passes, a transposition table and lazy SMP.
//! - [`territory`]: two plies of the cell game with the territory evaluation
//!   ([`crate::eval`], which `default` uses at its horizon too).
//! - [`mcts`]: Monte Carlo tree search over the cell game.
//! - [`alphabeta`]: a reference opponent of the kind good course agents are:
//!   iterative-deepening alpha-beta over real moves, most constrained cells only.
//! - [`root`]: exact facts about the root from the solver (a solution, the taboo moves),
//!   which every searching agent starts from.
//!
//! Every agent is a pure function of the game, the limits and a seed, so the protocol loop,
//! the arena and the bench all call the same code.

mod alphabeta;
mod default;
mod greedy;
mod mcts;
mod original;
mod random;
mod root;
mod territory;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::Game;

use default::Table;
use root::SolutionMoves;

/// The built-in agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentKind {
    /// A random legal, non-taboo-listed move (may turn out taboo).
    Random,
    /// Highest immediate score, random tie-break, no solvability check.
    Greedy,
    /// The original report's minimax: real moves, score-difference evaluation, taboo pass
    /// when losing. Also accepted as `seed`, its former name.
    Original,
    /// The strongest agent: alpha-beta over the cell game with passes.
    Default,
    /// Two plies with the territory evaluation (allowed-squares game).
    Territory,
    /// Monte Carlo tree search with random playouts.
    Mcts,
    /// Iterative-deepening alpha-beta over real moves: the most constrained cells, score
    /// difference and parity (a reference opponent).
    Alphabeta,
}

impl AgentKind {
    /// Every agent, in the order the `hello` option line lists them.
    pub const ALL: [AgentKind; 7] = [
        AgentKind::Random,
        AgentKind::Greedy,
        AgentKind::Original,
        AgentKind::Default,
        AgentKind::Territory,
        AgentKind::Mcts,
        AgentKind::Alphabeta,
    ];

    /// Parses an agent name (`seed` is the former name of `original`).
    pub fn parse(text: &str) -> Option<AgentKind> {
        let text = if text == "seed" { "original" } else { text };
        AgentKind::ALL.into_iter().find(|a| a.name() == text)
    }

    /// The agent's name.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
            AgentKind::Original => "original",
            AgentKind::Default => "default",
            AgentKind::Territory => "territory",
            AgentKind::Mcts => "mcts",
            AgentKind::Alphabeta => "alphabeta",
        }
    }
}

/// An agent with its settings and the state it keeps between moves.
pub struct Agent {
    /// Which agent.
    pub kind: AgentKind,
    /// Search threads (`default` only).
    pub threads: usize,
    /// Seed of the random choices.
    pub seed: u64,
    table: Arc<Table>,
    /// Nodes of the last `default` search (for `bench`).
    last_nodes: AtomicU64,
    /// The `mcts` agent's tree, kept between moves.
    mcts: std::sync::Mutex<mcts::Mcts>,
}

impl Agent {
    /// A new agent.
    pub fn new(kind: AgentKind, threads: usize, seed: u64) -> Agent {
        Agent {
            kind,
            threads: threads.max(1),
            seed,
            table: Arc::new(Table::new(20)),
            last_nodes: AtomicU64::new(0),
            mcts: Default::default(),
        }
    }

    /// Nodes searched by the last `default` search.
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes.load(Ordering::Relaxed)
    }

    /// Forgets what was learnt (new game).
    pub fn clear(&self) {
        self.table.clear();
        self.forget_tree();
    }

    /// Forgets the `mcts` agent's tree and keeps the table (after a `setoption`).
    pub fn forget_tree(&self) {
        if let Ok(mut m) = self.mcts.lock() {
            m.clear();
        }
    }

    /// Chooses a move for the player to move; `None` when it has no legal move at all.
    /// `report` receives `propose` and `info` events as the search goes.
    pub fn choose(
        &self,
        game: &Game,
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(Event),
    ) -> Option<Move> {
        // Seeded from the position too, so the same position always gets the same answer
        // while different positions of one game do not repeat the same random stream.
        let mut rng = SmallRng::seed_from_u64(self.seed ^ position_hash(game));
        match self.kind {
            AgentKind::Random => {
                let mv = random::choose(game, &mut rng);
                if let Some(m) = mv {
                    report(Event::Propose(m));
                }
                mv
            }
            AgentKind::Greedy => {
                let mv = greedy::choose(game, &mut rng);
                if let Some(m) = mv {
                    report(Event::Propose(m));
                }
                mv
            }
            AgentKind::Original => original::choose(game, limits, stop, report),
            AgentKind::Alphabeta => alphabeta::choose(game, limits, stop, report),
            AgentKind::Default => {
                // Fresh table per move: answers depend only on the position and the limits
                // (the protocol promises that at a node limit).
                self.table.new_search();
                let out = default::search(game, limits, stop, self.threads, &self.table, report);
                self.last_nodes.store(out.nodes, Ordering::Relaxed);
                out.best
            }
            AgentKind::Territory | AgentKind::Mcts => {
                // Both play the values of one solution; without one in time, a legal move.
                let plan = match SolutionMoves::find(game, &limits, stop) {
                    Ok(plan) => plan,
                    Err(fallback) => return fallback,
                };
                if self.kind == AgentKind::Territory {
                    return territory::choose(&plan, report);
                }
                let seed = rng.gen();
                let mut m = self.mcts.lock().unwrap_or_else(|e| e.into_inner());
                m.choose(&plan, seed, report)
            }
        }
    }
}

/// The position as words fed to the kit's word hasher, whose values are fixed by its own
/// code (std's `DefaultHasher` may change between Rust releases): every cell value, every
/// owner, the player to move, then the taboo moves after their count.
fn position_hash(game: &Game) -> u64 {
    use std::hash::Hasher;
    let mut h = engine_kit::hash::WordHasher::default();
    let words = game.board().cells().iter().chain(game.owners());
    words.for_each(|&byte| h.write_u64(byte as u64));
    h.write_u64(game.turn().index() as u64);
    h.write_u64(game.taboo().len() as u64);
    for m in game.taboo() {
        h.write_u64(m.row as u64);
        h.write_u64(m.col as u64);
        h.write_u64(m.value as u64);
    }
    h.finish()
}

/// Larger than any value the searches return: the `default` search's full window, and minus
/// what [`best_child`] returns when there are no children.
pub(crate) const INF: i32 = 1_000_000;

/// One fail-soft alpha-beta step: the best of `children`, each valued by `value(child, alpha,
/// beta)` from the mover's side with the current window, stopping at the first cut-off.
/// Returns `-INF` when there are no children. The small agents (`original`, `territory`)
/// share it; the `default` search has its own loop with ordering and a table.
pub(crate) fn best_child<M>(
    children: impl IntoIterator<Item = M>,
    mut alpha: i32,
    beta: i32,
    mut value: impl FnMut(M, i32, i32) -> i32,
) -> i32 {
    let mut best = -INF;
    for child in children {
        let v = value(child, alpha, beta);
        if v > best {
            best = v;
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// When to stop searching.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes (summed over threads).
    pub nodes: Option<u64>,
    /// Stop after this iteration depth.
    pub depth: Option<u32>,
    /// When the `go` line was read: `info time` counts from here (the search's own start
    /// when `None`).
    pub since: Option<Instant>,
}

/// What a search reports while it runs.
#[derive(Clone, Debug)]
pub enum Event {
    /// A move that is safe to play now (the current best).
    Propose(Move),
    /// Progress of one finished iteration.
    Info {
        /// Iteration depth.
        depth: u32,
        /// Nodes so far.
        nodes: u64,
        /// Milliseconds since the `go` line was read ([`Limits::since`]).
        millis: u64,
        /// Expected final score difference for the side to move.
        score: i32,
        /// Best move.
        pv: Move,
        /// True when the value is exact (the game tree was searched to its end).
        exact: bool,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_rules::sudoku::board::{Board, Shape};
    use puzzle_rules::sudoku::game::Mode;

    /// 2,3=4 (1 point) is worth 14 in the end, 0,2=4 only 0 because player 2 then passes with
    /// 3,3=1 in a cell player 1 cannot reach (values from `sudoku-lab solve-game`); the
    /// search must know the opponent's passes to see it.
    #[test]
    fn default_sees_the_opponents_pass_in_a_cell_the_mover_cannot_reach() {
        let line = "position 2x2 3+2-../4+1+3+2+/1-3+2-./2-4-.. mode random turn 1 scores 5 1 \
                    taboo 0,3=3 allowed1 1,2 0,0 1,3 1,0 allowed2 0,1 0,3 3,0 3,2";
        let Ok(crate::protocol::Command::Position(g)) = crate::protocol::parse_line(line) else {
            panic!("not a position");
        };
        let limits = Limits {
            depth: Some(30),
            ..Limits::default()
        };
        let best = Agent::new(AgentKind::Default, 1, 0).choose(
            &g,
            limits,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(best, Some(Move::parse("2,3=4").unwrap()));
    }

    #[test]
    fn searches_end_at_the_deadline_on_an_empty_25x25_board() {
        use std::time::Duration;
        let g = Game::new(Board::empty(Shape::new(5, 5).unwrap()), Mode::Border, 0);
        for kind in [AgentKind::Original, AgentKind::Default] {
            let start = Instant::now();
            let limits = Limits {
                deadline: Some(start + Duration::from_millis(50)),
                nodes: None,
                depth: None,
                since: None,
            };
            let best =
                Agent::new(kind, 1, 0).choose(&g, limits, &AtomicBool::new(false), &mut |_| {});
            assert!(best.is_some());
            assert!(
                start.elapsed() < Duration::from_secs(3),
                "{kind:?}: {:?}",
                start.elapsed()
            );
        }
    }
}
