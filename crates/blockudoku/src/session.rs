//! The protocol session: the loop that reads lines (the kit's reader thread, so `isready`
//! and `stop` are answered while a search runs), the game state, the options, and the
//! search handle. `protocol` parses and formats; `agents` answers.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use engine_kit::handle::SearchHandle;
use engine_kit::io::say;
use puzzle_rules::blockudoku::{Board, GameState, Hand, Scoring};

use crate::agents::{self, Agent, Limits, Objective, Request, Settings};
use crate::analysis;
use crate::eval::Terms;
use crate::legacy;
use crate::protocol::{self, Command, GoLimits, Setting};
use crate::search::{mobility, Outcome, Tally, Workers};

struct Session {
    state: GameState,
    hand: Hand,
    scoring: Scoring,
    agent: Agent,
    objective: Objective,
    /// The `Threads` option's workers: their pool is made when the option is set, not per
    /// search.
    workers: Workers,
    running: Option<SearchHandle>,
    /// Set by `stop` (and `quit`, end of input): a `go infinite` holds its answer until then,
    /// even when a `movetime` or `nodes` limit ended its thinking.
    released: Arc<AtomicBool>,
    /// Set once the running search has printed its `bestmove` (its thread may still be
    /// ending): from then on lines are answered, not kept waiting. Set under the same lock
    /// as the printing ([`answer_once`]), so the loop never takes a search whose `bestmove`
    /// is already out for a running one.
    answered: Arc<Mutex<bool>>,
    /// The running search has a clock (`movetime`, `infinite`): `quit` stops it. A search
    /// without one (a bare `go`, `go nodes`) ends by itself, and its answer is the same
    /// however soon `quit` or the end of input comes.
    running_clock: bool,
}

/// Runs one search to the end (or until `stop`) and returns its outcome.
fn search_now(
    board: Board,
    hand: &Hand,
    req: &Request,
    limits: &Limits,
    stop: &AtomicBool,
) -> Outcome {
    agents::search(board, &hand.live(), req, limits, stop)
}

impl Session {
    fn new() -> Session {
        Session {
            state: GameState::default(),
            hand: Hand::default(),
            scoring: Scoring::Blockudoku,
            agent: Agent::Default,
            objective: Objective::Survive,
            workers: Workers::ONE,
            running: None,
            released: Arc::new(AtomicBool::new(true)),
            answered: Arc::new(Mutex::new(true)),
            running_clock: false,
        }
    }

    /// Waits for a running search (stopping it first if asked); its bestmove is printed by
    /// the search thread itself.
    fn finish_search(&mut self, stop_first: bool) {
        if stop_first {
            self.released.store(true, Ordering::Relaxed);
        }
        if let Some(run) = self.running.take() {
            run.join(stop_first);
        }
    }

