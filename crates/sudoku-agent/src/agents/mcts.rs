//! The `mcts` agent: Monte Carlo tree search over the cell game (the seed report's second
//! agent, its section 1.2).
//!
//! Like `default` it plays the *cell game*: one solution of the board gives every empty cell
//! a safe value, so a move is the choice of a playable cell (a side without one passes, the
//! game ends when neither has one). Selection by UCB1, expansion of one untried move per
//! iteration, uniformly random playouts to the end of the game scored 1 for a win of the
//! player who made the move into a node and 0 otherwise. The tree is kept between turns: the
//! next search starts from the node of the new position when it lies within two plies of the
//! old root (our move, the opponent's reply), since the cell game depends only on who filled
//! which cell. One thread; `Threads` is not used.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use puzzle_rules::sudoku::board::Move;

use super::root::SolutionMoves;
use super::Event;
use crate::cell_game::{Geometry, Pos};

/// A forced pass in the tree (the side to move has no playable cell).
const PASS: u16 = u16::MAX;
/// Exploration constant of UCB1.
const EXPLORE: f64 = 1.4;
/// Trees larger than this are dropped instead of kept for the next turn, and a search stops
/// growing its tree at twice this (about 150 MB).
const MAX_KEPT: usize = 1_000_000;

struct TreeNode {
    /// The move into this node.
    cell: u16,
    /// The player who made it (0/1).
    mover: u8,
    visits: u32,
    wins: f32,
    children: Vec<u32>,
    untried: Vec<u16>,
}

/// The search tree kept between turns.
pub struct Tree {
    geo: Geometry,
    root_pos: Pos,
    nodes: Vec<TreeNode>,
}

/// What the agent keeps between calls.
#[derive(Default)]
pub struct Mcts {
    tree: Option<Box<Tree>>,
}

fn moves_of(pos: &Pos, geo: &Geometry) -> Vec<u16> {
    let cells = pos.cells_of(geo, pos.turn);
    if !cells.is_empty() {
        return cells;
    }
    if (0..geo.cells).any(|k| pos.playable(geo, pos.turn ^ 1, k)) {
        vec![PASS]
    } else {
        Vec::new()
    }
}

fn apply(pos: &mut Pos, geo: &Geometry, mv: u16) {
    if mv == PASS {
        pos.turn ^= 1;
    } else {
        pos.play(geo, mv as usize);
    }
}

