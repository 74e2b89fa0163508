//! Cross-check of the Connect Four referee on seeded random move lists against a naive
//! referee: a plain grid of stacks, and after every move a scan of every four-cell window
//! of the whole board.

use puzzle_rules::rng::SplitMix64;
use referees::connect_four::{
    decide, decide_with, AfterDecision, Colour, Decision, Game, IllegalMove, Move, MoveFault,
    Outcome, Verdict, COLUMNS, ROWS,
};

/// The naive board: each column a stack of discs, bottom first.
type Stacks = Vec<Vec<Colour>>;

fn at(stacks: &Stacks, column: isize, row: isize) -> Option<Colour> {
    if column < 0 || row < 0 || column >= COLUMNS as isize {
        return None;
    }
    stacks[column as usize].get(row as usize).copied()
}

/// Whether `colour` fills any window of four cells in a line, looking at every window.
fn naive_four(stacks: &Stacks, colour: Colour) -> bool {
    let mut found = false;
    for column in 0..COLUMNS as isize {
        for row in 0..ROWS as isize {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                found |= (0..4).all(|k| at(stacks, column + k * dc, row + k * dr) == Some(colour));
            }
        }
    }
    found
}

fn text(column: usize, colour: Colour) -> String {
    format!("{}_{}", (b'A' + column as u8) as char, colour.name())
}

/// A random legal game from the empty board, stopped at its decision or at a random length,
/// with the naive referee's verdict; the incremental [`Game`] is checked after every move.
fn random_game(rng: &mut SplitMix64) -> (Vec<String>, Verdict, Stacks) {
    let mut stacks: Stacks = vec![Vec::new(); COLUMNS];
    let mut game = Game::new();
    let mut moves = Vec::new();
    let mut colour = if rng.below(2) == 0 {
        Colour::Red
    } else {
        Colour::Yellow
    };
    // Most games play to their decision; some stop early to exercise undecided lists.
    let stop_at = if rng.below(4) == 0 {
        rng.below(COLUMNS * ROWS)
    } else {
        usize::MAX
    };
    loop {
        let filled = stacks.iter().map(Vec::len).sum::<usize>();
        if filled == stop_at {
            return (moves, Verdict::Undecided { moves: filled }, stacks);
        }
        let open: Vec<usize> = (0..COLUMNS).filter(|&c| stacks[c].len() < ROWS).collect();
        let column = open[rng.below(open.len())];
        stacks[column].push(colour);
        moves.push(text(column, colour));

        let index = moves.len() - 1;
        let naive = if naive_four(&stacks, colour) {
            Some(Outcome::Winner(colour))
        } else if stacks.iter().all(|s| s.len() == ROWS) {
            Some(Outcome::Draw)
        } else {
            None
        };
        // The player who did not move cannot have a four the game failed to end on.
        assert!(!naive_four(&stacks, colour.other()), "{moves:?}");
        let decision = naive.map(|outcome| Decision { outcome, at: index });
        assert_eq!(
            game.play(Move::new(column, colour).unwrap()),
            Ok(decision),
            "{moves:?}"
        );
        for c in 0..COLUMNS {
            assert_eq!(game.board().height(c), stacks[c].len());
            for r in 0..ROWS {
                assert_eq!(game.board().disc(c, r), at(&stacks, c as isize, r as isize));
            }
        }
        if let Some(decision) = decision {
            return (moves, Verdict::Decided(decision), stacks);
        }
        colour = colour.other();
    }
}

#[test]
fn random_games_agree_with_a_naive_scan() {
    let mut rng = SplitMix64(0xC0FF_EE42);
    let (mut wins, mut draws, mut undecided) = (0, 0, 0);
    for _ in 0..20_000 {
        let (moves, verdict, _) = random_game(&mut rng);
        assert_eq!(decide(&moves), Ok(verdict), "{moves:?}");
        assert_eq!(
            decide_with(&moves, AfterDecision::Ignore),
            Ok(verdict),
            "{moves:?}"
        );
        match verdict {
            Verdict::Decided(decision) => {
                if decision.outcome == Outcome::Draw {
                    draws += 1;
                } else {
                    wins += 1;
                }
                // One more move: an error by default, ignored on request.
                let mut longer = moves.clone();
                longer.push(text(rng.below(COLUMNS), Colour::Red));
                let e = decide(&longer).unwrap_err();
                assert_eq!(e.index, moves.len());
                assert_eq!(
                    e.fault,
                    MoveFault::Illegal(IllegalMove::AfterDecision {
                        decided_at: decision.at
                    })
                );
                assert_eq!(decide_with(&longer, AfterDecision::Ignore), Ok(verdict));
            }
            Verdict::Undecided { .. } => undecided += 1,
        }
    }
    // Every kind of ending occurred, so none of the branches above went untested.
    assert!(
        wins > 0 && draws > 0 && undecided > 0,
        "{wins} {draws} {undecided}"
    );
}

#[test]
fn random_bad_moves_are_named_at_their_index() {
    let mut rng = SplitMix64(7);
    for _ in 0..5_000 {
        let (moves, verdict, stacks) = random_game(&mut rng);
        if !matches!(verdict, Verdict::Undecided { .. }) || moves.is_empty() {
            continue;
        }
        let last = moves[moves.len() - 1].ends_with("Red");
        let mover = if last { Colour::Red } else { Colour::Yellow };
        let full: Vec<usize> = (0..COLUMNS).filter(|&c| stacks[c].len() == ROWS).collect();
        let (bad, fault) = match rng.below(3) {
            0 => (
                text(rng.below(COLUMNS), mover),
                MoveFault::Illegal(IllegalMove::OutOfTurn { colour: mover }),
            ),
            1 if !full.is_empty() => {
                let column = full[rng.below(full.len())];
                (
                    text(column, mover.other()),
                    MoveFault::Illegal(IllegalMove::ColumnFull { column }),
                )
            }
            _ => {
                let bad = ["H_Red", "A-Red", "A_Green", "", "a_Yellow"][rng.below(5)];
                let fault = MoveFault::Parse(bad.parse::<Move>().unwrap_err());
                (bad.to_string(), fault)
            }
        };
        let mut list = moves.clone();
        list.push(bad.clone());
        // Moves after the bad one do not matter: the first fault is the one named.
        list.push("Q_Nobody".to_string());
        let e = decide(&list).unwrap_err();
        assert_eq!((e.index, e.text, e.fault), (moves.len(), bad, fault));
    }
}
