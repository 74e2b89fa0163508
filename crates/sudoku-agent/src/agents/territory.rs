//! The `territory` agent: two plies of the cell game with the territory evaluation
//! ([`crate::eval`]), playing the values of one solution of the board.

use puzzle_rules::sudoku::board::Move;

use super::root::SolutionMoves;
use super::{best_child, Event};
use crate::cell_game::{Geometry, Pos};
use crate::eval;

const INF: i32 = 1 << 28;

/// Value of `pos` for the side to move in quarter points of future points: the territory
/// evaluation plus the best completion on offer (classic rules: that and the parity of the
/// empty cells).
fn horizon(geo: &Geometry, pos: &Pos) -> i32 {
    if pos.classic {
        // Classic fallback: the side to move takes the best completion on offer, and
        // fills the last cell when an odd number is left.
        let empties = pos.state.iter().filter(|&&s| s == 0).count();
        let best = (0..geo.cells)
            .filter(|&k| pos.state[k] == 0)
            .map(|k| pos.view().points(geo, k))
            .max()
            .unwrap_or(0);
        let parity = if empties % 2 == 1 { 8 } else { -8 };
        return 2 * best + parity;
    }
    let best = (0..geo.cells)
        .filter(|&k| pos.playable(geo, pos.turn, k))
        .map(|k| pos.view().points(geo, k))
        .max()
        .unwrap_or(0);
    eval::evaluate(geo, &pos.view()) + 2 * best
}

/// Value (quarter points, side to move) of `pos` searched `depth` plies: fills scored
/// exactly, a side without a cell passes, [`horizon`] at the horizon.
fn negamax(geo: &Geometry, pos: &mut Pos, depth: u32, alpha: i32, beta: i32) -> i32 {
    let me = pos.turn;
    let cells = pos.cells_of(geo, me);
    if cells.is_empty() {
        if !(0..geo.cells).any(|k| pos.playable(geo, me ^ 1, k)) {
            return 0;
        }
        pos.turn ^= 1;
        let v = -negamax(geo, pos, depth, -beta, -alpha);
        pos.turn ^= 1;
        return v;
    }
    if depth == 0 {
        return horizon(geo, pos);
    }
    best_child(cells, alpha, beta, |k, alpha, beta| {
        let pts = pos.play(geo, k as usize);
        let v = 4 * pts - negamax(geo, pos, depth - 1, -beta + 4 * pts, -alpha + 4 * pts);
        pos.undo(geo, k as usize, pts);
        v
    })
}

/// The `territory` agent: two plies of the cell game with the territory evaluation, values
/// from one solution of the board (so never a taboo move while a safe one exists).
pub fn choose(plan: &SolutionMoves, report: &mut dyn FnMut(Event)) -> Option<Move> {
    let (game, limits) = (plan.game(), plan.limits());
    let to_move = |k: usize| plan.to_move(k);
    let geo = Geometry::new(game.board().shape());
    let mut pos = Pos::from_game(game, &geo);
    let cells: Vec<usize> = pos
        .cells_of(&geo, pos.turn)
        .into_iter()
        .map(|k| k as usize)
        .filter(|&k| !game.taboo().contains(&to_move(k)))
        .collect();
    let Some(&first) = cells.first() else {
        return plan.first_legal();
    };
    report(Event::Propose(to_move(first)));
    let depth = limits.depth.unwrap_or(2).clamp(1, 2);
    let mut best = (-INF, first);
    for k in cells {
        let pts = pos.play(&geo, k);
        let v = 4 * pts - negamax(&geo, &mut pos, depth - 1, -INF, -best.0 + 4 * pts);
        pos.undo(&geo, k, pts);
        if v > best.0 {
            best = (v, k);
        }
        if plan.halted() {
            break;
        }
    }
    Some(to_move(best.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::Limits;
    use puzzle_rules::sudoku::board::{Board, Shape};
    use puzzle_rules::sudoku::game::{Game, Mode};
    use std::sync::atomic::AtomicBool;

    /// The `territory` agent's move without limits.
    fn pick(g: &Game) -> Option<Move> {
        let (limits, stop) = (Limits::default(), AtomicBool::new(false));
        let plan = SolutionMoves::find(g, &limits, &stop).expect("a solvable board");
        choose(&plan, &mut |_| {})
    }

    #[test]
    fn territory_agent_takes_a_completion_and_plays_legally() {
        let board = Board::parse_rows(Shape::new(2, 2).unwrap(), "123./..../..../....").unwrap();
        let g = Game::new(board, Mode::Rows, 0);
        let mv = pick(&g).unwrap();
        assert_eq!((mv.row, mv.col, mv.value), (0, 3, 4));
        for mode in [Mode::Classic, Mode::Border, Mode::Random] {
            let g = Game::new(Board::empty(Shape::new(3, 3).unwrap()), mode, 5);
            let mv = pick(&g).unwrap();
            assert!(g.check(mv).is_ok());
        }
    }
}
