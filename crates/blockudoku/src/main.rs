//! `blockudoku`: the Blockudoku engine binary.
//!
//! With no arguments it serves the `blockudoku 1` protocol (protocol/blockudoku.md) on
//! stdin/stdout, or the original agent's legacy I/O when the first token is a number.
//! `selfplay` and `bench` run one-shot jobs. A reader thread feeds stdin lines to the loop so
//! `isready` and `stop` are answered while a search thread runs.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use puzzle_rules::blockudoku::{Board, GameState, Hand, Scoring};

mod eval;
mod legacy;
mod protocol;
mod search;
mod selfplay;

use protocol::{Command, GoLimits, Setting};
use search::{Agent, Control, Outcome, WEIGHTS};

#[derive(Parser)]
#[command(
    name = "blockudoku",
    version,
    about = "Blockudoku engine (protocol blockudoku 1)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
}

#[derive(Subcommand)]
enum Sub {
    /// Play seeded games and print per-game lines and a death-rate summary.
    Selfplay(selfplay::SelfplayArgs),
    /// Search fixed positions to a fixed node limit; prints the node total and speed.
    Bench(selfplay::BenchArgs),
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return;
            }
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("bad arguments");
            eprintln!("{first}");
            std::process::exit(2);
        }
    };
    let result = match cli.command {
        None => {
            serve();
            Ok(())
        }
        Some(Sub::Selfplay(args)) => selfplay::run_selfplay(&args),
        Some(Sub::Bench(args)) => selfplay::run_bench(&args),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// Writes whole lines to stdout at once, flushing, so threads never interleave mid-line.
fn say(lines: &[String]) {
    let out = std::io::stdout();
    let mut out = out.lock();
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    let _ = out.flush();
}

enum Input {
    Line(String),
    Eof,
}

struct Running {
    stop: Arc<AtomicBool>,
    handle: thread::JoinHandle<()>,
}

struct Session {
    state: GameState,
    hand: Hand,
    scoring: Scoring,
    agent: Agent,
    threads: usize,
    running: Option<Running>,
}

/// Runs one search to the end (no clock) and returns its outcome.
fn search_now(
    board: Board,
    hand: &Hand,
    agent: Agent,
    threads: usize,
    stop: &AtomicBool,
    nodes: u64,
    widen: bool,
) -> Outcome {
    let slots = hand.live();
    let ctl = Control::new(stop, nodes);
    search::search_widening(board, &slots, agent, &WEIGHTS, threads, &ctl, widen)
}

impl Session {
    fn new() -> Session {
        Session {
            state: GameState::default(),
            hand: Hand::default(),
            scoring: Scoring::Blockudoku,
            agent: Agent::Default,
            threads: 1,
            running: None,
        }
    }

    /// Waits for a running search (stopping it first if asked); its bestmove is printed by
    /// the search thread itself.
    fn finish_search(&mut self, stop_first: bool) {
        if let Some(run) = self.running.take() {
            if stop_first {
                run.stop.store(true, Ordering::Relaxed);
            }
            let _ = run.handle.join();
        }
    }

    fn searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    fn go(&mut self, limits: GoLimits) -> Result<(), String> {
        if self.hand.no_pieces() {
            return Err("no pieces in hand: send position first".into());
        }
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(ms) = limits.movetime {
            let timer_stop = Arc::clone(&stop);
            // Stop a little early: the answer still has to be formatted and written.
            let wait = Duration::from_millis(ms).saturating_sub(Duration::from_millis(2));
            thread::spawn(move || {
                thread::sleep(wait);
                timer_stop.store(true, Ordering::Relaxed);
            });
        }
        let (board, hand, agent, threads) = (
            self.state.board,
            self.hand.clone(),
            self.agent,
            self.threads,
        );
        let search_stop = Arc::clone(&stop);
        // A bare `go` answers at once from the default beam; given time or nodes, widen.
        let widen = limits.movetime.is_some() || limits.nodes.is_some() || limits.infinite;
        let handle = thread::spawn(move || {
            let start = Instant::now();
            let out = search_now(
                board,
                &hand,
                agent,
                threads,
                &search_stop,
                limits.nodes.unwrap_or(u64::MAX),
                widen,
            );
            let elapsed = start.elapsed();
            // `go infinite` keeps its answer until `stop` (or quit / end of input).
            while limits.infinite && !search_stop.load(Ordering::Relaxed) {
                thread::sleep(Duration::from_millis(1));
            }
            let ms = elapsed.as_millis() as u64;
            let nps = (out.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
            let mut lines = Vec::new();
            if let Some((line, value)) = &out.best {
                let pv = protocol::bestmove_line(Some(line));
                lines.push(format!(
                    "info nodes {} nps {nps} time {ms} eval {value} pv {}",
                    out.nodes,
                    &pv["bestmove ".len()..]
                ));
            } else {
                lines.push(format!("info nodes {} nps {nps} time {ms}", out.nodes));
            }
            lines.push(protocol::bestmove_line(out.best.as_ref().map(|b| &b.0[..])));
            say(&lines);
        });
        self.running = Some(Running { stop, handle });
        Ok(())
    }

    fn play(&mut self, placements: &[protocol::PlacementText]) -> Result<String, String> {
        let mut state = self.state;
        let mut hand = self.hand.clone();
        let mut cleared = 0;
        for p in placements {
            let piece = hand.take(p.slot).map_err(|e| format!("play: {e}"))?;
            let report = state
                .place(&piece, p.row, p.col, self.scoring)
                .map_err(|e| {
                    format!(
                        "play: {}@{}: {e}",
                        p.slot,
                        protocol::cell_name(p.row * 9 + p.col)
                    )
                })?;
            cleared += report.regions;
        }
        self.state = state;
        self.hand = hand;
        Ok(protocol::position_line(&self.state, &self.hand, cleared))
    }

    /// Handles one command; returns false on quit.
    fn handle(&mut self, cmd: Command) -> bool {
        // Only isready and stop are served while a search runs; anything else waits for it
        // (and ends a `go infinite`, which would otherwise never finish).
        if !matches!(cmd, Command::IsReady | Command::Stop | Command::Empty) {
            self.finish_search(true);
        }
        match cmd {
            Command::Empty => {}
            Command::Hello => {
                let mut lines = vec![
                    "id name blockudoku".to_string(),
                    format!("id version {}", env!("CARGO_PKG_VERSION")),
                    protocol::PROTOCOL.to_string(),
                ];
                lines.extend(protocol::OPTIONS.iter().map(protocol::option_line));
                lines.push("hello ok".into());
                say(&lines);
            }
            Command::IsReady => say(&["readyok".into()]),
            Command::Stop => {
                if let Some(run) = &self.running {
                    run.stop.store(true, Ordering::Relaxed);
                }
                self.finish_search(true);
            }
            Command::Quit => return false,
            Command::SetOption(s) => match s {
                Setting::Threads(n) => self.threads = n,
                Setting::Scoring(s) => self.scoring = s,
                Setting::Agent(a) => self.agent = a,
            },
            Command::NewGame => {
                self.state = GameState::default();
                self.hand = Hand::default();
            }
            Command::Position { state, hand } => {
                self.state = state;
                self.hand = hand;
            }
            Command::Go(limits) => {
                if let Err(e) = self.go(limits) {
                    say(&[format!("error {e}")]);
                }
            }
            Command::Play(p) => match self.play(&p) {
                Ok(line) => say(&[line]),
                Err(e) => say(&[format!("error {e}")]),
            },
            Command::Show => say(&protocol::show_lines(&self.state, &self.hand)),
            Command::Eval => {
                let t = search::Terms::of(self.state.board, WEIGHTS.nofit_from);
                let mut line = format!("eval {}", t.value(&WEIGHTS));
                for (name, n) in t.named() {
                    line += &format!(" {name} {n}");
                }
                line += &format!(" mobility {}", search::mobility(self.state.board));
                say(&[line]);
            }
            Command::OneShot { board, hand } => {
                let never = AtomicBool::new(false);
                let out = search_now(
                    board,
                    &hand,
                    self.agent,
                    self.threads,
                    &never,
                    u64::MAX,
                    false,
                );
                say(&[protocol::bestmove_line(out.best.as_ref().map(|b| &b.0[..]))]);
            }
        }
        true
    }
}

fn spawn_reader() -> mpsc::Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut stdin = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match stdin.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Input::Eof);
                    return;
                }
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if tx.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

fn serve() {
    let rx = spawn_reader();
    let mut session = Session::new();
    let mut legacy: Option<legacy::Legacy> = None;
    let mut first_token_seen = false;
    while let Ok(Input::Line(line)) = rx.recv() {
        if !first_token_seen {
            let Some(first) = line.split_whitespace().next() else {
                continue;
            };
            first_token_seen = true;
            // The original GUI opens with a piece id: serve its protocol for the session.
            if first.len() <= 2 && first.bytes().all(|b| b.is_ascii_digit()) {
                legacy = Some(legacy::Legacy::default());
            }
        }
        if let Some(leg) = legacy.as_mut() {
            for reply in leg.feed(&line, session.agent, session.threads) {
                say(&[reply]);
            }
            continue;
        }
        let keep_going = match protocol::parse_line(&line) {
            Ok(cmd) => session.handle(cmd),
            Err(e) => {
                say(&[format!("error {e}")]);
                true
            }
        };
        if !keep_going {
            break;
        }
        if !session.searching() {
            session.finish_search(false);
        }
    }
    // Quit or end of input: a running search still answers before the process exits.
    session.finish_search(true);
}
