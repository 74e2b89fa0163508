//! `blockudoku-lab crowded`: does time help where games are lost? A fixed set of crowded
//! positions (from seeded self-play of a weak player: rounds where the classic default
//! agent's answer leaves a board the next hand kills with chance at least `--min-chance`) is
//! answered by a bare `go` and by `go movetime MS` of `--agent` (a default agent spending its
//! time as the strong agent does); each answer's final board gets the exact chance that the next hand dies on it, and
//! the two means are compared position by position (paired standard error). With `--floor`,
//! also the lowest such chance of any placement of the hand (every final board, found by the
//! rules alone): no answer can do better. With `--two-hands N`, also the chance that the next
//! hand or the one after dies: the next hand dealt `N` times (live hands, the same for both
//! answers), each answered by the agent's bare `go`, and the exact chance that the hand after
//! dies on the board it leaves.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use engine_kit::cli::CommandLineCheck;
use lab_kit::stats;
use puzzle_rules::blockudoku::{catalogue, Board, Dealer, GameState, Piece, Scoring};
use puzzle_rules::rng::SplitMix64;
use rand::{Rng, SeedableRng};

use crate::setup::{game_seed, player_with_overrides, BeamOverride, ChainAgent};
use blockudoku::lab::{self, final_board, hand_of, Deal};
use blockudoku::{
    Agent, Beam, Limits, Objective, Outcome, Request, Settings, Workers, DEFAULT_BEAM,
};

/// Arguments of `blockudoku-lab crowded`.
#[derive(clap::Args)]
pub struct CrowdedArgs {
    /// Number of crowded positions.
    #[arg(long, default_value_t = 100)]
    positions: usize,
    /// Seed of the self-play games the positions come from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Milliseconds for the timed answer.
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// Search threads for both answers.
    #[arg(long, default_value_t = 1, value_parser = crate::setup::threads_arg)]
    threads: usize,
    /// Keep positions where the default agent's board dies on the next hand with at least
    /// this chance.
    #[arg(long, default_value_t = 0.001)]
    min_chance: f64,
    /// The agent answering (`default`, `strong`, `classic-default`, ..., with parameter
    /// overrides after slashes as `selfplay --compare` takes them).
    #[arg(long, default_value = "default")]
    agent: String,
    /// Also report the floor: the mean over the positions of the lowest next-hand death
    /// chance of any placement of the hand.
    #[arg(long)]
    floor: bool,
    /// Also report the chance of dying within two hands, from this many live next hands per
    /// answer (0: not measured).
    #[arg(long, default_value_t = 0)]
    two_hands: usize,
}

/// A position: board and hand (catalogue indices).
type Position = (Board, Deal);

/// The weak player whose games give the positions (beam 2 then 1, no lookahead): it gets
/// into trouble far more often than the default agent, on the same kind of boards.
const WEAK_BEAM: Beam = [2, 1, 0];

/// The first `count` positions of seeded weak self-play (normal piece set) where the
/// classic default agent's answer leaves a board on which the next hand dies with chance at least
/// `min_chance`.
fn crowded_positions(count: usize, seed: u64, min_chance: f64) -> Vec<Position> {
    let dealer = Dealer::new(catalogue());
    let never = AtomicBool::new(false);
    let mut out = Vec::new();
    let mut game = 0;
    while out.len() < count {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(game_seed(seed, game));
        let mut state = GameState::default();
        loop {
            let ids = [0; 3].map(|_| rng.gen_range(0..catalogue().len()));
            let hand = hand_of(catalogue(), &ids);
            let answer = |beam| {
                let req = Request {
                    beam,
                    ..Request::new(Agent::ClassicDefault, Objective::Survive)
                };
                let limits = Limits::default();
                lab::answer(state.board, &hand, &req, &limits, catalogue(), &never).best
            };
            let Some((line, _)) = answer(WEAK_BEAM) else {
                break;
            };
            if let Some((default_line, _)) = answer(DEFAULT_BEAM) {
                let next = final_board(state.board, &hand, &default_line);
                if dealer.dead_chance(next) >= min_chance {
                    out.push((state.board, ids));
                    if out.len() == count {
                        break;
                    }
                }
            }
            for s in &line {
                let a = s.anchor as usize;
                state
                    .place(hand[s.slot].1, a / 9, a % 9, Scoring::Blockudoku)
                    .expect("legal");
            }
        }
        game += 1;
    }
    out
}

