//! Blockudoku rules (filled in by the Blockudoku work).
