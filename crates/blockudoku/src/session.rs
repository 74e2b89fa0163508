//! The protocol session: the game state, the options and the searches, served by the kit's
//! session loop ([`engine_kit::session`]: `isready` and `stop` are answered while a search
//! runs, every other line waits for its `bestmove`). `protocol` parses and formats; `agents`
//! answers.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use engine_kit::handle::{Report, Search};
use engine_kit::head::GoLimits;
use engine_kit::io::Output;
use engine_kit::options::OptionTable;
use engine_kit::session::{Engine, Identity};
use puzzle_rules::blockudoku::{GameState, Hand, Scoring};

use crate::agents::{Agent, Limits, Objective, Request, Settings};
use crate::analysis;
use crate::best_placements;
use crate::eval::Terms;
use crate::legacy;
use crate::protocol::{self, Command, Setting};
use crate::search::{mobility, Outcome, Tally, Workers};

pub(crate) struct Session {
    state: GameState,
    hand: Hand,
    scoring: Scoring,
    agent: Agent,
    objective: Objective,
    /// The `Threads` option's workers: their pool is made when the option is set, not per
    /// search.
    workers: Workers,
}

impl Session {
    pub(crate) fn new() -> Session {
        Session {
            state: GameState::default(),
            hand: Hand::default(),
            scoring: Scoring::Blockudoku,
            agent: Agent::Default,
            objective: Objective::Survive,
            workers: Workers::ONE,
        }
    }

    /// The search of a `go`; `read` is when the `go` line was read (`info time` counts
    /// from it).
    fn go(&mut self, limits: GoLimits, read: Instant) -> Result<Search, String> {
        if self.hand.no_pieces() {
            return Err("go: no pieces in hand: send position first".into());
        }
        let (state, hand, req) = (self.state, self.hand.clone(), self.request());
        let budget = protocol::search_limits(&limits);
        let think = move |stop: &AtomicBool, _: Report| {
            let start = Instant::now();
            let out = best_placements(&state, &hand, &req, &budget, stop);
            (out, start.elapsed())
        };
        let answer = move |(out, searched): (Outcome, Duration)| {
            protocol::go_reply(&out, searched, read.elapsed()).to_vec()
        };
        // `go infinite` holds its answer until `stop`, `quit` or the end of input (the kit
        // holds it), not merely until the clock or the node limit ends the thinking.
        Ok(Search::new(think, answer)
            .infinite(limits.infinite)
            .movetime(limits.movetime))
    }

    /// The search of an `analyse` request (answered like `go`, stopped by `stop`); `None`
    /// (and an error line) without pieces.
    fn analyse(&mut self, req: protocol::AnalyseRequest, out: &Output) -> Option<Search> {
        if self.hand.no_pieces() {
            out.line("error no pieces in hand: send position first");
            return None;
        }
        let a = analysis::Analysis {
            state: self.state,
            hand: self.hand.clone(),
            request: self.request(),
        };
        let think = move |stop: &AtomicBool, _: Report| {
            let start = Instant::now();
            let answer = analysis::run(&a, req, stop);
            analysis::reply(&a, &answer, start.elapsed().as_millis() as u64)
        };
        Some(Search::new(think, |lines| lines).movetime(req.limits.movetime))
    }

    /// The options' request for a search from the position (whose streak counts).
    fn request(&self) -> Request {
        Request {
            workers: self.workers.clone(),
            tally: Tally {
                scoring: self.scoring,
                streak: self.state.streak,
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
}

impl Engine for Session {
    type Command = Command;
    type Setting = Setting;
    const DEPTH: bool = false;

    const IDENTITY: Identity = Identity {
        name: "blockudoku",
        version: env!("CARGO_PKG_VERSION"),
        protocol: protocol::PROTOCOL,
    };

    fn options(&self) -> OptionTable<Setting> {
        protocol::options()
    }

    fn parse(&mut self, line: &str) -> Result<Option<Command>, String> {
        protocol::parse_line(line)
    }

    fn set_option(&mut self, setting: Setting) {
        match setting {
            Setting::Threads(n) if n != self.workers.threads() => self.workers = Workers::new(n),
            Setting::Threads(_) => {}
            Setting::Scoring(s) => self.scoring = s,
            Setting::Agent(a) => self.agent = a,
            Setting::Objective(o) => self.objective = o,
        }
    }

    fn new_game(&mut self) {
        self.state = GameState::default();
        self.hand = Hand::default();
    }

    fn go(&mut self, limits: GoLimits, read: Instant) -> Result<Search, String> {
        Session::go(self, limits, read)
    }

    fn handle(&mut self, cmd: Command, _read: Instant, out: &Output) -> Option<Search> {
        let say = |lines: &[String]| out.lines(lines);
        match cmd {
            Command::Position { state, hand } => {
                self.state = state;
                self.hand = hand;
            }
            Command::Analyse(req) => return self.analyse(req, out),
            Command::Play(p) => match self.play(&p) {
                Ok(line) => say(&[line]),
                Err(e) => say(&[format!("error {e}")]),
            },
            Command::Show => say(&protocol::show_lines(&self.state, &self.hand)),
            Command::Catalogue => say(&[protocol::catalogue_line()]),
            Command::Fits => say(&[protocol::fits_line(&self.state, &self.hand)]),
            Command::Eval => {
                let (board, w) = (self.state.board, Settings::default().weights);
                let t = Terms::of(board);
                let mut line = format!("eval {}", crate::eval::evaluate(board, &w));
                for (name, n) in t.named() {
                    line += &format!(" {name} {n}");
                }
                line += &format!(" mobility {}", mobility(board));
                line += &format!(" learned {}", crate::eval::learned_part(board, &w));
                say(&[line]);
            }
            Command::OneShot { board, hand } => {
                let state = GameState {
                    board,
                    ..GameState::default()
                };
                let (limits, never) = (Limits::default(), AtomicBool::new(false));
                let out = best_placements(&state, &hand, &self.request(), &limits, &never);
                say(&[protocol::bestmove_line(out.best.as_ref().map(|b| &b.0[..]))]);
            }
        }
        None
    }
}

/// Serves the protocol on stdin/stdout until `quit` or end of input, with the kit's
/// session ([`engine_kit::session`]: while a search runs `isready` and `stop` are answered
/// at once and every other line waits for its `bestmove`); or, when the first word is a
/// number, the original GUI's I/O (the `legacy` module).
pub fn serve() {
    let mut input = std::io::BufReader::new(std::io::stdin());
    let (read, first) = engine_kit::io::read_to_first_word(&mut input);
    if first.is_some_and(|w| legacy::is_legacy(&w)) {
        return legacy::serve(read, input);
    }
    engine_kit::session::serve_after(&mut Session::new(), read, input, std::io::stdout());
}