/// Plays random moves to the end; the winner (0/1) or `None` for a draw.
fn playout(pos: &mut Pos, geo: &Geometry, rng: &mut SmallRng) -> Option<u8> {
    let mut buf: Vec<u16> = Vec::with_capacity(geo.cells);
    let mut passes = 0;
    while passes < 2 {
        buf.clear();
        buf.extend(
            (0..geo.cells)
                .filter(|&k| pos.playable(geo, pos.turn, k))
                .map(|k| k as u16),
        );
        if buf.is_empty() {
            passes += 1;
            pos.turn ^= 1;
            continue;
        }
        passes = 0;
        let k = buf[rng.gen_range(0..buf.len())];
        pos.play(geo, k as usize);
    }
    match pos.scores[0].cmp(&pos.scores[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

impl Tree {
    fn new(geo: Geometry, pos: Pos) -> Tree {
        let untried = moves_of(&pos, &geo);
        let root = TreeNode {
            cell: PASS,
            mover: (pos.turn ^ 1) as u8,
            visits: 0,
            wins: 0.0,
            children: Vec::new(),
            untried,
        };
        Tree {
            geo,
            root_pos: pos,
            nodes: vec![root],
        }
    }

    /// One selection, expansion, playout and backup.
    fn iterate(&mut self, rng: &mut SmallRng) {
        let geo = &self.geo;
        let mut pos = self.root_pos.clone();
        let mut path = vec![0u32];
        let mut at = 0usize;
        loop {
            if !self.nodes[at].untried.is_empty() {
                let node = &mut self.nodes[at];
                let i = rng.gen_range(0..node.untried.len());
                let mv = node.untried.swap_remove(i);
                let mover = pos.turn as u8;
                apply(&mut pos, geo, mv);
                let child = TreeNode {
                    cell: mv,
                    mover,
                    visits: 0,
                    wins: 0.0,
                    children: Vec::new(),
                    untried: moves_of(&pos, geo),
                };
                let id = self.nodes.len() as u32;
                self.nodes.push(child);
                self.nodes[at].children.push(id);
                path.push(id);
                break;
            }
            if self.nodes[at].children.is_empty() {
                break;
            }
            let ln = (self.nodes[at].visits.max(1) as f64).ln();
            let mut best = (f64::NEG_INFINITY, 0u32);
            for i in 0..self.nodes[at].children.len() {
                let c = self.nodes[at].children[i];
                let u = self.ucb(c, ln);
                if u > best.0 {
                    best = (u, c);
                }
            }
            let best = best.1;
            apply(&mut pos, geo, self.nodes[best as usize].cell);
            path.push(best);
            at = best as usize;
        }
        let winner = playout(&mut pos, geo, rng);
        for &id in &path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            if winner == Some(n.mover) {
                n.wins += 1.0;
            }
        }
    }

    fn ucb(&self, id: u32, ln_parent: f64) -> f64 {
        let n = &self.nodes[id as usize];
        if n.visits == 0 {
            return f64::INFINITY;
        }
        let v = n.visits as f64;
        n.wins as f64 / v + EXPLORE * (ln_parent / v).sqrt()
    }

    /// The node of `pos` within two plies of the root, if any.
    fn find(&self, pos: &Pos) -> Option<u32> {
        let same = |p: &Pos| p.state == pos.state && p.turn == pos.turn;
        if same(&self.root_pos) {
            return Some(0);
        }
        for &c in &self.nodes[0].children {
            let mut p1 = self.root_pos.clone();
            apply(&mut p1, &self.geo, self.nodes[c as usize].cell);
            if same(&p1) {
                return Some(c);
            }
            for &g in &self.nodes[c as usize].children {
                let mut p2 = p1.clone();
                apply(&mut p2, &self.geo, self.nodes[g as usize].cell);
                if same(&p2) {
                    return Some(g);
                }
            }
        }
        None
    }

    /// Keeps only the subtree of `id`, which becomes the root of `pos`.
    fn reroot(&mut self, id: u32, pos: Pos) {
        let mut old = std::mem::take(&mut self.nodes);
        let mut stack = vec![(id, u32::MAX)];
        while let Some((from, parent)) = stack.pop() {
            let mut node = std::mem::replace(
                &mut old[from as usize],
                TreeNode {
                    cell: PASS,
                    mover: 0,
                    visits: 0,
                    wins: 0.0,
                    children: Vec::new(),
                    untried: Vec::new(),
                },
            );
            let kids = std::mem::take(&mut node.children);
            let new_id = self.nodes.len() as u32;
            self.nodes.push(node);
            if parent != u32::MAX {
                self.nodes[parent as usize].children.push(new_id);
            }
            for k in kids {
                stack.push((k, new_id));
            }
        }
        self.root_pos = pos;
    }

    /// The most visited root move.
    fn best(&self) -> Option<u16> {
        self.nodes[0]
            .children
            .iter()
            .max_by_key(|&&c| self.nodes[c as usize].visits)
            .map(|&c| self.nodes[c as usize].cell)
            .filter(|&c| c != PASS)
    }
}

impl Mcts {
    /// Forgets the tree (new game).
    pub fn clear(&mut self) {
        self.tree = None;
    }

    /// Chooses a move for the side to move of `game`.
    pub fn choose(
        &mut self,
        plan: &SolutionMoves,
        seed: u64,
        report: &mut dyn FnMut(Event),
    ) -> Option<Move> {
        let (game, limits) = (plan.game(), plan.limits());
        let to_move = |k: usize| plan.to_move(k);
        let safe = |k: usize| !game.taboo().contains(&to_move(k));
        let geo = Geometry::new(game.board().shape());
        let pos = Pos::from_game(game, &geo);
        let cells: Vec<usize> = pos
            .cells_of(&geo, pos.turn)
            .into_iter()
            .map(|k| k as usize)
            .filter(|&k| safe(k))
            .collect();
        let Some(&first) = cells.first() else {
            return plan.first_legal();
        };
        report(Event::Propose(to_move(first)));
        let mut tree = match self.tree.take() {
            Some(mut t) if t.geo.size == geo.size && t.root_pos.start == pos.start => {
                match t.find(&pos) {
                    Some(id) => {
                        t.reroot(id, pos.clone());
                        t
                    }
                    None => Box::new(Tree::new(geo, pos.clone())),
                }
            }
            _ => Box::new(Tree::new(geo, pos.clone())),
        };
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut iterations: u64 = 0;
        loop {
            if iterations & 31 == 0 && plan.halted() {
                break;
            }
            if limits.nodes.is_some_and(|n| iterations >= n) {
                break;
            }
            tree.iterate(&mut rng);
            iterations += 1;
            if tree.nodes.len() > MAX_KEPT * 2 {
                break;
            }
        }
        let best = tree
            .best()
            .map(|c| c as usize)
            .filter(|&k| safe(k))
            .unwrap_or(first);
        if tree.nodes.len() <= MAX_KEPT {
            self.tree = Some(tree);
        }
        Some(to_move(best))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::Limits;
    use puzzle_rules::sudoku::board::{Board, Shape};
    use puzzle_rules::sudoku::game::Game;
    use puzzle_rules::sudoku::game::Mode;
    use std::sync::atomic::AtomicBool;

    fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// The agent's answer as `Agent::choose` gives it: the solution's search, or the
    /// fallback move when no solution comes in time.
    fn pick(m: &mut Mcts, g: &Game, limits: &Limits, stop: &AtomicBool) -> Option<Move> {
        match SolutionMoves::find(g, limits, stop) {
            Ok(plan) => m.choose(&plan, 1, &mut |_| {}),
            Err(fallback) => fallback,
        }
    }

    #[test]
    fn plays_legal_moves_in_every_mode_and_takes_a_sure_win() {
        let stop = AtomicBool::new(false);
        for mode in [Mode::Classic, Mode::Rows, Mode::Border, Mode::Random] {
            let g = Game::new(Board::empty(Shape::new(2, 2).unwrap()), mode, 3);
            let mut m = Mcts::default();
            let mv = pick(&mut m, &g, &nodes(500), &stop).unwrap();
            assert!(g.check(mv).is_ok(), "{mode}: {mv}");
        }
        // One empty cell left: filling it ends the game with a win.
        let board = Board::parse_rows(Shape::new(2, 2).unwrap(), "1234/3412/2143/432.").unwrap();
        let g = Game::new(board, Mode::Classic, 0);
        let mv = pick(&mut Mcts::default(), &g, &nodes(50), &stop).unwrap();
        assert_eq!(mv, Move::new(3, 3, 1));
    }

    #[test]
    fn keeps_the_subtree_after_both_moves() {
        let stop = AtomicBool::new(false);
        let mut g = Game::new(Board::empty(Shape::new(2, 2).unwrap()), Mode::Rows, 0);
        let mut m = Mcts::default();
        let ours = pick(&mut m, &g, &nodes(3000), &stop).unwrap();
        g.play(ours).unwrap();
        // The opponent answers with the reply the tree knows best.
        let reply = g.legal_moves(g.turn())[0];
        let tree = m.tree.as_ref().unwrap();
        let geo = Geometry::new(g.board().shape());
        let mut next = g.clone();
        next.play(reply).unwrap();
        let pos = Pos::from_game(&next, &geo);
        let id = tree.find(&pos).expect("the reply is in the tree");
        let kept = tree.nodes[id as usize].visits;
        assert!(kept > 0);
        pick(&mut m, &next, &nodes(1), &stop).unwrap();
        let root = &m.tree.as_ref().unwrap().nodes[0];
        assert!(root.visits > kept, "reused root has the old visits");
        // A new game forgets the tree.
        m.clear();
        assert!(m.tree.is_none());
    }

    #[test]
    fn stops_at_the_stop_flag() {
        let stop = AtomicBool::new(true);
        let g = Game::new(Board::empty(Shape::new(3, 3).unwrap()), Mode::Rows, 0);
        let mv = pick(&mut Mcts::default(), &g, &Limits::default(), &stop).unwrap();
        assert!(g.check(mv).is_ok());
    }
}
