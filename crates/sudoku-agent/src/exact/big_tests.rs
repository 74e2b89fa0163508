//! The exact solver on boards of more than 128 cells (16x16 and 25x25, solved over their
//! empty cells) against the plain minimax of [`super::tests`], and the two ways of solving
//! (over every cell, over the empty cells) against each other on small boards.
//!
//! The positions have several sudoku solutions: a full grid has a few rectangles emptied
//! whose two values can be swapped (two rows of one band and two columns, or two columns of
//! one stack and two rows), so each rectangle doubles the solutions.

use puzzle_rules::rng::SplitMix64;
use puzzle_rules::sudoku::game::starting_cells;
use puzzle_rules::sudoku::generate::full_grid;
use puzzle_rules::sudoku::solver::count_solutions;
use puzzle_rules::sudoku::{Board, Game, Mode, Move, Player, Shape};

use super::tables::SolveCells;
use super::tests::brute_value;
use super::{solve, solve_best, solve_over, Budget, OutOfBudget, Solution};

const MODES: [Mode; 4] = [Mode::Classic, Mode::Rows, Mode::Border, Mode::Random];

/// Swaps the values of rows `a` and `b` (one band) on a closed cycle of columns starting at
/// `start`: each row keeps its values, each column and block too.
fn swap_row_cycle(g: &mut [u8], size: usize, a: usize, b: usize, start: usize) {
    let mut cols = vec![start];
    loop {
        let wanted = g[b * size + cols[cols.len() - 1]];
        let next = (0..size).find(|&c| g[a * size + c] == wanted).unwrap();
        if next == start {
            break;
        }
        cols.push(next);
    }
    for c in cols {
        g.swap(a * size + c, b * size + c);
    }
}

/// The transposed grid.
fn transposed(g: &[u8], size: usize) -> Vec<u8> {
    (0..size * size)
        .map(|i| g[(i % size) * size + i / size])
        .collect()
}

/// Rectangles (four cells) whose values can be swapped in `g`: two rows of one band, or
/// two columns of one stack.
fn rectangles(g: &[u8], shape: Shape) -> Vec<[usize; 4]> {
    let size = shape.size();
    let mut found = Vec::new();
    let at = |r: usize, c: usize| g[r * size + c];
    for r1 in 0..size {
        for r2 in r1 + 1..size {
            for c1 in 0..size {
                for c2 in c1 + 1..size {
                    let swappable = at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1);
                    let same_band = r1 / shape.m() == r2 / shape.m();
                    let same_stack = c1 / shape.n() == c2 / shape.n();
                    if swappable && (same_band || same_stack) {
                        found.push([
                            r1 * size + c1,
                            r1 * size + c2,
                            r2 * size + c1,
                            r2 * size + c2,
                        ]);
                    }
                }
            }
        }
    }
    found
}

/// A full grid with swappable rectangles: the classic pattern of [`full_grid`] has none on
/// 25x25 boards (odd block sides), so cycles of two rows and of two columns are swapped
/// until some appear.
fn grid_with_rectangles(shape: Shape, rng: &mut SplitMix64) -> (Vec<u8>, Vec<[usize; 4]>) {
    let size = shape.size();
    let mut g = full_grid(shape, rng);
    loop {
        let found = rectangles(&g, shape);
        if !found.is_empty() {
            return (g, found);
        }
        // Two rows of one band, then two columns of one stack (rows of the transposed grid,
        // whose bands are the stacks).
        let band = rng.below(shape.n()) * shape.m();
        let (a, b) = (band + rng.below(shape.m()), band + rng.below(shape.m()));
        if a != b {
            swap_row_cycle(&mut g, size, a, b, rng.below(size));
        }
        let mut t = transposed(&g, size);
        let stack = rng.below(shape.m()) * shape.n();
        let (a, b) = (stack + rng.below(shape.n()), stack + rng.below(shape.n()));
        if a != b {
            swap_row_cycle(&mut t, size, a, b, rng.below(size));
        }
        g = transposed(&t, size);
    }
}

/// A position near the end of a game with several sudoku solutions: `rects` rectangles and
/// `extra` more cells emptied, random owners, taboo moves (some on the rectangles), turn,
/// scores and starting cells.
fn several_solution_position(
    rng: &mut SplitMix64,
    shape: Shape,
    mode: Mode,
    rects: usize,
    extra: usize,
) -> Game {
    let size = shape.size();
    let (mut cells, found) = grid_with_rectangles(shape, rng);
    let mut emptied: Vec<usize> = Vec::new();
    for _ in 0..rects {
        emptied.extend(found[rng.below(found.len())]);
    }
    emptied.sort_unstable();
    emptied.dedup();
    let target = emptied.len() + extra;
    while emptied.len() < target {
        emptied.push(rng.below(size * size));
        emptied.sort_unstable();
        emptied.dedup();
    }
    for &cell in &emptied {
        cells[cell] = 0;
    }
    let board = Board::from_cells(shape, &cells).unwrap();
    assert!(count_solutions(&board, 2) >= 2);
    let owners: Vec<u8> = cells
        .iter()
        .map(|&v| if v == 0 { 0 } else { rng.below(3) as u8 })
        .collect();
    let taboo: Vec<Move> = (0..rng.below(4))
        .map(|_| {
            let cell = emptied[rng.below(emptied.len())];
            Move::new(cell / size, cell % size, rng.below(size) as u8 + 1)
        })
        .collect();
    let turn = [Player::One, Player::Two][rng.below(2)];
    let scores = [rng.below(30) as u32, rng.below(30) as u32];
    let starts = starting_cells(mode, shape, rng.next_u64());
    Game::from_parts(board, owners, mode, turn, scores, taboo, starts).unwrap()
}

