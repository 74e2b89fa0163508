//! Solver correctness: the solution-counts file (data/sudoku), the project's puzzle
//! collections, and random boards of several shapes, each cross-checked between the 9x9 band
//! solver, the general solver and the naive reference solver. Also: the committed collections
//! are what their header's command makes (a slice of each, made again).

use std::path::PathBuf;

use puzzle_rules::rng::SplitMix64;
use puzzle_rules::sudoku::check::check_filled;
use puzzle_rules::sudoku::generate::full_grid;
use puzzle_rules::sudoku::puzzle_set::PuzzleSet;
use puzzle_rules::sudoku::solver::nine::{self as solver9, Path};
use puzzle_rules::sudoku::solver::{
    count_solutions, count_solutions_general, has_solution, path_name, solve, solve_and_count,
    Request,
};
use puzzle_rules::sudoku::{reference, Board, Shape};

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/sudoku")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The entry lines of a collection file (comments and blank lines skipped).
fn entry_lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

fn puzzles(set: PuzzleSet) -> Vec<Vec<u8>> {
    entry_lines(&data(set.file_name()))
        .into_iter()
        .map(cells81)
        .collect()
}

fn cells81(text: &str) -> Vec<u8> {
    assert_eq!(text.len(), 81, "{text}");
    text.bytes()
        .map(|b| match b {
            b'.' | b'0' => 0,
            b'1'..=b'9' => b - b'0',
            _ => panic!("bad cell in {text}"),
        })
        .collect()
}

/// A puzzle as the collection files write it: 81 characters, or `MxN <rows>`.
fn board_of(text: &str) -> Board {
    match text.split_once(' ') {
        Some((shape, rows)) => Board::parse_rows(Shape::parse(shape).unwrap(), rows).unwrap(),
        None => Board::from_cells(nine(), &cells81(text)).unwrap(),
    }
}

/// Every compiled copy of the 9x9 solver: the scalar fallback is tested even on CPUs that
/// would never run it (a path the CPU lacks runs the scalar copy).
const PATHS: [Path; 2] = Path::ALL;

/// Counts to 2 with the first solution on every path; the paths run the same code, so they
/// must agree exactly, first solution and search nodes included.
fn every_path(raw: &[u8; 81]) -> (usize, Option<[u8; 81]>) {
    let answers = PATHS.map(|path| solver9::solve_cells_on(path, raw, 2, true));
    for (path, answer) in PATHS.iter().zip(&answers) {
        assert_eq!(
            answers[0], *answer,
            "{path:?} disagrees with the scalar path"
        );
    }
    assert_eq!(answers[0], solver9::solve_cells(raw, 2, true));
    let nodes = PATHS.map(|path| solver9::answer_on(path, raw, Request::count(2)).nodes);
    assert!(
        nodes.iter().all(|&n| n == nodes[0]),
        "nodes differ: {nodes:?}"
    );
    answers[0]
}

/// The path picked at run time is the fastest one this CPU supports (the tests above run
/// every path it supports, and the scalar one), and tools see its name.
#[test]
fn the_fastest_supported_path_runs() {
    let fastest = Path::fastest();
    assert!(fastest.is_supported());
    assert!(Path::Scalar.is_supported());
    assert_eq!(path_name(), fastest.name());
    let faster: Vec<Path> = Path::ALL
        .into_iter()
        .skip_while(|&p| p != fastest)
        .skip(1)
        .collect();
    assert!(faster.iter().all(|p| !p.is_supported()), "{faster:?}");
    let names: Vec<&str> = Path::ALL.map(Path::name).to_vec();
    assert_eq!(names, ["scalar", "avx2"]);
    let supported: Vec<&str> = Path::ALL
        .into_iter()
        .filter(|p| p.is_supported())
        .map(Path::name)
        .collect();
    eprintln!("9x9 paths this CPU runs: {supported:?}");
}

fn nine() -> Shape {
    Shape::new(3, 3).unwrap()
}

