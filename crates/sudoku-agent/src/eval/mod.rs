//! The evaluation of the allowed-squares game (modes `rows`, `border`, `random`): territory
//! analysis, used by the `default` search at its horizon and by the `territory` agent.
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
//! before) through a [`View`], so the `default` search can call [`evaluate`] on its own node.
//! [`bits`] is the same evaluation on masks for boards of at most 128 cells.

// Cells are indices into several parallel arrays (state, distances, sides), as in the search.
#![allow(clippy::needless_range_loop)]

use crate::cell_game::{Geometry, View, POINTS};

mod bits;

/// Distance of a cell a player cannot reach.
pub const FAR: u8 = u8::MAX;
/// Largest board: 25x25.
pub const MAX_CELLS: usize = 625;

/// Weights of the heuristic terms, in quarter points per cell.
const W_FIRST: i32 = 2;
const W_PRIVATE: i32 = 2;
const W_PLAYABLE: i32 = 1;
/// For the side to move when the cells both reach are odd in number (it fills the last one).
const W_PARITY: i32 = 8;

/// Breadth-first distances of player `p` (1 = playable now, [`FAR`] = unreachable) into
/// `dist`; returns the number of cells playable now.
pub fn distances(geo: &Geometry, view: &View, p: usize, dist: &mut [u8]) -> usize {
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
pub fn analyse(geo: &Geometry, view: &View) -> Analysis {
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
    geo: &Geometry,
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
pub fn separated_value(geo: &Geometry, view: &View, a: &Analysis) -> i32 {
    let s = &a.summary;
    // The larger area fills last; on a tie the side to move runs out first.
    let split = if s.reach[0] > s.reach[1] { 0 } else { 1 };
    let p = count_partition(geo, view, &a.side, None, split);
    p[0] - p[1]
}

/// Horizon value of `view` for the side to move, in quarter points of future points. The
/// caller's own terms (points on offer now) come on top.
pub fn evaluate(geo: &Geometry, view: &View) -> i32 {
    match &geo.masks {
        Some(m) => bits::evaluate(m, view),
        None => evaluate_arrays(geo, view),
    }
}

/// [`evaluate`] with arrays, for any board size.
pub fn evaluate_arrays(geo: &Geometry, view: &View) -> i32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell_game::position::small_game as game;
    use crate::cell_game::Pos;
    use puzzle_rules::sudoku::board::Shape;
    use puzzle_rules::sudoku::game::Mode;

    fn position(rows: &str, mode: Mode) -> (Geometry, Pos) {
        let g = game(rows, mode);
        let geo = Geometry::new(g.board().shape());
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
    fn bitboard_evaluation_equals_the_array_one() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for (m, n) in [(2, 2), (2, 3), (3, 3), (3, 2)] {
            let geo = Geometry::new(Shape::new(m, n).unwrap());
            assert!(geo.masks.is_some());
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
        assert!(Geometry::new(Shape::new(4, 4).unwrap()).masks.is_none());
    }
}
