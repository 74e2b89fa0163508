//! The sudoku solver: solution counting up to a limit, one solution, and the solvability
//! oracle that decides taboo moves.
//!
//! Every entry point dispatches on the block shape: 3x3 boards go to the band bitboard
//! solver in [`super::solver9`] (the agent's hot path and the benchmark collections), 4x4
//! boards to its 16x16 counterpart [`super::solver16`]; every other shape up to 25x25 takes
//! the general path here. The general path keeps a candidate mask per cell, propagates
//! naked singles (a queue) and hidden singles (per row, column and block), and branches on
//! the cell with the fewest candidates, copying the state per branch (cheaper than undo
//! logs at these sizes).
//!
//! [`super::reference`] is a deliberately naive second implementation used only to
//! cross-check this one in tests.

use super::board::{Board, Shape};
use super::{solver16, solver9};

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
    } else if shape.m() == 4 && shape.n() == 4 {
        let answer = solver16::solve_cells(board.cells(), limit, want_first, usize::MAX);
        (answer.count, answer.first)
    } else {
        let answer = general(shape, board.cells(), limit, want_first, usize::MAX);
        (answer.count, answer.first)
    };
    let first = first
        .map(|cells| Board::from_cells(shape, &cells).expect("a solver solution is a valid board"));
    (count, first)
}

/// Smallest side length for which the general path runs locked candidates.
const LOCKED_FROM: usize = 12;

/// Marks a cell whose value is fixed; the low bits then hold that single value.
const FIXED: u32 = 1 << 31;

/// Geometry of one shape, built once per call and shared by all branches of the search.
/// Units are numbered rows `0..N`, columns `N..2N`, blocks `2N..3N` (at most 75, so a set of
/// units fits a `u128`).
struct Layout {
    size: usize,
    m: usize,
    n: usize,
    all: u32,
    /// Whether to run locked candidates: it pays from 12x12 up, costs more than it saves
    /// on small boards.
    locked: bool,
    /// Cells of each unit, `size` per unit.
    units: Vec<u16>,
    /// The three units of each cell, as a set.
    cell_units: Vec<u128>,
    /// Peers of each cell (same row, column or block, the cell excluded), `npeers` per cell.
    peers: Vec<u16>,
    npeers: usize,
}

impl Layout {
    fn new(shape: Shape) -> Layout {
        let (size, m, n) = (shape.size(), shape.m(), shape.n());
        let block = |r: usize, c: usize| r / m * m + c / n;
        let mut units = Vec::with_capacity(3 * size * size);
        for r in 0..size {
            units.extend((0..size).map(|c| (r * size + c) as u16));
        }
        for c in 0..size {
            units.extend((0..size).map(|r| (r * size + c) as u16));
        }
        for b in 0..size {
            let (top, left) = (b / m * m, b % m * n);
            units.extend((0..size).map(|k| ((top + k / n) * size + left + k % n) as u16));
        }
        let npeers = 2 * (size - 1) + (m - 1) * (n - 1);
        let mut peers = Vec::with_capacity(size * size * npeers);
        let mut cell_units = Vec::with_capacity(size * size);
        for cell in 0..size * size {
            let (r, c) = (cell / size, cell % size);
            cell_units
                .push((1u128 << r) | (1u128 << (size + c)) | (1u128 << (2 * size + block(r, c))));
            let (top, left) = (r / m * m, c / n * n);
            peers.extend((0..size).filter(|&k| k != c).map(|k| (r * size + k) as u16));
            peers.extend((0..size).filter(|&k| k != r).map(|k| (k * size + c) as u16));
            for rr in (top..top + m).filter(|&rr| rr != r) {
                peers.extend(
                    (left..left + n)
                        .filter(|&cc| cc != c)
                        .map(|cc| (rr * size + cc) as u16),
                );
            }
        }
        debug_assert_eq!(peers.len(), size * size * npeers);
        Layout {
            size,
            m,
            n,
            all: shape.all_values(),
            locked: size >= LOCKED_FROM,
            units,
            cell_units,
            peers,
            npeers,
        }
    }

