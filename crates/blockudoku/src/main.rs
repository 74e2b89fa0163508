//! `blockudoku`: the Blockudoku engine binary.
//!
//! With no arguments it serves the `blockudoku 1` protocol (protocol/blockudoku.md) on
//! stdin/stdout, or the original agent's legacy I/O when the first token is a number.
//! `selfplay` and `bench` run one-shot jobs.
//!
//! - `main.rs`: the command line (usage errors and job failures exit through `engine-kit`).
//! - [`session`]: the protocol loop, the game state, options and the search handle (all from
//!   `engine-kit`: reader thread, line-atomic output, `SearchHandle`).
//! - [`protocol`]: commands in, replies out, the option table; no I/O.
//! - [`search`] and [`eval`]: the agents' search and the board evaluation (pure computation,
//!   told when to stop).
//! - [`selfplay`]: seeded self-play and bench; [`chains`]: fixed-exposure hazard measurement
//!   (`selfplay --chain-rounds`); [`legacy`]: the original GUI's I/O.
//! - [`strong`]: the strong agent's choice among the search's final boards; [`crowded`]: bare
//!   `go` against `go movetime` on crowded positions.

use clap::{Parser, Subcommand};

mod chains;
mod crises;
mod crowded;
mod eval;
mod legacy;
mod protocol;
mod search;
mod selfplay;
mod session;
mod strong;

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
    Selfplay(Box<selfplay::SelfplayArgs>),
    /// Search fixed positions to a fixed node limit; prints the node total and speed.
    Bench(selfplay::BenchArgs),
    /// Crowded positions answered by a bare go and by go movetime: the next hand's death
    /// chance on each answer's board.
    Crowded(crowded::CrowdedArgs),
    /// Agents side by side on the positions where the default agent's trouble starts: the
    /// next-hand death chances of their continuations, paired position by position.
    Crises(crises::CrisesArgs),
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
        Some(Sub::Crowded(args)) => crowded::run_crowded(&args),
        Some(Sub::Crises(args)) => crises::run_crises(&args),
    });
}
