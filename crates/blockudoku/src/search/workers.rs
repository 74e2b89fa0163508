//! The search's worker threads: one rayon pool, made when the thread count is set (once per
//! engine session, or per run of a tool) and shared by every search after it, instead of a
//! pool built and torn down inside each search.

use std::sync::Arc;

/// The threads a search may use: the count, and with more than one a pool of that many.
/// Cloning shares the pool.
#[derive(Clone, Debug, Default)]
pub struct Workers {
    threads: usize,
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl Workers {
    /// One thread: the search runs on the caller's thread.
    pub const ONE: Workers = Workers {
        threads: 1,
        pool: None,
    };

    /// `threads` workers (at least 1); with more than one, their pool is built now. If the
    /// pool cannot be built, the search runs on rayon's global pool or on the caller's thread.
    pub fn new(threads: usize) -> Workers {
        let threads = threads.max(1);
        let pool = (threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .ok()
            })
            .flatten()
            .map(Arc::new);
        Workers { threads, pool }
    }

    /// The thread count asked for.
    pub fn threads(&self) -> usize {
        self.threads.max(1)
    }

    /// The pool, when there is one.
    pub fn pool(&self) -> Option<&rayon::ThreadPool> {
        self.pool.as_deref()
    }
}
