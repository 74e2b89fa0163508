//! `sudoku-solver`: the sudoku puzzle command line on top of the rules crate's solver:
//! solve, count, check, generate, bench-solver. It needs no engine: only `puzzle_rules`.
//!
//! Everything here is a thin layer: parse the puzzle text ([`input`]), call
//! `puzzle_rules::sudoku`, print one line (or, with `--json`, one JSON object) per puzzle.
//! Puzzles come from the arguments, a file, or standard input (`-` or nothing given). A bad
//! puzzle is reported with its line number on stderr and the others are still answered;
//! exit codes follow the conventions of protocol/README.md: 0 success, 1 a bad puzzle or an
//! invalid grid (`check`), 2 a bad command line or an unreadable file named on it.

mod bench;
mod input;

use std::io::Write;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Result};
use clap::{Parser, Subcommand};
use engine_kit::cli::CommandLineCheck;
use lab_kit::json::json_string;
use puzzle_rules::sudoku::check::check_filled;
use puzzle_rules::sudoku::generate::{generate, Difficulty};
use puzzle_rules::sudoku::puzzle_set::PuzzleSet;
use puzzle_rules::sudoku::solver::{self, count_solutions, count_solutions_within, Request};
use puzzle_rules::sudoku::Shape;

use input::{format_cells, parse_puzzle, read_puzzles, RawPuzzle};

/// The `--help` summary.
const ABOUT: &str = "Sudoku puzzles: solve, count, check, generate, bench-solver";

#[derive(Parser)]
#[command(name = "sudoku-solver", version, about = ABOUT)]
struct Cli {
    #[command(subcommand)]
    command: ToolCommand,
}

