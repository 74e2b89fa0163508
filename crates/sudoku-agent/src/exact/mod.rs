//! The exact solver of Competitive Sudoku: the value of a position under perfect play by
//! both sides, and the value of every move of the player to move, proven by searching the
//! whole game tree. Pure computation (no I/O, no clock): a node budget and the caller's stop
//! test bound the work, and a search cut short says so instead of answering.
//!
//! It follows the referee's rules ([`puzzle_rules::sudoku::game`]) exactly: the mode's
//! allowed squares, moves on the taboo list are never proposed, a move that leaves the
//! sudoku unsolvable is not placed but listed as taboo and passes the turn (so every such
//! move is a possible deliberate pass), a player with no legal move passes, and the game
//! ends when the board is full or neither player can move.
//!
//! Why it is shaped this way (see [`solutions`] and [`search`]):
//! - The starting board's solutions are enumerated once; the solutions still consistent
//!   with the board are one bitset, and a move is placed exactly when that set has a
//!   solution with the move's value in its cell. A move unsolvable now stays unsolvable.
//! - A state is what affects the rest of the game: the values on the board, the empty
//!   cells each player may reach (under the allowed-squares rules), the taboo-listed moves
//!   that can still be proposed (empty cell, value not a duplicate) and the player to
//!   move. Scores are only an offset: values are future points.
//! - Negamax alpha-beta with a transposition table of proven bounds on those states.
//! - Cell sets are `u128`: a board of at most [`MAX_CELLS`] cells is solved over all its
//!   cells (and its symmetries), a bigger one (12x12 to 25x25) over the root's empty cells
//!   only, at most [`MAX_CELLS`] of them; the filled cells then count only through the
//!   values and fills of their rows, columns and blocks and the cells their owners reach.

mod search;
mod solutions;
mod tables;

#[cfg(test)]
mod big_tests;
#[cfg(test)]
mod tests;

use std::fmt;

use puzzle_rules::sudoku::{Game, Move, Player};
use tables::{SolveCells, Tables};

pub use search::{Unfinished, STOP_EVERY};
pub use solutions::SolutionSets;
pub use tables::MAX_CELLS;

/// How much work a solve may do before it gives up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Search nodes (positions visited, transpositions included).
    pub max_nodes: u64,
    /// Solutions of the starting board the solver enumerates at most.
    pub max_solutions: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_nodes: 200_000_000,
            max_solutions: 1_000_000,
        }
    }
}

/// Why a solve gave no answer: it never reports a value it did not prove.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutOfBudget {
    /// The search visited `max_nodes` nodes without finishing.
    Nodes {
        /// The node budget.
        max_nodes: u64,
    },
    /// The starting board has more solutions than the budget allows to enumerate.
    Solutions {
        /// The solution budget.
        max_solutions: usize,
    },
    /// The caller's stop test answered `true` ([`solve_until`]).
    Stopped,
    /// A board of more than [`MAX_CELLS`] cells has more empty cells than the solver's cell
    /// sets hold.
    TooLarge {
        /// Empty cells of the board.
        empty_cells: usize,
    },
}

impl fmt::Display for OutOfBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutOfBudget::Nodes { max_nodes } => {
                write!(f, "not solved: the search passed {max_nodes} nodes")
            }
            OutOfBudget::Solutions { max_solutions } => write!(
                f,
                "not solved: the starting board has more than {max_solutions} sudoku solutions"
            ),
            OutOfBudget::Stopped => write!(f, "not solved: stopped"),
            OutOfBudget::TooLarge { empty_cells } => write!(
                f,
                "not solved: the board has {empty_cells} empty cells, the exact solver takes at most {} on a board of more than {} cells",
                MAX_CELLS,
                MAX_CELLS
            ),
        }
    }
}

impl std::error::Error for OutOfBudget {}

/// What a first move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The value is placed for these points (0, 1, 3 or 7).
    Placed {
        /// Points of the move.
        points: u32,
    },
    /// The move leaves the sudoku unsolvable: it becomes taboo and the turn passes.
    Taboo,
    /// The player to move has no legal move and passes.
    Pass,
}

/// One move of the player to move and its proven value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstMove {
    /// The move (`None` for a pass).
    pub play: Option<Move>,
    /// What it does.
    pub effect: Effect,
    /// Future points of the player to move minus the opponent's after this move, both
    /// playing perfectly afterwards (the move's own points included).
    pub value: i32,
}

