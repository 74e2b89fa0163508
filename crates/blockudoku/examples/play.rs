//! A short Blockudoku game played through the library, no protocol in between: deal seeded
//! hands, ask the default agent for each hand's placements ([`blockudoku::best_placements`],
//! what `go` runs), play them by the rules and print the board and score after each round.
//!
//! `cargo run --release -p blockudoku --example play -- [ROUNDS] [SEED]` (10 rounds, seed 1).

use std::sync::atomic::AtomicBool;

use blockudoku::{best_placements, catalogue, Agent, GameState, Hand, Limits, Objective};
use blockudoku::{Request, Scoring};
use puzzle_rules::rng::SplitMix64;

/// The command line's `n`th number, `default` without one; a word that is not a number
/// ends the program with a one-line message.
fn number_arg(n: usize, name: &str, default: u64) -> u64 {
    match std::env::args().nth(n) {
        None => default,
        Some(a) => a.parse().unwrap_or_else(|_| {
            eprintln!("play: {name} must be a whole number, got {a:?}");
            std::process::exit(2)
        }),
    }
}

fn main() {
    let rounds = number_arg(1, "ROUNDS", 10);
    let seed = number_arg(2, "SEED", 1);
    let set = catalogue();
    let mut rng = SplitMix64(seed);
    let mut state = GameState::default();
    let never = AtomicBool::new(false);
    // The agent, what it plays for and its parameters (one worker, the default scoring);
    // the limits of a bare `go` (no node limit, no clock).
    let request = Request::new(Agent::Default, Objective::Survive);
    for round in 1..=rounds {
        let ids = [(); 3].map(|_| rng.below(set.len()));
        let hand = Hand::new(ids.iter().map(|&i| Some(set[i].clone())).collect());
        let outcome = best_placements(&state, &hand, &request, &Limits::default(), &never);
        let Some((line, _)) = outcome.best else {
            engine_kit::println_or_exit!("round {round}: hand {ids:?} cannot be placed; game over");
            return;
        };
        for step in &line {
            let anchor = step.anchor as usize;
            let piece = hand
                .piece(step.slot + 1)
                .expect("the agent plays the hand's slots");
            state
                .place(piece, anchor / 9, anchor % 9, Scoring::Blockudoku)
                .expect("the agent answers legal placements");
        }
        engine_kit::println_or_exit!(
            "round {round}: {} nodes; score {} streak {}\n{}",
            outcome.nodes,
            state.score,
            state.streak,
            state.board.to_string().replace('/', "\n")
        );
    }
}
