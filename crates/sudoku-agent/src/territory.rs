//! Territory analysis for the allowed-squares game (modes `rows`, `border`, `random`), and the
//! `territory` agent built on it.
//!
//! Under the 2024/25 rules a player may only fill one of its allowed squares or an empty cell
//! next to (8-neighbourhood) a cell it filled itself, and a player without a playable cell is
//! out. So the game is about space as much as points, as in Tron or Amazons:
//!
//! * **Reach**: a breadth-first distance through empty cells with king steps, from the cells a
//!   player may fill now (distance 1). A cell a player reaches strictly first is its cell in the
//!   race; a cell only one player reaches at all is *private*.
//! * **Separation**: when no empty cell is reachable by both players, the rest of the game is
//!   counted exactly enough: each side fills its own area; a region whose empty cells all lie in
//!   one area goes to that player; a region split over both areas goes to the player who can
//!   wait longer (the larger area; on equal areas the player not to move fills last); cells no
//!   one reaches never get filled. A player then picks the last cell of its regions so that one
//!   fill completes as many of them at once as possible (1, 3, 7 points).
//! * Before separation the same count over the reached-first partition, at half weight, plus
//!   the reached-first, private and playable cell differences, estimates the future.
//!
//! Everything here works on plain arrays (cell state 0 empty, 1/2 filled by a player, 3 filled
//! before), so the `default` search can call [`evaluate`] on its own node.

// Cells are indices into several parallel arrays (state, distances, sides), as in the search.
#![allow(clippy::needless_range_loop)]

use puzzle_rules::sudoku::board::{Move, Shape};
use puzzle_rules::sudoku::game::{Game, Mode, Player};

use crate::search::{best_child, Event, SolutionMoves};

mod bits;

/// Distance of a cell a player cannot reach.
pub const FAR: u8 = u8::MAX;
/// Largest board: 25x25.
pub const MAX_CELLS: usize = 625;
const POINTS: [i32; 4] = [0, 1, 3, 7];
const INF: i32 = 1 << 28;

/// Weights of the heuristic terms, in quarter points per cell.
const W_FIRST: i32 = 2;
const W_PRIVATE: i32 = 2;
const W_PLAYABLE: i32 = 1;
/// For the side to move when the cells both reach are odd in number (it fills the last one).
const W_PARITY: i32 = 8;

/// Fixed geometry of a board shape.
#[derive(Clone, Debug)]
pub struct Geo {
    /// Cells per side.
    pub size: usize,
    /// Cells.
    pub cells: usize,
    /// Row, N + column, 2N + block of each cell.
    pub regions: Vec<[u16; 3]>,
    /// Cells of each region.
    pub region_cells: Vec<Vec<u16>>,
    /// King-step neighbours of each cell.
    pub neighbours: Vec<Vec<u16>>,
    /// Masks for the fast evaluation (boards of at most 128 cells).
    bits: Option<bits::BitGeo>,
}

impl Geo {
    /// The geometry of `shape`.
    pub fn new(shape: Shape) -> Geo {
        let size = shape.size();
        let cells = size * size;
        let mut region_cells = vec![Vec::new(); 3 * size];
        let mut regions = Vec::with_capacity(cells);
        let mut neighbours = Vec::with_capacity(cells);
        for k in 0..cells {
            let (r, c) = (k / size, k % size);
            let regs = [
                r as u16,
                (size + c) as u16,
                (2 * size + shape.block_of(r, c)) as u16,
            ];
            for &g in &regs {
                region_cells[g as usize].push(k as u16);
            }
            regions.push(regs);
            let mut out = Vec::new();
            for rr in r.saturating_sub(1)..=(r + 1).min(size - 1) {
                for cc in c.saturating_sub(1)..=(c + 1).min(size - 1) {
                    if (rr, cc) != (r, c) {
                        out.push((rr * size + cc) as u16);
                    }
                }
            }
            neighbours.push(out);
        }
        let mut geo = Geo {
            size,
            cells,
            regions,
            region_cells,
            neighbours,
            bits: None,
        };
        geo.bits = bits::BitGeo::new(&geo);
        geo
    }
}

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
    pub fn playable(&self, geo: &Geo, p: usize, k: usize) -> bool {
        let me = p as u8 + 1;
        self.state[k] == 0
            && (self.start[p][k]
                || geo.neighbours[k]
                    .iter()
                    .any(|&n| self.state[n as usize] == me))
    }

    /// Points for filling `k` now.
    pub fn points(&self, geo: &Geo, k: usize) -> i32 {
        let done = geo.regions[k]
            .iter()
            .filter(|&&r| self.region_empty[r as usize] == 1)
            .count();
        POINTS[done]
    }
}