    fn unit(&self, u: usize) -> &[u16] {
        &self.units[u * self.size..(u + 1) * self.size]
    }

    fn all_units(&self) -> u128 {
        (1u128 << (3 * self.size)) - 1
    }
}

/// Where a search reports (this path's and [`super::solver16`]'s): stops at `limit` or past
/// `max_nodes`, keeps the first solution when asked to.
pub(super) struct Tally {
    pub(super) limit: usize,
    pub(super) count: usize,
    /// Search nodes visited, and the budget after which the search gives up.
    pub(super) nodes: usize,
    pub(super) max_nodes: usize,
    pub(super) first: Option<Vec<u8>>,
    pub(super) want_first: bool,
}

impl Tally {
    pub(super) fn new(limit: usize, want_first: bool, max_nodes: usize) -> Tally {
        Tally {
            limit,
            count: 0,
            nodes: 0,
            max_nodes,
            first: None,
            want_first,
        }
    }

    /// The answer so far.
    pub(super) fn answer(self) -> Answer {
        Answer {
            count: self.count,
            first: self.first,
            complete: self.nodes <= self.max_nodes,
        }
    }
}

/// What a counting search found (the general path and the 16x16 solver).
pub struct Answer {
    /// Solutions found, at most the limit.
    pub count: usize,
    /// The first solution (row-major values), when asked for and there is one.
    pub first: Option<Vec<u8>>,
    /// False when the node budget ran out before the answer was certain.
    pub complete: bool,
}

impl Answer {
    /// No solution (givens that contradict each other).
    pub(super) const NONE: Answer = Answer {
        count: 0,
        first: None,
        complete: true,
    };
}

struct Dead;

/// Candidate masks of all cells (`FIXED | bit` once a value is placed), the naked-single
/// queue, and the units changed since hidden singles (`dirty_hidden`) and locked
/// candidates (`dirty_locked`) last looked at them: re-scanning only those is what keeps a
/// search node cheap on 16x16 and 25x25 boards.
#[derive(Clone)]
struct State {
    cand: Vec<u32>,
    open: usize,
    queue: Vec<u16>,
    dirty_hidden: u128,
    dirty_locked: u128,
}

impl State {
    #[inline]
    fn touch(&mut self, lay: &Layout, cell: usize) {
        let units = lay.cell_units[cell];
        self.dirty_hidden |= units;
        self.dirty_locked |= units;
    }

