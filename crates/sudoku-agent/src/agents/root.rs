//! Exact facts about the root, found with the solver: one solution and the taboo moves
//! (those of the player to move first); and the quick move proposed before the tree search
//! starts.

use puzzle_rules::sudoku::board::{Board, Move};
use puzzle_rules::sudoku::game::{cell_moves, referee_nodes, Game, Mode};
use puzzle_rules::sudoku::solver;

/// Exact facts about the root found with the solver.
pub struct RootInfo {
    /// One solution of the root board (row-major values).
    pub solution: Vec<u8>,
    /// Moves known to leave the sudoku unsolvable: first the player to move's
    /// ([`RootInfo::mover_taboo`]), then, under allowed-squares rules, those in the cells it
    /// cannot play now, which are the opponent's passes and passes of cells reached later (a
    /// search that knew only the mover's passes denied the opponent its own: a 2x2 position
    /// in random mode where the only optimal answer is the opponent's pass in a cell the
    /// mover cannot reach lost 14 points).
    pub taboo: Vec<Move>,
    /// How many of [`RootInfo::taboo`] the player to move may propose now.
    pub mover_taboo: usize,
    /// The board has exactly one solution (decided within the per-move budget). Only then is
    /// the cell game the real game: every value off the solution is taboo at once (the
    /// candidates left unclassified included), and the taboo moves of later positions are
    /// those of the root still free of duplicates. With several solutions a player may steer
    /// between them, which the cell game does not see.
    pub unique: bool,
}

impl RootInfo {
    /// The taboo moves the player to move may propose now.
    pub fn mover_taboo(&self) -> &[Move] {
        &self.taboo[..self.mover_taboo]
    }
}

/// How much solver work the root analysis may spend.
#[derive(Clone, Copy, Debug)]
pub struct AnalysisBudget {
    /// Solver nodes for one candidate move (the referee's [`referee_nodes`] at most).
    pub per_move: usize,
    /// Candidates classified at most (the rest stay unclassified).
    pub candidates: usize,
}

/// Solver nodes one candidate gets in a search's root analysis: a move the solver cannot
/// decide within them stays unclassified (the referee's full budget takes about 170 ms on a
/// sparse 25x25 board, this a few milliseconds).
const SEARCH_MOVE_NODES: usize = 1 << 13;
/// Candidates a search limited only by `nodes` or `depth` classifies on a board larger
/// than 9x9 (an empty 25x25 board would otherwise keep `go depth 1` busy for minutes).
const COUNTED_SEARCH_MOVES: usize = 32;

impl AnalysisBudget {
    /// The budget of a search's root analysis: a small budget per candidate, so one hard
    /// candidate cannot hold up the rest; without a clock (`nodes`, `depth`) also a number
    /// of candidates on boards larger than 9x9 (on 9x9 and smaller boards the solver is fast
    /// and ignores budgets).
    pub fn for_search(game: &Game, limits: &super::Limits) -> AnalysisBudget {
        let shape = game.board().shape();
        let unclocked =
            limits.deadline.is_none() && (limits.nodes.is_some() || limits.depth.is_some());
        AnalysisBudget {
            per_move: SEARCH_MOVE_NODES.min(referee_nodes(shape)),
            candidates: if unclocked && shape.size() > 9 {
                COUNTED_SEARCH_MOVES
            } else {
                usize::MAX
            },
        }
    }
}

/// What [`solve_until`] found.
pub enum Solved {
    /// A solution.
    Solution(Board),
    /// The board has no solution.
    Unsolvable,
    /// `stop` said so before the answer was known.
    Stopped,
    /// The node budget ran out before the answer was known.
    Undecided,
}

/// [`solver::solve`] that ends when `stop` says so: one solve of a sparse 25x25 board can
/// take many seconds, and a search must still end at `stop` or at its deadline (found by
/// tests/fuzz_engines.py). The solver polls `stop` every few hundred nodes (about a
/// millisecond on 25x25). Gives up after `max_nodes` nodes.
pub fn solve_until(board: &Board, stop: &dyn Fn() -> bool, max_nodes: usize) -> Solved {
    let request = solver::Request::count(1).with_first().within(max_nodes);
    let answer = solver::run_until(board, request, stop);
    match answer.first {
        Some(cells) => {
            let solution = Board::from_cells(board.shape(), &cells)
                .expect("a solver solution is a valid board");
            Solved::Solution(solution)
        }
        None if answer.complete => Solved::Unsolvable,
        None if stop() => Solved::Stopped,
        None => Solved::Undecided,
    }
}

/// Solves the root and classifies the side to move's candidate values, then (under
/// allowed-squares rules) those of the empty cells it cannot play now: values of some
/// solution are safe, the others are taboo moves (usable as passes). Stops early (keeping
/// what it found) when `stop` says so; the first solution alone already gives safe moves.
/// A move the referee's budget ([`referee_nodes`]) cannot decide stays unclassified (neither
/// played nor used as a pass), so one hard move cannot hold up the rest.
/// `budget` bounds the solver work; what it leaves undecided stays unclassified too.
/// `None` when the root has no solution or `stop` came before the first one was found.
pub fn analyse_root(
    game: &Game,
    stop: &dyn Fn() -> bool,
    budget: AnalysisBudget,
) -> Option<RootInfo> {
    let Solved::Solution(solution) = solve_until(game.board(), stop, usize::MAX) else {
        return None;
    };
    Some(classify_root(game, &solution, stop, budget))
}

