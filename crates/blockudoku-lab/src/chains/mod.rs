//! Fixed-exposure hazard measurement (`selfplay --chain-rounds`): the method of blokie's
//! `docs/evaluating-changes.md`, written here from scratch.
//!
//! A death rate per round is what separates strong engines, and deaths are rare (one in
//! 100,000 rounds and fewer), so the measure must be cheap per round and its noise known:
//!
//! - A chain plays games back to back (a new game after each death, same dealer stream)
//!   until it has played exactly `--chain-rounds` measured rounds; the first `--burn-in`
//!   rounds of each game are not measured (the empty board at the start of a game is not the
//!   board the engine lives on). Deaths over a fixed exposure are a Poisson count, so the
//!   hazard gets an exact (Garwood) interval.
//! - `--probes`: at every measured round, the chance that the hand about to be dealt cannot
//!   be placed on the board ([`Dealer`]), exactly or from sampled hands. Its mean estimates
//!   the same hazard without waiting for deaths; its interval is the standard error over
//!   batches of [`BATCH`] measured rounds (batches are far longer than a crowded episode, so
//!   they are close to independent).
//! - `--compare A,B`: both agents play the same chains (same dealer seeds); the hazard ratio
//!   gets the exact conditional interval and p-value (given the total deaths, A's deaths are
//!   binomial with A's share of the exposure), and the probe ratio a delta-method interval.
//!   With `--split`, the ratio of split windows opened gets the same exact interval: how often
//!   each agent enters a crisis, a count several times larger than the deaths (its windows
//!   are taken as independent, which crises that follow one another are not, so the interval
//!   is somewhat narrow).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{bail, Result};
use puzzle_rules::blockudoku::{Board, Dealer, GameState};
use puzzle_rules::rng::SplitMix64;
use rand::SeedableRng;
use rayon::prelude::*;

use crate::setup::{game_seed, with_progress, ChainAgent, Clears, Setup};
use blockudoku::Agent;

mod report;

use report::{compare_lines, json_line, sci, summary_lines};

/// Measured rounds per batch for the probe's standard error.
pub const BATCH: u64 = 1000;

/// Probe levels whose entries are counted (a measured board whose probe is at least the level
/// after one below it, the first board of a game counting as below): crowded stretches
/// far more frequent than deaths or split windows, for screening changes on few rounds. The
/// smallest exact nonzero probe on the 47 pieces is 1 / 47^3, about 9.6e-6, so the first
/// level counts every entry into a board some hand can kill on.
pub const ENTRY_LEVELS: [f64; 4] = [1e-6, 1e-5, 1e-4, 1e-3];

/// How the probe estimates the chance of a dead hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probes {
    /// Every ordered deal of three pieces.
    Exact,
    /// This many hands drawn at random (from a generator of their own, so the games are the
    /// same with and without probes).
    Sampled(u64),
}

impl Probes {
    /// `exact` or a number of hands (at least 1).
    pub fn parse(text: &str) -> Result<Probes> {
        if text == "exact" {
            return Ok(Probes::Exact);
        }
        match text.parse::<u64>() {
            Ok(m) if m >= 1 => Ok(Probes::Sampled(m)),
            _ => bail!("--probes must be exact or a number of hands (at least 1), got {text:?}"),
        }
    }

    fn describe(self, set_size: usize) -> String {
        match self {
            Probes::Exact => format!("exact over {set_size}^3 deals"),
            Probes::Sampled(m) => format!("{m} sampled deals per round"),
        }
    }
}

/// What the chains of a run share besides the game set-up.
pub struct ChainPlan {
    /// Measured rounds per chain.
    pub rounds: u64,
    /// Rounds at the start of each game not measured.
    pub burn_in: u64,
    /// The probe, if any.
    pub probes: Option<Probes>,
    /// Crisis splitting of the probe (needs probes), if any.
    pub split: Option<Split>,
}