    /// Fixes `bit` in `cell` and removes it from every peer; peers left with one candidate
    /// are queued.
    fn assign(&mut self, lay: &Layout, cell: usize, bit: u32) -> Result<(), Dead> {
        self.cand[cell] = FIXED | bit;
        self.open -= 1;
        self.touch(lay, cell);
        let peers = &lay.peers[cell * lay.npeers..(cell + 1) * lay.npeers];
        for &peer in peers {
            let peer = peer as usize;
            let c = self.cand[peer];
            if c & bit == 0 {
                continue;
            }
            if c & FIXED != 0 {
                return Err(Dead);
            }
            let c = c & !bit;
            if c == 0 {
                return Err(Dead);
            }
            self.cand[peer] = c;
            self.touch(lay, peer);
            if c & (c - 1) == 0 {
                self.queue.push(peer as u16);
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

    /// Hidden singles over the units changed since the last pass; also detects a value with
    /// no place left in a unit. `Ok(true)` when something was placed.
    fn hidden_singles(&mut self, lay: &Layout) -> Result<bool, Dead> {
        let mut placed = false;
        let mut todo = std::mem::take(&mut self.dirty_hidden);
        while todo != 0 {
            let u = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let (mut once, mut twice, mut fixed) = (0u32, 0u32, 0u32);
            for &cell in lay.unit(u) {
                let c = self.cand[cell as usize];
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
                let Some(&cell) = lay
                    .unit(u)
                    .iter()
                    .find(|&&c| self.cand[c as usize] & bit != 0)
                else {
                    return Err(Dead);
                };
                let cell = cell as usize;
                if self.cand[cell] & FIXED != 0 {
                    continue;
                }
                self.assign(lay, cell, bit)?;
                self.drain_queue(lay)?;
                placed = true;
            }
        }
        Ok(placed)
    }

    /// Removes `values` from the unfixed cell `cell`. `Ok(true)` when something went.
    fn strike(&mut self, lay: &Layout, cell: usize, values: u32) -> Result<bool, Dead> {
        let c = self.cand[cell];
        if c & FIXED != 0 || c & values == 0 {
            return Ok(false);
        }
        let c = c & !values;
        if c == 0 {
            return Err(Dead);
        }
        self.cand[cell] = c;
        self.touch(lay, cell);
        if c & (c - 1) == 0 {
            self.queue.push(cell as u16);
        }
        Ok(true)
    }

    /// Open candidates of the cells `first, first + step, ...` (`count` cells).
    fn segment(&self, first: usize, step: usize, count: usize) -> u32 {
        (0..count).fold(0, |acc, k| {
            let c = self.cand[first + k * step];
            acc | if c & FIXED != 0 { 0 } else { c }
        })
    }

    /// Locked candidates over the units changed since the last pass: a value confined to
    /// one row (column) of a block leaves the rest of that row (column); a value confined to
    /// one block within a row (column) leaves the rest of that block. Singles alone leave
    /// large boards to far more guessing. `Ok(true)` when something was removed.
    fn locked_candidates(&mut self, lay: &Layout) -> Result<bool, Dead> {
        let (size, m, n) = (lay.size, lay.m, lay.n);
        let mut changed = false;
        let mut seg = [0u32; 25];
        let mut todo = std::mem::take(&mut self.dirty_locked);
        while todo != 0 {
            let u = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            if u < size {
                // Row u crosses m blocks of n cells: claiming.
                let r = u;
                for (k, s) in seg.iter_mut().enumerate().take(m) {
                    *s = self.segment(r * size + k * n, 1, n);
                }
                for k in 0..m {
                    let only = seg[k] & !(0..m).filter(|&o| o != k).fold(0, |a, o| a | seg[o]);
                    if only != 0 {
                        let top = r / m * m;
                        for rr in (top..top + m).filter(|&rr| rr != r) {
                            for j in 0..n {
                                changed |= self.strike(lay, rr * size + k * n + j, only)?;
                            }
                        }
                    }
                }
            } else if u < 2 * size {
                // Column crosses n blocks of m cells: claiming.
                let c = u - size;
                for (k, s) in seg.iter_mut().enumerate().take(n) {
                    *s = self.segment(k * m * size + c, size, m);
                }
                for k in 0..n {
                    let only = seg[k] & !(0..n).filter(|&o| o != k).fold(0, |a, o| a | seg[o]);
                    if only != 0 {
                        let left = c / n * n;
                        for i in 0..m {
                            for cc in (left..left + n).filter(|&cc| cc != c) {
                                changed |= self.strike(lay, (k * m + i) * size + cc, only)?;
                            }
                        }
                    }
                }
            } else {
                // Block: pointing along its rows, then along its columns.
                let b = u - 2 * size;
                let (top, left) = (b / m * m, b % m * n);
                for (i, s) in seg.iter_mut().enumerate().take(m) {
                    *s = self.segment((top + i) * size + left, 1, n);
                }
                for i in 0..m {
                    let only = seg[i] & !(0..m).filter(|&k| k != i).fold(0, |a, k| a | seg[k]);
                    if only != 0 {
                        for c in (0..size).filter(|c| c / n * n != left) {
                            changed |= self.strike(lay, (top + i) * size + c, only)?;
                        }
                    }
                }
                for (j, s) in seg.iter_mut().enumerate().take(n) {
                    *s = self.segment(top * size + left + j, size, m);
                }
                for j in 0..n {
                    let only = seg[j] & !(0..n).filter(|&k| k != j).fold(0, |a, k| a | seg[k]);
                    if only != 0 {
                        for r in (0..size).filter(|r| r / m * m != top) {
                            changed |= self.strike(lay, r * size + left + j, only)?;
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
            if self.dirty_hidden != 0 && self.hidden_singles(lay)? {
                continue;
            }
            if !(lay.locked && self.dirty_locked != 0 && self.locked_candidates(lay)?) {
                return Ok(());
            }
        }
    }

    fn search(&mut self, lay: &Layout, tally: &mut Tally) {
        tally.nodes += 1;
        if tally.nodes > tally.max_nodes {
            return;
        }
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
        // Fewest candidates first; among equals, the cell whose row, column and block have
        // the most open cells. Measured on minimal 16x16 puzzles this cuts the mean time
        // about 3x against taking the first bivalue cell (a few puzzles stop blowing up).
        let mut open_in = [0u32; 75];
        for (u, open) in open_in.iter_mut().enumerate().take(3 * lay.size) {
            *open = lay
                .unit(u)
                .iter()
                .filter(|&&c| self.cand[c as usize] & FIXED == 0)
                .count() as u32;
        }
        let mut best = usize::MAX;
        let mut best_key = (u32::MAX, u32::MAX);
        for (i, &c) in self.cand.iter().enumerate() {
            if c & FIXED == 0 {
                let n = c.count_ones();
                if n > best_key.0 {
                    continue;
                }
                let (r, col) = (i / lay.size, i % lay.size);
                let b = r / lay.m * lay.m + col / lay.n;
                let key = (
                    n,
                    u32::MAX - (open_in[r] + open_in[lay.size + col] + open_in[2 * lay.size + b]),
                );
                if key < best_key {
                    best_key = key;
                    best = i;
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
            if tally.count >= tally.limit || tally.nodes > tally.max_nodes {
                return;
            }
        }
    }
}

/// The general path: any shape, cells row-major with 0 for empty and no duplicate givens.
fn general(shape: Shape, cells: &[u8], limit: usize, want_first: bool, max_nodes: usize) -> Answer {
    let size = shape.size();
    let lay = Layout::new(shape);
    let mut state = State {
        cand: vec![lay.all; size * size],
        open: size * size,
        queue: Vec::with_capacity(size * size),
        dirty_hidden: lay.all_units(),
        dirty_locked: lay.all_units(),
    };
    let mut tally = Tally::new(limit, want_first, max_nodes);
    for (i, &v) in cells.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let bit = 1u32 << (v - 1);
        let c = state.cand[i];
        if c & bit == 0 || (c & FIXED != 0) || state.assign(&lay, i, bit).is_err() {
            return Answer::NONE;
        }
    }
    if state.propagate(&lay).is_ok() {
        state.search(&lay, &mut tally);
    }
    tally.answer()
}

/// Counts solutions on the general path whatever the shape (also for 3x3 boards), so tests
/// can compare it with the 9x9 path.
pub fn count_solutions_general(board: &Board, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    general(board.shape(), board.cells(), limit, false, usize::MAX).count
}

/// Like [`count_solutions`], but gives up after `max_nodes` search nodes and then answers
/// `None`. Large boards (16x16, 25x25) with few clues can need an exponential search; the
/// generator uses this to stay fast, keeping a clue whenever uniqueness is not proven in
/// budget. 3x3 boards ignore the budget: the band solver's worst case is a fraction of a
/// millisecond.
pub fn count_solutions_within(board: &Board, limit: usize, max_nodes: usize) -> Option<usize> {
    let shape = board.shape();
    if limit == 0 {
        return Some(0);
    }
    if shape.m() == 3 && shape.n() == 3 {
        return Some(solver9::solve_board(board, limit, false).0);
    }
    if shape.m() == 4 && shape.n() == 4 {
        let answer = solver16::solve_cells(board.cells(), limit, false, max_nodes);
        return answer.complete.then_some(answer.count);
    }
    let answer = general(shape, board.cells(), limit, false, max_nodes);
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
