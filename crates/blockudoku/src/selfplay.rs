//! `selfplay` (seeded games, death rate per round) and `bench` (node-count signature).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use puzzle_rules::blockudoku::{can_place_all, catalogue, Board, GameState, Piece, Scoring};

use crate::chains::{ChainPlan, Probes};
use crate::search::{self, Agent, Control, Objective, WEIGHTS};

/// Arguments of `blockudoku selfplay`.
#[derive(clap::Args)]
pub struct SelfplayArgs {
    /// Number of games.
    #[arg(long)]
    games: u64,
    /// Seed of the dealer (game i uses a seed derived from this and i).
    #[arg(long)]
    seed: u64,
    /// Stop a game after this many rounds (counted as capped, not as a death).
    #[arg(long, default_value_t = 100_000)]
    max_rounds: u64,
    /// Worker threads (games run in parallel, one search thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Agent: default, original (alias seed) or strong, optionally with an objective after a
    /// colon (`default:points`; survive when none); the summary names it as given. With
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
    /// Beam widths after the first and second placement (0 = no pruning; without it each
    /// objective's own: 10 6 to survive, 30 15 for points).
    #[arg(long, num_args = 2, value_names = ["W1", "W2"])]
    beam: Option<Vec<usize>>,
    /// Evaluation weight overrides for tuning, comma-separated name=value (the names of the
    /// `eval` command's terms, plus nofit_from, no_fit and wide_below).
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
    /// overrides of its own after slashes, e.g. `strong,strong/death=40000000`) on the same
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
}

/// Clearing placements: how many cleared 1, 2, 3, and 4 or more regions at once, and how many
/// came right after a clearing placement (a streak, which the `blockudoku` scoring rewards).
/// Where a points objective's points come from: with `blockudoku` scoring two regions at once
/// score as much as two one at a time, three score twice as much.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Clears {
    /// Placements that cleared 1, 2, 3, and 4 or more regions.
    pub(crate) regions: [u64; 4],
    /// Clearing placements right after a clearing placement.
    pub(crate) streak: u64,
}

impl Clears {
    /// Counts a placement that cleared `regions` regions with `streak` clearing placements
    /// in a row before it.
    fn count(&mut self, regions: u32, streak: u32) {
        if regions > 0 {
            self.regions[(regions as usize).min(4) - 1] += 1;
            self.streak += (streak > 0) as u64;
        }
    }

    /// Adds `other`'s counts.
    pub(crate) fn add(&mut self, other: &Clears) {
        for (a, b) in self.regions.iter_mut().zip(other.regions) {
            *a += b;
        }
        self.streak += other.streak;
    }

    /// The summary line: each count per round over `rounds` rounds.
    pub(crate) fn line(&self, rounds: u64) -> String {
        let per = |n: u64| n as f64 / rounds.max(1) as f64;
        let [one, two, three, more] = self.regions.map(per);
        format!(
            "clears per round: 1 region {one:.4}, 2 regions {two:.4}, 3 regions {three:.4}, 4 or more {more:.4}; in a streak {:.4}",
            per(self.streak)
        )
    }

    /// The counts as JSON fields (`clears`: the four counts; `streak_clears`).
    pub(crate) fn json(&self) -> String {
        let [a, b, c, d] = self.regions;
        format!(
            "\"clears\":[{a},{b},{c},{d}],\"streak_clears\":{}",
            self.streak
        )
    }
}

pub(crate) fn game_seed(seed: u64, index: u64) -> u64 {
    // splitmix64 of (seed, index): neighbouring games get unrelated dealers.
    let mut z = seed
        ^ index
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(0x632b_e59b_d9b4_e019);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Beam widths that replace an objective's own (`--beam`, `--lookahead`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BeamOverride {
    /// Widths after the first and second placement.
    pub(crate) widths: Option<[usize; 2]>,
    /// Final boards re-ranked by the lookahead.
    pub(crate) lookahead: Option<usize>,
}

