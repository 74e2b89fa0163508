//! The sudoku solver: solution counting up to a limit, one solution, and the solvability
//! oracle that decides taboo moves.
//!
//! Every entry point goes through one dispatch, [`run`] (or [`run_until`] with a stop
//! test), on the block shape: 3x3 boards go
//! to the band bitboard solver in [`nine`] (the agent's hot path and the benchmark
//! collections), 4x4 boards to its 16x16 counterpart [`sixteen`]; every other shape up to
//! 25x25 takes the [`general`] path. All three answer one [`Answer`] to one [`Request`];
//! a request with a node budget ([`Request::within`]) may come back not `complete`, which
//! callers read as "unknown".
//!
//! [`super::reference`] is a deliberately naive second implementation used only to
//! cross-check these in tests.

mod answer;
pub mod general;
pub mod nine;
mod restart;
pub mod sixteen;

pub use answer::{Answer, Request, StopTest};

use super::board::Board;

/// Solves `board` as `request` asks, on the path for its shape.
pub fn run(board: &Board, request: Request) -> Answer {
    dispatch(board, request, None)
}

/// [`run`] that also ends when `stop` says so (polled every few hundred search nodes; the
/// answer is then not `complete`), so a caller with a clock gets control back in about a
/// millisecond whatever the budget. The 9x9 path never polls: its worst case is a fraction
/// of a millisecond.
pub fn run_until(board: &Board, request: Request, stop: StopTest) -> Answer {
    dispatch(board, request, Some(stop))
}

/// The one dispatch on the block shape.
fn dispatch(board: &Board, request: Request, stop: Option<StopTest>) -> Answer {
    if request.limit == 0 {
        return Answer::NONE;
    }
    let shape = board.shape();
    match (shape.m(), shape.n()) {
        (3, 3) => nine::solve(board.cells(), request),
        (4, 4) => sixteen::solve(board.cells(), request, stop),
        _ => general::solve(shape, board.cells(), request, stop),
    }
}

/// The name of the compiled copy of the 9x9 solver that runs on this CPU (`scalar` or
/// `avx2`, see [`nine::Path`]), for tools that report their speed.
pub fn path_name() -> &'static str {
    nine::Path::fastest().name()
}

/// Counts the solutions of `board`, stopping as soon as `limit` are found. Returns a number
/// in `0..=limit`.
pub fn count_solutions(board: &Board, limit: usize) -> usize {
    run(board, Request::count(limit)).count
}

/// One solution of `board`, or `None` when it has none.
pub fn solve(board: &Board) -> Option<Board> {
    solve_and_count(board, 1).1
}

/// Counts solutions up to `limit` and also returns the first one found.
pub fn solve_and_count(board: &Board, limit: usize) -> (usize, Option<Board>) {
    let answer = run(board, Request::count(limit).with_first());
    let first = answer.first.map(|cells| {
        Board::from_cells(board.shape(), &cells).expect("a solver solution is a valid board")
    });
    (answer.count, first)
}

/// True when `board` can still be completed to a full, correct sudoku.
pub fn has_solution(board: &Board) -> bool {
    count_solutions(board, 1) == 1
}

/// Counts solutions on the general path whatever the shape (also for 3x3 boards), so tests
/// can compare it with the 9x9 path.
pub fn count_solutions_general(board: &Board, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    general::solve(board.shape(), board.cells(), Request::count(limit), None).count
}

/// Like [`count_solutions`], but gives up after `max_nodes` search nodes and then answers
/// `None`. Large boards (16x16, 25x25) with few clues can need an exponential search; the
/// generator uses this to stay fast, keeping a clue whenever uniqueness is not proven in
/// budget. 3x3 boards ignore the budget: the band solver's worst case is a fraction of a
/// millisecond.
pub fn count_solutions_within(board: &Board, limit: usize, max_nodes: usize) -> Option<usize> {
    let answer = run(board, Request::count(limit).within(max_nodes));
    answer.complete.then_some(answer.count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::board::Shape;

    #[test]
    fn empty_4x4_has_288_solutions() {
        let board = Board::empty(Shape::new(2, 2).unwrap());
        assert_eq!(count_solutions(&board, 1000), 288);
        assert_eq!(count_solutions(&board, 5), 5);
        assert!(has_solution(&board));
    }

    #[test]
    fn empty_boards_of_degenerate_shapes() {
        // 1x1: one cell, one solution. 1x2 (N=2): 2 solutions. 1x3: 3x3 latin squares with
        // rows as blocks: 12 latin squares of order 3.
        assert_eq!(
            count_solutions(&Board::empty(Shape::new(1, 1).unwrap()), 10),
            1
        );
        assert_eq!(
            count_solutions(&Board::empty(Shape::new(1, 2).unwrap()), 10),
            2
        );
        assert_eq!(
            count_solutions(&Board::empty(Shape::new(1, 3).unwrap()), 100),
            12
        );
        assert_eq!(
            count_solutions(&Board::empty(Shape::new(3, 1).unwrap()), 100),
            12
        );
    }

    #[test]
    fn unsolvable_board_is_detected() {
        // Row 0 needs a 4 at 0,3 but column 3 already has a 4.
        let board = Board::parse_rows(Shape::new(2, 2).unwrap(), "123./..../..../...4").unwrap();
        assert!(!has_solution(&board));
        assert_eq!(solve(&board), None);
        assert_eq!(count_solutions(&board, 0), 0);
    }

    #[test]
    fn solution_is_a_completion() {
        let board = Board::parse_rows(
            Shape::new(2, 3).unwrap(),
            "1...../....../....../....../....../......",
        )
        .unwrap();
        let sol = solve(&board).unwrap();
        assert!(sol.is_full());
        assert_eq!(sol.get(0, 0), 1);
    }

    #[test]
    fn node_budget_gives_up_instead_of_guessing() {
        let board = Board::empty(Shape::new(4, 4).unwrap());
        assert_eq!(count_solutions_within(&board, 2, 1), None);
        assert_eq!(count_solutions_within(&board, 2, 100_000), Some(2));
        let nine = Board::empty(Shape::new(3, 3).unwrap());
        assert_eq!(count_solutions_within(&nine, 2, 1), Some(2));
    }

    #[test]
    fn empty_9x9_and_large_shapes_have_solutions() {
        for (m, n) in [(3, 3), (3, 4), (4, 4), (4, 5), (5, 5)] {
            let board = Board::empty(Shape::new(m, n).unwrap());
            let (count, sol) = solve_and_count(&board, 2);
            assert_eq!(count, 2, "{m}x{n}");
            assert!(sol.unwrap().is_full());
        }
    }
}
