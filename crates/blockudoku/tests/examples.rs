//! The library's example `best_placements` run as a user runs it: its answer places the
//! whole hand legally (replayed through the rules), and a bad hand is one line and exit 2.

use std::path::PathBuf;
use std::process::Command;

use blockudoku::{GameState, Piece, Scoring};

/// The example's binary, built next to this test's by `cargo test`.
fn example() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target dir");
    let path = dir.join("examples").join("best_placements");
    assert!(
        path.exists(),
        "{} missing: run the whole `cargo test -p blockudoku`, which builds the examples",
        path.display()
    );
    path
}

#[test]
fn best_placements_answers_a_legal_line_for_the_whole_hand() {
    let pieces = ["##/#.", "5", "47"];
    let out = Command::new(example())
        .args([pieces.join(" "), "5000".into()])
        .output()
        .expect("the example runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("text");
    let first = text.lines().next().expect("a bestmove line");
    let moves: Vec<&str> = first
        .strip_prefix("bestmove ")
        .expect(first)
        .split(' ')
        .take(3)
        .collect();
    let mut state = GameState::default();
    for m in moves {
        let (slot, cell) = m.split_once("@r").expect(m);
        let (row, col) = cell.split_once('c').expect(m);
        let slot: usize = slot.parse().expect(m);
        let piece = Piece::parse(pieces[slot - 1]).expect("a piece");
        let (row, col): (usize, usize) = (row.parse().expect(m), col.parse().expect(m));
        state
            .place(&piece, row - 1, col - 1, Scoring::Blockudoku)
            .expect(m);
    }
    assert!(text.lines().any(|l| l.starts_with("nodes ")), "{text}");
}

#[test]
fn a_bad_hand_is_one_line_and_exit_2() {
    let out = Command::new(example())
        .arg("1 ##/#x")
        .output()
        .expect("the example runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}