impl BeamOverride {
    /// `beam` with the overrides.
    pub(crate) fn apply(self, mut beam: search::Beam) -> search::Beam {
        if let Some([a, b]) = self.widths {
            beam[0] = a;
            beam[1] = b;
        }
        if let Some(k) = self.lookahead {
            beam[2] = k;
        }
        beam
    }
}

/// What every game of a run shares.
pub(crate) struct Setup<'a> {
    /// What replaces parts of the objective's own beam.
    pub(crate) beam: BeamOverride,
    pub(crate) weights: search::Weights,
    /// The weights of objective points (with the same overrides).
    pub(crate) points_weights: search::Weights,
    pub(crate) set: &'a [Piece],
    pub(crate) agent: Agent,
    pub(crate) objective: Objective,
    pub(crate) scoring: Scoring,
    pub(crate) max_rounds: u64,
}

/// One round's answer, played.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Round {
    /// Its clears.
    pub(crate) clears: Clears,
    /// The strong agent's hand lookahead chose it (not the default agent's move).
    pub(crate) weighed: bool,
}

impl Setup<'_> {
    /// Deals one hand from `rng` and plays the agent's answer on `state`, or `None` when the
    /// hand cannot be placed (the game is lost).
    pub(crate) fn play_round(
        &self,
        state: &mut GameState,
        rng: &mut rand::rngs::SmallRng,
        never: &AtomicBool,
    ) -> Option<Round> {
        let ids = [(); 3].map(|_| rng.gen_range(0..self.set.len()));
        self.play_hand(state, ids, never)
    }

    /// Plays the agent's answer to the hand of set indices `ids` on `state`, or `None` when
    /// the hand cannot be placed (the game is lost).
    pub(crate) fn play_hand(
        &self,
        state: &mut GameState,
        ids: [usize; 3],
        never: &AtomicBool,
    ) -> Option<Round> {
        let set = self.set;
        let hand = search::hand_of(set, &ids);
        let ctl = Control::new(never, u64::MAX);
        let weights = match self.objective {
            Objective::Points => self.points_weights,
            Objective::Survive => self.weights,
        };
        let job = search::Job {
            board: state.board,
            hand: &hand,
            agent: self.agent,
            weights: &weights,
            threads: 1,
            ctl: &ctl,
            beam: self.beam.apply(self.objective.beam()),
            tally: search::Tally {
                scoring: self.scoring,
                streak: state.streak,
            },
        };
        let out = job.run(set);
        let Some((line, _)) = out.best else {
            // The agent lost the game: say so when the hand could have been placed (an
            // engine bug that measurements must not hide).
            let pieces: Vec<&Piece> = hand.iter().map(|h| h.1).collect();
            if can_place_all(state.board, &pieces) {
                eprintln!(
                    "warning: agent {} gave up a hand that can be placed: board {} hand {:?}",
                    self.agent.name(),
                    state.board,
                    pieces
                        .iter()
                        .map(|p| p.id().unwrap_or(0))
                        .collect::<Vec<_>>()
                );
            }
            return None;
        };
        let mut clears = Clears::default();
        for step in line {
            let piece = hand[step.slot].1;
            let a = step.anchor as usize;
            let streak = state.streak;
            let placed = state
                .place(piece, a / 9, a % 9, self.scoring)
                .expect("search returns legal placements");
            clears.count(placed.regions, streak);
        }
        Some(Round {
            clears,
            weighed: out.deep,
        })
    }
}

fn play_game(setup: &Setup, index: u64, seed: u64, progress: &AtomicU64) -> GameResult {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut state = GameState::default();
    let never = AtomicBool::new(false);
    let mut rounds = 0;
    let mut died = false;
    let mut clears = Clears::default();
    while rounds < setup.max_rounds {
        let Some(round) = setup.play_round(&mut state, &mut rng, &never) else {
            died = true;
            break;
        };
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
    }
}

