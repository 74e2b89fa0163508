//! The Battleship check on seeded random fleets: every field placed by the rules is valid,
//! and one flipped cell always makes it invalid (the fleet has exactly 20 cells).

use puzzle_rules::rng::SplitMix64;
use referees::battleship::{Cell, Field, FleetFault, FLEET, SIZE};

type Grid = [[bool; SIZE]; SIZE];

/// Whether a ship may go on these cells: on the field, and no ship cell in any of them or
/// in any of their eight neighbours.
fn fits(grid: &Grid, cells: &[(usize, usize)]) -> bool {
    cells.iter().all(|&(row, column)| {
        row < SIZE
            && column < SIZE
            && (row.saturating_sub(1)..=(row + 1).min(SIZE - 1)).all(|r| {
                (column.saturating_sub(1)..=(column + 1).min(SIZE - 1)).all(|c| !grid[r][c])
            })
    })
}

/// The classic fleet placed at random, largest ships first.
fn random_fleet(rng: &mut SplitMix64) -> Grid {
    'again: loop {
        let mut grid = [[false; SIZE]; SIZE];
        for (size, count) in FLEET {
            for _ in 0..count {
                let mut tries = 0;
                let cells = loop {
                    tries += 1;
                    if tries > 1000 {
                        continue 'again;
                    }
                    let (row, column, down) = (rng.below(SIZE), rng.below(SIZE), rng.below(2));
                    let cells: Vec<(usize, usize)> = (0..size)
                        .map(|k| {
                            if down == 1 {
                                (row + k, column)
                            } else {
                                (row, column + k)
                            }
                        })
                        .collect();
                    if fits(&grid, &cells) {
                        break cells;
                    }
                };
                for (r, c) in cells {
                    grid[r][c] = true;
                }
            }
        }
        return grid;
    }
}

#[test]
fn random_fleets_are_valid_and_one_flip_breaks_them() {
    let mut rng = SplitMix64(0xBA77_1E5A);
    for _ in 0..2_000 {
        let grid = random_fleet(&mut rng);
        let field = Field::new(grid);
        assert_eq!(field.check(), Ok(()), "\n{field}");
        assert_eq!(field.to_string().parse::<Field>(), Ok(field.clone()));

        let (row, column) = (rng.below(SIZE), rng.below(SIZE));
        let mut flipped = grid;
        flipped[row][column] = !flipped[row][column];
        let fault = Field::new(flipped).check();
        assert!(fault.is_err(), "{row},{column}\n{field}");
        // A lone new cell, with no ship around it, is a fifth 1-ship and nothing else.
        if !grid[row][column] && fits(&grid, &[(row, column)]) {
            let fifth = FleetFault::WrongCount {
                size: 1,
                expected: 4,
                found: 5,
            };
            assert_eq!(fault, Err(fifth), "{}\n{field}", Cell { row, column });
        }
    }
}
