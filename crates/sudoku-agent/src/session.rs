//! The protocol session: the game, the options (the table in [`crate::protocol::options`])
//! and the agent, served by the kit's session loop ([`engine_kit::session`]: `isready` and
//! `stop` are answered while a search runs on its own thread, every other line waits for
//! its `bestmove`; end of input means `quit`). `protocol` parses and formats; the agents
//! compute.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use engine_kit::handle::{Report, Search};
use engine_kit::head::{bestmove, GoLimits};
use engine_kit::io::Output;
use engine_kit::options::OptionTable;
use engine_kit::session::{Engine, Identity};

use puzzle_rules::sudoku::board::{Board, Move, Shape};
use puzzle_rules::sudoku::game::{referee_nodes, Game, Mode, Outcome, Player};

use crate::agents::{Agent, AgentKind};
use crate::agents::{Event, Limits};
use crate::board_file;
use crate::protocol::{self, event_line, options, Command, Setting, PROTOCOL};

/// Without any limit, `go` thinks this long.
const DEFAULT_MOVETIME_MS: u64 = 1000;

use engine_kit::handle::deadline_for;

struct Session {
    game: Game,
    kind: AgentKind,
    threads: usize,
    seed: u64,
    /// The agent with its table, kept across `setoption` (only a search holds a second
    /// reference, and no search runs while a `setoption` is answered).
    agent: Arc<Agent>,
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn empty_game() -> Game {
    let shape = Shape::new(3, 3).expect("3x3 is a valid shape");
    Game::new(Board::empty(shape), Mode::Classic, 0)
}

impl Session {
    fn new() -> Session {
        let threads = default_threads();
        Session {
            game: empty_game(),
            kind: AgentKind::Default,
            threads,
            seed: 0,
            agent: Arc::new(Agent::new(AgentKind::Default, threads, 0)),
        }
    }

    /// Applies a setting to the agent in place: its table is kept (only the `mcts` tree,
    /// which depends on the agent and seed, is forgotten).
    fn set_option(&mut self, setting: Setting) {
        match setting {
            Setting::Threads(n) => self.threads = n,
            Setting::Agent(kind) => self.kind = kind,
            Setting::Seed(seed) => self.seed = seed,
        }
        match Arc::get_mut(&mut self.agent) {
            Some(agent) => {
                agent.kind = self.kind;
                agent.threads = self.threads.max(1);
                agent.seed = self.seed;
                agent.forget_tree();
            }
            None => self.agent = Arc::new(Agent::new(self.kind, self.threads, self.seed)),
        }
    }

    /// The search of a `go`.
    fn go(&mut self, limits: GoLimits) -> Search {
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
        let think = move |stop: &AtomicBool, report: Report| {
            let mut report = |e: Event| report(event_line(&e));
            agent.choose(&game, search_limits, stop, &mut report)
        };
        Search::new(think, |best: Option<Move>| vec![bestmove(best)])
            .infinite(limits.infinite)
            .movetime(movetime)
    }

    fn play(&mut self, mv: Option<puzzle_rules::sudoku::board::Move>, out: &Output) {
        let out = |line: &str| out.line(line);
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

    fn show(&self, out: &Output) {
        let out = |line: &str| out.line(line);
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
fn read_file(cmd: Option<Command>) -> Result<Option<Command>, String> {
    match cmd {
        Some(Command::PositionFile { path, extras }) => {
            board_file::read_position_file(&path, &extras)
                .map(|game| Some(Command::Position(Box::new(game))))
                .map_err(|e| format!("position: {e}"))
        }
        other => Ok(other),
    }
}

impl Engine for Session {
    const IDENTITY: Identity = Identity {
        name: "sudoku-agent",
        version: env!("CARGO_PKG_VERSION"),
        protocol: PROTOCOL,
    };
    // `go depth` bounds the default agent's iterative deepening.
    const DEPTH: bool = true;
    type Setting = Setting;
    type Command = Command;

    fn options(&self) -> OptionTable<Setting> {
        options(default_threads())
    }

    fn parse(&mut self, line: &str) -> Result<Option<Command>, String> {
        protocol::parse_game(line).and_then(read_file)
    }

    fn set_option(&mut self, setting: Setting) {
        Session::set_option(self, setting);
    }

    fn new_game(&mut self) {
        self.game = empty_game();
        self.agent.clear();
    }

    fn go(&mut self, limits: GoLimits, _read: Instant) -> Result<Search, String> {
        Ok(Session::go(self, limits))
    }

    fn handle(&mut self, cmd: Command, _read: Instant, out: &Output) -> Option<Search> {
        match cmd {
            Command::Position(game) => self.game = *game,
            Command::Play(mv) => self.play(mv, out),
            Command::Show => self.show(out),
            Command::PositionFile { .. } => {}
        }
        None
    }
}

/// Serves the protocol on stdin/stdout until `quit` or end of input.
pub fn serve() -> anyhow::Result<()> {
    engine_kit::session::serve(&mut Session::new(), std::io::stdin(), std::io::stdout());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setoption_keeps_the_agent_and_its_table() {
        let mut s = Session::new();
        let agent = Arc::as_ptr(&s.agent);
        for setting in [
            Setting::Threads(1),
            Setting::Seed(7),
            Setting::Agent(AgentKind::Mcts),
            Setting::Agent(AgentKind::Default),
        ] {
            s.set_option(setting);
            assert_eq!(
                Arc::as_ptr(&s.agent),
                agent,
                "{setting:?} rebuilt the agent"
            );
        }
        assert_eq!(
            (s.agent.kind, s.agent.threads, s.agent.seed),
            (AgentKind::Default, 1, 7)
        );
    }
}
