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
use crate::io::{Event, Input, Output};

/// What the loop itself does with a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// A blank line: no reply.
    Empty,
    /// `isready`: `readyok` once every line before it has been answered.
    IsReady,
    /// `stop`: stops the running search (ignored when none runs).
    Stop,
    /// `quit`: ends the session.
    Quit,
    /// Anything else: the engine's [`Engine::handle`], never while a search runs.
    Engine,
}

/// An engine as the session loop sees it: its commands and its search.
pub trait Engine {
    /// A parsed line.
    type Command;

    /// Parses one line (without its line end). The error is the reply after `error `.
    fn parse(&mut self, line: &str) -> Result<Self::Command, String>;

    /// Which of the loop's own commands `cmd` is, if any.
    fn control(cmd: &Self::Command) -> Control;

    /// Answers `cmd` (a [`Control::Engine`] command, read at `read`; no search is running)
    /// on `out`; returns the search a `go` starts.
    fn handle(&mut self, cmd: Self::Command, read: Instant, out: &Output) -> Option<Search>;

    /// Takes a line before it is parsed, when the engine serves another protocol for the
    /// session (Blockudoku's legacy I/O), answering on `out`; true when it did.
    fn intercept(&mut self, _line: &str, _out: &Output) -> bool {
        false
    }
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
    let (tx, events) = crate::io::events();
    crate::io::spawn_reader(input, tx.clone());
    Session {
        output: Output::new(output),
        clock: Clock::new(),
        tx,
        running: None,
        waiting: Queue::default(),
        ending: None,
    }
    .run(engine, &events);
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
            Input::Line(line) => {
                if engine.intercept(&line, &self.output) {
                    return false;
                }
                (engine.parse(&line), Some(line))
            }
        };
        let control = parsed.as_ref().map_or(Control::Engine, E::control);
        if control == Control::Quit {
            self.ending = Some(read);
        }
        // A search whose answer is written before this line was read is over.
        self.reap();
        let busy = self.running.is_some();
        if !busy && self.waiting.is_empty() {
            return self.answer(engine, parsed, read);
        }
        let pending = match (control, parsed) {
            (Control::Stop, _) if busy => {
                if let Some(run) = &self.running {
                    run.stop(&self.clock);
                }
                return false;
            }
            (Control::IsReady, _) if busy && self.waiting.is_empty() => {
                self.output.line("readyok");
                return false;
            }
            (Control::Empty | Control::Stop, _) => return false,
            (Control::IsReady, _) => Pending::IsReady,
            (Control::Quit, _) => Pending::Quit,
            (Control::Engine, Err(e)) => Pending::Error(e),
            // Kept as text, parsed again in its turn: a parsed line may take several times
            // the memory of its text.
            (Control::Engine, Ok(_)) => Pending::Text(text.unwrap_or_default()),
        };
        if let Err(e) = self.waiting.push(pending, read) {
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
                let parsed = engine.parse(&line);
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
        parsed: Result<E::Command, String>,
        read: Instant,
    ) -> bool {
        let cmd = match parsed {
            Ok(cmd) => cmd,
            Err(e) => {
                self.output.line(&format!("error {e}"));
                return false;
            }
        };
        match E::control(&cmd) {
            Control::Empty | Control::Stop => {}
            Control::IsReady => self.output.line("readyok"),
            Control::Quit => return true,
            Control::Engine => {
                if let Some(search) = engine.handle(cmd, read, &self.output) {
                    self.go(search);
                }
            }
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
    /// Adds a line; the error reply when it is skipped for the queue's bounds.
    fn push(&mut self, pending: Pending, read: Instant) -> Result<(), String> {
        let size = match &pending {
            Pending::Text(t) | Pending::Error(t) => t.len(),
            Pending::IsReady | Pending::Quit => 0,
        };
        if self.lines.len() >= MAX_WAITING {
            return Err(too_many_waiting());
        }
        if self.bytes + size > MAX_WAITING_BYTES {
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

    /// An engine whose `go` thinks until stopped (`go infinite` holds its answer, `go
    /// forever` has no clock) and whose other commands are logged. Nothing is written but
    /// the `readyok` of the loop itself.
    #[derive(Default)]
    struct Logger {
        log: Arc<Mutex<Vec<String>>>,
    }

    impl Engine for Logger {
        type Command = String;

        fn parse(&mut self, line: &str) -> Result<String, String> {
            Ok(line.to_string())
        }

        fn control(cmd: &String) -> Control {
            match cmd.as_str() {
                "" => Control::Empty,
                "isready" => Control::IsReady,
                "stop" => Control::Stop,
                "quit" => Control::Quit,
                _ => Control::Engine,
            }
        }

        fn handle(&mut self, cmd: String, _read: Instant, _out: &Output) -> Option<Search> {
            self.log.lock().unwrap().push(cmd.clone());
            let log = Arc::clone(&self.log);
            let think = |stop: &AtomicBool, _: crate::handle::Report| {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            };
            let answer = move |()| {
                log.lock().unwrap().push("answer".into());
                Vec::new()
            };
            match cmd.as_str() {
                "go infinite" => Some(Search::new(think, answer).infinite(true)),
                "go forever" => Some(Search::new(think, answer)),
                _ => None,
            }
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
        let mut text = lines.join("\n");
        text.push('\n');
        let mut engine = Logger::default();
        serve(
            &mut engine,
            std::io::Cursor::new(text.into_bytes()),
            Sink::default(),
        );
        let log = engine.log.lock().unwrap().clone();
        log
    }

    #[test]
    fn lines_during_go_infinite_wait_for_its_answer_which_waits_for_stop() {
        assert_eq!(
            session(&["go infinite", "show", "stop", "eval"]),
            ["go infinite", "answer", "show", "eval"]
        );
    }

    #[test]
    fn the_end_of_input_releases_go_infinite_after_the_lines_before_it() {
        assert_eq!(
            session(&["go infinite", "show"]),
            ["go infinite", "answer", "show"]
        );
    }

    #[test]
    fn quit_ends_the_session_and_lines_after_it_are_not_answered() {
        assert_eq!(
            session(&["show", "go infinite", "quit", "eval"]),
            ["show", "go infinite", "answer"]
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
        // `go forever` never ends on its own: the grace runs out and it is stopped.
        assert_eq!(session(&["go forever"]), ["go forever", "answer"]);
    }
}
