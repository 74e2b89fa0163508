//! The search handle: one running search on its own thread. A [`Search`] is what an engine
//! hands the session for a `go`: a closure that thinks (polling the stop flag, reporting its
//! progress lines through the session's output), a second that turns its result into the
//! reply lines (so the search never formats its answer), and how it may be stopped.
//!
//! Nothing here polls or sleeps: the search thread waits for the release of a held answer
//! on a condition variable, the one [`Clock`] thread of a session waits for the next
//! deadline on another (`stop` wakes it at once), and the session learns that an answer is
//! out from a flag set as the answer is written (under the output's lock, so a line read
//! after the answer never finds the search running) and an [`Event::Answered`] that wakes
//! it. A running search has two flags:
//!
//! - *stop*, set by `stop`, `quit`, the end of input and the clock: the search ends its
//!   thinking;
//! - *release*, set by `stop`, `quit` and the end of input only: a `go infinite` writes its
//!   answer only once released, even when a limit ended its thinking earlier (C6).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::io::{Event, Output};

/// How a search reports a progress line (`info`, `propose`): to the session's output.
pub type Report<'a> = &'a dyn Fn(String);

/// The reply lines of a finished search, formatted once it may answer.
type Answer = Box<dyn FnOnce() -> Vec<String> + Send>;
/// The thinking of a search.
type Think = Box<dyn FnOnce(&AtomicBool, Report) -> Answer + Send>;

/// A search to start: what it computes, how its answer is written, how it may be stopped.
pub struct Search {
    think: Think,
    infinite: bool,
    clocked: bool,
    stop_after: Option<Duration>,
}

