//! `solve-game`: the exact value of a Competitive Sudoku position ([`crate::exact`]) from
//! the words of the protocol's `position` command, with the optimal first moves, nodes and
//! time. A position the budget does not solve is an error: no unproven value is printed.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use puzzle_rules::sudoku::Game;

use crate::exact::{self, Budget, Effect, FirstMove, Solution};
use crate::protocol::{parse_line, Command};

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
    /// Sudoku solutions of the starting board the solver enumerates at most.
    #[arg(long, default_value_t = Budget::default().max_solutions)]
    max_solutions: usize,
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
    let budget = Budget {
        max_nodes: args.max_nodes,
        max_solutions: args.max_solutions,
    };
    let start = Instant::now();
    let solution = exact::solve(&game, budget).map_err(|e| anyhow!("{e}"))?;
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    if args.json {
        say!("{}", json(&solution, millis));
    } else {
        say!(
            "value {} mover {} final {}",
            solution.value,
            solution.mover.number(),
            solution.final_difference
        );
        say!("best {}", move_list(solution.best_moves()));
        if args.all_moves {
            for m in &solution.first_moves {
                say!("move {} {} value {}", move_text(m), effect_text(m), m.value);
            }
        }
        say!(
            "nodes {} table {} solutions {} time {:.0} ms",
            solution.nodes,
            solution.table_entries,
            solution.sudoku_solutions,
            millis
        );
    }
    Ok(())
}

/// The game of the `position` words, through the protocol's own parser.
fn read_position(words: &[String]) -> Result<Game> {
    let line = format!("position {}", words.join(" "));
    match parse_line(&line) {
        Ok(Command::Position(game)) => Ok(*game),
        Ok(Command::PositionFile { path, extras }) => {
            crate::board_file::read_position_file(&path, &extras).map_err(|e| anyhow!("{e}"))
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
