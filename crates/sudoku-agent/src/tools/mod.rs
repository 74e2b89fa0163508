//! Sudoku tools on top of the rules crate's solver: solve, count, check, generate,
//! bench-solver.
//!
//! Everything here is a thin layer: parse the puzzle text ([`input`]), call
//! `puzzle_rules::sudoku`, print one line per puzzle. Input errors come back as
//! `anyhow` errors, which `main` prints as one `error: ...` line with exit code 1.

mod bench;
mod exact_check;
mod input;
mod solve_game;

use std::io::Write;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use clap::Subcommand;
use puzzle_rules::sudoku::check::check_filled;
use puzzle_rules::sudoku::generate::{generate, Difficulty};
use puzzle_rules::sudoku::puzzle_set::PuzzleSet;
use puzzle_rules::sudoku::solver::{count_solutions, solve_and_count};
use puzzle_rules::sudoku::Shape;

use input::{format_cells, parse_puzzle, read_puzzles, RawPuzzle};

/// The tool subcommands.
#[derive(Subcommand)]
pub enum ToolCommand {
    /// Print the solution of a puzzle (or of every puzzle in a file): the solution, `no
    /// solution`, or the first solution followed by `multiple solutions`.
    Solve {
        /// The puzzle: 81 characters for 9x9 (`.` or `0` empty), or `MxN <rows>` with rows
        /// joined by `/`.
        puzzle: Vec<String>,
        /// A file with one puzzle per line, or a board file of the course framework.
        #[arg(long, conflicts_with = "puzzle")]
        file: Option<PathBuf>,
    },
    /// Print the number of solutions, counting up to a limit.
    Count {
        /// Stop counting at this many solutions.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
        limit: u64,
        /// The puzzle (as for `solve`).
        puzzle: Vec<String>,
        /// A file with one puzzle per line, or a board file.
        #[arg(long, conflicts_with = "puzzle")]
        file: Option<PathBuf>,
    },
    /// Check a filled grid: prints `ok`, or `invalid: <first broken row, column or block>`
    /// and exits with code 1. Rows, columns and blocks are numbered from 0.
    Check {
        /// The grid (as for `solve`).
        grid: Vec<String>,
        /// A file with one grid per line, or a board file.
        #[arg(long, conflicts_with = "grid")]
        file: Option<PathBuf>,
    },
    /// Generate puzzles with a unique solution, reproducible from the seed; or, with `--set`,
    /// the first `--count` entries of one of the project's puzzle collections (the files in
    /// crates/rules/data/sudoku, byte for byte, with the seed and count their header shows).
    Generate {
        /// Block shape, e.g. `3x3` (9x9) or `4x4` (16x16).
        #[arg(long, default_value = "3x3")]
        shape: String,
        /// A collection: `minimal`, `hard`, `multiple`, `none` or `counts` (see
        /// crates/rules/data/sudoku/README.md); entry k depends only on the seed and k.
        #[arg(long, conflicts_with_all = ["shape", "clues", "difficulty"])]
        set: Option<String>,
        /// Clues to keep (more when uniqueness needs them).
        #[arg(long, conflicts_with = "difficulty")]
        clues: Option<usize>,
        /// `easy` (half the cells), `medium` (40%) or `hard` (as few as uniqueness allows).
        #[arg(long)]
        difficulty: Option<String>,
        /// Seed of the first puzzle; puzzle k uses seed + k.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of puzzles.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
        count: u64,
    },
    /// Time "find a solution and prove it unique" (count to 2) on puzzle files; prints
    /// puzzles, microseconds per puzzle (mean and median), puzzles per second and the
    /// solver's mean search nodes per puzzle.
    BenchSolver {
        /// Puzzle files, one puzzle per line (`.` or `0` empty, `#` comments) (default: the
        /// project's 9x9 collections in crates/rules/data/sudoku: minimal, hard, multiple,
        /// no-solution; they are also run, first, when only --generated is given).
        #[arg(long)]
        file: Vec<PathBuf>,
        /// Also time a generated set, `MxN:K[:easy|medium|hard]` (K puzzles from seeds
        /// 1..=K, hard by default), e.g. `4x4:100`.
        #[arg(long)]
        generated: Vec<String>,
    },
    /// Solve a Competitive Sudoku position exactly: the game value under perfect play, the
    /// optimal first moves, nodes and time.
    SolveGame(solve_game::SolveGameArgs),
    /// Check the `default` agent's `exact` scores against the exact solver on random 2x2
    /// positions and limits, with 1 and 2 threads.
    CheckExact(exact_check::CheckExactArgs),
}

