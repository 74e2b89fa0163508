//! Each side's limit per move: its own (`--first-movetime`, `--second-nodes`, a movetime
//! after `@` in its name) or the shared `--nodes` / `--movetime`.

use std::time::Instant;

use anyhow::{bail, Context};

use engine_kit::handle::deadline_for;
use sudoku_agent::agents::{AgentKind, Limits};
use sudoku_agent::protocol;

use super::ArenaArgs;

/// One side's limit per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveLimit {
    /// `go movetime` in milliseconds.
    Time(u64),
    /// `go nodes`.
    Nodes(u64),
}

impl MoveLimit {
    /// The search limits of a move whose `go` came at `go`.
    pub(crate) fn limits(self, go: Instant) -> Limits {
        match self {
            MoveLimit::Time(ms) => Limits {
                deadline: Some(deadline_for(go, ms)),
                nodes: None,
                depth: None,
                since: Some(go),
            },
            MoveLimit::Nodes(n) => Limits {
                deadline: None,
                nodes: Some(n),
                depth: None,
                since: Some(go),
            },
        }
    }

    /// The limit as the header line and the JSON lines show it.
    pub(super) fn text(self) -> String {
        match self {
            MoveLimit::Time(ms) => format!("movetime {ms}"),
            MoveLimit::Nodes(n) => format!("nodes {n}"),
        }
    }

    /// The limit as a record's `time` line shows it.
    pub(super) fn record_text(self) -> String {
        match self {
            MoveLimit::Time(ms) => format!("movetime {ms}"),
            MoveLimit::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// Each side's limit: its own (`--first-movetime`, `--first-nodes`, or a movetime after `@`
/// in its name), else the shared `--nodes`, else the shared `--movetime`; checks the agent
/// names and every limit's range.
pub(super) fn limits_of(args: &ArenaArgs) -> anyhow::Result<[MoveLimit; 2]> {
    let movetime = |flag: &str, ms: u64| {
        if ms == 0 || ms > protocol::MAX_MOVETIME_MS {
            bail!("{flag} must be 1..{}", protocol::MAX_MOVETIME_MS);
        }
        Ok(MoveLimit::Time(ms))
    };
    let nodes = |flag: &str, n: u64| {
        if n == 0 {
            bail!("{flag} must be at least 1");
        }
        Ok(MoveLimit::Nodes(n))
    };
    let shared = match args.nodes {
        Some(n) => nodes("--nodes", n)?,
        None => movetime("--movetime", args.movetime)?,
    };
    let sides = [
        ("first", &args.first, args.first_movetime, args.first_nodes),
        (
            "second",
            &args.second,
            args.second_movetime,
            args.second_nodes,
        ),
    ];
    let mut limits = [shared; 2];
    for (side, (which, spec, own_ms, own_nodes)) in sides.into_iter().enumerate() {
        let (name, at_ms) = split_movetime(spec)?;
        if !spec.starts_with("cmd:") && AgentKind::parse(name).is_none() {
            bail!("unknown agent '{spec}' (random, greedy, original, default, territory, mcts, alphabeta, cmd:<command>)");
        }
        if at_ms.is_some() && (own_ms.is_some() || own_nodes.is_some()) {
            bail!("agent '{spec}': its movetime after @ and --{which}-movetime/--{which}-nodes say the same; give one");
        }
        if let Some(ms) = own_ms.or(at_ms) {
            limits[side] = movetime(&format!("--{which}-movetime"), ms)?;
        }
        if let Some(n) = own_nodes {
            limits[side] = nodes(&format!("--{which}-nodes"), n)?;
        }
    }
    Ok(limits)
}

/// `default@20` is the `default` agent with its own movetime of 20 ms.
pub(super) fn split_movetime(spec: &str) -> anyhow::Result<(&str, Option<u64>)> {
    if spec.starts_with("cmd:") {
        return Ok((spec, None));
    }
    match spec.split_once('@') {
        None => Ok((spec, None)),
        Some((name, ms)) => {
            let ms: u64 = ms
                .parse()
                .ok()
                .filter(|m| (1..=protocol::MAX_MOVETIME_MS).contains(m))
                .with_context(|| {
                    format!(
                        "agent '{spec}': the movetime after @ must be 1..{}",
                        protocol::MAX_MOVETIME_MS
                    )
                })?;
            Ok((name, Some(ms)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        arena: ArenaArgs,
    }

    fn args(words: &str) -> Result<ArenaArgs, clap::Error> {
        Line::try_parse_from(std::iter::once("arena").chain(words.split_whitespace()))
            .map(|l| l.arena)
    }

    fn limits(words: &str) -> anyhow::Result<[MoveLimit; 2]> {
        limits_of(&args(words)?)
    }

    #[test]
    fn each_side_takes_its_own_limit_else_the_shared_one() {
        use MoveLimit::{Nodes, Time};
        let both = "--first default --second greedy";
        assert_eq!(limits(both).unwrap(), [Time(100), Time(100)]);
        assert_eq!(
            limits(&format!("{both} --movetime 50 --second-movetime 7")).unwrap(),
            [Time(50), Time(7)]
        );
        assert_eq!(
            limits(&format!(
                "{both} --first-movetime 2000 --second-movetime 100"
            ))
            .unwrap(),
            [Time(2000), Time(100)]
        );
        assert_eq!(
            limits(&format!("{both} --nodes 500 --first-movetime 30")).unwrap(),
            [Time(30), Nodes(500)]
        );
        assert_eq!(
            limits(&format!("{both} --second-nodes 9")).unwrap(),
            [Time(100), Nodes(9)]
        );
        assert_eq!(
            limits("--first default@25 --second greedy --nodes 40").unwrap(),
            [Time(25), Nodes(40)]
        );
        // A cmd: agent's `@` belongs to its command line.
        assert_eq!(
            limits("--first cmd:a@b --second greedy --first-movetime 3").unwrap(),
            [Time(3), Time(100)]
        );
    }

    #[test]
    fn refused_limits_name_the_flag() {
        let both = "--first default --second greedy";
        for (words, flag) in [
            (format!("{both} --first-movetime 0"), "--first-movetime"),
            (
                format!("{both} --second-movetime 86400001"),
                "--second-movetime",
            ),
            (format!("{both} --second-nodes 0"), "--second-nodes"),
            (format!("{both} --movetime 0"), "--movetime"),
            (format!("{both} --nodes 0"), "--nodes"),
            ("--first default@0 --second greedy".to_string(), "@"),
            (
                "--first default@10 --second greedy --first-movetime 10".to_string(),
                "@",
            ),
            (format!("{both} --first-movetime x"), "--first-movetime"),
        ] {
            let refused = limits(&words).expect_err(&words).to_string();
            assert!(refused.contains(flag), "{words}: {refused}");
        }
        // One side cannot have both kinds of limit.
        assert!(args(&format!("{both} --first-nodes 5 --first-movetime 5")).is_err());
        assert!(limits("--first nobody --second greedy")
            .unwrap_err()
            .to_string()
            .contains("unknown agent 'nobody'"));
    }
}
