//! The search handle: one running search on its own thread. A [`Search`] is what an engine
//! hands the session loop for a `go`: a closure that thinks (polling the stop flag), a
//! second that turns its result into the reply lines (so the search never formats text),
//! and how it may be stopped. The handle holds two flags:
//!
//! - *stop*, set by `stop`, `quit`, the end of input and the `stop_after` timer: the search
//!   ends its thinking;
//! - *release*, set by `stop`, `quit` and the end of input only: a `go infinite` prints its
//!   answer only once released, even when a limit ended its thinking earlier (C6).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The reply lines of a finished search, formatted once it may answer.
type Answer = Box<dyn FnOnce() -> Vec<String> + Send>;
/// The thinking of a search.
type Think = Box<dyn FnOnce(&AtomicBool) -> Answer + Send>;

/// A search to start: what it computes, how its answer is written, how it may be stopped.
pub struct Search {
    think: Think,
    infinite: bool,
    clocked: bool,
    stop_after: Option<Duration>,
}

impl Search {
    /// A search running `think` (which polls the stop flag it is given) and answering with
    /// the lines `answer` makes of its result. By default it has no clock, is not infinite,
    /// and no timer stops it.
    pub fn new<T, S, A>(think: S, answer: A) -> Search
    where
        T: Send + 'static,
        S: FnOnce(&AtomicBool) -> T + Send + 'static,
        A: FnOnce(T) -> Vec<String> + Send + 'static,
    {
        Search {
            think: Box::new(move |stop| {
                let result = think(stop);
                Box::new(move || answer(result))
            }),
            infinite: false,
            clocked: false,
            stop_after: None,
        }
    }

    /// `go infinite`: the answer waits for `stop`, `quit` or the end of input. Such a
    /// search counts as clocked.
    pub fn infinite(mut self, infinite: bool) -> Search {
        self.infinite = infinite;
        self.clocked |= infinite;
        self
    }

    /// The search spends a clock (`movetime`): `quit` and the end of input stop it at once,
    /// since its answer depends on time anyway. A search without one (a node or depth
    /// limit) is given [`QUIT_GRACE`] to end as it would.
    pub fn clocked(mut self, clocked: bool) -> Search {
        self.clocked |= clocked;
        self
    }

    /// A timer sets the stop flag after `wait` (`None`: no timer).
    pub fn stop_after(mut self, wait: Option<Duration>) -> Search {
        self.stop_after = wait;
        self
    }
}

/// How long `quit` or the end of input lets a search without a clock (`go nodes`, `go
/// depth`, a bare Blockudoku `go`) end on its own before stopping it: long enough that a
/// script piping such a `go` gets its exact answer, short enough that `go depth 1000` or
/// `go nodes 18446744073709551615` cannot keep a finished session alive.
pub const QUIT_GRACE: Duration = Duration::from_secs(2);

/// A running search.
pub struct SearchHandle {
    stop: Arc<AtomicBool>,
    release: Arc<AtomicBool>,
    answered: Arc<Mutex<bool>>,
    clocked: bool,
    started: Instant,
    thread: JoinHandle<()>,
}

impl SearchHandle {
    /// Starts `search` on a new thread. Its answer is printed with [`crate::io::say`] on
    /// that thread, once its thinking ended and (`go infinite`) it was released.
    pub fn go(search: Search) -> SearchHandle {
        let stop = Arc::new(AtomicBool::new(false));
        let release = Arc::new(AtomicBool::new(!search.infinite));
        let answered = Arc::new(Mutex::new(false));
        if let Some(wait) = search.stop_after {
            let timer = Arc::clone(&stop);
            std::thread::spawn(move || {
                std::thread::sleep(wait);
                timer.store(true, Ordering::Relaxed);
            });
        }
        let (flag, held, done) = (
            Arc::clone(&stop),
            Arc::clone(&release),
            Arc::clone(&answered),
        );
        let think = search.think;
        let thread = std::thread::spawn(move || {
            let answer = think(&flag);
            while !held.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let lines = answer();
            // The flag is set under the same lock as the printing, so the loop never takes
            // a search whose answer is out for a running one.
            let mut done = done.lock().unwrap_or_else(PoisonError::into_inner);
            crate::io::say(&lines);
            *done = true;
        });
        SearchHandle {
            stop,
            release,
            answered,
            clocked: search.clocked,
            started: Instant::now(),
            thread,
        }
    }

    /// Ends the thinking and releases a held answer (`stop`): the answer still comes.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.release.store(true, Ordering::Relaxed);
    }

    /// True once the search has printed its answer.
    pub fn answered(&self) -> bool {
        *self.answered.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The search spends a clock or is infinite (see [`Search::clocked`]).
    pub fn clocked(&self) -> bool {
        self.clocked
    }

    /// Waits for the answer, stopping the search first when `stop_first`.
    pub fn join(self, stop_first: bool) {
        if stop_first {
            self.stop();
        }
        let _ = self.thread.join();
    }

    /// Ends the search for `quit` or the end of input read at `ending`: a clocked or
    /// infinite search is stopped at once; another may end on its own until [`QUIT_GRACE`]
    /// after `ending` (or after its start, if it started later), then is stopped. Returns
    /// once the answer is out.
    pub fn finish_for_quit(self, ending: Instant) {
        if self.clocked {
            return self.join(true);
        }
        let deadline = ending.max(self.started) + QUIT_GRACE;
        while !self.answered() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.join(true);
    }
}

/// The deadline a search aims at for `movetime_ms`: a little before it, leaving room to
/// print `bestmove` and for the reader to receive it in time.
pub fn deadline_for(start: Instant, movetime_ms: u64) -> Instant {
    let ms = movetime_ms as f64;
    let aim = (ms * 0.95 - 3.0).max(0.0);
    start + Duration::from_micros((aim * 1000.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search that thinks until stopped.
    fn until_stopped() -> Search {
        Search::new(
            |stop: &AtomicBool| {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            },
            // Nothing to print: the test harness does not capture the kit's stdout.
            |_| Vec::new(),
        )
    }

    #[test]
    fn an_infinite_search_holds_its_answer_until_stopped() {
        // Its own limit (the timer) ends the thinking at once; the answer waits for `stop`.
        let run = SearchHandle::go(
            until_stopped()
                .infinite(true)
                .stop_after(Some(Duration::ZERO)),
        );
        std::thread::sleep(Duration::from_millis(50));
        assert!(!run.answered());
        run.stop();
        while !run.answered() {
            std::thread::sleep(Duration::from_millis(1));
        }
        run.join(false);
    }

    #[test]
    fn quit_stops_a_search_without_a_clock_after_the_grace() {
        // A search that would never end on its own: `finish_for_quit` must return.
        let run = SearchHandle::go(until_stopped());
        assert!(!run.clocked());
        let past = Instant::now() - QUIT_GRACE;
        run.finish_for_quit(past);
    }

    #[test]
    fn quit_lets_a_search_without_a_clock_end_on_its_own() {
        let ended = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ended);
        let run = SearchHandle::go(Search::new(
            move |stop: &AtomicBool| {
                std::thread::sleep(Duration::from_millis(20));
                flag.store(!stop.load(Ordering::Relaxed), Ordering::Relaxed);
            },
            |_| Vec::new(),
        ));
        // Quit read an hour from now: the grace cannot run out before the search ends.
        run.finish_for_quit(Instant::now() + Duration::from_secs(3600));
        assert!(
            ended.load(Ordering::Relaxed),
            "the search was stopped early"
        );
    }
}
