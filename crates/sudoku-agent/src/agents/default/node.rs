//! The reduced game one thread searches: what stays fixed (the board's geometry, the mode,
//! the Zobrist keys) and the node (cell states, region counts, usable
//! taboo passes, turn, hash) with fill, unfill and turn flips.

// Cells are indices into several parallel arrays (state, regions, zobrist keys), so index
// loops read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use puzzle_rules::rng::SplitMix64;
use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::{Game, Mode, Player};

use super::{pass_index, MAX_TABOO};
use crate::cell_game::{Geometry, View, POINTS};

/// What stays fixed through one search: the board's geometry, the mode and the Zobrist keys.
pub(super) struct Setup {
    pub(super) geo: Geometry,
    /// Classic rules: any empty cell is playable.
    pub(super) classic: bool,
    pub(super) zobrist: Vec<[u64; 3]>,
    pub(super) zob_turn: u64,
    pub(super) zob_taboo: Vec<u64>,
    /// Empty cells whose solution value is on the position's taboo list: never played in
    /// the cell game (the rules forbid proposing that move). A real game never lists a
    /// solution value; a hand-made `position` may.
    pub(super) barred: Vec<bool>,
}

#[derive(Clone)]
pub(super) struct TabooPass {
    /// The taboo move played as this pass.
    pub(super) play: Move,
    pub(super) cell: u16,
    /// Cells whose filling makes this pass unusable (its own cell and the cells holding its
    /// value in `S` in its row, column and block).
    pub(super) kill: Vec<u16>,
}

/// The reduced game state searched by one thread.
#[derive(Clone)]
pub(super) struct Node {
    /// 0 empty, 1/2 filled by a player, 3 filled before (given or unknown owner).
    pub(super) state: Vec<u8>,
    pub(super) region_empty: Vec<u8>,
    /// Owned neighbours per player and cell (allowed-squares modes).
    pub(super) adj: [Vec<u8>; 2],
    pub(super) start: [Vec<bool>; 2],
    pub(super) taboo: Vec<TabooPass>,
    pub(super) alive: u128,
    pub(super) empties: usize,
    pub(super) turn: usize,
    pub(super) hash: u64,
}

impl Setup {
    /// The setup of `game` whose empty cells take their values from `solution`.
    pub(super) fn new(game: &Game, solution: &[u8]) -> Setup {
        let geo = Geometry::new(game.board().shape());
        let mut barred = vec![false; geo.cells];
        for mv in game.taboo() {
            let k = mv.row * geo.size + mv.col;
            if game.board().cells()[k] == 0 && solution[k] == mv.value {
                barred[k] = true;
            }
        }
        let mut rng = SplitMix64(0x5EED);
        let zobrist = (0..geo.cells)
            .map(|_| [rng.next_u64(), rng.next_u64(), rng.next_u64()])
            .collect();
        let zob_turn = rng.next_u64();
        let zob_taboo = (0..MAX_TABOO).map(|_| rng.next_u64()).collect();
        Setup {
            geo,
            classic: game.mode() == Mode::Classic,
            zobrist,
            zob_turn,
            zob_taboo,
            barred,
        }
    }
}

impl Node {
    /// The root node of `game`, whose empty cells take their values from `solution`, with
    /// `passes` (taboo moves, at most [`MAX_TABOO`] of them kept) as its passes.
    pub(super) fn new(game: &Game, setup: &Setup, solution: &[u8], passes: &[Move]) -> Node {
        let size = setup.geo.size;
        let board = game.board();
        let mut state = vec![0u8; setup.geo.cells];
        let mut region_empty = vec![size as u8; 3 * size];
        let mut adj = [vec![0u8; setup.geo.cells], vec![0u8; setup.geo.cells]];
        let mut empties = 0;
        let mut hash = 0;
        for k in 0..setup.geo.cells {
            if board.cells()[k] == 0 {
                empties += 1;
                continue;
            }
            let owner = game.owners()[k];
            state[k] = if owner == 0 { 3 } else { owner };
            for &reg in &setup.geo.regions[k] {
                region_empty[reg as usize] -= 1;
            }
            if owner == 1 || owner == 2 {
                for &nb in &setup.geo.neighbours[k] {
                    adj[owner as usize - 1][nb as usize] += 1;
                }
                hash ^= setup.zobrist[k][owner as usize];
            } else {
                hash ^= setup.zobrist[k][0];
            }
        }
        let mut start = [vec![false; setup.geo.cells], vec![false; setup.geo.cells]];
        for p in [Player::One, Player::Two] {
            for &(r, c) in game.starts(p) {
                start[p.index()][r * size + c] = true;
            }
        }
        let sol = solution;
        let taboo: Vec<TabooPass> = passes
            .iter()
            .take(MAX_TABOO)
            .map(|mv| {
                let cell = mv.row * size + mv.col;
                let mut kill = vec![cell as u16];
                for other in 0..setup.geo.cells {
                    if other != cell
                        && sol[other] == mv.value
                        && setup.geo.regions[other]
                            .iter()
                            .zip(setup.geo.regions[cell].iter())
                            .any(|(a, b)| a == b)
                    {
                        kill.push(other as u16);
                    }
                }
                TabooPass {
                    play: *mv,
                    cell: cell as u16,
                    kill,
                }
            })
            .collect();
        let alive = if taboo.len() == 128 {
            u128::MAX
        } else {
            (1u128 << taboo.len()) - 1
        };
        for (i, _) in taboo.iter().enumerate() {
            hash ^= setup.zob_taboo[i];
        }
        let turn = game.turn().index();
        if turn == 1 {
            hash ^= setup.zob_turn;
        }
        Node {
            state,
            region_empty,
            adj,
            start,
            taboo,
            alive,
            empties,
            turn,
            hash,
        }
    }

