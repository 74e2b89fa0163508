//! Pieces: the 47-piece catalogue and custom shapes, with their placements precomputed.

use std::fmt;
use std::sync::OnceLock;

use super::board::{cell_bit, Board};
use super::catalogue_data::FRAME_CELLS;

/// Largest piece side: shapes must fit a 5x5 frame.
pub const MAX_SIDE: usize = 5;

/// Number of pieces in the built-in catalogue (ids 1 to this).
pub const CATALOGUE_SIZE: usize = 47;

/// Why a token is not a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceParseError {
    /// A number outside the catalogue ids 1-47.
    UnknownId(String),
    /// A shape with no `#` cell.
    EmptyShape,
    /// A shape with more than 5 rows or 5 columns.
    TooLarge {
        /// Rows in the shape text.
        rows: usize,
        /// Widest row in the shape text.
        cols: usize,
    },
    /// Shape rows of different lengths.
    RaggedRows,
    /// A character other than `#`/`1` (filled) and `.`/`0` (empty) in a shape.
    BadChar {
        /// The offending character.
        ch: char,
    },
}

impl fmt::Display for PieceParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PieceParseError::UnknownId(id) => write!(f, "unknown piece id {id} (ids are 1-47)"),
            PieceParseError::EmptyShape => write!(f, "piece shape has no # cell"),
            PieceParseError::TooLarge { rows, cols } => {
                write!(f, "piece shape is {rows}x{cols}, at most 5x5 allowed")
            }
            PieceParseError::RaggedRows => write!(f, "piece shape rows differ in length"),
            PieceParseError::BadChar { ch } => {
                write!(f, "piece shape character {:?} is not # or .", ch)
            }
        }
    }
}

impl std::error::Error for PieceParseError {}

/// A piece: a set of cells inside its bounding box (no rotation is ever applied), with every
/// board placement precomputed as a cell mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    id: Option<u8>,
    /// Cells relative to the bounding box's top-left, as (row, col).
    cells: Vec<(u8, u8)>,
    height: u8,
    width: u8,
    /// Top-left of the bounding box inside the catalogue's 5x5 frame (catalogue pieces only).
    frame_origin: Option<(u8, u8)>,
    /// Bit offsets `row * 9 + col` of the cells, for the shift-based fit test.
    offsets: Vec<u8>,
    /// Bits of the anchors (top-left cells) where the bounding box stays on the board.
    anchors: u128,
    /// (anchor cell index, cell mask) for every anchor in `anchors`, in cell order.
    placements: Vec<(u8, u128)>,
    /// The cell mask with the bounding box's top-left on cell 0: the mask at anchor cell `a`
    /// is this shifted up by `a`, as the box stays on the board.
    at_origin: u128,
}

impl Piece {
    fn build(cells: Vec<(u8, u8)>, id: Option<u8>, frame_origin: Option<(u8, u8)>) -> Piece {
        let height = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
        let width = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
        let offsets = cells.iter().map(|&(r, c)| r * 9 + c).collect();
        let mut anchors = 0u128;
        let mut placements = Vec::new();
        for r in 0..=(9 - height as usize) {
            for c in 0..=(9 - width as usize) {
                anchors |= cell_bit(r, c);
                let mask = cells.iter().fold(0u128, |m, &(dr, dc)| {
                    m | cell_bit(r + dr as usize, c + dc as usize)
                });
                placements.push(((r * 9 + c) as u8, mask));
            }
        }
        let at_origin = placements[0].1;
        Piece {
            id,
            cells,
            height,
            width,
            frame_origin,
            offsets,
            anchors,
            placements,
            at_origin,
        }
    }

