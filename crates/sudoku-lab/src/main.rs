//! `sudoku-lab`: the measuring tools of the Competitive Sudoku agents, a program apart from
//! the engine it measures (it links the `sudoku-agent` library, and runs any other engine
//! through the protocol as `cmd:<command line>`).
//!
//! - [`arena`]: games between two agents, with a confidence interval, records and JSON lines.
//! - [`record`]: game records (`protocol/records.md`), written by the arena and checked by
//!   `replay`.
//! - [`solve_game`], [`exact_check`], [`optimal_play`]: the exact game solver as a tool and
//!   as the yardstick of the `default` agent (`solve-game`, `check-exact`, `check-play`).

use clap::{Parser, Subcommand};

mod arena;
mod exact_check;
mod optimal_play;
mod record;
mod solve_game;

/// The `--help` summary.
const ABOUT: &str = "Measuring tools for the Competitive Sudoku agents: arena, records, exact play";

#[derive(Parser)]
#[command(name = "sudoku-lab", version, about = ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play games between two agents and print the score with a 95% confidence interval.
    Arena(arena::ArenaArgs),
    /// Check a game record file (`protocol/records.md`): plays every game through the rules
    /// and prints its final position and score, or the first illegal step (exit code 1).
    Replay {
        /// The record file.
        file: std::path::PathBuf,
        /// Also print the position before every step, as `before <step> <position line>`.
        #[arg(long)]
        positions: bool,
    },
    /// Solve a Competitive Sudoku position exactly: the game value under perfect play, the
    /// optimal first moves, nodes and time.
    SolveGame(solve_game::SolveGameArgs),
    /// Check the `default` agent's `exact` scores against the exact solver on random 2x2
    /// positions and limits, with 1 and 2 threads.
    CheckExact(exact_check::CheckExactArgs),
    /// Measure how close an agent (`default`) is to perfect play: positions from games
    /// between varied agents, each solved exactly; the share of optimal choices and the
    /// points lost per move.
    CheckPlay(optimal_play::CheckPlayArgs),
}

fn main() {
    let cli: Cli = engine_kit::cli::parse_or_exit();
    engine_kit::cli::exit_on_error(match cli.command {
        Command::Arena(args) => arena::run(args),
        Command::Replay { file, positions } => record::run(&file, positions),
        Command::SolveGame(args) => solve_game::run(args),
        Command::CheckExact(args) => exact_check::run(args),
        Command::CheckPlay(args) => optimal_play::run(args),
    });
}

/// The game a `position` line sets (the tests set their positions this way).
#[cfg(test)]
pub(crate) fn position_game(line: &str) -> puzzle_rules::sudoku::game::Game {
    match sudoku_agent::protocol::parse_line(line) {
        Ok(sudoku_agent::protocol::Command::Position(g)) => *g,
        other => panic!("not a position: {line}: {other:?}"),
    }
}
