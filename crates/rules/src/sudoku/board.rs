//! The sudoku board: block shape, cells, moves, legality and the competitive score of a move.
//!
//! Cells hold `0` for empty or a value `1..=N`. Candidate sets are `u32` bit masks (bit `v-1`
//! for value `v`), which is why boards are limited to [`MAX_SIZE`] values.

use std::fmt;

/// Largest supported side length N (values `1..=N`): 25, i.e. blocks up to 5x5.
pub const MAX_SIZE: usize = 25;

/// Block shape: every block has `m` rows and `n` columns; the board is `N x N` with `N = m * n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    m: usize,
    n: usize,
}

/// Why a text or a set of numbers is not a board (parse errors, as opposed to rule errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// `m` or `n` is zero, or `m * n` exceeds [`MAX_SIZE`].
    BadShape {
        /// Rows per block.
        m: usize,
        /// Columns per block.
        n: usize,
    },
    /// The shape text is not of the form `MxN`.
    BadShapeText(String),
    /// Wrong number of rows.
    RowCount {
        /// Rows expected (N).
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// A row has the wrong number of cells.
    RowLength {
        /// 0-based row.
        row: usize,
        /// Cells expected (N).
        expected: usize,
        /// Cells found.
        found: usize,
    },
    /// A cell character is not `.`, `0`, a digit or a letter value.
    BadCell {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The offending text.
        text: String,
    },
    /// A value is larger than N.
    ValueTooLarge {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The value.
        value: usize,
        /// N.
        size: usize,
    },
    /// Two equal values in one row, column or block.
    Duplicate {
        /// The region kind and index, e.g. `row 3` (0-based).
        region: String,
        /// The repeated value.
        value: u8,
    },
    /// A move is not of the form `r,c=v`, or a cell not `r,c`.
    BadMove(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::BadShape { m, n } => {
                write!(
                    f,
                    "block shape {m}x{n} is not supported (need m, n >= 1 and m*n <= {MAX_SIZE})"
                )
            }
            ParseError::BadShapeText(t) => write!(f, "block shape '{t}' is not of the form MxN"),
            ParseError::RowCount { expected, found } => {
                write!(f, "expected {expected} rows, found {found}")
            }
            ParseError::RowLength {
                row,
                expected,
                found,
            } => {
                write!(f, "row {row} has {found} cells, expected {expected}")
            }
            ParseError::BadCell { row, col, text } => {
                write!(f, "cell {row},{col}: '{text}' is not a value or '.'")
            }
            ParseError::ValueTooLarge {
                row,
                col,
                value,
                size,
            } => {
                write!(f, "cell {row},{col}: value {value} is larger than {size}")
            }
            ParseError::Duplicate { region, value } => {
                write!(f, "value {value} appears twice in {region}")
            }
            ParseError::BadMove(t) => write!(f, "'{t}' is not a move of the form r,c=v"),
        }
    }
}

impl std::error::Error for ParseError {}

impl Shape {
    /// A block shape of `m` rows and `n` columns per block.
    pub fn new(m: usize, n: usize) -> Result<Shape, ParseError> {
        if m == 0 || n == 0 || m * n > MAX_SIZE {
            return Err(ParseError::BadShape { m, n });
        }
        Ok(Shape { m, n })
    }

    /// Parses `MxN` (also `M x N` without spaces inside a token is not accepted; use `3x3`).
    pub fn parse(text: &str) -> Result<Shape, ParseError> {
        let (a, b) = text
            .split_once(['x', 'X'])
            .ok_or_else(|| ParseError::BadShapeText(text.to_string()))?;
        let m = a
            .trim()
            .parse()
            .map_err(|_| ParseError::BadShapeText(text.to_string()))?;
        let n = b
            .trim()
            .parse()
            .map_err(|_| ParseError::BadShapeText(text.to_string()))?;
        Shape::new(m, n)
    }

    /// Rows per block.
    pub fn m(self) -> usize {
        self.m
    }

    /// Columns per block.
    pub fn n(self) -> usize {
        self.n
    }

    /// Side length N = m * n.
    pub fn size(self) -> usize {
        self.m * self.n
    }