/// The solution is a correct grid that keeps every given.
fn assert_completes(board: &Board, solution: &Board) {
    assert_eq!(check_filled(board.shape(), solution.cells()), Ok(()));
    for (g, s) in board.cells().iter().zip(solution.cells()) {
        assert!(*g == 0 || g == s, "solution changes a given");
    }
}

/// Exact counts on every path, 9x9, 16x16 and 25x25; the naive reference solver agrees where
/// it is fast enough (9x9 up to 150 solutions, unique puzzles of every shape).
#[test]
fn every_line_of_solution_counts_matches() {
    let text = data("solution-counts.txt");
    let mut seen = std::collections::BTreeSet::new();
    for line in entry_lines(&text) {
        let parts: Vec<&str> = line.split(':').collect();
        let (puzzle, count) = (parts[0], parts[1].parse::<usize>().unwrap());
        let board = board_of(puzzle);
        let shape = board.shape();
        seen.insert((shape.size(), count.min(2)));
        // Counting with a limit above the true count must give the exact count.
        assert_eq!(count_solutions(&board, 10_000), count, "{puzzle}");
        if shape == nine() {
            let mut raw = [0u8; 81];
            raw.copy_from_slice(board.cells());
            for path in PATHS {
                let (n, _) = solver9::solve_cells_on(path, &raw, 10_000, false);
                assert_eq!(n, count, "{path:?} {puzzle}");
            }
        }
        assert_eq!(
            count_solutions_general(&board, 10_000),
            count,
            "general {puzzle}"
        );
        assert_eq!(count_solutions(&board, 2), count.min(2), "{puzzle}");
        assert_eq!(has_solution(&board), count > 0);
        let (c2, first) = solve_and_count(&board, 2);
        assert_eq!(c2, count.min(2));
        match count {
            0 => assert!(first.is_none() && solve(&board).is_none()),
            1 => {
                let expected = board_of(parts[2]);
                assert_eq!(first.as_ref(), Some(&expected));
                assert_eq!(solve(&board), Some(expected));
            }
            _ => assert_completes(&board, &first.unwrap()),
        }
        // On larger boards the naive search can take a minute to prove no solution or to
        // count a hundred; unique ones take it milliseconds.
        if (shape == nine() && count <= 150) || count == 1 {
            assert_eq!(
                reference::count_solutions(shape.m(), shape.n(), board.cells(), 10_000),
                count,
                "reference {puzzle}"
            );
        }
    }
    // Unique, several and no solutions on each of 9x9, 16x16 and 25x25.
    assert_eq!(seen.len(), 9, "{seen:?}");
}

/// Fast path vs general path on every puzzle of the smaller collections and a sample of the
/// larger ones; both vs the reference solver on a smaller sample (it is slow on hard ones).
#[test]
fn collections_agree_across_three_solvers() {
    for (set, step, reference_step, expected) in [
        (PuzzleSet::Minimal, 7, 101, 1),
        (PuzzleSet::Hard, 1, 11, 1),
        (PuzzleSet::Multiple, 7, 101, 2),
        (PuzzleSet::NoSolution, 3, 37, 0),
    ] {
        let all = puzzles(set);
        let mut checked = 0;
        for (i, cells) in all.iter().enumerate().step_by(step) {
            let board = Board::from_cells(nine(), cells).unwrap();
            let mut raw = [0u8; 81];
            raw.copy_from_slice(cells);
            let (fast, sol) = every_path(&raw);
            let general = count_solutions_general(&board, 2);
            assert_eq!(fast, general, "{set:?} #{i}");
            assert_eq!(fast, expected, "{set:?} #{i}");
            if let Some(sol) = sol {
                assert_completes(&board, &Board::from_cells(nine(), &sol).unwrap());
            }
            if i % reference_step == 0 {
                assert_eq!(
                    reference::count_solutions(3, 3, cells, 2),
                    fast,
                    "reference {set:?} #{i}"
                );
            }
            checked += 1;
        }
        assert!(checked > 10, "{set:?}");
    }
}

