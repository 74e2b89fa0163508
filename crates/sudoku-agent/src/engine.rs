//! The protocol loop: a reader thread turns stdin lines into messages so `isready` and
//! `stop` are answered while a search runs on its own thread; end of input means `quit`.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use puzzle_rules::sudoku::board::{Board, Shape};
use puzzle_rules::sudoku::game::{Game, Mode, Outcome, Player};

use crate::agents::{Agent, AgentKind};
use crate::protocol::{self, Command, GoLimits, MAX_THREADS, OPTIONS, PROTOCOL_LINE};
use crate::search::{Event, Limits};

/// Without any limit, `go` thinks this long.
const DEFAULT_MOVETIME_MS: u64 = 1000;

/// Writes whole lines to stdout under one lock (the search thread writes too).
#[derive(Clone)]
struct Out(Arc<Mutex<()>>);

impl Out {
    fn line(&self, text: &str) {
        let _guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// The deadline a search aims at: a little before the `movetime`, leaving room to print
/// `bestmove` and for the reader to receive it in time.
pub fn deadline_for(start: Instant, movetime_ms: u64) -> Instant {
    let ms = movetime_ms as f64;
    let aim = (ms * 0.95 - 3.0).max(0.0);
    start + Duration::from_micros((aim * 1000.0) as u64)
}

/// Formats a search event as its protocol line.
pub fn event_line(event: &Event) -> String {
    match event {
        Event::Propose(m) => format!("propose {m}"),
        Event::Info {
            depth,
            nodes,
            millis,
            score,
            pv,
            exact,
        } => {
            let nps = nodes * 1000 / (*millis).max(1);
            format!(
                "info depth {depth} nodes {nodes} nps {nps} time {millis} score {score}{} pv {pv}",
                if *exact { " exact" } else { "" }
            )
        }
    }
}

struct Running {
    stop: Arc<AtomicBool>,
    infinite: bool,
    handle: JoinHandle<()>,
}

struct Session {
    out: Out,
    game: Game,
    kind: AgentKind,
    threads: usize,
    seed: u64,
    agent: Arc<Agent>,
    running: Option<Running>,
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn empty_game() -> Game {
    let shape = Shape::new(3, 3).expect("3x3 is a valid shape");
    Game::new(Board::empty(shape), Mode::Classic, 0)
}

impl Session {
    /// Waits for the running search's `bestmove`; `now` (or `go infinite`) stops it first.
    fn finish_search(&mut self, now: bool) {
        if let Some(run) = self.running.take() {
            if now || run.infinite {
                run.stop.store(true, Ordering::Relaxed);
            }
            let _ = run.handle.join();
        }
    }

    fn rebuild_agent(&mut self) {
        self.agent = Arc::new(Agent::new(self.kind, self.threads, self.seed));
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "Threads" => {
                let t: usize = value
                    .parse()
                    .ok()
                    .filter(|t| (1..=MAX_THREADS).contains(t))
                    .ok_or_else(|| {
                        format!(
                            "Threads must be 1..{MAX_THREADS}, got '{}'",
                            protocol::quote(value)
                        )
                    })?;
                self.threads = t;
            }
            "Agent" => {
                self.kind = AgentKind::parse(value).ok_or_else(|| {
                    format!(
                        "Agent must be random, greedy, seed, default, territory or mcts, got '{}'",
                        protocol::quote(value)
                    )
                })?;
            }
            "Seed" => {
                self.seed = value.parse().map_err(|_| {
                    format!(
                        "Seed must be a number 0..2^64-1, got '{}'",
                        protocol::quote(value)
                    )
                })?;
            }
            _ => return Err(format!("unknown option '{}'", protocol::quote(name))),
        }
        self.rebuild_agent();
        Ok(())
    }

    fn hello(&self) {
        self.out.line("id name sudoku-agent");
        self.out
            .line(&format!("id version {}", env!("CARGO_PKG_VERSION")));
        self.out.line(PROTOCOL_LINE);
        for opt in &OPTIONS {
            let line = match opt.name {
                "Threads" => format!(
                    "option name Threads type {} default {} min 1 max {MAX_THREADS}",
                    opt.kind,
                    default_threads()
                ),
                "Agent" => format!(
                    "option name Agent type {} default default var random var greedy var seed var default var territory var mcts",
                    opt.kind
                ),
                _ => format!(
                    "option name {} type {} default 0 min 0 max {}",
                    opt.name,
                    opt.kind,
                    u64::MAX
                ),
            };
            self.out.line(&line);
        }
        self.out.line("hello ok");
    }

    fn go(&mut self, limits: GoLimits) {
        let start = Instant::now();
        let movetime = if limits.infinite || limits.nodes.is_some() || limits.depth.is_some() {
            limits.movetime
        } else {
            Some(limits.movetime.unwrap_or(DEFAULT_MOVETIME_MS))
        };
        let search_limits = Limits {
            deadline: movetime.map(|ms| deadline_for(start, ms)),
            nodes: limits.nodes,
            depth: limits.depth,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let (game, agent, out) = (self.game.clone(), self.agent.clone(), self.out.clone());
        let stop2 = stop.clone();
        let infinite = limits.infinite;
        let handle = std::thread::spawn(move || {
            let mut report = |e: Event| out.line(&event_line(&e));
            let best = agent.choose(&game, search_limits, &stop2, &mut report);
            // Under `go infinite` the answer waits for `stop`, as in UCI.
            while infinite && !stop2.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            match best {
                Some(m) => out.line(&format!("bestmove {m}")),
                None => out.line("bestmove none"),
            }
        });
        self.running = Some(Running {
            stop,
            infinite,
            handle,
        });
    }

    fn play(&mut self, mv: Option<puzzle_rules::sudoku::board::Move>) {
        let Some(mv) = mv else {
            if self.game.is_over() {
                self.out.line("error the game is over");
            } else if self.game.can_move(self.game.turn()) {
                self.out
                    .line("error play none: the player to move has a legal move");
            } else {
                self.game.pass();
                self.out.line(&format!("passed {}", self.state_words()));
            }
            return;
        };
        if self.game.is_over() {
            self.out.line("error the game is over");
            return;
        }
        match self.game.play(mv) {
            Ok(Outcome::Placed { points, .. }) => self.out.line(&format!(
                "played {mv} placed {points} {}",
                self.state_words()
            )),
            Ok(Outcome::Taboo) => self
                .out
                .line(&format!("played {mv} taboo {}", self.state_words())),
            Err(f) => self.out.line(&format!("error {f}")),
        }
    }

    /// `scores A B turn T` plus `result ...` once the game is over.
    fn state_words(&self) -> String {
        let s = self.game.scores();
        let mut w = format!(
            "scores {} {} turn {}",
            s[0],
            s[1],
            self.game.turn().number()
        );
        if self.game.is_over() {
            w.push_str(match self.game.winner() {
                Some(p) if p.number() == 1 => " result 1",
                Some(_) => " result 2",
                None => " result draw",
            });
        }
        w
    }

    fn show(&self) {
        for line in self.game.board().to_string().lines() {
            self.out.line(line);
        }
        let taboo: Vec<String> = self.game.taboo().iter().map(|m| m.to_string()).collect();
        self.out
            .line(&format!("rows {}", self.game.to_owned_rows()));
        self.out.line(&format!(
            "mode {} {} taboo {}",
            self.game.mode(),
            self.state_words(),
            if taboo.is_empty() {
                "none".to_string()
            } else {
                taboo.join(" ")
            }
        ));
        if self.game.mode() != Mode::Classic {
            // Starting cells (as `position` takes them), then the cells each player may
            // play now: what a front end highlights.
            for player in [Player::One, Player::Two] {
                let n = player.number();
                self.out.line(&format!(
                    "allowed{n} {}",
                    cell_list(self.game.starts(player))
                ));
            }
            for player in [Player::One, Player::Two] {
                let n = player.number();
                let cells = self.game.playable_cells(player);
                self.out.line(&format!("playable{n} {}", cell_list(&cells)));
            }
        }
    }
}

/// Cells as `r,c` words, or `none`.
fn cell_list(cells: &[(usize, usize)]) -> String {
    if cells.is_empty() {
        return "none".to_string();
    }
    let words: Vec<String> = cells.iter().map(|(r, c)| format!("{r},{c}")).collect();
    words.join(" ")
}

/// Serves the protocol on stdin/stdout until `quit` or end of input.
pub fn serve() -> anyhow::Result<()> {
    let (tx, rx) = mpsc::channel::<Option<String>>();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match lock.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(None);
                    return;
                }
                Ok(_) => {
                    // Bytes that are not UTF-8 still make a line (and then an error reply).
                    let text = String::from_utf8_lossy(&buf);
                    let text = text.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send(Some(text)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let threads = default_threads();
    let mut s = Session {
        out: Out(Arc::new(Mutex::new(()))),
        game: empty_game(),
        kind: AgentKind::Default,
        threads,
        seed: 0,
        agent: Arc::new(Agent::new(AgentKind::Default, threads, 0)),
        running: None,
    };
    while let Ok(Some(line)) = rx.recv() {
        let cmd = match protocol::parse_line(&line) {
            Ok(c) => c,
            Err(e) => {
                s.out.line(&format!("error {e}"));
                continue;
            }
        };
        match cmd {
            Command::Empty => {}
            Command::IsReady => s.out.line("readyok"),
            Command::Stop => s.finish_search(true),
            Command::Quit => break,
            other => {
                // Anything else waits for a running search's bestmove (a `go infinite` is
                // stopped), so piped scripts see the replies in order.
                s.finish_search(false);
                match other {
                    Command::Hello => s.hello(),
                    Command::SetOption { name, value } => {
                        if let Err(e) = s.set_option(&name, &value) {
                            s.out.line(&format!("error setoption: {e}"));
                        }
                    }
                    Command::NewGame => {
                        s.game = empty_game();
                        s.agent.clear();
                    }
                    Command::Position(game) => s.game = *game,
                    Command::Go(limits) => s.go(limits),
                    Command::Play(mv) => s.play(mv),
                    Command::Show => s.show(),
                    Command::Empty | Command::IsReady | Command::Stop | Command::Quit => {}
                }
            }
        }
    }
    // `quit` and end of input stop a search at once.
    s.finish_search(true);
    Ok(())
}
