//! The start positions of a match: random givens and starting cells, drawn from the seed
//! for each pair of games.

use anyhow::{bail, Context};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use puzzle_rules::sudoku::board::{Board, Move};
use puzzle_rules::sudoku::game::{starting_cells, Game, Mode, Player};
use puzzle_rules::sudoku::solver;

/// Solver nodes after which a random given or ply whose solvability is still unsettled is
/// not chosen (on sparse 16x16 and 25x25 boards a value that leaves the sudoku unsolvable
/// can take the solver minutes to prove so; smaller boards never need this many).
pub const SETTLE_NODES: usize = 2_000;

/// Which moves keep a board solvable, helped by one solution of the board: a move that
/// agrees with it keeps the board solvable, with no solver call; any other is tried within
/// [`SETTLE_NODES`] solver nodes (unsettled counts as no), and the solution that proves it
/// becomes the one known.
#[derive(Default)]
pub struct Solvability {
    /// A solution of the board as it is now (row-major values), when one is known.
    solution: Option<Vec<u8>>,
    /// A solution of the board with the last move allowed, when the solver found one.
    after: Option<Vec<u8>>,
    /// The solution was looked for on the board as it is now.
    looked: bool,
}

impl Solvability {
    /// True when `mv` on `board` is proven to keep it solvable.
    pub fn allows(&mut self, board: &Board, mv: Move) -> bool {
        if !self.looked {
            self.solution = first_solution(board);
            self.looked = true;
        }
        let at = mv.row * board.size() + mv.col;
        if self.solution.as_ref().is_some_and(|s| s[at] == mv.value) {
            self.after = self.solution.clone();
            return true;
        }
        let mut next = board.clone();
        next.place(mv);
        self.after = first_solution(&next);
        self.after.is_some()
    }

    /// The last move allowed was played: its solution is the board's now.
    pub fn played(&mut self) {
        self.solution = self.after.take();
        self.looked = true;
    }
}

/// A solution of `board` found within [`SETTLE_NODES`] solver nodes.
fn first_solution(board: &Board) -> Option<Vec<u8>> {
    let ask = solver::Request::count(1).with_first().within(SETTLE_NODES);
    solver::run(board, ask).first
}

/// Fills up to `count` random cells of `board` with values proven to keep it solvable
/// ([`Solvability`]).
pub fn add_givens(board: &mut Board, count: usize, rng: &mut SmallRng) {
    let mut solvable = Solvability::default();
    let size = board.size();
    let mut cells: Vec<(usize, usize)> = (0..size)
        .flat_map(|r| (0..size).map(move |c| (r, c)))
        .filter(|&(r, c)| board.get(r, c) == 0)
        .collect();
    cells.shuffle(rng);
    let mut placed = 0;
    for (r, c) in cells {
        if placed == count {
            break;
        }
        let mut values: Vec<u8> = (1..=size as u8)
            .filter(|v| board.candidates(r, c) & (1 << (v - 1)) != 0)
            .collect();
        values.shuffle(rng);
        for v in values {
            let mv = Move::new(r, c, v);
            if solvable.allows(board, mv) {
                board.place(mv);
                solvable.played();
                placed += 1;
                break;
            }
        }
    }
}

/// Reads `--givens`: `N` or `LO-HI`.
pub(crate) fn parse_givens(text: &str) -> anyhow::Result<(usize, usize)> {
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: usize = lo.trim().parse().context("--givens: need N or LO-HI")?;
    let hi: usize = hi.trim().parse().context("--givens: need N or LO-HI")?;
    if lo > hi {
        bail!("--givens: {lo} is larger than {hi}");
    }
    Ok((lo, hi))
}

/// The start position of game pair `pair` (both games of a pair start alike).
pub(crate) fn start_position(
    base: &Game,
    mode: Mode,
    givens: Option<(usize, usize)>,
    seed: u64,
    pair: usize,
) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(pair as u64));
    let mut board = base.board().clone();
    if let Some((lo, hi)) = givens {
        let cells = board.shape().cells() - board.filled();
        let count = rng.gen_range(lo..=hi).min(cells);
        add_givens(&mut board, count, &mut rng);
    }
    let mut owners = base.owners().to_vec();
    owners.resize(board.cells().len(), 0);
    let starts = if mode == base.mode() && mode != Mode::Random {
        [
            base.starts(Player::One).to_vec(),
            base.starts(Player::Two).to_vec(),
        ]
    } else {
        starting_cells(mode, board.shape(), rng.gen())
    };
    Game::from_parts(
        board,
        owners,
        mode,
        base.turn(),
        base.scores(),
        base.taboo().to_vec(),
        starts,
    )
    .unwrap_or_else(|_| base.clone())
}
