//! Sudoku tools on top of the rules crate's solver: solve, count, check, generate,
//! bench-solver.

use clap::Subcommand;

/// The tool subcommands.
#[derive(Subcommand)]
pub enum ToolCommand {
    /// Print the solution of a puzzle (or of every puzzle in a file).
    Solve {
        /// The puzzle: 81 characters for 9x9, or `MxN` rows joined by `/`.
        puzzle: Option<String>,
    },
}

/// Runs a tool subcommand.
pub fn run(cmd: ToolCommand) -> anyhow::Result<()> {
    match cmd {
        ToolCommand::Solve { puzzle } => {
            anyhow::bail!("solve is not implemented yet (puzzle {puzzle:?})")
        }
    }
}
