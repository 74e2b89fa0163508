//! The command head both protocols share (protocol/README.md, "The shared commands"):
//! `hello`, `isready`, `setoption`, `newgame`, `go`, `stop`, `quit` and the blank line,
//! read here once for both engines, with one limits type ([`GoLimits`]), one set of words
//! for every mistake and one way of quoting input ([`quoted`]). Every other line is the
//! engine's own ([`crate::session::Engine::parse`]).

use crate::options::OptionTable;
pub use crate::quote::{quoted, shown};

/// Longest accepted `movetime`, in ms (one day): more is surely a mistake, and deadlines
/// never overflow.
pub const MAX_MOVETIME: u64 = 86_400_000;

/// Largest accepted `depth`.
pub const MAX_DEPTH: u64 = 1000;

/// The limits of a `go` (every word is optional; none at all is the engine's standard
/// search, C5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// `movetime <ms>`: 0 to [`MAX_MOVETIME`].
    pub movetime: Option<u64>,
    /// `nodes <n>`: 1 to 2^64 - 1.
    pub nodes: Option<u64>,
    /// `depth <d>`: 1 to [`MAX_DEPTH`], for an engine that takes it.
    pub depth: Option<u32>,
    /// `infinite`: the answer waits for `stop` (C6).
    pub infinite: bool,
}

/// A line of the shared head, or the engine's own line.
#[derive(Debug)]
pub enum Head<S> {
    /// A blank line: no reply.
    Empty,
    /// `hello`.
    Hello,
    /// `isready`.
    IsReady,
    /// `setoption name <N> value <V>`, read through the engine's option table.
    SetOption(S),
    /// `newgame`.
    NewGame,
    /// `go [movetime <ms>] [nodes <n>] [depth <d>] [infinite]`.
    Go(GoLimits),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// Any other line: the engine's.
    Other,
}

/// What the head needs of an engine: its option table and whether its `go` takes `depth`.
pub struct HeadRules<'a, S> {
    /// The engine's options (`setoption`).
    pub options: &'a OptionTable<S>,
    /// `go depth` is a limit of this engine.
    pub depth: bool,
}

/// Reads `line` as a line of the shared head. The error is the reply after `error `:
/// `<command>: <what was wrong>`.
pub fn parse_head<S>(line: &str, rules: &HeadRules<S>) -> Result<Head<S>, String> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(Head::Empty);
    };
    match first {
        "hello" => no_args(first, Head::Hello, words),
        "isready" => no_args(first, Head::IsReady, words),
        "newgame" => no_args(first, Head::NewGame, words),
        "stop" => no_args(first, Head::Stop, words),
        "quit" => no_args(first, Head::Quit, words),
        "setoption" => rules
            .options
            .parse_setoption(words)
            .map(Head::SetOption)
            .map_err(|e| format!("setoption: {e}")),
        "go" => parse_go(words, rules.depth)
            .map(Head::Go)
            .map_err(|e| format!("go: {e}")),
        _ => Ok(Head::Other),
    }
}

/// `command` read as `value` when no word follows it; else the error (after `error `)
/// naming the first word too many: `<command>: unexpected '<word>'`.
pub fn no_args<'a, T>(
    command: &str,
    value: T,
    mut words: impl Iterator<Item = &'a str>,
) -> Result<T, String> {
    match words.next() {
        None => Ok(value),
        Some(extra) => Err(format!("{command}: unexpected {}", quoted(extra))),
    }
}

/// The `bestmove` line of a search's answer: `bestmove <move>`, or `bestmove none` when
/// there is no move.
pub fn bestmove(best: Option<impl std::fmt::Display>) -> String {
    match best {
        Some(m) => format!("bestmove {m}"),
        None => "bestmove none".into(),
    }
}

/// `field`'s value from `word`, a whole number from `min` to `max`; the error names the
/// field, its range and the input.
pub fn number(field: &str, word: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let word = word.ok_or_else(|| format!("{field} needs a value ({min} to {max})"))?;
    match word.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!(
            "{field} must be {min} to {max}, got {}",
            quoted(word)
        )),
    }
}

/// Reads the words after `go` (`depth` only when `depth` is a limit of the engine).
pub fn parse_go<'a>(
    mut words: impl Iterator<Item = &'a str>,
    depth: bool,
) -> Result<GoLimits, String> {
    let mut limits = GoLimits::default();
    while let Some(w) = words.next() {
        match w {
            "movetime" if limits.movetime.is_some() => return Err(twice(w)),
            "nodes" if limits.nodes.is_some() => return Err(twice(w)),
            "depth" if limits.depth.is_some() => return Err(twice(w)),
            "infinite" if limits.infinite => return Err(twice(w)),
            "movetime" => limits.movetime = Some(number(w, words.next(), 0, MAX_MOVETIME)?),
            "nodes" => limits.nodes = Some(number(w, words.next(), 1, u64::MAX)?),
            "depth" if depth => {
                let d = number(w, words.next(), 1, MAX_DEPTH)?;
                limits.depth = Some(u32::try_from(d).expect("MAX_DEPTH fits a u32"));
            }
            "infinite" => limits.infinite = true,
            other => return Err(format!("unexpected {}", quoted(other))),
        }
    }
    Ok(limits)
}

/// The error for a keyword given twice in one command (C3).
pub fn twice(keyword: &str) -> String {
    format!("{} given twice", quoted(keyword))
}

/// The error for a line whose first word no command has.
pub fn unknown_command(word: &str) -> String {
    format!("unknown command {}", quoted(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str, depth: bool) -> Result<GoLimits, String> {
        parse_go(line.split_whitespace(), depth)
    }

    #[test]
    fn go_reads_every_limit_once_with_one_set_of_words() {
        let all = go("movetime 50 nodes 7 depth 3 infinite", true).unwrap();
        assert_eq!(
            all,
            GoLimits {
                movetime: Some(50),
                nodes: Some(7),
                depth: Some(3),
                infinite: true
            }
        );
        for (line, depth, error) in [
            (
                "movetime -5",
                true,
                "movetime must be 0 to 86400000, got '-5'",
            ),
            (
                "movetime 86400001",
                true,
                "movetime must be 0 to 86400000, got '86400001'",
            ),
            ("movetime", true, "movetime needs a value (0 to 86400000)"),
            (
                "nodes 0",
                true,
                "nodes must be 1 to 18446744073709551615, got '0'",
            ),
            (
                "nodes 18446744073709551616",
                true,
                "nodes must be 1 to 18446744073709551615, got '18446744073709551616'",
            ),
            ("depth 0", true, "depth must be 1 to 1000, got '0'"),
            ("depth 3", false, "unexpected 'depth'"),
            ("sideways 5", true, "unexpected 'sideways'"),
            ("nodes 5 nodes 6", true, "'nodes' given twice"),
            ("infinite infinite", true, "'infinite' given twice"),
        ] {
            assert_eq!(go(line, depth).unwrap_err(), error, "{line}");
        }
    }

    #[test]
    fn quoting_escapes_and_shortens() {
        assert_eq!(quoted("a'b\\c\u{1b}é"), "'a\\u{27}b\\u{5c}c\\u{1b}\\u{e9}'");
        assert_eq!(quoted(&"x".repeat(41)), format!("'{}...'", "x".repeat(40)));
    }
}
