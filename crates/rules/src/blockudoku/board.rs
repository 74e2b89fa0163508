//! The 9x9 board as an 81-bit bitboard, its text form, and region clearing.

use std::fmt;

use super::masks::{box3, column, row, BOX_CORNERS, CELLS, FULL};

/// The bit of cell (`row`, `col`), both 0-based. Callers keep both below 9.
#[inline]
pub const fn cell_bit(row: usize, col: usize) -> u128 {
    1u128 << (row * 9 + col)
}

/// Why a text is not a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardParseError {
    /// Without `/` separators the text must hold exactly 81 cells.
    WrongLength {
        /// Number of characters found.
        len: usize,
    },
    /// With `/` separators the text must hold exactly 9 rows.
    WrongRowCount {
        /// Number of rows found.
        rows: usize,
    },
    /// A row (1-based) that does not hold exactly 9 cells.
    WrongRowLength {
        /// The row, 1-based.
        row: usize,
        /// Number of characters in that row.
        len: usize,
    },
    /// A character other than `.`, `#`, `0`, `1`.
    BadChar {
        /// The offending character.
        ch: char,
    },
}

impl fmt::Display for BoardParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardParseError::WrongLength { len } => {
                write!(f, "board needs 81 cells, got {len}")
            }
            BoardParseError::WrongRowCount { rows } => {
                write!(f, "board needs 9 rows, got {rows}")
            }
            BoardParseError::WrongRowLength { row, len } => {
                write!(f, "board row {row} needs 9 cells, got {len}")
            }
            BoardParseError::BadChar { ch } => {
                write!(f, "board cell {:?} is not one of . # 0 1", ch)
            }
        }
    }
}

impl std::error::Error for BoardParseError {}

/// A 9x9 Blockudoku board: bit `row * 9 + col` is set when the cell is filled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board(u128);

const ROW0: u128 = row(0);
const COL0: u128 = column(0);
const BOX0: u128 = box3(0);
const COL8: u128 = column(8);
/// The first two columns of every box, in the boxes' top rows.
const BOX_LEFT_TWO: u128 = BOX_CORNERS | BOX_CORNERS << 1;
/// The top-right cell of every box.
const BOX_RIGHT: u128 = BOX_CORNERS << 2;

/// What one placement did to the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cleared {
    /// Number of regions (rows, columns, boxes) that were full and cleared.
    pub regions: u32,
    /// The union of the cleared regions' cells.
    pub cells: u128,
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board(0);

    /// A board from its bits; bits above 80 are dropped.
    #[inline]
    pub const fn from_bits(bits: u128) -> Board {
        Board(bits & FULL)
    }

    /// The board whose cell `i` (0-80, row-major) is filled when `filled(i)`, asked in
    /// cell order.
    pub fn from_fn(mut filled: impl FnMut(usize) -> bool) -> Board {
        Board((0..CELLS).fold(0, |bits, i| bits | (filled(i) as u128) << i))
    }

    /// The 81 cell bits.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// Whether cell (`row`, `col`), 0-based, is filled; cells off the board read as filled.
    #[inline]
    pub fn is_filled(self, row: usize, col: usize) -> bool {
        row >= 9 || col >= 9 || self.0 & cell_bit(row, col) != 0
    }

    /// Number of filled cells.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether no cell is filled.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the piece cells `mask` are all empty here.
    #[inline]
    pub const fn fits(self, mask: u128) -> bool {
        self.0 & mask == 0
    }

    /// Fills `mask` (which the caller has checked with [`Board::fits`]), then clears every full
    /// row, column and box at the same time. Returns the new board and what was cleared.
    #[inline]
    pub fn place_mask(self, mask: u128) -> (Board, Cleared) {
        let f = self.0 | mask;
        // Full rows: adding 1 at column 0 to each row's columns 0-7 carries into column 8
        // exactly when all eight are filled, and stops there (column 8 is clear in the sum),
        // so one addition tests all nine rows; the row is full when column 8 is filled too.
        let rows = ((f & !COL8) + COL0) & f & COL8;
        // Full columns: AND the nine rows into the first. Full boxes: AND three rows into
        // each box's top row, then test its three columns by the same carry, into the box's
        // top-right cell.
        let pairs = f & f >> 9;
        let mut cols = pairs & pairs >> 18;
        cols &= cols >> 36;
        cols &= f >> 72;
        cols &= ROW0;
        let three_rows = pairs & f >> 18;
        let boxes = ((three_rows & BOX_LEFT_TWO) + BOX_CORNERS) & three_rows & BOX_RIGHT;
        if rows | cols | boxes == 0 {
            return (Board(f), Cleared::default());
        }
        // Spread each marker bit over its region; the regions' bits never overlap, so the
        // products carry nothing.
        let cells = ((rows >> 8) * ROW0) | (cols * COL0) | ((boxes >> 2) * BOX0);
        let regions = rows.count_ones() + cols.count_ones() + boxes.count_ones();
        (Board(f & !cells), Cleared { regions, cells })
    }

    /// Parses 81 cells (`.`/`0` empty, `#`/`1` filled), optionally as 9 rows joined by `/`.
    pub fn parse(text: &str) -> Result<Board, BoardParseError> {
        let mut bits = 0u128;
        let mut put = |index: usize, ch: char| -> Result<(), BoardParseError> {
            match ch {
                '.' | '0' => Ok(()),
                '#' | '1' => {
                    bits |= 1u128 << index;
                    Ok(())
                }
                _ => Err(BoardParseError::BadChar { ch }),
            }
        };
        if text.contains('/') {
            let rows = text.split('/').count();
            if rows != 9 {
                return Err(BoardParseError::WrongRowCount { rows });
            }
            for (r, row) in text.split('/').enumerate() {
                let len = row.chars().count();
                if len != 9 {
                    return Err(BoardParseError::WrongRowLength { row: r + 1, len });
                }
                for (c, ch) in row.chars().enumerate() {
                    put(r * 9 + c, ch)?;
                }
            }
        } else {
            let len = text.chars().count();
            if len != CELLS {
                return Err(BoardParseError::WrongLength { len });
            }
            for (i, ch) in text.chars().enumerate() {
                put(i, ch)?;
            }
        }
        Ok(Board(bits))
    }

    /// The 81 cells as `.`/`#` without row separators.
    pub fn to_compact(self) -> String {
        (0..CELLS)
            .map(|i| if self.0 >> i & 1 == 1 { '#' } else { '.' })
            .collect()
    }
}