/// The solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The player to move.
    pub mover: Player,
    /// The game value: points the player to move scores from now on minus the points the
    /// opponent scores, under perfect play by both (the best [`FirstMove::value`]; 0 when
    /// the game is over).
    pub value: i32,
    /// Final score of player 1 minus final score of player 2 under perfect play (the
    /// current scores plus [`Solution::value`] seen from player 1).
    pub final_difference: i64,
    /// Every move of the player to move (or the one pass), with its value ([`solve_best`]:
    /// one optimal move only).
    pub first_moves: Vec<FirstMove>,
    /// Search nodes visited.
    pub nodes: u64,
    /// Positions in the transposition table at the end.
    pub table_entries: usize,
    /// Solutions of the starting board.
    pub sudoku_solutions: usize,
}

impl Solution {
    /// The optimal first moves (value equal to the game value).
    pub fn best_moves(&self) -> impl Iterator<Item = &FirstMove> {
        self.first_moves.iter().filter(|m| m.value == self.value)
    }
}

/// Solves `game` exactly within `budget`: every first move with its value.
pub fn solve(game: &Game, budget: Budget) -> Result<Solution, OutOfBudget> {
    solve_until(game, budget, &|| false)
}

/// [`solve`], also ended (with [`OutOfBudget::Stopped`]) once `stop` answers `true`; it is
/// asked every [`search::STOP_EVERY`] search nodes (not while the solutions are enumerated,
/// which `budget.max_solutions` bounds).
pub fn solve_until(
    game: &Game,
    budget: Budget,
    stop: &dyn Fn() -> bool,
) -> Result<Solution, OutOfBudget> {
    solve_with(game, budget, stop, true, None).map_err(|u| u.why)
}

/// [`solve_until`] for one optimal move: [`Solution::first_moves`] holds only that move (the
/// first in the search's order among the optimal ones), which costs less than valuing them all.
pub fn solve_best(
    game: &Game,
    budget: Budget,
    stop: &dyn Fn() -> bool,
) -> Result<Solution, OutOfBudget> {
    solve_with(game, budget, stop, false, None).map_err(|u| u.why)
}

/// [`solve_best`] that searches `first` (a guess at the best move) before the others; a
/// solve that stops early names a move proven strictly better than `first`, if it found
/// one.
pub fn solve_best_after(
    game: &Game,
    budget: Budget,
    stop: &dyn Fn() -> bool,
    first: Move,
) -> Result<Solution, Unfinished> {
    solve_with(game, budget, stop, false, Some(first))
}

fn solve_with(
    game: &Game,
    budget: Budget,
    stop: &dyn Fn() -> bool,
    all_moves: bool,
    first: Option<Move>,
) -> Result<Solution, Unfinished> {
    let over = if game.board().shape().cells() <= MAX_CELLS {
        SolveCells::Board
    } else {
        SolveCells::Empty
    };
    solve_over(game, budget, stop, all_moves, first, over)
}

/// [`solve_with`] over the cells `over`: the test of the two ways on the same boards.
fn solve_over(
    game: &Game,
    budget: Budget,
    stop: &dyn Fn() -> bool,
    all_moves: bool,
    first: Option<Move>,
    over: SolveCells,
) -> Result<Solution, Unfinished> {
    let tables = Tables::new(game, over).ok_or_else(|| OutOfBudget::TooLarge {
        empty_cells: game.board().cells().iter().filter(|&&v| v == 0).count(),
    })?;
    let sets = SolutionSets::enumerate_over(game.board(), budget.max_solutions, &tables.board_cell)
        .ok_or(OutOfBudget::Solutions {
            max_solutions: budget.max_solutions,
        })?;
    let work = search::Work {
        max_nodes: budget.max_nodes,
        stop,
        all_moves,
        first,
    };
    let root = search::solve_root(game, tables, &sets, work)?;
    let value = root.first_moves.iter().map(|m| m.value).max().unwrap_or(0);
    let [one, two] = game.scores();
    let from_one = match game.turn() {
        Player::One => value,
        Player::Two => -value,
    };
    Ok(Solution {
        mover: game.turn(),
        value,
        final_difference: one as i64 - two as i64 + from_one as i64,
        first_moves: root.first_moves,
        nodes: root.nodes,
        table_entries: root.table_entries,
        sudoku_solutions: sets.count(),
    })
}
