//! A short Blockudoku game played through the library, no protocol in between: deal seeded
//! hands, ask the default agent for each hand's placements (`agents::search`, what `go`
//! runs), play them by the rules and print the board and score after each round.
//!
//! `cargo run --release -p blockudoku --example play -- [ROUNDS] [SEED]` (10 rounds, seed 1).

use std::sync::atomic::AtomicBool;

use blockudoku::agents::{self, Agent, Limits, Objective, Request};
use blockudoku::search::{hand_of, Tally};
use puzzle_rules::blockudoku::{catalogue, GameState, Scoring};
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
    let scoring = Scoring::Blockudoku;
    let mut rng = SplitMix64(seed);
    let mut state = GameState::default();
    let never = AtomicBool::new(false);
    for round in 1..=rounds {
        let ids = [(); 3].map(|_| rng.below(set.len()));
        let hand = hand_of(set, &ids);
        // The settings (agent, objective, parameters, one worker, scoring and streak), the
        // limits (a bare `go`: no node limit, no clock) and the position are all a search
        // needs.
        let req = Request {
            tally: Tally {
                scoring,
                streak: state.streak,
            },
            ..Request::new(Agent::Default, Objective::Survive)
        };
        let outcome = agents::search(state.board, &hand, &req, &Limits::default(), &never);
        let Some((line, _)) = outcome.best else {
            engine_kit::println_or_exit!("round {round}: hand {ids:?} cannot be placed; game over");
            return;
        };
        for step in &line {
            let anchor = step.anchor as usize;
            state
                .place(hand[step.slot].1, anchor / 9, anchor % 9, scoring)
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
