//! Input echoed in error lines, made safe: every quoted token shortened and escaped the same
//! way (protocol/blockudoku.md, "Errors"), including the bad character a rules-crate parse
//! error names.

use puzzle_rules::blockudoku::{BoardParseError, PieceParseError};

pub use engine_kit::head::{quoted, shown, twice};

/// The complaint about a board or piece token: `<word> '<tok>': <error>`, the error's own
/// leading `<word> ` dropped (`board '.....': needs 81 cells, got 5`). The rules crate
/// writes a bad character as Rust does (`'é'`, `'\''`); here it is quoted as every piece of
/// input is ([`quoted`]: `'\u{e9}'`).
fn refused_token(word: &str, tok: &str, e: &dyn std::fmt::Display, bad: Option<char>) -> String {
    let mut e = e.to_string();
    if let Some(ch) = bad {
        e = e.replace(&format!("{ch:?}"), &quoted(&ch.to_string()));
    }
    let e = e.strip_prefix(word).map_or(&e[..], str::trim_start);
    format!("{word} {}: {e}", quoted(tok))
}

/// The complaint about the piece token `tok`.
pub(super) fn refused_piece(tok: &str, e: PieceParseError) -> String {
    let bad = match e {
        PieceParseError::BadChar { ch } => Some(ch),
        _ => None,
    };
    refused_token("piece", tok, &e, bad)
}

/// The complaint about the board token `tok`.
pub(super) fn refused_board(tok: &str, e: BoardParseError) -> String {
    let bad = match e {
        BoardParseError::BadChar { ch } => Some(ch),
        _ => None,
    };
    refused_token("board", tok, &e, bad)
}
