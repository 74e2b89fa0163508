//! `blockudoku-lab crises`: agents side by side on the positions where an agent's trouble starts
//! (the default agent's, or that of `--positions-from`). A cheap, paired screen for changes aimed at the normal set's hazard, where
//! a chain measure that can see a 10% change needs millions of rounds.
//!
//! Positions: the `--positions-from` agent (the default agent unless told) plays seeded games;
//! a crisis is a round whose answer leaves a board the next hand kills with chance at least `--min-chance`, after at least `--lead`
//! rounds without one. The position `--lead` rounds before it is kept: the board, the streak
//! and the hand dealt there (with `--lead 0`, the hand that opened the crisis). Each agent then
//! plays `--rollouts` continuations of `--rounds` rounds from every position, all agents on
//! the same deals: the kept hand first, then hands from a seed of the position and the
//! continuation. A continuation's risk is the sum, over the boards it reaches, of the exact
//! chance that the next hand dies there (a death ends it). The first agent is the reference:
//! every other agent's mean risk is compared with it position by position (a paired standard
//! error over positions).
//!
//! The positions come from one agent's own trouble, so the screen sees how agents
//! answer and recover from it, not how often they get into it: it does not replace the chain
//! measure, which every adopted change still needs. An agent's earlier choices shape the
//! crises it meets, so a change to the strong agent is best screened on the strong agent's
//! crises (`--positions-from strong`).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{bail, ensure, Context, Result};
use engine_kit::cli::CommandLineCheck;
use lab_kit::stats;
use puzzle_rules::blockudoku::{Board, Dealer, GameState, Piece, Scoring};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::setup::{game_seed, piece_set, player_with_overrides, BeamOverride, Setup};
use blockudoku::lab::Deal;
use blockudoku::Settings;

/// Arguments of `blockudoku-lab crises`.
#[derive(clap::Args)]
pub struct CrisesArgs {
    /// Number of positions.
    #[arg(long, default_value_t = 100)]
    positions: usize,
    /// Seed of the --positions-from agent's games the positions come from, and of the continuations.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Agent whose seeded games the positions come from (`agent[:objective]`, with optional
    /// weight overrides after slashes, as for --agents); not read when --positions-file
    /// exists.
    #[arg(long, default_value = "default")]
    positions_from: String,
    /// Rounds between a kept position and the crisis it led to (0: the crisis's own hand).
    #[arg(long, default_value_t = 0)]
    lead: usize,
    /// A crisis: the next hand dies on the --positions-from agent's board with at least this chance.
    #[arg(long, default_value_t = 0.001)]
    min_chance: f64,
    /// Continuations from each position, per agent.
    #[arg(long, default_value_t = 8)]
    rollouts: u64,
    /// Rounds of each continuation.
    #[arg(long, default_value_t = 20)]
    rounds: u64,
    /// Worker threads (continuations run in parallel, one search thread each).
    #[arg(long, default_value_t = 1, value_parser = crate::setup::threads_arg)]
    threads: usize,
    /// Piece set file (as for selfplay); default is the built-in 47 pieces.
    #[arg(long)]
    pieces: Option<PathBuf>,
    /// Agents, the first the reference: `agent[:objective]` as for selfplay, then optional
    /// weight overrides after slashes (`strong/death_price=16000000/candidates=8`).
    #[arg(long, num_args = 1.., required = true)]
    agents: Vec<String>,
    /// Read the positions from this file when it exists, else collect them and write it: one
    /// position per line, `board streak a b c` (the compact board, the streak, the hand as
    /// 0-based indices into the piece set).
    #[arg(long)]
    positions_file: Option<PathBuf>,
}

/// A kept position: the board and the streak before a hand, and the hand (set indices).
type Position = (Board, u32, Deal);

/// One continuation: its risk, whether it died, and the rounds it played.
type Continuation = (f64, bool, u64);

/// What the position collection and the continuations share.
struct Screen<'a> {
    seed: u64,
    lead: usize,
    min_chance: f64,
    rollouts: u64,
    rounds: u64,
    threads: usize,
    dealer: &'a Dealer<'a>,
}