/// Crisis splitting, a variance reduction of the probe (`--split K`): most of the probe's
/// mass, and nearly all of its noise, comes from a few deep crises, and how deep one goes is
/// luck of the hands dealt in it. When a measured round starts on a board the next hand kills
/// with chance at least `at` (and no window is open), a window of `rounds` rounds opens and
/// `copies - 1` branches play it again from the same position with hands of their own (each
/// branch's probes summed until its window ends or it dies). When the chain's own window ends
/// (its `rounds` rounds, a death, or the end of the chain: then the branches count the same
/// number of rounds), the chain's probe sum over the window is replaced by the mean of the
/// `copies` window sums. The window's start depends only on the past, and the branches are
/// independent copies of the chain's own window, so the probe's mean is unchanged; its
/// variance falls. The chain itself (its games, deaths and points) is exactly the one played
/// without splitting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    /// Copies of each window, the chain's own included (at least 2).
    pub copies: u64,
    /// Probe that opens a window.
    pub at: f64,
    /// Rounds in a window.
    pub rounds: u64,
}

/// An open window of a split chain.
struct Window {
    /// The chain's own probes in the window.
    own: Vec<f64>,
    /// Each branch's probes, until its window ended or it died.
    branches: Vec<Vec<f64>>,
}

impl Window {
    /// The amount to add to the chain's probe sum when the window closes: the mean of all
    /// copies' sums minus the chain's own. A window cut by the chain's end counts only as many
    /// rounds of each branch as the chain played (`full`: not cut).
    fn correction(&self, full: bool) -> f64 {
        let n = self.own.len();
        let own: f64 = self.own.iter().sum();
        let mut all = own;
        for b in &self.branches {
            let take = if full { b.len() } else { n.min(b.len()) };
            all += b[..take].iter().sum::<f64>();
        }
        all / (self.branches.len() + 1) as f64 - own
    }
}

/// One chain's counts.
pub struct ChainResult {
    index: u64,
    seed: u64,
    deaths: u64,
    /// Measured rounds (deals), the fatal ones included.
    exposure: u64,
    /// Games started.
    games: u64,
    /// Every deal, burn-in included.
    played: u64,
    /// Points scored in measured rounds.
    points: u64,
    /// Clears of measured rounds.
    clears: Clears,
    /// Sum of the probe over measured rounds.
    probe_sum: f64,
    /// The probe's mean over each full batch of `BATCH` measured rounds.
    batches: Vec<f64>,
    /// Rounds played by the branches of split windows.
    branched: u64,
    /// Split windows opened.
    windows: u64,
    /// Measured rounds whose answer the strong agent's hand lookahead chose (`None`: the
    /// agent has none).
    weighed: Option<u64>,
    /// Split windows opened on a board such an answer left.
    windows_weighed: u64,
    /// Entries into each [`ENTRY_LEVELS`] level (with probes; the chain's own boards, not the
    /// split's copies).
    entries: [u64; ENTRY_LEVELS.len()],
}

/// Counts a board whose probe is `d`, after one whose probe was `last`, into the [`ENTRY_LEVELS`]
/// levels it enters.
fn enter(counts: &mut [u64; ENTRY_LEVELS.len()], last: f64, d: f64) {
    for (n, level) in counts.iter_mut().zip(ENTRY_LEVELS) {
        *n += (d >= level && last < level) as u64;
    }
}

impl ChainPlan {
    /// The probe of `board`: the chance that the hand about to be dealt cannot be placed
    /// (0 without probes).
    fn probe(&self, dealer: &Dealer, board: Board, rng: &mut SplitMix64) -> f64 {
        match self.probes {
            Some(Probes::Exact) => dealer.dead_chance(board),
            Some(Probes::Sampled(m)) => dealer.dead_chance_sampled(board, m, rng),
            None => 0.0,
        }
    }
}

