//! Every solution of the starting board, kept as one bitset per (cell, value): bit `s` of
//! the set of (cell, value) is on when solution `s` has that value in that cell.
//!
//! Why: a move is placed by the referee exactly when the board with it stays solvable, that
//! is when some solution of the current board has the move's value in its cell. The
//! solutions of the current board are the starting board's solutions that agree with every
//! cell filled since, so the exact search keeps that subset as a bitset (one AND per placed
//! value) and decides each move with one bitset test instead of a solver call.
//!
//! Only the solve's cells are kept (every cell, or the root's empty cells on a big board):
//! the other cells are filled and agree with every solution.

use puzzle_rules::sudoku::Board;

/// The solutions of a starting board as (cell, value) bitsets over a list of its cells.
pub struct SolutionSets {
    /// Number of solutions.
    count: usize,
    /// Words of one bitset.
    words: usize,
    /// Values per cell (N).
    size: usize,
    /// `words` words for each (kept cell, value - 1), cell-major.
    has: Vec<u64>,
}

impl SolutionSets {
    /// Enumerates the solutions of `board`; `None` when there are more than `max`.
    pub fn enumerate(board: &Board, max: usize) -> Option<SolutionSets> {
        let every: Vec<usize> = (0..board.shape().cells()).collect();
        SolutionSets::enumerate_over(board, max, &every)
    }

    /// [`SolutionSets::enumerate`] keeping the board cells `keep` only: cell `i` of the
    /// sets is board cell `keep[i]`.
    pub fn enumerate_over(board: &Board, max: usize, keep: &[usize]) -> Option<SolutionSets> {
        let shape = board.shape();
        let size = shape.size();
        let cells = size * size;
        let mut finder = Finder {
            size,
            m: shape.m(),
            n: shape.n(),
            values: board.cells().to_vec(),
            rows: vec![0; size],
            cols: vec![0; size],
            blocks: vec![0; size],
            keep,
            found: Vec::new(),
            count: 0,
            max,
            overflow: false,
        };
        for cell in 0..cells {
            let v = finder.values[cell];
            if v != 0 {
                finder.toggle(cell, v);
            }
        }
        finder.search();
        if finder.overflow {
            return None;
        }
        let count = finder.count;
        let words = count.div_ceil(64);
        let mut has = vec![0u64; keep.len() * size * words];
        for (s, solution) in finder.found.chunks(keep.len().max(1)).enumerate() {
            for (cell, &v) in solution.iter().enumerate() {
                has[(cell * size + v as usize - 1) * words + s / 64] |= 1 << (s % 64);
            }
        }
        Some(SolutionSets {
            count,
            words,
            size,
            has,
        })
    }

    /// Number of solutions.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Words of one bitset.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The set of solutions with `value` in `cell`.
    pub fn with(&self, cell: usize, value: u8) -> &[u64] {
        let at = (cell * self.size + value as usize - 1) * self.words;
        &self.has[at..at + self.words]
    }

    /// The set of all solutions.
    pub fn all(&self) -> Vec<u64> {
        let mut set = vec![u64::MAX; self.words];
        if !self.count.is_multiple_of(64) {
            if let Some(last) = set.last_mut() {
                *last = (1u64 << (self.count % 64)) - 1;
            }
        }
        set
    }
}

/// Depth-first enumeration, fewest candidates first.
struct Finder<'a> {
    size: usize,
    m: usize,
    n: usize,
    values: Vec<u8>,
    rows: Vec<u32>,
    cols: Vec<u32>,
    blocks: Vec<u32>,
    /// The board cells of a solution that are kept.
    keep: &'a [usize],
    /// The kept cells of the solutions found so far, concatenated.
    found: Vec<u8>,
    /// Solutions found so far.
    count: usize,
    max: usize,
    overflow: bool,
}

impl Finder<'_> {
    fn block(&self, cell: usize) -> usize {
        let (r, c) = (cell / self.size, cell % self.size);
        (r / self.m) * self.m + c / self.n
    }

    fn toggle(&mut self, cell: usize, value: u8) {
        let bit = 1u32 << (value - 1);
        let b = self.block(cell);
        self.rows[cell / self.size] ^= bit;
        self.cols[cell % self.size] ^= bit;
        self.blocks[b] ^= bit;
    }

    fn candidates(&self, cell: usize) -> u32 {
        let full = (1u32 << self.size) - 1;
        full & !(self.rows[cell / self.size]
            | self.cols[cell % self.size]
            | self.blocks[self.block(cell)])
    }

    fn search(&mut self) {
        if self.overflow {
            return;
        }
        let mut best: Option<(usize, u32)> = None;
        for cell in 0..self.values.len() {
            if self.values[cell] != 0 {
                continue;
            }
            let cand = self.candidates(cell);
            if best.is_none_or(|(_, b)| cand.count_ones() < b.count_ones()) {
                best = Some((cell, cand));
                if cand.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, mut cand)) = best else {
            if self.count >= self.max {
                self.overflow = true;
            } else {
                self.count += 1;
                self.found.extend(self.keep.iter().map(|&c| self.values[c]));
            }
            return;
        };
        while cand != 0 {
            let value = cand.trailing_zeros() as u8 + 1;
            cand &= cand - 1;
            self.values[cell] = value;
            self.toggle(cell, value);
            self.search();
            self.toggle(cell, value);
            self.values[cell] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_rules::sudoku::solver::count_solutions;
    use puzzle_rules::sudoku::Shape;

    #[test]
    fn counts_agree_with_the_rules_solver() {
        let shape = Shape::new(2, 2).unwrap();
        let empty = Board::empty(shape);
        assert_eq!(SolutionSets::enumerate(&empty, 1000).unwrap().count(), 288);
        assert!(SolutionSets::enumerate(&empty, 287).is_none());
        for rows in [
            "12../..../..../....",
            "1.../..2./.3../...4",
            "12../34../2.../....",
        ] {
            let board = Board::parse_rows(shape, rows).unwrap();
            let sets = SolutionSets::enumerate(&board, 1000).unwrap();
            assert_eq!(sets.count(), count_solutions(&board, 1000), "{rows}");
        }
        let shape = Shape::new(2, 3).unwrap();
        let board = Board::parse_rows(shape, "123.../456.../....../....../....../......").unwrap();
        let sets = SolutionSets::enumerate(&board, 1_000_000).unwrap();
        assert_eq!(sets.count(), count_solutions(&board, 1_000_000));
    }

    #[test]
    fn bitsets_hold_each_solution_once_per_cell() {
        let shape = Shape::new(2, 2).unwrap();
        let board = Board::parse_rows(shape, "1.../..../..../....").unwrap();
        let sets = SolutionSets::enumerate(&board, 1000).unwrap();
        let all = sets.all();
        for cell in 0..16 {
            let mut union = vec![0u64; sets.words()];
            let mut total = 0;
            for v in 1..=4 {
                for (w, word) in sets.with(cell, v).iter().enumerate() {
                    assert_eq!(union[w] & word, 0, "two values in one cell of one solution");
                    union[w] |= word;
                    total += word.count_ones();
                }
            }
            assert_eq!(union, all);
            assert_eq!(total as usize, sets.count());
        }
    }
}
