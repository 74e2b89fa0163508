//! Reading opening suites (`arena --openings`): a file of `position` lines of the protocol
//! (`protocol/sudoku.md`), one per line (`#` starts a comment line), or of game records
//! (`protocol/records.md`), each unfinished game giving the position after its last step.

use anyhow::bail;

use puzzle_rules::sudoku::game::Game;

use engine_kit::cli::BadCommandLine;
use sudoku_agent::protocol;

use crate::record;

/// The largest opening file read: as large as a record file may be.
const MAX_OPENINGS_BYTES: u64 = record::MAX_RECORD_BYTES;

/// The openings of `path`: its `position` lines or the unfinished games of its records. A
/// file that cannot be read, a line that is not a position, a finished game or an empty file
/// is the command line's fault (exit 2), named with its line.
pub(crate) fn read_openings(path: &str) -> anyhow::Result<Vec<Game>> {
    use std::io::Read;
    let bad =
        |what: String| anyhow::Error::new(BadCommandLine(format!("--openings {path}: {what}")));
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_OPENINGS_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| bad(format!("cannot read it: {e}")))?;
    if bytes.len() as u64 > MAX_OPENINGS_BYTES {
        return Err(bad("larger than 16 MB".into()));
    }
    let text = String::from_utf8(bytes).map_err(|_| bad("not UTF-8 text".into()))?;
    parse_openings(&text).map_err(|e| bad(format!("{e:#}")))
}

/// The openings of a file's text (see [`read_openings`]).
pub(crate) fn parse_openings(text: &str) -> anyhow::Result<Vec<Game>> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    let games = if first == Some(record::HEADER) {
        let mut games = Vec::new();
        for g in record::replay_text(text)? {
            if g.result.is_some() || g.game.is_over() {
                bail!(
                    "game {} of the record is finished: not an opening",
                    g.number
                );
            }
            games.push(g.game);
        }
        games
    } else {
        let mut games = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let n = i + 1;
            if !line.starts_with("position ") {
                bail!(
                    "line {n}: expected a 'position' line or a record, found '{}'",
                    protocol::quote(&line.chars().take(40).collect::<String>())
                );
            }
            let game = match protocol::parse_line(line) {
                Ok(protocol::Command::Position(g)) => *g,
                Ok(_) => bail!("line {n}: not a position"),
                Err(e) => bail!("line {n}: {e}"),
            };
            if game.is_over() {
                bail!("line {n}: the game is over in this position: not an opening");
            }
            games.push(game);
        }
        games
    };
    if games.is_empty() {
        bail!("no opening in the file");
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_agent::protocol::position_line;

    #[test]
    fn bad_opening_files_name_the_line() {
        let e = parse_openings("# suite\nposition 2x2 ..../..../..../....\nhello\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 3: expected a 'position' line"),
            "{e}"
        );
        let e = parse_openings("position 2x2 11../..../..../....\n").unwrap_err();
        assert!(
            e.to_string()
                .contains("line 1: position: value 1 appears twice"),
            "{e}"
        );
        let full = "position 2x2 1+2-3+4-/3-4+1-2+/2+1-4+3-/4-3+2-1+";
        let e = parse_openings(full).unwrap_err();
        assert!(e.to_string().contains("game is over"), "{e}");
        let e = parse_openings("\n# nothing\n").unwrap_err();
        assert_eq!(e.to_string(), "no opening in the file");
    }

    #[test]
    fn records_give_the_position_after_their_last_step() {
        let start = crate::position_game("position 2x2 ..../..../..../.... mode rows");
        let mut end = start.clone();
        let mv = end.legal_moves(end.turn())[0];
        end.play(mv).unwrap();
        let rec = record::format_game(&record::GameRecord {
            number: 1,
            start: &start,
            sides: ["a", "b"].map(|n| record::Side {
                name: n.into(),
                time: "none".into(),
            }),
            steps: &[crate::record::Step::Move {
                player: start.turn(),
                mv,
                taboo: false,
            }],
            forfeit: None,
            end: &end,
        });
        let text = format!("{}\n{rec}", record::HEADER);
        let games = parse_openings(&text).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(position_line(&games[0]), position_line(&end));
    }
}
