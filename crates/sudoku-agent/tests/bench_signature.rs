//! The `bench` signature of the search's behaviour, pinned: a change that moves it changes
//! what `default` plays, and updates the pin with its reason (in the commit and in
//! EXPERIMENTS.md).

use std::process::Command;

/// `sudoku-agent bench --nodes 20000`: node total and signature.
const PINNED: (&str, &str) = ("121344", "05416c4081ef66eb");

#[test]
fn the_bench_signature_is_pinned() {
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-agent"))
        .args(["bench", "--nodes", "20000"])
        .output()
        .expect("run sudoku-agent bench");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().expect("a total line");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"bench:"), "{text}");
    let total = words[1];
    let signature = words.last().copied().unwrap_or_default();
    assert_eq!((total, signature), PINNED, "{text}");
}