/// Every move of `game` valued by a solve over `over`.
fn solved_over(game: &Game, over: SolveCells) -> Solution {
    solve_over(game, Budget::default(), &|| false, true, None, over)
        .map_err(|u| u.why)
        .expect("solved")
}

fn every_cell(game: &Game) -> Solution {
    solved_over(game, SolveCells::Board)
}

fn empty_cells(game: &Game) -> Solution {
    solved_over(game, SolveCells::Empty)
}

/// Every move's value and effect, and the game value, must be the same both ways.
fn assert_same_values(a: &Solution, b: &Solution, game: &Game) {
    let context = crate::protocol::position_line(game);
    assert_eq!(a.value, b.value, "{context}");
    assert_eq!(a.final_difference, b.final_difference, "{context}");
    assert_eq!(a.sudoku_solutions, b.sudoku_solutions, "{context}");
    let moves = |s: &Solution| {
        s.first_moves
            .iter()
            .map(|m| (m.play, m.effect, m.value))
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(a), moves(b), "{context}");
}

/// Big boards: the solver's value is the plain minimax's, every mode, 4 to 7 empty cells
/// (one rectangle and up to three more cells), and the one-move solve agrees.
fn check_big_boards(shape: Shape, seed: u64, rounds: usize, most_extra: usize) {
    let mut rng = SplitMix64(seed);
    let mut several = 0;
    for mode in MODES {
        for round in 0..rounds {
            let extra = round % (most_extra + 1);
            let game = several_solution_position(&mut rng, shape, mode, 1, extra);
            let context = crate::protocol::position_line(&game);
            let solution = solve(&game, Budget::default()).expect("solved");
            assert_eq!(solution.value, brute_value(&game), "{context}");
            several += usize::from(solution.sudoku_solutions >= 2);
            let best = solve_best(&game, Budget::default(), &|| false).expect("solved");
            assert_eq!(best.value, solution.value, "{context}");
            if let Some(m) = best.first_moves.first() {
                assert!(solution.best_moves().any(|b| b == m), "{context}");
            }
        }
    }
    assert_eq!(several, 4 * rounds);
}

#[test]
fn sixteen_by_sixteen_endgames_agree_with_plain_minimax() {
    check_big_boards(Shape::new(4, 4).unwrap(), 16, 6, 3);
}

#[test]
fn twenty_five_by_twenty_five_endgames_agree_with_plain_minimax() {
    check_big_boards(Shape::new(5, 5).unwrap(), 25, 4, 2);
}

/// On boards of at most 128 cells both ways run: every first move must get the same value
/// and effect (4x4 positions of the minimax tests, 6x6 and 9x9 endgames with up to four
/// solutions and up to eleven empty cells).
#[test]
fn both_ways_agree_on_small_boards() {
    // 4x4: the random positions of the minimax tests, and several-solution ones.
    let mut rng = SplitMix64(0xC0DE);
    for mode in MODES {
        for round in 0..40 {
            let game = super::tests::random_position(&mut rng, mode, 2 + round % 8, round % 5 == 0);
            assert_same_values(&every_cell(&game), &empty_cells(&game), &game);
        }
        let game = several_solution_position(&mut rng, Shape::new(2, 2).unwrap(), mode, 1, 3);
        assert_same_values(&every_cell(&game), &empty_cells(&game), &game);
    }
    // 9x9 and 6x6 endgames with two rectangles and a few more cells (up to 4 solutions).
    for shape in [Shape::new(3, 3).unwrap(), Shape::new(2, 3).unwrap()] {
        for mode in MODES {
            for round in 0..6 {
                let game =
                    several_solution_position(&mut rng, shape, mode, 1 + round % 2, round % 3);
                assert_same_values(&every_cell(&game), &empty_cells(&game), &game);
            }
        }
    }
}

/// `board` under classic rules with nothing played: player 1 to move, no scores, no taboo.
fn classic_game(board: Board) -> Game {
    let shape = board.shape();
    let cells = shape.cells();
    let starts = starting_cells(Mode::Classic, shape, 0);
    Game::from_parts(
        board,
        vec![0; cells],
        Mode::Classic,
        Player::One,
        [0, 0],
        Vec::new(),
        starts,
    )
    .unwrap()
}

#[test]
fn big_boards_with_too_many_empty_cells_are_refused() {
    let shape = Shape::new(4, 4).unwrap();
    let empty = classic_game(Board::empty(shape));
    assert_eq!(
        solve(&empty, Budget::default()),
        Err(OutOfBudget::TooLarge { empty_cells: 256 })
    );
    // 128 empty cells are taken (the budget then ends the solve).
    let mut rng = SplitMix64(3);
    let mut cells = full_grid(shape, &mut rng);
    for cell in cells.iter_mut().take(128) {
        *cell = 0;
    }
    let board = Board::from_cells(shape, &cells).unwrap();
    let game = classic_game(board);
    let budget = Budget {
        max_nodes: 1000,
        max_solutions: 100,
    };
    assert!(!matches!(
        solve(&game, budget),
        Err(OutOfBudget::TooLarge { .. })
    ));
}
