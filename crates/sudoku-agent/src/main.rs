//! `sudoku-agent`: the Competitive Sudoku engine.
//!
//! With no arguments it serves the competitive-sudoku protocol on stdin/stdout
//! (`protocol/competitive-sudoku.md`) through the library ([`sudoku_agent::serve`]). The one
//! subcommand, `bench`, searches fixed positions at a fixed node limit: its node total is a
//! signature of search behaviour. The measuring tools are programs of their own:
//! `sudoku-lab` (arena, records, the game solver) and `sudoku-solver` (the puzzle command
//! line).

use clap::{Parser, Subcommand};

mod bench;

/// The `--help` summary.
const ABOUT: &str = "Competitive Sudoku engine (protocol on stdin/stdout, and bench)";

#[derive(Parser)]
#[command(name = "sudoku-agent", version, about = ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search fixed positions at a fixed node limit; prints the node total and speed.
    Bench {
        /// Nodes per position.
        #[arg(long, default_value_t = 200_000)]
        nodes: u64,
    },
}

fn main() {
    let cli: Cli = engine_kit::cli::parse_or_exit();
    engine_kit::cli::exit_on_error(match cli.command {
        None => sudoku_agent::serve(),
        Some(Command::Bench { nodes }) => bench::run(nodes),
    });
}