/// The piece set of `--pieces`: the file's pieces, or the built-in 47 without one.
pub(crate) fn piece_set(path: Option<&std::path::Path>) -> Result<Vec<Piece>> {
    match path {
        Some(p) => load_pieces(p),
        None => Ok(catalogue().to_vec()),
    }
}

fn load_pieces(path: &std::path::Path) -> Result<Vec<Piece>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read piece file {}", path.display()))?;
    let mut set = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let last = line.split_whitespace().last().unwrap_or(line);
        let piece =
            Piece::parse(last).map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), n + 1))?;
        set.push(piece);
    }
    if set.is_empty() {
        bail!("piece file {} holds no pieces", path.display());
    }
    Ok(set)
}

/// The 95% Wilson interval of `k` deaths in `n` rounds.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    engine_kit::stats::wilson(k as f64 / n as f64, n as f64, 1.96)
}

/// The weights `base` with the `--weights` overrides.
fn weights_of(args: &SelfplayArgs, base: search::Weights) -> Result<search::Weights> {
    with_overrides(base, args.weights.iter().flatten().map(String::as_str))
}

/// `base` with the overrides `items` (each `name=value`).
pub(crate) fn with_overrides<'a>(
    base: search::Weights,
    items: impl IntoIterator<Item = &'a str>,
) -> Result<search::Weights> {
    let mut weights = base;
    for item in items {
        let (name, value) = item
            .split_once('=')
            .with_context(|| format!("weight override {item:?} is not name=value"))?;
        let value: i64 = value
            .parse()
            .with_context(|| format!("weight {name}: {value:?} is not an integer"))?;
        weights.set(name, value).map_err(anyhow::Error::msg)?;
    }
    Ok(weights)
}

