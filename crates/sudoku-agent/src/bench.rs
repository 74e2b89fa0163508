//! `bench`: the `default` agent on fixed positions at a fixed node limit, one thread. The
//! node total is a signature of search behaviour; nodes per second measure speed.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use sudoku_agent::agents::Limits;
use sudoku_agent::agents::{Agent, AgentKind};
use sudoku_agent::protocol::{parse_line, Command};

/// The bench positions (protocol `position` lines).
pub const POSITIONS: [&str; 6] = [
    "position 3x3 ........./........./........./........./........./........./........./........./.........",
    "position 2x3 ....../....../....../....../....../......",
    "position 3x3 ........./........./........./........./........./........./........./........./......... mode rows",
    "position 3x3 53..7..../6..195.../.98....6./8...6...3/4..8.3..1/7...2...6/.6....28./...419..5/....8..79",
    "position 3x4 ............/............/............/............/............/............/............/............/............/............/............/............",
    "position 3x3 12345678./45678912./78912345./23456789./56789123./89123456./34567891./67891234./.........",
];

/// Runs the bench with `nodes` per position and prints one line per position and a total.
pub fn run(nodes: u64) -> anyhow::Result<()> {
    let agent = Agent::new(AgentKind::Default, 1, 0);
    let stop = AtomicBool::new(false);
    let mut total = 0u64;
    let start = Instant::now();
    for (i, line) in POSITIONS.iter().enumerate() {
        let Ok(Command::Position(game)) = parse_line(line) else {
            anyhow::bail!("bench position {} does not parse", i + 1);
        };
        let limits = Limits {
            deadline: None,
            nodes: Some(nodes),
            depth: None,
            since: None,
        };
        let t = Instant::now();
        let best = agent.choose(&game, limits, &stop, &mut |_| {});
        let n = agent.last_nodes();
        total += n;
        engine_kit::println_or_exit!(
            "position {}: bestmove {} nodes {} time {} ms",
            i + 1,
            best.map_or("none".to_string(), |m| m.to_string()),
            n,
            t.elapsed().as_millis()
        );
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    engine_kit::println_or_exit!("bench: {total} nodes {} nps {ms} ms", total * 1000 / ms);
    Ok(())
}
