//! The exhaustive search of [`super::solve`]: negamax alpha-beta over the game's states
//! with a transposition table of proven bounds.
//!
//! A state's key packs what decides the rest of the game and nothing else: the value of
//! every cell, under the allowed-squares rules the empty cells each player may reach
//! (starting cells and neighbours of its own cells; who filled a cell matters only through
//! them), the taboo-listed moves that could still be proposed (empty cell, value not a
//! duplicate) and the player to move. The key is exact (no hash signature), so a table hit
//! is never a collision. Keys are a fixed number of words chosen from the board size, so
//! the table holds plain arrays.
//!
//! Cells are the solve's cells ([`super::tables`]): every cell of a board of at most
//! [`MAX_CELLS`] cells, else the root's empty cells; rows, columns and blocks (their values
//! and how many cells they have filled) are the whole board's.

use std::collections::HashMap;

use smallvec::SmallVec;

use puzzle_rules::sudoku::board::score_for_regions;
use puzzle_rules::sudoku::{Game, Move};

use super::solutions::SolutionSets;
use super::tables::{Tables, MAX_CELLS};
use super::{Effect, FirstMove, OutOfBudget};

mod key;

use engine_kit::hash::WordHash;
use key::Key;

/// Bigger than any number of points left in a game.
const INFINITY: i32 = 1 << 20;

/// What the root search hands back to [`super::solve`].
pub struct Root {
    pub first_moves: Vec<FirstMove>,
    pub nodes: u64,
    pub table_entries: usize,
}

/// How a root solve may be cut short, and what it must find.
#[derive(Clone, Copy)]
pub struct Work<'a> {
    /// Search nodes at most.
    pub max_nodes: u64,
    /// Asked every [`STOP_EVERY`] nodes; `true` ends the solve with [`OutOfBudget::Stopped`].
    pub stop: &'a dyn Fn() -> bool,
    /// Every first move's value (one full-window search each), or only one optimal move
    /// (keys then use value renamings but no cell maps, see [`solve_root`]).
    pub all_moves: bool,
    /// Searched first among the root moves (a guess at the best move).
    pub first: Option<Move>,
}

/// A root solve that did not finish: why, and a move proven strictly better than
/// [`Work::first`] if one was found before it stopped.
pub struct Unfinished {
    /// Why it stopped.
    pub why: OutOfBudget,
    /// A move proven strictly better than [`Work::first`] (`None` without a first move).
    pub better: Option<Move>,
}

impl From<OutOfBudget> for Unfinished {
    fn from(why: OutOfBudget) -> Unfinished {
        Unfinished { why, better: None }
    }
}

/// Nodes between two calls of [`Work::stop`].
pub const STOP_EVERY: u64 = 1024;

/// Solves the root: the exact value of every move of the player to move (or of one
/// optimal move, see [`Work::all_moves`]).
pub fn solve_root(
    game: &Game,
    mut tables: Tables,
    sets: &SolutionSets,
    work: Work,
) -> Result<Root, Unfinished> {
    if !work.all_moves {
        // A one-move solve serves a player on a clock near the end of a game, where a key
        // per cell map costs more than the transpositions it finds: on three 4x4 positions
        // with 11 and 12 empty cells (classic and border) the time fell by 1.3x to 2.5x for
        // at most 6% more nodes (`go nodes` on the `default` agent).
        tables.symmetric_fill = 0;
    }
    let all = work.all_moves;
    match tables.key_words() {
        0..=3 => Search::<3>::new(game, &tables, sets, work).root(all, work.first),
        4 => Search::<4>::new(game, &tables, sets, work).root(all, work.first),
        5..=6 => Search::<6>::new(game, &tables, sets, work).root(all, work.first),
        7..=8 => Search::<8>::new(game, &tables, sets, work).root(all, work.first),
        9..=12 => Search::<12>::new(game, &tables, sets, work).root(all, work.first),
        13..=16 => Search::<16>::new(game, &tables, sets, work).root(all, work.first),
        17..=24 => Search::<24>::new(game, &tables, sets, work).root(all, work.first),
        25..=32 => Search::<32>::new(game, &tables, sets, work).root(all, work.first),
        // Only solves over many empty cells of a big board (128 cells of a 25x25 board take
        // 65 words).
        33..=48 => Search::<48>::new(game, &tables, sets, work).root(all, work.first),
        _ => Search::<65>::new(game, &tables, sets, work).root(all, work.first),
    }
}

/// Proven bounds on a state's value, and the move that was best when they were stored.
#[derive(Clone, Copy)]
struct Bounds {
    low: i32,
    high: i32,
    best: u16,
}

const NO_MOVE: u16 = u16::MAX;

