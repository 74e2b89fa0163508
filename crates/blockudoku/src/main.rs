//! `blockudoku`: the Blockudoku engine binary.
//!
//! With no arguments it serves the `blockudoku 1` protocol (protocol/blockudoku.md) on
//! stdin/stdout, or the original agent's legacy I/O when the first token is a number.
//! `bench` searches fixed positions and prints the node-count signature. Everything else
//! (self-play, hazard chains, crises, records) is the lab's: `blockudoku-lab`.

use clap::{Parser, Subcommand};

mod bench;

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
    /// Search fixed positions to a fixed node limit; prints the node total and speed.
    Bench(bench::BenchArgs),
}

fn main() {
    let cli: Cli = engine_kit::cli::parse_or_exit();
    engine_kit::cli::exit_on_error(match cli.command {
        None => {
            blockudoku::serve();
            Ok(())
        }
        Some(Sub::Bench(args)) => bench::run_bench(&args),
    });
}
