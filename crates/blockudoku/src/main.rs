//! `blockudoku`: the Blockudoku engine binary.
//!
//! With no arguments it serves the `blockudoku 1` protocol (protocol/blockudoku.md) on
//! stdin/stdout, or the original agent's legacy I/O when the first token is a number.
//! `selfplay` and `bench` run one-shot jobs. A reader thread feeds stdin lines to the loop so
//! `isready` and `stop` are answered while a search thread runs.

use clap::{Parser, Subcommand};

mod eval;
mod legacy;
mod protocol;
mod search;
mod selfplay;
mod session;

/// The `--help` summary.
const ABOUT: &str = "Blockudoku engine (protocol blockudoku 1)";

#[derive(Parser)]
#[command(name = "blockudoku", version, about = ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
}

#[derive(Subcommand)]
enum Sub {
    /// Play seeded games and print per-game lines and a death-rate summary.
    Selfplay(selfplay::SelfplayArgs),
    /// Search fixed positions to a fixed node limit; prints the node total and speed.
    Bench(selfplay::BenchArgs),
}

fn main() {
    let cli: Cli = engine_kit::cli::parse_or_exit();
    engine_kit::cli::exit_on_error(match cli.command {
        None => {
            session::serve();
            Ok(())
        }
        Some(Sub::Selfplay(args)) => selfplay::run_selfplay(&args),
        Some(Sub::Bench(args)) => selfplay::run_bench(&args),
    });
}
