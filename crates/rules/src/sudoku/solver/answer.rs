//! What every solver path is asked ([`Request`]) and answers ([`Answer`]), and the
//! [`Tally`] a counting search reports to. A leaf module: the paths and the dispatch
//! import it, it imports none of them.

/// What a solve is asked: count up to `limit` solutions, keep the first one when
/// `want_first`, and give up after `max_nodes` search nodes (then the answer is not
/// `complete`). The 9x9 path ignores the budget: its worst case is a fraction of a
/// millisecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Stop after this many solutions.
    pub limit: usize,
    /// Keep the first solution found.
    pub want_first: bool,
    /// Search nodes after which the search gives up.
    pub max_nodes: usize,
}

impl Request {
    /// Count up to `limit` solutions, no node budget.
    pub fn count(limit: usize) -> Request {
        Request {
            limit,
            want_first: false,
            max_nodes: usize::MAX,
        }
    }

    /// The same request, also keeping the first solution.
    pub fn with_first(self) -> Request {
        Request {
            want_first: true,
            ..self
        }
    }

    /// The same request with a node budget.
    pub fn within(self, max_nodes: usize) -> Request {
        Request { max_nodes, ..self }
    }
}

/// The stop test a solve may be given ([`super::run_until`]): polled every [`STOP_POLL`]
/// nodes, true when the caller wants the search to end (its answer is then not `complete`).
pub type StopTest<'a> = &'a dyn Fn() -> bool;

/// How many search nodes pass between two polls of a [`StopTest`] (on a sparse 25x25 board
/// about a millisecond).
const STOP_POLL: usize = 256;

/// Where a search reports (the general path's and [`super::sixteen`]'s): stops at `limit`,
/// past `max_nodes` or when the stop test says so, keeps the first solution when asked to.
pub(super) struct Tally<'a> {
    pub(super) limit: usize,
    pub(super) count: usize,
    /// Search nodes visited, and the budget after which the search gives up.
    pub(super) nodes: usize,
    pub(super) max_nodes: usize,
    pub(super) first: Option<Vec<u8>>,
    pub(super) want_first: bool,
    stop: Option<StopTest<'a>>,
    /// The stop test ended the search.
    pub(super) stopped: bool,
}

impl<'a> Tally<'a> {
    pub(super) fn new(request: Request, stop: Option<StopTest<'a>>) -> Tally<'a> {
        Tally {
            limit: request.limit,
            count: 0,
            nodes: 0,
            max_nodes: request.max_nodes,
            first: None,
            want_first: request.want_first,
            stop,
            stopped: false,
        }
    }

    /// Counts one search node; false when the search must end here: the budget is spent,
    /// or the stop test (polled every [`STOP_POLL`] nodes) said so, which also spends the
    /// budget so every level of the search unwinds.
    pub(super) fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return false;
        }
        if self.nodes.is_multiple_of(STOP_POLL) && self.stop.is_some_and(|stop| stop()) {
            self.stopped = true;
            self.max_nodes = self.nodes - 1;
            return false;
        }
        true
    }

    /// True when the search is over: enough solutions, or the nodes ran out.
    pub(super) fn over(&self) -> bool {
        self.count >= self.limit || self.nodes > self.max_nodes
    }

    /// The answer so far.
    pub(super) fn answer(self) -> Answer {
        Answer {
            count: self.count,
            first: self.first,
            complete: !self.stopped && self.nodes <= self.max_nodes,
            nodes: self.nodes,
        }
    }
}

/// What a counting search found (every path).
pub struct Answer {
    /// Solutions found, at most the limit.
    pub count: usize,
    /// The first solution (row-major values), when asked for and there is one.
    pub first: Option<Vec<u8>>,
    /// False when the node budget ran out (or the stop test ended the search) before the
    /// answer was certain.
    pub complete: bool,
    /// Search nodes visited: grids the search reached after propagation (the root
    /// included), the same measure on every path. The solver's own measure of how hard a
    /// puzzle is for it; 0 when the givens contradict each other.
    pub nodes: usize,
}

impl Answer {
    /// No solution (givens that contradict each other).
    pub(super) const NONE: Answer = Answer {
        count: 0,
        first: None,
        complete: true,
        nodes: 0,
    };
}
