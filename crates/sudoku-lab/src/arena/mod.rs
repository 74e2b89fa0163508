//! The arena: a referee (the rules crate) plays games between two agents, swapping sides
//! every game, games in parallel, and prints a header line (the setting and its seed),
//! per-game lines and a summary with a 95% confidence interval, the forfeits of each side
//! and each side's answer times (from `go` to its first legal move and to its `bestmove`).
//! Each side has its own limit per move (`--first-movetime`, `--second-nodes`, ...).
//!
//! Agents are built in (`random`, `greedy`, `original` (alias `seed`), `default`) or
//! `cmd:<command line>`: an external program speaking the protocol, so two binaries can meet.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context};

use puzzle_rules::sudoku::board::{Board, Shape};
use puzzle_rules::sudoku::game::{Game, Mode};

use engine_kit::cli::CommandLineCheck;
use sudoku_agent::protocol;

mod answer;
mod external;
mod game;
mod limits;
mod report;
mod saved;
mod start;
mod suite;

pub(crate) use game::play_builtin;
pub(crate) use game::self_play_scores;
pub(crate) use limits::MoveLimit;
pub(crate) use start::{add_givens, parse_givens, start_position, Solvability};
#[cfg(test)]
pub(crate) use suite::parse_openings;

use game::{agent_seeds, make_contender, play_game};
use limits::limits_of;
use report::Setting;
use saved::{Files, Saved};

/// Arena settings (the `arena` subcommand's flags).
#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    /// First agent: random, greedy, original (alias seed), default, territory, mcts, alphabeta, or cmd:<command line>.
    #[arg(long)]
    pub first: String,
    /// Second agent.
    #[arg(long)]
    pub second: String,
    /// Board: a block shape like 3x3 (empty board) or a board file (either course format).
    #[arg(long, default_value = "3x3", conflicts_with = "openings")]
    pub board: String,
    /// Play mode: classic, rows, border, random (default: the board file's, else classic).
    #[arg(long, conflicts_with = "openings")]
    pub mode: Option<String>,
    /// Random givens added to the board for each pair of games, e.g. 20-40 or 30.
    #[arg(long, conflicts_with = "openings")]
    pub givens: Option<String>,
    /// Opening suite: a file of `position` lines (one per line) or of game records (each
    /// unfinished game's last position). Each opening is played twice, sides swapped.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// With --openings: play only opening N (from 1), twice with sides swapped.
    #[arg(long, value_name = "N", requires = "openings")]
    pub opening: Option<usize>,
    /// Number of games (sides swap every game; default 20, with --openings two per opening,
    /// and more games go round the suite again).
    #[arg(long)]
    pub games: Option<usize>,
    /// Time per move in milliseconds, for both sides (unless a side has its own limit).
    #[arg(long, default_value_t = 100)]
    pub movetime: u64,
    /// Nodes per move instead of a time limit, for matches that replay exactly (`default`
    /// `original` and `alphabeta` count search nodes, `mcts` playouts; `random`, `greedy` and `territory`
    /// need no limit; cmd: agents get `go nodes N`); for both sides unless a side has its own.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// The first agent's own time per move in milliseconds (instead of --movetime or
    /// --nodes; `--first default@MS` says the same).
    #[arg(long, value_name = "MS", conflicts_with = "first_nodes")]
    pub first_movetime: Option<u64>,
    /// The second agent's own time per move in milliseconds.
    #[arg(long, value_name = "MS", conflicts_with = "second_nodes")]
    pub second_movetime: Option<u64>,
    /// The first agent's own nodes per move (instead of --movetime or --nodes).
    #[arg(long, value_name = "N")]
    pub first_nodes: Option<u64>,
    /// The second agent's own nodes per move.
    #[arg(long, value_name = "N")]
    pub second_nodes: Option<u64>,
    /// Seed of the boards, starting cells and the agents' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time (each agent then searches with one thread).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Also write one JSON object per game to this file.
    #[arg(long)]
    pub jsonl: Option<String>,
    /// Also write every game as a record (`protocol/records.md`) to this file, games in
    /// order in one file.
    #[arg(long)]
    pub record: Option<String>,
    /// Print only the summary, not a line per game.
    #[arg(long)]
    pub quiet: bool,
}

/// What an `arena` command line asks for, checked before any game starts.
struct Plan {
    games: usize,
    limits: [MoveLimit; 2],
    givens: Option<(usize, usize)>,
    base: Game,
    mode: Mode,
    /// The suite of --openings (only the one of --opening when given), and its length.
    openings: Vec<Game>,
    workers: usize,
    jsonl: Option<std::fs::File>,
    record_file: Option<std::fs::File>,
}