    /// Catalogue piece `id` (1-47).
    pub fn catalogue(id: usize) -> Result<&'static Piece, PieceParseError> {
        if (1..=CATALOGUE_SIZE).contains(&id) {
            Ok(&catalogue()[id - 1])
        } else {
            Err(PieceParseError::UnknownId(id.to_string()))
        }
    }

    /// A piece from a shape string: rows of `#`/`.` (or `1`/`0`) separated by `/`, at most 5x5.
    /// Empty border rows and columns are trimmed, so `.#/.#` is the vertical domino.
    pub fn from_shape(shape: &str) -> Result<Piece, PieceParseError> {
        let rows: Vec<&str> = shape.split('/').collect();
        let cols = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        if rows.len() > MAX_SIDE || cols > MAX_SIDE {
            return Err(PieceParseError::TooLarge {
                rows: rows.len(),
                cols,
            });
        }
        if rows.iter().any(|r| r.chars().count() != cols) {
            return Err(PieceParseError::RaggedRows);
        }
        let mut cells = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '#' | '1' => cells.push((r as u8, c as u8)),
                    '.' | '0' => {}
                    _ => return Err(PieceParseError::BadChar { ch }),
                }
            }
        }
        if cells.is_empty() {
            return Err(PieceParseError::EmptyShape);
        }
        let r0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let c0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let cells = cells.into_iter().map(|(r, c)| (r - r0, c - c0)).collect();
        Ok(Piece::build(cells, None, None))
    }

    /// A protocol piece token: a catalogue id (digits) or a shape string.
    pub fn parse(token: &str) -> Result<Piece, PieceParseError> {
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            let id = token
                .parse::<usize>()
                .map_err(|_| PieceParseError::UnknownId(token.to_string()))?;
            return Piece::catalogue(id)
                .cloned()
                .map_err(|_| PieceParseError::UnknownId(token.to_string()));
        }
        Piece::from_shape(token)
    }

    /// The catalogue id, or `None` for a custom shape.
    pub fn id(&self) -> Option<u8> {
        self.id
    }

    /// Cells relative to the bounding box's top-left, as (row, col), in row-major order.
    pub fn cells(&self) -> &[(u8, u8)] {
        &self.cells
    }

    /// Number of cells.
    pub fn size(&self) -> u32 {
        self.cells.len() as u32
    }

    /// Bounding box height.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Bounding box width.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Top-left of the bounding box inside the catalogue's 5x5 anchor frame (catalogue
    /// pieces only): the original agent's coordinates are relative to that frame.
    pub fn frame_origin(&self) -> Option<(u8, u8)> {
        self.frame_origin
    }

    /// Every placement on an empty board: (anchor cell index `row * 9 + col`, cell mask).
    pub fn placements(&self) -> &[(u8, u128)] {
        &self.placements
    }

    /// The cell mask with the bounding box's top-left on (`row`, `col`), 0-based, or `None`
    /// when the piece would stick out of the board.
    pub fn mask_at(&self, row: usize, col: usize) -> Option<u128> {
        if row + self.height() > 9 || col + self.width() > 9 {
            return None;
        }
        // A shift, not a table look-up: the search asks this for every placement it tries,
        // and the shift amount is the anchor cell the caller already has.
        Some(self.at_origin << (row * 9 + col))
    }

    /// Bits of the anchors where this piece fits on `board` right now (a shift-and test over
    /// the piece's cells, no loop over placements).
    #[inline]
    pub fn fit_anchors(&self, board: Board) -> u128 {
        let empty = !board.bits();
        let mut fits = self.anchors;
        for &o in &self.offsets {
            fits &= empty >> o;
        }
        fits
    }

    /// The shape string: rows of the bounding box joined by `/`.
    pub fn shape(&self) -> String {
        let mut out = String::new();
        for r in 0..self.height {
            if r > 0 {
                out.push('/');
            }
            for c in 0..self.width {
                out.push(if self.cells.contains(&(r, c)) {
                    '#'
                } else {
                    '.'
                });
            }
        }
        out
    }
}

/// Catalogue pieces print as their id, custom pieces as their shape.
impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.id {
            Some(id) => write!(f, "{id}"),
            None => f.write_str(&self.shape()),
        }
    }
}

