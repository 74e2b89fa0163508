//! The project's own puzzle collections: test material with known properties and a fixed
//! benchmark for the solver, made by [`generate`] and chosen by the solver's own answers.
//!
//! Each set is a sequence of entries, and entry `k` of a set depends only on the set, the seed
//! and `k`: every generator seed it uses is a hash of those three (and of a candidate number),
//! so any slice of a collection can be made again without the lines before it, and two sets
//! made from the same seed draw different generator seeds. The rules, one per set:
//!
//! - [`PuzzleSet::Minimal`]: the puzzle with the fewest givens among
//!   [`MINIMAL_CANDIDATES`] minimal puzzles (a minimal puzzle is unique, and loses its
//!   uniqueness when any given goes: [`generate`] with no clue target).
//! - [`PuzzleSet::Hard`]: the minimal puzzle that takes the solver the most search nodes
//!   (counting to two solutions, [`super::solver::Answer::nodes`]) among [`HARD_CANDIDATES`].
//! - [`PuzzleSet::Multiple`]: a unique puzzle with a random clue target (17 to 66 givens), then
//!   givens removed in a random order until the solver finds a second solution.
//! - [`PuzzleSet::NoSolution`]: a minimal puzzle plus one given in an empty cell with a value
//!   that its row, column and block allow but that differs from the puzzle's solution: no
//!   solution, by construction, and not one a look at the givens shows. Of
//!   [`NO_SOLUTION_CANDIDATES`] such puzzles the one with the most search nodes is kept (most
//!   fail in the first propagation).
//! - [`PuzzleSet::Counts`]: puzzles with their exact solution count, cycling over 9x9, 16x16
//!   and 25x25 boards and over unique, several and no solutions: unique puzzles with a random
//!   clue target, multiples by removing givens from one until the count reaches a random goal
//!   up to [`COUNT_GOAL`], never past [`COUNT_CAP`], and no solution by one wrong given.
//!
//! Ties go to the earlier candidate. Everything is deterministic ([`SplitMix64`] and the
//! solver, whose node counts are the same on every compiled path), so a set is the same on
//! every machine.

use super::board::{value_char, Board, Move, Shape};
use super::generate::generate;
use super::solver::{count_solutions, run, solve, Request};
use crate::rng::SplitMix64;

/// Minimal puzzles generated per line of [`PuzzleSet::Minimal`]; the one with the fewest
/// givens is kept.
pub const MINIMAL_CANDIDATES: u64 = 10;

/// Minimal puzzles generated per line of [`PuzzleSet::Hard`]; the one with the most search
/// nodes is kept.
pub const HARD_CANDIDATES: u64 = 1000;

/// Puzzles with a wrong given made per line of [`PuzzleSet::NoSolution`]; the one with the
/// most search nodes is kept.
pub const NO_SOLUTION_CANDIDATES: usize = 50;

/// Multiple-solution entries of [`PuzzleSet::Counts`] aim at a random count in
/// `2..=COUNT_GOAL`.
pub const COUNT_GOAL: usize = 200;

/// No entry of [`PuzzleSet::Counts`] has more solutions than this: a removal that would pass
/// it is undone.
pub const COUNT_CAP: usize = 1000;

/// One of the project's puzzle collections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleSet {
    /// 9x9 minimal puzzles with as few givens as the generator reaches.
    Minimal,
    /// 9x9 minimal puzzles that need the most search from the solver.
    Hard,
    /// 9x9 puzzles with two or more solutions.
    Multiple,
    /// 9x9 puzzles with no solution.
    NoSolution,
    /// 9x9, 16x16 and 25x25 puzzles with their exact solution count (and the solution when
    /// unique).
    Counts,
}

/// One line of a collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The puzzle.
    pub puzzle: Board,
    /// Its solutions: the exact count in [`PuzzleSet::Counts`], elsewhere counted up to 2.
    pub solutions: usize,
    /// The solution, when there is exactly one.
    pub solution: Option<Board>,
}