impl Screen<'_> {
    /// The first `count` positions of the seeded games of `source` (see the module doc):
    /// `threads` games at a time, each kept position in game order.
    fn positions(&self, source: &Setup, count: usize) -> Vec<Position> {
        let n = self.dealer.set().len();
        let one_game = |game: u64, want: usize| -> Vec<Position> {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(game_seed(self.seed, game));
            let never = AtomicBool::new(false);
            let mut state = GameState::default();
            let mut history = std::collections::VecDeque::with_capacity(self.lead + 1);
            let mut calm = 0usize;
            let mut found = Vec::new();
            loop {
                let ids = [(); 3].map(|_| rng.gen_range(0..n));
                history.push_back((state.board, state.streak, ids));
                if history.len() > self.lead + 1 {
                    history.pop_front();
                }
                if source.play_hand(&mut state, ids, &never).is_none() {
                    return found;
                }
                if self.dealer.dead_chance(state.board) >= self.min_chance {
                    if calm >= self.lead && history.len() == self.lead + 1 {
                        found.push(history[0]);
                        if found.len() >= want {
                            return found;
                        }
                    }
                    calm = 0;
                } else {
                    calm += 1;
                }
            }
        };
        let mut out: Vec<Position> = Vec::with_capacity(count);
        let mut next = 0u64;
        while out.len() < count {
            let want = (count - out.len()).div_ceil(self.threads);
            let games: Vec<u64> = (next..next + self.threads as u64).collect();
            next += self.threads as u64;
            let found: Vec<Vec<Position>> = games.par_iter().map(|&g| one_game(g, want)).collect();
            out.extend(found.into_iter().flatten());
        }
        out.truncate(count);
        out
    }

    /// `setup`'s continuations from every position, `rollouts` per position in order.
    fn continuations(&self, setup: &Setup, positions: &[Position]) -> Vec<Continuation> {
        let items: Vec<(usize, u64)> = (0..positions.len())
            .flat_map(|p| (0..self.rollouts).map(move |r| (p, r)))
            .collect();
        items
            .par_iter()
            .map(|&(p, r)| {
                let (board, streak, ids) = positions[p];
                let mut state = GameState {
                    board,
                    score: 0,
                    streak,
                };
                let seed = game_seed(self.seed ^ 0xc0ff_ee00, p as u64 * 1_000_003 + r);
                let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
                let never = AtomicBool::new(false);
                let mut risk = 0.0;
                for t in 0..self.rounds {
                    let round = if t == 0 {
                        setup.play_hand(&mut state, ids, &never)
                    } else {
                        setup.play_round(&mut state, &mut rng, &never)
                    };
                    if round.is_none() {
                        return (risk, true, t);
                    }
                    risk += self.dealer.dead_chance(state.board);
                }
                (risk, false, self.rounds)
            })
            .collect()
    }
}

/// The agent `spec` of `--agents` on the piece set `set`.
fn setup_of<'a>(spec: &str, set: &'a [Piece]) -> Result<Setup<'a>> {
    let a = player_with_overrides(spec, Settings::default(), BeamOverride::default())?;
    let (agent, objective) = a.player;
    Ok(Setup {
        beam: a.beam,
        settings: a.settings,
        set,
        agent,
        objective,
        scoring: Scoring::Blockudoku,
        max_rounds: u64::MAX,
    })
}

/// The largest `--positions-file` read (64 MiB, about 700,000 positions).
const MAX_POSITIONS_FILE_BYTES: u64 = 64 << 20;

/// The positions of `path` (the format of `--positions-file`), at most `count`, checked
/// against a set of `n` pieces.
fn read_positions(path: &Path, count: usize, n: usize) -> Result<Vec<Position>> {
    let text = crate::setup::read_text(path, MAX_POSITIONS_FILE_BYTES)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate().take(count) {
        let at = || format!("{}:{}", path.display(), k + 1);
        let f: Vec<&str> = line.split_whitespace().collect();
        ensure!(f.len() == 5, "{}: expected `board streak a b c`", at());
        let board = Board::parse(f[0]).map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
        let streak = f[1]
            .parse()
            .with_context(|| format!("{}: bad streak {:?}", at(), f[1]))?;
        let mut ids = [0usize; 3];
        for (id, s) in ids.iter_mut().zip(&f[2..]) {
            *id = s
                .parse()
                .ok()
                .filter(|&i| i < n)
                .with_context(|| format!("{}: {s:?} is not a piece index below {n}", at()))?;
        }
        out.push((board, streak, ids));
    }
    ensure!(
        out.len() == count,
        "{} holds {} positions, fewer than --positions {count}",
        path.display(),
        out.len()
    );
    Ok(out)
}

