//! The arena: a referee (the rules crate) plays games between two agents, swapping sides
//! every game, games in parallel, and prints a header line (the setting and its seed),
//! per-game lines and a summary with a 95% confidence interval, the forfeits of each side
//! and each side's answer times (from `go` to its first legal move and to its `bestmove`).
//! Each side has its own limit per move (`--first-movetime`, `--second-nodes`, ...).
//!
//! Agents are built in (`random`, `greedy`, `original` (alias `seed`), `default`) or
//! `cmd:<command line>`: an external program speaking the protocol, so two binaries can meet.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use puzzle_rules::sudoku::board::{Board, Move, Shape};
use puzzle_rules::sudoku::game::{starting_cells, Forfeit, Game, Mode, Outcome, Player};
use puzzle_rules::sudoku::solver;

use crate::agents::{Agent, AgentKind, Event, Limits};
use crate::protocol::{self, position_line};
use crate::record::{self, GameRecord, Side, Step};
use engine_kit::cli::CommandLineCheck;
use engine_kit::handle::deadline_for;

mod report;

use report::{ForfeitKind, GameResult, Setting, Timing};

/// Arena settings (the `arena` subcommand's flags).
#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    /// First agent: random, greedy, original (alias seed), default, territory, mcts, or cmd:<command line>.
    #[arg(long)]
    pub first: String,
    /// Second agent.
    #[arg(long)]
    pub second: String,
    /// Board: a block shape like 3x3 (empty board) or a board file (either course format).
    #[arg(long, default_value = "3x3")]
    pub board: String,
    /// Play mode: classic, rows, border, random (default: the board file's, else classic).
    #[arg(long)]
    pub mode: Option<String>,
    /// Random givens added to the board for each pair of games, e.g. 20-40 or 30.
    #[arg(long)]
    pub givens: Option<String>,
    /// Number of games (sides swap every game).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Time per move in milliseconds, for both sides (unless a side has its own limit).
    #[arg(long, default_value_t = 100)]
    pub movetime: u64,
    /// Nodes per move instead of a time limit, for matches that replay exactly (`default`
    /// and `original` count search nodes, `mcts` playouts; `random`, `greedy` and `territory`
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

/// How long an external agent may think about `go nodes N` before it counts as silent.
const EXTERNAL_NODES_WAIT_MS: u64 = 60_000;

/// One side's limit per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveLimit {
    /// `go movetime` in milliseconds.
    Time(u64),
    /// `go nodes`.
    Nodes(u64),
}

impl MoveLimit {
    /// The search limits of a move whose `go` came at `go`.
    pub(crate) fn limits(self, go: Instant) -> Limits {
        match self {
            MoveLimit::Time(ms) => Limits {
                deadline: Some(deadline_for(go, ms)),
                nodes: None,
                depth: None,
                since: Some(go),
            },
            MoveLimit::Nodes(n) => Limits {
                deadline: None,
                nodes: Some(n),
                depth: None,
                since: Some(go),
            },
        }
    }
}

/// What one `go` gave: the move (or the text of a malformed answer) and when, after the
/// `go`, the first legal move was proposed and the `bestmove` came.
struct Answer {
    choice: Result<Option<Move>, String>,
    first_legal: Option<Duration>,
    /// `None` when an external agent gave no `bestmove` in time.
    bestmove: Option<Duration>,
}

enum Contender {
    Builtin(Agent),
    External(External),
}

struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl External {
    fn spawn(command: &str) -> anyhow::Result<External> {
        let mut child = Process::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start '{command}'"))?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(External {
            child,
            stdin,
            lines: rx,
        })
    }

    /// Asks for a move; `Err` carries the text of a malformed answer. A silent or dead agent
    /// gives its last `propose` (as frameworks that kill at the deadline do), else nothing.
    fn choose(&mut self, game: &Game, limit: MoveLimit) -> Answer {
        let (go, wait_ms) = match limit {
            MoveLimit::Time(ms) => (format!("go movetime {ms}"), ms + 500),
            MoveLimit::Nodes(n) => (format!("go nodes {n}"), EXTERNAL_NODES_WAIT_MS),
        };
        let sent =
            writeln!(self.stdin, "{}\n{go}", position_line(game)).and_then(|_| self.stdin.flush());
        let start = Instant::now();
        let mut answer = Answer {
            choice: Ok(None),
            first_legal: None,
            bestmove: None,
        };
        if sent.is_err() {
            return answer;
        }
        let deadline = start + Duration::from_millis(wait_ms);
        let mut proposed = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    let legal = |m: &Move| game.check(*m).is_ok();
                    match words.as_slice() {
                        ["propose", m] => {
                            proposed = Move::parse(m).ok().or(proposed);
                            if answer.first_legal.is_none() && proposed.as_ref().is_some_and(legal)
                            {
                                answer.first_legal = Some(start.elapsed());
                            }
                        }
                        ["bestmove", "none"] => {
                            answer.bestmove = Some(start.elapsed());
                            return answer;
                        }
                        ["bestmove", m] => {
                            answer.bestmove = Some(start.elapsed());
                            answer.choice = Move::parse(m).map(Some).map_err(|_| line.clone());
                            if answer.first_legal.is_none()
                                && answer
                                    .choice
                                    .as_ref()
                                    .is_ok_and(|m| m.is_some_and(|m| legal(&m)))
                            {
                                answer.first_legal = answer.bestmove;
                            }
                            return answer;
                        }
                        _ => {}
                    }
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    // Late or dead: the next position must not receive this go's answer.
                    if proposed.is_some() {
                        let _ = writeln!(self.stdin, "stop\nisready");
                        let _ = self.stdin.flush();
                        let until = Instant::now() + Duration::from_millis(2000);
                        while let Ok(l) = self
                            .lines
                            .recv_timeout(until.saturating_duration_since(Instant::now()))
                        {
                            if l == "readyok" {
                                break;
                            }
                        }
                    }
                    answer.choice = Ok(proposed);
                    return answer;
                }
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn make_contender(spec: &str, seed: u64) -> anyhow::Result<Contender> {
    if let Some(cmd) = spec.strip_prefix("cmd:") {
        return Ok(Contender::External(External::spawn(cmd)?));
    }
    let (name, _) = split_movetime(spec)?;
    let kind = AgentKind::parse(name).with_context(|| {
        format!("unknown agent '{spec}' (random, greedy, original, default, territory, mcts, cmd:<command>)")
    })?;
    Ok(Contender::Builtin(Agent::new(kind, 1, seed)))
}

/// Each side's limit: its own (`--first-movetime`, `--first-nodes`, or a movetime after `@`
/// in its name), else the shared `--nodes`, else the shared `--movetime`; checks the agent
/// names and every limit's range.
fn limits_of(args: &ArenaArgs) -> anyhow::Result<[MoveLimit; 2]> {
    let movetime = |flag: &str, ms: u64| {
        if ms == 0 || ms > protocol::MAX_MOVETIME_MS {
            bail!("{flag} must be 1..{}", protocol::MAX_MOVETIME_MS);
        }
        Ok(MoveLimit::Time(ms))
    };
    let nodes = |flag: &str, n: u64| {
        if n == 0 {
            bail!("{flag} must be at least 1");
        }
        Ok(MoveLimit::Nodes(n))
    };
    let shared = match args.nodes {
        Some(n) => nodes("--nodes", n)?,
        None => movetime("--movetime", args.movetime)?,
    };
    let sides = [
        ("first", &args.first, args.first_movetime, args.first_nodes),
        (
            "second",
            &args.second,
            args.second_movetime,
            args.second_nodes,
        ),
    ];
    let mut limits = [shared; 2];
    for (side, (which, spec, own_ms, own_nodes)) in sides.into_iter().enumerate() {
        let (name, at_ms) = split_movetime(spec)?;
        if !spec.starts_with("cmd:") && AgentKind::parse(name).is_none() {
            bail!("unknown agent '{spec}' (random, greedy, original, default, territory, mcts, cmd:<command>)");
        }
        if at_ms.is_some() && (own_ms.is_some() || own_nodes.is_some()) {
            bail!("agent '{spec}': its movetime after @ and --{which}-movetime/--{which}-nodes say the same; give one");
        }
        if let Some(ms) = own_ms.or(at_ms) {
            limits[side] = movetime(&format!("--{which}-movetime"), ms)?;
        }
        if let Some(n) = own_nodes {
            limits[side] = nodes(&format!("--{which}-nodes"), n)?;
        }
    }
    Ok(limits)
}

