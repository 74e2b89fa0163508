//! Seeded, reproducible generation of puzzles with a unique solution, for any block shape.
//!
//! A full grid comes from the classic pattern `value(r, c) = (r mod m) * n + r / m + c (mod N)`
//! scrambled by the validity-preserving symmetries (value relabelling, rows within a band,
//! bands, columns within a stack, stacks, and transposition when m = n). Clues are then
//! removed in a random order, each removal kept only if the puzzle stays unique (the solver
//! counts to 2), until the clue target is reached or no clue can go. The same shape, target
//! and seed always give the same puzzle: the only randomness is [`SplitMix64`].

use super::board::{Board, Shape};
#[cfg(test)]
use super::solver::count_solutions;
use super::solver::count_solutions_within;
use crate::rng::SplitMix64;

/// Search nodes one uniqueness check may use (boards up to 16x16, then larger ones, whose
/// nodes cost several times more). Past it the clue stays: on 25x25 boards below about 45%
/// clues a single check can otherwise run for minutes.
const NODE_BUDGET: [usize; 2] = [20_000, 2_000];

/// How hard a generated puzzle should be, expressed as how many clues to keep: fewer clues
/// means more deduction. `Hard` removes clues until none can go (a minimal puzzle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// Keep about half of the cells.
    Easy,
    /// Keep about 40% of the cells.
    Medium,
    /// Keep only what uniqueness needs.
    Hard,
}

impl Difficulty {
    /// Parses `easy`, `medium` or `hard`.
    pub fn parse(text: &str) -> Option<Difficulty> {
        match text.to_ascii_lowercase().as_str() {
            "easy" => Some(Difficulty::Easy),
            "medium" => Some(Difficulty::Medium),
            "hard" => Some(Difficulty::Hard),
            _ => None,
        }
    }

    /// The clue target for a shape.
    pub fn clue_target(self, shape: Shape) -> usize {
        let cells = shape.cells();
        match self {
            Difficulty::Easy => cells / 2,
            Difficulty::Medium => cells * 2 / 5,
            Difficulty::Hard => 0,
        }
    }
}

/// The lines (rows or columns) `0..groups * width` in a random order that keeps each
/// group of `width` lines (a band or a stack) together: the groups shuffled, then the lines
/// inside each group.
fn shuffled_lines(rng: &mut SplitMix64, groups: usize, width: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..groups).collect();
    rng.shuffle(&mut order);
    let mut lines = Vec::with_capacity(groups * width);
    for &group in &order {
        let mut inner: Vec<usize> = (0..width).collect();
        rng.shuffle(&mut inner);
        lines.extend(inner.into_iter().map(|l| group * width + l));
    }
    lines
}

/// A random full, correct grid of the given shape (row-major values).
pub fn full_grid(shape: Shape, rng: &mut SplitMix64) -> Vec<u8> {
    let (m, n, size) = (shape.m(), shape.n(), shape.size());
    let mut values: Vec<u8> = (1..=size as u8).collect();
    rng.shuffle(&mut values);
    // Rows: n bands of m rows. Columns: m stacks of n columns.
    let rows = shuffled_lines(rng, n, m);
    let cols = shuffled_lines(rng, m, n);
    let transpose = m == n && rng.below(2) == 1;
    let mut cells = vec![0u8; size * size];
    for (r, &pr) in rows.iter().enumerate() {
        for (c, &pc) in cols.iter().enumerate() {
            let v = ((pr % m) * n + pr / m + pc) % size;
            let (tr, tc) = if transpose { (c, r) } else { (r, c) };
            cells[tr * size + tc] = values[v];
        }
    }
    cells
}

/// A puzzle with a unique solution and at least `target` clues (exactly `target` when the
/// random removal order allows it; otherwise as few as it could reach, a clue also staying
/// when its removal cannot be proven safe within the node budget), reproducible from `seed`.
pub fn generate(shape: Shape, target: usize, seed: u64) -> Board {
    let mut rng = SplitMix64(seed);
    let mut cells = full_grid(shape, &mut rng);
    let mut order: Vec<usize> = (0..cells.len()).collect();
    rng.shuffle(&mut order);
    let mut clues = cells.len();
    let budget = NODE_BUDGET[(shape.size() > 16) as usize];
    for cell in order {
        if clues <= target {
            break;
        }
        let value = cells[cell];
        cells[cell] = 0;
        let board = Board::from_cells(shape, &cells).expect("a subset of a correct grid");
        if count_solutions_within(&board, 2, budget) == Some(1) {
            clues -= 1;
        } else {
            cells[cell] = value;
        }
    }
    Board::from_cells(shape, &cells).expect("a subset of a correct grid")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::check::check_filled;

    #[test]
    fn full_grids_are_correct_for_many_shapes() {
        for (m, n) in [
            (1, 1),
            (1, 4),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (3, 4),
            (4, 4),
            (5, 5),
        ] {
            let shape = Shape::new(m, n).unwrap();
            for seed in 0..5 {
                let grid = full_grid(shape, &mut SplitMix64(seed));
                assert_eq!(check_filled(shape, &grid), Ok(()), "{m}x{n} seed {seed}");
            }
        }
    }

    #[test]
    fn generated_puzzles_are_unique_reproducible_and_hit_the_target() {
        for (m, n, target) in [(2, 2, 0), (2, 3, 14), (3, 3, 30), (3, 3, 0), (4, 4, 140)] {
            let shape = Shape::new(m, n).unwrap();
            let a = generate(shape, target, 7);
            assert_eq!(a, generate(shape, target, 7), "same seed, same puzzle");
            assert_ne!(
                a,
                generate(shape, target, 8),
                "another seed, another puzzle"
            );
            assert_eq!(count_solutions(&a, 2), 1);
            assert!(a.filled() >= target);
            if target > 0 {
                assert_eq!(a.filled(), target, "{m}x{n}");
            }
        }
    }

    #[test]
    fn hard_puzzles_are_minimal() {
        let shape = Shape::new(2, 3).unwrap();
        let board = generate(shape, Difficulty::Hard.clue_target(shape), 3);
        // Removing any remaining clue breaks uniqueness.
        for i in 0..board.cells().len() {
            if board.cells()[i] != 0 {
                let mut cells = board.cells().to_vec();
                cells[i] = 0;
                let weaker = Board::from_cells(shape, &cells).unwrap();
                assert!(count_solutions(&weaker, 2) == 2);
            }
        }
    }
}