/// [`analyse_root`] from a solution of the root already found.
pub fn classify_root(
    game: &Game,
    solution: &Board,
    stop: &dyn Fn() -> bool,
    budget: AnalysisBudget,
) -> RootInfo {
    let board = game.board();
    let solution = solution.cells().to_vec();
    let size = board.size();
    let per_move = budget.per_move.min(referee_nodes(board.shape()));
    let mover = |(r, c): (usize, usize)| game.may_play_cell(game.turn(), r, c);
    // In classic mode every empty cell is the mover's.
    let others = (0..size * size)
        .filter(|_| game.mode() != Mode::Classic)
        .map(|k| (k / size, k % size))
        .filter(|&(r, c)| board.get(r, c) == 0 && !mover((r, c)));
    // One solver call settles a board with one solution: every candidate off it is a taboo
    // move, with no call per candidate (at a short movetime the calls per candidate took
    // the whole analysis share, and the search knew no pass).
    let floor = Floor::of(game, per_move, stop);
    let unique = {
        let (stop, nodes) = floor.call(0);
        let answer = solver::run_until(board, solver::Request::count(2).within(nodes), stop);
        answer.complete && answer.count == 1
    };
    if unique {
        let off_solution = |mv: &Move| solution[mv.row * size + mv.col] != mv.value;
        let taboo: Vec<Move> = game
            .legal_moves(game.turn())
            .into_iter()
            .chain(others.flat_map(|(r, c)| cell_moves(board, r, c, game.taboo())))
            .filter(off_solution)
            .collect();
        let mover_taboo = taboo.iter().take_while(|m| mover((m.row, m.col))).count();
        return RootInfo {
            solution,
            taboo,
            mover_taboo,
            unique,
        };
    }
    let mut known: Vec<u32> = solution
        .iter()
        .map(|&v| if v == 0 { 0 } else { 1u32 << (v - 1) })
        .collect();
    let mut taboo = Vec::new();
    let mut classified = 0usize;
    // Cells with the fewest candidates first: there a value off every solution is most
    // likely, and the first taboo moves found are the passes a short search has.
    let constrained = |mut moves: Vec<Move>| {
        moves.sort_by_key(|m| board.candidates(m.row, m.col).count_ones());
        moves
    };
    let mover_moves = constrained(game.legal_moves(game.turn()));
    let others = constrained(
        others
            .flat_map(|(r, c)| cell_moves(board, r, c, game.taboo()))
            .collect(),
    );
    for mv in mover_moves.into_iter().chain(others) {
        let cell = mv.row * size + mv.col;
        if known[cell] & (1 << (mv.value - 1)) != 0 {
            continue;
        }
        if classified >= budget.candidates {
            break;
        }
        classified += 1;
        let (stop, nodes) = floor.call(classified);
        if stop() {
            break;
        }
        let mut next = board.clone();
        next.place(mv);
        match solve_until(&next, stop, nodes) {
            Solved::Solution(s) => {
                for (k, &v) in s.cells().iter().enumerate() {
                    known[k] |= 1 << (v - 1);
                }
            }
            Solved::Unsolvable => taboo.push(mv),
            Solved::Undecided => {}
            Solved::Stopped => break,
        }
    }
    // The mover's moves came first.
    let mover_taboo = taboo.iter().take_while(|m| mover((m.row, m.col))).count();
    RootInfo {
        solution,
        taboo,
        mover_taboo,
        unique: false,
    }
}

/// Solver calls of a root analysis on a board of at most 9x9 that run whatever the clock
/// says, each within [`FLOOR_NODES`]: the uniqueness test and the first candidates. At a
/// movetime of a few milliseconds the deadline (movetime less the answer's margin) has often
/// passed before the analysis starts; without them the search knew no taboo move to pass
/// with and lost every game in which it needed one (`default`@2 against `alphabeta`@200).
const FLOOR_CALLS: usize = 8;
/// Solver nodes of each floor call (a few dozen microseconds on 9x9).
const FLOOR_NODES: usize = 1 << 8;

/// Which solver calls of a root analysis run whatever the clock says (see [`FLOOR_CALLS`]).
struct Floor<'a> {
    stop: &'a dyn Fn() -> bool,
    per_move: usize,
    small: bool,
}