/// The subcommands.
#[derive(Subcommand)]
enum ToolCommand {
    /// Print the solution of a puzzle (or of every puzzle in a file): the solution, `no
    /// solution`, or the first solution followed by `multiple solutions` (or, when the
    /// search for a second one passes --max-nodes, `uniqueness not settled`). The first
    /// solution is printed as soon as it is found.
    Solve {
        /// Search nodes the search for a second solution may visit before uniqueness is
        /// reported as not settled (9x9 puzzles are always settled).
        #[arg(long, default_value_t = DEFAULT_UNIQUENESS_NODES, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
        max_nodes: u64,
        /// The puzzle: 81 characters for 9x9 (`.` or `0` empty), or `MxN <rows>` with rows
        /// joined by `/`.
        puzzle: Vec<String>,
        /// A file with one puzzle per line, or a board file of the course framework; `-`
        /// (or no puzzle at all) reads standard input.
        #[arg(long, conflicts_with = "puzzle")]
        file: Option<PathBuf>,
        /// One JSON object per puzzle instead of text lines.
        #[arg(long)]
        json: bool,
    },
    /// Print the number of solutions, counting up to a limit.
    Count {
        /// Stop counting at this many solutions.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
        limit: u64,
        /// The puzzle (as for `solve`).
        puzzle: Vec<String>,
        /// A file with one puzzle per line, or a board file; `-` (or no puzzle) reads
        /// standard input.
        #[arg(long, conflicts_with = "puzzle")]
        file: Option<PathBuf>,
        /// One JSON object per puzzle instead of text lines.
        #[arg(long)]
        json: bool,
    },
    /// Check a filled grid: prints `ok`, or `invalid: <first broken row, column or block>`
    /// and exits with code 1. Rows, columns and blocks are numbered from 0.
    Check {
        /// The grid (as for `solve`).
        grid: Vec<String>,
        /// A file with one grid per line, or a board file; `-` (or no grid) reads standard
        /// input.
        #[arg(long, conflicts_with = "grid")]
        file: Option<PathBuf>,
        /// One JSON object per grid instead of text lines.
        #[arg(long)]
        json: bool,
    },
    /// Generate puzzles with a unique solution, reproducible from the seed; or, with `--set`,
    /// the first `--count` entries of one of the project's puzzle collections (the files in
    /// crates/rules/data/sudoku, byte for byte, with the seed and count their header shows).
    Generate {
        /// Block shape (rows x columns of one block), e.g. `3x3` (a 9x9 board) or `4x4`
        /// (16x16).
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
        /// One JSON object per puzzle instead of text lines.
        #[arg(long)]
        json: bool,
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
}

fn main() {
    let cli: Cli = engine_kit::cli::parse_or_exit();
    engine_kit::cli::exit_on_error(run(cli.command));
}

/// Runs a subcommand.
fn run(cmd: ToolCommand) -> Result<()> {
    match cmd {
        ToolCommand::Solve {
            max_nodes,
            puzzle,
            file,
            json,
        } => for_each_puzzle(&puzzle, file, json, |p| solve(p, max_nodes as usize)),
        ToolCommand::Count {
            limit,
            puzzle,
            file,
            json,
        } => for_each_puzzle(&puzzle, file, json, |p| {
            let n = count_solutions(&p.board()?, limit as usize);
            Ok(Answer::new(
                &n.to_string(),
                &format!(r#""count":{n},"limit":{limit}"#),
            ))
        }),
        ToolCommand::Check { grid, file, json } => check_grids(&grid, file, json),
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
            json,
        } => {
            let shape = Shape::parse(&shape).map_err(|e| {
                anyhow!("--shape '{shape}': {e}; the shape is the block's (rows x columns of one block): 3x3 for a 9x9 board, 2x3 for 6x6")
            }).on_command_line()?;
            let target = clue_target(shape, clues, difficulty).on_command_line()?;
            write_generated(
                Generated {
                    shape,
                    target,
                    seed,
                    count,
                },
                json,
            )
        }
        ToolCommand::BenchSolver { file, generated } => bench::run(file, generated),
    }
}

/// The default node budget of `solve`'s search for a second solution: about a second on
/// a sparse 16x16 or 25x25 puzzle.
const DEFAULT_UNIQUENESS_NODES: u64 = 1_000_000;

/// `solve`'s answer: the solution, `no solution`, or the first solution and `multiple
/// solutions` (`uniqueness not settled` when the search for a second one passes
/// `max_nodes`). The first solution is found on its own (with restarts, quick even on a
/// sparse large board), so it is printed before the search for a second one runs.
fn solve(p: &RawPuzzle, max_nodes: usize) -> Result<Answer> {
    let board = p.board()?;
    let first = solver::run(&board, Request::count(1).with_first()).first;
    let Some(first) = first else {
        return Ok(Answer::new("no solution", r#""solutions":0"#));
    };
    let grid = format_cells(p.shape, &first);
    let then = move || {
        let (suffix, solutions) = match count_solutions_within(&board, 2, max_nodes) {
            Some(1) => ("", "1"),
            Some(_) => (" multiple solutions", "\"2+\""),
            None => (" uniqueness not settled", "\"1+\""),
        };
        (suffix.to_string(), format!(r#","solutions":{solutions}"#))
    };
    Ok(Answer {
        text: grid.clone(),
        fields: format!(r#""solution":{}"#, json_string(&grid)),
        then: Some(Box::new(then)),
    })
}

/// `check`: `ok` or `invalid: <fault>` per grid; exits 1 when any grid is invalid.
fn check_grids(grid: &[String], file: Option<PathBuf>, json: bool) -> Result<()> {
    let mut broken = 0;
    for_each_puzzle(grid, file, json, |p| {
        Ok(match check_filled(p.shape, &p.cells) {
            Ok(()) => Answer::new("ok", r#""ok":true"#),
            Err(fault) => {
                broken += 1;
                let text = format!("invalid: {fault}");
                let fields = format!(r#""ok":false,"fault":{}"#, json_string(&fault.to_string()));
                Answer::new(&text, &fields)
            }
        })
    })?;
    if broken > 0 {
        // The answer is "no": exit 1, the answers are on stdout.
        let _ = std::io::stdout().flush();
        std::process::exit(1);
    }
    Ok(())
}

/// The clues `generate` keeps on a `shape` board: `--clues`, else the `--difficulty`'s
/// target, else as few as uniqueness allows.
fn clue_target(shape: Shape, clues: Option<usize>, difficulty: Option<String>) -> Result<usize> {
    Ok(match (clues, difficulty) {
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
    })
}

/// The puzzles `generate` makes: `count` puzzles of `shape` with `target` clues, puzzle k
/// from seed + k.
struct Generated {
    shape: Shape,
    target: usize,
    seed: u64,
    count: u64,
}

/// Prints the generated puzzles, one line (or JSON object) each.
fn write_generated(g: Generated, json: bool) -> Result<()> {
    let mut out = std::io::stdout().lock();
    for k in 0..g.count {
        let puzzle_seed = g.seed.wrapping_add(k);
        let board = generate(g.shape, g.target, puzzle_seed);
        let text = format_cells(g.shape, board.cells());
        if json {
            let clues = board.cells().iter().filter(|&&v| v != 0).count();
            writeln!(
                out,
                r#"{{"seed":{puzzle_seed},"clues":{clues},"puzzle":{}}}"#,
                json_string(&text)
            )?;
        } else {
            writeln!(out, "{text}")?;
        }
    }
    Ok(())
}

/// Writes the first `count` entries of the collection `name` made from `seed`, after a
/// header that says what the set is and the command that makes it.
fn write_set(name: &str, seed: u64, count: u64) -> Result<()> {
    let set = PuzzleSet::parse(name)
        .ok_or_else(|| {
            let names: Vec<&str> = PuzzleSet::ALL.iter().map(|s| s.name()).collect();
            anyhow!("--set '{name}': expected one of {}", names.join(", "))
        })
        .on_command_line()?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "# {}", set.rule())?;
    writeln!(
        out,
        "# made by: sudoku-solver generate --set {} --seed {seed} --count {count}",
        set.name()
    )?;
    for k in 0..count {
        writeln!(out, "{}", set.line(&set.entry(seed, k)))?;
    }
    Ok(())
}

/// The rest of an answer, computed once its first part is out: the text and the JSON
/// fields it adds.
type Rest = Box<dyn FnOnce() -> (String, String)>;

/// A tool's answer for one puzzle: its text line and its JSON fields, and what follows them
/// when the rest takes longer to find (the text is printed first, the line ended after).
struct Answer {
    text: String,
    fields: String,
    then: Option<Rest>,
}

impl Answer {
    fn new(text: &str, fields: &str) -> Answer {
        Answer {
            text: text.to_string(),
            fields: fields.to_string(),
            then: None,
        }
    }

    /// Writes the answer as one line (with `prefix` before the JSON fields): in text, its
    /// first part is flushed before the rest is computed.
    fn write(self, out: &mut impl Write, json: bool, prefix: &str) -> std::io::Result<()> {
        let (mut text, mut fields) = (self.text, self.fields);
        if let Some(rest) = self.then {
            if !json {
                write!(out, "{text}")?;
                out.flush()?;
                text.clear();
            }
            let (more_text, more_fields) = rest();
            text.push_str(&more_text);
            fields.push_str(&more_fields);
        }
        if json {
            writeln!(out, "{{{prefix}{fields}}}")
        } else {
            writeln!(out, "{text}")
        }
    }
}

/// Answers one line per puzzle: the puzzle of the arguments, or every puzzle of the file
/// (`-`, or no puzzle and no file: standard input). A puzzle that cannot be read or
/// answered is reported on stderr with its line number (in JSON as an object with `error`)
/// and the others are still answered; the tool then fails (exit 1).
fn for_each_puzzle(
    words: &[String],
    file: Option<PathBuf>,
    json: bool,
    mut answer: impl FnMut(&RawPuzzle) -> Result<Answer>,
) -> Result<()> {
    let stdin = || PathBuf::from("-");
    let puzzles: Vec<(Option<usize>, Result<RawPuzzle>)> = match file {
        Some(path) => read_puzzles(&path)?
            .into_iter()
            .map(|(no, p)| (Some(no), p))
            .collect(),
        None if words.is_empty() || words == ["-"] => read_puzzles(&stdin())?
            .into_iter()
            .map(|(no, p)| (Some(no), p))
            .collect(),
        None => vec![(None, parse_puzzle(&words.join(" ")))],
    };
    if let [(None, p)] = puzzles.as_slice() {
        // One puzzle from the arguments: its error is the tool's one line.
        let a = p
            .as_ref()
            .map_err(|e| anyhow!("{e}"))
            .and_then(&mut answer)?;
        a.write(&mut std::io::stdout().lock(), json, "")?;
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    let mut failed = 0;
    for (no, p) in &puzzles {
        let line_field = no.map_or(String::new(), |n| format!(r#""line":{n},"#));
        match p.as_ref().map_err(|e| anyhow!("{e}")).and_then(&mut answer) {
            Ok(a) => a.write(&mut out, json, &line_field)?,
            Err(e) => {
                failed += 1;
                let e = match (no, p.is_ok()) {
                    (Some(n), true) => anyhow!("line {n}: {e}"),
                    _ => e,
                };
                if json {
                    writeln!(
                        out,
                        "{{{line_field}\"error\":{}}}",
                        json_string(&format!("{e}"))
                    )?;
                }
                out.flush()?;
                eprintln!("error: {e}");
            }
        }
    }
    if failed > 0 {
        // Each bad puzzle already had its line on stderr.
        out.flush()?;
        std::process::exit(1);
    }
    Ok(())
}
