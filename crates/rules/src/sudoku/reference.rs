//! A deliberately simple second solver, kept only to cross-check the fast ones in tests.
//!
//! It shares no code with [`super::solver`] or [`super::solver::nine`]: no masks, no
//! propagation, no board type. It scans the grid for the empty cell with the fewest legal
//! values (checked by looking at the row, column and block one cell at a time) and tries
//! each value. Slow, but short enough to be checked by eye.

/// Counts solutions of the grid `cells` (row-major, `0` empty) of block shape `m` x `n`, up
/// to `limit`. The givens are assumed free of duplicates.
pub fn count_solutions(m: usize, n: usize, cells: &[u8], limit: usize) -> usize {
    let mut grid = cells.to_vec();
    let mut count = 0;
    if limit > 0 {
        search(m, n, &mut grid, limit, &mut count);
    }
    count
}

/// True when `value` may go in the empty cell `row`, `col`.
fn allowed(m: usize, n: usize, grid: &[u8], row: usize, col: usize, value: u8) -> bool {
    let size = m * n;
    for k in 0..size {
        if grid[row * size + k] == value || grid[k * size + col] == value {
            return false;
        }
    }
    let (top, left) = (row / m * m, col / n * n);
    for r in top..top + m {
        for c in left..left + n {
            if grid[r * size + c] == value {
                return false;
            }
        }
    }
    true
}

fn search(m: usize, n: usize, grid: &mut [u8], limit: usize, count: &mut usize) {
    let size = m * n;
    let mut best: Option<(usize, Vec<u8>)> = None;
    for cell in 0..size * size {
        if grid[cell] != 0 {
            continue;
        }
        let values: Vec<u8> = (1..=size as u8)
            .filter(|&v| allowed(m, n, grid, cell / size, cell % size, v))
            .collect();
        if best.as_ref().is_none_or(|(_, b)| values.len() < b.len()) {
            // A cell with no value is a dead end; one with a single value is as good as it
            // gets. Stopping the scan there is what keeps this naive search usable.
            let done = values.len() <= 1;
            best = Some((cell, values));
            if done {
                break;
            }
        }
    }
    let Some((cell, values)) = best else {
        *count += 1;
        return;
    };
    for v in values {
        grid[cell] = v;
        search(m, n, grid, limit, count);
        grid[cell] = 0;
        if *count >= limit {
            return;
        }
    }
}