/// A beam width as `--beam` takes it: 0 is no pruning.
fn width(w: usize) -> usize {
    if w == 0 {
        usize::MAX
    } else {
        w
    }
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

/// An agent and what it plays for.
pub(crate) type Player = (Agent, Objective);

/// The player called `name` (`agent` or `agent:objective`), or the error naming the choices.
pub(crate) fn agent_named(name: &str) -> Result<Player> {
    let (agent, objective) = match name.split_once(':') {
        Some((a, o)) => (a, Some(o)),
        None => (name, None),
    };
    let agent = Agent::from_name(agent).with_context(|| {
        let names: Vec<&str> = search::AGENTS.iter().map(|a| a.name()).collect();
        format!("unknown agent {agent:?} ({})", names.join(", "))
    })?;
    let objective = match objective {
        None => Objective::Survive,
        Some(o) => Objective::from_name(o).with_context(|| {
            let names: Vec<&str> = search::OBJECTIVES.iter().map(|o| o.name()).collect();
            format!("unknown objective {o:?} in {name:?} ({})", names.join(", "))
        })?,
    };
    Ok((agent, objective))
}

/// A chain run: the plan and the players (each with the name it was given).
type ChainRun = (ChainPlan, Vec<ChainAgent>);

/// One agent of a chain run or of `crises`: the player, its name as given, its weights
/// (`--weights`, then the overrides after slashes in its name) and its beam overrides.
#[derive(Debug)]
pub(crate) struct ChainAgent {
    pub(crate) player: Player,
    pub(crate) name: String,
    pub(crate) weights: search::Weights,
    pub(crate) points_weights: search::Weights,
    pub(crate) beam: BeamOverride,
}

/// The agent `spec` (`agent[:objective][/name=value...]`, as `--compare` and `crises
/// --agents` take it), named as given: the player, and its weights and points weights, `base` and
/// `base_points` with the overrides after the slashes, and its beam, `base_beam` with the
/// items `beam1` and `beam2` (together: the widths of `--beam`, 0 = no pruning) and
/// `lookahead` (as `--lookahead`).
pub(crate) fn player_with_overrides(
    spec: &str,
    base: search::Weights,
    base_points: search::Weights,
    base_beam: BeamOverride,
) -> Result<ChainAgent> {
    let mut parts = spec.split('/');
    let player = agent_named(parts.next().unwrap_or(""))?;
    let mut overrides: Vec<&str> = Vec::new();
    let mut beam = base_beam;
    let mut widths = [None, None];
    for item in parts {
        let Some((name @ ("beam1" | "beam2" | "lookahead"), value)) = item.split_once('=') else {
            overrides.push(item);
            continue;
        };
        let value: usize = value
            .parse()
            .with_context(|| format!("agent {spec:?}: {name} {value:?} is not a width"))?;
        match name {
            "lookahead" => beam.lookahead = Some(value),
            _ => widths[(name == "beam2") as usize] = Some(value),
        }
    }
    match widths {
        [None, None] => {}
        [Some(a), Some(b)] => beam.widths = Some([width(a), width(b)]),
        _ => bail!("agent {spec:?}: beam1 and beam2 go together"),
    }
    let with = |base| {
        with_overrides(base, overrides.iter().copied()).with_context(|| format!("agent {spec:?}"))
    };
    Ok(ChainAgent {
        player,
        name: spec.to_string(),
        weights: with(base)?,
        points_weights: with(base_points)?,
        beam,
    })
}

/// The agent `spec` of `--compare`, over the `--weights`, `--beam` and `--lookahead`
/// overrides.
fn chain_agent(args: &SelfplayArgs, spec: &str) -> Result<ChainAgent> {
    player_with_overrides(
        spec,
        weights_of(args, WEIGHTS)?,
        weights_of(args, search::POINTS_WEIGHTS)?,
        beam_of(args),
    )
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

/// Runs `blockudoku selfplay`.
pub fn run_selfplay(args: &SelfplayArgs) -> Result<()> {
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
    let (agent, objective) = match &chains {
        Some((_, agents)) => agents[0].player,
        None => agent_named(&args.agent)?,
    };
    let set = piece_set(args.pieces.as_deref())?;
    let jsonl = args
        .jsonl
        .as_ref()
        .map(|p| std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display())))
        .transpose()?;
    let weights = weights_of(args, WEIGHTS)?;
    let points_weights = weights_of(args, search::POINTS_WEIGHTS)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()?;
    let beam = beam_of(args);
    let mut setup = Setup {
        beam,
        weights,
        points_weights,
        set: &set,
        agent,
        objective,
        scoring,
        max_rounds: args.max_rounds,
    };
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
    let setup = setup;
    let progress = AtomicU64::new(0);
    let done_games = AtomicU64::new(0);
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    // Each game's line (stdout) and JSON object (--jsonl) are written as soon as it ends, in
    // the order games finish, so an interrupted long run keeps every finished game.
    let sink = std::sync::Mutex::new((std::io::stdout(), jsonl));
    let report = |r: &GameResult| -> std::io::Result<()> {
        let mut guard = sink.lock().unwrap_or_else(|e| e.into_inner());
        let (out, jsonl) = &mut *guard;
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
            (0..args.games)
                .into_par_iter()
                .map(|i| {
                    let r = play_game(&setup, i, game_seed(args.seed, i), &progress);
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

/// Arguments of `blockudoku bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Node limit per position.
    #[arg(long, default_value_t = 50_000)]
    nodes: u64,
}

/// The bench positions: seeded random boards (about 30% full) with hands that can be placed.
pub fn bench_positions() -> Vec<(Board, [usize; 3])> {
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
        bail!("--nodes must be at least 1");
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
        let ctl = Control::new(&never, args.nodes);
        total += search::search(
            *board,
            &hand,
            Agent::Default,
            &WEIGHTS,
            1,
            &ctl,
            search::FULL_BEAM,
        )
        .nodes;
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

/// Runs `work`; meanwhile, when stderr is a terminal, a status line there shows
/// `line(rounds so far, rounds per second)`, redrawn every 200 ms and wiped at the end.
pub(crate) fn with_progress<T>(
    progress: &AtomicU64,
    start: Instant,
    line: impl Fn(u64, f64) -> String + Sync,
    work: impl FnOnce() -> T,
) -> T {
    let finished = AtomicBool::new(false);
    std::thread::scope(|s| {
        if std::io::stderr().is_terminal() {
            s.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    let r = progress.load(Ordering::Relaxed);
                    let rate = r as f64 / start.elapsed().as_secs_f64().max(1e-9);
                    eprint!("\r{}   ", line(r, rate));
                }
                eprint!("\r{:70}\r", "");
            });
        }
        let out = work();
        finished.store(true, Ordering::Relaxed);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let (lo, hi) = wilson(10, 1000);
        assert!(lo < 0.01 && 0.01 < hi);
        let (lo, hi) = wilson(0, 1000);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 0.005);
    }

    // Without overrides each objective searches with its own beam; `--beam` replaces the
    // widths only and `--lookahead` the lookahead only.
    #[test]
    fn beam_overrides_replace_only_what_they_name() {
        let none = BeamOverride::default();
        assert_eq!(none.apply(Objective::Survive.beam()), search::DEFAULT_BEAM);
        assert_eq!(none.apply(Objective::Points.beam()), search::POINTS_BEAM);
        let widths = BeamOverride {
            widths: Some([usize::MAX, 3]),
            lookahead: None,
        };
        let points = Objective::Points.beam();
        assert_eq!(widths.apply(points), [usize::MAX, 3, points[2]]);
        let lookahead = BeamOverride {
            widths: None,
            lookahead: Some(0),
        };
        assert_eq!(lookahead.apply(points), [points[0], points[1], 0]);
    }

    // An agent spec's beam items replace the base beam's parts they name (beam1 and beam2
    // together, 0 = no pruning) and are not weights; a lone width or a bad one is an error.
    #[test]
    fn agent_specs_take_beam_items() {
        let base = BeamOverride {
            widths: Some([5, 4]),
            lookahead: None,
        };
        let spec = |s: &str| player_with_overrides(s, WEIGHTS, search::POINTS_WEIGHTS, base);
        let a = spec("strong/beam1=10/death=7/beam2=0").unwrap();
        assert_eq!(a.player, (Agent::Strong, Objective::Survive));
        assert_eq!(a.weights.death, 7);
        assert_eq!(a.beam.widths, Some([10, usize::MAX]));
        assert_eq!(a.beam.lookahead, None);
        let a = spec("default/lookahead=0").unwrap();
        assert_eq!(a.weights, WEIGHTS);
        assert_eq!(a.beam.apply(search::DEFAULT_BEAM), [5, 4, 0]);
        assert_eq!(
            spec("strong").unwrap().beam.apply(search::DEFAULT_BEAM),
            [5, 4, 4]
        );
        for bad in [
            "strong/beam1=10",
            "strong/beam2=3",
            "strong/lookahead=-1",
            "strong/beam1=x/beam2=1",
        ] {
            let e = spec(bad).unwrap_err();
            assert!(format!("{e:#}").contains("agent"), "{bad}: {e:#}");
        }
    }

    /// Games of `player` under `scoring` with the built-in pieces and default weights.
    fn setup((agent, objective): Player, scoring: Scoring, max_rounds: u64) -> Setup<'static> {
        Setup {
            beam: BeamOverride::default(),
            weights: WEIGHTS,
            points_weights: search::POINTS_WEIGHTS,
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
        let a = play_game(&setup, 0, game_seed(1, 0), &p);
        let b = play_game(&setup, 0, game_seed(1, 0), &p);
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
            let r = play_game(&setup, game, game_seed(7, game), &p);
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
