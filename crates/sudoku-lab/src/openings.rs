//! Opening suites: the start positions a match plays, each twice with the sides swapped, so
//! that a match of N games is N/2 different starts rather than one game played N times (the
//! habit of chess match tools: fastchess and cutechess `-openings` with `-repeat`).
//!
//! An opening file (read by `arena::suite`) holds either `position` lines of the protocol, one
//! per line (`#` starts a comment line), or game records (`protocol/records.md`), each
//! unfinished game giving the position after its last step. [`generate`] makes a suite:
//! random legal plies (or random givens) from the empty board, seeded, each kept only when a
//! game of `default` against itself from it ends close (`--balance`).

use anyhow::{bail, Context};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use puzzle_rules::sudoku::board::{Board, Shape};
use puzzle_rules::sudoku::game::{Game, Mode};

use engine_kit::cli::CommandLineCheck;
use sudoku_agent::agents::AgentKind;
use sudoku_agent::protocol::position_line;

use crate::arena::{self_play_scores, MoveLimit, Solvability};

/// The `openings` subcommand's flags.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// Block shape of the empty board the openings start from, e.g. 3x3.
    #[arg(long, default_value = "3x3")]
    pub board: String,
    /// Play mode: classic, rows, border, random (random draws the allowed squares per opening).
    #[arg(long, default_value = "classic")]
    pub mode: String,
    /// Number of openings (at most 1,000,000), printed as they are found.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=MAX_COUNT as u64))]
    pub count: u64,
    /// Random legal plies from the empty board (moves that keep the sudoku solvable, so none
    /// is taboo), player 1 first.
    #[arg(long, default_value_t = 4)]
    pub plies: usize,
    /// Random givens added to the board before the plies (a puzzle to play on).
    #[arg(long, default_value_t = 0)]
    pub givens: usize,
    /// Keep an opening only when `default` against itself, from it, ends with at most this
    /// many points between the players (both players' games are played: one game, since the
    /// same agent plays both sides). Without it every opening is kept.
    #[arg(long, value_name = "POINTS")]
    pub balance: Option<u32>,
    /// Nodes per move of the balance games (fixed, so the suite is the same on any machine).
    #[arg(long, default_value_t = 2000)]
    pub balance_nodes: u64,
    /// Seed of the plies, givens and allowed squares.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Tries per opening asked for before the generator gives up (a `--balance` nobody meets).
const TRIES_PER_OPENING: u64 = 50;

/// The most openings one run makes.
pub const MAX_COUNT: usize = 1_000_000;

/// `sudoku-lab openings`: prints the suite, one `position` line per opening, after a
/// comment line giving the command that makes it.
pub fn run(args: OpeningsArgs) -> anyhow::Result<()> {
    let (shape, mode) = check_args(&args).on_command_line()?;
    engine_kit::println_or_exit!(
        "# sudoku-lab openings --board {} --mode {} --count {} --plies {} --givens {}{} --balance-nodes {} --seed {}",
        args.board,
        mode,
        args.count,
        args.plies,
        args.givens,
        args.balance
            .map(|b| format!(" --balance {b}"))
            .unwrap_or_default(),
        args.balance_nodes,
        args.seed
    );
    generate_each(shape, mode, &args, |game| {
        engine_kit::println_or_exit!("{}", position_line(game));
    })
}

fn check_args(args: &OpeningsArgs) -> anyhow::Result<(Shape, Mode)> {
    let shape =
        Shape::parse(&args.board).map_err(|e| anyhow::anyhow!("--board '{}': {e}", args.board))?;
    let mode = Mode::parse(&args.mode).with_context(|| {
        format!(
            "--mode '{}': use classic, rows, border or random",
            args.mode
        )
    })?;
    if args.balance_nodes == 0 {
        bail!("--balance-nodes must be at least 1");
    }
    let cells = shape.cells();
    if args.plies.saturating_add(args.givens) >= cells {
        bail!(
            "--plies {} and --givens {} fill the {cells} cells of a {}x{} board: nothing left to play",
            args.plies,
            args.givens,
            shape.m(),
            shape.n()
        );
    }
    Ok((shape, mode))
}

/// The suite: `count` distinct openings, each balanced when `--balance` is given.
#[cfg(test)]
pub(crate) fn generate(shape: Shape, mode: Mode, args: &OpeningsArgs) -> anyhow::Result<Vec<Game>> {
    let mut suite = Vec::new();
    generate_each(shape, mode, args, |game| suite.push(game.clone()))?;
    Ok(suite)
}

