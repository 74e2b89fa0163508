//! The protocol session loop both engines serve, so an engine supplies only its commands
//! ([`Engine`]) and its search (a [`Search`] for each `go`).
//!
//! The loop's shape (queueing, as Carp and Stockfish answer while a search runs):
//!
//! - The reader thread ([`crate::io::spawn_reader`]) hands over lines of at most
//!   [`MAX_LINE`](crate::io::MAX_LINE) bytes; a longer one is answered with one `error` line.
//! - Each line is parsed as soon as it is read. While a search runs, `stop` stops it at once
//!   (its answer still comes) and an empty line is ignored; every other line, valid or not,
//!   waits in a queue with the time it was read. Once the search has printed its answer,
//!   the waiting lines are answered in input order, and a `go` among them starts its
//!   search, behind which the rest wait again.
//! - At most [`MAX_WAITING`] lines wait; one more is skipped with one `error` line at once.
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
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::handle::{Search, SearchHandle};
use crate::io::{say, Input};

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
    /// with [`say`]; returns the search a `go` starts.
    fn handle(&mut self, cmd: Self::Command, read: Instant) -> Option<Search>;

    /// Takes a line before it is parsed, when the engine serves another protocol for the
    /// session (Blockudoku's legacy I/O); true when it did.
    fn intercept(&mut self, _line: &str) -> bool {
        false
    }
}

/// A line read and parsed, waiting for its answer.
type Waiting<C> = (Result<C, String>, Instant);

/// The most lines that wait for a running search. Waiting lines are kept parsed (an error
/// as its one-line reply), a few hundred bytes each, so the queue stays within a few
/// megabytes whatever a client sends during `go infinite`.
pub const MAX_WAITING: usize = 10_000;

/// The reply (after `error `) to a line that finds [`MAX_WAITING`] lines waiting: it is
/// skipped unanswered otherwise.
pub fn too_many_waiting() -> String {
    format!("line skipped: {MAX_WAITING} lines already wait for the running search")
}

/// How often the loop looks whether the running search has answered while lines wait.
const POLL: Duration = Duration::from_millis(1);

/// Serves `engine` on stdin/stdout until `quit` or the end of input.
pub fn serve<E: Engine>(engine: &mut E) {
    serve_from(engine, crate::io::spawn_reader());
}

/// Serves `engine` on the lines of `input` (`None`: the end of input), replies on stdout.
pub fn serve_from<E: Engine>(engine: &mut E, input: Receiver<Option<Input>>) {
    let mut running: Option<SearchHandle> = None;
    let mut waiting: VecDeque<Waiting<E::Command>> = VecDeque::new();
    // When `quit` or the end of input was read: nothing more is read after it.
    let mut ending: Option<Instant> = None;
    loop {
        let busy = running.as_ref().is_some_and(|r| !r.answered());
        if !busy {
            if let Some(done) = running.take() {
                done.join(false);
            }
            if let Some((parsed, read)) = waiting.pop_front() {
                match answer(engine, parsed, read) {
                    Step::Quit => break,
                    Step::Go(search) => running = Some(SearchHandle::go(search)),
                    Step::Done => {}
                }
                continue;
            }
            if ending.is_some() {
                break;
            }
        } else if let Some(at) = ending {
            if let Some(run) = running.take() {
                run.finish_for_quit(at);
            }
            continue;
        }
        let message = if busy && !waiting.is_empty() {
            match input.recv_timeout(POLL) {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => None,
            }
        } else {
            input.recv().unwrap_or(None)
        };
        let read = Instant::now();
        let parsed = match message {
            None => {
                ending = Some(read);
                continue;
            }
            Some(Input::TooLong) => Err(crate::io::too_long_error()),
            Some(Input::Line(line)) => {
                if engine.intercept(&line) {
                    continue;
                }
                engine.parse(&line)
            }
        };
        let control = parsed.as_ref().map_or(Control::Engine, E::control);
        if control == Control::Quit {
            ending = Some(read);
        }
        let busy = running.as_ref().is_some_and(|r| !r.answered());
        if busy {
            match control {
                Control::IsReady if waiting.is_empty() => say(&["readyok"]),
                Control::Stop => {
                    if let Some(run) = running.take() {
                        run.join(true);
                    }
                }
                Control::Empty => {}
                Control::IsReady | Control::Engine if waiting.len() >= MAX_WAITING => {
                    say(&[format!("error {}", too_many_waiting())])
                }
                Control::IsReady | Control::Quit | Control::Engine => {
                    waiting.push_back((parsed, read))
                }
            }
        } else {
            // Behind lines still waiting (the search answered while this one was on its
            // way), or answered at the top of the loop at once.
            waiting.push_back((parsed, read));
        }
    }
    if let Some(run) = running.take() {
        run.finish_for_quit(ending.unwrap_or_else(Instant::now));
    }
}

/// What answering one line led to.
enum Step {
    Done,
    Go(Search),
    Quit,
}

/// Answers one line while no search runs.
fn answer<E: Engine>(engine: &mut E, parsed: Result<E::Command, String>, read: Instant) -> Step {
    let cmd = match parsed {
        Ok(cmd) => cmd,
        Err(e) => {
            say(&[format!("error {e}")]);
            return Step::Done;
        }
    };
    match E::control(&cmd) {
        Control::Empty | Control::Stop => Step::Done,
        Control::IsReady => {
            say(&["readyok"]);
            Step::Done
        }
        Control::Quit => Step::Quit,
        Control::Engine => engine.handle(cmd, read).map_or(Step::Done, Step::Go),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc, Mutex};

    /// An engine whose `go` thinks until stopped (`go infinite` holds its answer, `go
    /// forever` has no clock) and whose other commands are logged. Nothing is printed but
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

        fn handle(&mut self, cmd: String, _read: Instant) -> Option<Search> {
            self.log.lock().unwrap().push(cmd.clone());
            let log = Arc::clone(&self.log);
            let think = |stop: &AtomicBool| {
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

    /// Serves `lines` then the end of input; the log of what the engine saw.
    fn session(lines: &[&str]) -> Vec<String> {
        let (tx, rx) = mpsc::channel();
        for line in lines {
            tx.send(Some(Input::Line(line.to_string()))).unwrap();
        }
        tx.send(None).unwrap();
        let mut engine = Logger::default();
        serve_from(&mut engine, rx);
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
