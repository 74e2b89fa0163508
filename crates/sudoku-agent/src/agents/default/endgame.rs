//! The exact endgame: near the end of a game on a board of any size ([`crate::exact`]),
//! `default` runs the tree search first with a share of its limit, then solves the position
//! over the real rules (every solution of the board, every taboo move as a pass) with the
//! rest, the tree search's move searched first. A finished solve is the
//! answer (`score ... exact`); a solve cut short still answers a move it proved better than
//! the tree search's, or else the tree search's move.
//!
//! The tree search proves nothing on a board with several solutions (it plays one solution's
//! values) and near the end its horizon guess swings between odd and even depths; the exact
//! solver has neither weakness but needs the whole remaining tree, so it is tried only where
//! that tree is small: few empty cells and few solutions. Why the tree search comes first: on
//! a loaded machine the solve often does not finish, and then the time it had was lost to the
//! tree search; run first, the tree search's move is an answer from the start and, searched
//! first by the solver, makes the solve cheaper (an early bound for the other moves).

use std::cell::Cell;
use std::sync::atomic::Ordering;
use std::time::Instant;

use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::Game;

use super::{score_diff, Outcome, Stopper};
use crate::agents::{Event, Limits};
use crate::exact::{self, Budget, Unfinished};

/// The exact solve is tried with at most this many empty cells.
pub(super) const MAX_EMPTIES: usize = 12;

/// ... and when the board has at most this many sudoku solutions (enumerated first).
pub(super) const MAX_SOLUTIONS: usize = 2_000;

/// Share of the limit (time or nodes) the tree search gets first: `TREE_SHARE.0 /
/// TREE_SHARE.1`; the exact solve gets the rest.
pub(super) const TREE_SHARE: (u32, u32) = (1, 5);

/// Nodes of the tree search first without a clock or node limit (`go depth`, `go
/// infinite`), so that the exact solve still comes.
pub(super) const TREE_ONLY_NODES: u64 = 200_000;

/// Nodes of the exact solve under `go depth` without a clock or node limit (a fixed budget,
/// so `go depth` stays reproducible).
pub(super) const DEPTH_ONLY_NODES: u64 = 1_000_000;

/// Whether the exact solve is tried on `game` at all: on a board of any size (one of more
/// than [`exact::MAX_CELLS`] cells is solved over its empty cells).
pub(super) fn worth_trying(game: &Game) -> bool {
    let empties = game.board().cells().iter().filter(|&&v| v == 0).count();
    empties <= MAX_EMPTIES
}

/// The limits of the tree search that runs before the exact solve: its share of the time
/// or nodes, or [`TREE_ONLY_NODES`] (the depth limit kept).
pub(super) fn tree_limits(limits: &Limits) -> Limits {
    let mut first = limits.clone();
    first.deadline = limits.deadline.map(|d| {
        let now = Instant::now();
        now + d.saturating_duration_since(now) * TREE_SHARE.0 / TREE_SHARE.1
    });
    first.nodes = match (limits.nodes, limits.deadline) {
        (Some(n), _) => Some(n / TREE_SHARE.1 as u64 * TREE_SHARE.0 as u64),
        (None, None) => Some(TREE_ONLY_NODES),
        (None, Some(_)) => None,
    };
    first
}