impl Plan {
    /// Reads and checks every argument clap cannot check alone, opens the files named.
    fn of(args: &ArenaArgs) -> anyhow::Result<Plan> {
        let mut openings = match &args.openings {
            Some(path) => suite::read_openings(path)?,
            None => Vec::new(),
        };
        if let Some(n) = args.opening {
            if n == 0 || n > openings.len() {
                bail!(
                    "--opening {n}: the suite has openings 1 to {}",
                    openings.len()
                );
            }
            openings = vec![openings.swap_remove(n - 1)];
        }
        let games = args.games.unwrap_or(if openings.is_empty() {
            20
        } else {
            2 * openings.len()
        });
        if games == 0 {
            bail!("--games must be at least 1");
        }
        let limits = limits_of(args)?;
        let givens = args.givens.as_deref().map(parse_givens).transpose()?;
        let base = match openings.first() {
            Some(first) => first.clone(),
            None => Self::board_of(args)?,
        };
        let mode = match &args.mode {
            Some(m) => Mode::parse(m)
                .with_context(|| format!("--mode '{m}': use classic, rows, border or random"))?,
            None => base.mode(),
        };
        if args.threads == Some(0) {
            bail!("--threads must be at least 1");
        }
        let workers = args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, games);
        let create = |flag: &str, path: &Option<String>| {
            path.as_ref()
                .map(|path| {
                    std::fs::File::create(path)
                        .with_context(|| format!("{flag}: cannot create '{path}'"))
                })
                .transpose()
        };
        Ok(Plan {
            games,
            limits,
            givens,
            base,
            mode,
            openings,
            workers,
            jsonl: create("--jsonl", &args.jsonl)?,
            record_file: create("--record", &args.record)?,
        })
    }

    /// The game of `--board`: an empty board of a block shape, or a board file.
    fn board_of(args: &ArenaArgs) -> anyhow::Result<Game> {
        Ok(match Shape::parse(&args.board) {
            Ok(shape) => Game::new(Board::empty(shape), Mode::Classic, 0),
            Err(_) => {
                if !std::path::Path::new(&args.board).exists()
                    && args.board.contains('x')
                    && args.board.len() < 8
                {
                    bail!("--board '{}': not a valid block shape", args.board);
                }
                sudoku_agent::board_file::read_position_file(&args.board, &[])
                    .map_err(|e| anyhow::anyhow!("--board: {}", protocol::printable(&e)))?
            }
        })
    }
}

/// Runs the arena: a value the command line gives that cannot be used exits 2 (as a usage
/// error), a failure while playing 1.
pub fn run(args: ArenaArgs) -> anyhow::Result<()> {
    let Plan {
        games,
        limits,
        givens,
        base,
        mode,
        openings,
        workers,
        jsonl,
        record_file,
    } = Plan::of(&args).on_command_line()?;
    let names = [args.first.as_str(), args.second.as_str()];
    let mixed = openings.iter().any(|g| g.mode() != mode);
    let setting = Setting {
        board: &args.board,
        openings: args
            .openings
            .as_deref()
            .map(|path| (path, openings.len(), mixed)),
        givens,
        mode,
        games,
        limits,
        seed: args.seed,
        threads: workers,
    };
    engine_kit::println_or_exit!("{}", report::header_line(names, &setting));
    let next = AtomicUsize::new(0);
    let saved = Mutex::new(Saved::new(Files {
        jsonl,
        records: record_file,
        names,
        movetime: args.movetime,
        nodes: args.nodes,
        limits,
    }));
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let print_lock = Mutex::new(());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= games {
                    return;
                }
                let seeds = agent_seeds(args.seed, index);
                let mut contenders = match (
                    make_contender(&args.first, seeds[0]),
                    make_contender(&args.second, seeds[1]),
                ) {
                    (Ok(a), Ok(b)) => [a, b],
                    (Err(e), _) | (_, Err(e)) => {
                        *failure.lock().unwrap() = Some(e);
                        next.store(games, Ordering::Relaxed);
                        return;
                    }
                };
                let pair = index / 2;
                let (start, opening) = if openings.is_empty() {
                    (start_position(&base, mode, givens, args.seed, pair), None)
                } else {
                    let k = pair % openings.len();
                    (openings[k].clone(), Some(args.opening.unwrap_or(k + 1)))
                };
                let mut r = play_game(start, index, &mut contenders, limits);
                r.opening = opening;
                if !args.quiet {
                    let _g = print_lock.lock().unwrap();
                    engine_kit::println_or_exit!("{}", report::game_line(&r, names));
                }
                if let Err(e) = saved.lock().unwrap().add(r) {
                    *failure.lock().unwrap() = Some(e);
                    next.store(games, Ordering::Relaxed);
                    return;
                }
            });
        }
    });
    let results = saved.into_inner().unwrap().finish();
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    let results = results?;
    report::print_summary(&results, names, &setting, started.elapsed());
    Ok(())
}
