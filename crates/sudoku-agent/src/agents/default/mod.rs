//! The `default` agent's search: alpha-beta over the *cell game*.
//!
//! The score of a move depends only on which cell is filled, never on the value, and on a
//! solvable board every empty cell has a value from a solution. So once one solution `S` of
//! the root board is known, the game reduces to "players alternately fill playable cells",
//! plus passes: a move known to make the sudoku unsolvable (a taboo move) scores nothing and
//! hands the turn over, which flips who fills the last cell of each region. The search plays
//! that reduced game (branching N*N instead of N*N*N) with iterative deepening, a shared
//! lock-free transposition table, move ordering (TT move, scoring moves, moves that do not
//! leave a region one cell from completion) and lazy SMP over all threads.
//!
//! Passes are taboo moves. On a board with one solution every value off `S` on an empty cell
//! that is not a duplicate is one, whoever may reach the cell later; inside the tree such a
//! move `r,c=v` stays a valid pass while its cell is empty and none of the cells that hold `v`
//! in `S` in its row, column or block are filled (the tree only ever places `S` values, so
//! then `v` is still not a duplicate, and a superset of an unsolvable board is unsolvable).
//! Which pass a player uses decides which stay for later, so where the search can see the
//! end of the game every usable pass is a move of its own; short of the end one pass stands
//! for all (a tempo move) and the value is no proof. On a board with several solutions the
//! passes are the taboo moves the solver finds at the root (the mover's and, under
//! allowed-squares rules, those of the cells it cannot play now), and nothing is proven.
//! Values returned by the tree are *future* points (side to move minus opponent), so
//! transpositions reached with different scores share entries.
//!
//! The root facts (a solution, the taboo moves, the quick move proposed before any search)
//! come from [`super::root`]; the horizon evaluation under the allowed-squares rules is
//! [`crate::eval`].
//!
//! - [`node`]: the reduced game: the board's geometry with the mode and Zobrist keys,
//!   and the node one thread searches (fill, unfill, passes).
//! - [`table`]: the lock-free transposition table and its [`table::Bound`]s.
//! - [`worker`]: one search thread: move ordering, negamax, evaluation, root iteration.
//! - [`endgame`]: the exact solve near the end of a game on any board, after a short
//!   tree search whose move it searches first.
//! - this file: stop signals and [`search`], which runs the main worker
//!   and the helpers (lazy SMP).

// Cells are indices into several parallel arrays (state, regions, zobrist keys), so index
// loops read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

mod endgame;
mod node;
mod table;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::{cell_moves, Game};

use super::root::{classify_root, quick_move, solve_until, AnalysisBudget, RootInfo, Solved};
use super::{Event, Limits, INF};
use node::{real_move, Node, Setup};
pub use table::Table;
use worker::Worker;

pub(super) const NO_MOVE: u16 = u16::MAX;
/// Root taboo moves tracked in the tree (a bit each).
pub(super) const MAX_TABOO: usize = 128;
/// Move codes from here on are passes: `PASSES + i` plays tracked taboo move `i` (cells
/// are below it on every board: 25x25 has 625).
const PASSES: u16 = NO_MOVE - MAX_TABOO as u16;

/// The move code of pass `i`.
pub(super) fn pass_move(i: usize) -> u16 {
    PASSES + i as u16
}

/// The pass a move code plays, `None` for a cell (or [`NO_MOVE`]).
pub(super) fn pass_index(mv: u16) -> Option<usize> {
    (PASSES..NO_MOVE)
        .contains(&mv)
        .then(|| (mv - PASSES) as usize)
}
/// Horizon bonus for the side that would fill the last cell.
pub(super) const PARITY: i32 = 2;
/// Weight (in quarter points) of the playable-cell difference under allowed-squares rules.
pub(super) const MOBILITY: i32 = 2;
/// Move-ordering bonus for a cell the opponent could fill now too (taking it denies it).
pub(super) const CONTESTED: i32 = 30;