/// The 47 catalogue pieces, index `id - 1`.
pub fn catalogue() -> &'static [Piece] {
    static CATALOGUE: OnceLock<Vec<Piece>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        FRAME_CELLS
            .iter()
            .enumerate()
            .map(|(i, frame)| {
                let r0 = frame.iter().map(|c| c.0).min().unwrap_or(0);
                let c0 = frame.iter().map(|c| c.1).min().unwrap_or(0);
                let mut cells: Vec<(u8, u8)> =
                    frame.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
                cells.sort_unstable();
                Piece::build(cells, Some(i as u8 + 1), Some((r0, c0)))
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_matches_the_catalogue_file() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/blockudoku-pieces.txt");
        let text = std::fs::read_to_string(path).expect("piece catalogue file readable");
        let mut seen = 0;
        for line in text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        {
            let f: Vec<&str> = line.split_whitespace().collect();
            let id: usize = f[0].parse().unwrap();
            let count: usize = f[1].parse().unwrap();
            let frame: Vec<(u8, u8)> = f[2..2 + count]
                .iter()
                .map(|c| {
                    let (r, c) = c.split_once(',').unwrap();
                    (r.parse().unwrap(), c.parse().unwrap())
                })
                .collect();
            let shape = f[2 + count];
            let piece = Piece::catalogue(id).unwrap();
            assert_eq!(piece.id(), Some(id as u8));
            assert_eq!(piece.size() as usize, count, "piece {id}");
            assert_eq!(piece.shape(), shape, "piece {id}");
            let (r0, c0) = piece.frame_origin().unwrap();
            let mut back: Vec<(u8, u8)> = piece
                .cells()
                .iter()
                .map(|&(r, c)| (r + r0, c + c0))
                .collect();
            back.sort_unstable();
            let mut frame = frame;
            frame.sort_unstable();
            assert_eq!(back, frame, "piece {id}");
            assert_eq!(Piece::from_shape(shape).unwrap().cells(), piece.cells());
            seen += 1;
        }
        assert_eq!(seen, CATALOGUE_SIZE);
    }

    #[test]
    fn placements_and_fit_test_agree() {
        for piece in catalogue() {
            let expect = (10 - piece.height()) * (10 - piece.width());
            assert_eq!(piece.placements().len(), expect);
            assert_eq!(
                piece.fit_anchors(Board::EMPTY).count_ones() as usize,
                expect
            );
            assert!(piece
                .placements()
                .iter()
                .all(|p| p.1.count_ones() == piece.size()));
            for &(anchor, mask) in piece.placements() {
                let (r, c) = (anchor as usize / 9, anchor as usize % 9);
                assert_eq!(piece.mask_at(r, c), Some(mask), "piece {piece} at {anchor}");
            }
        }
        // A board with a pattern: the fit test equals the loop over placements.
        let board = Board::from_bits(0x1234_5678_9abc_def0_1357_9bdf_u128 * 7);
        for piece in catalogue() {
            let loop_count = piece
                .placements()
                .iter()
                .filter(|p| board.fits(p.1))
                .count();
            assert_eq!(piece.fit_anchors(board).count_ones() as usize, loop_count);
        }
    }

    #[test]
    fn mask_at_places_top_left() {
        let p = Piece::catalogue(28).unwrap(); // 2x2 square
        assert_eq!(p.mask_at(7, 7).unwrap().count_ones(), 4);
        assert!(p.mask_at(8, 0).is_none());
        assert!(p.mask_at(0, 8).is_none());
        let m = p.mask_at(3, 4).unwrap();
        assert_eq!(
            m,
            cell_bit(3, 4) | cell_bit(3, 5) | cell_bit(4, 4) | cell_bit(4, 5)
        );
    }

    #[test]
    fn shapes_parse_with_typed_errors() {
        let p = Piece::from_shape(".#./##./...").unwrap();
        assert_eq!(p.shape(), ".#/##");
        assert_eq!(Piece::parse("11").unwrap().shape(), ".#/##");
        assert_eq!(
            Piece::parse("0").unwrap_err(),
            PieceParseError::UnknownId("0".into())
        );
        assert_eq!(
            Piece::parse("48").unwrap_err(),
            PieceParseError::UnknownId("48".into())
        );
        assert_eq!(
            Piece::parse("99999999999999999999999").unwrap_err(),
            PieceParseError::UnknownId("99999999999999999999999".into())
        );
        assert_eq!(
            Piece::from_shape("..../....").unwrap_err(),
            PieceParseError::EmptyShape
        );
        assert_eq!(
            Piece::from_shape("").unwrap_err(),
            PieceParseError::EmptyShape
        );
        assert_eq!(
            Piece::from_shape("######").unwrap_err(),
            PieceParseError::TooLarge { rows: 1, cols: 6 }
        );
        assert_eq!(
            Piece::from_shape("#/#/#/#/#/#").unwrap_err(),
            PieceParseError::TooLarge { rows: 6, cols: 1 }
        );
        assert_eq!(
            Piece::from_shape("##/#").unwrap_err(),
            PieceParseError::RaggedRows
        );
        assert_eq!(
            Piece::from_shape("#x").unwrap_err(),
            PieceParseError::BadChar { ch: 'x' }
        );
        // Woodoku's 4-cell diagonal is a valid custom piece.
        let diag = Piece::from_shape("#.../.#../..#./...#").unwrap();
        assert_eq!(diag.size(), 4);
        assert_eq!(diag.placements().len(), 36);
        assert_eq!(diag.to_string(), "#.../.#../..#./...#");
    }
}
