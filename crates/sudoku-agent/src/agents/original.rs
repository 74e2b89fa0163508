//! The `original` agent: the original report's minimax, kept as a baseline (`seed` is its
//! former name). It searches real moves ordered by the regions they complete, values them by
//! the score difference, and passes with a taboo move when every move loses points.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use puzzle_rules::sudoku::board::{Board, Move};
use puzzle_rules::sudoku::game::{cell_moves, Game, Mode, Player};

use super::root::{analyse_root, AnalysisBudget};
use super::{best_child, Event, Limits};

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

/// The original agent's move for the player to move; `None` when it has no legal move.
pub fn choose(
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
    let Some(root) = analyse_root(game, &halt, AnalysisBudget::for_search(game, &limits)) else {
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
        return root.mover_taboo().first().copied();
    };
    report(Event::Propose(first));
    let mut best = (first, 0);
    let mut search = OriginalSearch {
        stop,
        limits: &limits,
        nodes: 0,
        aborted: false,
    };
    let start = limits.since.unwrap_or_else(Instant::now);
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
        if let Some(&t) = root.mover_taboo().first() {
            return Some(t);
        }
    }
    Some(best.0)
}
