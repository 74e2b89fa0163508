//! `alphabeta`: a reference opponent of the kind good course agents are, iterative-deepening
//! alpha-beta over the real moves (cell and value).
//!
//! - Moves: every value that breaks no duplicate rule and is not taboo-listed, on the cells
//!   the side to move may play; of those cells it keeps the most constrained 30% (fewest
//!   candidate values) and every cell with at most two candidates, cells ordered by candidate
//!   count. A side without a move passes.
//! - Evaluation: the score difference plus a parity term, `1 - empty/N^2` when the number of
//!   empty cells favours the side to move (odd: it would fill the last cell) and
//!   `empty/N^2 - 1` otherwise. Values are kept in units of `1/N^2` points.
//! - Iterative deepening: depth 1, 2, ... until the limit, the root moves re-ordered by the
//!   last iteration's values; each finished iteration proposes its best move.
//! - Solvability: the tree sees only the duplicate rule; at the root, a move the solver shows
//!   to leave the sudoku unsolvable (a taboo move) is never proposed while a searched move it
//!   does not show so remains, so it never gives a turn away by mistake (the solver is asked
//!   only about the moves about to be proposed).
//!
//! One thread, no table: a pure function of the position and the limits.

// Cells are indices into several parallel arrays (values, regions, neighbours).
#![allow(clippy::needless_range_loop)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::{referee_nodes, Game, Mode, Player};

use super::root::{solve_until, Solved};
use super::{best_child, Event, Limits, INF};
use crate::cell_game::{Geometry, POINTS};

/// Share of the playable cells (the most constrained) whose moves are searched, in percent.
const KEEP_PERCENT: usize = 30;
/// Cells with at most this many candidates are searched whatever their rank.
const KEEP_CANDIDATES: u32 = 2;

/// The real game as the search plays it: values, owners, candidate masks, region counts.
struct Board {
    geo: Geometry,
    classic: bool,
    /// Values (0 empty).
    value: Vec<u8>,
    /// Values used per region (bit `v - 1`).
    used: Vec<u32>,
    /// Empty cells per region.
    region_empty: Vec<u8>,
    /// Taboo-listed values per cell (bit `v - 1`).
    listed: Vec<u32>,
    /// Allowed squares of each player (allowed-squares modes).
    start: [Vec<bool>; 2],
    /// Neighbours filled by each player (allowed-squares modes).
    adj: [Vec<u8>; 2],
    empties: usize,
    turn: usize,
    /// Scores, player 1 and player 2.
    scores: [i32; 2],
}

impl Board {
    fn new(game: &Game) -> Board {
        let geo = Geometry::new(game.board().shape());
        let (size, cells) = (geo.size, geo.cells);
        let value = game.board().cells().to_vec();
        let mut used = vec![0u32; 3 * size];
        let mut region_empty = vec![0u8; 3 * size];
        let mut adj = [vec![0u8; cells], vec![0u8; cells]];
        for k in 0..cells {
            for &g in &geo.regions[k] {
                if value[k] == 0 {
                    region_empty[g as usize] += 1;
                } else {
                    used[g as usize] |= 1 << (value[k] - 1);
                }
            }
            let owner = game.owners()[k];
            if owner == 1 || owner == 2 {
                for &nb in &geo.neighbours[k] {
                    adj[owner as usize - 1][nb as usize] += 1;
                }
            }
        }
        let mut listed = vec![0u32; cells];
        for mv in game.taboo() {
            listed[mv.row * size + mv.col] |= 1 << (mv.value - 1);
        }
        let mut start = [vec![false; cells], vec![false; cells]];
        for p in [Player::One, Player::Two] {
            for &(r, c) in game.starts(p) {
                start[p.index()][r * size + c] = true;
            }
        }
        let s = game.scores();
        Board {
            classic: game.mode() == Mode::Classic,
            empties: value.iter().filter(|&&v| v == 0).count(),
            geo,
            value,
            used,
            region_empty,
            listed,
            start,
            adj,
            turn: game.turn().index(),
            scores: [s[0] as i32, s[1] as i32],
        }
    }