/// Breadth-first distances of player `p` (1 = playable now, [`FAR`] = unreachable) into
/// `dist`; returns the number of cells playable now.
pub fn distances(geo: &Geo, view: &View, p: usize, dist: &mut [u8]) -> usize {
    let mut queue = [0u16; MAX_CELLS];
    let (mut head, mut tail) = (0, 0);
    for k in 0..geo.cells {
        dist[k] = FAR;
        if view.playable(geo, p, k) {
            dist[k] = 1;
            queue[tail] = k as u16;
            tail += 1;
        }
    }
    let playable = tail;
    while head < tail {
        let k = queue[head] as usize;
        head += 1;
        let d = dist[k].saturating_add(1).min(FAR - 1);
        for &n in &geo.neighbours[k] {
            let n = n as usize;
            if view.state[n] == 0 && dist[n] == FAR {
                dist[n] = d;
                queue[tail] = n as u16;
                tail += 1;
            }
        }
    }
    playable
}

/// The race between the two players, from the side to move's point of view (index 0 = side
/// to move, 1 = the other).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Cells playable now.
    pub playable: [i32; 2],
    /// Cells reachable at all.
    pub reach: [i32; 2],
    /// Cells reached strictly first.
    pub first: [i32; 2],
    /// Cells only this player reaches.
    pub private: [i32; 2],
    /// Cells both reach.
    pub shared: i32,
}

impl Summary {
    /// True when no empty cell is reachable by both players.
    pub fn separated(&self) -> bool {
        self.shared == 0
    }
}

/// Distances of both players and the side of each empty cell.
pub struct Analysis {
    /// The counts.
    pub summary: Summary,
    /// Per cell: 0 side to move's, 1 the other's, 2 nobody's (tie or unreachable), 3 filled.
    /// When separated, a cell's side is the only player that reaches it.
    pub side: Vec<u8>,
    /// Per empty cell: the player (0 side to move, 1 the other) that alone reaches it, else 2;
    /// 3 filled.
    pub private: Vec<u8>,
}

/// Analyses the race of `view` (see [`Summary`] for the sides).
pub fn analyse(geo: &Geo, view: &View) -> Analysis {
    let me = view.turn;
    let mut d = [[FAR; MAX_CELLS]; 2];
    let mut s = Summary::default();
    s.playable[0] = distances(geo, view, me, &mut d[0]) as i32;
    s.playable[1] = distances(geo, view, me ^ 1, &mut d[1]) as i32;
    let mut side = vec![3u8; geo.cells];
    let mut private = vec![3u8; geo.cells];
    for k in 0..geo.cells {
        if view.state[k] != 0 {
            continue;
        }
        let (a, b) = (d[0][k], d[1][k]);
        s.reach[0] += (a < FAR) as i32;
        s.reach[1] += (b < FAR) as i32;
        private[k] = 2;
        if a < FAR && b < FAR {
            s.shared += 1;
        } else if a < FAR {
            s.private[0] += 1;
            private[k] = 0;
        } else if b < FAR {
            s.private[1] += 1;
            private[k] = 1;
        }
        side[k] = if a < b {
            s.first[0] += 1;
            0
        } else if b < a {
            s.first[1] += 1;
            1
        } else {
            2
        };
    }
    Analysis {
        summary: s,
        side,
        private,
    }
}

