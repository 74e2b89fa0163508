//! The protocol session loop both engines serve, so an engine supplies only its commands
//! ([`Engine`]) and its search (a [`Search`] for each `go`).
//!
//! The loop's shape (queueing, as Carp and Stockfish answer while a search runs):
//!
//! - The session waits on one event channel ([`crate::io::Event`]): the lines of the
//!   reader thread and the answers of the searches, never polling.
//! - Every reply goes through the session's [`Output`] (the engine's and the search's
//!   too), one group of lines at a time.
//! - The reader thread ([`crate::io::spawn_reader`]) hands over lines of at most
//!   [`MAX_LINE`](crate::io::MAX_LINE) bytes; a longer one is answered with one `error` line.
//! - Each line is parsed as soon as it is read. While a search runs, `stop` stops it at once
//!   (its answer still comes) and an empty line is ignored; every other line, valid or not,
//!   waits in a queue with the time it was read. Once the search has printed its answer,
//!   the waiting lines are answered in input order, and a `go` among them starts its
//!   search, behind which the rest wait again.
//! - At most [`MAX_WAITING`] lines, [`MAX_WAITING_BYTES`] of text, wait (as text, parsed
//!   again in their turn); one more is skipped with one `error` line at once.
//! - `isready` is answered once every line before it has been (a `go` counts once its
//!   search started): at once during a search when nothing waits, else in its turn. So
//!   `readyok` always confirms every line sent before it.
//! - `go infinite` holds its answer until `stop`, `quit` or the end of input (C6), whatever
//!   limit ended its thinking: the kit's [`SearchHandle`] holds it.
//! - `quit` and the end of input end the session after the lines before them are answered.
//!   A clocked or infinite search running then is stopped at once; a search without a
//!   clock (`nodes`, `depth`, a bare Blockudoku `go`) may end on its own for
//!   [`QUIT_GRACE`](crate::handle::QUIT_GRACE), then is stopped. Either way its answer is
//!   printed before the process exits.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::time::Instant;

use crate::handle::{Clock, Search, SearchHandle};
use crate::head::{parse_head, GoLimits, Head, HeadRules};
use crate::io::{Event, Input, Output};
use crate::options::OptionTable;
use crate::quote::printable;

/// An engine as the session sees it: who it is, its options, its `go`, and the commands of
/// its own game. The shared head (`hello`, `isready`, `setoption`, `newgame`, `go`, `stop`,
/// `quit`, the blank line) is read and answered by the kit ([`crate::head`]).
pub trait Engine {
    /// A line of the engine's own game, parsed.
    type Command;
    /// A validated option setting.
    type Setting;
    /// `go depth` is one of its limits.
    const DEPTH: bool;

    /// Who it is: the first lines of `hello`.
    const IDENTITY: Identity;

    /// The option table (`hello`'s option lines, `setoption`).
    fn options(&self) -> OptionTable<Self::Setting>;

    /// Parses a line of the engine's own (without its line end); `Ok(None)` when its first
    /// word names no command. The error is the reply after `error `.
    fn parse(&mut self, line: &str) -> Result<Option<Self::Command>, String>;

    /// `setoption`, validated by the option table.
    fn set_option(&mut self, setting: Self::Setting);

    /// `newgame`.
    fn new_game(&mut self);

    /// The search of a `go` read at `read`, or the error after `error `.
    fn go(&mut self, limits: GoLimits, read: Instant) -> Result<Search, String>;

    /// Answers `cmd` (read at `read`; no search is running) on `out`; returns the search it
    /// starts, if any.
    fn handle(&mut self, cmd: Self::Command, read: Instant, out: &Output) -> Option<Search>;
}

/// An engine's name, version and protocol, as `hello` gives them (`id name <name>`, `id
/// version <version>`, `protocol <protocol>`).
pub struct Identity {
    /// The engine's name.
    pub name: &'static str,
    /// Its version.
    pub version: &'static str,
    /// The protocol and its version (`blockudoku 1`).
    pub protocol: &'static str,
}

