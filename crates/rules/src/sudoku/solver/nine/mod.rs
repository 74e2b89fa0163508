//! The specialised 9x9 solver: a band bitboard solver in the style of JCZSolve.
//!
//! Why this shape: the taboo oracle and `bench-solver` are dominated by 9x9 boards, and the
//! fastest published 9x9 solvers all keep, for every digit and every band (three rows), a
//! 27-bit mask of the cells where the digit may still go. One `u32` then holds a whole
//! "digit in band" sub-problem, and the constraints inside a band become table look-ups:
//!
//! - inside a band a digit takes one cell per row and one per box, i.e. one of 6 row-to-box
//!   permutations; [`tables::PERM_KEEP`] keeps only the mini-rows used by a permutation still possible
//!   (this covers pointing and claiming locked candidates and hidden singles in rows/boxes);
//! - a box whose digit is confined to one column in this band removes that column from the
//!   other two bands ([`tables::COL_LOCK`]); this is also what forbids a digit twice in a column;
//! - a row of the band with a single cell left for the digit solves that cell.
//!
//! Naked singles are found by counting candidates per cell with three running masks, which
//! also yields bivalue cells. This module is our own implementation of that published design
//! (its tables are computed by `const fn` in `tables.rs`, not copied).
//!
//! The search branches the way tdoku does (its write-up calls them band configurations): in
//! the horizontal band with the fewest digit configurations left, it takes a digit with the
//! fewest (at least two) and tries each of its configurations, a whole "which mini-row in
//! each row" choice. On forum-hardest-1106 that needs 141 search nodes per puzzle against
//! 197 when branching on the best bivalue cell, and takes about a fifth less time.
//! The band logic does not know that a mini-row holds exactly three digits; when the rest
//! of the propagation is stuck, [`Grid::minirow_triads`] applies that (tdoku's triads, for
//! horizontal mini-rows): it fails a mini-row that must take four digits (configuration
//! guesses in an almost empty band cause that; without the check, counting two solutions of
//! the empty grid did not finish within minutes), and it cuts search nodes on
//! forum-hardest-1106 from 139 to 122 per puzzle (propagations from 306 to 253). On nearly
//! full grids it costs more than it saves and is skipped ([`propagate::TRIAD_MIN_EMPTY`]).
//!
//! The propagation and search are compiled twice ([`Path`]): for the target's baseline and
//! for x86-64 CPUs with AVX2 and BMI2, picked at run time; the code is the same but for one
//! BMI2 bit extract (table look-ups on the baseline path). A third copy compiled for AVX-512
//! was level with the AVX2 one on an AMD EPYC and 7-10% slower on an Intel Xeon, so there is
//! none (the crate's EXPERIMENTS.md).
//!
//! The look-up tables live in `tables.rs`, the grid of the givens in `givens.rs`, the band
//! logic that propagates a grid to a fixed point in `propagate.rs`, and the branching in
//! `search.rs`; this file holds the solver's state, its compiled copies and its entry points.

use super::answer::{Answer, Request};

mod givens;
mod propagate;
mod search;
mod tables;

/// What [`Grid::candidate_counts`] finds, per band: the cells with at least one candidate
/// (`one`), with at least two (`two`), and for `k` in 0..4 the cells where some digit `d`
/// (0..9) with bit `k` of `d` set may go (`bits[k]`): on a cell with one candidate they spell
/// its digit.
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    one: [u32; 3],
    two: [u32; 3],
    bits: [[u32; 3]; 4],
}

/// A contradiction: the position has no solution.
struct Dead;

/// Solver state. `poss[3 * digit + band]` holds the cells of `band` where `digit` may go.
#[derive(Clone, Copy)]
struct Grid {
    poss: [u32; 27],
    /// `poss` as of the last time its band logic ran; a difference means work to do.
    seen: [u32; 27],
    unsolved: [u32; 3],
    /// The configurations (see [`tables::CONFIGS`]) of `poss[sub]` as of its last band update.
    /// (Padded to 32 bytes so that [`Grid::pick_config`] can read it as four `u64`.)
    configs: [u8; 32],
    /// The columns (9 bits) of `poss[sub]` as of its last band update.
    cols: [u16; 27],
}