    fn playable(&self, p: usize, k: usize) -> bool {
        self.value[k] == 0 && (self.classic || self.start[p][k] || self.adj[p][k] > 0)
    }

    /// Values that break no duplicate rule and are not taboo-listed on the empty cell `k`.
    fn candidates(&self, k: usize) -> u32 {
        let [r, c, b] = self.geo.regions[k];
        let full = (1u32 << self.geo.size) - 1;
        full & !(self.used[r as usize] | self.used[c as usize] | self.used[b as usize])
            & !self.listed[k]
    }

    /// The moves searched for the side to move, most constrained cells first: `(cell,
    /// value)`.
    fn moves(&self) -> Vec<(u16, u8)> {
        let p = self.turn;
        let mut cells: Vec<(u32, u16, u32)> = (0..self.geo.cells)
            .filter(|&k| self.playable(p, k))
            .filter_map(|k| {
                let cand = self.candidates(k);
                (cand != 0).then(|| (cand.count_ones(), k as u16, cand))
            })
            .collect();
        cells.sort_unstable();
        let keep = (cells.len() * KEEP_PERCENT).div_ceil(100);
        let mut out = Vec::with_capacity(cells.len() * 2);
        for (rank, &(count, k, cand)) in cells.iter().enumerate() {
            if rank >= keep && count > KEEP_CANDIDATES {
                continue;
            }
            let mut bits = cand;
            while bits != 0 {
                out.push((k, bits.trailing_zeros() as u8 + 1));
                bits &= bits - 1;
            }
        }
        out
    }

    /// Places `value` on `k` for the side to move, scores it and passes the turn; returns the
    /// points.
    fn play(&mut self, k: usize, value: u8) -> i32 {
        let p = self.turn;
        let done = self.geo.regions[k]
            .iter()
            .filter(|&&g| self.region_empty[g as usize] == 1)
            .count();
        for &g in &self.geo.regions[k] {
            self.region_empty[g as usize] -= 1;
            self.used[g as usize] |= 1 << (value - 1);
        }
        if !self.classic {
            for &nb in &self.geo.neighbours[k] {
                self.adj[p][nb as usize] += 1;
            }
        }
        self.value[k] = value;
        self.empties -= 1;
        self.scores[p] += POINTS[done];
        self.turn ^= 1;
        POINTS[done]
    }

    /// Takes back [`Board::play`] of `k` that scored `points`.
    fn unplay(&mut self, k: usize, points: i32) {
        self.turn ^= 1;
        let p = self.turn;
        self.scores[p] -= points;
        self.empties += 1;
        let value = self.value[k];
        self.value[k] = 0;
        if !self.classic {
            for &nb in &self.geo.neighbours[k] {
                self.adj[p][nb as usize] -= 1;
            }
        }
        for &g in &self.geo.regions[k] {
            self.region_empty[g as usize] += 1;
            self.used[g as usize] &= !(1 << (value - 1));
        }
    }

    /// The evaluation for the side to move, in units of `1/N^2` points.
    fn evaluate(&self) -> i32 {
        let cells = self.geo.cells as i32;
        let p = self.turn;
        let diff = (self.scores[p] - self.scores[p ^ 1]) * cells;
        let empty = self.empties as i32;
        if empty == 0 {
            return diff;
        }
        if empty % 2 == 1 {
            diff + cells - empty
        } else {
            diff + empty - cells
        }
    }
}

/// One search: the board, the limits and the node count.
struct Search<'a> {
    board: Board,
    limits: &'a Limits,
    stop: &'a AtomicBool,
    nodes: u64,
    aborted: bool,
}