/// Every final board of placing all of `pieces` on `board`, in any order (clearing between
/// placements), into `out`; `seen` holds the (board, pieces left) pairs already expanded.
fn final_boards(
    board: Board,
    pieces: &[&Piece],
    left: u8,
    seen: &mut HashSet<(u128, u8)>,
    out: &mut HashSet<u128>,
) {
    if left == 0 {
        out.insert(board.bits());
        return;
    }
    if !seen.insert((board.bits(), left)) {
        return;
    }
    for (i, piece) in pieces.iter().enumerate() {
        if left >> i & 1 == 0 {
            continue;
        }
        for &(_, mask) in piece.placements() {
            if board.fits(mask) {
                let next = board.place_mask(mask).0;
                final_boards(next, pieces, left & !(1 << i), seen, out);
            }
        }
    }
}

/// The lowest next-hand death chance of any final board of the position's hand.
fn floor_chance(position: &Position, dealer: &Dealer) -> f64 {
    let pieces: Vec<&Piece> = position.1.iter().map(|&i| &catalogue()[i]).collect();
    let mut out = HashSet::new();
    final_boards(position.0, &pieces, 0b111, &mut HashSet::new(), &mut out);
    out.into_iter()
        .map(|b| dealer.dead_chance(Board::from_bits(b)))
        .fold(1.0, f64::min)
}

/// The chance of dying within two hands on `board` (`d` its exact next-hand death chance):
/// `d + (1 - d) * m`, `m` the mean over `samples` live next hands (seeded by the board) of the
/// exact chance that the hand after dies on the board the agent's bare `go` leaves.
fn two_hand_chance(board: Board, d: f64, samples: usize, req: &Request, dealer: &Dealer) -> f64 {
    if d >= 1.0 {
        return 1.0;
    }
    let never = AtomicBool::new(false);
    let bits = board.bits();
    let mut rng = SplitMix64(bits as u64 ^ (bits >> 64) as u64 ^ 0x2_4a4d);
    let mut sum = 0.0;
    let mut taken = 0;
    while taken < samples {
        let ids = dealer.deal(&mut rng);
        let hand = hand_of(catalogue(), &ids);
        let out = lab::search(board, &hand, req, &Limits::default(), &never);
        let Some((line, _)) = out.best else { continue };
        sum += dealer.dead_chance(final_board(board, &hand, &line));
        taken += 1;
    }
    d + (1.0 - d) * sum / samples as f64
}

/// The answer of a `go movetime ms` (the session's search, stopped by a timer thread).
fn timed_answer(position: &Position, ms: u64, req: &Request) -> (Outcome, Duration) {
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let hand = hand_of(catalogue(), &position.1);
    std::thread::scope(|s| {
        s.spawn(|| {
            // Stop a little early, as the session does.
            let until = start + Duration::from_millis(ms.saturating_sub(2));
            while Instant::now() < until && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            stop.store(true, Ordering::Relaxed);
        });
        let limits = Limits {
            widen: true,
            clock: true,
            ..Limits::default()
        };
        let out = lab::search(position.0, &hand, req, &limits, &stop);
        stop.store(true, Ordering::Relaxed);
        (out, start.elapsed())
    })
}

/// The checks of the command line clap cannot make (a refused value exits 2).
fn check_arguments(args: &CrowdedArgs) -> Result<ChainAgent> {
    if args.positions == 0 || args.threads == 0 {
        bail!("--positions and --threads must be at least 1");
    }
    if !(args.min_chance > 0.0 && args.min_chance < 1.0) {
        bail!("--min-chance must be above 0 and below 1");
    }
    player_with_overrides(&args.agent, Settings::default(), BeamOverride::default())
}