    /// Number of cells, N * N.
    pub fn cells(self) -> usize {
        self.size() * self.size()
    }

    /// Block index (0-based, row-major over blocks) of a cell.
    pub fn block_of(self, row: usize, col: usize) -> usize {
        (row / self.m) * self.m + col / self.n
    }

    /// Mask with one bit per value `1..=N`.
    pub fn all_values(self) -> u32 {
        if self.size() == 32 {
            u32::MAX
        } else {
            (1u32 << self.size()) - 1
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.m, self.n)
    }
}

/// A move: put `value` in the cell at `row`, `col` (0-based). Text form `r,c=v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// Value 1..=N.
    pub value: u8,
}

impl Move {
    /// Whether the move is on a board of side `size` with a value in `1..=size` (legal or
    /// not).
    pub fn fits(self, size: usize) -> bool {
        self.row < size && self.col < size && self.value != 0 && self.value as usize <= size
    }

    /// A move.
    pub fn new(row: usize, col: usize, value: u8) -> Move {
        Move { row, col, value }
    }

    /// Parses `r,c=v` (0-based row and column, decimal value).
    pub fn parse(text: &str) -> Result<Move, ParseError> {
        let bad = || ParseError::BadMove(text.to_string());
        let (cell, value) = text.split_once('=').ok_or_else(bad)?;
        let (row, col) = parse_cell(cell).map_err(|_| bad())?;
        let value: u8 = value.trim().parse().map_err(|_| bad())?;
        Ok(Move { row, col, value })
    }
}

/// Parses a cell `r,c` (0-based).
pub fn parse_cell(text: &str) -> Result<(usize, usize), ParseError> {
    let bad = || ParseError::BadMove(text.to_string());
    let (r, c) = text.split_once(',').ok_or_else(bad)?;
    Ok((
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    ))
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}={}", self.row, self.col, self.value)
    }
}

/// Why a move is not legal on a board (rule errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Row or column is not on the board.
    OffBoard,
    /// The value is 0 or larger than N.
    ValueOutOfRange,
    /// The cell is already filled.
    Occupied,
    /// The value is already in the cell's row.
    DuplicateInRow,
    /// The value is already in the cell's column.
    DuplicateInColumn,
    /// The value is already in the cell's block.
    DuplicateInBlock,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::OffBoard => "cell is off the board",
            MoveError::ValueOutOfRange => "value is out of range",
            MoveError::Occupied => "cell is already filled",
            MoveError::DuplicateInRow => "value is already in the row",
            MoveError::DuplicateInColumn => "value is already in the column",
            MoveError::DuplicateInBlock => "value is already in the block",
        })
    }
}

impl std::error::Error for MoveError {}

/// Competitive score of a move that completes `regions` regions (0..=3): 0, 1, 3, 7.
pub fn score_for_regions(regions: usize) -> u32 {
    [0, 1, 3, 7][regions.min(3)]
}

/// An N x N sudoku board. Keeps per-row, per-column and per-block masks of used values so
/// legality and candidates are O(1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    cells: Vec<u8>,
    rows: Vec<u32>,
    cols: Vec<u32>,
    blocks: Vec<u32>,
    filled: usize,
}

impl Board {
    /// An empty board of the given block shape.
    pub fn empty(shape: Shape) -> Board {
        let size = shape.size();
        Board {
            shape,
            cells: vec![0; size * size],
            rows: vec![0; size],
            cols: vec![0; size],
            blocks: vec![0; size],
            filled: 0,
        }
    }