/// Shared stop signals: the protocol's `stop` flag, the clock and the node budget.
pub struct Stopper<'a> {
    /// Set by the protocol loop on `stop`.
    pub flag: &'a AtomicBool,
    /// Limits of this search.
    pub limits: Limits,
    /// Node count and end signal shared with helper threads.
    pub shared: Arc<Shared>,
}

/// What the threads of one search share besides the table.
#[derive(Default)]
pub struct Shared {
    /// Nodes over all threads.
    pub nodes: AtomicU64,
    /// Set once the main thread is done (helper threads then stop).
    pub done: AtomicBool,
}

/// Helper threads do not see the protocol's flag; the main thread relays it through `done`.
static NEVER: AtomicBool = AtomicBool::new(false);

impl Stopper<'_> {
    fn should_stop(&self) -> bool {
        if self.shared.done.load(Ordering::Relaxed) || self.flag.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.shared.nodes.load(Ordering::Relaxed) >= n {
                return true;
            }
        }
        if let Some(d) = self.limits.deadline {
            if Instant::now() >= d {
                return true;
            }
        }
        false
    }
}

/// Result of a search.
pub struct Outcome {
    /// The move to play, `None` when the side to move has no move at all.
    pub best: Option<Move>,
    /// Nodes searched over all threads (aborted iterations included).
    pub nodes: u64,
}

/// On boards larger than 9x9 the first solve of a sparse board can outlast a short movetime:
/// a legal move is on offer from the start (it may prove taboo, which only passes the turn,
/// where proposing nothing would lose the game under the course's referee).
fn propose_before_solving(game: &Game, report: &mut dyn FnMut(Event)) {
    if game.board().size() > 9 {
        if let Some(&m) = game.legal_moves(game.turn()).first() {
            report(Event::Propose(m));
        }
    }
}

/// Runs the `default` agent on `game` with `threads` threads sharing `table`.
pub fn search(
    game: &Game,
    limits: Limits,
    stop_flag: &AtomicBool,
    threads: usize,
    table: &Arc<Table>,
    report: &mut dyn FnMut(Event),
) -> Outcome {
    let start = limits.since.unwrap_or_else(Instant::now);
    let stopper = Stopper {
        flag: stop_flag,
        limits,
        shared: Arc::new(Shared::default()),
    };
    if !game.can_move(game.turn()) {
        return Outcome {
            best: None,
            nodes: 0,
        };
    }
    propose_before_solving(game, report);
    let stopped = || stopper.should_stop();
    let Solved::Solution(first_solution) = solve_until(game.board(), &stopped, usize::MAX) else {
        // An unsolvable position (only reachable through a hand-made `position`): every
        // move is taboo, so any legal one is as good as another and none forfeits. The
        // same when the search must end before the solver knows (a hostile 25x25 board).
        let best = game.legal_moves(game.turn()).first().copied();
        if let Some(m) = best {
            report(Event::Propose(m));
        }
        return Outcome { best, nodes: 0 };
    };
    // Without a safe solution value to play (every one taboo-listed, only in a hand-made
    // position), any legal move: it may prove taboo, which only passes the turn.
    let quick = quick_move(game, first_solution.cells())
        .or_else(|| game.legal_moves(game.turn()).first().copied());
    if let Some(m) = quick {
        report(Event::Propose(m));
    }
    let tree = |stopper: &Stopper, report: &mut dyn FnMut(Event)| {
        let root = RootSearch {
            game,
            solution: &first_solution,
            quick,
            start,
        };
        root.run(stopper, threads, table, report)
    };
    if !endgame::worth_trying(game) {
        return tree(&stopper, report).outcome;
    }
    // Near the end of a game the tree search runs first with a share of the limit; its
    // move is the exact solve's first guess, and the answer when the solve does not finish.
    let first = Stopper {
        flag: stop_flag,
        limits: endgame::tree_limits(&stopper.limits),
        shared: Arc::new(Shared::default()),
    };
    let guess = tree(&first, report);
    stopper
        .shared
        .nodes
        .fetch_add(guess.outcome.nodes, Ordering::Relaxed);
    if guess.proven {
        return Outcome {
            best: guess.outcome.best,
            nodes: stopper.shared.nodes.load(Ordering::Relaxed),
        };
    }
    endgame::solve(game, &stopper, start, guess.outcome.best, report)
        .unwrap_or_else(|| tree(&stopper, report).outcome)
}

