//! `bench-solver`: the solver's speed on fixed puzzle sets, as "find a solution and prove it
//! unique" (count to 2), single thread. By default the sets are the project's own 9x9
//! collections (`crates/rules/data/sudoku`, made by `generate --set`); `--file` takes any
//! collection, one puzzle per line.
//!
//! Puzzles are parsed before timing. `us/puzzle` and `puzzles/s` come from the fastest of 3
//! passes over the set (one clock read per pass), in the CPU time of the timing thread where
//! the system gives it (Linux on 64-bit targets; the machine line says `clock thread-cpu`,
//! else `clock wall`), so time spent preempted by other processes does not count; `us
//! (best)` and `median us` (wall time) from each
//! puzzle's fastest of 3 timings taken in 3 further passes (never back to back, which would
//! train the branch predictor on one puzzle). On a shared machine the per-puzzle minimum
//! filters out time stolen by other processes, so those two columns are the steadier ones.
//! The solution-count histogram doubles as a signature: a
//! solver change that moves it is a bug. `nodes/puzzle` is the solver's mean search nodes
//! (the root included), the same on every machine: a solver change that moves it says so.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use engine_kit::cli::CommandLineCheck;
use puzzle_rules::sudoku::generate::{generate, Difficulty};
use puzzle_rules::sudoku::puzzle_set::PuzzleSet;
use puzzle_rules::sudoku::solver::{count_solutions, run as solve_request, Request};
use puzzle_rules::sudoku::{Board, Shape};

use super::input::read_puzzles;

/// Runs per set; the fastest counts.
const ROUNDS: usize = 3;

/// The collections timed by default: the 9x9 sets (the solution-count cases are test
/// material of every shape, not a benchmark).
const COLLECTIONS: [PuzzleSet; 4] = [
    PuzzleSet::Minimal,
    PuzzleSet::Hard,
    PuzzleSet::Multiple,
    PuzzleSet::NoSolution,
];

/// Where the repository's puzzle collections are: `crates/rules/data/sudoku` from the
/// working directory (a checkout's top), else in the checkout this binary was built from.
fn data_dir() -> Result<PathBuf> {
    let candidates = [
        PathBuf::from("crates/rules/data/sudoku"),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../rules/data/sudoku"),
    ];
    candidates
        .into_iter()
        .find(|p| p.join(COLLECTIONS[0].file_name()).is_file())
        .ok_or_else(|| anyhow!("cannot find crates/rules/data/sudoku: pass --file"))
}

/// The sets of the puzzle files (the project's collections when none is given); a bad line
/// fails the run, since a timing over a set with holes would mislead.
fn file_sets(files: Vec<PathBuf>) -> Result<Vec<(String, Vec<Board>)>> {
    let mut sets = Vec::new();
    let files = if files.is_empty() {
        let dir = data_dir()?;
        COLLECTIONS
            .iter()
            .map(|s| dir.join(s.file_name()))
            .collect()
    } else {
        files
    };
    for path in files {
        // A timing over a set with holes would mislead: any bad line fails the run.
        let boards = read_puzzles(&path)?
            .into_iter()
            .map(|(no, p)| {
                p.and_then(|p| p.board())
                    .map_err(|e| anyhow!("{} line {no}: {e}", path.display()))
            })
            .collect::<Result<Vec<_>>>()?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        sets.push((name, boards));
    }
    Ok(sets)
}

