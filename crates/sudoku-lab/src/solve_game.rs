//! `solve-game`: the exact value of a Competitive Sudoku position ([`sudoku_agent::exact`]) from
//! the words of the protocol's `position` command, with the optimal first moves, nodes and
//! time. A position the budget does not solve is an error: no unproven value is printed.
//!
//! Memory is bounded by `--memory` ([`MemoryBudget`]): the solutions of the starting board
//! the solver may list are capped so their bitsets fit half of it, and the search, which
//! grows its table of proven bounds as it goes, is stopped (with a one-line error, never an
//! abort) before the table's next doubling could take the process past the budget.

use std::cell::Cell;
use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use puzzle_rules::sudoku::Game;

use sudoku_agent::exact::{self, Budget, Effect, FirstMove, OutOfBudget, Solution};
use sudoku_agent::protocol::{parse_line, Command};

/// Arguments of `solve-game`.
#[derive(Args)]
pub struct SolveGameArgs {
    /// The position as the protocol's `position` command takes it: `<m>x<n> <rows> [mode
    /// M] [turn 1|2] [scores A B] [taboo <move>...] [allowed1 <cell>...] [allowed2
    /// <cell>...]`, or `file <path> [...]`.
    #[arg(required = true)]
    position: Vec<String>,
    /// Search nodes after which the solver gives up (and says so).
    #[arg(long, default_value_t = Budget::default().max_nodes)]
    max_nodes: u64,
    /// Sudoku solutions of the starting board the solver enumerates at most (fewer when
    /// their bitsets would not fit half of --memory).
    #[arg(long, default_value_t = Budget::default().max_solutions)]
    max_solutions: usize,
    /// Memory the solve may take, in MiB: the search stops with an error before its table
    /// could pass it (Linux; elsewhere only the solutions are capped).
    #[arg(long, default_value_t = DEFAULT_MEMORY_MIB, value_parser = clap::value_parser!(u64).range(16..=1 << 30))]
    memory: u64,
    /// Also print every move of the player to move with its value.
    #[arg(long)]
    all_moves: bool,
    /// One JSON object instead of text lines.
    #[arg(long)]
    json: bool,
}

/// Runs `solve-game`.
pub fn run(args: SolveGameArgs) -> Result<()> {
    let game = read_position(&args.position)?;
    let memory = MemoryBudget::new(args.memory << 20);
    let max_solutions = args.max_solutions.min(memory.max_solutions(&game));
    let budget = Budget {
        max_nodes: args.max_nodes,
        max_solutions,
    };
    let start = Instant::now();
    let solution = exact::solve_until(&game, budget, &|| memory.exceeded()).map_err(|e| {
        match e {
            OutOfBudget::Stopped => anyhow!(
                "not solved: after {} nodes the search's table would pass the memory budget of {} MiB (--memory)",
                memory.nodes(),
                args.memory
            ),
            OutOfBudget::Solutions { .. } if max_solutions < args.max_solutions => anyhow!(
                "{e}, the most whose bitsets fit half the memory budget of {} MiB (--memory)",
                args.memory
            ),
            e => anyhow!("{e}"),
        }
    })?;
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    if args.json {
        engine_kit::println_or_exit!("{}", json(&solution, millis));
    } else {
        engine_kit::println_or_exit!(
            "value {} mover {} final {}",
            solution.value,
            solution.mover.number(),
            solution.final_difference
        );
        engine_kit::println_or_exit!("best {}", move_list(solution.best_moves()));
        if args.all_moves {
            for m in &solution.first_moves {
                engine_kit::println_or_exit!(
                    "move {} {} value {}",
                    move_text(m),
                    effect_text(m),
                    m.value
                );
            }
        }
        engine_kit::println_or_exit!(
            "nodes {} table {} solutions {} time {:.0} ms",
            solution.nodes,
            solution.table_entries,
            solution.sudoku_solutions,
            millis
        );
    }
    Ok(())
}

/// The default of `--memory`, in MiB: with the program itself the process stays under 1 GB.
const DEFAULT_MEMORY_MIB: u64 = 768;

/// The memory a solve may take, and the test that stops its search before the table of
/// proven bounds passes it.
///
/// The table is a hash map that doubles when full: while it moves to the new one both are
/// held, three times the old one's size. So the search is stopped once the memory the
/// process took since the start, less what it held when the search began (the solutions'
/// bitsets), times three, plus that, passes the budget. Memory is the process's address
/// space (`VmSize` of `/proc/self/status`, what `ulimit -v` limits), read every
/// [`CHECK_EVERY`] stop tests.
struct MemoryBudget {
    bytes: u64,
    /// The address space before the solve.
    base: Option<u64>,
    /// What the process held when the search began (the first stop test).
    at_search: Cell<Option<u64>>,
    /// Stop tests so far.
    tests: Cell<u64>,
}

/// Stop tests (each [`exact::STOP_EVERY`] nodes) between two reads of the address space.
const CHECK_EVERY: u64 = 8;

impl MemoryBudget {
    fn new(bytes: u64) -> MemoryBudget {
        MemoryBudget {
            bytes,
            base: address_space(),
            at_search: Cell::new(None),
            tests: Cell::new(0),
        }
    }