/// Nine rows of nine `.`/`#` joined by `/`, the protocol's board form.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let compact = self.to_compact();
        for r in 0..9 {
            if r > 0 {
                f.write_str("/")?;
            }
            f.write_str(&compact[r * 9..r * 9 + 9])?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Board {
    type Err = BoardParseError;
    fn from_str(s: &str) -> Result<Board, BoardParseError> {
        Board::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blockudoku::REGIONS;

    #[test]
    fn regions_cover_each_cell_three_times() {
        for i in 0..CELLS {
            let n = REGIONS.iter().filter(|m| *m >> i & 1 == 1).count();
            assert_eq!(n, 3);
        }
        assert!(REGIONS.iter().all(|m| m.count_ones() == 9));
    }

    #[test]
    fn parse_and_print_round_trip() {
        let text = "#........\
                    .#.......\
                    .........\
                    .........\
                    .........\
                    .........\
                    .........\
                    .........\
                    ........#";
        let b = Board::parse(text).unwrap();
        assert_eq!(b.count(), 3);
        assert!(b.is_filled(0, 0) && b.is_filled(1, 1) && b.is_filled(8, 8));
        assert!(!b.is_filled(0, 1));
        assert_eq!(b.to_compact(), text);
        let rows = b.to_string();
        assert_eq!(rows.split('/').count(), 9);
        assert_eq!(Board::parse(&rows).unwrap(), b);
        let digits: String = text.replace('#', "1").replace('.', "0");
        assert_eq!(Board::parse(&digits).unwrap(), b);
    }

    #[test]
    fn parse_errors_are_typed() {
        assert_eq!(
            Board::parse("...").unwrap_err(),
            BoardParseError::WrongLength { len: 3 }
        );
        let ten_rows = vec![".........".to_string(); 10].join("/");
        assert_eq!(
            Board::parse(&ten_rows).unwrap_err(),
            BoardParseError::WrongRowCount { rows: 10 }
        );
        let mut rows = vec![".........".to_string(); 9];
        rows[3] = "........".into();
        assert_eq!(
            Board::parse(&rows.join("/")).unwrap_err(),
            BoardParseError::WrongRowLength { row: 4, len: 8 }
        );
        let bad = format!("x{}", ".".repeat(80));
        assert_eq!(
            Board::parse(&bad).unwrap_err(),
            BoardParseError::BadChar { ch: 'x' }
        );
        // Multi-byte characters count as one cell each and are rejected, not sliced.
        let uni = format!("é{}", ".".repeat(80));
        assert_eq!(
            Board::parse(&uni).unwrap_err(),
            BoardParseError::BadChar { ch: 'é' }
        );
    }

    #[test]
    fn clearing_matches_a_region_by_region_check() {
        let mut rng = crate::rng::SplitMix64(5);
        for n in 0..20_000 {
            // Dense boards so that many placements complete one or several regions.
            let density = [0.6, 0.8, 0.9, 0.97][n % 4];
            let mut bits = 0u128;
            for i in 0..CELLS {
                if rng.chance(density) {
                    bits |= 1u128 << i;
                }
            }
            let mask = (!bits & FULL) & ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128);
            let filled = bits | mask;
            let full: Vec<u128> = REGIONS
                .iter()
                .copied()
                .filter(|&r| filled & r == r)
                .collect();
            let cells = full.iter().fold(0, |m, r| m | r);
            let (after, cleared) = Board::from_bits(bits).place_mask(mask);
            assert_eq!(cleared.regions, full.len() as u32);
            assert_eq!(cleared.cells, cells);
            assert_eq!(after, Board::from_bits(filled & !cells));
        }
    }

    #[test]
    fn full_regions_clear_together() {
        // Row 0 full except (0,0); column 0 full except (0,0): filling (0,0) clears both, and
        // box 0 too when its other cells are full.
        let mut bits = 0u128;
        for i in 1..9 {
            bits |= cell_bit(0, i) | cell_bit(i, 0);
        }
        bits |= cell_bit(1, 1) | cell_bit(1, 2) | cell_bit(2, 1) | cell_bit(2, 2);
        bits |= cell_bit(5, 5);
        let (after, cleared) = Board::from_bits(bits).place_mask(cell_bit(0, 0));
        assert_eq!(cleared.regions, 3);
        assert_eq!(after, Board::from_bits(cell_bit(5, 5)));
        let (after, cleared) = Board::EMPTY.place_mask(cell_bit(4, 4));
        assert_eq!(cleared.regions, 0);
        assert_eq!(after.count(), 1);
    }
}
