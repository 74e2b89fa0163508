//! `blockudoku-lab replay FILE`: plays a game record through the rules and prints each game's
//! final position and score, or the first illegal step.

use std::path::Path;

use anyhow::{Context, Result};
use engine_kit::cli::CommandLineCheck;

use blockudoku::record::{replay, HEADER};

/// The largest record `replay` reads (256 MiB, about five million rounds): a larger file,
/// or an endless one (`/dev/zero`), is refused before it fills the memory.
pub const MAX_RECORD_BYTES: u64 = 256 << 20;

/// `blockudoku-lab replay FILE`: each game's result line and final `position` line.
pub fn run_replay(path: &Path) -> Result<()> {
    let text = crate::setup::read_text(path, MAX_RECORD_BYTES)
        .with_context(|| format!("cannot read record {}", path.display()))
        .on_command_line()?;
    if let Some(first) = not_a_record(&text) {
        anyhow::bail!(
            "{}: not a Blockudoku record: it begins {first}, where a record begins \"{HEADER}\"",
            path.display()
        );
    }
    let games =
        replay(&text).map_err(|e| anyhow::anyhow!("{}: {}", path.display(), readable(&e)))?;
    for g in games {
        println!(
            "game {} rounds {} score {} result {}",
            g.index, g.rounds, g.state.score, g.result
        );
        let pieces = if g.hand.no_pieces() {
            String::new()
        } else {
            format!(" pieces {}", blockudoku::lab::hand_tokens(&g.hand))
        };
        println!(
            "position board {}{pieces} score {} streak {}",
            g.state.board, g.state.score, g.state.streak
        );
    }
    Ok(())
}

/// The first line of `text` that is neither blank nor a `#` comment, quoted as a person reads
/// it (at most 40 characters, control characters escaped), when it is not a record's header;
/// None for a record (or a file with no such line, which the reader names itself).
fn not_a_record(text: &str) -> Option<String> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    if first == HEADER {
        return None;
    }
    let mut shown: String = first
        .chars()
        .take(40)
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if first.chars().count() > 40 {
        shown.push_str("...");
    }
    Some(format!("\"{shown}\""))
}

/// An error of the record reader with its chain (`context: cause`), spaces of the quoted input
/// written as spaces (the reader escapes them, `\u{20}`, as it escapes every character that
/// is not printable ASCII).
fn readable(e: &anyhow::Error) -> String {
    format!("{e:#}").replace("\\u{20}", " ")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_no_record_is_named_in_plain_words() {
        let readme = "# Title\n\nTwo open game engines in Rust, each a program that reads\n";
        assert_eq!(
            not_a_record(readme).unwrap(),
            "\"Two open game engines in Rust, each a pr...\""
        );
        assert_eq!(not_a_record("a\u{7}b").unwrap(), "\"a\\u{7}b\"");
        assert_eq!(
            not_a_record(&format!("# c\n{HEADER}\nset catalogue\n")),
            None
        );
        assert_eq!(not_a_record("\n# only comments\n"), None);
    }

    #[test]
    fn reader_errors_show_spaces_as_spaces() {
        let err = replay(&format!(
            "{HEADER}\nset catalogue\nscoring blockudoku\ngame one two\n"
        ))
        .unwrap_err();
        let text = readable(&err);
        assert!(!text.contains("\\u{20}"), "{text}");
    }
}
