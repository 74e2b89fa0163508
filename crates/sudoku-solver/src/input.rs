//! Puzzle text for the tools: what people paste and what files hold.
//!
//! Accepted forms (one puzzle):
//! - `N*N` characters for N = 4, 9, 16, 25 (81 for 9x9), `.` or `0` empty;
//! - `MxN <rows>`: the protocol's row form, rows joined by `/`, values `1`-`9` then `A`=10...,
//!   owner suffixes `+`/`-` allowed and ignored;
//! - `<rows>` alone when N is a square (4, 9, 16, 25), the shape then being sqrt(N) x sqrt(N).
//!
//! Files hold one puzzle per line (blank lines and `#` comments skipped), or are one board
//! file of the course framework in either format, read by
//! [`puzzle_rules::sudoku::notation`].

use std::io::Read;
use std::path::Path;

use engine_kit::cli::BadCommandLine;

use anyhow::{anyhow, bail, Context, Result};
use puzzle_rules::sudoku::notation::{self, parse_value_char};
use puzzle_rules::sudoku::{Board, ParseError, Shape};

/// A puzzle as written: block shape and raw cell values (duplicates not yet rejected, so the
/// checker can report them).
pub struct RawPuzzle {
    pub shape: Shape,
    pub cells: Vec<u8>,
}

impl RawPuzzle {
    /// The board, rejecting duplicate givens.
    pub fn board(&self) -> Result<Board> {
        Board::from_cells(self.shape, &self.cells).map_err(|e| anyhow!("{e}"))
    }
}

/// The text form the tools print: 81 characters for 9x9, `MxN <rows>` otherwise.
pub fn format_cells(shape: Shape, cells: &[u8]) -> String {
    if shape.m() == 3 && shape.n() == 3 {
        return cells.iter().map(|&v| notation::value_char(v)).collect();
    }
    format!(
        "{shape} {}",
        notation::format_rows(shape.size(), cells, None)
    )
}

fn square_shape(size: usize) -> Option<Shape> {
    match size {
        4 => Shape::new(2, 2).ok(),
        9 => Shape::new(3, 3).ok(),
        16 => Shape::new(4, 4).ok(),
        25 => Shape::new(5, 5).ok(),
        _ => None,
    }
}

/// Cells of `rows` (joined by `/`) for `shape`, values checked against N, owner marks
/// dropped.
fn parse_rows(shape: Shape, text: &str) -> Result<Vec<u8>> {
    let plain: String = text.chars().filter(|&c| c != '+' && c != '-').collect();
    match notation::parse_row_cells(shape, &plain, false) {
        Ok((cells, _)) => Ok(cells),
        Err(ParseError::RowCount { expected, found }) => {
            bail!("expected {expected} rows for block shape {shape}, found {found}")
        }
        Err(e) => bail!("{e}"),
    }
}

/// Parses one puzzle given on the command line or on one line of a file.
pub fn parse_puzzle(text: &str) -> Result<RawPuzzle> {
    let text = text.trim();
    if text.is_empty() {
        bail!("empty puzzle");
    }
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() == 2 {
        let shape = Shape::parse(tokens[0]).map_err(|e| anyhow!("{e}"))?;
        let cells = parse_rows(shape, tokens[1])?;
        return Ok(RawPuzzle { shape, cells });
    }
    if tokens.len() > 2 {
        bail!(
            "expected a puzzle or 'MxN <rows>', found {} words",
            tokens.len()
        );
    }
    if text.contains('/') {
        let size = text.split('/').count();
        let shape = square_shape(size)
            .ok_or_else(|| anyhow!("{size} rows: give the block shape first, e.g. '2x3 <rows>'"))?;
        let cells = parse_rows(shape, text)?;
        return Ok(RawPuzzle { shape, cells });
    }
    let len = text.chars().count();
    let side = (1..=25).find(|s| s * s == len);
    let shape = side.and_then(square_shape).ok_or_else(|| {
        anyhow!("a puzzle of {len} characters: expected 81 (9x9) or 'MxN <rows>'")
    })?;
    let size = shape.size();
    let mut cells = Vec::with_capacity(len);
    for (i, ch) in text.chars().enumerate() {
        cells.push(parse_value_char(ch, i / size, i % size, size).map_err(|e| anyhow!("{e}"))?);
    }
    Ok(RawPuzzle { shape, cells })
}

/// Largest puzzle file (or standard input) read: 32 MB hold 400,000 9x9 puzzles or 50,000
/// 25x25 ones; an endless input (`/dev/zero`) is refused after 32 MB.
pub const MAX_INPUT_BYTES: u64 = 32 << 20;

/// One puzzle of a file: its line number and the puzzle, or why that line is not one.
pub type PuzzleLine = (usize, Result<RawPuzzle>);

/// Reads the puzzles of `path`, or of standard input for `-`. An unreadable file is the
/// command line's fault ([`BadCommandLine`], exit 2); a bad line is reported by its
/// number while the other lines are still read.
pub fn read_puzzles(path: &Path) -> Result<Vec<PuzzleLine>> {
    let name = if path == Path::new("-") {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
    } else {
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| anyhow::Error::new(BadCommandLine(format!("cannot read {name}: {e}"))))?;
    }
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        let e = anyhow!("{name}: larger than 32 MB, the most the tools read");
        // A file named on the command line is the command line's fault (exit 2).
        return Err(if path == Path::new("-") {
            e
        } else {
            anyhow::Error::new(BadCommandLine(format!("{e}")))
        });
    }
    let text = String::from_utf8(bytes).map_err(|_| anyhow!("{name}: not UTF-8 text"))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    let Some(&(first_no, first)) = lines.first() else {
        bail!("{name}: no puzzle in the file");
    };
    let in_file = |e: anyhow::Error| anyhow!("{name}: {e}");
    let header: Vec<&str> = first.split_whitespace().collect();
    if (header.len() == 2 && header.iter().all(|t| t.parse::<usize>().is_ok()))
        || first.contains('=')
    {
        let kept: Vec<&str> = lines.iter().map(|&(_, l)| l).collect();
        let file = notation::board_file_cells(&kept.join("\n")).map_err(|e| in_file(e.into()))?;
        return Ok(vec![(
            first_no,
            Ok(RawPuzzle {
                shape: file.shape,
                cells: file.cells,
            }),
        )]);
    }
    Ok(lines
        .iter()
        .map(|&(no, line)| {
            (
                no,
                parse_puzzle(line).map_err(|e| anyhow!("{name} line {no}: {e}")),
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_of_puzzle_text() {
        let p = parse_puzzle(&".".repeat(81)).unwrap();
        assert_eq!(p.shape, Shape::new(3, 3).unwrap());
        let p = parse_puzzle("2x3 1+2-..../....../....../....../....../......").unwrap();
        assert_eq!((p.shape.m(), p.shape.n()), (2, 3));
        assert_eq!(&p.cells[..3], &[1, 2, 0]);
        assert_eq!(parse_puzzle("12../..../..../....").unwrap().shape.size(), 4);
        assert!(parse_puzzle("......").is_err());
        assert!(parse_puzzle("2x3 ......").is_err());
        assert!(parse_puzzle("3x3 a b").is_err());
        assert!(parse_puzzle(&"x".repeat(81)).is_err());
        assert_eq!(
            format_cells(p.shape, &p.cells),
            "2x3 12..../....../....../....../....../......"
        );
        let q = parse_puzzle("12../..../..../...4").unwrap();
        assert_eq!(format_cells(q.shape, &q.cells), "2x2 12../..../..../...4");
    }
}
