//! The sudoku solver: solution counting up to a limit, one solution, and the solvability
//! oracle that decides taboo moves.
//!
//! Every entry point dispatches on the block shape: 3x3 boards go to the band bitboard
//! solver in [`super::solver9`] (the agent's hot path and the benchmark collections);
//! every other shape up to 25x25 takes the general path here. The general path keeps a
//! candidate mask per cell, propagates naked singles (a queue) and hidden singles (per
//! row, column and block), and branches on the cell with the fewest candidates, copying the
//! state per branch (cheaper than undo logs at these sizes).
//!
//! [`super::reference`] is a deliberately naive second implementation used only to
//! cross-check this one in tests.

use super::board::{Board, Shape};
use super::solver9;

/// Counts the solutions of `board`, stopping as soon as `limit` are found. Returns a number
/// in `0..=limit`.
pub fn count_solutions(board: &Board, limit: usize) -> usize {
    run(board, limit, false).0
}

/// One solution of `board`, or `None` when it has none.
pub fn solve(board: &Board) -> Option<Board> {
    run(board, 1, true).1
}

/// Counts solutions up to `limit` and also returns the first one found.
pub fn solve_and_count(board: &Board, limit: usize) -> (usize, Option<Board>) {
    run(board, limit, true)
}

/// True when `board` can still be completed to a full, correct sudoku.
pub fn has_solution(board: &Board) -> bool {
    count_solutions(board, 1) == 1
}

fn run(board: &Board, limit: usize, want_first: bool) -> (usize, Option<Board>) {
    if limit == 0 {
        return (0, None);
    }
    let shape = board.shape();
    let (count, first) = if shape.m() == 3 && shape.n() == 3 {
        let (count, first) = solver9::solve_board(board, limit, want_first);
        (count, first.map(|cells| cells.to_vec()))
    } else {
        general(shape, board.cells(), limit, want_first)
    };
    let first = first
        .map(|cells| Board::from_cells(shape, &cells).expect("a solver solution is a valid board"));
    (count, first)
}

/// Smallest side length for which the general path runs locked candidates.
const LOCKED_FROM: usize = 12;

/// Marks a cell whose value is fixed; the low bits then hold that single value.
const FIXED: u32 = 1 << 31;

/// Geometry of one shape, shared by all branches of a search.
struct Layout {
    size: usize,
    m: usize,
    n: usize,
    all: u32,
    /// Whether to run locked candidates: it pays from 12x12 up, costs more than it saves
    /// on small boards.
    locked: bool,
}

impl Layout {
    fn block_start(&self, cell: usize) -> (usize, usize) {
        let (row, col) = (cell / self.size, cell % self.size);
        (row / self.m * self.m, col / self.n * self.n)
    }
}

struct Tally {
    limit: usize,
    count: usize,
    first: Option<Vec<u8>>,
    want_first: bool,
}

struct Dead;

/// Candidate masks of all cells (`FIXED | bit` once a value is placed) plus the
/// naked-single queue.
#[derive(Clone)]
struct State {
    cand: Vec<u32>,
    open: usize,
    queue: Vec<u16>,
}

impl State {
    /// Fixes `bit` in `cell` and removes it from every peer; peers left with one candidate
    /// are queued.
    fn assign(&mut self, lay: &Layout, cell: usize, bit: u32) -> Result<(), Dead> {
        self.cand[cell] = FIXED | bit;
        self.open -= 1;
        let size = lay.size;
        let (row, col) = (cell / size, cell % size);
        let (br, bc) = lay.block_start(cell);
        let hit = |cand: &mut [u32], queue: &mut Vec<u16>, peer: usize| -> Result<(), Dead> {
            let c = cand[peer];
            if c & bit == 0 {
                return Ok(());
            }
            if c & FIXED != 0 {
                return if peer == cell { Ok(()) } else { Err(Dead) };
            }
            let c = c & !bit;
            if c == 0 {
                return Err(Dead);
            }
            cand[peer] = c;
            if c & (c - 1) == 0 {
                queue.push(peer as u16);
            }
            Ok(())
        };
        for c in 0..size {
            hit(&mut self.cand, &mut self.queue, row * size + c)?;
        }
        for r in 0..size {
            hit(&mut self.cand, &mut self.queue, r * size + col)?;
        }
        for r in br..br + lay.m {
            if r == row {
                continue;
            }
            for c in bc..bc + lay.n {
                if c != col {
                    hit(&mut self.cand, &mut self.queue, r * size + c)?;
                }
            }
        }
        Ok(())
    }

