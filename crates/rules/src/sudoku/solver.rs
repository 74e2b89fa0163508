//! The sudoku solver: solution counting up to a limit, one solution, and the solvability
//! oracle that decides taboo moves.
//!
//! This is the general path for every block shape. It is a depth-first search over the
//! empty cell with the fewest candidates, with naked/hidden singles propagated first.

use super::board::{Board, Move};

/// Counts the solutions of `board`, stopping as soon as `limit` are found. Returns a number
/// in `0..=limit`.
pub fn count_solutions(board: &Board, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    let mut work = board.clone();
    let mut count = 0;
    let mut first = None;
    search(&mut work, limit, &mut count, &mut first);
    count
}

/// One solution of `board`, or `None` when it has none.
pub fn solve(board: &Board) -> Option<Board> {
    let mut work = board.clone();
    let mut count = 0;
    let mut first = None;
    search(&mut work, 1, &mut count, &mut first);
    first
}

/// Counts solutions up to `limit` and also returns the first one found.
pub fn solve_and_count(board: &Board, limit: usize) -> (usize, Option<Board>) {
    let mut work = board.clone();
    let mut count = 0;
    let mut first = None;
    if limit > 0 {
        search(&mut work, limit, &mut count, &mut first);
    }
    (count, first)
}

/// True when `board` can still be completed to a full, correct sudoku.
pub fn has_solution(board: &Board) -> bool {
    count_solutions(board, 1) == 1
}

fn search(board: &mut Board, limit: usize, count: &mut usize, first: &mut Option<Board>) {
    let size = board.size();
    // Find the empty cell with the fewest candidates.
    let mut best: Option<(usize, usize, u32)> = None;
    let mut best_count = u32::MAX;
    for row in 0..size {
        for col in 0..size {
            if board.get(row, col) != 0 {
                continue;
            }
            let cand = board.candidates(row, col);
            let c = cand.count_ones();
            if c < best_count {
                best_count = c;
                best = Some((row, col, cand));
                if c <= 1 {
                    break;
                }
            }
        }
        if best_count <= 1 {
            break;
        }
    }
    let Some((row, col, mut cand)) = best else {
        *count += 1;
        if first.is_none() {
            *first = Some(board.clone());
        }
        return;
    };
    while cand != 0 {
        let value = cand.trailing_zeros() as u8 + 1;
        cand &= cand - 1;
        board.place(Move::new(row, col, value));
        search(board, limit, count, first);
        board.clear(row, col);
        if *count >= limit {
            return;
        }
    }
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
    fn unsolvable_board_is_detected() {
        // Row 0 needs a 4 at 0,3 but column 3 already has a 4.
        let board = Board::parse_rows(Shape::new(2, 2).unwrap(), "123./..../..../...4").unwrap();
        assert!(!has_solution(&board));
        assert_eq!(solve(&board), None);
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
}
