//! `position file <path>` and `arena --board <file>`: reads a board file from disk (at
//! most 1 MB, so `/dev/zero` cannot fill the memory) and hands its text to
//! [`puzzle_rules::sudoku::notation`], which knows both course formats.

use std::io::Read;

use engine_kit::head::quoted;
use puzzle_rules::sudoku::game::Game;
use puzzle_rules::sudoku::notation::{self, GameSetup};

use crate::protocol::{build_game, parse_extras};

/// Largest file read: a 25x25 board file has a few kB.
const MAX_BOARD_FILE: u64 = 1 << 20;

fn read_board_file(path: &str) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_BOARD_FILE + 1)
        .read_to_end(&mut buf)?;
    if buf.len() as u64 > MAX_BOARD_FILE {
        return Err(std::io::Error::other("larger than 1 MB, not a board file"));
    }
    Ok(buf)
}

/// The game of a board file (either course format), with the position words `extras`
/// (`mode rows`, `turn 2`, ...) overriding the file. Errors are the text after `error
/// position: `.
pub fn read_position_file(path: &str, extras: &[String]) -> Result<Game, String> {
    let in_file = |e: &dyn std::fmt::Display| format!("file {}: {e}", quoted(path));
    let text = read_board_file(path).map_err(|e| in_file(&e))?;
    let text = String::from_utf8_lossy(&text);
    let words: Vec<&str> = extras.iter().map(String::as_str).collect();
    let extras = parse_extras(&words)?;
    let setup = notation::parse_board_file(&text, extras).map_err(|e| in_file(&e))?;
    let GameSetup {
        board,
        owners,
        extras,
    } = setup;
    build_game(board, owners, extras).map_err(|e| in_file(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endless file is refused after 1 MB instead of filling the memory.
    #[test]
    fn position_file_reads_at_most_1_mb() {
        let e = read_position_file("/dev/zero", &[]).expect_err("an error");
        assert!(e.contains("larger than 1 MB"), "{e}");
        let e = read_position_file("/", &[]).expect_err("an error");
        assert!(e.starts_with("file '/': "), "{e}");
    }
}
