//! The board's geometry, the mode's starting cells and the cell maps under which the game
//! stays the same: what [`super::search`] reads but never changes during a solve.
//!
//! A solve runs over a list of *solve cells*, numbered from 0 (cell sets are `u128`): on a
//! board of at most [`MAX_CELLS`] cells every cell of the board, with the board's
//! symmetries; on a bigger board only the root's empty cells (the cells filled later all
//! come from them), with no symmetry. The filled cells outside the list then matter only
//! through what they fix: the values already in each row, column and block (duplicates and
//! completions, kept by the search over the whole board) and, under the allowed-squares
//! rules, the solve cells each player reaches from the cells it owns (folded into its
//! first reach here).

use puzzle_rules::sudoku::{Game, Mode, Player, Shape};

/// Cells a solve runs over at most: cell sets are `u128`. Boards with more cells are solved
/// over their empty cells.
pub const MAX_CELLS: usize = 128;

/// Which cells a solve runs over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SolveCells {
    /// Every cell of the board (boards of at most [`MAX_CELLS`] cells).
    Board,
    /// The root's empty cells only (at most [`MAX_CELLS`] of them).
    Empty,
}

/// The board's geometry and the mode's starting cells, fixed for a solve.
pub(super) struct Tables {
    pub(super) size: usize,
    /// Solve cells.
    pub(super) cells: usize,
    /// The board cell (row * size + col) of each solve cell, in increasing order.
    pub(super) board_cell: Vec<usize>,
    /// The solve cell of each board cell (`None` for a cell outside the solve).
    pub(super) solve_cell: Vec<Option<usize>>,
    pub(super) row_of: Vec<usize>,
    pub(super) col_of: Vec<usize>,
    pub(super) block_of: Vec<usize>,
    /// The 8-neighbourhood of each solve cell (solve cells only).
    pub(super) neighbours: Vec<u128>,
    /// The cells each player may play at the root when empty: its starting cells (every cell
    /// under `classic`) and the neighbours of the cells it filled.
    pub(super) first_reach: [u128; 2],
    pub(super) classic: bool,
    /// Bits of one cell value in a key.
    pub(super) value_bits: usize,
    /// Keys rename the values (only when every cell of the board is a solve cell: a
    /// renaming must leave the fixed cells alone).
    pub(super) rename_values: bool,
    /// Cell maps under which the game is the same (the identity first): a state's key is
    /// the smallest over these maps and over renamings of the values.
    pub(super) symmetries: Vec<Vec<usize>>,
    /// States with at most this many filled cells use the cell maps; fuller states only
    /// rename values (their subtrees are small, and a key per map costs more than it saves).
    pub(super) symmetric_fill: usize,
}

impl Tables {
    /// The tables of a solve of `game` over `over`; `None` when there are more solve cells
    /// than [`MAX_CELLS`].
    pub(super) fn new(game: &Game, over: SolveCells) -> Option<Tables> {
        let board = game.board();
        let shape = board.shape();
        let size = shape.size();
        let board_cell: Vec<usize> = match over {
            SolveCells::Board => (0..shape.cells()).collect(),
            SolveCells::Empty => (0..shape.cells())
                .filter(|&c| board.cells()[c] == 0)
                .collect(),
        };
        if board_cell.len() > MAX_CELLS {
            return None;
        }
        let cells = board_cell.len();
        let mut solve_cell = vec![None; shape.cells()];
        for (i, &b) in board_cell.iter().enumerate() {
            solve_cell[b] = Some(i);
        }
        // The solve cells around each board cell.
        let around = |b: usize| -> u128 {
            let (r, c) = (b / size, b % size);
            let mut mask = 0u128;
            for nr in r.saturating_sub(1)..=(r + 1).min(size - 1) {
                for nc in c.saturating_sub(1)..=(c + 1).min(size - 1) {
                    if (nr, nc) != (r, c) {
                        if let Some(i) = solve_cell[nr * size + nc] {
                            mask |= 1u128 << i;
                        }
                    }
                }
            }
            mask
        };
        let neighbours: Vec<u128> = board_cell.iter().map(|&b| around(b)).collect();
        let classic = game.mode() == Mode::Classic;
        let mut starts = [0u128; 2];
        let mut first_reach = [0u128; 2];
        for player in [Player::One, Player::Two] {
            let p = player.index();
            starts[p] = if classic {
                u128::MAX
            } else {
                game.starts(player)
                    .iter()
                    .filter_map(|&(r, c)| solve_cell[r * size + c])
                    .fold(0, |acc, i| acc | 1u128 << i)
            };
            first_reach[p] = starts[p];
        }
        if !classic {
            for (b, &owner) in game.owners().iter().enumerate() {
                if owner != 0 && board.cells()[b] != 0 {
                    first_reach[owner as usize - 1] |= around(b);
                }
            }
        }
        let symmetries = match over {
            SolveCells::Board => symmetries(shape, classic, &starts),
            SolveCells::Empty => vec![(0..cells).collect()],
        };
        let at = |b: usize| (b / size, b % size);
        Some(Tables {
            size,
            cells,
            row_of: board_cell.iter().map(|&b| at(b).0).collect(),
            col_of: board_cell.iter().map(|&b| at(b).1).collect(),
            block_of: board_cell
                .iter()
                .map(|&b| shape.block_of(at(b).0, at(b).1))
                .collect(),
            board_cell,
            solve_cell,
            neighbours,
            first_reach,
            classic,
            value_bits: (usize::BITS - size.leading_zeros()) as usize,
            rename_values: over == SolveCells::Board,
            symmetric_fill: if symmetries.len() > FEW_SYMMETRIES {
                MANY_SYMMETRIES_FILL
            } else {
                cells
            },
            symmetries,
        })
    }

