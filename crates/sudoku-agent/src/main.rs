//! `sudoku-agent`: the Competitive Sudoku agent binary.
fn main() {}
