//! `blockudoku-lab train`: learns the engine's value of a board (`blockudoku::lab::Net`)
//! by temporal-difference learning, TD(0) on the boards left after each hand.
//!
//! Each episode (seeded by `--seed` and its number) plays a weak player (beam 2 then 1, no
//! lookahead) from an empty board until its board is crowded (classic evaluation below the
//! lookahead's `crowded_below`, or some two pieces cannot both be placed) or a random number
//! of rounds (0 to 79) has passed; from there the policy (`--policy`: the classic default
//! agent, or the engine's default agent) plays up to `--horizon` rounds. Deaths are rare on
//! the 47 pieces; starting where the weak player got into trouble puts most rounds where
//! there is something to learn.
//!
//! The value learned is `V(s) = -E[sum over rounds t of gamma^t d(s_t)]`: `d` the exact chance
//! that the next hand cannot be placed on the board `s_t` the policy leaves (a dense,
//! low-noise stand-in for the deaths themselves). After each round the previous board's
//! value moves toward `-d(s) + gamma V(s')`, or `-d(s)` when the hand dealt on it was dead.
//!
//! Progress goes to stderr every `--report` episodes; the weights file is written every
//! `--save-every` episodes and at the end, and `--resume` continues from one (same seed:
//! the episodes already played are not played again).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use engine_kit::cli::CommandLineCheck;
use rand::{Rng, SeedableRng};

use puzzle_rules::blockudoku::{catalogue, Board, Dealer, GameState, Scoring};

use crate::setup::game_seed;
use blockudoku::lab::{self, evaluate, hand_of, Deal, Net};
use blockudoku::{Agent, Beam, BestLine, Limits, LookaheadParams, Objective, Request, Settings};
use blockudoku::{CLASSIC, DEFAULT_BEAM};

/// Arguments of `blockudoku-lab train`.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// Seed of the episodes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The weights file to write.
    #[arg(long)]
    out: String,
    /// A weights file to continue from.
    #[arg(long)]
    resume: Option<String>,
    /// Episodes in all (those of `--resume` included).
    #[arg(long, default_value_t = 1_000_000)]
    episodes: u64,
    /// Stop (and save) after this many minutes of training; 0: no limit.
    #[arg(long, default_value_t = 0.0)]
    minutes: f64,
    /// The step size.
    #[arg(long, default_value_t = 0.3)]
    alpha: f32,
    /// The discount per round.
    #[arg(long, default_value_t = 0.97)]
    gamma: f32,
    /// Rounds the policy plays per episode.
    #[arg(long, default_value_t = 12)]
    horizon: u32,
    /// Who plays: `classic` (the default agent on the classic evaluation) or `learned` (the
    /// engine's default agent, with the shipped learned value).
    #[arg(long, default_value = "classic")]
    policy: String,
    /// Episodes between progress lines.
    #[arg(long, default_value_t = 200)]
    report: u64,
    /// Episodes between saves.
    #[arg(long, default_value_t = 1000)]
    save_every: u64,
}

/// The weak player's beam (as in `blockudoku-lab crowded`).
const WEAK_BEAM: Beam = [2, 1, 0];

/// Most rounds the weak player plays before the policy takes over.
const WEAK_ROUNDS: u32 = 400;

/// What the episodes so far add up to, for the progress line.
#[derive(Clone, Copy, Default)]
struct Tally {
    rounds: u64,
    deaths: u64,
    chance: f64,
    error: f64,
}

/// One round's answer: the default agent's bare `go` with `settings` and `beam`.
fn answer(board: Board, deal: &Deal, settings: &Settings, beam: Beam) -> BestLine {
    let never = AtomicBool::new(false);
    let hand = hand_of(catalogue(), deal);
    let req = Request {
        settings: *settings,
        beam,
        ..Request::new(Agent::Default, Objective::Survive)
    };
    lab::answer(board, &hand, &req, &Limits::default(), catalogue(), &never).best
}

/// The board after playing `line` with `deal` on `state` (points are not needed).
fn play(state: &mut GameState, deal: &Deal, line: &BestLine) {
    let hand = hand_of(catalogue(), deal);
    for s in &line.as_ref().expect("a line").0 {
        let a = s.anchor as usize;
        state
            .place(hand[s.slot].1, a / 9, a % 9, Scoring::Blockudoku)
            .expect("legal");
    }
}

/// Whether the weak player's board is where the policy takes over.
fn crowded(board: Board, dealer: &Dealer, look: &LookaheadParams) -> bool {
    evaluate(board, &CLASSIC) < look.crowded_below || dealer.has_dead_pair(board)
}