/// A line read: the shared head's or the engine's own.
enum Line<E: Engine> {
    Head(Head<E::Setting>),
    Game(E::Command),
}

/// Parses `line` for `engine`: the shared head, then the engine's own commands. An error
/// is made one printable line ([`printable`]) whatever the engine's message echoes.
fn parse<E: Engine>(engine: &mut E, line: &str) -> Result<Line<E>, String> {
    let options = engine.options();
    let rules = HeadRules {
        options: &options,
        depth: E::DEPTH,
    };
    let parsed = match parse_head(line, &rules)? {
        Head::Other => match engine.parse(line) {
            Ok(Some(cmd)) => Ok(Line::Game(cmd)),
            Ok(None) => {
                let first = line.split_whitespace().next().unwrap_or_default();
                Err(crate::head::unknown_command(first))
            }
            Err(e) => Err(e),
        },
        head => Ok(Line::Head(head)),
    };
    parsed.map_err(|e| printable(&e))
}

/// The reply after `error ` that `engine`'s session gives `line` (the shared head's words,
/// the engine's, or `unknown command`), `None` when the line is a command; nothing is
/// answered or run. What a test of an engine's words asks.
pub fn refusal<E: Engine>(engine: &mut E, line: &str) -> Option<String> {
    parse(engine, line).err()
}

/// A line read while a search runs, waiting for its answer: kept as its text (parsed again
/// in its turn), an error as its one-line reply, or the loop's own command.
enum Pending {
    Text(String),
    Error(String),
    IsReady,
    Quit,
}

/// A waiting line and when it was read.
type Waiting = (Pending, Instant);

/// The most lines that wait for a running search.
pub const MAX_WAITING: usize = 10_000;

/// The most bytes of text the waiting lines hold together (64 MiB): a line that would take
/// them past it is skipped, so the queue stays within this whatever a client sends during
/// `go infinite` (a megabyte line, parsed, takes several times its size; it is parsed only
/// in its turn).
pub const MAX_WAITING_BYTES: usize = 64 << 20;

/// The reply (after `error `) to a line that finds [`MAX_WAITING`] lines waiting: it is
/// skipped unanswered otherwise.
pub fn too_many_waiting() -> String {
    format!("line skipped: {MAX_WAITING} lines already wait for the running search")
}

/// The reply (after `error `) to a line that would take the waiting lines past
/// [`MAX_WAITING_BYTES`]: it is skipped unanswered otherwise.
pub fn too_much_waiting() -> String {
    format!(
        "line skipped: the lines waiting for the running search already hold {} MiB",
        MAX_WAITING_BYTES >> 20
    )
}

/// Serves `engine` on `input` until `quit` or the end of input, every reply written to
/// `output`.
pub fn serve<E, R, W>(engine: &mut E, input: R, output: W)
where
    E: Engine,
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    serve_after(engine, Vec::new(), input, output);
}

/// [`serve`] for a session whose first lines were read already (`read`: Blockudoku reads
/// until the first word to choose between its protocol and the original GUI's I/O).
pub fn serve_after<E, R, W>(engine: &mut E, read: Vec<Input>, input: R, output: W)
where
    E: Engine,
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, events) = crate::io::events();
    let mut session = Session {
        output: Output::new(output),
        clock: Clock::new(),
        tx: tx.clone(),
        running: None,
        waiting: Queue::default(),
        ending: None,
    };
    for line in read {
        if session.read(engine, line) {
            return;
        }
    }
    crate::io::spawn_reader(input, tx);
    session.run(engine, &events);
}

/// The session's state between two events.
struct Session {
    output: Output,
    clock: Clock,
    /// Where a search announces its answer.
    tx: SyncSender<Event>,
    running: Option<SearchHandle>,
    waiting: Queue,
    /// When `quit` or the end of input was read: nothing more is read after it.
    ending: Option<Instant>,
}