/// The tree search of one root: what it starts from.
struct RootSearch<'a> {
    game: &'a Game,
    solution: &'a puzzle_rules::sudoku::board::Board,
    /// The move proposed before the search.
    quick: Option<Move>,
    /// When the search started (for `info time`).
    start: Instant,
}

/// What a tree search found.
struct TreeResult {
    outcome: Outcome,
    /// Its value is proven (printed as `exact`).
    proven: bool,
}

impl RootSearch<'_> {
    /// Iterative deepening on the cell game within `stopper`'s limits, with `threads - 1`
    /// helper threads.
    fn run(
        &self,
        stopper: &Stopper,
        threads: usize,
        table: &Arc<Table>,
        report: &mut dyn FnMut(Event),
    ) -> TreeResult {
        let game = self.game;
        let budget = AnalysisBudget::for_search(game, &stopper.limits);
        let analysis_stop = analysis_stop(stopper.flag, &stopper.limits);
        let root = classify_root(game, self.solution, &analysis_stop, budget);
        let setup = Setup::new(game, &root.solution);
        let passes = CellGamePasses::of(game, &root);
        let node = Node::new(game, &setup, &root.solution, &passes.moves);
        let mut best_move = self.quick;
        let diff = score_diff(game);
        // Helper threads are detached: the answer must not wait for a descheduled helper to
        // notice the end (on a loaded machine that cost 10+ ms past the movetime).
        let setup = Arc::new(setup);
        spawn_helpers(threads, &setup, table, &node, stopper);
        let mut w = Worker::new(&setup, table, stopper, node.clone());
        let mut root_moves = w.moves(NO_MOVE, 0, true).0;
        let max_depth = stopper.limits.depth.unwrap_or(u32::MAX);
        let mut depth = 1;
        let mut proven = false;
        while depth <= max_depth {
            w.horizon = false;
            let Some((mv, v)) = w.root(depth, &mut root_moves) else {
                break;
            };
            let real = real_move(&setup, &node, &root.solution, mv);
            if Some(real) != best_move {
                report(Event::Propose(real));
            }
            best_move = Some(real);
            // A proof needs the cell game to be the real game and a value that rests on
            // nothing unproven.
            proven = !w.horizon && passes.exact;
            report(Event::Info {
                depth,
                nodes: stopper.shared.nodes.load(Ordering::Relaxed) + (w.nodes & 255),
                millis: self.start.elapsed().as_millis() as u64,
                score: diff + v,
                pv: real,
                exact: proven,
            });
            if proven || w.aborted {
                break;
            }
            depth += 1;
        }
        stopper.shared.done.store(true, Ordering::Relaxed);
        let main_nodes = w.nodes;
        TreeResult {
            outcome: Outcome {
                best: best_move,
                nodes: stopper.shared.nodes.load(Ordering::Relaxed) + main_nodes % 256,
            },
            proven,
        }
    }
}

/// When the root analysis stops: classifying the candidates costs solver calls, so on a
/// clock it keeps most of the time for the search (the first solution already gives safe
/// moves).
fn analysis_stop<'a>(flag: &'a AtomicBool, limits: &Limits) -> impl Fn() -> bool + 'a {
    let deadline = limits.deadline.map(|d| {
        let now = Instant::now();
        now + d.saturating_duration_since(now) / 3
    });
    move || flag.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d)
}

