//! One search thread: move ordering, negamax with the transposition table, the horizon
//! evaluation and one root iteration.

use std::sync::atomic::Ordering;

use super::node::{Node, Setup};
use super::table::{Bound, Entry, Table};
use super::{pass_index, pass_move, Stopper, CONTESTED, INF, MOBILITY, NO_MOVE, PARITY};
use crate::eval;

/// One search thread's state.
pub(super) struct Worker<'a> {
    pub(super) setup: &'a Setup,
    pub(super) table: &'a Table,
    pub(super) stopper: &'a Stopper<'a>,
    pub(super) node: Node,
    pub(super) nodes: u64,
    pub(super) aborted: bool,
    /// Set when the value being computed rests on something unproven: a leaf cut off by
    /// depth, a table entry that is not proven, or an aborted subtree. [`Worker::negamax`]
    /// keeps it per node, so a table entry is marked proven only when its own subtree was.
    pub(super) horizon: bool,
    pub(super) killers: Vec<u16>,
    /// The table's generation of the search this worker belongs to (see [`Table::probe`]).
    pub(super) generation: u16,
}

impl<'a> Worker<'a> {
    /// A worker searching `node` (its own copy) with the shared table and stop signals.
    pub(super) fn new(
        setup: &'a Setup,
        table: &'a Table,
        stopper: &'a Stopper<'a>,
        node: Node,
    ) -> Worker<'a> {
        Worker {
            setup,
            table,
            stopper,
            node,
            nodes: 0,
            aborted: false,
            horizon: false,
            killers: vec![NO_MOVE; 256],
            generation: table.generation(),
        }
    }

    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            self.stopper.shared.nodes.fetch_add(256, Ordering::Relaxed);
            if self.stopper.should_stop() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Moves of the side to move, ordered best-first; empty when it must pass by force.
    ///
    /// Which pass a player uses decides which passes stay for later (each dies when its own
    /// cells fill), so the real game has a move per usable pass. With `all_passes` every one
    /// is a move; without, only the first (one tempo move, all a depth-limited search needs)
    /// and the second value tells that others were left out, so the node's value is no
    /// proof.
    pub(super) fn moves(
        &self,
        tt_move: u16,
        ply: usize,
        all_passes: bool,
    ) -> (Vec<(u16, i32)>, bool) {
        let setup = self.setup;
        let node = &self.node;
        let p = node.turn;
        let mut out: Vec<(u16, i32, i32)> = Vec::with_capacity(setup.geo.cells + 1);
        let killer = self.killers.get(ply).copied().unwrap_or(NO_MOVE);
        for k in 0..setup.geo.cells {
            if !node.playable(setup, p, k) {
                continue;
            }
            let pts = node.points(setup, k);
            let mut key = pts * 100;
            if !node.sets_up(setup, k) {
                key += 50;
            }
            if k as u16 == killer {
                key += 20;
            }
            if !setup.classic && node.playable(setup, p ^ 1, k) {
                key += CONTESTED;
            }
            if k as u16 == tt_move {
                key = INF;
            }
            out.push((k as u16, pts, key));
        }
        let mut passes = node.usable_passes(setup, p);
        let mut narrowed = false;
        if let Some(first) = passes.next() {
            if all_passes {
                for i in std::iter::once(first).chain(passes) {
                    let mv = pass_move(i);
                    let key = if tt_move == mv { INF } else { 40 };
                    out.push((mv, 0, key));
                }
            } else {
                let key = if pass_index(tt_move).is_some() {
                    INF
                } else {
                    40
                };
                out.push((pass_move(first), 0, key));
                narrowed = passes.next().is_some();
            }
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.2));
        (out.into_iter().map(|(m, p, _)| (m, p)).collect(), narrowed)
    }

    /// The node's value within (`alpha`, `beta`), fail-soft; marks [`Worker::horizon`] when
    /// the value is not proven (see there).
    pub(super) fn negamax(&mut self, depth: u32, alpha: i32, beta: i32, ply: usize) -> i32 {
        let outer = std::mem::replace(&mut self.horizon, false);
        let v = self.negamax_node(depth, alpha, beta, ply);
        self.horizon |= outer;
        v
    }

    fn negamax_node(&mut self, depth: u32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.tick() {
            self.horizon = true;
            return 0;
        }
        if self.node.empties == 0 {
            return 0;
        }
        let alpha0 = alpha;
        let hash = self.node.hash;
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.table.probe(hash, self.generation) {
            tt_move = e.best;
            if (e.proven || e.depth as u32 >= depth) && ply > 0 {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if cut {
                    // Another thread's (or iteration's) depth-limited value is only as good
                    // as its horizon.
                    self.horizon |= !e.proven;
                    return e.value;
                }
            }
        }
        if depth == 0 {
            self.horizon = true;
            return self.evaluate();
        }
        let (moves, narrowed) = self.moves(tt_move, ply, self.node.within_reach(depth));
        self.horizon |= narrowed;
        if moves.is_empty() {
            let setup = self.setup;
            let other = self.node.turn ^ 1;
            if !self.node.has_cell(setup, other) {
                return 0;
            }
            self.node.flip_turn(setup);
            let v = -self.negamax(depth - 1, -beta, -alpha, ply + 1);
            self.node.flip_turn(setup);
            return v;
        }
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        for (mv, pts) in moves {
            let v = self.make_and_search(mv, pts, depth, alpha, beta, ply);
            if self.aborted {
                self.horizon = true;
                return 0;
            }
            if v > best {
                best = v;
                best_move = mv;
                if v > alpha {
                    alpha = v;
                }
                if alpha >= beta {
                    if ply < self.killers.len() && pass_index(mv).is_none() {
                        self.killers[ply] = mv;
                    }
                    break;
                }
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(
            hash,
            Entry {
                value: best,
                depth: depth.min(255) as u8,
                bound,
                best: best_move,
                proven: !self.horizon,
            },
            self.generation,
        );
        best
    }

    pub(super) fn make_and_search(
        &mut self,
        mv: u16,
        pts: i32,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let setup = self.setup;
        if let Some(i) = pass_index(mv) {
            self.node.use_pass(setup, i);
            let v = -self.negamax(depth - 1, -beta, -alpha, ply + 1);
            self.node.unuse_pass(setup, i);
            v
        } else {
            let cell = mv as usize;
            self.node.fill(setup, cell);
            self.node.flip_turn(setup);
            let v = pts - self.negamax(depth - 1, -beta + pts, -alpha + pts, ply + 1);
            self.node.flip_turn(setup);
            self.node.unfill(setup, cell);
            v
        }
    }

    /// Horizon estimate of future points for the side to move: it may take the best
    /// completion on offer now; a region one fill from completion that it cannot take is
    /// the opponent's next.
    pub(super) fn evaluate(&self) -> i32 {
        let setup = self.setup;
        let node = &self.node;
        let p = node.turn;
        let mut best = 0;
        let mut mobility = [0i32; 2];
        for k in 0..setup.geo.cells {
            if node.state[k] != 0 {
                continue;
            }
            if node.playable(setup, p, k) {
                mobility[p] += 1;
                let pts = node.points(setup, k);
                if pts > best {
                    best = pts;
                }
            }
            if !setup.classic && node.playable(setup, p ^ 1, k) {
                mobility[p ^ 1] += 1;
            }
        }
        if !setup.classic {
            // Under the allowed-squares rules reach is what counts: a player short of
            // playable cells must pass while the other keeps scoring. Measured (16 games
            // against greedy, rows, 50 ms): 72% without this term, 100% with it; the parity
            // term below did not help there.
            let terr = eval::evaluate(&setup.geo, &node.view());
            return (2 * best + MOBILITY * (mobility[p] - mobility[p ^ 1]) + terr) / 4;
        }
        // Without passes the side to move fills the last cell (7 points) exactly when an odd
        // number of cells is left; measured in the arena, this term turns 75% against
        // `original` (then called `seed`) into 100% (20 games at 50 ms, weights 1 to 5 alike).
        // Passes are tempo moves from a pool both players share: in the bare race for the
        // last cell the side to move wins exactly when empties + passes is odd (for two or
        // more empties), so the parity counts the passes still usable.
        let passes = node.usable_passes(setup, p).count() as u32;
        let parity = if (node.empties as u32 + passes) % 2 == 1 {
            PARITY
        } else {
            -PARITY
        };
        best / 2 + parity
    }

    /// Root search at `depth`: the best move and its value (future points); when the
    /// iteration was aborted, a move that proved better than the first one searched, else
    /// `None`. Afterwards [`Worker::horizon`] says whether the value is
    /// unproven.
    pub(super) fn root(&mut self, depth: u32, root_moves: &mut [(u16, i32)]) -> Option<(u16, i32)> {
        self.horizon = false;
        let mut alpha = -INF;
        let beta = INF;
        let mut best = None;
        let mut first_value = None;
        // `root_moves` holds every pass; short of the end only the first is searched, as
        // in [`Worker::moves`].
        let all_passes = self.node.within_reach(depth);
        let first_pass = root_moves.iter().filter_map(|m| pass_index(m.0)).min();
        let mut scored: Vec<(u16, i32, i32)> = Vec::with_capacity(root_moves.len());
        let mut left_out = Vec::new();
        for &(mv, pts) in root_moves.iter() {
            if !all_passes && pass_index(mv).is_some_and(|i| Some(i) != first_pass) {
                self.horizon = true;
                left_out.push((mv, pts));
                continue;
            }
            let v = self.make_and_search(mv, pts, depth, alpha, beta, 0);
            if self.aborted {
                break;
            }
            first_value.get_or_insert(v);
            scored.push((mv, pts, v));
            if v > alpha {
                alpha = v;
                best = Some((mv, v));
            }
        }
        if self.aborted {
            // A move of a partial iteration counts when it beat the move searched first
            // (the previous iteration's best) at this depth: searched after it with the
            // window above its value, its value is exact. Otherwise keep the previous best.
            return match (best, first_value) {
                (Some((mv, v)), Some(first)) if v > first => Some((mv, v)),
                _ => None,
            };
        }
        // Next iteration searches the best moves first (the passes left out last).
        scored.sort_by_key(|m| std::cmp::Reverse(m.2));
        let order = scored.into_iter().map(|(mv, pts, _)| (mv, pts));
        for (slot, m) in root_moves.iter_mut().zip(order.chain(left_out)) {
            *slot = m;
        }
        if let Some((mv, v)) = best {
            self.table.store(
                self.node.hash,
                Entry {
                    value: v,
                    depth: depth.min(255) as u8,
                    bound: Bound::Exact,
                    best: mv,
                    proven: !self.horizon,
                },
                self.generation,
            );
        }
        best
    }
}