/// Each committed collection starts with the set's rule and the command that makes it; its
/// first entries (every kind and shape of the counts set) are made again and must match byte
/// for byte, and the file holds as many entries as the command asks for.
#[test]
fn committed_collections_are_what_their_command_makes() {
    for (set, slice) in [
        (PuzzleSet::Minimal, 5),
        (PuzzleSet::Hard, 2),
        (PuzzleSet::Multiple, 20),
        (PuzzleSet::NoSolution, 4),
        (PuzzleSet::Counts, 9),
    ] {
        let text = data(set.file_name());
        let header: Vec<&str> = text.lines().take(2).collect();
        assert_eq!(header[0], format!("# {}", set.rule()), "{set:?}");
        let command = header[1]
            .strip_prefix("# made by: sudoku-solver generate --set ")
            .unwrap_or_else(|| panic!("{set:?}: no command in {:?}", header[1]));
        let words: Vec<&str> = command.split(' ').collect();
        assert_eq!(
            (words[0], words[1], words[3]),
            (set.name(), "--seed", "--count"),
            "{command}"
        );
        let seed: u64 = words[2].parse().unwrap();
        let count: usize = words[4].parse().unwrap();
        let lines = entry_lines(&text);
        assert_eq!(lines.len(), count, "{set:?}");
        for (k, line) in lines.iter().take(slice).enumerate() {
            assert_eq!(
                *line,
                set.line(&set.entry(seed, k as u64)),
                "{set:?} entry {k}"
            );
        }
    }
}

/// A random board of a shape: a correct grid with holes (solvable), sometimes with a few
/// givens replaced by other legal values (often unsolvable), or random legal placements on an
/// empty board (any outcome).
fn random_board(shape: Shape, rng: &mut SplitMix64, wild: bool) -> Board {
    let size = shape.size();
    let cells_n = shape.cells();
    // Random placements on an empty board make hard unsolvable boards past 9x9, where the
    // naive reference would take minutes: keep those to small shapes.
    let kinds = if size <= 6 || wild { 3 } else { 2 };
    let max_holes = if size <= 6 {
        0.75
    } else if size <= 9 {
        0.62
    } else {
        0.55
    };
    match rng.below(kinds) {
        0 | 1 => {
            let mut cells = full_grid(shape, &mut SplitMix64(rng.next_u64()));
            let holes = 0.2 + (max_holes - 0.2) * rng.unit();
            for c in cells.iter_mut() {
                if rng.chance(holes) {
                    *c = 0;
                }
            }
            let mut board = Board::from_cells(shape, &cells).unwrap();
            if rng.below(2) == 1 {
                for _ in 0..1 + rng.below(3) {
                    let cell = rng.below(cells_n);
                    let (r, c) = (cell / size, cell % size);
                    board.clear(r, c);
                    let cands = board.candidates(r, c);
                    if cands != 0 {
                        let pick = rng.below(cands.count_ones() as usize);
                        let mut bits = cands;
                        for _ in 0..pick {
                            bits &= bits - 1;
                        }
                        let v = bits.trailing_zeros() as u8 + 1;
                        board.place(puzzle_rules::sudoku::Move::new(r, c, v));
                    }
                }
            }
            board
        }
        _ => {
            let mut board = Board::empty(shape);
            let target = rng.below(cells_n * 2 / 5 + 1);
            for _ in 0..target {
                let cell = rng.below(cells_n);
                let (r, c) = (cell / size, cell % size);
                let v = 1 + rng.below(size) as u8;
                if board
                    .check(puzzle_rules::sudoku::Move::new(r, c, v))
                    .is_ok()
                {
                    board.place(puzzle_rules::sudoku::Move::new(r, c, v));
                }
            }
            board
        }
    }
}