/// Runs `blockudoku-lab crises`.
pub fn run_crises(args: &CrisesArgs) -> Result<()> {
    // What the command line names is checked first: a value refused here exits 2.
    let set = (|| {
        if args.positions == 0 || args.threads == 0 || args.rollouts == 0 || args.rounds == 0 {
            bail!("--positions, --threads, --rollouts and --rounds must be at least 1");
        }
        if !(args.min_chance > 0.0 && args.min_chance < 1.0) {
            bail!("--min-chance must be above 0 and below 1");
        }
        piece_set(args.pieces.as_deref())
    })()
    .on_command_line()?;
    let setups = args
        .agents
        .iter()
        .map(|a| setup_of(a, &set))
        .collect::<Result<Vec<_>>>()
        .on_command_line()?;
    let source = setup_of(&args.positions_from, &set)
        .context("--positions-from")
        .on_command_line()?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build_global()
        .ok();
    let dealer = Dealer::new(&set);
    let screen = Screen {
        seed: args.seed,
        lead: args.lead,
        min_chance: args.min_chance,
        rollouts: args.rollouts,
        rounds: args.rounds,
        threads: args.threads,
        dealer: &dealer,
    };
    let positions = match &args.positions_file {
        Some(path) if path.exists() => read_positions(path, args.positions, set.len())?,
        file => {
            let positions = screen.positions(&source, args.positions);
            if let Some(path) = file {
                let text: String = positions
                    .iter()
                    .map(|(b, s, h)| format!("{} {s} {} {} {}\n", b.to_compact(), h[0], h[1], h[2]))
                    .collect();
                std::fs::write(path, text)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            positions
        }
    };
    println!(
        "positions {} from {} seed {} lead {} min-chance {} rollouts {} rounds {}",
        positions.len(),
        args.positions_from,
        args.seed,
        args.lead,
        args.min_chance,
        args.rollouts,
        args.rounds
    );
    let mut first: Option<Vec<f64>> = None;
    for (spec, setup) in args.agents.iter().zip(&setups) {
        let start = std::time::Instant::now();
        let runs = screen.continuations(setup, &positions);
        let per_position: Vec<f64> = runs
            .chunks(args.rollouts as usize)
            .map(|c| c.iter().map(|r| r.0).sum::<f64>() / c.len() as f64)
            .collect();
        let deaths = runs.iter().filter(|r| r.1).count();
        let rounds: u64 = runs.iter().map(|r| r.2).sum();
        let (mean, se) = stats::mean_and_error(&per_position);
        let secs = start.elapsed().as_secs_f64();
        print!(
            "{spec}: risk {mean:.4e} (se {se:.1e}) deaths {deaths} of {} continuations; {:.0} rounds/s",
            runs.len(),
            rounds as f64 / secs
        );
        match &first {
            None => {
                println!();
                first = Some(per_position);
            }
            Some(base) => {
                let diffs: Vec<f64> = per_position.iter().zip(base).map(|(a, b)| a - b).collect();
                let (md, sd) = stats::mean_and_error(&diffs);
                let (mb, _) = stats::mean_and_error(base);
                println!(
                    "; minus reference {md:.3e} (95% CI {:.3e} - {:.3e}), ratio {:.3}",
                    md - 1.96 * sd,
                    md + 1.96 * sd,
                    mean / mb
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // On the hard set (crises come quickly): every kept position's hand, answered by the
    // default agent, leaves a board the next hand kills with at least the asked chance; an
    // agent screened twice gives the same risks (the continuations share their deals).
    #[test]
    fn positions_are_crises_and_continuations_are_paired() {
        let hard = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../blockudoku/data/hard-pieces.txt"
        );
        let set = piece_set(Some(Path::new(hard))).unwrap();
        let dealer = Dealer::new(&set);
        let screen = Screen {
            seed: 7,
            lead: 0,
            min_chance: 0.01,
            rollouts: 2,
            rounds: 3,
            threads: 1,
            dealer: &dealer,
        };
        let default = setup_of("default", &set).unwrap();
        let positions = screen.positions(&default, 3);
        assert_eq!(positions.len(), 3);
        // `setup`'s answer to the position's hand opens a crisis.
        let opens_crisis = |setup: &Setup, &(board, streak, ids): &Position| {
            let mut state = GameState {
                board,
                score: 0,
                streak,
            };
            assert!(setup
                .play_hand(&mut state, ids, &AtomicBool::new(false))
                .is_some());
            assert!(dealer.dead_chance(state.board) >= 0.01, "{board}");
        };
        for p in &positions {
            opens_crisis(&default, p);
        }
        let a = screen.continuations(&default, &positions);
        let b = screen.continuations(
            &setup_of("default/death_price=1", &set).unwrap(),
            &positions,
        );
        assert_eq!(a.len(), 6);
        assert_eq!(a, b, "the default agent does not read death_price");
        assert!(
            a.iter().all(|r| r.0 > 0.0),
            "each continuation starts in a crisis"
        );
        // Positions from another agent are that agent's crises.
        let strong = setup_of("strong", &set).unwrap();
        for p in &screen.positions(&strong, 2) {
            opens_crisis(&strong, p);
        }
        assert!(setup_of("default/death", &set).is_err());
        assert!(setup_of("nobody", &set).is_err());
    }
}
