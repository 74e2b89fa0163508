//! The general path of the solver: any block shape up to 25x25. It keeps a candidate mask
//! per cell, propagates naked singles (a queue) and hidden singles (per row, column and
//! block), runs locked candidates from 12x12 up, and branches on the cell with the fewest
//! candidates, or on the places of a value in a row, column or block when one has fewer,
//! copying the state per branch (cheaper than undo logs at these sizes). A search for one
//! solution restarts with random choices when a run takes long ([`find_one`]).

use super::answer::{Answer, Request, StopTest, Tally};
use super::restart::{find_one, nth_bit, Choice, Pick};
use crate::sudoku::board::Shape;
use std::cmp::Reverse;

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
            // A fixed peer holding the same value is a contradiction; any other loses it.
            if c & FIXED != 0 {
                return Err(Dead);
            }
            self.strike(lay, peer, bit)?;
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

    fn search(&mut self, lay: &Layout, tally: &mut Tally, pick: &mut Pick) {
        if !tally.visit() {
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
        let (best, fewest) = if pick.0.is_some() {
            self.any_fewest_cell(pick)
        } else {
            self.fewest_cell(lay)
        };
        // A value of a unit with fewer places than the best cell has candidates is the
        // narrower choice (the constraint with fewest options, as dancing links picks it).
        // Propagation leaves every open value at least two places, so this can only happen
        // when no cell is down to two candidates.
        if fewest > 2 {
            if let Some((unit, bit, places)) = self.narrowest_value(lay) {
                if places < fewest {
                    self.branch_on_place(lay, unit, bit, places, tally, pick);
                    return;
                }
            }
        }
        let mut cand = self.cand[best];
        // In a restart the first value tried is one at random, then the rest in order.
        if let Some(k) = pick.index(fewest) {
            let bit = nth_bit(cand, k);
            if self.search_with(lay, best, bit, tally, pick) {
                return;
            }
            cand &= !bit;
        }
        while cand != 0 {
            let bit = cand & cand.wrapping_neg();
            cand &= cand - 1;
            if cand == 0 {
                // Last value: no need to keep the parent state.
                if self.assign(lay, best, bit).is_ok() && self.propagate(lay).is_ok() {
                    self.search(lay, tally, pick);
                }
                return;
            }
            if self.search_with(lay, best, bit, tally, pick) {
                return;
            }
        }
    }

    /// Searches a copy of this state with `bit` placed in `cell`; true when the search is
    /// over (enough solutions, or the nodes ran out).
    fn search_with(
        &self,
        lay: &Layout,
        cell: usize,
        bit: u32,
        tally: &mut Tally,
        pick: &mut Pick,
    ) -> bool {
        let mut child = self.clone();
        if child.assign(lay, cell, bit).is_ok() && child.propagate(lay).is_ok() {
            child.search(lay, tally, pick);
        }
        tally.over()
    }

    /// The cell to branch on in the complete search, with its candidate count: fewest
    /// candidates first; among equals, the cell whose row, column and block have the most
    /// open cells. Measured on minimal 16x16 puzzles this cut the mean time about 3x against
    /// taking the first bivalue cell.
    fn fewest_cell(&self, lay: &Layout) -> (usize, u32) {
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
        (best, best_key.0)
    }

    /// The cell to branch on in a restart, with its candidate count: one of the cells with
    /// fewest candidates, at random.
    fn any_fewest_cell(&self, pick: &mut Pick) -> (usize, u32) {
        let mut choice = Choice::new();
        for (i, &c) in self.cand.iter().enumerate() {
            if c & FIXED == 0 {
                choice.offer(Reverse(c.count_ones()), i, pick);
            }
        }
        choice
            .best()
            .map_or((usize::MAX, u32::MAX), |(Reverse(n), i)| (i, n))
    }

    /// The open value of a unit with the fewest places left, as `(unit, value bit, places)`
    /// (the first found with two places, the least possible after propagation), or `None`
    /// when no unit has an open value.
    fn narrowest_value(&self, lay: &Layout) -> Option<(usize, u32, u32)> {
        let mut best: Option<(usize, u32, u32)> = None;
        let mut count = [0u8; 25];
        for u in 0..3 * lay.size {
            count[..lay.size].fill(0);
            for &cell in lay.unit(u) {
                let c = self.cand[cell as usize];
                if c & FIXED != 0 {
                    continue;
                }
                let mut bits = c;
                while bits != 0 {
                    count[bits.trailing_zeros() as usize] += 1;
                    bits &= bits - 1;
                }
            }
            for (v, &k) in count[..lay.size].iter().enumerate() {
                if k >= 2 && best.is_none_or(|b| (k as u32) < b.2) {
                    best = Some((u, 1 << v, k as u32));
                    if k == 2 {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// Branches on one place of value `bit` in `unit` (which has `places` of them: the
    /// first, or one at random in a restart): the value there, or not there (the search then
    /// chooses again, with that place gone).
    fn branch_on_place(
        &mut self,
        lay: &Layout,
        unit: usize,
        bit: u32,
        places: u32,
        tally: &mut Tally,
        pick: &mut Pick,
    ) {
        let k = pick.index(places).unwrap_or(0);
        let Some(cell) = lay
            .unit(unit)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| self.cand[c] & FIXED == 0 && self.cand[c] & bit != 0)
            .nth(k)
        else {
            return;
        };
        if self.search_with(lay, cell, bit, tally, pick) {
            return;
        }
        if self.strike(lay, cell, bit).is_ok() && self.propagate(lay).is_ok() {
            self.search(lay, tally, pick);
        }
    }
}

/// The general path: any shape, cells row-major with 0 for empty and no duplicate givens.
pub(super) fn solve(
    shape: Shape,
    cells: &[u8],
    request: Request,
    stop: Option<StopTest>,
) -> Answer {
    let size = shape.size();
    let lay = Layout::new(shape);
    let mut state = State {
        cand: vec![lay.all; size * size],
        open: size * size,
        queue: Vec::with_capacity(size * size),
        dirty_hidden: lay.all_units(),
        dirty_locked: lay.all_units(),
    };
    let mut tally = Tally::new(request, stop);
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
        if request.limit == 1 {
            find_one(state.open, &mut tally, |tally, pick| {
                state.clone().search(&lay, tally, pick)
            });
        } else {
            state.search(&lay, &mut tally, &mut Pick(None));
        }
    }
    tally.answer()
}
