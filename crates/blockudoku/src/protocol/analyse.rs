//! The words of an `analyse` request (protocol/blockudoku.md, "`analyse`"); the analysis
//! itself is `crate::analysis`.

use engine_kit::head::{number, quoted, twice, GoLimits, MAX_MOVETIME};

/// Lines shown when `lines` is not given.
pub const DEFAULT_LINES: usize = 3;
/// Most lines one request may ask for.
pub const MAX_LINES: usize = 8;

/// What an `analyse` request asks: the search's limits and how many lines to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyseRequest {
    /// The limits of the agent's search (`movetime`, `nodes`; never `infinite`).
    pub limits: GoLimits,
    /// Lines shown: the agent's and up to `lines - 1` alternatives.
    pub lines: usize,
}

/// Parses the words after `analyse`: `[movetime <ms>] [nodes <n>] [lines <k>]`, each at
/// most once, with the shared head's words for a number out of its range.
pub fn parse<'a>(mut toks: impl Iterator<Item = &'a str>) -> Result<AnalyseRequest, String> {
    let mut limits = GoLimits::default();
    let mut lines = None;
    while let Some(t) = toks.next() {
        match t {
            "movetime" if limits.movetime.is_none() => {
                limits.movetime = Some(number(t, toks.next(), 0, MAX_MOVETIME)?);
            }
            "nodes" if limits.nodes.is_none() => {
                limits.nodes = Some(number(t, toks.next(), 1, u64::MAX)?);
            }
            "lines" if lines.is_none() => {
                lines = Some(number(t, toks.next(), 1, MAX_LINES as u64)?)
            }
            "movetime" | "nodes" | "lines" => return Err(twice(t)),
            other => return Err(format!("unexpected {}", quoted(other))),
        }
    }
    let lines = lines.map_or(DEFAULT_LINES, |k| k as usize);
    Ok(AnalyseRequest { limits, lines })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        let r = parse("movetime 50 lines 5".split_whitespace()).unwrap();
        assert_eq!((r.limits.movetime, r.lines), (Some(50), 5));
        assert_eq!(parse("".split_whitespace()).unwrap().lines, DEFAULT_LINES);
        for bad in [
            "lines 0",
            "lines 9",
            "movetime",
            "nodes 0",
            "lines 2 lines 3",
            "x",
        ] {
            assert!(parse(bad.split_whitespace()).is_err(), "{bad}");
        }
    }
}