#[test]
fn random_boards_agree_with_the_reference() {
    let mut rng = SplitMix64(20261122);
    for (m, n, boards) in [
        (2, 2, 400),
        (2, 3, 300),
        (3, 2, 100),
        (3, 3, 300),
        (3, 4, 150),
        (4, 4, 60),
    ] {
        let shape = Shape::new(m, n).unwrap();
        let start = std::time::Instant::now();
        let mut outcomes = [0usize; 4];
        for k in 0..boards {
            let board = random_board(shape, &mut rng, false);
            let limit = 3;
            let expected = reference::count_solutions(m, n, board.cells(), limit);
            let (count, first) = solve_and_count(&board, limit);
            assert_eq!(count, expected, "{m}x{n} board {k}: {}", board.to_rows());
            assert_eq!(count_solutions_general(&board, limit), expected);
            assert_eq!(has_solution(&board), expected > 0);
            match first {
                Some(sol) => assert_completes(&board, &sol),
                None => assert_eq!(expected, 0),
            }
            outcomes[count] += 1;
        }
        eprintln!("{m}x{n}: {outcomes:?} in {:?}", start.elapsed());
        // The generator must exercise unsolvable, unique and multiple-solution boards.
        assert!(
            outcomes[0] > 0 && outcomes[1] > 0 && outcomes[3] > 0,
            "{m}x{n}: {outcomes:?}"
        );
    }
}

/// Random legal placements on empty 9x9 and 12x12 boards: sparse, often unsolvable only
/// deep down, too slow for the reference; the 9x9 band solver and the general solver (which
/// share no code) must agree.
#[test]
fn sparse_random_boards_agree_between_fast_paths() {
    let mut rng = SplitMix64(7);
    let shape = nine();
    let mut outcomes = [0usize; 3];
    for _ in 0..3000 {
        let board = random_board(shape, &mut rng, true);
        let mut raw = [0u8; 81];
        raw.copy_from_slice(board.cells());
        let (fast, sol) = every_path(&raw);
        assert_eq!(
            fast,
            count_solutions_general(&board, 2),
            "{}",
            board.to_rows()
        );
        // A search for one solution restarts with random choices when it takes long: it
        // must still prove "no solution".
        assert_eq!(
            fast > 0,
            count_solutions_general(&board, 1) == 1,
            "{}",
            board.to_rows()
        );
        if let Some(sol) = sol {
            assert_completes(&board, &Board::from_cells(shape, &sol).unwrap());
        }
        outcomes[fast] += 1;
    }
    assert!(outcomes.iter().all(|&k| k > 0), "{outcomes:?}");
}

/// The 16x16 band solver against the general path (which shares no code with it) on boards
/// from full grids with up to 70% holes and some givens changed (unsolvable, unique or
/// multiple solutions), on sparse random placements, and on generated minimal puzzles.
#[test]
fn sixteen_by_sixteen_agrees_between_fast_paths() {
    use puzzle_rules::sudoku::generate::generate;
    use puzzle_rules::sudoku::solver::sixteen as solver16;
    let shape = Shape::new(4, 4).unwrap();
    let mut rng = SplitMix64(16);
    let mut outcomes = [0usize; 3];
    let mut check = |board: &Board| {
        let answer = solver16::solve_cells(board.cells(), 2, true, usize::MAX);
        assert!(answer.complete);
        assert_eq!(
            answer.count,
            count_solutions_general(board, 2),
            "{}",
            board.to_rows()
        );
        assert_eq!(count_solutions(board, 2), answer.count);
        match answer.first {
            Some(sol) => assert_completes(board, &Board::from_cells(shape, &sol).unwrap()),
            None => assert_eq!(answer.count, 0),
        }
        outcomes[answer.count] += 1;
    };
    for k in 0..600 {
        let board = if k % 3 == 2 {
            random_board(shape, &mut rng, true)
        } else {
            let mut cells = full_grid(shape, &mut SplitMix64(rng.next_u64()));
            let holes = 0.4 + 0.3 * rng.unit();
            for c in cells.iter_mut() {
                if rng.chance(holes) {
                    *c = 0;
                }
            }
            let mut board = Board::from_cells(shape, &cells).unwrap();
            for _ in 0..k % 3 * 2 {
                // Move one given to another legal value: often no solution any more.
                let cell = rng.below(256);
                let (r, c) = (cell / 16, cell % 16);
                if board.get(r, c) != 0 {
                    board.clear(r, c);
                    let cands = board.candidates(r, c);
                    if cands != 0 {
                        let v = cands.trailing_zeros() as u8 + 1;
                        board.place(puzzle_rules::sudoku::Move::new(r, c, v));
                    }
                }
            }
            board
        };
        check(&board);
    }
    for seed in 1..=5 {
        let board = generate(shape, 0, seed);
        check(&board);
    }
    assert!(outcomes.iter().all(|&k| k > 20), "{outcomes:?}");
}