/// What an entry of [`PuzzleSet::Counts`] must have: the kinds cycle with the entry number.
#[derive(Clone, Copy)]
enum Kind {
    Unique,
    Multiple,
    NoSolution,
}

impl PuzzleSet {
    /// Every set, in the order of the collection's README.
    pub const ALL: [PuzzleSet; 5] = [
        PuzzleSet::Minimal,
        PuzzleSet::Hard,
        PuzzleSet::Multiple,
        PuzzleSet::NoSolution,
        PuzzleSet::Counts,
    ];

    /// The set's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PuzzleSet::Minimal => "minimal",
            PuzzleSet::Hard => "hard",
            PuzzleSet::Multiple => "multiple",
            PuzzleSet::NoSolution => "none",
            PuzzleSet::Counts => "counts",
        }
    }

    /// The set named `text` ([`PuzzleSet::name`]).
    pub fn parse(text: &str) -> Option<PuzzleSet> {
        PuzzleSet::ALL.into_iter().find(|s| s.name() == text)
    }

    /// The file that holds the set in `crates/rules/data/sudoku`.
    pub fn file_name(self) -> &'static str {
        match self {
            PuzzleSet::Minimal => "minimal.txt",
            PuzzleSet::Hard => "hard.txt",
            PuzzleSet::Multiple => "multiple.txt",
            PuzzleSet::NoSolution => "no-solution.txt",
            PuzzleSet::Counts => "solution-counts.txt",
        }
    }

    /// How an entry is made, in one line (a collection file's header says it).
    pub fn rule(self) -> String {
        match self {
            PuzzleSet::Minimal => format!(
                "9x9 minimal puzzles (unique; any given removed breaks uniqueness), each the one \
                 with the fewest givens among {MINIMAL_CANDIDATES} generated"
            ),
            PuzzleSet::Hard => format!(
                "9x9 minimal puzzles, each the one with the most solver search nodes (counting \
                 to 2 solutions) among {HARD_CANDIDATES} generated"
            ),
            PuzzleSet::Multiple => {
                "9x9 puzzles with 2 or more solutions: a unique puzzle of 17 to \
                 66 givens, givens removed until a second solution appears"
                    .to_string()
            }
            PuzzleSet::NoSolution => format!(
                "9x9 puzzles with no solution: a minimal puzzle plus one given its row, column \
                 and block allow but its solution does not, each the one with the most solver \
                 search nodes among {NO_SOLUTION_CANDIDATES} made"
            ),
            PuzzleSet::Counts => format!(
                "puzzle:count[:solution] lines, exact counts, cycling over 9x9, 16x16 and 25x25 \
                 and over unique, several (2 to {COUNT_CAP}) and no solutions"
            ),
        }
    }

    /// The line of `entry` in the set's file: the puzzle (81 characters for 9x9, `MxN <rows>`
    /// otherwise, `.` for empty), and in [`PuzzleSet::Counts`] `:count`, then `:solution` when
    /// the count is 1.
    pub fn line(self, entry: &Entry) -> String {
        let mut line = puzzle_text(&entry.puzzle);
        if self == PuzzleSet::Counts {
            line = format!("{line}:{}", entry.solutions);
            if let Some(solution) = &entry.solution {
                line = format!("{line}:{}", puzzle_text(solution));
            }
        }
        line
    }

    /// Entry `index` of the set made from `seed`.
    pub fn entry(self, seed: u64, index: u64) -> Entry {
        let seeds = |candidate: u64| line_seed(self, seed, index, candidate);
        let nine = Shape::new(3, 3).expect("3x3 is a shape");
        match self {
            PuzzleSet::Minimal => {
                let puzzle = (0..MINIMAL_CANDIDATES)
                    .map(|c| generate(nine, 0, seeds(c)))
                    .min_by_key(Board::filled)
                    .expect("at least one candidate");
                unique(puzzle)
            }
            PuzzleSet::Hard => {
                let puzzle = (0..HARD_CANDIDATES)
                    .map(|c| generate(nine, 0, seeds(c)))
                    .rev()
                    .max_by_key(|p| run(p, Request::count(2)).nodes)
                    .expect("at least one candidate");
                unique(puzzle)
            }
            PuzzleSet::Multiple => with_several(nine, seeds(0), 2, None),
            PuzzleSet::NoSolution => {
                let candidates: Vec<Entry> = (0..)
                    .filter_map(|c| {
                        let mut rng = SplitMix64(seeds(c));
                        with_wrong_given(generate(nine, 0, rng.next_u64()), &mut rng)
                    })
                    .take(NO_SOLUTION_CANDIDATES)
                    .collect();
                candidates
                    .into_iter()
                    .rev()
                    .max_by_key(|e| run(&e.puzzle, Request::count(2)).nodes)
                    .expect("at least one candidate")
            }
            PuzzleSet::Counts => {
                let shapes = [(3, 3), (4, 4), (5, 5)];
                let kinds = [Kind::Unique, Kind::Multiple, Kind::NoSolution];
                let (m, n) = shapes[(index % 3) as usize];
                let shape = Shape::new(m, n).expect("a shape");
                match kinds[(index / 3 % 3) as usize] {
                    Kind::Unique => unique(generate(shape, clue_target(shape, seeds(0)), seeds(1))),
                    Kind::Multiple => {
                        let goal = 2 + SplitMix64(seeds(2)).below(COUNT_GOAL - 1);
                        with_several(shape, seeds(0), goal, Some(COUNT_CAP))
                    }
                    Kind::NoSolution => (0..)
                        .find_map(|c| {
                            let mut rng = SplitMix64(seeds(c));
                            let target = clue_target(shape, rng.next_u64());
                            with_wrong_given(generate(shape, target, rng.next_u64()), &mut rng)
                        })
                        .expect("some puzzle has a cell that allows a wrong value"),
                }
            }
        }
    }
}

