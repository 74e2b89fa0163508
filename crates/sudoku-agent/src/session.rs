//! The protocol session: the loop over stdin lines (the kit's reader thread, so `isready`
//! and `stop` are answered while a search runs on its own thread; end of input means
//! `quit`), the game, the options (the table in [`crate::protocol::options`]) and the
//! search handle. `protocol` parses and formats; the agents compute.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use engine_kit::handle::SearchHandle;

use puzzle_rules::sudoku::board::{Board, Move, Shape};
use puzzle_rules::sudoku::game::{referee_nodes, Game, Mode, Outcome, Player};

use crate::agents::{Agent, AgentKind};
use crate::agents::{Event, Limits};
use crate::board_file;
use crate::protocol::{self, event_line, options, Command, GoLimits, MAX_THREADS, PROTOCOL_LINE};

/// Without any limit, `go` thinks this long.
const DEFAULT_MOVETIME_MS: u64 = 1000;

use engine_kit::handle::deadline_for;

/// Writes one reply line (line-atomic: the search thread writes too).
fn out(line: &str) {
    engine_kit::io::say_line(line);
}

struct Session {
    game: Game,
    kind: AgentKind,
    threads: usize,
    seed: u64,
    agent: Arc<Agent>,
    running: Option<SearchHandle>,
    /// The running search has a clock (`movetime`, given or the default) or is infinite:
    /// `quit` and end of input stop it; a `nodes`/`depth` search ends as it would.
    running_clocked: bool,
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
            run.join(now);
        }
    }

    fn rebuild_agent(&mut self) {
        self.agent = Arc::new(Agent::new(self.kind, self.threads, self.seed));
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let table = options(default_threads());
        let spec = table
            .find(name)
            .ok_or_else(|| format!("unknown option '{}'", protocol::quote(name)))?;
        match spec.name {
            "Threads" => {
                self.threads = spec.spin_value(value).ok_or_else(|| {
                    format!(
                        "Threads must be 1..{MAX_THREADS}, got '{}'",
                        protocol::quote(value)
                    )
                })? as usize;
            }
            "Agent" => {
                self.kind = AgentKind::parse(value).ok_or_else(|| {
                    let names: Vec<&str> = AgentKind::ALL.iter().map(|a| a.name()).collect();
                    let (last, rest) = names.split_last().expect("agents");
                    format!(
                        "Agent must be {} or {last}, got '{}'",
                        rest.join(", "),
                        protocol::quote(value)
                    )
                })?;
            }
            _ => {
                self.seed = spec.spin_value(value).ok_or_else(|| {
                    format!(
                        "Seed must be a number 0..2^64-1, got '{}'",
                        protocol::quote(value)
                    )
                })?;
            }
        }
        self.rebuild_agent();
        Ok(())
    }

    fn hello(&self) {
        out("id name sudoku-agent");
        out(&format!("id version {}", env!("CARGO_PKG_VERSION")));
        out(PROTOCOL_LINE);
        for line in options(default_threads()).hello_lines() {
            out(&line);
        }
        out("hello ok");
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
            since: Some(start),
        };
        let (game, agent) = (self.game.clone(), self.agent.clone());
        let search = move |stop: &AtomicBool| {
            let mut report = |e: Event| out(&event_line(&e));
            agent.choose(&game, search_limits, stop, &mut report)
        };
        let answer = |best: Option<Move>| match best {
            Some(m) => out(&format!("bestmove {m}")),
            None => out("bestmove none"),
        };
        self.running_clocked = limits.infinite || movetime.is_some();
        self.running = Some(SearchHandle::go(limits.infinite, None, search, answer));
    }

    fn play(&mut self, mv: Option<puzzle_rules::sudoku::board::Move>) {
        let Some(mv) = mv else {
            if self.game.is_over() {
                out("error play: the game is over");
            } else if self.game.can_move(self.game.turn()) {
                out("error play: none: the player to move has a legal move");
            } else {
                self.game.pass();
                out(&format!("passed {}", self.state_words()));
            }
            return;
        };
        if self.game.is_over() {
            out("error play: the game is over");
            return;
        }
        match self
            .game
            .play_within(mv, referee_nodes(self.game.board().shape()))
        {
            Ok(Outcome::Placed { points, .. }) => out(&format!(
                "played {mv} placed {points} {}",
                self.state_words()
            )),
            Ok(Outcome::Taboo) => out(&format!("played {mv} taboo {}", self.state_words())),
            Err(f) => out(&format!("error play: {f}")),
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
            out(line);
        }
        let taboo: Vec<String> = self.game.taboo().iter().map(|m| m.to_string()).collect();
        out(&format!("rows {}", self.game.to_owned_rows()));
        out(&format!(
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
                out(&format!(
                    "allowed{n} {}",
                    cell_list(self.game.starts(player))
                ));
            }
            for player in [Player::One, Player::Two] {
                let n = player.number();
                let cells = self.game.playable_cells(player);
                out(&format!("playable{n} {}", cell_list(&cells)));
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

/// Turns `position file` into the position it names (an error line if it cannot be
/// read), as soon as the line is read, like any other parse error.
fn read_file(cmd: Command) -> Result<Command, String> {
    match cmd {
        Command::PositionFile { path, extras } => board_file::read_position_file(&path, &extras)
            .map(|game| Command::Position(Box::new(game)))
            .map_err(|e| protocol::printable(&protocol::name_command("position", &e))),
        other => Ok(other),
    }
}

/// Serves the protocol on stdin/stdout until `quit` or end of input.
pub fn serve() -> anyhow::Result<()> {
    let rx = engine_kit::io::spawn_reader();
    let threads = default_threads();
    let mut s = Session {
        game: empty_game(),
        kind: AgentKind::Default,
        threads,
        seed: 0,
        agent: Arc::new(Agent::new(AgentKind::Default, threads, 0)),
        running: None,
        running_clocked: false,
    };
    while let Ok(Some(line)) = rx.recv() {
        let line = line.trim_end_matches(['\n', '\r']);
        let cmd = match protocol::parse_line(line).and_then(read_file) {
            Ok(c) => c,
            Err(e) => {
                // An error waits for a running search's bestmove like any other reply.
                s.finish_search(false);
                out(&format!("error {e}"));
                continue;
            }
        };
        match cmd {
            Command::Empty => {}
            Command::IsReady => out("readyok"),
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
                            out(&format!("error setoption: {e}"));
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
                    Command::Empty
                    | Command::IsReady
                    | Command::Stop
                    | Command::Quit
                    | Command::PositionFile { .. } => {}
                }
            }
        }
    }
    // `quit` and end of input stop a clocked or infinite search at once; a `nodes` or
    // `depth` search ends as it would, so piped input gets the same answer as typed input.
    let clocked = s.running_clocked;
    s.finish_search(clocked);
    Ok(())
}
