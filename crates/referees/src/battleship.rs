//! Battleship: whether a 10x10 field holds the classic fleet, placed by the rules.
//!
//! The fleet ([`FLEET`]) is one ship of 4 cells, two of 3, three of 2 and four of 1. Ships are
//! straight lines of cells, across or down, and no two ships touch, not even at a corner.
//!
//! A field is ten rows of ten cells, each `1` (part of a ship) or `0` (water). Its text form
//! ([`Field`]'s [`FromStr`]) is ten lines of ten `0`/`1` digits; spaces, tabs and carriage
//! returns are ignored, and so are blank lines. Cells are named as on a Battleship board:
//! a column letter `A` to `J` (left to right) and a row number `1` to `10` (top to bottom),
//! so `B3` is the second cell of the third line.
//!
//! ```
//! use referees::battleship::{Field, FleetFault};
//! let field: Field = "\
//! 1000011000
//! 1010000010
//! 1010111010
//! 1000000000
//! 0000000010
//! 0000111000
//! 0000000010
//! 0001000000
//! 0000000100
//! 0000000000"
//!     .parse()
//!     .unwrap();
//! assert_eq!(field.check(), Ok(()));
//! ```
//!
//! **Which fault is reported.** Cells that share a side belong to the same ship: that is
//! what a ship is. Two ships touching at a side therefore read as one ship that is bent,
//! too long, or of the wrong size; only corner contact can be seen as two ships touching.
//! [`Field::check`] looks for faults in this order and reports the first it finds:
//!
//! 1. Ships are visited in scan order (top line first, left to right), each from its first
//!    cell in that order. The first ship whose cells are not in one line is a
//!    [`FleetFault::BentShip`]; a straight ship of more than 4 cells is a
//!    [`FleetFault::ShipTooLong`].
//! 2. Cells are scanned in the same order; the first ship cell whose lower-left, then
//!    lower-right, neighbour belongs to another ship is [`FleetFault::ShipsTouch`].
//! 3. Ship sizes are counted from 4 down to 1, the order of [`FLEET`]; the first size whose
//!    count differs is [`FleetFault::WrongCount`].

use std::fmt;
use std::str::FromStr;

/// Lines and columns of a field.
pub const SIZE: usize = 10;

/// The classic fleet, largest ships first: (cells per ship, number of ships).
pub const FLEET: [(usize, usize); 4] = [(4, 1), (3, 2), (2, 3), (1, 4)];

/// A cell of the field, 0-based; shown as a column letter and a 1-based row number (`B3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// 0-based row, 0 at the top.
    pub row: usize,
    /// 0-based column, 0 at the left.
    pub column: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.column as u8) as char, self.row + 1)
    }
}

/// Why a text is not a field. Lines and columns are 1-based positions in the text (a
/// column counts characters, spaces included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A character other than `0`, `1`, a space, a tab or a carriage return.
    BadCharacter {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The character.
        found: char,
    },
    /// A line with a number of digits other than ten.
    WrongRowLength {
        /// 1-based line.
        line: usize,
        /// Digits on it.
        found: usize,
    },
    /// An eleventh row.
    TooManyRows {
        /// 1-based line where it starts.
        line: usize,
    },
    /// Fewer than ten rows.
    TooFewRows {
        /// Rows found.
        found: usize,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::BadCharacter {
                line,
                column,
                found,
            } => write!(
                f,
                "line {line}, column {column}: '{}' is not 0 or 1",
                found.escape_default()
            ),
            ParseError::WrongRowLength { line, found } => {
                write!(f, "line {line}: {found} cells, expected {SIZE}")
            }
            ParseError::TooManyRows { line } => {
                write!(f, "line {line}: more than {SIZE} rows")
            }
            ParseError::TooFewRows { found } => {
                write!(f, "{found} rows, expected {SIZE}")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// Why a field does not hold the classic fleet; see the [module documentation](self) for
/// which one is reported when there are several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FleetFault {
    /// A ship's cells are not in one line.
    BentShip {
        /// The ship's first cell in scan order.
        start: Cell,
        /// Its first cell in scan order with ship neighbours both across and down (or up):
        /// where it bends.
        bend: Cell,
    },
    /// A straight ship longer than the longest in the fleet.
    ShipTooLong {
        /// First cell (top or left end).
        start: Cell,
        /// Last cell (bottom or right end).
        end: Cell,
        /// Cells.
        size: usize,
    },
    /// Two ships touch at a corner.
    ShipsTouch {
        /// The upper of the two cells.
        first: Cell,
        /// The lower one, diagonally below it.
        second: Cell,
    },
    /// The number of ships of one size is not the fleet's.
    WrongCount {
        /// Cells per ship.
        size: usize,
        /// Ships of that size in the fleet.
        expected: usize,
        /// Ships of that size on the field.
        found: usize,
    },
}

impl fmt::Display for FleetFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FleetFault::BentShip { start, bend } => {
                write!(f, "the ship starting at {start} is bent at {bend}")
            }
            FleetFault::ShipTooLong { start, end, size } => {
                let longest = FLEET[0].0;
                write!(
                    f,
                    "the ship {start}-{end} has {size} cells, at most {longest} allowed"
                )
            }
            FleetFault::ShipsTouch { first, second } => {
                write!(f, "ships touch at a corner: {first} and {second}")
            }
            FleetFault::WrongCount {
                size,
                expected,
                found,
            } => write!(
                f,
                "ships of size {size}: expected {expected}, found {found}"
            ),
        }
    }
}