    fn drain_queue(&mut self, lay: &Layout) -> Result<(), Dead> {
        while let Some(cell) = self.queue.pop() {
            let cell = cell as usize;
            let c = self.cand[cell];
            if c & FIXED == 0 {
                self.assign(lay, cell, c)?;
            }
        }
        Ok(())
    }

    /// One pass of hidden singles over every row, column and block; also detects a value
    /// with no place left in a unit. `Ok(true)` when something was placed.
    fn hidden_singles(&mut self, lay: &Layout) -> Result<bool, Dead> {
        let size = lay.size;
        let mut placed = false;
        for kind in 0..3 {
            for unit in 0..size {
                let cell_at = |k: usize| -> usize {
                    match kind {
                        0 => unit * size + k,
                        1 => k * size + unit,
                        _ => {
                            let (br, bc) = (unit / lay.m * lay.m, unit % lay.m * lay.n);
                            (br + k / lay.n) * size + bc + k % lay.n
                        }
                    }
                };
                let (mut once, mut twice, mut fixed) = (0u32, 0u32, 0u32);
                for k in 0..size {
                    let c = self.cand[cell_at(k)];
                    if c & FIXED != 0 {
                        fixed |= c;
                    } else {
                        twice |= once & c;
                        once |= c;
                    }
                }
                let fixed = fixed & !FIXED;
                if (once | fixed) != lay.all {
                    return Err(Dead);
                }
                let mut hidden = once & !twice & !fixed;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    // Placements earlier in this pass may already have fixed the value here
                    // (fine) or taken its only cell (a contradiction).
                    let Some(cell) = (0..size).map(cell_at).find(|&c| self.cand[c] & bit != 0)
                    else {
                        return Err(Dead);
                    };
                    if self.cand[cell] & FIXED != 0 {
                        continue;
                    }
                    self.assign(lay, cell, bit)?;
                    self.drain_queue(lay)?;
                    placed = true;
                }
            }
        }
        Ok(placed)
    }

    /// Removes `values` from the unfixed cell `cell`. `Ok(true)` when something went.
    fn strike(&mut self, cell: usize, values: u32) -> Result<bool, Dead> {
        let c = self.cand[cell];
        if c & FIXED != 0 || c & values == 0 {
            return Ok(false);
        }
        let c = c & !values;
        if c == 0 {
            return Err(Dead);
        }
        self.cand[cell] = c;
        if c & (c - 1) == 0 {
            self.queue.push(cell as u16);
        }
        Ok(true)
    }

    /// Locked candidates, both ways: a value confined to one row (column) of a block leaves
    /// the rest of that row (column); a value confined to one block within a row (column)
    /// leaves the rest of that block. Singles alone leave large boards (16x16 and up) to
    /// far more guessing. `Ok(true)` when something was removed.
    fn locked_candidates(&mut self, lay: &Layout) -> Result<bool, Dead> {
        let (size, m, n) = (lay.size, lay.m, lay.n);
        let open = |c: u32| if c & FIXED != 0 { 0 } else { c };
        let mut changed = false;
        let mut seg = [0u32; 25];
        // Block -> line (pointing).
        for b in 0..size {
            let (top, left) = (b / m * m, b % m * n);
            for (i, seg) in seg.iter_mut().enumerate().take(m) {
                *seg = (0..n).fold(0, |acc, j| {
                    acc | open(self.cand[(top + i) * size + left + j])
                });
            }
            for i in 0..m {
                let others = (0..m).filter(|&k| k != i).fold(0, |acc, k| acc | seg[k]);
                let only = seg[i] & !others;
                if only != 0 {
                    for c in (0..size).filter(|c| c / n * n != left) {
                        changed |= self.strike((top + i) * size + c, only)?;
                    }
                }
            }
            for (j, seg) in seg.iter_mut().enumerate().take(n) {
                *seg = (0..m).fold(0, |acc, i| {
                    acc | open(self.cand[(top + i) * size + left + j])
                });
            }
            for j in 0..n {
                let others = (0..n).filter(|&k| k != j).fold(0, |acc, k| acc | seg[k]);
                let only = seg[j] & !others;
                if only != 0 {
                    for r in (0..size).filter(|r| r / m * m != top) {
                        changed |= self.strike(r * size + left + j, only)?;
                    }
                }
            }
        }
        // Line -> block (claiming). A row crosses m blocks of n cells; a column n blocks of m.
        for r in 0..size {
            for (k, seg) in seg.iter_mut().enumerate().take(m) {
                *seg = (0..n).fold(0, |acc, j| acc | open(self.cand[r * size + k * n + j]));
            }
            for k in 0..m {
                let others = (0..m).filter(|&o| o != k).fold(0, |acc, o| acc | seg[o]);
                let only = seg[k] & !others;
                if only != 0 {
                    let top = r / m * m;
                    for rr in (top..top + m).filter(|&rr| rr != r) {
                        for j in 0..n {
                            changed |= self.strike(rr * size + k * n + j, only)?;
                        }
                    }
                }
            }
        }
        for c in 0..size {
            for (k, seg) in seg.iter_mut().enumerate().take(n) {
                *seg = (0..m).fold(0, |acc, i| acc | open(self.cand[(k * m + i) * size + c]));
            }
            for k in 0..n {
                let others = (0..n).filter(|&o| o != k).fold(0, |acc, o| acc | seg[o]);
                let only = seg[k] & !others;
                if only != 0 {
                    let left = c / n * n;
                    for i in 0..m {
                        for cc in (left..left + n).filter(|&cc| cc != c) {
                            changed |= self.strike((k * m + i) * size + cc, only)?;
                        }
                    }
                }
            }
        }
        Ok(changed)
    }

    fn propagate(&mut self, lay: &Layout) -> Result<(), Dead> {
        loop {
            self.drain_queue(lay)?;
            if self.open == 0 {
                return Ok(());
            }
            if self.hidden_singles(lay)? {
                continue;
            }
            if !(lay.locked && self.locked_candidates(lay)?) {
                return Ok(());
            }
        }
    }

    fn search(&mut self, lay: &Layout, tally: &mut Tally) {
        if self.open == 0 {
            tally.count += 1;
            if tally.want_first && tally.first.is_none() {
                let cells = self
                    .cand
                    .iter()
                    .map(|c| ((c & !FIXED).trailing_zeros() + 1) as u8)
                    .collect();
                tally.first = Some(cells);
            }
            return;
        }
        let mut best = usize::MAX;
        let mut best_n = u32::MAX;
        for (i, &c) in self.cand.iter().enumerate() {
            if c & FIXED == 0 {
                let n = c.count_ones();
                if n < best_n {
                    best_n = n;
                    best = i;
                    if n <= 2 {
                        break;
                    }
                }
            }
        }
        let mut cand = self.cand[best];
        while cand != 0 {
            let bit = cand & cand.wrapping_neg();
            cand &= cand - 1;
            if cand == 0 {
                // Last value: no need to keep the parent state.
                if self.assign(lay, best, bit).is_ok() && self.propagate(lay).is_ok() {
                    self.search(lay, tally);
                }
                return;
            }
            let mut child = self.clone();
            if child.assign(lay, best, bit).is_ok() && child.propagate(lay).is_ok() {
                child.search(lay, tally);
            }
            if tally.count >= tally.limit {
                return;
            }
        }
    }
}

