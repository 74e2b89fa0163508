//! Asks the `default` agent for a move through the library, without the protocol loop.
//!
//! ```sh
//! cargo run --release -p sudoku-agent --example best_move
//! cargo run --release -p sudoku-agent --example best_move -- "position 2x3 1...../....../....../....../....../...... mode rows" 20000
//! ```
//!
//! The first argument is a protocol `position` line (default: an empty 9x9 board under the
//! `rows` rules), the second the node limit (default 100000). It prints the agent's progress
//! as protocol lines (`propose`, `info`) and its choice.

use std::sync::atomic::AtomicBool;

use sudoku_agent::agents::{Agent, AgentKind, Limits};
use sudoku_agent::protocol::{event_line, parse_line, position_line, Command};

const EMPTY_ROWS: &str = "position 3x3 ........./........./........./........./........./........./........./........./......... mode rows";

fn main() {
    let mut args = std::env::args().skip(1);
    let line = args.next().unwrap_or_else(|| EMPTY_ROWS.to_string());
    let nodes = match args.next().map(|n| n.parse::<u64>()) {
        None => 100_000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("error: node limit: {e}");
            std::process::exit(2);
        }
    };
    let game = match parse_line(&line) {
        Ok(Command::Position(game)) => game,
        Ok(_) => {
            eprintln!("error: expected a 'position' line");
            std::process::exit(2);
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    println!("{}", position_line(&game));
    let agent = Agent::new(AgentKind::Default, 1, 0);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let best = agent.choose(&game, limits, &stop, &mut |event| {
        println!("{}", event_line(&event));
    });
    match best {
        Some(mv) => println!("bestmove {mv} after {} nodes", agent.last_nodes()),
        None => println!("no legal move"),
    }
}
