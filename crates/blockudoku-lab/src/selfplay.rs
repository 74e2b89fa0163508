//! `selfplay`: seeded games and their death rate per round (with `--chain-rounds`, the
//! hazard measurement of [`crate::chains`]).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use engine_kit::cli::CommandLineCheck;
use rand::SeedableRng;
use rayon::prelude::*;

use puzzle_rules::blockudoku::{GameState, Scoring};

use crate::chains::{ChainPlan, Probes};
use crate::setup::{
    agent_named, game_seed, piece_set, player_with_overrides, width, with_overrides, with_progress,
    BeamOverride, ChainAgent, Clears, Setup,
};
use blockudoku::record::GameRecord;
use blockudoku::Settings;

/// Arguments of `blockudoku-lab selfplay`.
#[derive(clap::Args)]
pub struct SelfplayArgs {
    /// Number of games.
    #[arg(long)]
    games: u64,
    /// Seed of the dealer (game i uses a seed derived from this and i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop a game after this many rounds (counted as capped, not as a death).
    #[arg(long, default_value_t = 100_000)]
    max_rounds: u64,
    /// Worker threads (games run in parallel, one search thread each).
    #[arg(long, default_value_t = 1, value_parser = crate::setup::threads_arg)]
    threads: usize,
    /// Agent: default, original (alias seed), strong, classic-default or classic-strong,
    /// optionally with an objective after a colon (`default:points`; survive when none); the summary names it as given. With
    /// --chain-rounds, weight overrides of its own may follow after slashes, as for --compare.
    #[arg(long, default_value = "default")]
    agent: String,
    /// Scoring rule: blockudoku, classic or squared.
    #[arg(long, default_value = "blockudoku")]
    scoring: String,
    /// Piece set file: one piece per line, its last token an id or a shape (the catalogue file
    /// format works); default is the built-in 47 pieces.
    #[arg(long)]
    pieces: Option<std::path::PathBuf>,
    /// Also write one JSON object per game to this file.
    #[arg(long)]
    jsonl: Option<std::path::PathBuf>,
    /// Also write every game as a record (protocol/records.md, "Blockudoku"): the hands
    /// dealt and the placements played; `blockudoku-lab replay FILE` checks it.
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// Beam widths after the first and second placement (0 = no pruning; without it each
    /// objective's own: 10 6 to survive, 30 15 for points).
    #[arg(long, num_args = 2, value_names = ["W1", "W2"])]
    beam: Option<Vec<usize>>,
    /// Parameter overrides for tuning, comma-separated name=value: the evaluation's weights
    /// (the `eval` command's terms, `nofit` for both kinds of hard piece) and the other
    /// parameters by name (crates/blockudoku/README.md, "Weights").
    #[arg(long, value_delimiter = ',')]
    weights: Option<Vec<String>>,
    /// Final boards re-ranked by the one-piece lookahead (0 or 1: no lookahead).
    #[arg(long)]
    lookahead: Option<usize>,
    /// Hazard measurement: each of the --games chains plays games back to back (a new game
    /// after a death) until this many measured rounds; prints deaths, exposure and the hazard
    /// with its exact Poisson interval (--max-rounds is not used).
    #[arg(long)]
    chain_rounds: Option<u64>,
    /// Rounds at the start of each game of a chain left out of the measure.
    #[arg(long)]
    burn_in: Option<u64>,
    /// At every measured round of a chain, the chance that the hand dealt cannot be placed:
    /// `exact` (every deal) or a number of sampled hands.
    #[arg(long)]
    probes: Option<String>,
    /// Two agents `A,B` (each as for --agent, e.g. `default,default:points`, with weight
    /// overrides of its own after slashes, e.g. `strong,strong/death_price=40000000`) on the same
    /// chains: both summaries, then the hazard ratio A / B with its exact interval and p-value
    /// (replaces --agent; --weights apply to both).
    #[arg(long)]
    compare: Option<String>,
    /// Crisis splitting of the probe (needs --probes): at a measured board the next hand kills
    /// with chance at least --split-at, this many copies (the chain's own included) play the
    /// next --split-rounds rounds, and the probe counts their mean; the chain's games are
    /// unchanged (crates/blockudoku/README.md, "Chain runs").
    #[arg(long)]
    split: Option<u64>,
    /// Probe that opens a split window.
    #[arg(long, default_value_t = 0.001)]
    split_at: f64,
    /// Rounds in a split window.
    #[arg(long, default_value_t = 30)]
    split_rounds: u64,
}

struct GameResult {
    index: u64,
    seed: u64,
    rounds: u64,
    score: u64,
    died: bool,
    clears: Clears,
    /// The game's record text (with `--record`).
    record: Option<String>,
}

