//! The search handle: one running search on its own thread, with the stop flag both
//! `stop` and the clock set, and the `go infinite` rule that the answer waits for `stop`.
//! The search itself is a closure the engine passes in; it polls the flag. The answer is a
//! second closure that formats and prints the result, so the search never formats text.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A running search.
pub struct SearchHandle {
    stop: Arc<AtomicBool>,
    infinite: bool,
    thread: JoinHandle<()>,
}

impl SearchHandle {
    /// Starts `search` on a new thread with a fresh stop flag. With `stop_after`, a timer
    /// sets the flag after that long. Under `infinite`, the result is held until the flag
    /// is set (by [`SearchHandle::stop`] or [`SearchHandle::join`]). Then `answer` gets the
    /// result on the search thread (it prints `bestmove`).
    pub fn go<T, S, A>(infinite: bool, stop_after: Option<Duration>, search: S, answer: A) -> Self
    where
        T: Send + 'static,
        S: FnOnce(&AtomicBool) -> T + Send + 'static,
        A: FnOnce(T) + Send + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(wait) = stop_after {
            let timer = Arc::clone(&stop);
            std::thread::spawn(move || {
                std::thread::sleep(wait);
                timer.store(true, Ordering::Relaxed);
            });
        }
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let result = search(&flag);
            while infinite && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            answer(result);
        });
        SearchHandle {
            stop,
            infinite,
            thread,
        }
    }

    /// Asks the search to stop (it still answers).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once the search thread has answered.
    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Waits for the answer; stops the search first when `stop_first`, and always under
    /// `go infinite` (which would otherwise never answer).
    pub fn join(self, stop_first: bool) {
        if stop_first || self.infinite {
            self.stop();
        }
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