/// Makes the suite, handing each opening to `emit` as soon as it is found; an error after
/// the last one when fewer than `count` were found. Openings already seen are known by a
/// hash of their position line, so memory stays small whatever the count.
pub(crate) fn generate_each(
    shape: Shape,
    mode: Mode,
    args: &OpeningsArgs,
    mut emit: impl FnMut(&Game),
) -> anyhow::Result<()> {
    let mut rng = SmallRng::seed_from_u64(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x0FE1);
    let mut seen = std::collections::HashSet::new();
    let mut found = 0;
    let tries = args.count.saturating_mul(TRIES_PER_OPENING);
    for attempt in 0..tries {
        if found == args.count {
            break;
        }
        let Some(game) = random_opening(shape, mode, args.givens, args.plies, &mut rng) else {
            continue;
        };
        if !seen.insert(line_hash(&position_line(&game))) {
            continue;
        }
        if let Some(margin) = args.balance {
            let [a, b] = self_play_scores(
                [AgentKind::Default; 2],
                game.clone(),
                args.seed.wrapping_add(attempt),
                MoveLimit::Nodes(args.balance_nodes),
            );
            if a.abs_diff(b) > margin {
                continue;
            }
        }
        emit(&game);
        found += 1;
    }
    if found < args.count {
        bail!(
            "found {found} of {} openings in {tries} tries: fewer plies, a wider --balance or another seed may do",
            args.count
        );
    }
    Ok(())
}

/// A 64-bit hash of a position line (SipHash with fixed keys: the same in every run).
fn line_hash(line: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new();
    line.hash(&mut h);
    h.finish()
}

/// One random opening: the empty board with `givens` random givens, the mode's allowed
/// squares, then `plies` random moves that keep the sudoku solvable. `None` when a player
/// had no such move on the way or the game ended.
fn random_opening(
    shape: Shape,
    mode: Mode,
    givens: usize,
    plies: usize,
    rng: &mut SmallRng,
) -> Option<Game> {
    let mut board = Board::empty(shape);
    crate::arena::add_givens(&mut board, givens, rng);
    let mut game = Game::new(board, mode, rng.gen());
    let mut solvable = Solvability::default();
    for _ in 0..plies {
        let mut moves = game.legal_moves(game.turn());
        moves.shuffle(rng);
        let mv = moves
            .into_iter()
            .find(|&mv| solvable.allows(game.board(), mv))?;
        // A legal move proven to keep the sudoku solvable: placed, as the referee would.
        game.apply_checked(mv, true);
        solvable.played();
        if game.is_over() {
            return None;
        }
    }
    Some(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::parse_openings;
    use puzzle_rules::sudoku::solver;

    fn args(mode: &str, count: u64, plies: usize, balance: Option<u32>) -> OpeningsArgs {
        OpeningsArgs {
            board: "2x2".into(),
            mode: mode.into(),
            count,
            plies,
            givens: 0,
            balance,
            balance_nodes: 300,
            seed: 7,
        }
    }

    #[test]
    fn generated_openings_are_distinct_seeded_and_read_back() {
        let shape = Shape::parse("2x2").unwrap();
        for mode in ["classic", "rows", "border", "random"] {
            let a = args(mode, 6, 3, None);
            let suite = generate(shape, Mode::parse(mode).unwrap(), &a).unwrap();
            let lines: Vec<String> = suite.iter().map(position_line).collect();
            let again: Vec<String> = generate(shape, Mode::parse(mode).unwrap(), &a)
                .unwrap()
                .iter()
                .map(position_line)
                .collect();
            assert_eq!(lines, again, "the same seed gives the same suite");
            let distinct: std::collections::HashSet<&String> = lines.iter().collect();
            assert_eq!(distinct.len(), 6);
            for g in &suite {
                assert_eq!(
                    g.board().filled(),
                    3,
                    "three plies placed: {}",
                    position_line(g)
                );
                assert_eq!(g.mode().to_string(), mode);
                assert!(solver::has_solution(g.board()));
            }
            let read = parse_openings(&lines.join("\n")).unwrap();
            let read: Vec<String> = read.iter().map(position_line).collect();
            assert_eq!(read, lines, "a suite reads back as written");
        }
    }

    #[test]
    fn balance_keeps_only_close_self_play_games() {
        let shape = Shape::parse("2x2").unwrap();
        let a = args("rows", 4, 2, Some(0));
        for g in generate(shape, Mode::Rows, &a).unwrap() {
            let [x, y] =
                self_play_scores([AgentKind::Default; 2], g.clone(), 1, MoveLimit::Nodes(300));
            // The balance game had its own seed; a drawn opening stays close at another.
            assert!(x.abs_diff(y) <= 8, "{} ends {x}-{y}", position_line(&g));
        }
    }
}
