//! The agents: `random`, `greedy`, `original` (the original report's minimax, kept as a
//! baseline; `seed` is its former name), `default` (the cell-game search in
//! [`crate::search`]), `territory` (two plies with the reach analysis of
//! [`crate::territory`]) and `mcts` ([`crate::mcts`]).
//!
//! Every agent is a pure function of the game, the limits and a seed, so the protocol loop,
//! the arena and the bench all call the same code.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use puzzle_rules::sudoku::board::{Board, Move};
use puzzle_rules::sudoku::game::{cell_moves, Game, Mode, Player};

use crate::search::{self, best_child, Event, Limits, Table};

/// The built-in agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentKind {
    /// A random legal, non-taboo-listed move (may turn out taboo).
    Random,
    /// Highest immediate score, random tie-break, no solvability check.
    Greedy,
    /// The original report's minimax: real moves, score-difference evaluation, taboo pass
    /// when losing. Also accepted as `seed`, its former name.
    Original,
    /// The strongest agent: alpha-beta over the cell game with passes.
    Default,
    /// Two plies with the territory evaluation (allowed-squares game).
    Territory,
    /// Monte Carlo tree search with random playouts.
    Mcts,
}

impl AgentKind {
    /// Every agent, in the order the `hello` option line lists them.
    pub const ALL: [AgentKind; 6] = [
        AgentKind::Random,
        AgentKind::Greedy,
        AgentKind::Original,
        AgentKind::Default,
        AgentKind::Territory,
        AgentKind::Mcts,
    ];

    /// Parses an agent name (`seed` is the former name of `original`).
    pub fn parse(text: &str) -> Option<AgentKind> {
        let text = if text == "seed" { "original" } else { text };
        AgentKind::ALL.into_iter().find(|a| a.name() == text)
    }

    /// The agent's name.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
            AgentKind::Original => "original",
            AgentKind::Default => "default",
            AgentKind::Territory => "territory",
            AgentKind::Mcts => "mcts",
        }
    }
}

/// An agent with its settings and the state it keeps between moves.
pub struct Agent {
    /// Which agent.
    pub kind: AgentKind,
    /// Search threads (`default` only).
    pub threads: usize,
    /// Seed of the random choices.
    pub seed: u64,
    table: Arc<Table>,
    /// Nodes of the last `default` search (for `bench`).
    last_nodes: AtomicU64,
    /// The `mcts` agent's tree, kept between moves.
    mcts: std::sync::Mutex<crate::mcts::Mcts>,
}

impl Agent {
    /// A new agent.
    pub fn new(kind: AgentKind, threads: usize, seed: u64) -> Agent {
        Agent {
            kind,
            threads: threads.max(1),
            seed,
            table: Arc::new(Table::new(20)),
            last_nodes: AtomicU64::new(0),
            mcts: Default::default(),
        }
    }

    /// Nodes searched by the last `default` search.
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes.load(Ordering::Relaxed)
    }

    /// Forgets what was learnt (new game).
    pub fn clear(&self) {
        self.table.clear();
        if let Ok(mut m) = self.mcts.lock() {
            m.clear();
        }
    }

    /// Chooses a move for the player to move; `None` when it has no legal move at all.
    /// `report` receives `propose` and `info` events as the search goes.
    pub fn choose(
        &self,
        game: &Game,
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(Event),
    ) -> Option<Move> {
        // Seeded from the position too, so the same position always gets the same answer
        // while different positions of one game do not repeat the same random stream.
        let mut rng = SmallRng::seed_from_u64(self.seed ^ position_hash(game));
        match self.kind {
            AgentKind::Random => {
                let mv = game.legal_moves(game.turn()).choose(&mut rng).copied();
                if let Some(m) = mv {
                    report(Event::Propose(m));
                }
                mv
            }
            AgentKind::Greedy => {
                let mv = greedy(game, &mut rng);
                if let Some(m) = mv {
                    report(Event::Propose(m));
                }
                mv
            }
            AgentKind::Original => original_agent(game, limits, stop, report),
            AgentKind::Default => {
                // Fresh table per move: answers depend only on the position and the limits
                // (the protocol promises that at a node limit).
                self.table.new_search();
                let out = search::search(game, limits, stop, self.threads, &self.table, report);
                self.last_nodes.store(out.nodes, Ordering::Relaxed);
                out.best
            }
            AgentKind::Territory | AgentKind::Mcts => {
                // Both play the values of one solution; without one in time, a legal move.
                let plan = match search::SolutionMoves::find(game, &limits, stop) {
                    Ok(plan) => plan,
                    Err(fallback) => return fallback,
                };
                if self.kind == AgentKind::Territory {
                    return crate::territory::choose(&plan, report);
                }
                let seed = rng.gen();
                let mut m = self.mcts.lock().unwrap_or_else(|e| e.into_inner());
                m.choose(&plan, seed, report)
            }
        }
    }
}