pub fn run(files: Vec<PathBuf>, generated: Vec<String>) -> Result<()> {
    // Every `--generated` is checked before any work: a bad one is a bad command line.
    let generated = generated
        .iter()
        .map(|spec| GeneratedSet::parse(spec))
        .collect::<Result<Vec<_>>>()
        .on_command_line()?;
    let mut sets = file_sets(files)?;
    for set in generated {
        sets.push(set.make());
    }
    engine_kit::println_or_exit!(
        "machine cpu {} solver-path {} clock {}",
        cpu_model(),
        puzzle_rules::sudoku::solver::path_name(),
        PassClock::NAME
    );
    engine_kit::println_or_exit!(
        "{:<28} {:>8} {:>10} {:>10} {:>10} {:>12} {:>12}  solutions 0/1/2+",
        "set",
        "puzzles",
        "us/puzzle",
        "us (best)",
        "median us",
        "puzzles/s",
        "nodes/puzzle"
    );
    for (name, boards) in sets {
        if boards.is_empty() {
            engine_kit::println_or_exit!("{name:<28} {:>8}", 0);
            continue;
        }
        // The machine may be shared: each figure is the best of ROUNDS passes over the set.
        // Mean passes read the clock once per pass (a clock read costs about a microsecond
        // on some virtual machines); median passes time each puzzle, keeping its best time
        // across passes, never from back-to-back repeats that would train the branch
        // predictor on one puzzle.
        let mut histogram = [0usize; 3];
        let mut nodes = 0;
        let mut total = f64::INFINITY;
        for round in 0..ROUNDS {
            let start = PassClock::start();
            for board in &boards {
                let answer = solve_request(std::hint::black_box(board), Request::count(2));
                if round == 0 {
                    histogram[answer.count] += 1;
                    nodes += answer.nodes;
                }
            }
            total = total.min(start.seconds());
        }
        let mut times = vec![f64::INFINITY; boards.len()];
        for _ in 0..ROUNDS {
            for (board, best) in boards.iter().zip(times.iter_mut()) {
                let t = Instant::now();
                std::hint::black_box(count_solutions(std::hint::black_box(board), 2));
                *best = best.min(t.elapsed().as_secs_f64());
            }
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let best_mean = times.iter().sum::<f64>() / boards.len() as f64;
        let n = boards.len() as f64;
        engine_kit::println_or_exit!(
            "{name:<28} {:>8} {:>10.2} {:>10.2} {:>10.2} {:>12.0} {:>12.2}  {}/{}/{}",
            boards.len(),
            total / n * 1e6,
            best_mean * 1e6,
            median * 1e6,
            n / total,
            nodes as f64 / n,
            histogram[0],
            histogram[1],
            histogram[2]
        );
    }
    Ok(())
}

/// The clock of the whole passes: the timing thread's CPU time on 64-bit Linux, wall time
/// elsewhere.
struct PassClock {
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    start: f64,
    #[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
    start: Instant,
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
impl PassClock {
    const NAME: &'static str = "thread-cpu";

    fn start() -> PassClock {
        PassClock {
            start: Self::thread_seconds(),
        }
    }

    fn seconds(&self) -> f64 {
        Self::thread_seconds() - self.start
    }

    /// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` from the C library std links anyway.
    fn thread_seconds() -> f64 {
        #[repr(C)]
        struct Timespec {
            seconds: i64,
            nanoseconds: i64,
        }
        extern "C" {
            fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut time = Timespec {
            seconds: 0,
            nanoseconds: 0,
        };
        // SAFETY: a valid pointer to a `struct timespec` (two 64-bit fields on 64-bit Linux);
        // the call only writes it. It cannot fail for this clock and a valid pointer.
        let status = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) };
        debug_assert_eq!(status, 0);
        time.seconds as f64 + time.nanoseconds as f64 * 1e-9
    }
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
impl PassClock {
    const NAME: &'static str = "wall";

    fn start() -> PassClock {
        PassClock {
            start: Instant::now(),
        }
    }

    fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

/// A set of `--generated MxN:K[:easy|medium|hard]`: K puzzles generated with seeds 1..=K.
struct GeneratedSet {
    shape: Shape,
    count: u64,
    level: String,
    target: usize,
}

impl GeneratedSet {
    /// Reads a `--generated` value.
    fn parse(spec: &str) -> Result<GeneratedSet> {
        let parts: Vec<&str> = spec.split(':').collect();
        if parts.len() < 2 || parts.len() > 3 {
            bail!("--generated '{spec}': expected MxN:K[:easy|medium|hard], e.g. 4x4:100");
        }
        let shape = Shape::parse(parts[0]).map_err(|e| anyhow!("--generated '{spec}': {e}"))?;
        let count: u64 = parts[1]
            .parse()
            .map_err(|_| anyhow!("--generated '{spec}': '{}' is not a count", parts[1]))?;
        if count == 0 || count > 100_000 {
            bail!("--generated '{spec}': count must be 1..=100000");
        }
        let level = parts.get(2).copied().unwrap_or("hard");
        let difficulty = Difficulty::parse(level).ok_or_else(|| {
            anyhow!("--generated '{spec}': '{level}' is not easy, medium or hard")
        })?;
        Ok(GeneratedSet {
            shape,
            count,
            level: level.to_string(),
            target: difficulty.clue_target(shape),
        })
    }

    /// The set's name and puzzles.
    fn make(self) -> (String, Vec<Board>) {
        let boards = (1..=self.count)
            .map(|seed| generate(self.shape, self.target, seed))
            .collect();
        let name = format!("generated {} {} x{}", self.shape, self.level, self.count);
        (name, boards)
    }
}

/// The processor's model name as the system reports it (`model name` in /proc/cpuinfo on
/// Linux), so a timing table says which machine made it; `unknown` where it cannot be read.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().replace(char::is_whitespace, "-"))
        })
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}