impl Search<'_> {
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        let poll = self.nodes.is_multiple_of(512);
        if poll || self.limits.nodes.is_some() {
            self.aborted |= self.stop.load(Ordering::Relaxed)
                || self.limits.nodes.is_some_and(|n| self.nodes >= n)
                || (poll && self.limits.deadline.is_some_and(|d| Instant::now() >= d));
        }
        self.aborted
    }

    fn negamax(&mut self, depth: u32, alpha: i32, beta: i32) -> i32 {
        if self.tick() {
            return 0;
        }
        if depth == 0 || self.board.empties == 0 {
            return self.board.evaluate();
        }
        let moves = self.board.moves();
        if moves.is_empty() {
            self.board.turn ^= 1;
            let other_moves = !self.board.moves().is_empty();
            let v = if other_moves {
                -self.negamax(depth - 1, -beta, -alpha)
            } else {
                // Neither side can move: the game is over.
                -self.board.evaluate_final()
            };
            self.board.turn ^= 1;
            return v;
        }
        // An aborted search cuts off at once (INF is past any window) and answers 0.
        let best = best_child(moves, alpha, beta, |(k, value), alpha, beta| {
            let v = self.child(k as usize, value, depth, alpha, beta);
            if self.aborted {
                INF
            } else {
                v
            }
        });
        if self.aborted {
            0
        } else {
            best
        }
    }

    fn child(&mut self, k: usize, value: u8, depth: u32, alpha: i32, beta: i32) -> i32 {
        let points = self.board.play(k, value);
        let v = -self.negamax(depth - 1, -beta, -alpha);
        self.board.unplay(k, points);
        v
    }
}

impl Board {
    /// The value of a finished game for the side to move: the score difference alone.
    fn evaluate_final(&self) -> i32 {
        let p = self.turn;
        (self.scores[p] - self.scores[p ^ 1]) * self.geo.cells as i32
    }
}

/// Solver nodes for deciding one root move: a move the solver cannot decide within them is
/// kept (proving a sparse board unsolvable can take long).
const ROOT_CHECK_NODES: usize = 1 << 12;

/// Which root moves the solver shows to be taboo moves, asked only of the moves about to be
/// proposed (a check of every root move took minutes on an empty 25x25 board).
struct RootChecks<'a> {
    game: &'a Game,
    budget: usize,
    known: std::collections::HashMap<(u16, u8), bool>,
}

impl RootChecks<'_> {
    /// True unless the solver shows `mv` to leave the sudoku unsolvable (or the search must
    /// end: then it is not asked).
    fn safe(&mut self, mv: (u16, u8), halted: &dyn Fn() -> bool) -> bool {
        if let Some(&known) = self.known.get(&mv) {
            return known;
        }
        if halted() {
            return true;
        }
        let mut next = self.game.board().clone();
        next.place(to_move(self.game, mv));
        let safe = !matches!(solve_until(&next, halted, self.budget), Solved::Unsolvable);
        self.known.insert(mv, safe);
        safe
    }

    /// The first of `moves` (not empty) that is safe, else the first.
    fn first_safe(&mut self, moves: &[(u16, u8)], halted: &dyn Fn() -> bool) -> (u16, u8) {
        moves
            .iter()
            .copied()
            .find(|&mv| self.safe(mv, halted))
            .unwrap_or(moves[0])
    }
}

/// A move of the search as a move of the game.
fn to_move(game: &Game, (k, v): (u16, u8)) -> Move {
    let size = game.board().size();
    Move::new(k as usize / size, k as usize % size, v)
}