/// The passes of the cell game: the taboo moves it lets the players use.
struct CellGamePasses {
    /// Taboo moves, each usable while its cell and the cells holding its value in the
    /// solution in its row, column and block are empty (and its cell playable).
    moves: Vec<Move>,
    /// The cell game with these passes is the real game.
    exact: bool,
}

impl CellGamePasses {
    /// With one solution `S`, every value off `S` on an empty cell leaves the sudoku
    /// unsolvable, so the passes of every later position are the root's candidates off `S`
    /// (on any empty cell, whoever may reach it later) while they are not duplicates: the
    /// cell game is then the real game, provided every such move is tracked and no cell's
    /// `S` value is taboo-listed (such a cell could never be filled). With several solutions
    /// a player may steer between them, which the cell game does not see: it takes the
    /// taboo moves the root analysis found and proves nothing.
    fn of(game: &Game, root: &RootInfo) -> CellGamePasses {
        if !root.unique {
            return CellGamePasses {
                moves: root.taboo.clone(),
                exact: false,
            };
        }
        let board = game.board();
        let size = board.size();
        let mut moves = Vec::new();
        let mut blocked = false;
        for (cell, &value) in board.cells().iter().enumerate() {
            if value != 0 {
                continue;
            }
            let (row, col) = (cell / size, cell % size);
            let solved = root.solution[cell];
            blocked |= game.taboo().contains(&Move::new(row, col, solved));
            moves.extend(cell_moves(board, row, col, game.taboo()).filter(|m| m.value != solved));
        }
        CellGamePasses {
            exact: !blocked && moves.len() <= MAX_TABOO,
            moves,
        }
    }
}

/// Starts the lazy-SMP helpers: `threads - 1` workers on the same root and table, odd
/// ones one iteration deeper, until the main worker is done.
fn spawn_helpers(
    threads: usize,
    setup: &Arc<Setup>,
    table: &Arc<Table>,
    node: &Node,
    stopper: &Stopper,
) {
    // Read now: a helper thread that starts late must not take the next search's generation.
    let generation = table.generation();
    for helper in 1..threads.max(1) {
        let (setup, table, node) = (setup.clone(), table.clone(), node.clone());
        let (limits, shared) = (stopper.limits.clone(), stopper.shared.clone());
        std::thread::spawn(move || {
            let stopper = Stopper {
                flag: &NEVER,
                limits,
                shared,
            };
            let mut w = Worker::new(&setup, &table, &stopper, node);
            w.generation = generation;
            let mut root_moves = w.moves(NO_MOVE, 0, true).0;
            let mut depth = 1 + (helper as u32 % 2);
            while !w.aborted && !stopper.shared.done.load(Ordering::Relaxed) {
                if depth > w.node.empties as u32 + 64 {
                    break;
                }
                w.root(depth, &mut root_moves);
                depth += 1;
            }
        });
    }
}