    /// Builds a board from cell values (row-major, 0 empty). Rejects values above N and
    /// duplicates in a region.
    pub fn from_cells(shape: Shape, cells: &[u8]) -> Result<Board, ParseError> {
        let size = shape.size();
        if cells.len() != size * size {
            return Err(ParseError::RowCount {
                expected: size,
                found: cells.len() / size.max(1),
            });
        }
        let mut board = Board::empty(shape);
        for (i, &v) in cells.iter().enumerate() {
            let (row, col) = (i / size, i % size);
            if v as usize > size {
                return Err(ParseError::ValueTooLarge {
                    row,
                    col,
                    value: v as usize,
                    size,
                });
            }
            if v == 0 {
                continue;
            }
            match board.check(Move::new(row, col, v)) {
                Ok(()) => board.place(Move::new(row, col, v)),
                Err(MoveError::DuplicateInRow) => {
                    return Err(ParseError::Duplicate {
                        region: format!("row {row}"),
                        value: v,
                    })
                }
                Err(MoveError::DuplicateInColumn) => {
                    return Err(ParseError::Duplicate {
                        region: format!("column {col}"),
                        value: v,
                    })
                }
                Err(_) => {
                    let block = shape.block_of(row, col);
                    return Err(ParseError::Duplicate {
                        region: format!("block {block}"),
                        value: v,
                    });
                }
            }
        }
        Ok(board)
    }

    /// The block shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Side length N.
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// Value at a cell, 0 when empty. Panics if off the board (callers validate first).
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.size() + col]
    }

    /// All cells, row-major, 0 for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.filled
    }

    /// True when every cell is filled.
    pub fn is_full(&self) -> bool {
        self.filled == self.cells.len()
    }

    /// Values still possible in an empty cell (bit `v-1` for value `v`); 0 for a filled cell.
    pub fn candidates(&self, row: usize, col: usize) -> u32 {
        if self.get(row, col) != 0 {
            return 0;
        }
        let block = self.shape.block_of(row, col);
        self.shape.all_values() & !(self.rows[row] | self.cols[col] | self.blocks[block])
    }

    /// Checks that a move is legal: on the board, value in range, empty cell, no duplicate.
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        let size = self.size();
        if mv.row >= size || mv.col >= size {
            return Err(MoveError::OffBoard);
        }
        if mv.value == 0 || mv.value as usize > size {
            return Err(MoveError::ValueOutOfRange);
        }
        if self.get(mv.row, mv.col) != 0 {
            return Err(MoveError::Occupied);
        }
        let bit = 1u32 << (mv.value - 1);
        if self.rows[mv.row] & bit != 0 {
            return Err(MoveError::DuplicateInRow);
        }
        if self.cols[mv.col] & bit != 0 {
            return Err(MoveError::DuplicateInColumn);
        }
        if self.blocks[self.shape.block_of(mv.row, mv.col)] & bit != 0 {
            return Err(MoveError::DuplicateInBlock);
        }
        Ok(())
    }

    /// Places a move without checking it (call [`Board::check`] first).
    pub fn place(&mut self, mv: Move) {
        let size = self.size();
        debug_assert!(self.check(mv).is_ok());
        let bit = 1u32 << (mv.value - 1);
        self.cells[mv.row * size + mv.col] = mv.value;
        self.rows[mv.row] |= bit;
        self.cols[mv.col] |= bit;
        self.blocks[self.shape.block_of(mv.row, mv.col)] |= bit;
        self.filled += 1;
    }

    /// Empties a filled cell (used by searches to undo a move).
    pub fn clear(&mut self, row: usize, col: usize) {
        let size = self.size();
        let value = self.cells[row * size + col];
        if value == 0 {
            return;
        }
        let bit = !(1u32 << (value - 1));
        self.cells[row * size + col] = 0;
        self.rows[row] &= bit;
        self.cols[col] &= bit;
        self.blocks[self.shape.block_of(row, col)] &= bit;
        self.filled -= 1;
    }

    /// Number of regions (row, column, block) that filling the empty cell `row`, `col` would
    /// complete: a region completes when this cell is its only empty cell.
    pub fn regions_completed_by(&self, row: usize, col: usize) -> usize {
        let size = self.size();
        let (m, n) = (self.shape.m, self.shape.n);
        let row_full = (0..size).all(|c| c == col || self.get(row, c) != 0);
        let col_full = (0..size).all(|r| r == row || self.get(r, col) != 0);
        let (br, bc) = (row / m * m, col / n * n);
        let block_full = (br..br + m)
            .all(|r| (bc..bc + n).all(|c| (r == row && c == col) || self.get(r, c) != 0));
        row_full as usize + col_full as usize + block_full as usize
    }

    /// Competitive score of filling the empty cell `row`, `col`: 0, 1, 3 or 7.
    pub fn score_of(&self, row: usize, col: usize) -> u32 {
        score_for_regions(self.regions_completed_by(row, col))
    }
}

