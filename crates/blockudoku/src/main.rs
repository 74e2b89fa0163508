//! `blockudoku`: the Blockudoku engine binary.
fn main() {}