/// Points each side (0 side to move, 1 other) collects when each fills the cells of its side
/// in `side` (0/1; 2 never filled, 3 already filled). A region split over both sides goes to
/// `split_winner`. With `locks` (before separation: [`Analysis::private`]), a region with an
/// empty cell that only one player can ever reach is that player's whatever the partition says
/// (nobody else can fill its last cell), and nobody's when both have one. Each side chooses
/// the last cells of its regions greedily so that one fill completes as many regions as
/// possible.
pub fn count_partition(
    geo: &Geo,
    view: &View,
    side: &[u8],
    locks: Option<&[u8]>,
    split_winner: usize,
) -> [i32; 2] {
    let regions = geo.region_cells.len();
    // Winner of each region: 0, 1, or 2 (nobody: already complete or some cell never filled).
    let mut winner = vec![2u8; regions];
    for r in 0..regions {
        if view.region_empty[r] == 0 {
            continue;
        }
        let mut has = [false; 3];
        let mut locked = [false; 4];
        for &k in &geo.region_cells[r] {
            let s = side[k as usize];
            if s < 3 {
                has[s as usize] = true;
            }
            if let Some(l) = locks {
                locked[l[k as usize] as usize] = true;
            }
        }
        winner[r] = match (locked[0], locked[1]) {
            (true, false) => 0,
            (false, true) => 1,
            (true, true) => 2,
            (false, false) => match has {
                [_, _, true] => 2,
                [true, false, _] => 0,
                [false, true, _] => 1,
                [true, true, _] => split_winner as u8,
                _ => 2,
            },
        };
    }
    // Per cell of a side: how many of its regions that side wins and has not yet cashed.
    let mut count = [0u8; MAX_CELLS];
    for k in 0..geo.cells {
        let q = side[k];
        if q < 2 {
            count[k] = geo.regions[k]
                .iter()
                .filter(|&&g| winner[g as usize] == q)
                .count() as u8;
        }
    }
    let mut points = [0i32; 2];
    loop {
        // The cell that is the last one of most regions its side wins.
        let mut best = (0u8, 0usize);
        for k in 0..geo.cells {
            if count[k] > best.0 {
                best = (count[k], k);
            }
        }
        if best.0 == 0 {
            break;
        }
        let q = side[best.1];
        points[q as usize] += POINTS[best.0 as usize];
        for &g in &geo.regions[best.1] {
            if winner[g as usize] != q {
                continue;
            }
            winner[g as usize] = 2;
            for &j in &geo.region_cells[g as usize] {
                if side[j as usize] == q {
                    count[j as usize] -= 1;
                }
            }
        }
    }
    points
}

/// The exact-enough rest of a separated game (see the module docs): future points of the
/// side to move minus the other's.
pub fn separated_value(geo: &Geo, view: &View, a: &Analysis) -> i32 {
    let s = &a.summary;
    // The larger area fills last; on a tie the side to move runs out first.
    let split = if s.reach[0] > s.reach[1] { 0 } else { 1 };
    let p = count_partition(geo, view, &a.side, None, split);
    p[0] - p[1]
}

/// Horizon value of `view` for the side to move, in quarter points of future points. The
/// caller's own terms (points on offer now) come on top.
pub fn evaluate(geo: &Geo, view: &View) -> i32 {
    match &geo.bits {
        Some(b) => b.evaluate(view),
        None => evaluate_arrays(geo, view),
    }
}

/// [`evaluate`] with arrays, for any board size.
pub fn evaluate_arrays(geo: &Geo, view: &View) -> i32 {
    let a = analyse(geo, view);
    let s = &a.summary;
    if s.playable == [0, 0] {
        return 0;
    }
    if s.separated() {
        // Exact rest, and a little for spare cells (tempo for the split regions).
        return 4 * separated_value(geo, view, &a) + (s.reach[0] - s.reach[1]).signum();
    }
    let split = if s.first[0] > s.first[1] { 0 } else { 1 };
    let p = count_partition(geo, view, &a.side, Some(&a.private), split);
    2 * (p[0] - p[1])
        + W_FIRST * (s.first[0] - s.first[1])
        + W_PRIVATE * (s.private[0] - s.private[1])
        + W_PLAYABLE * (s.playable[0] - s.playable[1])
        + parity(s.shared)
}

/// The parity term of the contested cells.
fn parity(shared: i32) -> i32 {
    if shared % 2 == 1 {
        W_PARITY
    } else {
        -W_PARITY
    }
}