fn play_game(
    setup: &Setup,
    index: u64,
    seed: u64,
    progress: &AtomicU64,
    record: bool,
) -> GameResult {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut rec = record.then(|| GameRecord::new(index, seed));
    let mut state = GameState::default();
    let never = AtomicBool::new(false);
    let mut rounds = 0;
    let mut died = false;
    let mut clears = Clears::default();
    while rounds < setup.max_rounds {
        let deal = setup.deal(&mut rng);
        if let Some(r) = rec.as_mut() {
            r.hand(&deal);
        }
        let Some(round) = setup.play_hand(&mut state, deal, &never) else {
            died = true;
            break;
        };
        if let Some(r) = rec.as_mut() {
            r.play(&round.line);
        }
        clears.add(&round.clears);
        rounds += 1;
        if rounds.is_multiple_of(256) {
            progress.fetch_add(256, Ordering::Relaxed);
        }
    }
    progress.fetch_add(rounds % 256, Ordering::Relaxed);
    GameResult {
        index,
        seed,
        rounds,
        score: state.score,
        died,
        clears,
        record: rec.map(|r| r.finish(died, rounds, state.score)),
    }
}

/// The 95% Wilson interval of `k` deaths in `n` rounds.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    lab_kit::stats::wilson(k as f64 / n as f64, n as f64, 1.96)
}

/// The engine's parameters with the `--weights` overrides.
fn settings_of(args: &SelfplayArgs) -> Result<Settings> {
    with_overrides(
        Settings::default(),
        args.weights.iter().flatten().map(String::as_str),
    )
}

/// The beam overrides of `--beam` and `--lookahead`.
fn beam_of(args: &SelfplayArgs) -> BeamOverride {
    BeamOverride {
        widths: args.beam.as_deref().map(|w| [width(w[0]), width(w[1])]),
        lookahead: args.lookahead,
    }
}

/// The summary after all games: deaths with their 95% interval, rounds, points, speed.
fn print_summary(
    args: &SelfplayArgs,
    scoring: Scoring,
    results: &[GameResult],
    secs: f64,
) -> std::io::Result<()> {
    let out = std::io::stdout();
    let mut out = out.lock();
    let (mut deaths, mut rounds, mut points) = (0u64, 0u64, 0u64);
    let mut clears = Clears::default();
    for r in results {
        deaths += r.died as u64;
        rounds += r.rounds;
        points += r.score;
        clears.add(&r.clears);
    }
    let (lo, hi) = wilson(deaths, rounds);
    writeln!(
        out,
        "agent {} scoring {} games {} deaths {deaths} rounds {rounds} max-rounds {}",
        args.agent,
        scoring.name(),
        args.games,
        args.max_rounds
    )?;
    writeln!(
        out,
        "deaths per 1000 rounds {:.4} (95% CI {:.4} - {:.4})",
        1000.0 * deaths as f64 / rounds.max(1) as f64,
        1000.0 * lo,
        1000.0 * hi
    )?;
    writeln!(
        out,
        "mean rounds per game {:.1}",
        rounds as f64 / args.games as f64
    )?;
    writeln!(
        out,
        "points per round {:.2}",
        points as f64 / rounds.max(1) as f64
    )?;
    writeln!(out, "{}", clears.line(rounds))?;
    writeln!(
        out,
        "rounds per second {:.0} ({:.0} per thread, {} threads, {secs:.1} s)",
        rounds as f64 / secs,
        rounds as f64 / secs / args.threads as f64,
        args.threads
    )?;
    Ok(())
}

/// A game's JSON object for `--jsonl` (the agent named as given).
fn json_line(r: &GameResult, agent: &str, scoring: Scoring) -> String {
    format!(
        "{{\"game\":{},\"seed\":{},\"agent\":\"{}\",\"scoring\":\"{}\",\"rounds\":{},\"score\":{},\"died\":{},{}}}",
        r.index,
        r.seed,
        agent,
        scoring.name(),
        r.rounds,
        r.score,
        r.died,
        r.clears.json()
    )
}

/// A chain run: the plan and the players (each with the name it was given).
type ChainRun = (ChainPlan, Vec<ChainAgent>);

/// The agent `spec` of `--compare`, over the `--weights`, `--beam` and `--lookahead`
/// overrides.
fn chain_agent(args: &SelfplayArgs, spec: &str) -> Result<ChainAgent> {
    player_with_overrides(spec, settings_of(args)?, beam_of(args))
}