impl Session {
    fn run<E: Engine>(&mut self, engine: &mut E, events: &Receiver<Event>) {
        loop {
            self.reap();
            if self.running.is_none() {
                if let Some((pending, read)) = self.waiting.pop() {
                    if self.answer_waiting(engine, pending, read) {
                        return;
                    }
                    continue;
                }
                if self.ending.is_some() {
                    return;
                }
            } else if self.waiting.ready_next() {
                // Every line before it has been answered (a `go` once its search started).
                self.waiting.pop();
                self.output.line("readyok");
                continue;
            }
            let event = match (&self.running, self.ending) {
                (Some(run), Some(at)) => {
                    let deadline = run.quit_deadline(at);
                    let left = deadline.saturating_duration_since(Instant::now());
                    match events.recv_timeout(left) {
                        Ok(event) => event,
                        Err(RecvTimeoutError::Timeout) => {
                            if let Some(run) = &self.running {
                                run.stop(&self.clock);
                            }
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
                _ => match events.recv() {
                    Ok(event) => event,
                    Err(_) => return,
                },
            };
            match event {
                // Seen by `reap` at the top of the loop.
                Event::Answered => {}
                // After `quit` or the end of input nothing more is read.
                Event::Input(_) if self.ending.is_some() => {}
                Event::Input(None) => self.ending = Some(Instant::now()),
                Event::Input(Some(input)) => {
                    if self.read(engine, input) {
                        return;
                    }
                }
            }
        }
    }

    /// Joins the running search once its answer is written.
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(SearchHandle::answered) {
            if let Some(run) = self.running.take() {
                run.join();
            }
        }
    }

    /// Starts `search`.
    fn go(&mut self, search: Search) {
        self.running = Some(SearchHandle::go(
            search,
            &self.clock,
            &self.output,
            &self.tx,
        ));
    }

    /// Takes one line just read; true when the session ends now.
    fn read<E: Engine>(&mut self, engine: &mut E, input: Input) -> bool {
        let read = Instant::now();
        let (parsed, text) = match input {
            Input::TooLong => (Err(crate::io::too_long_error()), None),
            Input::Line(line) => (parse(engine, &line), Some(line)),
        };
        if matches!(parsed, Ok(Line::Head(Head::Quit))) {
            self.ending = Some(read);
        }
        // A search whose answer is written before this line was read is over.
        self.reap();
        let busy = self.running.is_some();
        if !busy && self.waiting.is_empty() {
            return self.answer(engine, parsed, read);
        }
        let pending = match parsed {
            Ok(Line::Head(Head::Stop)) => {
                if let Some(run) = &self.running {
                    run.stop(&self.clock);
                }
                return false;
            }
            Ok(Line::Head(Head::IsReady)) if busy && self.waiting.is_empty() => {
                self.output.line("readyok");
                return false;
            }
            Ok(Line::Head(Head::Empty)) => return false,
            Ok(Line::Head(Head::IsReady)) => Pending::IsReady,
            Ok(Line::Head(Head::Quit)) => Pending::Quit,
            Err(e) => Pending::Error(e),
            // Kept as text, parsed again in its turn: a parsed line may take several times
            // the memory of its text.
            Ok(_) => Pending::Text(text.unwrap_or_default()),
        };
        // The bounds hold while a search runs; once its answer is out the waiting lines are
        // being answered, and this one joins them (at most one line: the loop answers them
        // all before it reads again).
        if let Err(e) = self.waiting.push(pending, read, busy) {
            self.output.line(&format!("error {e}"));
        }
        false
    }

    /// Answers a waiting line in its turn, no search running; true when the session ends.
    fn answer_waiting<E: Engine>(
        &mut self,
        engine: &mut E,
        pending: Pending,
        read: Instant,
    ) -> bool {
        match pending {
            Pending::Text(line) => {
                let parsed = parse(engine, &line);
                self.answer(engine, parsed, read)
            }
            Pending::Error(e) => self.answer(engine, Err(e), read),
            Pending::IsReady => {
                self.output.line("readyok");
                false
            }
            Pending::Quit => true,
        }
    }

    /// Answers one line while no search runs; true when the session ends.
    fn answer<E: Engine>(
        &mut self,
        engine: &mut E,
        parsed: Result<Line<E>, String>,
        read: Instant,
    ) -> bool {
        let head = match parsed {
            Ok(Line::Head(head)) => head,
            Ok(Line::Game(cmd)) => {
                if let Some(search) = engine.handle(cmd, read, &self.output) {
                    self.go(search);
                }
                return false;
            }
            Err(e) => {
                self.output.line(&format!("error {e}"));
                return false;
            }
        };
        match head {
            Head::Empty | Head::Stop | Head::Other => {}
            Head::IsReady => self.output.line("readyok"),
            Head::Quit => return true,
            Head::Hello => {
                let id = E::IDENTITY;
                let mut lines = vec![
                    format!("id name {}", id.name),
                    format!("id version {}", id.version),
                    format!("protocol {}", id.protocol),
                ];
                lines.extend(engine.options().hello_lines());
                lines.push("hello ok".into());
                self.output.lines(&lines);
            }
            Head::SetOption(setting) => engine.set_option(setting),
            Head::NewGame => engine.new_game(),
            Head::Go(limits) => match engine.go(limits, read) {
                Ok(search) => self.go(search),
                Err(e) => self.output.line(&format!("error {}", printable(&e))),
            },
        }
        false
    }
}

impl Drop for Session {
    /// A search still running when the session ends (a `quit` behind it) is stopped and its
    /// answer written before the program goes on.
    fn drop(&mut self) {
        if let Some(run) = self.running.take() {
            run.stop(&self.clock);
            run.join();
        }
    }
}

/// The lines waiting for a running search, in input order, within [`MAX_WAITING`] lines
/// and [`MAX_WAITING_BYTES`] bytes of text.
#[derive(Default)]
struct Queue {
    lines: VecDeque<Waiting>,
    bytes: usize,
}

impl Queue {
    /// Adds a line; the error reply when it is skipped for the queue's bounds (`bounded`).
    fn push(&mut self, pending: Pending, read: Instant, bounded: bool) -> Result<(), String> {
        let size = match &pending {
            Pending::Text(t) | Pending::Error(t) => t.len(),
            Pending::IsReady | Pending::Quit => 0,
        };
        if bounded && self.lines.len() >= MAX_WAITING {
            return Err(too_many_waiting());
        }
        if bounded && self.bytes + size > MAX_WAITING_BYTES {
            return Err(too_much_waiting());
        }
        self.bytes += size;
        self.lines.push_back((pending, read));
        Ok(())
    }

    fn pop(&mut self) -> Option<Waiting> {
        let (pending, read) = self.lines.pop_front()?;
        if let Pending::Text(t) | Pending::Error(t) = &pending {
            self.bytes -= t.len();
        }
        Some((pending, read))
    }

    fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// True when the next line is an `isready`.
    fn ready_next(&self) -> bool {
        matches!(self.lines.front(), Some((Pending::IsReady, _)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// An engine whose `go` thinks until stopped (`go infinite` holds its answer, a bare
    /// `go` has no clock) and whose other commands are logged.
    #[derive(Default)]
    struct Logger {
        log: Arc<Mutex<Vec<String>>>,
    }

    impl Engine for Logger {
        type Command = String;
        type Setting = u64;
        const DEPTH: bool = false;

        const IDENTITY: Identity = Identity {
            name: "example",
            version: "1.0",
            protocol: "example 1",
        };

        fn options(&self) -> OptionTable<u64> {
            OptionTable {
                specs: vec![crate::options::OptionSpec::spin("Threads", 1, 1, 8, |n| n)],
            }
        }

        fn parse(&mut self, line: &str) -> Result<Option<String>, String> {
            Ok((!line.starts_with("frobnicate")).then(|| line.to_string()))
        }

        fn set_option(&mut self, n: u64) {
            self.log.lock().unwrap().push(format!("threads {n}"));
        }

        fn new_game(&mut self) {
            self.log.lock().unwrap().push("newgame".into());
        }

        fn go(&mut self, limits: GoLimits, _read: Instant) -> Result<Search, String> {
            self.log.lock().unwrap().push(format!("go {limits:?}"));
            let log = Arc::clone(&self.log);
            let think = |stop: &AtomicBool, _: crate::handle::Report| {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            };
            let answer = move |()| {
                log.lock().unwrap().push("answer".into());
                vec!["bestmove x".to_string()]
            };
            Ok(Search::new(think, answer).infinite(limits.infinite))
        }

        fn handle(&mut self, cmd: String, _read: Instant, _out: &Output) -> Option<Search> {
            self.log.lock().unwrap().push(cmd);
            None
        }
    }

    /// A writer into a buffer the test keeps.
    #[derive(Clone, Default)]
    pub(crate) struct Sink(pub(crate) Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Serves `lines` then the end of input; the log of what the engine saw.
    fn session(lines: &[&str]) -> Vec<String> {
        session_with_output(lines).0
    }

    /// Serves `lines` then the end of input; the log and the lines written.
    fn session_with_output(lines: &[&str]) -> (Vec<String>, Vec<String>) {
        let mut text = lines.join("\n");
        text.push('\n');
        let mut engine = Logger::default();
        let sink = Sink::default();
        let input = std::io::Cursor::new(text.into_bytes());
        serve(&mut engine, input, sink.clone());
        let log = engine.log.lock().unwrap().clone();
        let written = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        (log, written.lines().map(str::to_string).collect())
    }

    const INFINITE: &str =
        "go GoLimits { movetime: None, nodes: None, depth: None, infinite: true }";

    /// The replies of the shared head, as protocol/README.md ("The shared commands") shows
    /// them: its transcript is replayed here (`>` sent, `<` expected).
    #[test]
    fn the_shared_head_answers_as_the_protocol_document_shows() {
        let doc = include_str!("../../../protocol/README.md");
        let block = doc
            .split("```head-transcript\n")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .expect("protocol/README.md has a head-transcript block");
        let sent: Vec<&str> = block.lines().filter_map(|l| l.strip_prefix("> ")).collect();
        let want: Vec<&str> = block.lines().filter_map(|l| l.strip_prefix("< ")).collect();
        let (_, written) = session_with_output(&sent);
        // The transcript's engine is this test's: `id name example`, one option.
        assert_eq!(written, want);
    }

    #[test]
    fn lines_during_go_infinite_wait_for_its_answer_which_waits_for_stop() {
        assert_eq!(
            session(&["go infinite", "show", "stop", "eval"]),
            [INFINITE, "answer", "show", "eval"]
        );
    }

    #[test]
    fn the_end_of_input_releases_go_infinite_after_the_lines_before_it() {
        assert_eq!(
            session(&["go infinite", "show"]),
            [INFINITE, "answer", "show"]
        );
    }

    #[test]
    fn quit_ends_the_session_and_lines_after_it_are_not_answered() {
        assert_eq!(
            session(&["show", "go infinite", "quit", "eval"]),
            ["show", INFINITE, "answer"]
        );
    }

    #[test]
    fn lines_beyond_the_queue_limit_are_skipped() {
        let mut lines = vec!["go infinite".to_string()];
        lines.extend((0..MAX_WAITING + 5).map(|i| format!("line {i}")));
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let log = session(&lines);
        // The search, its answer at the end of input, then the first MAX_WAITING lines.
        assert_eq!(log.len(), 2 + MAX_WAITING);
        assert_eq!(log[2], "line 0");
        assert_eq!(log.last().unwrap(), &format!("line {}", MAX_WAITING - 1));
    }

    #[test]
    fn the_end_of_input_ends_a_search_without_a_clock() {
        // A bare `go` here never ends on its own: the grace runs out and it is stopped.
        let (log, _) = session_with_output(&["go"]);
        assert_eq!(log[1], "answer");
    }
}
