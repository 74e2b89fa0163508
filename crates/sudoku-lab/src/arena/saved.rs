//! The files a match writes (`--jsonl`, `--record`), written as it goes: a game is written as
//! soon as every game before it has finished, so a match stopped early keeps every game it
//! finished up to the first one still being played, in order. A whole match writes the same
//! files as if they were written at its end.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;

use anyhow::Context;

use super::report::{jsonl_line, record_header, record_text, GameResult, Repeats};
use super::MoveLimit;

/// Where a match writes, and what its lines say of the match.
pub(super) struct Files<'a> {
    pub(super) jsonl: Option<File>,
    pub(super) records: Option<File>,
    pub(super) names: [&'a str; 2],
    pub(super) movetime: u64,
    pub(super) nodes: Option<u64>,
    pub(super) limits: [MoveLimit; 2],
}

/// What a match writes, and the games it has finished.
pub(super) struct Saved<'a> {
    files: Files<'a>,
    /// Finished games waiting for an earlier one, by game index.
    waiting: BTreeMap<usize, GameResult>,
    /// The index of the next game to write.
    next: usize,
    /// The games written, in order.
    written: Vec<GameResult>,
    repeats: Repeats,
}

impl<'a> Saved<'a> {
    pub(super) fn new(files: Files<'a>) -> Saved<'a> {
        Saved {
            files,
            waiting: BTreeMap::new(),
            next: 0,
            written: Vec::new(),
            repeats: Repeats::default(),
        }
    }

    /// A finished game: written, with the waiting games that now follow it in order.
    pub(super) fn add(&mut self, game: GameResult) -> anyhow::Result<()> {
        self.waiting.insert(game.index, game);
        while let Some(game) = self.waiting.remove(&self.next) {
            self.next += 1;
            self.write(game)?;
        }
        Ok(())
    }

    /// Every finished game, in order: the games still waiting (after a game that a failure
    /// stopped) are written now.
    pub(super) fn finish(mut self) -> anyhow::Result<Vec<GameResult>> {
        for game in std::mem::take(&mut self.waiting).into_values() {
            self.write(game)?;
        }
        if self.written.is_empty() {
            self.write_record(record_header(self.files.names))?;
        }
        Ok(self.written)
    }

    fn write(&mut self, game: GameResult) -> anyhow::Result<()> {
        let repeat = self.repeats.of(&game);
        let f = &mut self.files;
        if let Some(file) = f.jsonl.as_mut() {
            let line = jsonl_line(&game, repeat, f.names, f.movetime, f.nodes, f.limits);
            file.write_all(format!("{line}\n").as_bytes())
                .context("--jsonl: cannot write")?;
        }
        if f.records.is_some() {
            let mut text = String::new();
            if self.written.is_empty() {
                text = record_header(f.names);
            }
            text.push_str(&record_text(&game, f.names, f.limits));
            self.write_record(text)?;
        }
        self.written.push(game);
        Ok(())
    }

    fn write_record(&mut self, text: String) -> anyhow::Result<()> {
        if let Some(file) = self.files.records.as_mut() {
            file.write_all(text.as_bytes())
                .context("--record: cannot write")?;
        }
        Ok(())
    }
}