/// One episode: the weak player's rounds, then the policy's with the TD updates.
fn episode(net: &mut Net, args: &TrainArgs, policy: &Settings, index: u64, t: &mut Tally) {
    let dealer = Dealer::new(catalogue());
    let mut rng = rand::rngs::SmallRng::seed_from_u64(game_seed(args.seed, index));
    let deal = |rng: &mut rand::rngs::SmallRng| [0; 3].map(|_| rng.gen_range(0..catalogue().len()));
    let mut state = GameState::default();
    let weak = Settings {
        weights: CLASSIC,
        ..Settings::default()
    };
    for _ in 0..WEAK_ROUNDS {
        let d = deal(&mut rng);
        let line = answer(state.board, &d, &weak, WEAK_BEAM);
        if line.is_none() {
            return;
        }
        play(&mut state, &d, &line);
        if crowded(state.board, &dealer, &weak.lookahead) {
            break;
        }
    }
    // The policy's rounds: `prev` is the board it was dealt on, with its dead chance.
    let mut prev = state.board;
    let mut prev_d = dealer.dead_chance(prev);
    for _ in 0..args.horizon {
        let d = deal(&mut rng);
        let line = answer(state.board, &d, policy, DEFAULT_BEAM);
        let v = net.value(prev.bits());
        let Some(_) = line else {
            let error = -prev_d as f32 - v;
            net.update(prev.bits(), args.alpha * error);
            t.deaths += 1;
            t.error += error.abs() as f64;
            return;
        };
        play(&mut state, &d, &line);
        let next_d = dealer.dead_chance(state.board);
        let target = -prev_d as f32 + args.gamma * net.value(state.board.bits());
        let error = target - v;
        net.update(prev.bits(), args.alpha * error);
        t.rounds += 1;
        t.chance += next_d;
        t.error += error.abs() as f64;
        (prev, prev_d) = (state.board, next_d);
    }
}

/// Writes the weights file (through a temporary file, so a stopped run leaves the last one).
fn save(net: &Net, path: &str) -> Result<()> {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, net.to_bytes()).with_context(|| format!("cannot write {tmp}"))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {path}"))
}

/// The checks of the command line clap cannot make.
fn check_arguments(args: &TrainArgs) -> Result<Settings> {
    if !(args.alpha > 0.0 && args.gamma > 0.0 && args.gamma < 1.0) {
        bail!("--alpha must be above 0, --gamma between 0 and 1");
    }
    if args.horizon == 0 || args.report == 0 || args.save_every == 0 {
        bail!("--horizon, --report and --save-every must be at least 1");
    }
    match args.policy.as_str() {
        "classic" => Ok(Settings {
            weights: CLASSIC,
            ..Settings::default()
        }),
        "learned" => Ok(Settings::default()),
        other => bail!("--policy is classic or learned, not {other}"),
    }
}

/// Runs `blockudoku-lab train`.
pub fn run_train(args: &TrainArgs) -> Result<()> {
    let policy = check_arguments(args).on_command_line()?;
    let mut net = match &args.resume {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("cannot read {path}"))?;
            Net::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{path}: {e}"))?
        }
        None => Net::zeros(),
    };
    let start = Instant::now();
    let mut t = Tally::default();
    let mut last = Tally::default();
    while net.episodes < args.episodes {
        let before = t.rounds;
        let index = net.episodes;
        episode(&mut net, args, &policy, index, &mut t);
        net.episodes += 1;
        net.rounds += t.rounds - before;
        let out_of_time = args.minutes > 0.0 && start.elapsed().as_secs_f64() > args.minutes * 60.0;
        if net.episodes.is_multiple_of(args.report) || out_of_time {
            let rounds = (t.rounds - last.rounds).max(1) as f64;
            eprintln!(
                "episodes {} rounds {} | last {} episodes: {} rounds, {} deaths, mean next-hand death chance {:.3e}, mean |TD error| {:.3e} | {:.0} rounds/s",
                net.episodes,
                net.rounds,
                args.report,
                t.rounds - last.rounds,
                t.deaths - last.deaths,
                (t.chance - last.chance) / rounds,
                (t.error - last.error) / rounds,
                t.rounds as f64 / start.elapsed().as_secs_f64(),
            );
            last = t;
        }
        if net.episodes.is_multiple_of(args.save_every) || out_of_time {
            save(&net, &args.out)?;
        }
        if out_of_time {
            break;
        }
    }
    save(&net, &args.out)?;
    println!(
        "trained {} episodes, {} rounds; wrote {}",
        net.episodes, net.rounds, args.out
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(out: &str, episodes: u64, resume: Option<String>) -> TrainArgs {
        TrainArgs {
            seed: 3,
            out: out.into(),
            resume,
            episodes,
            minutes: 0.0,
            alpha: 0.3,
            gamma: 0.97,
            horizon: 3,
            policy: "classic".into(),
            report: 100,
            save_every: 100,
        }
    }

    // Training is reproducible from its seed, and a run resumed halfway writes the same file
    // as one run.
    #[test]
    fn training_is_seeded_and_resumes_where_it_stopped() {
        let dir = std::env::temp_dir().join(format!("bku-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
        run_train(&args(&path("full"), 6, None)).unwrap();
        run_train(&args(&path("half"), 3, None)).unwrap();
        run_train(&args(&path("resumed"), 6, Some(path("half")))).unwrap();
        let full = std::fs::read(path("full")).unwrap();
        assert_eq!(full, std::fs::read(path("resumed")).unwrap());
        let net = Net::from_bytes(&full).unwrap();
        assert_eq!(net.episodes, 6);
        assert!(net.rounds > 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