    /// The most solutions of `game`'s starting board whose bitsets fit half the budget.
    /// Each costs one byte per kept cell while they are listed (twice that as the list
    /// grows) and one bit per kept cell and value in the bitsets; the kept cells are every
    /// cell on a board of at most [`exact::MAX_CELLS`] cells, else the empty ones.
    fn max_solutions(&self, game: &Game) -> usize {
        let board = game.board();
        let size = board.size() as u64;
        let cells = board.shape().cells();
        let kept = if cells <= exact::MAX_CELLS {
            cells
        } else {
            board.cells().iter().filter(|&&v| v == 0).count()
        } as u64;
        let per_solution = (kept * (16 + size)).div_ceil(8).max(1);
        usize::try_from(self.bytes / 2 / per_solution).unwrap_or(usize::MAX)
    }

    /// Search nodes before the last stop test.
    fn nodes(&self) -> u64 {
        self.tests.get() * exact::STOP_EVERY
    }

    /// The stop test: true once the table's next doubling could pass the budget.
    fn exceeded(&self) -> bool {
        let tests = self.tests.get() + 1;
        self.tests.set(tests);
        if tests % CHECK_EVERY != 1 {
            return false;
        }
        let (Some(base), Some(now)) = (self.base, address_space()) else {
            return false;
        };
        let used = now.saturating_sub(base);
        let held = *self.at_search.get().get_or_insert(used);
        self.at_search.set(Some(held));
        held + 3 * used.saturating_sub(held) > self.bytes
    }
}

/// The process's address space in bytes (`VmSize`), `None` where `/proc` does not give it.
fn address_space() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The game of the `position` words, through the protocol's own parser.
fn read_position(words: &[String]) -> Result<Game> {
    let line = format!("position {}", words.join(" "));
    match parse_line(&line) {
        Ok(Command::Position(game)) => Ok(*game),
        Ok(Command::PositionFile { path, extras }) => {
            sudoku_agent::board_file::read_position_file(&path, &extras).map_err(|e| anyhow!("{e}"))
        }
        Ok(_) => bail!("not a position"),
        Err(e) => bail!("{e}"),
    }
}

fn move_text(m: &FirstMove) -> String {
    m.play
        .map_or_else(|| "none".to_string(), |mv| mv.to_string())
}

fn effect_text(m: &FirstMove) -> String {
    match m.effect {
        Effect::Placed { points } => format!("placed {points}"),
        Effect::Taboo => "taboo".to_string(),
        Effect::Pass => "pass".to_string(),
    }
}

fn move_list<'a>(moves: impl Iterator<Item = &'a FirstMove>) -> String {
    let list: Vec<String> = moves.map(move_text).collect();
    if list.is_empty() {
        "none (the game is over)".to_string()
    } else {
        list.join(" ")
    }
}

fn json(solution: &Solution, millis: f64) -> String {
    let quoted = |m: &FirstMove| format!("\"{}\"", move_text(m));
    let best: Vec<String> = solution.best_moves().map(quoted).collect();
    let mut moves = Vec::new();
    for m in &solution.first_moves {
        let mut obj = format!("{{\"move\":{},\"value\":{}", quoted(m), m.value);
        match m.effect {
            Effect::Placed { points } => {
                let _ = write!(obj, ",\"effect\":\"placed\",\"points\":{points}}}");
            }
            Effect::Taboo => obj.push_str(",\"effect\":\"taboo\"}"),
            Effect::Pass => obj.push_str(",\"effect\":\"pass\"}"),
        }
        moves.push(obj);
    }
    format!(
        "{{\"value\":{},\"mover\":{},\"final\":{},\"best\":[{}],\"moves\":[{}],\"nodes\":{},\
         \"table\":{},\"solutions\":{},\"time_ms\":{:.1}}}",
        solution.value,
        solution.mover.number(),
        solution.final_difference,
        best.join(","),
        moves.join(","),
        solution.nodes,
        solution.table_entries,
        solution.sudoku_solutions,
        millis
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn reads_positions_as_the_protocol_does() {
        let game = read_position(&words("2x2 1+.../..../..../.... mode rows scores 2 1")).unwrap();
        assert_eq!(game.scores(), [2, 1]);
        assert_eq!(game.turn().number(), 2);
        let game = read_position(&words("file ../../tests/data/sudoku-2x2-2022.txt")).unwrap();
        assert_eq!(game.board().filled(), 2);
        let e = read_position(&words("2x2 ..../..../....")).unwrap_err();
        assert_eq!(e.to_string(), "position: expected 4 rows, found 3");
    }

    #[test]
    fn json_lists_the_best_moves_and_every_move() {
        let game = read_position(&words("2x2 .234/3412/.143/4321")).unwrap();
        let solution = exact::solve(&game, Budget::default()).unwrap();
        let text = json(&solution, 1.0);
        assert!(
            text.starts_with(
                "{\"value\":-4,\"mover\":1,\"final\":-4,\"best\":[\"0,0=1\",\"2,0=2\"]"
            ),
            "{text}"
        );
        assert!(
            text.contains("{\"move\":\"0,0=1\",\"value\":-4,\"effect\":\"placed\",\"points\":3}"),
            "{text}"
        );
    }
}
