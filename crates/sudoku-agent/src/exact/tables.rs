//! The board's geometry, the mode's starting cells and the cell maps under which the game
//! stays the same: what [`super::search`] reads but never changes during a solve.

use puzzle_rules::sudoku::{Game, Mode, Player, Shape};

/// The board's geometry and the mode's starting cells, fixed for a solve.
pub(super) struct Tables {
    pub(super) size: usize,
    pub(super) cells: usize,
    pub(super) row_of: Vec<usize>,
    pub(super) col_of: Vec<usize>,
    pub(super) block_of: Vec<usize>,
    /// The 8-neighbourhood of each cell.
    pub(super) neighbours: Vec<u128>,
    /// Starting cells of each player (every cell under `classic`).
    pub(super) starts: [u128; 2],
    pub(super) classic: bool,
    /// Bits of one cell value in a key.
    pub(super) value_bits: usize,
    /// Cell maps under which the game is the same (the identity first): a state's key is
    /// the smallest over these maps and over renamings of the values.
    pub(super) symmetries: Vec<Vec<usize>>,
    /// States with at most this many filled cells use the cell maps; fuller states only
    /// rename values (their subtrees are small, and a key per map costs more than it saves).
    pub(super) symmetric_fill: usize,
}

impl Tables {
    pub(super) fn new(game: &Game) -> Tables {
        let shape = game.board().shape();
        let size = shape.size();
        let cells = size * size;
        let mut neighbours = vec![0u128; cells];
        for (cell, mask) in neighbours.iter_mut().enumerate() {
            let (r, c) = (cell / size, cell % size);
            for nr in r.saturating_sub(1)..=(r + 1).min(size - 1) {
                for nc in c.saturating_sub(1)..=(c + 1).min(size - 1) {
                    if (nr, nc) != (r, c) {
                        *mask |= 1u128 << (nr * size + nc);
                    }
                }
            }
        }
        let classic = game.mode() == Mode::Classic;
        let mut starts = [0u128; 2];
        for player in [Player::One, Player::Two] {
            starts[player.index()] = if classic {
                u128::MAX
            } else {
                game.starts(player)
                    .iter()
                    .fold(0, |acc, &(r, c)| acc | 1u128 << (r * size + c))
            };
        }
        let symmetries = symmetries(shape, classic, &starts);
        Tables {
            size,
            cells,
            row_of: (0..cells).map(|i| i / size).collect(),
            col_of: (0..cells).map(|i| i % size).collect(),
            block_of: (0..cells)
                .map(|i| shape.block_of(i / size, i % size))
                .collect(),
            neighbours,
            starts,
            classic,
            value_bits: (usize::BITS - size.leading_zeros()) as usize,
            symmetric_fill: if symmetries.len() > FEW_SYMMETRIES {
                MANY_SYMMETRIES_FILL
            } else {
                cells
            },
            symmetries,
        }
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
