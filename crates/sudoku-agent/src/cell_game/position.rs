//! Positions of the cell game as plain arrays: [`View`] borrows them from whoever owns them
//! (the `default` search's node), [`Pos`] owns them (the `territory` and `mcts` agents).

// Cells are indices into several parallel arrays (state, regions, starts).
#![allow(clippy::needless_range_loop)]

use puzzle_rules::sudoku::game::{Game, Mode, Player};

use super::Geometry;

/// Points for filling a cell that completes 0, 1, 2 or 3 regions at once.
pub const POINTS: [i32; 4] = [0, 1, 3, 7];

/// A position of the cell game as plain arrays, borrowed from whoever owns them.
#[derive(Clone, Copy)]
pub struct View<'a> {
    /// 0 empty, 1/2 filled by that player, 3 filled before.
    pub state: &'a [u8],
    /// Allowed squares of each player.
    pub start: [&'a [bool]; 2],
    /// Empty cells of each region.
    pub region_empty: &'a [u8],
    /// The player to move (0 or 1).
    pub turn: usize,
}

impl View<'_> {
    /// True when `p` may fill the empty cell `k` now.
    pub fn playable(&self, geo: &Geometry, p: usize, k: usize) -> bool {
        let me = p as u8 + 1;
        self.state[k] == 0
            && (self.start[p][k]
                || geo.neighbours[k]
                    .iter()
                    .any(|&n| self.state[n as usize] == me))
    }

    /// Points for filling `k` now.
    pub fn points(&self, geo: &Geometry, k: usize) -> i32 {
        let done = geo.regions[k]
            .iter()
            .filter(|&&r| self.region_empty[r as usize] == 1)
            .count();
        POINTS[done]
    }
}

/// A cell-game position that owns its arrays (the `territory` and `mcts` agents).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    /// 0 empty, 1/2 filled by that player, 3 filled before.
    pub state: Vec<u8>,
    /// Allowed squares of each player.
    pub start: [Vec<bool>; 2],
    /// Empty cells per region.
    pub region_empty: Vec<u8>,
    /// Side to move.
    pub turn: usize,
    /// Scores so far.
    pub scores: [i32; 2],
    /// Any empty cell is playable (classic rules).
    pub classic: bool,
}

impl Pos {
    /// The cell game of `game`.
    pub fn from_game(game: &Game, geo: &Geometry) -> Pos {
        let size = geo.size;
        let mut state = vec![0u8; geo.cells];
        let mut region_empty = vec![0u8; 3 * size];
        for k in 0..geo.cells {
            if game.board().cells()[k] == 0 {
                for &g in &geo.regions[k] {
                    region_empty[g as usize] += 1;
                }
            } else {
                let o = game.owners()[k];
                state[k] = if o == 0 { 3 } else { o };
            }
        }
        let mut start = [vec![false; geo.cells], vec![false; geo.cells]];
        for p in [Player::One, Player::Two] {
            for &(r, c) in game.starts(p) {
                start[p.index()][r * size + c] = true;
            }
        }
        let s = game.scores();
        Pos {
            state,
            start,
            region_empty,
            turn: game.turn().index(),
            scores: [s[0] as i32, s[1] as i32],
            classic: game.mode() == Mode::Classic,
        }
    }

    /// The borrowed view.
    pub fn view(&self) -> View<'_> {
        View {
            state: &self.state,
            start: [&self.start[0], &self.start[1]],
            region_empty: &self.region_empty,
            turn: self.turn,
        }
    }

    /// True when `p` may fill `k` now.
    pub fn playable(&self, geo: &Geometry, p: usize, k: usize) -> bool {
        if self.classic {
            self.state[k] == 0
        } else {
            self.view().playable(geo, p, k)
        }
    }

    /// The cells `p` may fill now.
    pub fn cells_of(&self, geo: &Geometry, p: usize) -> Vec<u16> {
        (0..geo.cells)
            .filter(|&k| self.playable(geo, p, k))
            .map(|k| k as u16)
            .collect()
    }

    /// Fills `k` for the side to move, scores it and passes the turn; returns the points.
    pub fn play(&mut self, geo: &Geometry, k: usize) -> i32 {
        let pts = self.view().points(geo, k);
        self.state[k] = self.turn as u8 + 1;
        for &g in &geo.regions[k] {
            self.region_empty[g as usize] -= 1;
        }
        self.scores[self.turn] += pts;
        self.turn ^= 1;
        pts
    }

    /// Takes back [`Pos::play`] of `k` that scored `pts`.
    pub fn undo(&mut self, geo: &Geometry, k: usize, pts: i32) {
        self.turn ^= 1;
        self.scores[self.turn] -= pts;
        self.state[k] = 0;
        for &g in &geo.regions[k] {
            self.region_empty[g as usize] += 1;
        }
    }
}

/// A game on a 4x4 board (2x2 blocks) from owned rows (`1+` a cell of player 1), player 1 to
/// move, for the tests of the cell game and the evaluation.
#[cfg(test)]
pub fn small_game(rows: &str, mode: Mode) -> Game {
    use puzzle_rules::sudoku::board::Shape;
    let shape = Shape::new(2, 2).unwrap();
    let (board, owners) = puzzle_rules::sudoku::notation::parse_owned_rows(shape, rows).unwrap();
    let starts = puzzle_rules::sudoku::game::starting_cells(mode, shape, 0);
    Game::from_parts(board, owners, mode, Player::One, [0, 0], vec![], starts).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_play_and_undo_round_trip() {
        let g = small_game("123./..../..../....", Mode::Rows);
        let geo = Geometry::new(g.board().shape());
        let mut pos = Pos::from_game(&g, &geo);
        let before = pos.clone();
        let pts = pos.play(&geo, 3);
        assert_eq!(pts, 1);
        assert_eq!(pos.scores, [1, 0]);
        assert_eq!(pos.turn, 1);
        pos.undo(&geo, 3, pts);
        assert_eq!(pos, before);
    }
}