impl ChainResult {
    /// A chain's counts before its first round (`weighs`: its agent weighs answers).
    fn new(index: u64, seed: u64, weighs: bool) -> ChainResult {
        ChainResult {
            index,
            seed,
            deaths: 0,
            exposure: 0,
            games: 1,
            played: 0,
            points: 0,
            clears: Clears::default(),
            probe_sum: 0.0,
            batches: Vec::new(),
            branched: 0,
            windows: 0,
            weighed: weighs.then_some(0),
            windows_weighed: 0,
            entries: [0; ENTRY_LEVELS.len()],
        }
    }
}

/// The branches of a split window opened on `state` (whose probe is `d`) after `played`
/// rounds of the chain of `seed`: each plays the window's rounds again with hands of its own
/// (until it dies), and gives its probes; with the rounds they played.
fn play_branches(
    setup: &Setup,
    split: Split,
    seed: u64,
    played: u64,
    (state, d): (GameState, f64),
    probe: &dyn Fn(Board, &mut SplitMix64) -> f64,
) -> (Vec<Vec<f64>>, u64) {
    let never = AtomicBool::new(false);
    let mut branched = 0;
    let branches = (1..split.copies)
        .map(|b| {
            let seed = game_seed(seed ^ 0x7370_6c69_7421, played * 64 + b);
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let mut probe_rng = SplitMix64(seed ^ 0x7072_6f62_6573_2121);
            let mut copy = state;
            let mut probes = vec![d];
            for _ in 1..split.rounds {
                branched += 1;
                if setup.play_round(&mut copy, &mut rng, &never).is_none() {
                    break;
                }
                probes.push(probe(copy.board, &mut probe_rng));
            }
            probes
        })
        .collect();
    (branches, branched)
}

fn play_chain(
    setup: &Setup,
    plan: &ChainPlan,
    index: u64,
    seed: u64,
    progress: &AtomicU64,
) -> ChainResult {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut probe_rng = SplitMix64(seed ^ 0x7072_6f62_6573_2121);
    let dealer = Dealer::new(setup.set);
    let never = AtomicBool::new(false);
    let mut r = ChainResult::new(index, seed, setup.agent.search() == Agent::Strong);
    let probe = |board, rng: &mut SplitMix64| plan.probe(&dealer, board, rng);
    let (mut batch_sum, mut batch_n) = (0.0, 0);
    let mut state = GameState::default();
    let mut in_game = 0u64;
    let mut window: Option<Window> = None;
    // The answer that left the board on hand was weighed.
    let mut weighed = false;
    // The previous measured board's probe (0 at the start of a game).
    let mut last = 0.0;
    while r.exposure < plan.rounds {
        let measured = in_game >= plan.burn_in;
        if measured && plan.probes.is_some() {
            let d = probe(state.board, &mut probe_rng);
            enter(&mut r.entries, last, d);
            last = d;
            if let (Some(split), None) = (plan.split, &window) {
                if d >= split.at {
                    r.windows += 1;
                    r.windows_weighed += weighed as u64;
                    let (branches, branched) =
                        play_branches(setup, split, seed, r.played, (state, d), &probe);
                    r.branched += branched;
                    window = Some(Window {
                        own: Vec::new(),
                        branches,
                    });
                }
            }
            r.probe_sum += d;
            batch_sum += d;
            batch_n += 1;
            if let Some(w) = window.as_mut() {
                w.own.push(d);
                if w.own.len() as u64 == plan.split.map_or(0, |s| s.rounds) {
                    let c = w.correction(true);
                    r.probe_sum += c;
                    batch_sum += c;
                    window = None;
                }
            }
            if batch_n == BATCH {
                r.batches.push(batch_sum / BATCH as f64);
                (batch_sum, batch_n) = (0.0, 0);
            }
        }
        if measured {
            r.exposure += 1;
        }
        let before = state.score;
        let round = setup.play_round(&mut state, &mut rng, &never);
        r.played += 1;
        if r.played.is_multiple_of(256) {
            progress.fetch_add(256, Ordering::Relaxed);
        }
        weighed = round.is_some_and(|x| x.weighed);
        let Some(round) = round else {
            if let Some(w) = window.take() {
                let c = w.correction(true);
                r.probe_sum += c;
                batch_sum += c;
            }
            r.deaths += measured as u64;
            if r.exposure < plan.rounds {
                r.games += 1;
            }
            state = GameState::default();
            in_game = 0;
            last = 0.0;
            continue;
        };
        if measured {
            r.points += state.score - before;
            r.clears.add(&round.clears);
            if let Some(w) = r.weighed.as_mut() {
                *w += round.weighed as u64;
            }
        }
        in_game += 1;
    }
    if let Some(w) = window.take() {
        // Cut by the chain's end: the last batch is partial and not in `batches`.
        r.probe_sum += w.correction(false);
    }
    progress.fetch_add(r.played % 256, Ordering::Relaxed);
    r
}