/// Chooses a move for the side to move of `game` within `limits`.
pub fn choose(
    game: &Game,
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(Event),
) -> Option<Move> {
    let start = limits.since.unwrap_or_else(Instant::now);
    let board = Board::new(game);
    let halted =
        || stop.load(Ordering::Relaxed) || limits.deadline.is_some_and(|d| Instant::now() >= d);
    let mut moves = board.moves();
    if moves.is_empty() {
        // No move of the search's own: any legal move (none when the player must pass).
        let fallback = game.legal_moves(game.turn()).first().copied();
        if let Some(mv) = fallback {
            report(Event::Propose(mv));
        }
        return fallback;
    }
    let mut checks = RootChecks {
        game,
        budget: ROOT_CHECK_NODES.min(referee_nodes(game.board().shape())),
        known: Default::default(),
    };
    let mut best = checks.first_safe(&moves, &halted);
    report(Event::Propose(to_move(game, best)));
    let mut search = Search {
        board,
        limits: &limits,
        stop,
        nodes: 0,
        aborted: false,
    };
    let max_depth = limits.depth.unwrap_or(u32::MAX);
    let mut depth = 1;
    while depth <= max_depth {
        let mut alpha = -INF;
        let mut values: Vec<((u16, u8), i32)> = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let v = search.child(mv.0 as usize, mv.1, depth, alpha, INF);
            if search.aborted {
                break;
            }
            values.push((mv, v));
            alpha = alpha.max(v);
        }
        if search.aborted {
            break;
        }
        // Stable: among equal values the earlier (better ordered) move stays first.
        values.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        moves = values.iter().map(|&(mv, _)| mv).collect();
        let chosen = checks.first_safe(&moves, &halted);
        if chosen != best {
            best = chosen;
            report(Event::Propose(to_move(game, best)));
        }
        let value = values
            .iter()
            .find(|m| m.0 == best)
            .map_or(values[0].1, |m| m.1);
        report(Event::Info {
            depth,
            nodes: search.nodes,
            millis: start.elapsed().as_millis() as u64,
            score: score_points(game, value, search.board.geo.cells),
            pv: to_move(game, best),
            exact: false,
        });
        if depth as usize >= search.board.empties {
            break;
        }
        depth += 1;
    }
    Some(to_move(game, best))
}

/// The expected final score difference of the side to move from a value in `1/cells`
/// points.
fn score_points(game: &Game, value: i32, cells: usize) -> i32 {
    let s = game.scores();
    let me = game.turn().index();
    s[me] as i32 - s[1 - me] as i32 + value.div_euclid(cells as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::position_game as game;

    /// The evaluation's parity term: odd empties favour the side to move.
    #[test]
    fn parity_favours_the_side_that_fills_the_last_cell() {
        let g = game("position 2x2 1+2-3+4-/3-4+1-2+/2+1-4+./4-3-.. turn 1 scores 5 6");
        let b = Board::new(&g);
        assert_eq!(b.empties, 3);
        // -1 point, plus 1 - 3/16.
        assert_eq!(b.evaluate(), -16 + 13);
    }

    /// Of 75 empty cells the 23 most constrained are kept (30%, rounded up), row 0's three
    /// (three candidates each) first.
    #[test]
    fn the_most_constrained_cells_are_kept() {
        let g = game("position 3x3 123456.../........./........./........./........./........./........./........./.........");
        let b = Board::new(&g);
        let moves = b.moves();
        let cells: std::collections::BTreeSet<u16> = moves.iter().map(|m| m.0).collect();
        assert!(cells.contains(&6) && cells.contains(&7) && cells.contains(&8));
        assert_eq!(cells.len(), 23, "{cells:?}");
        assert_eq!(moves[0], (6, 7));
    }

    /// `go depth 1` on an empty 25x25 board answers at once (the solver asked about every
    /// root move first took minutes there).
    #[test]
    fn depth_one_on_an_empty_25x25_board_ends_at_once() {
        use puzzle_rules::sudoku::board::{Board as Grid, Shape};
        let g = Game::new(Grid::empty(Shape::new(5, 5).unwrap()), Mode::Classic, 0);
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let start = Instant::now();
        let mv = choose(&g, limits, &AtomicBool::new(false), &mut |_| {});
        assert!(mv.is_some());
        // Generous for a loaded machine: well under a second when idle.
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
    }

    /// A completion on offer is taken.
    #[test]
    fn takes_the_last_cell_of_a_region() {
        let g = game("position 2x2 1+2-3+./3-4+1-./..../.... scores 0 0");
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let mv = choose(&g, limits, &AtomicBool::new(false), &mut |_| {});
        let mv = mv.expect("a move");
        assert!(mv.col == 3 && mv.row < 2, "{mv}");
    }
}