/// A 25x25 board from a game between two `default` agents in rows mode, the last move
/// included. The complete search (fewest candidates, fixed order) needs minutes to find a
/// solution of it; the restarts of a one-solution search take milliseconds.
const SPARSE_25X25_FROM_A_GAME: &str = "275KM3A486CODJB9GEPHN1IFL/6OEFJ9G5ICLHMN8471B3P2KAD/BIN3CLHPM29A51GKDO8F467EJ/ADPH8JBFK174E32INL56G9MCO/941GLDE7ONPK6FI2MAJC3B8H5/OJDMG45KPA2L167HCFE8B.39./..H56EF.L...PO...G.A.7J1./.C..4B.M.8.G.EF.3.1.H.LO./.1.9P6....B..H3J.7.L...D./..LE..2..H..I..PB.4.6..../...1...6E.O..5..8P.M..F../.H7...P9...3..M...O.5D.8./.FM..C8...D.2......NO3E../.5.N.H...J.B.K.....42..P./..8.A...5...G.L...3...H../.P.4...8.3.2.B.E.I...C.../.M3...9.4.A.L.N.1...7..6./.NCO.G.L.E...P...4HK..9../.A..5...C.4.F.J.P.7B.L.../...J.F.B.I.7.M.O.3..K..../..B.1.J...N.4.P.6..7.O.../.2...I...B.1...C..L...5../..K.D.N.1.3.9.O..8.....M./.L...2.C...M.8..O.....G../..J.N.........5...G......";

#[test]
fn one_solution_of_a_sparse_25x25_board_within_the_referee_budget() {
    one_solution_within_the_referee_budget(Shape::new(5, 5).unwrap(), SPARSE_25X25_FROM_A_GAME);
}

/// The one-solution search (with restarts) finds a solution of `rows` within the referee's
/// budget; counting to two, a complete search in a fixed order, does not get that far.
fn one_solution_within_the_referee_budget(shape: Shape, rows: &str) {
    use puzzle_rules::sudoku::game::referee_nodes;
    use puzzle_rules::sudoku::solver::{count_solutions_within, run, Request};
    let board = Board::parse_rows(shape, rows).unwrap();
    let budget = referee_nodes(shape);
    let answer = run(&board, Request::count(1).with_first().within(budget));
    assert!(
        answer.complete && answer.count == 1,
        "{} nodes",
        answer.nodes
    );
    let solution = Board::from_cells(shape, &answer.first.unwrap()).unwrap();
    assert_completes(&board, &solution);
    assert_eq!(count_solutions_within(&board, 2, budget), None);
}

/// A sparse 16x16 board: a quarter of a random solution's cells and one more legal value.
/// The complete search needs more than ten seconds to find a solution of it; the restarts
/// take a few hundred nodes.
const SPARSE_16X16: &str = "1...CF..62.G9.DE/4.C......3AF..../.5...BG31......./6B..........1.../DF...2.B7...A.../9E7..3.D.G.4B.../C...7....B2...../..2..9.4F6D.E.../....6.........../E4.....8..9.F1../37......4A.16.../..1......F.6...2/...CB..GE.....1./..D.........C.../......9CB...G..7/G..9....D..C3E..";

