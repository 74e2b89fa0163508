//! Sudoku rules (filled in by the Sudoku work).