/// `default@20` is the `default` agent with its own movetime of 20 ms.
fn split_movetime(spec: &str) -> anyhow::Result<(&str, Option<u64>)> {
    if spec.starts_with("cmd:") {
        return Ok((spec, None));
    }
    match spec.split_once('@') {
        None => Ok((spec, None)),
        Some((name, ms)) => {
            let ms: u64 = ms
                .parse()
                .ok()
                .filter(|m| (1..=protocol::MAX_MOVETIME_MS).contains(m))
                .with_context(|| {
                    format!(
                        "agent '{spec}': the movetime after @ must be 1..{}",
                        protocol::MAX_MOVETIME_MS
                    )
                })?;
            Ok((name, Some(ms)))
        }
    }
}

/// Fills `count` random cells of `board` with values that keep it solvable.
pub fn add_givens(board: &mut Board, count: usize, rng: &mut SmallRng) {
    let size = board.size();
    let mut cells: Vec<(usize, usize)> = (0..size)
        .flat_map(|r| (0..size).map(move |c| (r, c)))
        .filter(|&(r, c)| board.get(r, c) == 0)
        .collect();
    cells.shuffle(rng);
    let mut placed = 0;
    for (r, c) in cells {
        if placed == count {
            break;
        }
        let mut values: Vec<u8> = (1..=size as u8)
            .filter(|v| board.candidates(r, c) & (1 << (v - 1)) != 0)
            .collect();
        values.shuffle(rng);
        for v in values {
            let mv = Move::new(r, c, v);
            board.place(mv);
            if solver::has_solution(board) {
                placed += 1;
                break;
            }
            board.clear(r, c);
        }
    }
}

/// Reads `--givens`: `N` or `LO-HI`.
pub(crate) fn parse_givens(text: &str) -> anyhow::Result<(usize, usize)> {
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: usize = lo.trim().parse().context("--givens: need N or LO-HI")?;
    let hi: usize = hi.trim().parse().context("--givens: need N or LO-HI")?;
    if lo > hi {
        bail!("--givens: {lo} is larger than {hi}");
    }
    Ok((lo, hi))
}

/// The start position of game pair `pair` (both games of a pair start alike).
pub(crate) fn start_position(
    base: &Game,
    mode: Mode,
    givens: Option<(usize, usize)>,
    seed: u64,
    pair: usize,
) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(pair as u64));
    let mut board = base.board().clone();
    if let Some((lo, hi)) = givens {
        let cells = board.shape().cells() - board.filled();
        let count = rng.gen_range(lo..=hi).min(cells);
        add_givens(&mut board, count, &mut rng);
    }
    let mut owners = base.owners().to_vec();
    owners.resize(board.cells().len(), 0);
    let starts = if mode == base.mode() && mode != Mode::Random {
        [
            base.starts(Player::One).to_vec(),
            base.starts(Player::Two).to_vec(),
        ]
    } else {
        starting_cells(mode, board.shape(), rng.gen())
    };
    Game::from_parts(
        board,
        owners,
        mode,
        base.turn(),
        base.scores(),
        base.taboo().to_vec(),
        starts,
    )
    .unwrap_or_else(|_| base.clone())
}

/// The seeds of the two agents of game `index` (from 0) of a match with `seed`.
fn agent_seeds(seed: u64, index: usize) -> [u64; 2] {
    let seed = seed.wrapping_add(index as u64 * 7919);
    [seed, seed ^ 0xABCD]
}

/// Game `index` (from 0) of a match between two built-in agents from `start`, played as
/// [`run`] plays it (the first agent is player 1 in even games, the same seeds): every step
/// in order, up to the end or a forfeit.
pub(crate) fn play_builtin(
    kinds: [AgentKind; 2],
    start: Game,
    index: usize,
    seed: u64,
    limit: MoveLimit,
) -> Vec<Step> {
    let seeds = agent_seeds(seed, index);
    let mut contenders =
        [0, 1].map(|side| Contender::Builtin(Agent::new(kinds[side], 1, seeds[side])));
    play_game(start, index, &mut contenders, [limit; 2]).steps
}