/// The general path: any shape, cells row-major with 0 for empty and no duplicate givens.
fn general(shape: Shape, cells: &[u8], limit: usize, want_first: bool) -> (usize, Option<Vec<u8>>) {
    let size = shape.size();
    let lay = Layout {
        size,
        m: shape.m(),
        n: shape.n(),
        all: shape.all_values(),
        locked: size >= LOCKED_FROM,
    };
    let mut state = State {
        cand: vec![lay.all; size * size],
        open: size * size,
        queue: Vec::with_capacity(size * size),
    };
    let mut tally = Tally {
        limit,
        count: 0,
        first: None,
        want_first,
    };
    for (i, &v) in cells.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let bit = 1u32 << (v - 1);
        let c = state.cand[i];
        if c & bit == 0 || (c & FIXED != 0) {
            return (0, None);
        }
        if state.assign(&lay, i, bit).is_err() {
            return (0, None);
        }
    }
    if state.propagate(&lay).is_ok() {
        state.search(&lay, &mut tally);
    }
    (tally.count, tally.first)
}

/// Counts solutions on the general path whatever the shape (also for 3x3 boards), so tests
/// can compare it with the 9x9 path.
pub fn count_solutions_general(board: &Board, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    general(board.shape(), board.cells(), limit, false).0
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
    fn empty_9x9_and_large_shapes_have_solutions() {
        for (m, n) in [(3, 3), (3, 4), (4, 4), (4, 5), (5, 5)] {
            let board = Board::empty(Shape::new(m, n).unwrap());
            let (count, sol) = solve_and_count(&board, 2);
            assert_eq!(count, 2, "{m}x{n}");
            assert!(sol.unwrap().is_full());
        }
    }
}