/// The chain plan and the agents of a `--chain-rounds` run, or `None` without one; the
/// chain-only flags without `--chain-rounds` are an error.
fn chain_plan(args: &SelfplayArgs) -> Result<Option<ChainRun>> {
    let Some(rounds) = args.chain_rounds else {
        for (flag, given) in [
            ("--burn-in", args.burn_in.is_some()),
            ("--probes", args.probes.is_some()),
            ("--compare", args.compare.is_some()),
            ("--split", args.split.is_some()),
        ] {
            if given {
                bail!("{flag} needs --chain-rounds");
            }
        }
        return Ok(None);
    };
    if rounds == 0 {
        bail!("--chain-rounds must be at least 1");
    }
    let probes = args.probes.as_deref().map(Probes::parse).transpose()?;
    let agents = match &args.compare {
        None => vec![chain_agent(args, &args.agent)?],
        Some(pair) => {
            let names: Vec<&str> = pair.split(',').collect();
            if names.len() != 2 || names.iter().any(|n| n.is_empty()) {
                bail!("--compare needs two agents A,B, got {pair:?}");
            }
            names
                .iter()
                .map(|n| chain_agent(args, n))
                .collect::<Result<_>>()?
        }
    };
    let split = match args.split {
        None => None,
        Some(_) if probes.is_none() => bail!("--split needs --probes"),
        Some(copies) if copies < 2 => bail!("--split must be at least 2, got {copies}"),
        Some(_) if !(args.split_at > 0.0 && args.split_at <= 1.0) => {
            bail!(
                "--split-at must be above 0 and at most 1, got {}",
                args.split_at
            )
        }
        Some(_) if args.split_rounds == 0 => bail!("--split-rounds must be at least 1"),
        Some(copies) => Some(crate::chains::Split {
            copies,
            at: args.split_at,
            rounds: args.split_rounds,
        }),
    };
    let plan = ChainPlan {
        rounds,
        burn_in: args.burn_in.unwrap_or(0),
        probes,
        split,
    };
    Ok(Some((plan, agents)))
}

/// What a `selfplay` command line asks for, checked before any game starts.
struct Plan {
    scoring: Scoring,
    chains: Option<ChainRun>,
    player: crate::setup::Player,
    set: Vec<puzzle_rules::blockudoku::Piece>,
    jsonl: Option<std::fs::File>,
    record: Option<std::fs::File>,
    settings: Settings,
}

impl Plan {
    /// Reads and checks every argument clap cannot check alone, opens the files named.
    fn of(args: &SelfplayArgs) -> Result<Plan> {
        let scoring: Scoring = args.scoring.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
        if args.threads == 0 || args.games == 0 || args.max_rounds == 0 {
            bail!("--games, --threads and --max-rounds must be at least 1");
        }
        let chains = chain_plan(args)?;
        if chains.is_none() && args.agent.contains('/') {
            bail!(
                "--agent {:?}: overrides after slashes need --chain-rounds (use --weights)",
                args.agent
            );
        }
        // A chain run's agents carry their own overrides; the set-up's player is the first's.
        let player = match &chains {
            Some((_, agents)) => agents[0].player,
            None => agent_named(&args.agent)?,
        };
        let set = piece_set(args.pieces.as_deref())?;
        let jsonl = args
            .jsonl
            .as_ref()
            .map(|p| {
                std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))
            })
            .transpose()?;
        if args.record.is_some() && chains.is_some() {
            bail!("--record does not go with --chain-rounds");
        }
        let record = args
            .record
            .as_ref()
            .map(|p| {
                std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))
            })
            .transpose()?;
        let settings = settings_of(args)?;
        Ok(Plan {
            scoring,
            chains,
            player,
            set,
            jsonl,
            record,
            settings,
        })
    }
}

