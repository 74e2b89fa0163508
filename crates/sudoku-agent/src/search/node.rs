//! The reduced game one thread searches: the fixed geometry of a board shape and mode
//! (regions, neighbours, Zobrist keys) and the node (cell states, region counts, usable
//! taboo passes, turn, hash) with fill, unfill and turn flips.

// Cells are indices into several parallel arrays (state, regions, zobrist keys), so index
// loops read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use puzzle_rules::rng::SplitMix64;
use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::{Game, Mode, Player};

use super::root::RootInfo;
use super::{MAX_TABOO, PASS};

/// Fixed geometry of a board shape and mode.
pub(super) struct Geometry {
    pub(super) size: usize,
    pub(super) cells: usize,
    /// Row, N + column, 2N + block of each cell.
    pub(super) regions: Vec<[u16; 3]>,
    pub(super) neighbours: Vec<Vec<u16>>,
    pub(super) classic: bool,
    pub(super) zobrist: Vec<[u64; 3]>,
    pub(super) zob_turn: u64,
    pub(super) zob_taboo: Vec<u64>,
    /// Geometry of the territory analysis (allowed-squares modes).
    pub(super) terr: crate::territory::Geo,
}

#[derive(Clone)]
pub(super) struct TabooPass {
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

impl Geometry {
    pub(super) fn new(game: &Game) -> Geometry {
        let shape = game.board().shape();
        let size = shape.size();
        let cells = size * size;
        let mut rng = SplitMix64(0x5EED);
        let regions = (0..cells)
            .map(|k| {
                let (r, c) = (k / size, k % size);
                [
                    r as u16,
                    (size + c) as u16,
                    (2 * size + shape.block_of(r, c)) as u16,
                ]
            })
            .collect();
        let neighbours = (0..cells)
            .map(|k| {
                let (r, c) = ((k / size) as i64, (k % size) as i64);
                let mut out = Vec::new();
                for dr in -1..=1 {
                    for dc in -1..=1 {
                        let (rr, cc) = (r + dr, c + dc);
                        if (dr, dc) != (0, 0)
                            && rr >= 0
                            && cc >= 0
                            && rr < size as i64
                            && cc < size as i64
                        {
                            out.push((rr as usize * size + cc as usize) as u16);
                        }
                    }
                }
                out
            })
            .collect();
        let zobrist = (0..cells)
            .map(|_| [rng.next_u64(), rng.next_u64(), rng.next_u64()])
            .collect();
        let zob_turn = rng.next_u64();
        let zob_taboo = (0..MAX_TABOO).map(|_| rng.next_u64()).collect();
        Geometry {
            size,
            cells,
            regions,
            neighbours,
            classic: game.mode() == Mode::Classic,
            zobrist,
            zob_turn,
            zob_taboo,
            terr: crate::territory::Geo::new(shape),
        }
    }
}

impl Node {
    pub(super) fn new(game: &Game, geo: &Geometry, root: &RootInfo) -> Node {
        let size = geo.size;
        let board = game.board();
        let mut state = vec![0u8; geo.cells];
        let mut region_empty = vec![size as u8; 3 * size];
        let mut adj = [vec![0u8; geo.cells], vec![0u8; geo.cells]];
        let mut empties = 0;
        let mut hash = 0;
        for k in 0..geo.cells {
            if board.cells()[k] == 0 {
                empties += 1;
                continue;
            }
            let owner = game.owners()[k];
            state[k] = if owner == 0 { 3 } else { owner };
            for &reg in &geo.regions[k] {
                region_empty[reg as usize] -= 1;
            }
            if owner == 1 || owner == 2 {
                for &nb in &geo.neighbours[k] {
                    adj[owner as usize - 1][nb as usize] += 1;
                }
                hash ^= geo.zobrist[k][owner as usize];
            } else {
                hash ^= geo.zobrist[k][0];
            }
        }
        let mut start = [vec![false; geo.cells], vec![false; geo.cells]];
        for p in [Player::One, Player::Two] {
            for &(r, c) in game.starts(p) {
                start[p.index()][r * size + c] = true;
            }
        }
        let sol = &root.solution;
        let taboo: Vec<TabooPass> = root
            .taboo
            .iter()
            .take(MAX_TABOO)
            .map(|mv| {
                let cell = mv.row * size + mv.col;
                let mut kill = vec![cell as u16];
                for other in 0..geo.cells {
                    if other != cell
                        && sol[other] == mv.value
                        && geo.regions[other]
                            .iter()
                            .zip(geo.regions[cell].iter())
                            .any(|(a, b)| a == b)
                    {
                        kill.push(other as u16);
                    }
                }
                TabooPass {
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
            hash ^= geo.zob_taboo[i];
        }
        let turn = game.turn().index();
        if turn == 1 {
            hash ^= geo.zob_turn;
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
    pub(super) fn playable(&self, geo: &Geometry, p: usize, cell: usize) -> bool {
        self.state[cell] == 0 && (geo.classic || self.start[p][cell] || self.adj[p][cell] > 0)
    }

    /// Points for filling `cell` now.
    #[inline]
    pub(super) fn points(&self, geo: &Geometry, cell: usize) -> i32 {
        let done = geo.regions[cell]
            .iter()
            .filter(|&&r| self.region_empty[r as usize] == 1)
            .count();
        [0, 1, 3, 7][done]
    }

    /// True when filling `cell` leaves one of its regions with exactly one empty cell,
    /// handing the opponent a completion.
    #[inline]
    pub(super) fn sets_up(&self, geo: &Geometry, cell: usize) -> bool {
        geo.regions[cell]
            .iter()
            .any(|&r| self.region_empty[r as usize] == 2)
    }

    /// Indices of the tracked passes the side `p` could use now.
    pub(super) fn usable_passes<'a>(
        &'a self,
        geo: &'a Geometry,
        p: usize,
    ) -> impl Iterator<Item = usize> + 'a {
        let mut bits = self.alive;
        std::iter::from_fn(move || {
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let t = &self.taboo[i];
                if t.kill.iter().all(|&k| self.state[k as usize] == 0)
                    && self.playable(geo, p, t.cell as usize)
                {
                    return Some(i);
                }
            }
            None
        })
    }

    pub(super) fn usable_pass(&self, geo: &Geometry, p: usize) -> Option<usize> {
        self.usable_passes(geo, p).next()
    }

    pub(super) fn has_cell(&self, geo: &Geometry, p: usize) -> bool {
        (0..geo.cells).any(|k| self.playable(geo, p, k))
    }

    pub(super) fn fill(&mut self, geo: &Geometry, cell: usize) {
        let p = self.turn;
        self.state[cell] = p as u8 + 1;
        for &r in &geo.regions[cell] {
            self.region_empty[r as usize] -= 1;
        }
        if !geo.classic {
            for &nb in &geo.neighbours[cell] {
                self.adj[p][nb as usize] += 1;
            }
        }
        self.empties -= 1;
        self.hash ^= geo.zobrist[cell][p + 1];
    }

    pub(super) fn unfill(&mut self, geo: &Geometry, cell: usize) {
        let p = self.state[cell] as usize - 1;
        self.state[cell] = 0;
        for &r in &geo.regions[cell] {
            self.region_empty[r as usize] += 1;
        }
        if !geo.classic {
            for &nb in &geo.neighbours[cell] {
                self.adj[p][nb as usize] -= 1;
            }
        }
        self.empties += 1;
        self.hash ^= geo.zobrist[cell][p + 1];
    }

    /// The territory analysis' view of this node.
    pub(super) fn view(&self) -> crate::territory::View<'_> {
        crate::territory::View {
            state: &self.state,
            start: [&self.start[0], &self.start[1]],
            region_empty: &self.region_empty,
            turn: self.turn,
        }
    }

    pub(super) fn flip_turn(&mut self, geo: &Geometry) {
        self.turn ^= 1;
        self.hash ^= geo.zob_turn;
    }
}

/// Converts a reduced-game move at the root to a real move.
pub(super) fn real_move(
    game: &Game,
    geo: &Geometry,
    node: &Node,
    root: &RootInfo,
    mv: u16,
) -> Move {
    let size = geo.size;
    if mv == PASS {
        let i = node
            .usable_pass(geo, node.turn)
            .expect("pass chosen only when usable");
        return root.taboo[i];
    }
    let cell = mv as usize;
    let _ = game;
    Move::new(cell / size, cell % size, root.solution[cell])
}
