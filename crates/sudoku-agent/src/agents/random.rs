//! The `random` agent: a random legal, non-taboo-listed move (it may turn out taboo).

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use puzzle_rules::sudoku::board::Move;
use puzzle_rules::sudoku::game::Game;

/// The move of the player to move; `None` when it has no legal move.
pub fn choose(game: &Game, rng: &mut SmallRng) -> Option<Move> {
    game.legal_moves(game.turn()).choose(rng).copied()
}