#[test]
fn one_solution_of_a_sparse_16x16_board_within_the_referee_budget() {
    one_solution_within_the_referee_budget(Shape::new(4, 4).unwrap(), SPARSE_16X16);
}

/// A stop test ends a long solve within a few hundred nodes of saying so, on both paths
/// that search long (16x16 and the general one), and the answer is then not complete;
/// a stop test that never fires changes nothing.
#[test]
fn a_stop_test_ends_a_solve_and_leaves_it_incomplete() {
    use puzzle_rules::sudoku::solver::{run, run_until, Request};
    use std::cell::Cell;
    let sixteen = Board::parse_rows(Shape::new(4, 4).unwrap(), SPARSE_16X16).unwrap();
    let twenty_five =
        Board::parse_rows(Shape::new(5, 5).unwrap(), SPARSE_25X25_FROM_A_GAME).unwrap();
    for board in [sixteen, twenty_five] {
        // Counting to two exhausts this budget (the boards have many solutions).
        let request = Request::count(2).within(20_000);
        let polls = Cell::new(0);
        let stopped = run_until(&board, request, &|| {
            polls.set(polls.get() + 1);
            polls.get() >= 3
        });
        assert!(!stopped.complete);
        assert_eq!(polls.get(), 3);
        assert!(stopped.nodes < 1_000, "{} nodes", stopped.nodes);
        let never = run_until(&board, request, &|| false);
        let plain = run(&board, request);
        assert_eq!(
            (never.count, never.complete, never.nodes),
            (plain.count, plain.complete, plain.nodes)
        );
        let one = Request::count(1).with_first().within(1_000_000);
        assert_eq!(
            run_until(&board, one, &|| false).first,
            run(&board, one).first
        );
    }
}

/// Random legal placements on empty 16x16 and 25x25 boards, 30% to 45% of the cells: a
/// decision made within a budget is made, the same, within every larger one (the restarts'
/// schedule does not depend on the budget), and "no solution" agrees with the complete
/// search.
#[test]
fn a_larger_budget_keeps_every_decision_of_a_smaller_one() {
    for (block, seed) in [(4, 16), (5, 25)] {
        larger_budgets_keep_decisions(Shape::new(block, block).unwrap(), seed);
    }
}

fn larger_budgets_keep_decisions(shape: Shape, seed: u64) {
    use puzzle_rules::sudoku::solver::count_solutions_within;
    let size = shape.size();
    let mut rng = SplitMix64(seed);
    let mut outcomes = [0usize; 3];
    for k in 0..24 {
        let mut board = Board::empty(shape);
        let target = shape.cells() * (30 + rng.below(16)) / 100;
        let mut placed = 0;
        while placed < target {
            let cell = rng.below(shape.cells());
            let (r, c) = (cell / size, cell % size);
            let mv = puzzle_rules::sudoku::Move::new(r, c, 1 + rng.below(size) as u8);
            if board.check(mv).is_ok() {
                board.place(mv);
                placed += 1;
            }
        }
        let mut decided = None;
        for budget in [300, 3_000, 30_000] {
            match count_solutions_within(&board, 1, budget) {
                Some(count) => {
                    assert!(decided.is_none_or(|d| d == count), "board {k}");
                    decided = Some(count);
                }
                None => assert_eq!(decided, None, "board {k}: a larger budget lost a decision"),
            }
        }
        if decided == Some(0) {
            assert_eq!(
                count_solutions_within(&board, 2, 1_000_000),
                Some(0),
                "board {k}"
            );
        }
        outcomes[decided.map_or(2, |d| d)] += 1;
    }
    eprintln!("{size}x{size}: no solution, a solution, undecided: {outcomes:?}");
    assert!(
        outcomes[0] > 0 && outcomes[1] > 0,
        "{size}x{size}: {outcomes:?}"
    );
}