    #[inline]
    pub(super) fn playable(&self, setup: &Setup, p: usize, cell: usize) -> bool {
        self.state[cell] == 0
            && !setup.barred[cell]
            && (setup.classic || self.start[p][cell] || self.adj[p][cell] > 0)
    }

    /// Points for filling `cell` now.
    #[inline]
    pub(super) fn points(&self, setup: &Setup, cell: usize) -> i32 {
        let done = setup.geo.regions[cell]
            .iter()
            .filter(|&&r| self.region_empty[r as usize] == 1)
            .count();
        POINTS[done]
    }

    /// True when filling `cell` leaves one of its regions with exactly one empty cell,
    /// handing the opponent a completion.
    #[inline]
    pub(super) fn sets_up(&self, setup: &Setup, cell: usize) -> bool {
        setup.geo.regions[cell]
            .iter()
            .any(|&r| self.region_empty[r as usize] == 2)
    }

    /// Indices of the tracked passes the side `p` could use now.
    pub(super) fn usable_passes<'a>(
        &'a self,
        setup: &'a Setup,
        p: usize,
    ) -> impl Iterator<Item = usize> + 'a {
        let mut bits = self.alive;
        std::iter::from_fn(move || {
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let t = &self.taboo[i];
                if t.kill.iter().all(|&k| self.state[k as usize] == 0)
                    && self.playable(setup, p, t.cell as usize)
                {
                    return Some(i);
                }
            }
            None
        })
    }

    /// Tracked passes still alive whose cells are all empty: either side may use them once
    /// it can reach their cell.
    pub(super) fn live_passes(&self) -> usize {
        let mut bits = self.alive;
        let mut live = 0;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.taboo[i]
                .kill
                .iter()
                .all(|&k| self.state[k as usize] == 0)
            {
                live += 1;
            }
        }
        live
    }

    /// True when a search `depth` plies deep from here can reach the end of every line
    /// that fills cells and uses passes: then it searches every pass (see
    /// [`super::worker::Worker::moves`]).
    pub(super) fn within_reach(&self, depth: u32) -> bool {
        let depth = depth as usize;
        depth >= self.empties && depth >= self.empties + self.live_passes()
    }

    /// Uses pass `i` (the side to move plays its taboo move; the turn passes).
    pub(super) fn use_pass(&mut self, setup: &Setup, i: usize) {
        self.alive &= !(1u128 << i);
        self.hash ^= setup.zob_taboo[i];
        self.flip_turn(setup);
    }

    /// Takes back [`Node::use_pass`] of pass `i`.
    pub(super) fn unuse_pass(&mut self, setup: &Setup, i: usize) {
        self.flip_turn(setup);
        self.hash ^= setup.zob_taboo[i];
        self.alive |= 1u128 << i;
    }

    pub(super) fn has_cell(&self, setup: &Setup, p: usize) -> bool {
        (0..setup.geo.cells).any(|k| self.playable(setup, p, k))
    }

    pub(super) fn fill(&mut self, setup: &Setup, cell: usize) {
        let p = self.turn;
        self.state[cell] = p as u8 + 1;
        for &r in &setup.geo.regions[cell] {
            self.region_empty[r as usize] -= 1;
        }
        if !setup.classic {
            for &nb in &setup.geo.neighbours[cell] {
                self.adj[p][nb as usize] += 1;
            }
        }
        self.empties -= 1;
        self.hash ^= setup.zobrist[cell][p + 1];
    }

    pub(super) fn unfill(&mut self, setup: &Setup, cell: usize) {
        let p = self.state[cell] as usize - 1;
        self.state[cell] = 0;
        for &r in &setup.geo.regions[cell] {
            self.region_empty[r as usize] += 1;
        }
        if !setup.classic {
            for &nb in &setup.geo.neighbours[cell] {
                self.adj[p][nb as usize] -= 1;
            }
        }
        self.empties += 1;
        self.hash ^= setup.zobrist[cell][p + 1];
    }

    /// The evaluation's view of this node.
    pub(super) fn view(&self) -> View<'_> {
        View {
            state: &self.state,
            start: [&self.start[0], &self.start[1]],
            region_empty: &self.region_empty,
            turn: self.turn,
        }
    }

    pub(super) fn flip_turn(&mut self, setup: &Setup) {
        self.turn ^= 1;
        self.hash ^= setup.zob_turn;
    }
}

/// Converts a reduced-game move at the root to a real move.
pub(super) fn real_move(setup: &Setup, node: &Node, solution: &[u8], mv: u16) -> Move {
    if let Some(i) = pass_index(mv) {
        return node.taboo[i].play;
    }
    let size = setup.geo.size;
    let cell = mv as usize;
    Move::new(cell / size, cell % size, solution[cell])
}