fn play_game(
    start: Game,
    index: usize,
    contenders: &mut [Contender; 2],
    limits: [MoveLimit; 2],
) -> GameResult {
    let mut game = start.clone();
    // The first agent plays player 1 in even games, player 2 in odd ones.
    let first_is = if index.is_multiple_of(2) {
        Player::One
    } else {
        Player::Two
    };
    let side_of = |p: Player| if p == first_is { 0 } else { 1 };
    let mut moves = 0;
    let mut forfeit = None;
    let mut history = Vec::new();
    let mut steps = Vec::new();
    let mut timing = [Timing::default(), Timing::default()];
    let never = AtomicBool::new(false);
    while !game.is_over() {
        let p = game.turn();
        if !game.can_move(p) {
            game.pass();
            history.push("pass".to_string());
            steps.push(Step::Pass { player: p });
            continue;
        }
        let side = side_of(p);
        let answer = match &mut contenders[side] {
            Contender::Builtin(agent) => {
                let go = Instant::now();
                let mut first_legal = None;
                let mut seen = |e: Event| {
                    if let (None, Event::Propose(m)) = (first_legal, e) {
                        if game.check(m).is_ok() {
                            first_legal = Some(go.elapsed());
                        }
                    }
                };
                let mv = agent.choose(&game, limits[side].limits(go), &never, &mut seen);
                let took = go.elapsed();
                if mv.is_some_and(|m| game.check(m).is_ok()) {
                    first_legal = first_legal.or(Some(took));
                }
                Answer {
                    choice: Ok(mv),
                    first_legal,
                    bestmove: Some(took),
                }
            }
            Contender::External(ext) => ext.choose(&game, limits[side]),
        };
        timing[side].add(&answer, limits[side], index, moves + 1);
        match answer.choice {
            Err(text) => {
                forfeit = Some((
                    side,
                    ForfeitKind::Illegal,
                    format!("bad answer '{}'", protocol::quote(&text)),
                ));
                break;
            }
            Ok(None) => {
                forfeit = Some((side, ForfeitKind::NoMove, "no move".to_string()));
                break;
            }
            Ok(Some(mv)) => match game.play(mv) {
                Ok(outcome) => {
                    moves += 1;
                    let mark = if outcome == Outcome::Taboo { "!" } else { "" };
                    history.push(format!("{mv}{mark}"));
                    steps.push(Step::Move {
                        player: p,
                        mv,
                        taboo: outcome == Outcome::Taboo,
                    });
                }
                Err(f) => {
                    let kind = if f == Forfeit::TabooListed {
                        ForfeitKind::TabooListed
                    } else {
                        ForfeitKind::Illegal
                    };
                    forfeit = Some((side, kind, format!("{mv}: {f}")));
                    break;
                }
            },
        }
    }
    let scores = game.scores();
    let mine = scores[first_is.index()];
    let theirs = scores[first_is.other().index()];
    let points = match forfeit {
        Some((0, ..)) => 0.0,
        Some(_) => 1.0,
        None if mine > theirs => 1.0,
        None if mine < theirs => 0.0,
        None => 0.5,
    };
    GameResult {
        index,
        first_is,
        scores,
        points,
        forfeit,
        moves,
        start_rows: start.to_owned_rows(),
        history,
        start,
        steps,
        end: game,
        timing,
    }
}

impl MoveLimit {
    /// The limit as the header line and the JSON lines show it.
    fn text(self) -> String {
        match self {
            MoveLimit::Time(ms) => format!("movetime {ms}"),
            MoveLimit::Nodes(n) => format!("nodes {n}"),
        }
    }