/// Runs `chains` chains of `setup` (dealer seeds from `seed`), printing each chain's line as
/// it ends; returns the results in chain order and the seconds taken.
#[allow(clippy::too_many_arguments)]
fn run_agent(
    setup: &Setup,
    name: &str,
    plan: &ChainPlan,
    chains: u64,
    seed: u64,
    pool: &rayon::ThreadPool,
    jsonl: &mut Option<std::fs::File>,
) -> Result<(Vec<ChainResult>, f64)> {
    let progress = AtomicU64::new(0);
    let start = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let total = plan.rounds * chains;
    let sink = std::sync::Mutex::new((std::io::stdout(), jsonl));
    let report = |r: &ChainResult| -> std::io::Result<()> {
        let mut guard = sink.lock().unwrap_or_else(|e| e.into_inner());
        let (out, jsonl) = &mut *guard;
        if tty {
            eprint!("\r{:70}\r", "");
        }
        let probe = match plan.probes {
            Some(_) => format!(" probe {}", sci(r.probe_sum / r.exposure.max(1) as f64)),
            None => String::new(),
        };
        writeln!(
            out,
            "chain {} agent {name} seed {} rounds {} deaths {} games {} points {}{probe}",
            r.index, r.seed, r.exposure, r.deaths, r.games, r.points
        )?;
        out.flush()?;
        if let Some(f) = jsonl.as_mut() {
            writeln!(f, "{}", json_line(r, name, setup.scoring, plan))?;
            f.flush()?;
        }
        Ok(())
    };
    let line =
        |r: u64, rate: f64| format!("{name}: about {r} / {total} rounds, {rate:.0} rounds/s");
    let mut results = with_progress(&progress, start, line, || {
        pool.install(|| {
            // Chains are numbered from 1; chain i's dealer is the (i-1)-th of the seed's.
            (1..=chains)
                .into_par_iter()
                .map(|i| {
                    let r = play_chain(setup, plan, i, game_seed(seed, i - 1), &progress);
                    report(&r)?;
                    Ok(r)
                })
                .collect::<std::io::Result<Vec<ChainResult>>>()
        })
    })?;
    results.sort_by_key(|r| r.index);
    Ok((results, start.elapsed().as_secs_f64()))
}

