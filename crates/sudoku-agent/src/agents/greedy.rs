//! The `greedy` agent: the highest immediate score, random tie-break, no solvability check.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::Game;

/// The move of the player to move; `None` when it has no legal move.
pub fn choose(game: &Game, rng: &mut SmallRng) -> Option<Move> {
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