    /// The limit as a record's `time` line shows it.
    fn record_text(self) -> String {
        match self {
            MoveLimit::Time(ms) => format!("movetime {ms}"),
            MoveLimit::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// Every game as a record, in game order.
fn write_records(
    file: &mut std::fs::File,
    results: &[GameResult],
    names: [&str; 2],
    limits: [MoveLimit; 2],
) -> anyhow::Result<()> {
    let mut text = format!(
        "{}\n# sudoku-agent arena: {} vs {}\n",
        record::HEADER,
        names[0],
        names[1]
    );
    for r in results {
        // Side 0 (the first agent) is player `first_is`.
        let side = |p: Player| if p == r.first_is { 0 } else { 1 };
        let sides = [Player::One, Player::Two].map(|p| Side {
            name: names[side(p)].to_string(),
            time: limits[side(p)].record_text(),
        });
        let forfeit = r.forfeit.as_ref().map(|(s, kind, detail)| {
            let player = if *s == 0 {
                r.first_is
            } else {
                r.first_is.other()
            };
            (player, format!("{} {detail}", kind.name()))
        });
        text.push_str(&record::format_game(&GameRecord {
            number: r.index + 1,
            start: &r.start,
            sides,
            steps: &r.steps,
            forfeit,
            end: &r.end,
        }));
    }
    file.write_all(text.as_bytes())
        .context("--record: cannot write")?;
    Ok(())
}

/// What an `arena` command line asks for, checked before any game starts.
struct Plan {
    limits: [MoveLimit; 2],
    givens: Option<(usize, usize)>,
    base: Game,
    mode: Mode,
    workers: usize,
    jsonl: Option<std::fs::File>,
    record_file: Option<std::fs::File>,
}

impl Plan {
    /// Reads and checks every argument clap cannot check alone, opens the files named.
    fn of(args: &ArenaArgs) -> anyhow::Result<Plan> {
        if args.games == 0 {
            bail!("--games must be at least 1");
        }
        let limits = limits_of(args)?;
        let givens = args.givens.as_deref().map(parse_givens).transpose()?;
        let base = match Shape::parse(&args.board) {
            Ok(shape) => Game::new(Board::empty(shape), Mode::Classic, 0),
            Err(_) => {
                if !std::path::Path::new(&args.board).exists()
                    && args.board.contains('x')
                    && args.board.len() < 8
                {
                    bail!("--board '{}': not a valid block shape", args.board);
                }
                crate::board_file::read_position_file(&args.board, &[])
                    .map_err(|e| anyhow::anyhow!("--board: {}", protocol::printable(&e)))?
            }
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
            .clamp(1, args.games);
        let create = |flag: &str, path: &Option<String>| {
            path.as_ref()
                .map(|path| {
                    std::fs::File::create(path)
                        .with_context(|| format!("{flag}: cannot create '{path}'"))
                })
                .transpose()
        };
        Ok(Plan {
            limits,
            givens,
            base,
            mode,
            workers,
            jsonl: create("--jsonl", &args.jsonl)?,
            record_file: create("--record", &args.record)?,
        })
    }
}

/// Runs the arena: a value the command line gives that cannot be used exits 2 (as a usage
/// error), a failure while playing 1.
pub fn run(args: ArenaArgs) -> anyhow::Result<()> {
    let Plan {
        limits,
        givens,
        base,
        mode,
        workers,
        mut jsonl,
        mut record_file,
    } = Plan::of(&args).on_command_line()?;
    let names = [args.first.as_str(), args.second.as_str()];
    let setting = Setting {
        board: &args.board,
        givens,
        mode,
        games: args.games,
        limits,
        seed: args.seed,
        threads: workers,
    };
    engine_kit::println_or_exit!("{}", report::header_line(names, &setting));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<GameResult>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let print_lock = Mutex::new(());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= args.games {
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
                        next.store(args.games, Ordering::Relaxed);
                        return;
                    }
                };
                let start = start_position(&base, mode, givens, args.seed, index / 2);
                let r = play_game(start, index, &mut contenders, limits);
                if !args.quiet {
                    let _g = print_lock.lock().unwrap();
                    engine_kit::println_or_exit!("{}", report::game_line(&r, names));
                }
                results.lock().unwrap().push(r);
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.index);
    if let Some(file) = jsonl.as_mut() {
        report::write_jsonl(
            file,
            &results,
            names,
            mode,
            args.movetime,
            args.nodes,
            limits,
        )?;
    }
    if let Some(file) = record_file.as_mut() {
        write_records(file, &results, names, limits)?;
    }
    report::print_summary(&results, names, &setting, started.elapsed());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        arena: ArenaArgs,
    }

    fn args(words: &str) -> Result<ArenaArgs, clap::Error> {
        Line::try_parse_from(std::iter::once("arena").chain(words.split_whitespace()))
            .map(|l| l.arena)
    }

    fn limits(words: &str) -> anyhow::Result<[MoveLimit; 2]> {
        limits_of(&args(words)?)
    }

    #[test]
    fn each_side_takes_its_own_limit_else_the_shared_one() {
        use MoveLimit::{Nodes, Time};
        let both = "--first default --second greedy";
        assert_eq!(limits(both).unwrap(), [Time(100), Time(100)]);
        assert_eq!(
            limits(&format!("{both} --movetime 50 --second-movetime 7")).unwrap(),
            [Time(50), Time(7)]
        );
        assert_eq!(
            limits(&format!(
                "{both} --first-movetime 2000 --second-movetime 100"
            ))
            .unwrap(),
            [Time(2000), Time(100)]
        );
        assert_eq!(
            limits(&format!("{both} --nodes 500 --first-movetime 30")).unwrap(),
            [Time(30), Nodes(500)]
        );
        assert_eq!(
            limits(&format!("{both} --second-nodes 9")).unwrap(),
            [Time(100), Nodes(9)]
        );
        assert_eq!(
            limits("--first default@25 --second greedy --nodes 40").unwrap(),
            [Time(25), Nodes(40)]
        );
        // A cmd: agent's `@` belongs to its command line.
        assert_eq!(
            limits("--first cmd:a@b --second greedy --first-movetime 3").unwrap(),
            [Time(3), Time(100)]
        );
    }

    #[test]
    fn refused_limits_name_the_flag() {
        let both = "--first default --second greedy";
        for (words, flag) in [
            (format!("{both} --first-movetime 0"), "--first-movetime"),
            (
                format!("{both} --second-movetime 86400001"),
                "--second-movetime",
            ),
            (format!("{both} --second-nodes 0"), "--second-nodes"),
            (format!("{both} --movetime 0"), "--movetime"),
            (format!("{both} --nodes 0"), "--nodes"),
            ("--first default@0 --second greedy".to_string(), "@"),
            (
                "--first default@10 --second greedy --first-movetime 10".to_string(),
                "@",
            ),
            (format!("{both} --first-movetime x"), "--first-movetime"),
        ] {
            let refused = limits(&words).expect_err(&words).to_string();
            assert!(refused.contains(flag), "{words}: {refused}");
        }
        // One side cannot have both kinds of limit.
        assert!(args(&format!("{both} --first-nodes 5 --first-movetime 5")).is_err());
        assert!(limits("--first nobody --second greedy")
            .unwrap_err()
            .to_string()
            .contains("unknown agent 'nobody'"));
    }

    #[test]
    fn a_game_with_different_times_per_side_keeps_to_each() {
        let shape = Shape::parse("2x2").unwrap();
        let start = Game::new(Board::empty(shape), Mode::Rows, 0);
        let mut contenders = [
            Contender::Builtin(Agent::new(AgentKind::Default, 1, 1)),
            Contender::Builtin(Agent::new(AgentKind::Default, 1, 2)),
        ];
        let limits = [MoveLimit::Time(5), MoveLimit::Time(150)];
        let r = play_game(start, 0, &mut contenders, limits);
        assert!(r.forfeit.is_none(), "{:?}", r.forfeit);
        assert!(r.end.is_over());
        let [quick, slow] = r.timing;
        assert_eq!(quick.moves + slow.moves, r.moves);
        assert!(quick.moves > 0 && slow.moves > 0);
        // Every move had a legal move proposed and a bestmove.
        assert_eq!((quick.missed, quick.silent), (0, 0));
        assert_eq!((slow.missed, slow.silent), (0, 0));
        // Generous bounds (a loaded machine): the 5 ms side never gets the 150 ms side's time.
        assert!(
            quick.bestmove.time < Duration::from_millis(120),
            "{quick:?}"
        );
        assert!(
            slow.bestmove.time > quick.bestmove.time,
            "{slow:?} {quick:?}"
        );
        assert!(slow.bestmove.time < Duration::from_millis(1000), "{slow:?}");
        assert!(quick.first_legal.time <= quick.bestmove.time);
    }
}