    /// A search runs whose `bestmove` has not been printed yet.
    fn searching(&self) -> bool {
        self.running.is_some() && !*self.answered.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts a search; `read` is when the `go` line was read (`info time` counts from it).
    fn go(&mut self, limits: GoLimits, read: Instant) -> Result<(), String> {
        if self.hand.no_pieces() {
            return Err("go: no pieces in hand: send position first".into());
        }
        // Stop a little early: the answer still has to be formatted and written.
        let stop_after = limits
            .movetime
            .map(|ms| Duration::from_millis(ms).saturating_sub(Duration::from_millis(2)));
        let (board, hand) = (self.state.board, self.hand.clone());
        let req = self.request(self.state.streak);
        let budget = limits.search_limits();
        self.running_clock = budget.clock;
        // `go infinite` holds its answer until released (`stop`, `quit`, end of input), not
        // merely until the clock or the node limit ends the thinking.
        self.released = Arc::new(AtomicBool::new(!limits.infinite));
        let released = Arc::clone(&self.released);
        let search = move |stop: &AtomicBool| {
            let start = Instant::now();
            let out = search_now(board, &hand, &req, &budget, stop);
            let searched = start.elapsed();
            while !released.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            (out, searched)
        };
        let answered = self.new_answer();
        let answer = move |(out, searched): (Outcome, Duration)| {
            answer_once(
                &answered,
                &protocol::go_reply(&out, searched, read.elapsed()),
            );
        };
        self.running = Some(SearchHandle::go(false, stop_after, search, answer));
        Ok(())
    }

    /// Starts an `analyse` request on the search thread (answered like `go`, stopped by
    /// `stop`).
    fn analyse(&mut self, req: protocol::AnalyseRequest) {
        if self.hand.no_pieces() {
            say(&["error no pieces in hand: send position first"]);
            return;
        }
        let a = analysis::Analysis {
            state: self.state,
            hand: self.hand.clone(),
            request: self.request(self.state.streak),
        };
        let stop_after = req
            .limits
            .movetime
            .map(|ms| Duration::from_millis(ms).saturating_sub(Duration::from_millis(2)));
        self.running_clock = stop_after.is_some();
        let search = move |stop: &AtomicBool| {
            let start = Instant::now();
            let answer = analysis::run(&a, req, stop);
            analysis::reply(&a, &answer, start.elapsed().as_millis() as u64)
        };
        let answered = self.new_answer();
        self.running = Some(SearchHandle::go(false, stop_after, search, move |lines| {
            answer_once(&answered, &lines)
        }));
    }

    /// A fresh "answered" flag for the search about to start.
    fn new_answer(&mut self) -> Arc<Mutex<bool>> {
        self.answered = Arc::new(Mutex::new(false));
        Arc::clone(&self.answered)
    }

    /// The options' request for a search from a position with `streak`.
    fn request(&self, streak: u32) -> Request {
        Request {
            workers: self.workers.clone(),
            tally: Tally {
                scoring: self.scoring,
                streak,
            },
            ..Request::new(self.agent, self.objective)
        }
    }

    fn play(&mut self, placements: &[protocol::PlacementText]) -> Result<String, String> {
        let mut state = self.state;
        let mut hand = self.hand.clone();
        let mut cleared = 0;
        for p in placements {
            let refused = |e: &dyn std::fmt::Display| {
                let text = format!("{}@{}", p.slot, protocol::cell_name(p.row * 9 + p.col));
                format!("play: {}: {e}", protocol::quoted(&text))
            };
            let piece = hand.take(p.slot).map_err(|e| refused(&e))?;
            let report = state
                .place(&piece, p.row, p.col, self.scoring)
                .map_err(|e| refused(&e))?;
            cleared += report.regions;
        }
        protocol::check_play_limits(&state)?;
        self.state = state;
        self.hand = hand;
        Ok(protocol::position_line(&self.state, &self.hand, cleared))
    }

    /// Answers one line read at `read` (no search is running: lines that come during a
    /// search wait in [`serve`]); returns false on quit.
    fn line(&mut self, line: &str, read: Instant) -> bool {
        match protocol::parse_line(line) {
            Ok(cmd) => self.handle(cmd, read),
            Err(e) => {
                say(&[format!("error {e}")]);
                true
            }
        }
    }

    /// Handles one command read at `read`; returns false on quit.
    fn handle(&mut self, cmd: Command, read: Instant) -> bool {
        // A search that has answered is joined first (a clocked one is stopped on `quit`).
        if !matches!(cmd, Command::IsReady | Command::Stop | Command::Empty) {
            self.finish_search(cmd == Command::Quit && self.running_clock);
        }
        match cmd {
            Command::Empty => {}
            Command::Hello => {
                let mut lines = vec![
                    "id name blockudoku".to_string(),
                    format!("id version {}", env!("CARGO_PKG_VERSION")),
                    protocol::PROTOCOL.to_string(),
                ];
                lines.extend(protocol::options().hello_lines());
                lines.push("hello ok".into());
                say(&lines);
            }
            Command::IsReady => say(&["readyok"]),
            Command::Stop => self.finish_search(true),
            Command::Quit => return false,
            Command::SetOption(s) => match s {
                Setting::Threads(n) if n != self.workers.threads() => {
                    self.workers = Workers::new(n)
                }
                Setting::Threads(_) => {}
                Setting::Scoring(s) => self.scoring = s,
                Setting::Agent(a) => self.agent = a,
                Setting::Objective(o) => self.objective = o,
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
                if let Err(e) = self.go(limits, read) {
                    say(&[format!("error {e}")]);
                }
            }
            Command::Analyse(req) => self.analyse(req),
            Command::Play(p) => match self.play(&p) {
                Ok(line) => say(&[line]),
                Err(e) => say(&[format!("error {e}")]),
            },
            Command::Show => say(&protocol::show_lines(&self.state, &self.hand)),
            Command::Catalogue => say(&[protocol::catalogue_line()]),
            Command::Fits => say(&[protocol::fits_line(&self.state, &self.hand)]),
            Command::Eval => {
                let t = Terms::of(self.state.board);
                let mut line = format!("eval {}", t.value(&Settings::default().weights));
                for (name, n) in t.named() {
                    line += &format!(" {name} {n}");
                }
                line += &format!(" mobility {}", mobility(self.state.board));
                say(&[line]);
            }
            Command::OneShot { board, hand } => {
                let never = AtomicBool::new(false);
                let out = search_now(board, &hand, &self.request(0), &Limits::default(), &never);
                say(&[protocol::bestmove_line(out.best.as_ref().map(|b| &b.0[..]))]);
            }
        }
        true
    }
}

/// Prints a search's answer and marks it answered, both under the flag's lock.
fn answer_once(answered: &Mutex<bool>, lines: &[String]) {
    let mut done = answered.lock().unwrap_or_else(PoisonError::into_inner);
    say(lines);
    *done = true;
}

/// How often the loop looks whether the running search has answered while lines wait.
const POLL: Duration = Duration::from_millis(1);

/// Serves the protocol (or the legacy I/O) on stdin/stdout until `quit` or end of input.
///
/// While a search runs, `isready` is answered at once and `stop` stops it at once; every
/// other line, valid or not, waits (with when it was read) until the search has printed its
/// `bestmove`, then is answered in input order. `quit` and the end of input stop a search
/// with a clock (`movetime`, `infinite`) at once and end the session after the lines before
/// them; a bare `go` or `go nodes` ends as it would, so its answer does not depend on how
/// soon they come.
pub fn serve() {
    let rx = engine_kit::io::spawn_reader();
    let mut session = Session::new();
    let mut legacy: Option<legacy::Legacy> = None;
    let mut first_token_seen = false;
    let mut waiting: VecDeque<(String, Instant)> = VecDeque::new();
    let mut input_ended = false;
    loop {
        if !session.searching() {
            session.finish_search(false);
            if let Some((line, read)) = waiting.pop_front() {
                if !session.line(&line, read) {
                    break;
                }
                continue;
            }
            if input_ended {
                break;
            }
        } else if input_ended {
            // End of input acts as `quit`.
            session.finish_search(session.running_clock);
            continue;
        }
        let message = if session.searching() && !waiting.is_empty() {
            match rx.recv_timeout(POLL) {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => None,
            }
        } else {
            rx.recv().unwrap_or(None)
        };
        let Some(line) = message else {
            input_ended = true;
            continue;
        };
        let read = Instant::now();
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
            for reply in leg.feed(&line, session.agent, &session.workers) {
                say(&[reply]);
            }
            continue;
        }
        if !session.searching() && !waiting.is_empty() {
            // The search answered while this line was on its way: it goes behind the lines
            // still waiting, which the top of the loop answers in input order.
            waiting.push_back((line, read));
            continue;
        }
        if session.searching() {
            match protocol::parse_line(&line) {
                Ok(Command::IsReady) => say(&["readyok"]),
                Ok(Command::Stop) => session.finish_search(true),
                Ok(Command::Empty) => {}
                Ok(Command::Quit) => {
                    if session.running_clock {
                        session.finish_search(true);
                    }
                    waiting.push_back((line, read));
                }
                _ => waiting.push_back((line, read)),
            }
            continue;
        }
        if !session.line(&line, read) {
            break;
        }
    }
    // Quit: a running search still answers before the process exits.
    session.finish_search(session.running_clock);
}