impl std::error::Error for FleetFault {}

/// A 10x10 field: which cells are ship and which are water.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    ship: [[bool; SIZE]; SIZE],
}

impl Field {
    /// A field from its rows, top first; `true` is a ship cell.
    pub fn new(ship: [[bool; SIZE]; SIZE]) -> Field {
        Field { ship }
    }

    /// Whether the cell is part of a ship. Cells off the field are water.
    pub fn is_ship(&self, cell: Cell) -> bool {
        cell.row < SIZE && cell.column < SIZE && self.ship[cell.row][cell.column]
    }

    /// The cell at signed offsets from `cell`, if it is on the field and a ship cell.
    fn ship_at(&self, cell: Cell, rows: isize, columns: isize) -> Option<Cell> {
        let row = cell.row.checked_add_signed(rows)?;
        let column = cell.column.checked_add_signed(columns)?;
        let cell = Cell { row, column };
        self.is_ship(cell).then_some(cell)
    }

    /// The ships: groups of ship cells joined through shared sides, each listed in scan
    /// order, the ships ordered by their first cell.
    pub fn ships(&self) -> Vec<Vec<Cell>> {
        let mut seen = [[false; SIZE]; SIZE];
        let mut ships = Vec::new();
        for start in all_cells() {
            if !self.is_ship(start) || seen[start.row][start.column] {
                continue;
            }
            seen[start.row][start.column] = true;
            let mut ship = vec![start];
            let mut next = 0;
            while next < ship.len() {
                let cell = ship[next];
                next += 1;
                for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    if let Some(n) = self.ship_at(cell, dr, dc) {
                        if !seen[n.row][n.column] {
                            seen[n.row][n.column] = true;
                            ship.push(n);
                        }
                    }
                }
            }
            ship.sort();
            ships.push(ship);
        }
        ships
    }

    /// `Ok(())` if the field holds exactly the classic fleet, placed by the rules;
    /// otherwise the first fault, in the order the [module documentation](self) gives.
    pub fn check(&self) -> Result<(), FleetFault> {
        let ships = self.ships();
        let mut ship_of = [[usize::MAX; SIZE]; SIZE];
        for (index, ship) in ships.iter().enumerate() {
            let start = ship[0];
            let end = ship[ship.len() - 1];
            let straight = ship.iter().all(|c| c.row == start.row)
                || ship.iter().all(|c| c.column == start.column);
            if !straight {
                // A joined, non-straight group has a cell with neighbours both ways.
                let bend = ship.iter().copied().find(|&c| {
                    let across = self.ship_at(c, 0, -1).or(self.ship_at(c, 0, 1));
                    let down = self.ship_at(c, -1, 0).or(self.ship_at(c, 1, 0));
                    across.is_some() && down.is_some()
                });
                return Err(FleetFault::BentShip {
                    start,
                    bend: bend.expect("a bent ship has a bend"),
                });
            }
            if ship.len() > FLEET[0].0 {
                let size = ship.len();
                return Err(FleetFault::ShipTooLong { start, end, size });
            }
            for c in ship {
                ship_of[c.row][c.column] = index;
            }
        }
        for first in all_cells().filter(|&c| self.is_ship(c)) {
            for columns in [-1, 1] {
                if let Some(second) = self.ship_at(first, 1, columns) {
                    if ship_of[first.row][first.column] != ship_of[second.row][second.column] {
                        return Err(FleetFault::ShipsTouch { first, second });
                    }
                }
            }
        }
        for (size, expected) in FLEET {
            let found = ships.iter().filter(|s| s.len() == size).count();
            if found != expected {
                return Err(FleetFault::WrongCount {
                    size,
                    expected,
                    found,
                });
            }
        }
        Ok(())
    }
}

