//! `solve-game`: the exact value of a Competitive Sudoku position ([`sudoku_agent::exact`]) from
//! the words of the protocol's `position` command, with the optimal first moves, nodes and
//! time. A position the budget does not solve is an error: no unproven value is printed.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use puzzle_rules::sudoku::Game;

use sudoku_agent::exact::{self, Budget, Effect, FirstMove, Solution};
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
