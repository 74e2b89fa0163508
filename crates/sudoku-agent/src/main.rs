//! `sudoku-agent`: the Competitive Sudoku agent binary.
//!
//! With no arguments it serves the competitive-sudoku protocol on stdin/stdout
//! (`protocol/competitive-sudoku.md`). Subcommands run one-shot jobs: the arena, bench, and
//! the sudoku tools (solve, count, check, generate, bench-solver).
//!
//! - `main.rs`: the command line (usage errors and job failures exit through `engine-kit`).
//! - [`session`]: the protocol loop, the game, options and the search handle (reader thread,
//!   output and `SearchHandle` from `engine-kit`).
//! - [`protocol`]: commands in, replies out, the option table; no I/O.
//! - [`board_file`]: reads the file of `position file` (parsing is `rules::sudoku::notation`).
//! - [`agents`]: one file or folder per agent (`random`, `greedy`, `original` (alias `seed`),
//!   `default` (the search), `territory`, `mcts`), the root facts they share and the dispatch.
//! - [`cell_game`]: the reduced game the strong agents play: the board's geometry and
//!   positions as plain arrays.
//! - [`eval`]: the territory evaluation of the allowed-squares game (`default` and
//!   `territory` use it).
//! - [`exact`]: the exact solver of the game on small boards (`solve-game`, `check-exact`,
//!   `check-play`).
//! - [`record`]: game records, written by the arena and checked by `replay`.
//! - [`arena`], [`bench`](mod@bench), [`tools`]: the one-shot jobs.

use clap::{Parser, Subcommand};

mod agents;
mod arena;
mod bench;
mod board_file;
mod cell_game;
mod eval;
mod exact;
mod protocol;
mod record;
mod session;
mod tools;

/// The `--help` summary.
const ABOUT: &str = "Competitive Sudoku agent and sudoku tools";

#[derive(Parser)]
#[command(name = "sudoku-agent", version, about = ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play games between two agents and print the score with a 95% confidence interval.
    Arena(arena::ArenaArgs),
    /// Search fixed positions at a fixed node limit; prints the node total and speed.
    Bench {
        /// Nodes per position.
        #[arg(long, default_value_t = 200_000)]
        nodes: u64,
    },
    /// Check a game record file (`protocol/records.md`): plays every game through the rules
    /// and prints its final position and score, or the first illegal step (exit code 1).
    Replay {
        /// The record file.
        file: std::path::PathBuf,
        /// Also print the position before every step, as `before <step> <position line>`.
        #[arg(long)]
        positions: bool,
    },
    /// Sudoku tools: solve, count, check, generate, bench-solver.
    #[command(flatten)]
    Tool(tools::ToolCommand),
}

fn main() {
    let cli: Cli = engine_kit::cli::parse_or_exit();
    engine_kit::cli::exit_on_error(match cli.command {
        None => session::serve(),
        Some(Command::Arena(args)) => arena::run(args),
        Some(Command::Bench { nodes }) => bench::run(nodes),
        Some(Command::Replay { file, positions }) => record::run(&file, positions),
        Some(Command::Tool(cmd)) => tools::run(cmd),
    });
}