/// The score of the player to move minus the opponent's.
fn score_diff(game: &Game) -> i32 {
    let s = game.scores();
    let me = game.turn().index();
    s[me] as i32 - s[1 - me] as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::root::{analyse_root, AnalysisBudget};
    use puzzle_rules::sudoku::board::{Board, Shape};
    use puzzle_rules::sudoku::game::Mode;
    use table::{Bound, Entry};

    fn empty(m: usize, n: usize, mode: Mode) -> Game {
        Game::new(Board::empty(Shape::new(m, n).unwrap()), mode, 0)
    }

    /// A helper thread stores depth-limited values as `Exact` bounds of great depth; the
    /// main thread then finds every child in the table and reached no leaf of its own. Such
    /// a value is no proof (an empty 9x9 board printed `score 2 exact` at `go nodes 1`).
    #[test]
    fn unproven_table_entries_do_not_make_a_proof() {
        let game = empty(3, 3, Mode::Classic);
        let never = AtomicBool::new(false);
        let limits = Limits::default();
        let stopper = Stopper {
            flag: &never,
            limits: limits.clone(),
            shared: Arc::new(Shared::default()),
        };
        let root = analyse_root(&game, &|| false, AnalysisBudget::for_search(&game, &limits))
            .expect("the empty board is solvable");
        let setup = Setup::new(&game, &root.solution);
        let node = Node::new(&game, &setup, &root.solution, &root.taboo);
        let table = Table::new(16);
        table.new_search();
        let mut w = Worker::new(&setup, &table, &stopper, node);
        let mut root_moves = w.moves(NO_MOVE, 0, true).0;
        for &(mv, _) in &root_moves {
            assert!(pass_index(mv).is_none(), "no taboo move on an empty board");
            w.node.fill(&setup, mv as usize);
            w.node.flip_turn(&setup);
            let entry = Entry {
                value: 0,
                depth: 200,
                bound: Bound::Exact,
                best: NO_MOVE,
                proven: false,
            };
            table.store(w.node.hash, entry, table.generation());
            w.node.flip_turn(&setup);
            w.node.unfill(&setup, mv as usize);
        }
        assert!(w.root(1, &mut root_moves).is_some());
        assert!(
            w.horizon,
            "a value built on unproven entries was taken as proven"
        );
    }

    fn exact_scores(game: &Game, limits: Limits, threads: usize) -> Vec<(u32, i32)> {
        let table = Arc::new(Table::new(16));
        table.new_search();
        let mut exact = Vec::new();
        search(
            game,
            limits,
            &AtomicBool::new(false),
            threads,
            &table,
            &mut |e| {
                if let Event::Info {
                    depth,
                    score,
                    exact: true,
                    ..
                } = e
                {
                    exact.push((depth, score));
                }
            },
        );
        exact
    }

    /// A 4x4 game with ten empty cells searched to its end gives one exact value;
    /// node-limited searches with one or two threads never print another one.
    #[test]
    fn stopped_searches_report_no_other_exact_value() {
        for mode in ["classic", "rows"] {
            let line = format!("position 2x2 1+2-3+4-/3-4+../..../.... mode {mode}");
            let Ok(crate::protocol::Command::Position(game)) = crate::protocol::parse_line(&line)
            else {
                panic!("{line}");
            };
            let to_the_end = Limits {
                depth: Some(40),
                ..Limits::default()
            };
            let full = exact_scores(&game, to_the_end, 1);
            // This board has several solutions: the tree search proves nothing there, the
            // exact endgame (ten empty cells) does, once; no other search may print a
            // different value.
            assert_eq!(full.len(), 1, "{full:?}");
            let truth = full.first().map(|&(_, score)| score);
            for nodes in [1, 50, 300, 1000, 5000] {
                for threads in [1, 2] {
                    let limits = Limits {
                        nodes: Some(nodes),
                        ..Limits::default()
                    };
                    for (depth, score) in exact_scores(&game, limits, threads) {
                        assert_eq!(Some(score), truth, "{mode} nodes {nodes} depth {depth}");
                    }
                }
            }
        }
    }

    /// `nodes` and `depth` end the search on the largest board (the root analysis of an
    /// empty 25x25 board took minutes, and neither limit applied to it).
    #[test]
    fn node_and_depth_limits_end_the_search_on_25x25() {
        let game = empty(5, 5, Mode::Classic);
        for limits in [
            Limits {
                nodes: Some(1),
                ..Limits::default()
            },
            Limits {
                depth: Some(1),
                ..Limits::default()
            },
        ] {
            let (tx, rx) = std::sync::mpsc::channel();
            let (l, game) = (limits.clone(), game.clone());
            std::thread::spawn(move || {
                let table = Arc::new(Table::new(12));
                let best = search(&game, l, &AtomicBool::new(false), 1, &table, &mut |_| {}).best;
                let _ = tx.send(best);
            });
            // Generous: about half a second in a release build on an idle machine.
            let best = rx
                .recv_timeout(std::time::Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("{limits:?}: no answer within 60 s"));
            assert!(best.is_some());
        }
    }
}