/// The one-character form of a value: `.` for 0, `1`-`9`, then `A`=10, `B`=11, ...
pub fn value_char(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => (b'0' + v) as char,
        _ => (b'A' + v - 10) as char,
    }
}

impl fmt::Display for Board {
    /// A human-readable drawing with block lines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size();
        let (m, n) = (self.shape.m, self.shape.n);
        for row in 0..size {
            if row > 0 && row % m == 0 {
                let seg = "-".repeat(2 * n);
                writeln!(f, "{}", vec![seg; size / n].join("+"))?;
            }
            let mut line = String::new();
            for col in 0..size {
                if col > 0 && col % n == 0 {
                    line.push('|');
                }
                line.push(value_char(self.get(row, col)));
                line.push(' ');
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_round_trip() {
        let shape = Shape::new(2, 3).unwrap();
        let text = "1.....//////";
        assert!(Board::parse_rows(shape, text).is_err());
        let text = "123456/456123/......./......";
        assert!(matches!(
            Board::parse_rows(shape, text),
            Err(ParseError::RowCount { .. })
        ));
        let text = "123456/456123/....../....../....../......";
        let board = Board::parse_rows(shape, text).unwrap();
        assert_eq!(board.to_rows(), text);
        assert_eq!(board.filled(), 12);
    }

    #[test]
    fn rejects_duplicates_and_large_values() {
        let shape = Shape::new(2, 2).unwrap();
        assert!(matches!(
            Board::parse_rows(shape, "11../..../..../...."),
            Err(ParseError::Duplicate { .. })
        ));
        assert!(matches!(
            Board::parse_rows(shape, "5.../..../..../...."),
            Err(ParseError::ValueTooLarge { .. })
        ));
        assert!(matches!(
            Board::parse_rows(shape, "*.../..../..../...."),
            Err(ParseError::BadCell { .. })
        ));
    }

    #[test]
    fn legality_and_scores() {
        let shape = Shape::new(2, 2).unwrap();
        let board = Board::parse_rows(shape, "123./4.../..../....").unwrap();
        for (mv, want) in [
            ((0, 3, 4), Ok(())),
            ((0, 3, 1), Err(MoveError::DuplicateInRow)),
            ((0, 0, 4), Err(MoveError::Occupied)),
            ((2, 0, 1), Err(MoveError::DuplicateInColumn)),
            ((1, 3, 3), Err(MoveError::DuplicateInBlock)),
            ((4, 0, 1), Err(MoveError::OffBoard)),
            ((0, 3, 5), Err(MoveError::ValueOutOfRange)),
            ((0, 3, 0), Err(MoveError::ValueOutOfRange)),
        ] {
            assert_eq!(board.check(Move::new(mv.0, mv.1, mv.2)), want, "{mv:?}");
        }
        // 0,3 completes row 0 only: column 3 and block 1 still have other empty cells.
        assert_eq!(board.regions_completed_by(0, 3), 1);
        assert_eq!(board.score_of(0, 3), 1);
        // Row and block complete together: 3 points.
        let board = Board::parse_rows(shape, "123./4..2/..../....").unwrap();
        assert_eq!(board.regions_completed_by(0, 3), 1);
        let board = Board::parse_rows(shape, "12../34../..../....").unwrap();
        assert_eq!(board.regions_completed_by(2, 0), 0);
        let board = Board::parse_rows(shape, "1234/341./..../....").unwrap();
        assert_eq!(board.score_of(1, 3), 3);
        // The last cell completes its row, column and block: 7 points.
        let board = Board::parse_rows(shape, "1234/3412/2143/432.").unwrap();
        assert_eq!(board.score_of(3, 3), 7);
        assert_eq!(score_for_regions(2), 3);
    }

    #[test]
    fn moves_parse() {
        assert_eq!(Move::parse("3,4=7").unwrap(), Move::new(3, 4, 7));
        assert!(Move::parse("3,4").is_err());
        assert!(Move::parse("a,4=1").is_err());
        assert_eq!(Move::new(0, 10, 12).to_string(), "0,10=12");
    }
}
