//! `blockudoku-lab`: the measuring tools of the Blockudoku engine, a program of its own that
//! links the engine library (`blockudoku`) the way any Rust program would; the engine binary
//! keeps only the protocol and `bench`.
//!
//! - [`selfplay`]: seeded games and their death rate.
//! - [`chains`]: fixed-exposure hazard measurement (`selfplay --chain-rounds`): probes,
//!   crisis splitting, two agents compared.
//! - [`crises`]: agents side by side on the positions where one agent's trouble starts.
//! - [`crowded`]: a bare `go` against `go movetime` on crowded positions.
//! - [`train`]: the learned value's training.
//! - [`replay`]: a game record played through the rules.
//! - [`setup`]: what they share (games' set-up, piece sets, agent specs, seeds, progress).
//! - [`tuning`]: the engine's parameters set by name (`--weights`, agent specs).

use clap::{Parser, Subcommand};

mod chains;
mod crises;
mod crowded;
mod replay;
mod selfplay;
mod setup;
mod train;
mod tuning;

/// The `--help` summary.
const ABOUT: &str =
    "Measuring tools for the Blockudoku engine: self-play, hazard chains, crises, records";

#[derive(Parser)]
#[command(name = "blockudoku-lab", version, about = ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Subcommand)]
enum Sub {
    /// Play seeded games and print per-game lines and a death-rate summary.
    Selfplay(Box<selfplay::SelfplayArgs>),
    /// Crowded positions answered by a bare go and by go movetime: the next hand's death
    /// chance on each answer's board.
    Crowded(crowded::CrowdedArgs),
    /// Agents side by side on the positions where the default agent's trouble starts: the
    /// next-hand death chances of their continuations, paired position by position.
    Crises(crises::CrisesArgs),
    /// Learn the engine's value of a board by temporal-difference learning from self-play,
    /// writing (and resuming from) a weights file.
    Train(train::TrainArgs),
    /// Play a game record through the rules: each game's final position and score, or the
    /// first illegal step (exit status 1).
    Replay(replay::ReplayArgs),
}

fn main() {
    let cli: Cli = engine_kit::cli::parse_or_exit();
    engine_kit::cli::exit_on_error(match cli.command {
        Sub::Selfplay(args) => selfplay::run_selfplay(&args),
        Sub::Crowded(args) => crowded::run_crowded(&args),
        Sub::Crises(args) => crises::run_crises(&args),
        Sub::Train(args) => train::run_train(&args),
        Sub::Replay(args) => args.run(),
    });
}
