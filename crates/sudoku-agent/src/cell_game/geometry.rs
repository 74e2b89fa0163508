//! The fixed geometry of a board shape, shared by the evaluation and every agent that plays
//! the cell game: cells as row-major indices, the three regions of each cell, the cells of
//! each region, the king-step neighbours of each cell and, on boards of at most 128 cells,
//! the same facts as bit masks.

/// Fixed geometry of a board shape.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Cells per side.
    pub size: usize,
    /// Cells.
    pub cells: usize,
    /// Row, N + column, 2N + block of each cell.
    pub regions: Vec<[u16; 3]>,
    /// Cells of each region.
    pub region_cells: Vec<Vec<u16>>,
    /// King-step neighbours of each cell.
    pub neighbours: Vec<Vec<u16>>,
    /// The masks of the bitboard evaluation (boards of at most 128 cells).
    pub masks: Option<Masks>,
}

impl Geometry {
    /// The geometry of `shape`.
    pub fn new(shape: puzzle_rules::sudoku::board::Shape) -> Geometry {
        let size = shape.size();
        let cells = size * size;
        let mut region_cells = vec![Vec::new(); 3 * size];
        let mut regions = Vec::with_capacity(cells);
        let mut neighbours = Vec::with_capacity(cells);
        for k in 0..cells {
            let (r, c) = (k / size, k % size);
            let regs = [
                r as u16,
                (size + c) as u16,
                (2 * size + shape.block_of(r, c)) as u16,
            ];
            for &g in &regs {
                region_cells[g as usize].push(k as u16);
            }
            regions.push(regs);
            let mut out = Vec::new();
            for rr in r.saturating_sub(1)..=(r + 1).min(size - 1) {
                for cc in c.saturating_sub(1)..=(c + 1).min(size - 1) {
                    if (rr, cc) != (r, c) {
                        out.push((rr * size + cc) as u16);
                    }
                }
            }
            neighbours.push(out);
        }
        let masks = Masks::new(size, &region_cells);
        Geometry {
            size,
            cells,
            regions,
            region_cells,
            neighbours,
            masks,
        }
    }
}

/// The geometry as bit masks over the cells (bit `k` is cell `k`).
#[derive(Clone, Debug)]
pub struct Masks {
    /// Cells per side.
    pub size: usize,
    /// Cells.
    pub cells: usize,
    /// Every cell.
    pub full: u128,
    /// Cells not in column 0.
    pub not_left: u128,
    /// Cells not in the last column.
    pub not_right: u128,
    /// Rows, columns, blocks (the numbering of [`Geometry::regions`]).
    pub regions: Vec<u128>,
}

impl Masks {
    /// Masks of a board `size` cells wide with these regions; `None` over 128 cells.
    fn new(size: usize, region_cells: &[Vec<u16>]) -> Option<Masks> {
        let cells = size * size;
        if cells > 128 {
            return None;
        }
        let full = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let mut not_left = 0u128;
        let mut not_right = 0u128;
        for k in 0..cells {
            if k % size != 0 {
                not_left |= 1 << k;
            }
            if k % size != size - 1 {
                not_right |= 1 << k;
            }
        }
        let regions = region_cells
            .iter()
            .map(|cells| cells.iter().fold(0u128, |m, &k| m | 1 << k))
            .collect();
        Some(Masks {
            size,
            cells,
            full,
            not_left,
            not_right,
            regions,
        })
    }

    /// Cells within one king step of `x` (including `x`).
    #[inline]
    pub fn dilate(&self, x: u128) -> u128 {
        let h = x | ((x << 1) & self.not_left) | ((x >> 1) & self.not_right);
        (h | (h << self.size) | (h >> self.size)) & self.full
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_rules::sudoku::board::Shape;

    #[test]
    fn regions_neighbours_and_masks_agree() {
        let geo = Geometry::new(Shape::new(2, 3).unwrap());
        assert_eq!((geo.size, geo.cells), (6, 36));
        // Cell 7 is row 1, column 1, block 0 (blocks are 2 rows by 3 columns).
        assert_eq!(geo.regions[7], [1, 7, 12]);
        assert_eq!(geo.neighbours[0], vec![1, 6, 7]);
        assert_eq!(geo.neighbours[7].len(), 8);
        let m = geo.masks.as_ref().expect("36 cells fit the masks");
        for (r, cells) in geo.region_cells.iter().enumerate() {
            assert_eq!(m.regions[r].count_ones() as usize, cells.len());
            assert!(cells
                .iter()
                .all(|&k| geo.regions[k as usize].contains(&(r as u16))));
        }
        let around = geo.neighbours[7]
            .iter()
            .fold(1u128 << 7, |x, &k| x | 1 << k);
        assert_eq!(m.dilate(1 << 7), around);
        assert!(Geometry::new(Shape::new(4, 4).unwrap()).masks.is_none());
    }
}