/// Every cell in scan order: top line first, left to right.
fn all_cells() -> impl Iterator<Item = Cell> {
    (0..SIZE).flat_map(|row| (0..SIZE).map(move |column| Cell { row, column }))
}

impl FromStr for Field {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Field, ParseError> {
        let mut ship = [[false; SIZE]; SIZE];
        let mut rows = 0;
        for (index, line) in text.lines().enumerate() {
            let line_number = index + 1;
            let mut digits = Vec::with_capacity(SIZE);
            for (position, ch) in line.chars().enumerate() {
                match ch {
                    '0' | '1' => digits.push(ch == '1'),
                    // A carriage return can only be part of a line ending.
                    ' ' | '\t' | '\r' => {}
                    found => {
                        return Err(ParseError::BadCharacter {
                            line: line_number,
                            column: position + 1,
                            found,
                        })
                    }
                }
            }
            if digits.is_empty() {
                continue;
            }
            if rows == SIZE {
                return Err(ParseError::TooManyRows { line: line_number });
            }
            if digits.len() != SIZE {
                return Err(ParseError::WrongRowLength {
                    line: line_number,
                    found: digits.len(),
                });
            }
            ship[rows].copy_from_slice(&digits);
            rows += 1;
        }
        if rows < SIZE {
            return Err(ParseError::TooFewRows { found: rows });
        }
        Ok(Field { ship })
    }
}