/// Move-ordering bonus for a cell the opponent could fill now too (taking it denies it).
pub const CONTESTED: i32 = 30;

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
    pub fn from_game(game: &Game, geo: &Geo) -> Pos {
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
    pub fn playable(&self, geo: &Geo, p: usize, k: usize) -> bool {
        if self.classic {
            self.state[k] == 0
        } else {
            self.view().playable(geo, p, k)
        }
    }

    /// The cells `p` may fill now.
    pub fn cells_of(&self, geo: &Geo, p: usize) -> Vec<u16> {
        (0..geo.cells)
            .filter(|&k| self.playable(geo, p, k))
            .map(|k| k as u16)
            .collect()
    }

    /// Fills `k` for the side to move, scores it and passes the turn; returns the points.
    pub fn play(&mut self, geo: &Geo, k: usize) -> i32 {
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
    pub fn undo(&mut self, geo: &Geo, k: usize, pts: i32) {
        self.turn ^= 1;
        self.scores[self.turn] -= pts;
        self.state[k] = 0;
        for &g in &geo.regions[k] {
            self.region_empty[g as usize] += 1;
        }
    }

    /// Value for the side to move in quarter points of future points.
    pub fn evaluate(&self, geo: &Geo) -> i32 {
        if self.classic {
            // Classic fallback: the side to move takes the best completion on offer, and
            // fills the last cell when an odd number is left.
            let empties = self.state.iter().filter(|&&s| s == 0).count();
            let best = (0..geo.cells)
                .filter(|&k| self.state[k] == 0)
                .map(|k| self.view().points(geo, k))
                .max()
                .unwrap_or(0);
            let parity = if empties % 2 == 1 { 8 } else { -8 };
            return 2 * best + parity;
        }
        let best = (0..geo.cells)
            .filter(|&k| self.playable(geo, self.turn, k))
            .map(|k| self.view().points(geo, k))
            .max()
            .unwrap_or(0);
        evaluate(geo, &self.view()) + 2 * best
    }
}

/// Value (quarter points, side to move) of `pos` searched `depth` plies: fills scored
/// exactly, a side without a cell passes, [`Pos::evaluate`] at the horizon.
fn negamax(geo: &Geo, pos: &mut Pos, depth: u32, alpha: i32, beta: i32) -> i32 {
    let me = pos.turn;
    let cells = pos.cells_of(geo, me);
    if cells.is_empty() {
        if !(0..geo.cells).any(|k| pos.playable(geo, me ^ 1, k)) {
            return 0;
        }
        pos.turn ^= 1;
        let v = -negamax(geo, pos, depth, -beta, -alpha);
        pos.turn ^= 1;
        return v;
    }
    if depth == 0 {
        return pos.evaluate(geo);
    }
    best_child(cells, alpha, beta, |k, alpha, beta| {
        let pts = pos.play(geo, k as usize);
        let v = 4 * pts - negamax(geo, pos, depth - 1, -beta + 4 * pts, -alpha + 4 * pts);
        pos.undo(geo, k as usize, pts);
        v
    })
}

/// The `territory` agent: two plies of the cell game with the territory evaluation, values
/// from one solution of the board (so never a taboo move while a safe one exists).
pub fn choose(plan: &SolutionMoves, report: &mut dyn FnMut(Event)) -> Option<Move> {
    let (game, limits) = (plan.game(), plan.limits());
    let to_move = |k: usize| plan.to_move(k);
    let geo = Geo::new(game.board().shape());
    let mut pos = Pos::from_game(game, &geo);
    let cells: Vec<usize> = pos
        .cells_of(&geo, pos.turn)
        .into_iter()
        .map(|k| k as usize)
        .filter(|&k| !game.taboo().contains(&to_move(k)))
        .collect();
    let Some(&first) = cells.first() else {
        return plan.first_legal();
    };
    report(Event::Propose(to_move(first)));
    let depth = limits.depth.unwrap_or(2).clamp(1, 2);
    let mut best = (-INF, first);
    for k in cells {
        let pts = pos.play(&geo, k);
        let v = 4 * pts - negamax(&geo, &mut pos, depth - 1, -INF, -best.0 + 4 * pts);
        pos.undo(&geo, k, pts);
        if v > best.0 {
            best = (v, k);
        }
        if plan.halted() {
            break;
        }
    }
    Some(to_move(best.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use puzzle_rules::sudoku::board::Board;
    use puzzle_rules::sudoku::notation::parse_owned_rows;
    use std::sync::atomic::AtomicBool;

    fn game(rows: &str, mode: Mode) -> Game {
        let shape = Shape::new(2, 2).unwrap();
        let (board, owners) = parse_owned_rows(shape, rows).unwrap();
        let starts = puzzle_rules::sudoku::game::starting_cells(mode, shape, 0);
        Game::from_parts(board, owners, mode, Player::One, [0, 0], vec![], starts).unwrap()
    }

    fn position(rows: &str, mode: Mode) -> (Geo, Pos) {
        let g = game(rows, mode);
        let geo = Geo::new(g.board().shape());
        let pos = Pos::from_game(&g, &geo);
        (geo, pos)
    }

    #[test]
    fn distances_on_an_empty_rows_board() {
        let (geo, pos) = position("..../..../..../....", Mode::Rows);
        let mut d = [0u8; MAX_CELLS];
        assert_eq!(distances(&geo, &pos.view(), 0, &mut d), 4);
        assert_eq!(&d[..16], &[1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]);
        assert_eq!(distances(&geo, &pos.view(), 1, &mut d), 4);
        assert_eq!(&d[..4], &[4, 4, 4, 4]);
        let a = analyse(&geo, &pos.view());
        assert_eq!(a.summary.first, [8, 8]);
        assert_eq!(a.summary.shared, 16);
        assert!(!a.summary.separated());
    }

    #[test]
    fn own_cells_extend_reach_and_filled_cells_block_it() {
        // Row 1 is given: player 1 (row 0) and player 2 (row 3) are separated.
        let (geo, pos) = position("..../3412/..../....", Mode::Rows);
        let mut d = [0u8; MAX_CELLS];
        distances(&geo, &pos.view(), 0, &mut d);
        assert_eq!(&d[..4], &[1, 1, 1, 1]);
        assert!(d[8..16].iter().all(|&x| x == FAR));
        // A cell of player 1 in row 2 lets it play next to it.
        let g = game("..../3412/.1+../....", Mode::Rows);
        let pos = Pos::from_game(&g, &geo);
        distances(&geo, &pos.view(), 0, &mut d);
        assert_eq!(d[8], 1);
        assert_eq!(d[12], 1);
        assert_eq!(d[11], 2);
    }

    #[test]
    fn separated_areas_are_counted_exactly() {
        let (geo, pos) = position("..../3412/..../....", Mode::Rows);
        let a = analyse(&geo, &pos.view());
        assert!(a.summary.separated());
        assert_eq!(a.summary.reach, [4, 8]);
        // Player 1 gets row 0 and blocks 0, 1: one cell ends row 0 and a block (3), another
        // the other block (1). Player 2 waits longer, so it ends every column too: two cells
        // end a row, a column and a block (7 each), two more end a column each.
        let p = count_partition(&geo, &pos.view(), &a.side, None, 1);
        assert_eq!(p, [4, 16]);
        assert_eq!(separated_value(&geo, &pos.view(), &a), -12);
        assert_eq!(evaluate(&geo, &pos.view()), -4 * 12 - 1);
    }

    #[test]
    fn a_region_with_a_private_cell_belongs_to_its_owner() {
        // Player 2's corner (3,0) is walled in by givens: player 1 can never fill it, so
        // column 0 can only be completed by player 2, though player 1 reaches its other empty
        // cells first. Not separated yet: the cells of rows 0-1 and (3,2), (3,3) are shared.
        let (geo, pos) = position("..../..../12.4/.3..", Mode::Rows);
        let view = pos.view();
        let a = analyse(&geo, &view);
        assert!(!a.summary.separated());
        assert_eq!(a.private[12], 1);
        assert_eq!((a.side[0], a.side[4]), (0, 0));
        let by_partition = count_partition(&geo, &view, &a.side, None, 0);
        let with_locks = count_partition(&geo, &view, &a.side, Some(&a.private), 0);
        assert!(with_locks[1] > by_partition[1] && with_locks[0] < by_partition[0]);
        // The mask version agrees with the arrays.
        assert_eq!(evaluate(&geo, &view), evaluate_arrays(&geo, &view));
    }

    #[test]
    fn equal_areas_give_split_regions_to_the_side_not_to_move() {
        // Rows 1 and 2 given: each player has one row; the columns are split 1-1.
        let (geo, pos) = position("..../3412/2143/....", Mode::Rows);
        let a = analyse(&geo, &pos.view());
        assert!(a.summary.separated());
        // Player 1 to move: row 0, blocks 0 and 1 -> 3 + 1; player 2 answers in the column
        // player 1 just used, so it ends all four columns: row 3 + column + block (7), column
        // + block (3), two columns (1 + 1).
        assert_eq!(
            count_partition(&geo, &pos.view(), &a.side, None, 1),
            [4, 12]
        );
        assert_eq!(separated_value(&geo, &pos.view(), &a), -8);
    }

    #[test]
    fn a_player_without_cells_is_cut_off() {
        // Player 2's row is full of givens and it owns nothing: it is out, player 1 takes
        // every region it can finish.
        let (geo, pos) = position("..../..../..../3412", Mode::Rows);
        let a = analyse(&geo, &pos.view());
        assert_eq!(a.summary.playable, [4, 0]);
        assert!(a.summary.separated());
        assert!(separated_value(&geo, &pos.view(), &a) > 20);
    }

    #[test]
    fn pos_play_and_undo_round_trip() {
        let g = game("123./..../..../....", Mode::Rows);
        let geo = Geo::new(g.board().shape());
        let mut pos = Pos::from_game(&g, &geo);
        let before = pos.clone();
        let pts = pos.play(&geo, 3);
        assert_eq!(pts, 1);
        assert_eq!(pos.scores, [1, 0]);
        assert_eq!(pos.turn, 1);
        pos.undo(&geo, 3, pts);
        assert_eq!(pos, before);
    }

    /// The `territory` agent's move without limits.
    fn pick(g: &Game) -> Option<Move> {
        let (limits, stop) = (Limits::default(), AtomicBool::new(false));
        let plan = SolutionMoves::find(g, &limits, &stop).expect("a solvable board");
        choose(&plan, &mut |_| {})
    }

    #[test]
    fn territory_agent_takes_a_completion_and_plays_legally() {
        let board = Board::parse_rows(Shape::new(2, 2).unwrap(), "123./..../..../....").unwrap();
        let g = Game::new(board, Mode::Rows, 0);
        let mv = pick(&g).unwrap();
        assert_eq!((mv.row, mv.col, mv.value), (0, 3, 4));
        for mode in [Mode::Classic, Mode::Border, Mode::Random] {
            let g = Game::new(Board::empty(Shape::new(3, 3).unwrap()), mode, 5);
            let mv = pick(&g).unwrap();
            assert!(g.check(mv).is_ok());
        }
    }

    #[test]
    fn bitboard_evaluation_equals_the_array_one() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for (m, n) in [(2, 2), (2, 3), (3, 3), (3, 2)] {
            let geo = Geo::new(Shape::new(m, n).unwrap());
            assert!(geo.bits.is_some());
            for _ in 0..3000 {
                let fill = rng.gen_range(0.0..1.0);
                let state: Vec<u8> = (0..geo.cells)
                    .map(|_| {
                        if rng.gen_bool(fill) {
                            rng.gen_range(1..=3)
                        } else {
                            0
                        }
                    })
                    .collect();
                let starts: Vec<Vec<bool>> = (0..2)
                    .map(|_| (0..geo.cells).map(|_| rng.gen_bool(0.1)).collect())
                    .collect();
                let mut region_empty = vec![0u8; 3 * geo.size];
                for k in 0..geo.cells {
                    if state[k] == 0 {
                        for &g in &geo.regions[k] {
                            region_empty[g as usize] += 1;
                        }
                    }
                }
                let view = View {
                    state: &state,
                    start: [&starts[0], &starts[1]],
                    region_empty: &region_empty,
                    turn: rng.gen_range(0..2),
                };
                assert_eq!(evaluate(&geo, &view), evaluate_arrays(&geo, &view));
            }
        }
        assert!(Geo::new(Shape::new(4, 4).unwrap()).bits.is_none());
    }
}
