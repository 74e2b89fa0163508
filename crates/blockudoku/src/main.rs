//! `blockudoku`: the Blockudoku engine binary.
//!
//! With no arguments it serves the `blockudoku 1` protocol (protocol/blockudoku.md) on
//! stdin/stdout, or the original agent's legacy I/O when the first token is a number.
//! `selfplay` and `bench` run one-shot jobs.
//!
//! The way from `go` to `bestmove` runs one way:
//!
//! - [`protocol`]: commands in, replies out, the option table; no I/O.
//! - [`session`]: the protocol loop, the game state, options and the search handle (all from
//!   `engine-kit`: reader thread, line-atomic output, `SearchHandle`); [`legacy`]: the
//!   original GUI's I/O.
//! - [`agents`]: which search answers, with which parameters, objective and clock.
//! - [`search`]: the whole-hand search, the lookahead and the strong agent's weighing (pure
//!   computation, told when to stop).
//! - [`eval`]: the board evaluation and its weights.
//!
//! Beside the engine: [`bench`] (its node-count signature) and the laboratory [`lab`]
//! (self-play, hazard chains, crises, crowded positions).

use clap::{Parser, Subcommand};

mod agents;
mod analysis;
mod bench;
mod eval;
mod lab;
mod legacy;
mod protocol;
mod record;
mod search;
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
    Selfplay(Box<lab::selfplay::SelfplayArgs>),
    /// Search fixed positions to a fixed node limit; prints the node total and speed.
    Bench(bench::BenchArgs),
    /// Crowded positions answered by a bare go and by go movetime: the next hand's death
    /// chance on each answer's board.
    Crowded(lab::crowded::CrowdedArgs),
    /// Agents side by side on the positions where the default agent's trouble starts: the
    /// next-hand death chances of their continuations, paired position by position.
    Crises(lab::crises::CrisesArgs),
    /// Play a game record through the rules: each game's final position and score, or the
    /// first illegal step (exit status 1).
    Replay(record::ReplayArgs),
}

fn main() {
    let cli: Cli = engine_kit::cli::parse_or_exit();
    engine_kit::cli::exit_on_error(match cli.command {
        None => {
            session::serve();
            Ok(())
        }
        Some(Sub::Selfplay(args)) => lab::selfplay::run_selfplay(&args),
        Some(Sub::Bench(args)) => bench::run_bench(&args),
        Some(Sub::Crowded(args)) => lab::crowded::run_crowded(&args),
        Some(Sub::Crises(args)) => lab::crises::run_crises(&args),
        Some(Sub::Replay(args)) => args.run(),
    });
}