/// Runs `blockudoku-lab crowded`.
pub fn run_crowded(args: &CrowdedArgs) -> Result<()> {
    let agent = check_arguments(args).on_command_line()?;
    let positions = crowded_positions(args.positions, args.seed, args.min_chance);
    let dealer = Dealer::new(catalogue());
    let never = AtomicBool::new(false);
    let workers = Workers::new(args.threads);
    let (mut bare, mut timed, mut diffs) = (Vec::new(), Vec::new(), Vec::new());
    let (mut better, mut worse, mut times) = (0, 0, Vec::new());
    let (mut floors, mut two) = (Vec::new(), [Vec::new(), Vec::new()]);
    for position in &positions {
        let hand = hand_of(catalogue(), &position.1);
        let req = Request {
            workers: workers.clone(),
            settings: agent.settings,
            beam: agent.beam.apply(agent.player.1.beam()),
            ..Request::new(agent.player.0, agent.player.1)
        };
        let quick = lab::search(position.0, &hand, &req, &Limits::default(), &never);
        let (slow, took) = timed_answer(position, args.movetime, &req);
        times.push(took.as_secs_f64() * 1000.0);
        let chance = |out: &Outcome| {
            let (line, _) = out.best.as_ref().expect("crowded positions are alive");
            dealer.dead_chance(final_board(position.0, &hand, line))
        };
        let (a, b) = (chance(&quick), chance(&slow));
        if args.floor {
            floors.push(floor_chance(position, &dealer));
        }
        if args.two_hands > 0 {
            for (k, (out, d)) in [(&quick, a), (&slow, b)].into_iter().enumerate() {
                let (line, _) = out.best.as_ref().expect("crowded positions are alive");
                let board = final_board(position.0, &hand, line);
                two[k].push(two_hand_chance(board, d, args.two_hands, &req, &dealer));
            }
        }
        bare.push(a);
        timed.push(b);
        diffs.push(a - b);
        better += (b < a) as u32;
        worse += (b > a) as u32;
    }
    let (ma, sa) = stats::mean_and_error(&bare);
    let (mb, sb) = stats::mean_and_error(&timed);
    let (md, sd) = stats::mean_and_error(&diffs);
    println!(
        "positions {} seed {} movetime {} threads {} agent {}",
        positions.len(),
        args.seed,
        args.movetime,
        args.threads,
        agent.name
    );
    println!("bare go: next-hand death chance {ma:.3e} (standard error {sa:.1e})");
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "go movetime {}: next-hand death chance {mb:.3e} (standard error {sb:.1e}); answer time median {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        args.movetime,
        at(0.5),
        at(0.9),
        at(1.0)
    );
    println!(
        "bare - timed: {md:.3e} (95% CI {:.3e} - {:.3e}, paired); timed lower on {better}, higher on {worse}",
        md - 1.96 * sd,
        md + 1.96 * sd
    );
    if args.floor {
        let (mf, sf) = stats::mean_and_error(&floors);
        let reached = floors.iter().zip(&timed).filter(|(f, t)| t <= f).count();
        println!(
            "floor (lowest of any placement): next-hand death chance {mf:.3e} (standard error {sf:.1e}); timed answer at the floor on {reached}"
        );
    }
    if args.two_hands > 0 {
        let diffs: Vec<f64> = two[0].iter().zip(&two[1]).map(|(a, b)| a - b).collect();
        let (m0, m1) = (
            stats::mean_and_error(&two[0]).0,
            stats::mean_and_error(&two[1]).0,
        );
        let (md, sd) = stats::mean_and_error(&diffs);
        println!(
            "death within two hands ({} next hands): bare go {m0:.3e}, go movetime {}: {m1:.3e}; bare - timed {md:.3e} (95% CI {:.3e} - {:.3e}, paired)",
            args.two_hands,
            args.movetime,
            md - 1.96 * sd,
            md + 1.96 * sd
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Three single cells on an empty board complete no line: every set of three cells is a
    // final board, whatever the order.
    #[test]
    fn final_boards_of_three_cells_on_an_empty_board() {
        let dot = catalogue()
            .iter()
            .position(|p| p.cells().len() == 1)
            .unwrap();
        let pieces = [&catalogue()[dot]; 3];
        let mut out = HashSet::new();
        final_boards(Board::EMPTY, &pieces, 0b111, &mut HashSet::new(), &mut out);
        assert_eq!(out.len(), 81 * 80 * 79 / 6);
    }

    // A board where each placement clears a column: the board the game leaves after three
    // placements is among the final boards, and the floor is no higher than its chance.
    #[test]
    fn final_boards_clear_between_placements() {
        let dot = catalogue()
            .iter()
            .position(|p| p.cells().len() == 1)
            .unwrap();
        let gap = [(0, 0), (0, 1), (0, 2)];
        let board = Board::from_fn(|c| !gap.contains(&(c / 9, c % 9)));
        let mut state = GameState {
            board,
            ..GameState::default()
        };
        for (r, c) in [(0, 0), (1, 0), (2, 0)] {
            state
                .place(&catalogue()[dot], r, c, Scoring::Blockudoku)
                .unwrap();
        }
        let pieces = [&catalogue()[dot]; 3];
        let mut out = HashSet::new();
        final_boards(board, &pieces, 0b111, &mut HashSet::new(), &mut out);
        assert!(out.contains(&state.board.bits()));
        assert!(!out.contains(&board.bits()));
        let dealer = Dealer::new(catalogue());
        let floor = floor_chance(&(board, [dot; 3]), &dealer);
        assert!(floor <= dealer.dead_chance(state.board));
    }
}
