//! The checker for a filled grid: is it a correct sudoku, and if not, which region breaks it.
//!
//! It works on raw cell values rather than a [`super::Board`], because a board cannot hold the
//! duplicates this checker exists to report.

use std::fmt;

use super::board::Shape;

/// A row, column or block, 0-based (blocks numbered row-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// A row.
    Row(usize),
    /// A column.
    Column(usize),
    /// A block.
    Block(usize),
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Region::Row(i) => write!(f, "row {i}"),
            Region::Column(i) => write!(f, "column {i}"),
            Region::Block(i) => write!(f, "block {i}"),
        }
    }
}

/// Why a grid is not a correct filled sudoku.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridFault {
    /// The number of cells is not N * N.
    WrongSize {
        /// N * N.
        expected: usize,
        /// Cells given.
        found: usize,
    },
    /// A cell holds a value above N.
    ValueOutOfRange {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The value.
        value: u8,
    },
    /// The region has an empty cell (the first region containing one).
    Empty {
        /// The region.
        region: Region,
        /// 0-based row of its first empty cell.
        row: usize,
        /// 0-based column of its first empty cell.
        col: usize,
    },
    /// The region holds a value twice.
    Duplicate {
        /// The region.
        region: Region,
        /// The repeated value.
        value: u8,
    },
}

impl fmt::Display for GridFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridFault::WrongSize { expected, found } => {
                write!(f, "expected {expected} cells, found {found}")
            }
            GridFault::ValueOutOfRange { row, col, value } => {
                write!(f, "cell {row},{col}: value {value} is out of range")
            }
            GridFault::Empty { region, row, col } => {
                write!(f, "{region} is not filled (cell {row},{col} is empty)")
            }
            GridFault::Duplicate { region, value } => {
                write!(f, "{region} has {value} twice")
            }
        }
    }
}

impl std::error::Error for GridFault {}

/// Checks a filled grid (row-major values, 0 for empty) of block shape `shape`. Regions are
/// examined in the order rows 0..N, then columns, then blocks, and the first broken one is
/// named; the cells of one region are read in row-major order.
pub fn check_filled(shape: Shape, cells: &[u8]) -> Result<(), GridFault> {
    let size = shape.size();
    if cells.len() != size * size {
        return Err(GridFault::WrongSize {
            expected: size * size,
            found: cells.len(),
        });
    }
    for (i, &v) in cells.iter().enumerate() {
        if v as usize > size {
            return Err(GridFault::ValueOutOfRange {
                row: i / size,
                col: i % size,
                value: v,
            });
        }
    }
    let (m, n) = (shape.m(), shape.n());
    let regions = (0..size)
        .map(|r| {
            (
                Region::Row(r),
                (0..size).map(move |k| (r, k)).collect::<Vec<_>>(),
            )
        })
        .chain((0..size).map(|c| (Region::Column(c), (0..size).map(|k| (k, c)).collect())))
        .chain((0..size).map(|b| {
            let (top, left) = (b / m * m, b % m * n);
            let cells = (0..size).map(|k| (top + k / n, left + k % n)).collect();
            (Region::Block(b), cells)
        }));
    for (region, members) in regions {
        let mut seen = 0u32;
        for (row, col) in members {
            let v = cells[row * size + col];
            if v == 0 {
                return Err(GridFault::Empty { region, row, col });
            }
            let bit = 1u32 << (v - 1);
            if seen & bit != 0 {
                return Err(GridFault::Duplicate { region, value: v });
            }
            seen |= bit;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(text: &str) -> Vec<u8> {
        text.bytes()
            .filter(|b| *b != b'/')
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    #[test]
    fn names_the_first_broken_region() {
        let s = Shape::new(2, 2).unwrap();
        assert_eq!(check_filled(s, &grid("1234/3412/2143/4321")), Ok(()));
        // The second grid's rows and columns are fine (a latin square), its blocks not.
        for (text, region, value) in [
            ("1234/3412/2143/4312", Region::Column(2), 1),
            ("1234/2341/3412/4123", Region::Block(0), 2),
            ("1134/3412/2143/4321", Region::Row(0), 1),
        ] {
            let want = Err(GridFault::Duplicate { region, value });
            assert_eq!(check_filled(s, &grid(text)), want, "{text}");
        }
        assert_eq!(
            check_filled(s, &grid("1234/34.2/2143/4321")),
            Err(GridFault::Empty {
                region: Region::Row(1),
                row: 1,
                col: 2
            })
        );
        assert!(matches!(
            check_filled(s, &grid("1234/3412/2143/4325")),
            Err(GridFault::ValueOutOfRange { .. })
        ));
        assert!(matches!(
            check_filled(s, &grid("1234/3412/2143")),
            Err(GridFault::WrongSize { .. })
        ));
    }
}