    /// 64-bit words of a state key.
    pub(super) fn key_words(&self) -> usize {
        let reach = if self.classic { 0 } else { 2 * self.cells };
        let bits = self.cells * self.value_bits + reach + self.cells * self.size + 1;
        bits.div_ceil(64)
    }
}

/// Most geometric symmetries a key is minimised over (each costs a key per node).
const MAX_SYMMETRIES: usize = 128;

/// Up to this many cell maps, every state's key uses them all.
const FEW_SYMMETRIES: usize = 8;

/// With more cell maps (the 128 of a classic 4x4 board), only states with at most this many
/// filled cells use them (a key per map per node costs more than deep transpositions save).
/// On the 4x4 board 1.../..2./.3../...4 (four givens) a fill of 0, 4, 6, 8 took 155,331,
/// 128,213, 91,471, 49,483 nodes in 243, 201, 349, 1152 ms; 6 keeps most of the saving near
/// the empty board, where the subtrees are largest.
const MANY_SYMMETRIES_FILL: usize = 6;

/// The cell maps that keep the game the same. Renaming values never changes it; a cell map
/// must keep rows, columns and blocks (row orders that keep bands together, column orders
/// that keep stacks together, the transpose for square blocks). Under the allowed-squares
/// rules it must also keep neighbours (so only reversals and the transpose) and each
/// player's starting cells. Under `classic` all such maps are used when there are at most
/// [`MAX_SYMMETRIES`], else only the reversals and the transpose.
fn symmetries(shape: Shape, classic: bool, starts: &[u128; 2]) -> Vec<Vec<usize>> {
    let size = shape.size();
    let cells = size * size;
    let reversals = || -> Vec<Vec<usize>> { vec![(0..size).collect(), (0..size).rev().collect()] };
    // Line orders keeping groups of `width` lines together.
    let grouped = |width: usize| -> Vec<Vec<usize>> {
        let mut all = Vec::new();
        if size > 8 {
            return all;
        }
        let mut perm: Vec<usize> = (0..size).collect();
        permutations(&mut perm, 0, &mut |p: &[usize]| {
            let keeps = (0..size).all(|i| p[i] / width == p[i - i % width] / width);
            if keeps {
                all.push(p.to_vec());
            }
        });
        all
    };
    let transposes: &[bool] = if shape.m() == shape.n() {
        &[false, true]
    } else {
        &[false]
    };
    let pick = |rows: Vec<Vec<usize>>, cols: Vec<Vec<usize>>| -> Vec<Vec<usize>> {
        let mut maps = Vec::new();
        for &t in transposes {
            for rp in &rows {
                for cp in &cols {
                    let map: Vec<usize> = (0..cells)
                        .map(|i| {
                            let (r, c) = (rp[i / size], cp[i % size]);
                            if t {
                                c * size + r
                            } else {
                                r * size + c
                            }
                        })
                        .collect();
                    maps.push(map);
                }
            }
        }
        maps
    };
    let mut maps = if classic {
        let (rows, cols) = (grouped(shape.m()), grouped(shape.n()));
        if rows.len() * cols.len() * transposes.len() <= MAX_SYMMETRIES {
            pick(rows, cols)
        } else {
            pick(reversals(), reversals())
        }
    } else {
        pick(reversals(), reversals())
    };
    let moved = |mask: u128, map: &[usize]| {
        (0..cells).fold(0u128, |acc, i| acc | ((mask >> map[i]) & 1) << i)
    };
    if !classic {
        maps.retain(|map| starts.iter().all(|&s| moved(s, map) == s));
    }
    // The identity first, duplicates removed (a reversal can equal a band order).
    maps.sort();
    maps.dedup();
    let identity: Vec<usize> = (0..cells).collect();
    maps.retain(|m| *m != identity);
    maps.insert(0, identity);
    maps
}

/// Calls `visit` with every ordering of `items[at..]` (items before `at` fixed).
fn permutations(items: &mut [usize], at: usize, visit: &mut dyn FnMut(&[usize])) {
    if at == items.len() {
        visit(items);
        return;
    }
    for i in at..items.len() {
        items.swap(at, i);
        permutations(items, at + 1, visit);
        items.swap(at, i);
    }
}
