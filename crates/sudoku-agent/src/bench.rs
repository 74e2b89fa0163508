//! `bench`: the `default` agent on fixed positions at a fixed node limit, one thread. The
//! node total and the signature (a hash of every iteration's depth, score and move and of
//! every answer) mark search behaviour; nodes per second measure speed.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use sudoku_agent::agents::Limits;
use sudoku_agent::agents::{Agent, AgentKind, Event};
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
    let mut signature = Fnv(0xcbf2_9ce4_8422_2325);
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
        let best = agent.choose(&game, limits, &stop, &mut |event| {
            if let Event::Info {
                depth, score, pv, ..
            } = event
            {
                signature.add(&format!("{depth} {score} {pv}"));
            }
        });
        signature.add(&format!("{best:?}"));
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
    engine_kit::println_or_exit!(
        "bench: {total} nodes {} nps {ms} ms signature {:016x}",
        total * 1000 / ms,
        signature.0
    );
    Ok(())
}

/// FNV-1a over text: the same on every machine and build.
struct Fnv(u64);

impl Fnv {
    fn add(&mut self, text: &str) {
        for b in text.bytes().chain([b'\n']) {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
