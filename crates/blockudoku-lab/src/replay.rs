//! `blockudoku-lab replay FILE`: plays a game record through the rules and prints each game's
//! final position and score, or the first illegal step.

use std::path::Path;

use anyhow::{Context, Result};
use engine_kit::cli::CommandLineCheck;

use blockudoku::protocol;
use blockudoku::record::replay;

/// The largest record `replay` reads (256 MiB, about five million rounds): a larger file,
/// or an endless one (`/dev/zero`), is refused before it fills the memory.
pub const MAX_RECORD_BYTES: u64 = 256 << 20;

/// `blockudoku-lab replay FILE`: each game's result line and final `position` line.
pub fn run_replay(path: &Path) -> Result<()> {
    let text = crate::setup::read_text(path, MAX_RECORD_BYTES)
        .with_context(|| format!("cannot read record {}", path.display()))
        .on_command_line()?;
    let games = replay(&text).with_context(|| format!("{}", path.display()))?;
    for g in games {
        println!(
            "game {} rounds {} score {} result {}",
            g.index, g.rounds, g.state.score, g.result
        );
        let pieces = if g.hand.no_pieces() {
            String::new()
        } else {
            format!(" pieces {}", protocol::hand_tokens(&g.hand))
        };
        println!(
            "position board {}{pieces} score {} streak {}",
            g.state.board, g.state.score, g.state.streak
        );
    }
    Ok(())
}

/// Arguments of `blockudoku-lab replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The record file (protocol/records.md).
    file: std::path::PathBuf,
}

impl ReplayArgs {
    /// Runs the replay.
    pub fn run(&self) -> Result<()> {
        run_replay(&self.file)
    }
}