/// Runs `blockudoku-lab selfplay`: a value the command line gives that cannot be used exits 2
/// (as a usage error), a failure while playing 1.
pub fn run_selfplay(args: &SelfplayArgs) -> Result<()> {
    let Plan {
        scoring,
        chains,
        player: (agent, objective),
        set,
        jsonl,
        mut record,
        settings,
    } = Plan::of(args).on_command_line()?;
    if let Some(f) = record.as_mut() {
        let comment = format!(
            "blockudoku-lab selfplay --agent {} --seed {} --games {}",
            args.agent, args.seed, args.games
        );
        f.write_all(blockudoku::record::file_header(&set, scoring, &comment).as_bytes())?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()?;
    let beam = beam_of(args);
    let mut setup = Setup {
        beam,
        settings,
        set: &set,
        agent,
        objective,
        scoring,
        max_rounds: args.max_rounds,
    };
    // The run's header: what was asked, with the seed that reproduces it.
    engine_kit::println_or_exit!(
        "selfplay {} {} seed {} scoring {scoring} threads {}",
        if chains.is_some() { "chains" } else { "games" },
        args.games,
        args.seed,
        args.threads
    );
    if let Some((plan, agents)) = chains {
        return crate::chains::run(
            &mut setup,
            &agents,
            &plan,
            args.games,
            args.seed,
            args.threads,
            jsonl,
        );
    }
    play_games(args, &setup, &pool, scoring, jsonl, record)
}

/// Plays the games in parallel, writing each game's line (and JSON object, and record) as it
/// ends, then prints the summary.
fn play_games(
    args: &SelfplayArgs,
    setup: &Setup,
    pool: &rayon::ThreadPool,
    scoring: Scoring,
    jsonl: Option<std::fs::File>,
    record: Option<std::fs::File>,
) -> Result<()> {
    let recording = record.is_some();
    let progress = AtomicU64::new(0);
    let done_games = AtomicU64::new(0);
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    // Each game's line (stdout) and JSON object (--jsonl) are written as soon as it ends, in
    // the order games finish, so an interrupted long run keeps every finished game.
    let sink = std::sync::Mutex::new((std::io::stdout(), jsonl, record));
    let report = |r: &GameResult| -> std::io::Result<()> {
        let mut guard = sink.lock().unwrap_or_else(|e| e.into_inner());
        let (out, jsonl, record) = &mut *guard;
        let result = if r.died { "died" } else { "capped" };
        if tty {
            eprint!("\r{:70}\r", "");
        }
        writeln!(
            out,
            "game {} seed {} rounds {} score {} result {result}",
            r.index, r.seed, r.rounds, r.score
        )?;
        out.flush()?;
        if let Some(f) = jsonl.as_mut() {
            writeln!(f, "{}", json_line(r, &args.agent, scoring))?;
            f.flush()?;
        }
        if let (Some(f), Some(text)) = (record.as_mut(), r.record.as_ref()) {
            f.write_all(text.as_bytes())?;
            f.flush()?;
        }
        Ok(())
    };
    let line = |r: u64, rate: f64| {
        let done = done_games.load(Ordering::Relaxed);
        format!(
            "{done} / {} games, {r} rounds, {rate:.0} rounds/s",
            args.games
        )
    };
    let mut results = with_progress(&progress, start, line, || {
        pool.install(|| {
            // Games are numbered from 1; game i's dealer is the (i-1)-th of the seed's.
            (1..=args.games)
                .into_par_iter()
                .map(|i| {
                    let r = play_game(setup, i, game_seed(args.seed, i - 1), &progress, recording);
                    done_games.fetch_add(1, Ordering::Relaxed);
                    report(&r)?;
                    Ok(r)
                })
                .collect::<std::io::Result<Vec<GameResult>>>()
        })
    })?;
    let secs = start.elapsed().as_secs_f64();
    results.sort_by_key(|r| r.index);
    print_summary(args, scoring, &results, secs)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Player;
    use blockudoku::{Agent, Objective};
    use puzzle_rules::blockudoku::catalogue;

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let (lo, hi) = wilson(10, 1000);
        assert!(lo < 0.01 && 0.01 < hi);
        let (lo, hi) = wilson(0, 1000);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 0.005);
    }

    /// Games of `player` under `scoring` with the built-in pieces and default parameters.
    fn setup((agent, objective): Player, scoring: Scoring, max_rounds: u64) -> Setup<'static> {
        Setup {
            beam: BeamOverride::default(),
            settings: Settings::default(),
            set: catalogue(),
            agent,
            objective,
            scoring,
            max_rounds,
        }
    }

    #[test]
    fn games_are_reproducible() {
        let p = AtomicU64::new(0);
        let setup = setup(
            (Agent::Original, Objective::Survive),
            Scoring::Blockudoku,
            30,
        );
        let a = play_game(&setup, 0, game_seed(1, 0), &p, false);
        let b = play_game(&setup, 0, game_seed(1, 0), &p, false);
        assert_eq!((a.rounds, a.score, a.died), (b.rounds, b.score, b.died));
    }

    // Under the `squared` scoring a placement scores k * k for k regions cleared, so a game's
    // points are the clears' counts weighted by their squares (4 or more: between 16 and 36,
    // six regions at most for a five-cell piece).
    #[test]
    fn clears_account_for_squared_points() {
        let p = AtomicU64::new(0);
        let setup = setup((Agent::Default, Objective::Points), Scoring::Squared, 300);
        let mut clears = Clears::default();
        let mut points = 0;
        for game in 0..4 {
            let r = play_game(&setup, game, game_seed(7, game), &p, false);
            clears.add(&r.clears);
            points += r.score;
        }
        let [one, two, three, more] = clears.regions;
        let fixed = one + 4 * two + 9 * three;
        assert!(one > 0 && two > 0, "{clears:?}");
        assert!(
            (fixed + 16 * more..=fixed + 36 * more).contains(&points),
            "{points} {clears:?}"
        );
        assert!(clears.streak <= one + two + three + more);
        let line = clears.line(1200);
        assert!(line.starts_with("clears per round: 1 region "), "{line}");
    }
}