impl<'a> Floor<'a> {
    fn of(game: &Game, per_move: usize, stop: &'a dyn Fn() -> bool) -> Floor<'a> {
        Floor {
            stop,
            per_move,
            small: game.board().size() <= 9,
        }
    }

    /// The stop test and node budget of solver call `i` (from 0).
    fn call(&self, i: usize) -> (&'a dyn Fn() -> bool, usize) {
        if self.small && i < FLOOR_CALLS && (self.stop)() {
            (&|| false, FLOOR_NODES.min(self.per_move))
        } else {
            (self.stop, self.per_move)
        }
    }
}

/// The quickest safe move: a solution value on the playable cell that scores most and, on
/// ties, does not leave a region one fill from completion.
pub fn quick_move(game: &Game, solution: &[u8]) -> Option<Move> {
    let board = game.board();
    let size = board.size();
    let mut best: Option<(i32, Move)> = None;
    for (r, c) in game.playable_cells(game.turn()) {
        let mv = Move::new(r, c, solution[r * size + c]);
        if game.taboo().contains(&mv) || board.check(mv).is_err() {
            continue;
        }
        let pts = board.score_of(r, c) as i32;
        let key = pts * 4 + if sets_up(board, r, c) { 0 } else { 1 };
        if best.is_none_or(|(k, _)| key > k) {
            best = Some((key, mv));
        }
    }
    best.map(|(_, m)| m)
}

pub(super) fn sets_up(board: &Board, row: usize, col: usize) -> bool {
    let size = board.size();
    let shape = board.shape();
    let row_empty = (0..size).filter(|&c| board.get(row, c) == 0).count();
    let col_empty = (0..size).filter(|&r| board.get(r, col) == 0).count();
    let (br, bc) = (row / shape.m() * shape.m(), col / shape.n() * shape.n());
    let block_empty = (br..br + shape.m())
        .flat_map(|r| (bc..bc + shape.n()).map(move |c| (r, c)))
        .filter(|&(r, c)| board.get(r, c) == 0)
        .count();
    row_empty == 2 || col_empty == 2 || block_empty == 2
}

/// The root as an agent that plays the values of one solution (`territory`, `mcts`) sees it:
/// the solution, its moves by cell, and the agent's limits.
pub struct SolutionMoves<'a> {
    game: &'a Game,
    limits: &'a super::Limits,
    stop: &'a std::sync::atomic::AtomicBool,
    solution: Board,
}

impl<'a> SolutionMoves<'a> {
    /// One solution of the board, found within the agent's limits (`stop`, deadline). `Err`
    /// carries the move to fall back on when there is none in time: the first legal move,
    /// or `None` when the player to move has no legal move at all.
    pub fn find(
        game: &'a Game,
        limits: &'a super::Limits,
        stop: &'a std::sync::atomic::AtomicBool,
    ) -> Result<SolutionMoves<'a>, Option<Move>> {
        if !game.can_move(game.turn()) {
            return Err(None);
        }
        let plan = |solution| SolutionMoves {
            game,
            limits,
            stop,
            solution,
        };
        let empty = plan(Board::empty(game.board().shape()));
        match solve_until(game.board(), &|| empty.halted(), usize::MAX) {
            Solved::Solution(solution) => Ok(plan(solution)),
            _ => Err(empty.first_legal()),
        }
    }

    /// The game whose root this is.
    pub fn game(&self) -> &'a Game {
        self.game
    }

    /// The agent's limits.
    pub fn limits(&self) -> &'a super::Limits {
        self.limits
    }

    /// True once `stop` is set or the deadline has passed.
    pub fn halted(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
            || self
                .limits
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
    }

    /// The solution's value on cell `k` as a move.
    pub fn to_move(&self, k: usize) -> Move {
        let size = self.game.board().size();
        Move::new(k / size, k % size, self.solution.cells()[k])
    }

    /// The first legal move of the player to move (the fallback when time is up).
    pub fn first_legal(&self) -> Option<Move> {
        self.game.legal_moves(self.game.turn()).first().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::protocol::position_game as game;

    /// Under allowed-squares rules the opponent's passes are known too: 3,3=1 leaves the
    /// sudoku unsolvable and only player 2 can reach r4c4; the mover's taboo moves come first.
    #[test]
    fn the_analysis_lists_taboo_moves_in_cells_the_mover_cannot_play() {
        let g = game(
            "position 2x2 3+2-../4+1+3+2+/1-3+2-./2-4-.. mode random turn 1 scores 5 1 \
             taboo 0,3=3 allowed1 1,2 0,0 1,3 1,0 allowed2 0,1 0,3 3,0 3,2",
        );
        let budget = AnalysisBudget::for_search(&g, &super::super::Limits::default());
        let root = analyse_root(&g, &|| false, budget).unwrap();
        assert!(root.unique);
        let at = |text: &str| Move::parse(text).unwrap();
        assert!(!g.may_play_cell(g.turn(), 3, 3));
        assert!(root.taboo.contains(&at("3,3=1")), "{:?}", root.taboo);
        assert!(!root.mover_taboo().contains(&at("3,3=1")));
        for mv in root.mover_taboo() {
            assert!(g.legal_moves(g.turn()).contains(mv), "{mv}");
        }
        assert!(
            root.mover_taboo().contains(&at("0,2=1")),
            "{:?}",
            root.taboo
        );
    }
}
