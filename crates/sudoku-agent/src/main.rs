//! `sudoku-agent`: the Competitive Sudoku agent binary.
//!
//! With no arguments it serves the competitive-sudoku protocol on stdin/stdout
//! (`protocol/competitive-sudoku.md`). Subcommands run one-shot jobs: the arena, bench, and
//! the sudoku tools (solve, count, check, generate, bench-solver).

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
mod engine;
mod mcts;
mod protocol;
mod search;
mod territory;
mod tools;

#[derive(Parser)]
#[command(
    name = "sudoku-agent",
    version,
    about = "Competitive Sudoku agent and sudoku tools"
)]
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout in full; a usage error is one line on stderr
            // (scripts parse it), with a non-zero exit.
            if !e.use_stderr() {
                let _ = e.print();
                std::process::exit(0);
            }
            let text = e.render().to_string();
            eprintln!(
                "{}",
                text.lines().next().unwrap_or("error: bad command line")
            );
            std::process::exit(2);
        }
    };
    let result = match cli.command {
        None => engine::serve(),
        Some(Command::Arena(args)) => arena::run(args),
        Some(Command::Bench { nodes }) => bench::run(nodes),
        Some(Command::Tool(cmd)) => tools::run(cmd),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