/// A puzzle as collection files write it: 81 characters for 9x9, `MxN <rows>` otherwise.
fn puzzle_text(board: &Board) -> String {
    let shape = board.shape();
    if shape.m() == 3 && shape.n() == 3 {
        board.cells().iter().map(|&v| value_char(v)).collect()
    } else {
        format!("{shape} {}", board.to_rows())
    }
}

/// The generator seed of candidate `candidate` of entry `index` of `set` made from `seed`.
fn line_seed(set: PuzzleSet, seed: u64, index: u64, candidate: u64) -> u64 {
    let mix = |x: u64| SplitMix64(x).next_u64();
    mix(mix(mix(seed ^ set as u64) ^ index) ^ candidate)
}

/// A random clue target for a unique puzzle of `shape` (17 to 66 givens on 9x9; 40% to 75%
/// of the cells on 16x16, 60% to 85% on 25x25, where sparser boards make exact counts slow).
fn clue_target(shape: Shape, seed: u64) -> usize {
    let mut rng = SplitMix64(seed);
    let cells = shape.cells();
    let (low, high) = match shape.size() {
        9 => (17, 66),
        16 => (cells * 40 / 100, cells * 75 / 100),
        _ => (cells * 60 / 100, cells * 85 / 100),
    };
    low + rng.below(high - low + 1)
}

/// The entry of a puzzle with one solution.
fn unique(puzzle: Board) -> Entry {
    let solution = solve(&puzzle);
    debug_assert!(solution.is_some());
    Entry {
        puzzle,
        solutions: 1,
        solution,
    }
}