/// Solves `game` exactly within the rest of the search's limits, `guess` (the tree search's
/// move, already proposed) first. A finished solve is the answer, reported with its proven
/// score; otherwise a move the solve proved better than `guess`, or `guess`. `None` when
/// the board has too many sudoku solutions for the solver (the tree search then goes on
/// with the rest of the limits).
pub(super) fn solve(
    game: &Game,
    stopper: &Stopper,
    start: Instant,
    guess: Option<Move>,
    report: &mut dyn FnMut(Event),
) -> Option<Outcome> {
    let limits = &stopper.limits;
    let used = stopper.shared.nodes.load(Ordering::Relaxed);
    let max_nodes = match (limits.nodes, limits.deadline, limits.depth) {
        (Some(n), _, _) => n.saturating_sub(used),
        (None, None, Some(_)) => DEPTH_ONLY_NODES,
        _ => u64::MAX,
    };
    // Each call of the stop test stands for `STOP_EVERY` search nodes.
    let calls = Cell::new(0u64);
    let stop = || {
        calls.set(calls.get() + 1);
        stopper.flag.load(Ordering::Relaxed) || limits.deadline.is_some_and(|d| Instant::now() >= d)
    };
    let budget = Budget {
        max_nodes,
        max_solutions: MAX_SOLUTIONS,
    };
    let solved = match guess {
        Some(first) => exact::solve_best_after(game, budget, &stop, first),
        None => exact::solve_best(game, budget, &stop).map_err(Unfinished::from),
    };
    let nodes = match &solved {
        Ok(s) => s.nodes,
        Err(Unfinished {
            why: exact::OutOfBudget::Nodes { max_nodes },
            ..
        }) => *max_nodes,
        Err(_) => calls.get() * exact::STOP_EVERY,
    };
    stopper.shared.nodes.fetch_add(nodes, Ordering::Relaxed);
    let nodes = stopper.shared.nodes.load(Ordering::Relaxed);
    let solution = match solved {
        Ok(solution) => solution,
        Err(Unfinished {
            why: exact::OutOfBudget::Solutions { .. } | exact::OutOfBudget::TooLarge { .. },
            ..
        }) => return None,
        Err(unfinished) => {
            let best = unfinished.better.or(guess);
            if best != guess {
                if let Some(m) = best {
                    report(Event::Propose(m));
                }
            }
            return Some(Outcome { best, nodes });
        }
    };
    let Some(best) = solution.first_moves.first().and_then(|m| m.play) else {
        return Some(Outcome { best: guess, nodes });
    };
    if guess != Some(best) {
        report(Event::Propose(best));
    }
    let empties = game.board().cells().iter().filter(|&&v| v == 0).count();
    report(Event::Info {
        depth: empties as u32,
        nodes,
        millis: start.elapsed().as_millis() as u64,
        score: score_diff(game) + solution.value,
        pv: best,
        exact: true,
    });
    Some(Outcome {
        best: Some(best),
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use super::super::{search, Table};
    use super::*;
    use crate::agents::Limits;

    use crate::protocol::position_game as game;

    /// The move and the reports (time left out) of a one-thread search.
    fn run(game: &Game, limits: Limits, flag: &AtomicBool) -> (Option<Move>, Vec<String>) {
        let table = Arc::new(Table::new(16));
        table.new_search();
        let mut events = Vec::new();
        let best = search(game, limits, flag, 1, &table, &mut |e| {
            events.push(match e {
                Event::Info {
                    depth,
                    nodes,
                    score,
                    pv,
                    exact,
                    ..
                } => format!(
                    "Info depth: {depth}, nodes: {nodes}, score: {score}, pv: {pv}, exact: {exact}"
                ),
                Event::Propose(m) => format!("propose {m}"),
            })
        })
        .best;
        (best, events)
    }

    fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// Three solutions: the tree search played 2,3=1 (worth -12, values from `sudoku-agent
    /// solve-game ... --all-moves`) at 100 ms and at 2,000,000 nodes; 3,2=2 and 3,2=4 are
    /// worth 12. The exact endgame finds one of them and reports the proven score.
    #[test]
    fn the_exact_endgame_plays_a_move_the_tree_search_missed() {
        let g = game("position 2x2 1+2-3+4-/3+4-../..../...3- scores 1 1 taboo 2,1=4");
        let truth = exact::solve(&g, Budget::default()).expect("solved");
        assert_eq!(truth.value, 12);
        let (best, events) = run(&g, nodes(100_000), &AtomicBool::new(false));
        let best = best.expect("a move");
        assert!(truth.best_moves().any(|m| m.play == Some(best)), "{best}");
        let exact: Vec<&String> = events
            .iter()
            .filter(|e| e.contains("exact: true"))
            .collect();
        assert_eq!(exact.len(), 1, "{events:?}");
        assert!(exact[0].contains("score: 12,"), "{events:?}");
    }

    /// The node count of an `info` report.
    fn counted(info: &str) -> u64 {
        info.split("nodes: ")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .and_then(|n| n.parse().ok())
            .expect("a node count")
    }

    /// `go nodes N` replays exactly whether the exact solve finishes within its share (480,000
    /// nodes of 600,000) or not (16,000 of 20,000: the tree search's move is the answer).
    #[test]
    fn node_limited_searches_replay_exactly() {
        let g = game("position 2x2 1.../.2../..3./...4");
        let never = AtomicBool::new(false);
        for (n, proven) in [(20_000, false), (600_000, true)] {
            let first = run(&g, nodes(n), &never);
            assert_eq!(first, run(&g, nodes(n), &never), "nodes {n}");
            let exact = first.1.iter().any(|e| e.contains("exact: true"));
            assert_eq!(exact, proven, "nodes {n}: {:?}", first.1);
            let infos: Vec<&String> = first.1.iter().filter(|e| e.starts_with("Info")).collect();
            let tree = infos.iter().filter(|e| e.contains("exact: false"));
            // The tree search runs first with its share; the solve's report counts its nodes.
            let share = n / TREE_SHARE.1 as u64 * TREE_SHARE.0 as u64;
            let most = tree.map(|e| counted(e)).max().expect("a tree report");
            assert!(most <= share + 256, "{infos:?}");
            if proven {
                let last = infos.last().expect("a report");
                assert!(counted(last) > most, "{infos:?}");
            } else {
                assert_eq!(
                    first.0.map(|m| format!("propose {m}")).as_ref(),
                    first.1.iter().rfind(|e| e.starts_with("propose")),
                    "the answer is the last move proposed"
                );
            }
        }
    }

    /// A search stopped at once still answers a legal move but proves nothing.
    #[test]
    fn a_stopped_search_reports_no_exact_value() {
        let g = game("position 2x2 1+2-3+4-/3+4-../..../...3- scores 1 1 taboo 2,1=4");
        let (best, events) = run(&g, Limits::default(), &AtomicBool::new(true));
        assert!(best.is_some_and(|m| g.legal_moves(g.turn()).contains(&m)));
        assert!(
            events.iter().all(|e| !e.contains("exact: true")),
            "{events:?}"
        );
    }
}