/// Runs a tool subcommand.
pub fn run(cmd: ToolCommand) -> Result<()> {
    match cmd {
        ToolCommand::Solve { puzzle, file } => for_each_puzzle(&puzzle, file, |p| {
            let board = p.board()?;
            let (count, first) = solve_and_count(&board, 2);
            Ok(match (count, first) {
                (0, _) | (_, None) => "no solution".to_string(),
                (1, Some(sol)) => format_cells(p.shape, sol.cells()),
                (_, Some(sol)) => {
                    format!("{} multiple solutions", format_cells(p.shape, sol.cells()))
                }
            })
        }),
        ToolCommand::Count {
            limit,
            puzzle,
            file,
        } => for_each_puzzle(&puzzle, file, |p| {
            Ok(count_solutions(&p.board()?, limit as usize).to_string())
        }),
        ToolCommand::Check { grid, file } => {
            let mut broken = false;
            for_each_puzzle(&grid, file, |p| {
                Ok(match check_filled(p.shape, &p.cells) {
                    Ok(()) => "ok".to_string(),
                    Err(fault) => {
                        broken = true;
                        format!("invalid: {fault}")
                    }
                })
            })?;
            if broken {
                let _ = std::io::stdout().flush();
                std::process::exit(1);
            }
            Ok(())
        }
        ToolCommand::Generate {
            set: Some(set),
            seed,
            count,
            ..
        } => write_set(&set, seed, count),
        ToolCommand::Generate {
            shape,
            clues,
            difficulty,
            seed,
            count,
            set: None,
        } => {
            let shape = Shape::parse(&shape).map_err(|e| anyhow!("{e}"))?;
            let target = match (clues, difficulty) {
                (Some(k), _) if k > shape.cells() => {
                    bail!(
                        "--clues {k}: a {shape} board has only {} cells",
                        shape.cells()
                    )
                }
                (Some(k), _) => k,
                (None, Some(d)) => Difficulty::parse(&d)
                    .ok_or_else(|| anyhow!("--difficulty '{d}': expected easy, medium or hard"))?
                    .clue_target(shape),
                (None, None) => Difficulty::Hard.clue_target(shape),
            };
            let mut out = std::io::stdout().lock();
            for k in 0..count {
                let board = generate(shape, target, seed.wrapping_add(k));
                writeln!(out, "{}", format_cells(shape, board.cells()))?;
            }
            Ok(())
        }
        ToolCommand::BenchSolver { file, generated } => bench::run(file, generated),
        ToolCommand::SolveGame(args) => solve_game::run(args),
        ToolCommand::CheckExact(args) => exact_check::run(args),
    }
}

/// Writes the first `count` entries of the collection `name` made from `seed`, after a
/// header that says what the set is and the command that makes it.
fn write_set(name: &str, seed: u64, count: u64) -> Result<()> {
    let set = PuzzleSet::parse(name).ok_or_else(|| {
        let names: Vec<&str> = PuzzleSet::ALL.iter().map(|s| s.name()).collect();
        anyhow!("--set '{name}': expected one of {}", names.join(", "))
    })?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "# {}", set.rule())?;
    writeln!(
        out,
        "# made by: sudoku-agent generate --set {} --seed {seed} --count {count}",
        set.name()
    )?;
    for k in 0..count {
        writeln!(out, "{}", set.line(&set.entry(seed, k)))?;
    }
    Ok(())
}

/// Answers one line per puzzle: the puzzle from the arguments, or every puzzle of the file.
fn for_each_puzzle(
    words: &[String],
    file: Option<PathBuf>,
    mut answer: impl FnMut(&RawPuzzle) -> Result<String>,
) -> Result<()> {
    let puzzles = match file {
        Some(path) => read_puzzles(&path)?,
        None if words.is_empty() => bail!("give a puzzle or --file <path>"),
        None => vec![parse_puzzle(&words.join(" "))?],
    };
    let mut out = std::io::stdout().lock();
    for (i, p) in puzzles.iter().enumerate() {
        let line = answer(p).map_err(|e| {
            if puzzles.len() > 1 {
                anyhow!("puzzle {}: {e}", i + 1)
            } else {
                e
            }
        })?;
        writeln!(out, "{line}")?;
    }
    Ok(())
}
