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
//! - [`agents`]: `random`, `greedy`, `original` (the report's minimax; alias `seed`) and
//!   `default`, whose search lives in [`search`].
//! - [`arena`], [`bench`](mod@bench), [`tools`]: the one-shot jobs.

use clap::{Parser, Subcommand};

/// `println!` for the one-shot subcommands: a closed stdout (`| head`) ends the program with
/// one line on stderr instead of a panic.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            eprintln!("error: cannot write to standard output");
            std::process::exit(1);
        }
    }};
}

mod agents;
mod arena;
mod bench;
mod board_file;
mod exact;
mod mcts;
mod protocol;
mod search;
mod session;
mod territory;
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
        Some(Command::Tool(cmd)) => tools::run(cmd),
    });
}