/// Where the search reports: stops at `limit`, keeps the first solution when asked to,
/// counts the search nodes.
struct Tally {
    limit: usize,
    count: usize,
    /// Grids the search reached after propagation, the root included ([`Answer::nodes`]).
    nodes: usize,
    first: Option<[u8; 81]>,
    want_first: bool,
    /// Whether a guess of this solve has led to a contradiction yet (see
    /// [`Grid::pick_config`]).
    dead_end: bool,
}

/// Which compiled copy of the solver runs. The code is the same; the copies differ in the
/// instructions the compiler may use, so the fast one is chosen at run time from the CPU's
/// features and the plain one runs everywhere (and in tests, on purpose).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Baseline instructions of the target (SSE2 on x86-64): runs on any CPU.
    Scalar,
    /// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT: one-instruction popcounts and
    /// trailing-zero counts, flag-free shifts, a bit extract for the live mini-rows of a
    /// band (the one place where the code differs: same results). Falls back to
    /// [`Path::Scalar`] on CPUs without them.
    Avx2,
}

impl Path {
    /// Every path, from the plainest to the fastest.
    pub const ALL: [Path; 2] = [Path::Scalar, Path::Avx2];

    /// The fastest path this CPU supports (detected once, then remembered).
    pub fn fastest() -> Path {
        use std::sync::atomic::{AtomicU8, Ordering};
        // 0: not detected yet; otherwise 1 + the index in `Path::ALL`.
        static FASTEST: AtomicU8 = AtomicU8::new(0);
        match FASTEST.load(Ordering::Relaxed) {
            0 => {
                let index = (0..Path::ALL.len())
                    .rev()
                    .find(|&i| Path::ALL[i].is_supported())
                    .unwrap_or(0);
                FASTEST.store(index as u8 + 1, Ordering::Relaxed);
                Path::ALL[index]
            }
            k => Path::ALL[k as usize - 1],
        }
    }

    /// True when this CPU can run the path.
    pub fn is_supported(self) -> bool {
        match self {
            Path::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Path::Avx2 => false,
        }
    }

    /// The path's name as tools print it: `scalar` or `avx2`.
    pub fn name(self) -> &'static str {
        match self {
            Path::Scalar => "scalar",
            Path::Avx2 => "avx2",
        }
    }
}

/// One compiled copy of the recursive part of the solver (propagation and search): the
/// search calls back through it, so a whole solve stays on one path.
trait Engine {
    /// Propagates `grid` to a fixed point; `dirty` holds at least the digit-bands changed
    /// since the last one.
    fn propagate(grid: &mut Grid, dirty: u32, claim: bool) -> Result<(), Dead>;
    fn search(grid: &mut Grid, tally: &mut Tally);
}

/// [`Path::Scalar`].
struct Scalar;

impl Engine for Scalar {
    #[inline(never)]
    fn propagate(grid: &mut Grid, dirty: u32, claim: bool) -> Result<(), Dead> {
        grid.propagate_body::<false>(dirty, claim)
    }

    fn search(grid: &mut Grid, tally: &mut Tally) {
        grid.search_body::<Scalar>(tally);
    }
}

