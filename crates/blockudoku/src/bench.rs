//! `bench`: fixed positions searched to a fixed node limit. The node total is a signature
//! of the search's behaviour: a change that moves it says so.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Result;
use engine_kit::cli::CommandLineCheck;
use rand::{Rng, SeedableRng};

use puzzle_rules::blockudoku::{catalogue, Board, Piece};

use blockudoku::lab::{answer, Deal};
use blockudoku::{Agent, Limits, Objective, Request, FULL_BEAM};

/// Arguments of `blockudoku bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Node limit per position.
    #[arg(long, default_value_t = 50_000)]
    nodes: u64,
}

/// The bench positions: seeded random boards (about 30% full) with hands that can be placed.
pub fn bench_positions() -> Vec<(Board, Deal)> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(20_241_122);
    let mut out = Vec::new();
    while out.len() < 24 {
        let mut bits = 0u128;
        for i in 0..81 {
            if rng.gen_bool(0.3) {
                bits |= 1u128 << i;
            }
        }
        let board = Board::from_bits(bits);
        let ids = [
            rng.gen_range(1..=47),
            rng.gen_range(1..=47),
            rng.gen_range(1..=47),
        ];
        let pieces: Vec<&Piece> = ids.iter().map(|&i| &catalogue()[i - 1]).collect();
        if puzzle_rules::blockudoku::can_place_all(board, &pieces) {
            out.push((board, ids));
        }
    }
    out
}

/// Runs `blockudoku bench`.
pub fn run_bench(args: &BenchArgs) -> Result<()> {
    if args.nodes == 0 {
        return Err(anyhow::anyhow!("--nodes must be at least 1")).on_command_line();
    }
    let positions = bench_positions();
    let never = AtomicBool::new(false);
    let start = Instant::now();
    let mut total = 0;
    for (board, ids) in &positions {
        let hand: Vec<(usize, &Piece)> = ids
            .iter()
            .enumerate()
            .map(|(i, &id)| (i, &catalogue()[id - 1]))
            .collect();
        let req = Request {
            beam: FULL_BEAM,
            ..Request::new(Agent::Default, Objective::Survive)
        };
        let limits = Limits {
            nodes: args.nodes,
            ..Limits::default()
        };
        total += answer(*board, &hand, &req, &limits, catalogue(), &never).nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "positions {} nodes {total} time {:.0} ms nps {:.0}",
        positions.len(),
        secs * 1000.0,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}
