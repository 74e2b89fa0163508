//! The exact endgame: near the end of a game on a board the exact solver takes
//! ([`crate::exact`]), `default` first tries to solve the position over the real rules (every
//! solution of the board, every taboo move as a pass) with a share of its limit. A finished
//! solve is the answer (`score ... exact`); otherwise the tree search runs with the rest.
//!
//! The tree search proves nothing on a board with several solutions (it plays one solution's
//! values) and near the end its horizon guess swings between odd and even depths; the exact
//! solver has neither weakness but needs the whole remaining tree, so it is tried only where
//! that tree is small: few empty cells and few solutions.

use std::cell::Cell;
use std::sync::atomic::Ordering;
use std::time::Instant;

use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::Game;

use super::{score_diff, Outcome, Stopper};
use crate::agents::Event;
use crate::exact::{self, Budget};

/// The exact solve is tried with at most this many empty cells.
pub(super) const MAX_EMPTIES: usize = 16;

/// ... and when the board has at most this many sudoku solutions (enumerated first).
pub(super) const MAX_SOLUTIONS: usize = 2_000;

/// Share of the limit (time or nodes) the exact solve may use: 1/`SHARE_DIVISOR`.
pub(super) const SHARE_DIVISOR: u32 = 2;

/// Nodes of the exact solve under `go depth` without a clock or node limit (a fixed budget,
/// so `go depth` stays reproducible).
pub(super) const DEPTH_ONLY_NODES: u64 = 1_000_000;

/// Whether the exact solve is tried on `game` at all.
pub(super) fn worth_trying(game: &Game) -> bool {
    let board = game.board();
    let empties = board.cells().iter().filter(|&&v| v == 0).count();
    board.shape().cells() <= exact::MAX_CELLS && empties <= MAX_EMPTIES
}

/// Solves `game` exactly within a share of the search's limits; `None` when it did not
/// finish (the nodes it used are then counted in `stopper`'s shared node count, so the tree
/// search gets the rest of a node limit).
pub(super) fn solve(
    game: &Game,
    stopper: &Stopper,
    start: Instant,
    proposed: Option<Move>,
    report: &mut dyn FnMut(Event),
) -> Option<Outcome> {
    if !worth_trying(game) {
        return None;
    }
    let limits = &stopper.limits;
    let deadline = limits.deadline.map(|d| {
        let now = Instant::now();
        now + d.saturating_duration_since(now) / SHARE_DIVISOR
    });
    let max_nodes = match (limits.nodes, limits.deadline, limits.depth) {
        (Some(n), _, _) => n / SHARE_DIVISOR as u64,
        (None, None, Some(_)) => DEPTH_ONLY_NODES,
        _ => u64::MAX,
    };
    // Each call of the stop test stands for `STOP_EVERY` search nodes.
    let calls = Cell::new(0u64);
    let stop = || {
        calls.set(calls.get() + 1);
        stopper.flag.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d)
    };
    let budget = Budget {
        max_nodes,
        max_solutions: MAX_SOLUTIONS,
    };
    let solved = exact::solve_best(game, budget, &stop);
    let nodes = match &solved {
        Ok(s) => s.nodes,
        Err(exact::OutOfBudget::Nodes { max_nodes }) => *max_nodes,
        Err(_) => calls.get() * exact::STOP_EVERY,
    };
    stopper.shared.nodes.fetch_add(nodes, Ordering::Relaxed);
    let solution = solved.ok()?;
    let best = solution.first_moves.first()?.play?;
    if proposed != Some(best) {
        report(Event::Propose(best));
    }
    let empties = game.board().cells().iter().filter(|&&v| v == 0).count();
    report(Event::Info {
        depth: empties as u32,
        nodes: stopper.shared.nodes.load(Ordering::Relaxed),
        millis: start.elapsed().as_millis() as u64,
        score: score_diff(game) + solution.value,
        pv: best,
        exact: true,
    });
    Some(Outcome {
        best: Some(best),
        nodes: stopper.shared.nodes.load(Ordering::Relaxed),
    })
}