/// A candidate move: `points` is `None` for a move that becomes taboo.
#[derive(Clone, Copy)]
struct Candidate {
    cell: usize,
    value: u8,
    points: Option<u32>,
}

impl Candidate {
    fn code(self) -> u16 {
        (self.cell * 32 + self.value as usize) as u16
    }
}

struct Search<'a, const K: usize> {
    t: &'a Tables,
    sets: &'a SolutionSets,
    values: Vec<u8>,
    empty: u128,
    /// Cells each player may play when empty: starting cells and neighbours of its cells.
    reach: [u128; 2],
    rows: Vec<u32>,
    cols: Vec<u32>,
    blocks: Vec<u32>,
    row_filled: Vec<usize>,
    col_filled: Vec<usize>,
    block_filled: Vec<usize>,
    /// Taboo-listed values of each cell.
    listed: Vec<u32>,
    turn: usize,
    /// Consistent solutions after each number of placed values (`words` words each).
    consistent: Vec<u64>,
    placed: usize,
    table: HashMap<Key<K>, Bounds, WordHash>,
    nodes: u64,
    max_nodes: u64,
    stop: &'a dyn Fn() -> bool,
}

impl<'a, const K: usize> Search<'a, K> {
    fn new(game: &Game, t: &'a Tables, sets: &'a SolutionSets, work: Work<'a>) -> Self {
        let size = t.size;
        let board = game.board();
        let shape = board.shape();
        let mut s = Search {
            t,
            sets,
            values: t.board_cell.iter().map(|&b| board.cells()[b]).collect(),
            empty: 0,
            reach: t.first_reach,
            rows: vec![0; size],
            cols: vec![0; size],
            blocks: vec![0; size],
            row_filled: vec![0; size],
            col_filled: vec![0; size],
            block_filled: vec![0; size],
            listed: vec![0; t.cells],
            turn: game.turn().index(),
            consistent: sets.all(),
            placed: 0,
            table: HashMap::default(),
            nodes: 0,
            max_nodes: work.max_nodes,
            stop: work.stop,
        };
        for (cell, &v) in s.values.iter().enumerate() {
            if v == 0 {
                s.empty |= 1u128 << cell;
            }
        }
        for (b, &v) in board.cells().iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (row, col) = (b / size, b % size);
            let block = shape.block_of(row, col);
            let bit = 1u32 << (v - 1);
            s.rows[row] |= bit;
            s.cols[col] |= bit;
            s.blocks[block] |= bit;
            s.row_filled[row] += 1;
            s.col_filled[col] += 1;
            s.block_filled[block] += 1;
        }
        for mv in game.taboo() {
            // A taboo-listed move on a cell outside the solve (a filled cell) is never proposed.
            if let Some(cell) = t.solve_cell[mv.row * size + mv.col] {
                s.listed[cell] |= 1 << (mv.value - 1);
            }
        }
        s
    }

    /// Values that break no duplicate rule in `cell`.
    fn free_values(&self, cell: usize) -> u32 {
        let full = (1u32 << self.t.size) - 1;
        full & !(self.rows[self.t.row_of[cell]]
            | self.cols[self.t.col_of[cell]]
            | self.blocks[self.t.block_of[cell]])
    }

    fn playable(&self, player: usize) -> u128 {
        self.empty & self.reach[player]
    }

    /// True when `player` has a move it may propose (placed or taboo).
    fn can_move(&self, player: usize) -> bool {
        let mut cells = self.playable(player);
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            if self.free_values(cell) & !self.listed[cell] != 0 {
                return true;
            }
        }
        false
    }

    fn consistent_now(&self) -> &[u64] {
        let w = self.sets.words();
        &self.consistent[self.placed * w..(self.placed + 1) * w]
    }

    /// True when some consistent solution has `value` in `cell`.
    fn solvable(&self, cell: usize, value: u8) -> bool {
        self.consistent_now()
            .iter()
            .zip(self.sets.with(cell, value))
            .any(|(a, b)| a & b != 0)
    }

    fn points(&self, cell: usize) -> u32 {
        let n = self.t.size - 1;
        let regions = (self.row_filled[self.t.row_of[cell]] == n) as usize
            + (self.col_filled[self.t.col_of[cell]] == n) as usize
            + (self.block_filled[self.t.block_of[cell]] == n) as usize;
        score_for_regions(regions)
    }

    /// True when filling `cell` leaves one of its regions one fill from completion (a
    /// completion handed to the opponent).
    fn sets_up(&self, cell: usize) -> bool {
        let n = self.t.size - 2;
        self.row_filled[self.t.row_of[cell]] == n
            || self.col_filled[self.t.col_of[cell]] == n
            || self.block_filled[self.t.block_of[cell]] == n
    }

    /// The moves of the player to move, placed moves by points first, taboo moves last.
    fn moves(&self) -> SmallVec<[Candidate; 64]> {
        let mut placed: SmallVec<[Candidate; 64]> = SmallVec::new();
        let mut taboo: SmallVec<[Candidate; 32]> = SmallVec::new();
        let mut cells = self.playable(self.turn);
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let mut free = self.free_values(cell) & !self.listed[cell];
            while free != 0 {
                let value = free.trailing_zeros() as u8 + 1;
                free &= free - 1;
                if self.solvable(cell, value) {
                    let points = Some(self.points(cell));
                    placed.push(Candidate {
                        cell,
                        value,
                        points,
                    });
                } else {
                    taboo.push(Candidate {
                        cell,
                        value,
                        points: None,
                    });
                }
            }
        }
        // Scoring moves first, then moves that hand the opponent no completion (the
        // ordering of the search's cell game).
        placed.sort_by_cached_key(|c| {
            std::cmp::Reverse(c.points.unwrap_or(0) * 2 + u32::from(!self.sets_up(c.cell)))
        });
        placed.extend(taboo);
        placed
    }

    /// Plays `c` for the player to move; returns the reach it replaced.
    fn make(&mut self, c: Candidate) -> u128 {
        let old_reach = self.reach[self.turn];
        match c.points {
            Some(_) => {
                let t = self.t;
                let bit = 1u32 << (c.value - 1);
                self.values[c.cell] = c.value;
                self.empty &= !(1u128 << c.cell);
                self.rows[t.row_of[c.cell]] |= bit;
                self.cols[t.col_of[c.cell]] |= bit;
                self.blocks[t.block_of[c.cell]] |= bit;
                self.row_filled[t.row_of[c.cell]] += 1;
                self.col_filled[t.col_of[c.cell]] += 1;
                self.block_filled[t.block_of[c.cell]] += 1;
                if !t.classic {
                    self.reach[self.turn] |= t.neighbours[c.cell];
                }
                let w = self.sets.words();
                let need = (self.placed + 2) * w;
                if self.consistent.len() < need {
                    self.consistent.resize(need, 0);
                }
                let (now, next) = self.consistent.split_at_mut((self.placed + 1) * w);
                let now = &now[self.placed * w..];
                for ((n, a), b) in next[..w]
                    .iter_mut()
                    .zip(now)
                    .zip(self.sets.with(c.cell, c.value))
                {
                    *n = a & b;
                }
                self.placed += 1;
            }
            None => self.listed[c.cell] |= 1 << (c.value - 1),
        }
        self.turn ^= 1;
        old_reach
    }

    fn unmake(&mut self, c: Candidate, old_reach: u128) {
        self.turn ^= 1;
        self.reach[self.turn] = old_reach;
        match c.points {
            Some(_) => {
                let t = self.t;
                let bit = 1u32 << (c.value - 1);
                self.values[c.cell] = 0;
                self.empty |= 1u128 << c.cell;
                self.rows[t.row_of[c.cell]] &= !bit;
                self.cols[t.col_of[c.cell]] &= !bit;
                self.blocks[t.block_of[c.cell]] &= !bit;
                self.row_filled[t.row_of[c.cell]] -= 1;
                self.col_filled[t.col_of[c.cell]] -= 1;
                self.block_filled[t.block_of[c.cell]] -= 1;
                self.placed -= 1;
            }
            None => self.listed[c.cell] &= !(1 << (c.value - 1)),
        }
    }

    /// The value of the state for the player to move, fail-soft within (`alpha`, `beta`).
    fn negamax(&mut self, mut alpha: i32, mut beta: i32) -> Result<i32, OutOfBudget> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(OutOfBudget::Nodes {
                max_nodes: self.max_nodes,
            });
        }
        if self.nodes.is_multiple_of(STOP_EVERY) && (self.stop)() {
            return Err(OutOfBudget::Stopped);
        }
        if self.empty == 0 {
            return Ok(0);
        }
        let key = self.key();
        let mut hint = NO_MOVE;
        if let Some(b) = self.table.get(&key) {
            if b.low == b.high || b.low >= beta {
                return Ok(b.low);
            }
            if b.high <= alpha {
                return Ok(b.high);
            }
            alpha = alpha.max(b.low);
            beta = beta.min(b.high);
            hint = b.best;
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut moves = self.moves();
        let mut best = -INFINITY;
        let mut best_code = NO_MOVE;
        if moves.is_empty() {
            best = if self.can_move(self.turn ^ 1) {
                self.turn ^= 1;
                let child = self.negamax(-beta, -alpha);
                self.turn ^= 1;
                -child?
            } else {
                0
            };
        } else {
            if let Some(i) = moves.iter().position(|c| c.code() == hint) {
                moves[..=i].rotate_right(1);
            }
            for (i, c) in moves.into_iter().enumerate() {
                let points = c.points.unwrap_or(0) as i32;
                let old = self.make(c);
                let value = self.search_move(points, i == 0, alpha, beta);
                self.unmake(c, old);
                let value = value?;
                if value > best {
                    best = value;
                    best_code = c.code();
                }
                if best > alpha {
                    alpha = best;
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        let entry = self.table.entry(key).or_insert(Bounds {
            low: -INFINITY,
            high: INFINITY,
            best: NO_MOVE,
        });
        if best <= alpha0 {
            entry.high = entry.high.min(best);
        } else if best >= beta0 {
            entry.low = entry.low.max(best);
        } else {
            entry.low = best;
            entry.high = best;
        }
        if best_code != NO_MOVE {
            entry.best = best_code;
        }
        Ok(best)
    }

    /// The value of the move just made (worth `points`) within (`alpha`, `beta`). A move
    /// after the first is first searched with a null window (does it beat `alpha`?), and
    /// again with the full window only when it does: with good ordering most moves do not.
    fn search_move(
        &mut self,
        points: i32,
        first: bool,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, OutOfBudget> {
        if !first && beta > alpha + 1 {
            let value = points - self.negamax(points - alpha - 1, points - alpha)?;
            if value <= alpha || value >= beta {
                return Ok(value);
            }
            // `value` is a lower bound: search again just below it.
            return Ok(points - self.negamax(points - beta, points - value + 1)?);
        }
        Ok(points - self.negamax(points - beta, points - alpha)?)
    }

    /// Every move of the player to move with its exact value (one full-window search each),
    /// or with `all` false only the first optimal one (each later move searched only to see
    /// whether it does better). [`Work::first`] is searched first; once its value is known,
    /// a later move that beats it is reported in [`Unfinished::better`] if the solve stops.
    fn root(mut self, all: bool, first: Option<Move>) -> Result<Root, Unfinished> {
        let mut first_moves = Vec::new();
        let done = self.empty == 0 || (!self.can_move(0) && !self.can_move(1));
        if !done {
            let mut moves = self.moves();
            let (size, t) = (self.t.size, self.t);
            let play = |c: &Candidate| {
                let b = t.board_cell[c.cell];
                Move::new(b / size, b % size, c.value)
            };
            let hinted = first.and_then(|f| moves.iter().position(|c| play(c) == f));
            if let Some(i) = hinted {
                moves[..=i].rotate_right(1);
            }
            if moves.is_empty() {
                self.turn ^= 1;
                let child = self.negamax(-INFINITY, INFINITY);
                self.turn ^= 1;
                first_moves.push(FirstMove {
                    play: None,
                    effect: Effect::Pass,
                    value: -child?,
                });
            }
            let mut alpha = -INFINITY;
            let mut better = None;
            for (i, c) in moves.into_iter().enumerate() {
                let points = c.points.unwrap_or(0) as i32;
                let old = self.make(c);
                let value = if all {
                    self.negamax(points - INFINITY, points + INFINITY)
                        .map(|child| points - child)
                } else if i == 0 {
                    self.search_move(points, true, alpha, INFINITY)
                } else {
                    // Does it beat the best so far? Then search again for its value.
                    match self.negamax(points - alpha - 1, points - alpha) {
                        Ok(child) if points - child > alpha => {
                            if hinted.is_some() {
                                better = Some(play(&c));
                            }
                            let bound = points - child;
                            self.negamax(points - INFINITY, points - bound + 1)
                                .map(|child| points - child)
                        }
                        other => other.map(|child| points - child),
                    }
                };
                self.unmake(c, old);
                let value = value.map_err(|why| Unfinished { why, better })?;
                if !all && value <= alpha {
                    continue;
                }
                let first = FirstMove {
                    play: Some(play(&c)),
                    effect: match c.points {
                        Some(points) => Effect::Placed { points },
                        None => Effect::Taboo,
                    },
                    value,
                };
                if all {
                    first_moves.push(first);
                } else {
                    // With no upper bound a value above `alpha` is exact.
                    alpha = value;
                    first_moves = vec![first];
                }
            }
        }
        first_moves.sort_by_key(|m| {
            (
                std::cmp::Reverse(m.value),
                m.play.map(|p| (p.row, p.col, p.value)),
            )
        });
        Ok(Root {
            first_moves,
            nodes: self.nodes,
            table_entries: self.table.len(),
        })
    }
}