impl Search {
    /// A search running `think` (which polls the stop flag it is given and may report
    /// progress lines) and answering with the lines `answer` makes of its result. By
    /// default it has no clock, is not infinite, and no clock stops it.
    pub fn new<T, S, A>(think: S, answer: A) -> Search
    where
        T: Send + 'static,
        S: FnOnce(&AtomicBool, Report) -> T + Send + 'static,
        A: FnOnce(T) -> Vec<String> + Send + 'static,
    {
        Search {
            think: Box::new(move |stop, report| {
                let result = think(stop, report);
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

    /// `go movetime <ms>` (`None`: no movetime): the search is clocked, and the session's
    /// clock sets its stop flag [`ANSWER_ROOM`] before the movetime, so that the answer is
    /// written within it.
    pub fn movetime(self, ms: Option<u64>) -> Search {
        let wait = ms.map(|ms| Duration::from_millis(ms).saturating_sub(ANSWER_ROOM));
        self.clocked(ms.is_some()).stop_after(wait)
    }

    /// The session's clock sets the stop flag after `wait` (`None`: never).
    pub fn stop_after(mut self, wait: Option<Duration>) -> Search {
        self.stop_after = wait;
        self
    }
}

/// What [`Search::movetime`] leaves of the movetime to format and write the answer.
pub const ANSWER_ROOM: Duration = Duration::from_millis(2);

/// How long `quit` or the end of input lets a search without a clock (`go nodes`, `go
/// depth`, a bare Blockudoku `go`) end on its own before stopping it: long enough that a
/// script piping such a `go` gets its exact answer, short enough that `go depth 1000` or
/// `go nodes 18446744073709551615` cannot keep a finished session alive.
pub const QUIT_GRACE: Duration = Duration::from_secs(2);

/// Locks `m`, whatever a panicking holder left.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A flag that can be waited for.
#[derive(Default)]
struct Latch {
    set: Mutex<bool>,
    changed: Condvar,
}

impl Latch {
    fn open(&self) {
        *lock(&self.set) = true;
        self.changed.notify_all();
    }

    fn wait(&self) {
        let mut set = lock(&self.set);
        while !*set {
            set = self
                .changed
                .wait(set)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// The session's one clock thread: it sets a search's stop flag at its deadline, waiting
/// on a condition variable with that deadline (so a stopped search's clock costs nothing:
/// `stop` disarms it and wakes the thread at once). It ends when the clock is dropped.
pub struct Clock {
    shared: Arc<(Mutex<Alarm>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

/// What the clock thread waits for.
#[derive(Default)]
struct Alarm {
    /// The deadline and the flag it sets.
    next: Option<(Instant, Arc<AtomicBool>)>,
    /// The clock is being dropped.
    done: bool,
}

impl Clock {
    /// Starts the clock thread.
    pub fn new() -> Clock {
        let shared: Arc<(Mutex<Alarm>, Condvar)> = Arc::default();
        let state = Arc::clone(&shared);
        let thread = std::thread::spawn(move || {
            let (alarm, changed) = &*state;
            let mut a = lock(alarm);
            while !a.done {
                let Some((at, flag)) = a.next.clone() else {
                    a = changed.wait(a).unwrap_or_else(PoisonError::into_inner);
                    continue;
                };
                let now = Instant::now();
                if now >= at {
                    flag.store(true, Ordering::Relaxed);
                    a.next = None;
                    continue;
                }
                let wait = changed.wait_timeout(a, at - now);
                a = wait.unwrap_or_else(PoisonError::into_inner).0;
            }
        });
        Clock {
            shared,
            thread: Some(thread),
        }
    }

    /// Sets `flag` at `at` (replacing any earlier alarm).
    fn arm(&self, at: Instant, flag: Arc<AtomicBool>) {
        lock(&self.shared.0).next = Some((at, flag));
        self.shared.1.notify_all();
    }

    /// Forgets the alarm.
    fn disarm(&self) {
        lock(&self.shared.0).next = None;
        self.shared.1.notify_all();
    }
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new()
    }
}

impl Drop for Clock {
    fn drop(&mut self) {
        lock(&self.shared.0).done = true;
        self.shared.1.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A running search.
pub struct SearchHandle {
    stop: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
    release: Arc<Latch>,
    clocked: bool,
    started: Instant,
    thread: JoinHandle<()>,
}

impl SearchHandle {
    /// Starts `search` on a new thread, its deadline (if any) on `clock`. Its progress and
    /// its answer go to `output`, the answer once its thinking ended and (`go infinite`) it
    /// was released; then [`SearchHandle::answered`] is true and `events` gets
    /// [`Event::Answered`] (unless the channel is full: then the session has events to
    /// take, and sees the flag before it waits again).
    pub fn go(
        search: Search,
        clock: &Clock,
        output: &Output,
        events: &SyncSender<Event>,
    ) -> SearchHandle {
        let stop = Arc::new(AtomicBool::new(false));
        let release = Arc::new(Latch::default());
        if !search.infinite {
            release.open();
        }
        if let Some(wait) = search.stop_after {
            clock.arm(Instant::now() + wait, Arc::clone(&stop));
        }
        let answered = Arc::new(AtomicBool::new(false));
        let (flag, held, done) = (
            Arc::clone(&stop),
            Arc::clone(&release),
            Arc::clone(&answered),
        );
        let (out, events) = (output.clone(), events.clone());
        let think = search.think;
        let thread = std::thread::spawn(move || {
            let report = |line: String| out.lines(&[line]);
            let answer = think(&flag, &report);
            held.wait();
            let lines = answer();
            out.lines_after(|| done.store(true, Ordering::SeqCst), &lines);
            let _ = events.try_send(Event::Answered);
        });
        SearchHandle {
            stop,
            answered,
            release,
            clocked: search.clocked,
            started: Instant::now(),
            thread,
        }
    }

    /// Ends the thinking and releases a held answer (`stop`): the answer still comes.
    pub fn stop(&self, clock: &Clock) {
        clock.disarm();
        self.stop.store(true, Ordering::Relaxed);
        self.release.open();
    }

    /// True once the answer is written.
    pub fn answered(&self) -> bool {
        self.answered.load(Ordering::SeqCst)
    }

    /// The search spends a clock or is infinite (see [`Search::clocked`]).
    pub fn clocked(&self) -> bool {
        self.clocked
    }

    /// When `quit` or the end of input read at `ending` must stop the search: at once for
    /// a clocked or infinite search, else [`QUIT_GRACE`] after `ending` (or after its
    /// start, if it started later).
    pub fn quit_deadline(&self, ending: Instant) -> Instant {
        if self.clocked {
            ending
        } else {
            ending.max(self.started) + QUIT_GRACE
        }
    }

    /// Waits for the thread, once its answer is out ([`SearchHandle::answered`]).
    pub fn join(self) {
        let _ = self.thread.join();
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
    use crate::io::events;

    /// A search that thinks until stopped and answers `bestmove x`.
    fn until_stopped() -> Search {
        Search::new(
            |stop: &AtomicBool, report: Report| {
                report("info thinking".into());
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            },
            |_| vec!["bestmove x".to_string()],
        )
    }

    /// An output the test reads back.
    fn output() -> (Output, Arc<Mutex<Vec<u8>>>) {
        #[derive(Clone)]
        struct Buffer(Arc<Mutex<Vec<u8>>>);
        impl std::io::Write for Buffer {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                lock(&self.0).extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let buffer = Arc::default();
        (Output::new(Buffer(Arc::clone(&buffer))), buffer)
    }

    #[test]
    fn an_infinite_search_holds_its_answer_until_stopped() {
        let (clock, (tx, rx), (out, written)) = (Clock::new(), events(), output());
        // Its own limit (the clock, at once) ends the thinking; the answer waits for `stop`.
        let search = until_stopped()
            .infinite(true)
            .stop_after(Some(Duration::ZERO));
        let run = SearchHandle::go(search, &clock, &out, &tx);
        assert!(rx.recv_timeout(Duration::from_millis(50)).is_err());
        run.stop(&clock);
        assert!(matches!(rx.recv(), Ok(Event::Answered)));
        run.join();
        let text = String::from_utf8(lock(&written).clone()).unwrap();
        assert_eq!(text, "info thinking\nbestmove x\n");
    }

    #[test]
    fn the_clock_stops_a_search_at_its_deadline_and_waits_for_the_next() {
        let (clock, (tx, rx), (out, _)) = (Clock::new(), events(), output());
        for _ in 0..3 {
            let search = until_stopped().stop_after(Some(Duration::from_millis(5)));
            let run = SearchHandle::go(search, &clock, &out, &tx);
            assert!(matches!(rx.recv(), Ok(Event::Answered)));
            run.join();
        }
    }

    #[test]
    fn quit_stops_a_search_without_a_clock_after_the_grace() {
        let (clock, (tx, _rx), (out, _)) = (Clock::new(), events(), output());
        let run = SearchHandle::go(until_stopped(), &clock, &out, &tx);
        let ending = Instant::now();
        assert!(!run.clocked());
        assert_eq!(
            run.quit_deadline(ending),
            ending.max(run.started) + QUIT_GRACE
        );
        run.stop(&clock);
        run.join();
    }
}
