//! `sudoku-agent`: the Competitive Sudoku agent binary.
//!
//! With no arguments it serves the competitive-sudoku protocol on stdin/stdout
//! (`protocol/competitive-sudoku.md`). Subcommands run one-shot jobs: the arena, bench, and
//! the sudoku tools (solve, count, check, generate, bench-solver).

use clap::{Parser, Subcommand};

mod tools;

#[derive(Parser)]
#[command(name = "sudoku-agent", version, about = "Competitive Sudoku agent and sudoku tools")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
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
            eprintln!("{}", text.lines().next().unwrap_or("error: bad command line"));
            std::process::exit(2);
        }
    };
    let result = match cli.command {
        None => Ok(()),
        Some(Command::Tool(cmd)) => tools::run(cmd),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