/// Runs the chain mode of `selfplay`: one agent, or two (`compare`) on the same chains.
#[allow(clippy::too_many_arguments)]
pub fn run(
    setup: &mut Setup,
    agents: &[ChainAgent],
    plan: &ChainPlan,
    chains: u64,
    seed: u64,
    threads: usize,
    mut jsonl: Option<std::fs::File>,
) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut runs = Vec::new();
    for a in agents {
        (setup.agent, setup.objective) = a.player;
        setup.settings = a.settings;
        setup.beam = a.beam;
        let (results, secs) = run_agent(setup, &a.name, plan, chains, seed, &pool, &mut jsonl)?;
        runs.push((a.name.as_str(), results, secs));
    }
    let mut lines = Vec::new();
    for (name, results, secs) in &runs {
        lines.extend(summary_lines(
            name,
            setup.scoring,
            plan,
            setup.set.len(),
            results,
            *secs,
            threads,
        ));
    }
    if let [(a, ra, _), (b, rb, _)] = &runs[..] {
        lines.extend(compare_lines([a, b], ra, rb));
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    for l in lines {
        writeln!(out, "{l}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::BeamOverride;
    use blockudoku::{Objective, Settings};
    use puzzle_rules::blockudoku::{catalogue, Piece, Scoring};

    fn setup(set: &[Piece]) -> Setup<'_> {
        Setup {
            // A weak, fast player (narrow beam, no lookahead) that dies often.
            beam: BeamOverride {
                widths: Some([2, 1]),
                lookahead: Some(0),
            },
            settings: Settings::default(),
            set,
            agent: Agent::Default,
            objective: Objective::Survive,
            scoring: Scoring::Blockudoku,
            max_rounds: u64::MAX,
        }
    }

    /// The hard piece set, ids 14-47.
    fn hard_set() -> Vec<Piece> {
        (14..=47)
            .map(|id| Piece::catalogue(id).unwrap().clone())
            .collect()
    }

    #[test]
    fn chains_have_fixed_exposure_and_count_only_measured_deaths() {
        // A weak player on the hard pieces dies every few hundred rounds.
        let set = hard_set();
        let s = setup(&set);
        let p = AtomicU64::new(0);
        let plan = ChainPlan {
            rounds: 1500,
            burn_in: 20,
            probes: Some(Probes::Sampled(50)),
            split: None,
        };
        let r = play_chain(&s, &plan, 0, 9, &p);
        assert_eq!(r.exposure, 1500);
        assert!(r.deaths >= 1, "the weak player survived 1500 hard rounds");
        // Every game but the last ended in a death, measured or in its burn-in.
        assert!(r.games > r.deaths);
        // Burn-in rounds are played, not measured: at most 20 per game.
        assert!(r.played > r.exposure && r.played <= r.exposure + 20 * r.games);
        assert_eq!(r.batches.len(), 1);
        // Same seed, same chain; probes do not change the games.
        let again = play_chain(
            &s,
            &ChainPlan {
                probes: None,
                ..plan
            },
            0,
            9,
            &p,
        );
        assert_eq!(
            (again.deaths, again.games, again.points),
            (r.deaths, r.games, r.points)
        );
        assert_eq!(again.probe_sum, 0.0);
        assert_eq!(again.entries, [0; ENTRY_LEVELS.len()]);
        // The weak player's boards on the hard pieces reach every level.
        assert!(r.entries.iter().all(|&n| n > 0), "{:?}", r.entries);
        // The probe sees danger where the games die: its sum is of the order of the deaths.
        assert!(
            r.probe_sum > 0.2 * r.deaths as f64,
            "{} {}",
            r.probe_sum,
            r.deaths
        );
    }

    #[test]
    fn split_windows_leave_the_games_alone_and_keep_the_probe_mean() {
        let set = hard_set();
        let s = setup(&set);
        let p = AtomicU64::new(0);
        let plain = ChainPlan {
            rounds: 1500,
            burn_in: 20,
            probes: Some(Probes::Exact),
            split: None,
        };
        let split = ChainPlan {
            split: Some(Split {
                copies: 8,
                at: 0.01,
                rounds: 10,
            }),
            ..plain
        };
        let (mut sum_plain, mut sum_split, mut windows) = (0.0, 0.0, 0);
        for chain in 0..12 {
            let a = play_chain(&s, &plain, chain, 100 + chain, &p);
            let b = play_chain(&s, &split, chain, 100 + chain, &p);
            // The chain is the same game for game: splitting only changes the probe.
            assert_eq!(
                (a.deaths, a.games, a.points, a.played, a.exposure),
                (b.deaths, b.games, b.points, b.played, b.exposure)
            );
            assert_eq!((a.windows, a.branched), (0, 0));
            assert!(b.branched <= b.windows * 7 * 9);
            windows += b.windows;
            sum_plain += a.probe_sum;
            sum_split += b.probe_sum;
        }
        assert!(windows > 50, "{windows} windows");
        // Same mean: the weak player's probe sum is about eight deaths per chain, and the two
        // estimates of it agree to well within their noise.
        let ratio = sum_split / sum_plain;
        assert!((0.75..1.33).contains(&ratio), "{sum_split} / {sum_plain}");
    }

    #[test]
    fn a_window_counts_the_mean_of_its_copies() {
        let w = Window {
            own: vec![0.1, 0.2],
            branches: vec![vec![0.1, 0.5, 0.3], vec![0.1]],
        };
        // Full: own 0.3, branches 0.9 and 0.1, mean 1.3 / 3.
        assert!((w.correction(true) - (1.3 / 3.0 - 0.3)).abs() < 1e-12);
        // Cut at the chain's end after 2 rounds: the branches count 0.6 and 0.1.
        assert!((w.correction(false) - (1.0 / 3.0 - 0.3)).abs() < 1e-12);
    }

    #[test]
    fn probe_values_parse() {
        assert_eq!(Probes::parse("exact").unwrap(), Probes::Exact);
        assert_eq!(Probes::parse("30").unwrap(), Probes::Sampled(30));
        for bad in ["0", "-1", "x", ""] {
            assert!(Probes::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Probes::Exact.describe(catalogue().len()),
            "exact over 47^3 deals"
        );
    }

    #[test]
    fn comparison_of_identical_counts_is_not_significant() {
        let chain = |deaths| ChainResult {
            index: 0,
            seed: 0,
            deaths,
            exposure: 100_000,
            games: deaths + 1,
            played: 100_000,
            points: 0,
            clears: Clears::default(),
            probe_sum: 0.0,
            batches: vec![],
            branched: 0,
            windows: 0,
            weighed: None,
            windows_weighed: 0,
            entries: [0; ENTRY_LEVELS.len()],
        };
        let lines = compare_lines(["a", "b"], &[chain(10)], &[chain(10)]);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].contains("hazard ratio 1.000") && lines[0].ends_with("p-value 1.0000"));
        let lines = compare_lines(["a", "b"], &[chain(2)], &[chain(20)]);
        assert!(lines[0].contains("hazard ratio 0.100"), "{}", lines[0]);
        // With split windows, their counts compare the same way.
        let split = |windows| ChainResult {
            windows,
            ..chain(10)
        };
        let lines = compare_lines(["a", "b"], &[split(300)], &[split(200)]);
        assert_eq!(lines.len(), 2);
        assert!(
            lines[1].contains("window ratio 1.500") && lines[1].contains("on 500 windows"),
            "{}",
            lines[1]
        );
        let (low, high) = (
            lines[1].find("CI ").unwrap(),
            lines[1].find(", exact").unwrap(),
        );
        let ci: Vec<f64> = lines[1][low + 3..high]
            .split(" - ")
            .map(|x| x.parse().unwrap())
            .collect();
        assert!(
            ci[0] > 1.2 && ci[0] < 1.5 && ci[1] > 1.5 && ci[1] < 1.9,
            "{ci:?}"
        );
        // Entries compare the same way, one line per level either agent entered.
        let entered = |entries| ChainResult {
            entries,
            ..chain(10)
        };
        let lines = compare_lines(
            ["a", "b"],
            &[entered([400, 0, 30, 0])],
            &[entered([200, 0, 0, 0])],
        );
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(
            lines[1].contains("entries at 1.00e-6 ratio 2.000")
                && lines[1].contains("on 600 entries"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].contains("entries at 1.00e-4 ratio inf"),
            "{}",
            lines[2]
        );
    }

    #[test]
    fn entries_count_crossings_from_below() {
        let mut counts = [0; ENTRY_LEVELS.len()];
        let mut last = 0.0;
        // Up to 2e-5 (two levels), stay, down to 0, up to 5e-3 (all four), down to 2e-4
        // (none), up to 2e-3 (the 1e-3 level again).
        for d in [2e-5, 3e-5, 0.0, 5e-3, 2e-4, 2e-3] {
            enter(&mut counts, last, d);
            last = d;
        }
        assert_eq!(counts, [2, 2, 1, 2]);
    }
}