impl fmt::Display for Field {
    /// Ten lines of ten digits, the form [`Field::from_str`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in &self.ship {
            for &cell in row {
                f.write_str(if cell { "1" } else { "0" })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classic valid field, as usually printed: digits separated by spaces.
    const CLASSIC: &str = "\
1 0 0 0 0 1 1 0 0 0
1 0 1 0 0 0 0 0 1 0
1 0 1 0 1 1 1 0 1 0
1 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 1 0
0 0 0 0 1 1 1 0 0 0
0 0 0 0 0 0 0 0 1 0
0 0 0 1 0 0 0 0 0 0
0 0 0 0 0 0 0 1 0 0
0 0 0 0 0 0 0 0 0 0
";

    fn cell(name: &str) -> Cell {
        let column = (name.as_bytes()[0] - b'A') as usize;
        let row = name[1..].parse::<usize>().unwrap() - 1;
        Cell { row, column }
    }

    /// The classic field with some cells flipped.
    fn classic_with(flips: &[&str]) -> Field {
        let mut field: Field = CLASSIC.parse().unwrap();
        for name in flips {
            let c = cell(name);
            field.ship[c.row][c.column] = !field.ship[c.row][c.column];
        }
        field
    }

    #[test]
    fn the_classic_field_is_valid() {
        let field: Field = CLASSIC.parse().unwrap();
        assert_eq!(field.check(), Ok(()));
        let sizes: Vec<usize> = field.ships().iter().map(Vec::len).collect();
        assert_eq!(sizes, [4, 2, 2, 2, 3, 1, 3, 1, 1, 1]);
        // The compact text form reads back to the same field.
        assert_eq!(field.to_string().parse::<Field>(), Ok(field.clone()));
        assert_eq!(cell("J10").to_string(), "J10");
    }

    #[test]
    fn a_bent_ship_is_named_by_its_start_and_bend() {
        // B4 joins the 4-ship A1-A4 at its foot: an L.
        let field = classic_with(&["B4"]);
        let fault = FleetFault::BentShip {
            start: cell("A1"),
            bend: cell("A4"),
        };
        assert_eq!(field.check(), Err(fault));
        assert_eq!(fault.to_string(), "the ship starting at A1 is bent at A4");
        // A square (which also touches D8 at a corner): every cell bends, the first is named.
        let square = classic_with(&["B9", "C9", "B10", "C10"]).check();
        assert_eq!(
            square,
            Err(FleetFault::BentShip {
                start: cell("B9"),
                bend: cell("B9")
            })
        );
    }

    #[test]
    fn a_ship_too_long_is_named_by_its_ends() {
        // A5 extends the 4-ship A1-A4 to five cells.
        let fault = FleetFault::ShipTooLong {
            start: cell("A1"),
            end: cell("A5"),
            size: 5,
        };
        assert_eq!(classic_with(&["A5"]).check(), Err(fault));
        assert_eq!(
            fault.to_string(),
            "the ship A1-A5 has 5 cells, at most 4 allowed"
        );
    }

    #[test]
    fn ships_touching_at_a_corner_are_named() {
        // B5 touches the 4-ship's foot A4 diagonally, and is a fifth 1-ship.
        let fault = FleetFault::ShipsTouch {
            first: cell("A4"),
            second: cell("B5"),
        };
        assert_eq!(classic_with(&["B5"]).check(), Err(fault));
        assert_eq!(fault.to_string(), "ships touch at a corner: A4 and B5");
        // Moving the 1-ship D8 to D7 makes it touch E6 (of E6-G6) from below-left: the
        // lower-left neighbour of E6.
        assert_eq!(
            classic_with(&["D8", "D7"]).check(),
            Err(FleetFault::ShipsTouch {
                first: cell("E6"),
                second: cell("D7")
            })
        );
    }

    #[test]
    fn side_contact_reads_as_one_ship() {
        // The 1-ship I5 moved to I4 sits below the 2-ship I2-I3: one straight ship of 3,
        // so there are three 3-ships and two 2-ships.
        assert_eq!(
            classic_with(&["I5", "I4"]).check(),
            Err(FleetFault::WrongCount {
                size: 3,
                expected: 2,
                found: 3
            })
        );
    }

    #[test]
    fn wrong_counts_name_size_expected_found() {
        // Without the 1-ship H9.
        let fault = FleetFault::WrongCount {
            size: 1,
            expected: 4,
            found: 3,
        };
        assert_eq!(classic_with(&["H9"]).check(), Err(fault));
        assert_eq!(fault.to_string(), "ships of size 1: expected 4, found 3");
        // Sizes are compared largest first: an empty field lacks its 4-ship.
        let empty = Field::new([[false; SIZE]; SIZE]);
        assert_eq!(
            empty.check(),
            Err(FleetFault::WrongCount {
                size: 4,
                expected: 1,
                found: 0
            })
        );
        // The 4-ship shortened to 3 cells also makes three 3-ships, but the 4-ship count
        // is compared first.
        assert_eq!(
            classic_with(&["A4"]).check(),
            Err(FleetFault::WrongCount {
                size: 4,
                expected: 1,
                found: 0
            })
        );
    }

    #[test]
    fn faults_are_reported_in_the_documented_order() {
        // A bent ship (A1-A4 with B4) is reported before a later ship too long (E6-G6 grown
        // to D6-H6) and before B4's corner contact with C3: shapes are checked first.
        let field = classic_with(&["B4", "D6", "H6"]);
        assert!(matches!(field.check(), Err(FleetFault::BentShip { .. })));
        // A ship too long (D6-H6) is reported before a corner contact further up (B5).
        let field = classic_with(&["B5", "D6", "H6"]);
        assert_eq!(
            field.check(),
            Err(FleetFault::ShipTooLong {
                start: cell("D6"),
                end: cell("H6"),
                size: 5
            })
        );
        // Two corner contacts: the one at the earlier upper cell is named.
        let field = classic_with(&["C9", "B5"]);
        assert_eq!(
            field.check(),
            Err(FleetFault::ShipsTouch {
                first: cell("A4"),
                second: cell("B5")
            })
        );
    }

    #[test]
    fn parse_errors_name_line_and_column() {
        let mut lines: Vec<String> = CLASSIC.lines().map(str::to_string).collect();
        lines[2] = "1 0 1 0 2 1 1 0 1 0".into();
        assert_eq!(
            lines.join("\n").parse::<Field>(),
            Err(ParseError::BadCharacter {
                line: 3,
                column: 9,
                found: '2'
            })
        );
        lines[2] = "1 0 1 0 1 1 1 0 1".into();
        let short = lines.join("\n").parse::<Field>();
        assert_eq!(short, Err(ParseError::WrongRowLength { line: 3, found: 9 }));
        assert_eq!(
            short.unwrap_err().to_string(),
            "line 3: 9 cells, expected 10"
        );
        let nine = CLASSIC.lines().take(9).collect::<Vec<_>>().join("\n");
        assert_eq!(
            nine.parse::<Field>(),
            Err(ParseError::TooFewRows { found: 9 })
        );
        // Blank lines are skipped but counted in line numbers.
        let eleven = format!("{CLASSIC}\n0000000000\n");
        assert_eq!(
            eleven.parse::<Field>(),
            Err(ParseError::TooManyRows { line: 12 })
        );
        let crlf = CLASSIC.replace('\n', "\r\n");
        assert_eq!(crlf.parse::<Field>(), CLASSIC.parse::<Field>());
        let letter = format!("\n\n{}", CLASSIC.replacen("1 0", "1 x", 1));
        assert_eq!(
            letter.parse::<Field>(),
            Err(ParseError::BadCharacter {
                line: 3,
                column: 3,
                found: 'x'
            })
        );
    }
}