/// A unique puzzle of `shape` with givens removed in a random order until it has at least
/// `goal` solutions. With a `cap`, solutions are counted exactly up to it and a removal that
/// would pass it is undone; without, they are counted up to `goal`.
fn with_several(shape: Shape, seed: u64, goal: usize, cap: Option<usize>) -> Entry {
    let mut rng = SplitMix64(seed);
    let target = clue_target(shape, rng.next_u64());
    let mut puzzle = generate(shape, target, rng.next_u64());
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    rng.shuffle(&mut order);
    let size = shape.size();
    let mut solutions = 1;
    for cell in order {
        let (row, col) = (cell / size, cell % size);
        let value = puzzle.get(row, col);
        if value == 0 {
            continue;
        }
        puzzle.clear(row, col);
        let count = count_solutions(&puzzle, cap.map_or(goal, |cap| cap + 1));
        if cap.is_some_and(|cap| count > cap) {
            puzzle.place(Move::new(row, col, value));
            continue;
        }
        solutions = count;
        if solutions >= goal {
            break;
        }
    }
    Entry {
        puzzle,
        solutions,
        solution: None,
    }
}

/// A unique `puzzle` plus one given that its row, column and block allow but its solution
/// does not have (cells tried in a random order), or `None` when every empty cell allows only
/// its solution's value.
fn with_wrong_given(mut puzzle: Board, rng: &mut SplitMix64) -> Option<Entry> {
    let shape = puzzle.shape();
    let solution = solve(&puzzle).expect("a generated puzzle has a solution");
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    rng.shuffle(&mut order);
    let size = shape.size();
    for cell in order {
        let (row, col) = (cell / size, cell % size);
        if puzzle.get(row, col) != 0 {
            continue;
        }
        let wrong = puzzle.candidates(row, col) & !(1 << (solution.get(row, col) - 1));
        if wrong == 0 {
            continue;
        }
        let mut bits = wrong;
        for _ in 0..rng.below(wrong.count_ones() as usize) {
            bits &= bits - 1;
        }
        let value = bits.trailing_zeros() as u8 + 1;
        puzzle.place(Move::new(row, col, value));
        return Some(Entry {
            puzzle,
            solutions: 0,
            solution: None,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for set in PuzzleSet::ALL {
            assert_eq!(PuzzleSet::parse(set.name()), Some(set));
        }
        assert_eq!(PuzzleSet::parse("17-clue"), None);
    }

    #[test]
    fn entries_have_the_set_properties() {
        for set in PuzzleSet::ALL {
            for index in 0..9 {
                let entry = set.entry(5, index);
                assert_eq!(entry, set.entry(5, index), "{set:?} is reproducible");
                let limit = if set == PuzzleSet::Counts {
                    COUNT_CAP + 1
                } else {
                    2
                };
                assert_eq!(count_solutions(&entry.puzzle, limit), entry.solutions);
                let expected = match set {
                    PuzzleSet::Minimal | PuzzleSet::Hard => 1..=1,
                    PuzzleSet::Multiple => 2..=2,
                    PuzzleSet::NoSolution => 0..=0,
                    PuzzleSet::Counts => [1..=1, 2..=COUNT_CAP, 0..=0][index as usize / 3].clone(),
                };
                assert!(expected.contains(&entry.solutions), "{set:?} {index}");
                assert_eq!(entry.solution.is_some(), entry.solutions == 1);
            }
        }
    }

    #[test]
    fn sets_and_entries_do_not_share_seeds() {
        let a = PuzzleSet::Minimal.entry(1, 0);
        assert_ne!(a, PuzzleSet::Minimal.entry(1, 1));
        assert_ne!(a, PuzzleSet::Minimal.entry(2, 0));
        assert_ne!(a.puzzle, PuzzleSet::Hard.entry(1, 0).puzzle);
    }

    #[test]
    fn hard_entries_are_minimal() {
        let puzzle = PuzzleSet::Hard.entry(1, 0).puzzle;
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                let mut weaker = puzzle.clone();
                weaker.clear(i / 9, i % 9);
                assert_eq!(count_solutions(&weaker, 2), 2);
            }
        }
    }
}