fn position_hash(game: &Game) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    game.board().cells().hash(&mut h);
    game.owners().hash(&mut h);
    game.turn().index().hash(&mut h);
    game.taboo().hash(&mut h);
    h.finish()
}

fn greedy(game: &Game, rng: &mut SmallRng) -> Option<Move> {
    let moves = game.legal_moves(game.turn());
    let best = moves
        .iter()
        .map(|m| game.board().score_of(m.row, m.col))
        .max()?;
    let top: Vec<Move> = moves
        .into_iter()
        .filter(|m| game.board().score_of(m.row, m.col) == best)
        .collect();
    top.choose(rng).copied()
}

/// The real-move game the original agent searches.
struct OriginalState {
    board: Board,
    owners: Vec<u8>,
    starts: [Vec<bool>; 2],
    classic: bool,
    turn: usize,
    taboo: Vec<Move>,
}

impl OriginalState {
    fn of(game: &Game) -> OriginalState {
        let size = game.board().size();
        let cells = size * size;
        let mut starts = [vec![false; cells], vec![false; cells]];
        for p in [Player::One, Player::Two] {
            for &(r, c) in game.starts(p) {
                starts[p.index()][r * size + c] = true;
            }
        }
        OriginalState {
            board: game.board().clone(),
            owners: game.owners().to_vec(),
            starts,
            classic: game.mode() == Mode::Classic,
            turn: game.turn().index(),
            taboo: game.taboo().to_vec(),
        }
    }

    /// Plays `mv` for the side to move.
    fn make(&mut self, mv: Move) {
        let size = self.board.size();
        self.board.place(mv);
        self.owners[mv.row * size + mv.col] = self.turn as u8 + 1;
        self.turn ^= 1;
    }

    /// Takes `mv` back.
    fn unmake(&mut self, mv: Move) {
        let size = self.board.size();
        self.turn ^= 1;
        self.owners[mv.row * size + mv.col] = 0;
        self.board.clear(mv.row, mv.col);
    }

    fn playable(&self, p: usize, r: usize, c: usize) -> bool {
        let size = self.board.size();
        if self.board.get(r, c) != 0 {
            return false;
        }
        if self.classic || self.starts[p][r * size + c] {
            return true;
        }
        let me = p as u8 + 1;
        for rr in r.saturating_sub(1)..=(r + 1).min(size - 1) {
            for cc in c.saturating_sub(1)..=(c + 1).min(size - 1) {
                if (rr, cc) != (r, c) && self.owners[rr * size + cc] == me {
                    return true;
                }
            }
        }
        false
    }

    fn moves(&self) -> Vec<(Move, i32)> {
        let size = self.board.size();
        let mut out = Vec::new();
        for r in 0..size {
            for c in 0..size {
                if !self.playable(self.turn, r, c) {
                    continue;
                }
                let pts = self.board.score_of(r, c) as i32;
                out.extend(cell_moves(&self.board, r, c, &self.taboo).map(|mv| (mv, pts)));
            }
        }
        // Ordered by the regions they complete, as in the report.
        out.sort_by_key(|m| std::cmp::Reverse(m.1));
        out
    }
}

struct OriginalSearch<'a> {
    stop: &'a AtomicBool,
    limits: &'a Limits,
    nodes: u64,
    aborted: bool,
}

