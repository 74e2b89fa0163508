//! Asks the default agent for the placements of one hand through the library, without the
//! protocol loop.
//!
//! ```sh
//! cargo run --release -p blockudoku --example best_placements
//! cargo run --release -p blockudoku --example best_placements -- "##/#. 5 47" 100000
//! ```
//!
//! The first argument is the hand (catalogue ids or shapes, as `position ... pieces` takes
//! them; default `1 ##/#. 47`) on an empty board, the second the node limit (default
//! 20000). It prints the placements as `bestmove` would, their value and the nodes searched.

use std::sync::atomic::AtomicBool;

use blockudoku::{best_placements, placements_text, Agent, GameState, Hand, Limits};
use blockudoku::{Objective, Piece, Request};

fn main() {
    let mut args = std::env::args().skip(1);
    let pieces = args.next().unwrap_or_else(|| "1 ##/#. 47".into());
    let nodes = args.next().map_or(Ok(20_000), |n| n.parse::<u64>());
    let hand: Result<Vec<_>, _> = pieces.split_whitespace().map(Piece::parse).collect();
    let (Ok(hand), Ok(nodes)) = (hand, nodes) else {
        eprintln!("error: usage: best_placements [PIECES] [NODES]");
        std::process::exit(2);
    };
    let hand = Hand::new(hand.into_iter().map(Some).collect());
    let request = Request::new(Agent::Default, Objective::Survive);
    let limits = Limits {
        nodes,
        widen: true,
        clock: false,
    };
    let stop = AtomicBool::new(false);
    let outcome = best_placements(&GameState::default(), &hand, &request, &limits, &stop);
    match outcome.best {
        Some((line, value)) => println!("bestmove {} value {value}", placements_text(&line)),
        None => println!("bestmove none"),
    }
    println!("nodes {}", outcome.nodes);
}
