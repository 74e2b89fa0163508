//! The words of an `analyse` request (protocol/blockudoku.md, "`analyse`"); the analysis
//! itself is `crate::analysis`.

use super::{quoted, GoLimits, MAX_MOVETIME};

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

/// Parses the words after `analyse`: `[movetime <ms>] [nodes <n>] [lines <k>]`.
pub fn parse<'a>(mut toks: impl Iterator<Item = &'a str>) -> Result<AnalyseRequest, String> {
    let mut req = AnalyseRequest {
        limits: GoLimits::default(),
        lines: DEFAULT_LINES,
    };
    let mut lines_seen = false;
    let number = |what: &str, tok: Option<&str>| -> Result<u64, String> {
        let tok = tok.ok_or_else(|| format!("{what} needs a value"))?;
        tok.parse::<u64>()
            .map_err(|_| format!("{what} is not a number: {}", quoted(tok)))
    };
    while let Some(t) = toks.next() {
        match t {
            "movetime" if req.limits.movetime.is_none() => {
                let ms = number("movetime", toks.next())?;
                if ms > MAX_MOVETIME {
                    return Err(format!("movetime must be 0 to {MAX_MOVETIME}"));
                }
                req.limits.movetime = Some(ms);
            }
            "nodes" if req.limits.nodes.is_none() => {
                let n = number("nodes", toks.next())?;
                if n == 0 {
                    return Err("nodes must be at least 1".into());
                }
                req.limits.nodes = Some(n);
            }
            "lines" if !lines_seen => {
                let k = number("lines", toks.next())?;
                if !(1..=MAX_LINES as u64).contains(&k) {
                    return Err(format!("lines must be 1 to {MAX_LINES}"));
                }
                req.lines = k as usize;
                lines_seen = true;
            }
            "movetime" | "nodes" | "lines" => return Err(format!("{} given twice", quoted(t))),
            other => return Err(format!("unexpected {}", quoted(other))),
        }
    }
    Ok(req)
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