impl OriginalSearch<'_> {
    fn negamax(&mut self, s: &mut OriginalState, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            let late = self.limits.deadline.is_some_and(|d| Instant::now() >= d);
            let spent = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if late || spent || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        if self.aborted || depth == 0 {
            return 0;
        }
        let moves = s.moves();
        if moves.is_empty() {
            return 0;
        }
        best_child(moves, alpha, beta, |(mv, pts), alpha, beta| {
            s.make(mv);
            let v = pts - self.negamax(s, depth - 1, -beta + pts, -alpha + pts);
            s.unmake(mv);
            v
        })
    }
}

fn original_agent(
    game: &Game,
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(Event),
) -> Option<Move> {
    if !game.can_move(game.turn()) {
        return None;
    }
    // The root analysis solves a sudoku per candidate value, which takes seconds on an
    // empty 25x25 board: it must end at `stop` and at the deadline too.
    let halt =
        || stop.load(Ordering::Relaxed) || limits.deadline.is_some_and(|d| Instant::now() >= d);
    let Some(root) = search::analyse_root(game, &halt) else {
        let mv = game.legal_moves(game.turn()).first().copied();
        if let Some(m) = mv {
            report(Event::Propose(m));
        }
        return mv;
    };
    let size = game.board().size();
    let cells = size * size;
    let mut state = OriginalState::of(game);
    // Root moves: the legal moves that keep the sudoku solvable.
    let root_moves: Vec<(Move, i32)> = state
        .moves()
        .into_iter()
        .filter(|(m, _)| !root.taboo.contains(m))
        .collect();
    let Some(&(first, _)) = root_moves.first() else {
        return root.taboo.first().copied();
    };
    report(Event::Propose(first));
    let mut best = (first, 0);
    let mut search = OriginalSearch {
        stop,
        limits: &limits,
        nodes: 0,
        aborted: false,
    };
    let start = Instant::now();
    let max_depth = limits.depth.unwrap_or(u32::MAX);
    let mut depth = 1;
    while depth <= max_depth && depth <= (cells - game.board().filled()) as u32 {
        let mut alpha = -1_000_000;
        let mut iteration = None;
        for &(mv, pts) in &root_moves {
            state.make(mv);
            let v = pts - search.negamax(&mut state, depth - 1, -1_000_000, -alpha + pts);
            state.unmake(mv);
            if search.aborted {
                break;
            }
            if v > alpha {
                alpha = v;
                iteration = Some((mv, v));
            }
        }
        if search.aborted {
            break;
        }
        if let Some((mv, v)) = iteration {
            if mv != best.0 {
                report(Event::Propose(mv));
            }
            best = (mv, v);
            let s = game.scores();
            let me = game.turn().index();
            report(Event::Info {
                depth,
                nodes: search.nodes,
                millis: start.elapsed().as_millis() as u64,
                score: s[me] as i32 - s[1 - me] as i32 + v,
                pv: mv,
                exact: false,
            });
        }
        depth += 1;
    }
    // The report's trick: when every move loses points, pass with a move known to make the
    // sudoku unsolvable.
    if best.1 < 0 {
        if let Some(&t) = root.taboo.first() {
            return Some(t);
        }
    }
    Some(best.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzle_rules::sudoku::board::Shape;

    #[test]
    fn searches_end_at_the_deadline_on_an_empty_25x25_board() {
        use std::time::Duration;
        let g = Game::new(Board::empty(Shape::new(5, 5).unwrap()), Mode::Border, 0);
        for kind in [AgentKind::Original, AgentKind::Default] {
            let start = Instant::now();
            let limits = Limits {
                deadline: Some(start + Duration::from_millis(50)),
                nodes: None,
                depth: None,
            };
            let best =
                Agent::new(kind, 1, 0).choose(&g, limits, &AtomicBool::new(false), &mut |_| {});
            assert!(best.is_some());
            assert!(
                start.elapsed() < Duration::from_secs(3),
                "{kind:?}: {:?}",
                start.elapsed()
            );
        }
    }
}
