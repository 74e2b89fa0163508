//! No agent ever proposes or plays a move the position's taboo list names, whatever the list
//! holds: random positions with random taboo lists, some naming values of the sudoku's own
//! solution (legal in the protocol, though a real game never lists one), every `propose` and
//! every answer checked against the referee's `play`.

use std::sync::atomic::AtomicBool;

use puzzle_rules::rng::SplitMix64;
use puzzle_rules::sudoku::game::starting_cells;
use puzzle_rules::sudoku::generate::full_grid;
use puzzle_rules::sudoku::{Board, Game, Mode, Move, Player, Shape};
use sudoku_agent::agents::{Agent, AgentKind, Event, Limits};
use sudoku_agent::protocol::{parse_line, position_line, Command};

const MODES: [Mode; 4] = [Mode::Classic, Mode::Rows, Mode::Border, Mode::Random];

/// A random position: a solution grid with some cells cleared, random owners, turn, scores
/// and starting cells, and a taboo list drawn from the solution's values on empty cells
/// (taboo-listing a value some solution needs) and from other candidates.
fn random_position(rng: &mut SplitMix64, shape: Shape) -> Option<Game> {
    let size = shape.size();
    let cells = size * size;
    let solution = full_grid(shape, rng);
    let mut board_cells = solution.clone();
    let empty = 1 + rng.below(cells.min(24));
    let mut order: Vec<usize> = (0..cells).collect();
    rng.shuffle(&mut order);
    for &k in &order[..empty] {
        board_cells[k] = 0;
    }
    let board = Board::from_cells(shape, &board_cells).ok()?;
    let owners = board
        .cells()
        .iter()
        .map(|&v| if v == 0 { 0 } else { rng.below(3) as u8 })
        .collect();
    let mut taboo = Vec::new();
    for _ in 0..rng.below(2 * empty + 1) {
        let k = order[rng.below(empty)];
        let value = if rng.below(2) == 0 {
            solution[k]
        } else {
            rng.below(size) as u8 + 1
        };
        taboo.push(Move::new(k / size, k % size, value));
    }
    let turn = [Player::One, Player::Two][rng.below(2)];
    let scores = [rng.below(20) as u32, rng.below(20) as u32];
    let mode = MODES[rng.below(4)];
    let starts = starting_cells(mode, shape, rng.next_u64());
    Game::from_parts(board, owners, mode, turn, scores, taboo, starts).ok()
}

/// Every move `agent` proposes or answers on `game` is one the referee accepts.
fn check(game: &Game, agent: &Agent, limits: Limits) {
    let context = || format!("{:?} on {}", agent.kind, position_line(game));
    let accepted = |mv: Move| game.clone().play(mv).is_ok();
    let mut bad = Vec::new();
    let answer = agent.choose(game, limits, &AtomicBool::new(false), &mut |event| {
        if let Event::Propose(mv) = event {
            if !accepted(mv) {
                bad.push(mv);
            }
        }
    });
    assert!(bad.is_empty(), "proposed {bad:?}: {}", context());
    match answer {
        Some(mv) => assert!(accepted(mv), "played {mv}: {}", context()),
        None => assert!(!game.can_move(game.turn()), "no move: {}", context()),
    }
}

/// The position of the report that found it: 5,5=1 is the solution's value, taboo-listed.
#[test]
fn the_default_agent_never_plays_a_taboo_listed_solution_value() {
    let line = "position 3x2 6+.23.4-/.15-6-2./2-3-1.../1-64+2-35+/5+4+3+.6+2+/3-2-654. \
                mode border turn 1 scores 5 14 taboo 0,4=5 5,5=1";
    let Ok(Command::Position(game)) = parse_line(line) else {
        panic!("not a position");
    };
    for nodes in [1, 10, 50, 500, 5000] {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        check(&game, &Agent::new(AgentKind::Default, 1, 0), limits);
    }
}

#[test]
fn no_agent_proposes_a_taboo_listed_move_on_random_positions() {
    let mut rng = SplitMix64(76);
    let shapes = [(2, 2), (2, 3), (3, 2), (3, 3)];
    let mut checked = 0;
    while checked < 240 {
        let (m, n) = shapes[rng.below(shapes.len())];
        let Some(game) = random_position(&mut rng, Shape::new(m, n).unwrap()) else {
            continue;
        };
        checked += 1;
        for kind in AgentKind::ALL {
            let threads = 1 + rng.below(2);
            let limits = Limits {
                nodes: Some([1, 30, 300, 3000][rng.below(4)]),
                ..Limits::default()
            };
            check(&game, &Agent::new(kind, threads, rng.next_u64()), limits);
        }
    }
}