/// Defines a compiled copy of the solver for x86-64 CPU features: the engine type, its
/// propagation and search compiled with `$features`, and `$solve`, which builds the grid of
/// the givens and solves it on that copy (the grid is built there too, so that its popcounts
/// are single instructions: on the baseline path they are a tenth of the time on puzzles
/// with many givens). Only called after [`Path::is_supported`] said yes (see [`solve_on`]).
macro_rules! compiled_copy {
    ($engine:ident, $features:literal, $propagate:ident, $search:ident, $solve:ident) => {
        #[doc = concat!("The copy compiled with `", $features, "`.")]
        #[cfg(target_arch = "x86_64")]
        struct $engine;

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        #[inline(never)]
        fn $propagate(grid: &mut Grid, dirty: u32, claim: bool) -> Result<(), Dead> {
            grid.propagate_body::<true>(dirty, claim)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $search(grid: &mut Grid, tally: &mut Tally) {
            grid.search_body::<$engine>(tally);
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $solve(cells: &[u8; 81], tally: &mut Tally) {
            let mut grid = Grid::from_cells(cells);
            if let Ok(dirty) = grid.batch_update::<true>() {
                if $propagate(&mut grid, dirty, true).is_ok() {
                    $search(&mut grid, tally);
                }
            }
        }

        #[cfg(target_arch = "x86_64")]
        impl Engine for $engine {
            #[inline(always)]
            fn propagate(grid: &mut Grid, dirty: u32, claim: bool) -> Result<(), Dead> {
                // SAFETY: the engine is only reached through its solve function, which
                // `solve_on` calls only after `Path::is_supported` confirmed every
                // enabled feature.
                unsafe { $propagate(grid, dirty, claim) }
            }

            #[inline(always)]
            fn search(grid: &mut Grid, tally: &mut Tally) {
                // SAFETY: as in `propagate` above.
                unsafe { $search(grid, tally) }
            }
        }
    };
}

compiled_copy!(
    Avx2,
    "avx2,bmi1,bmi2,lzcnt,popcnt",
    propagate_avx2,
    search_avx2,
    solve_avx2
);

/// Counts solutions of a 9x9 puzzle (81 cells, row-major, 0 empty, values 1..=9) up to
/// `limit`, and returns the first solution found when `want_first`. The givens must not
/// repeat a value in a row, column or box (a [`crate::sudoku::Board`] guarantees it); if they do, the
/// answer is 0.
pub fn solve_cells(cells: &[u8; 81], limit: usize, want_first: bool) -> (usize, Option<[u8; 81]>) {
    solve_cells_on(Path::fastest(), cells, limit, want_first)
}

/// [`solve_cells`] on a chosen [`Path`] (one the CPU does not support runs as
/// [`Path::Scalar`]). Tests use it to run every path; the answers must not differ.
pub fn solve_cells_on(
    path: Path,
    cells: &[u8; 81],
    limit: usize,
    want_first: bool,
) -> (usize, Option<[u8; 81]>) {
    let tally = solve_on(path, cells, limit, want_first);
    (tally.count, tally.first)
}

/// [`solve_cells_on`] with the whole tally, node count included.
fn solve_on(path: Path, cells: &[u8; 81], limit: usize, want_first: bool) -> Tally {
    let mut tally = Tally {
        limit,
        count: 0,
        nodes: 0,
        first: None,
        want_first,
        dead_end: false,
    };
    if limit == 0 {
        return tally;
    }
    match path {
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 if path.is_supported() => {
            // SAFETY: the CPU has every feature `solve_avx2` enables (checked just above).
            unsafe { solve_avx2(cells, &mut tally) }
        }
        _ => {
            let mut grid = Grid::from_cells(cells);
            let dirty = grid.batch_update::<false>();
            if dirty.is_ok_and(|dirty| Scalar::propagate(&mut grid, dirty, true).is_ok()) {
                Scalar::search(&mut grid, &mut tally);
            }
        }
    }
    tally
}

/// [`solve_cells`] for the dispatch (no node budget: the worst case is a fraction of a
/// millisecond).
pub(super) fn solve(board_cells: &[u8], request: Request) -> Answer {
    // Read in place (a copy was a memcpy per solve); the dispatch sends only 9x9 boards.
    let cells: &[u8; 81] = board_cells.try_into().expect("a 9x9 board has 81 cells");
    answer_on(Path::fastest(), cells, request)
}

/// The whole [`Answer`] to `request` (its node budget aside: the worst case is a fraction
/// of a millisecond) on a chosen [`Path`], search nodes included: every path must visit
/// the same nodes, and tests check that they do.
pub fn answer_on(path: Path, cells: &[u8; 81], request: Request) -> Answer {
    let tally = solve_on(path, cells, request.limit, request.want_first);
    Answer {
        count: tally.count,
        first: tally.first.map(|f| f.to_vec()),
        complete: true,
        nodes: tally.nodes,
    }
}
