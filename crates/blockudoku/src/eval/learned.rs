//! The learned value of a board: an n-tuple network, one table of 512 values per tuple of 9
//! cells, the board's value the sum of the entries its tuples select. The tuples are every
//! 3x3 window of the board (49), every row (9) and every column (9): 67 lookups, about a
//! hundred nanoseconds.
//!
//! What it learns (`blockudoku-lab train`): the expected discounted sum, over the rounds to
//! come, of the chance that the next hand cannot be placed, played by the classic default
//! agent, as a negative number (0: no trouble ahead; -0.01: a crisis about as bad as one dead
//! hand in a hundred). Training updates the eight images of each board under the symmetries
//! of the square alike, so the value stays (nearly) symmetric while evaluating only one.
//!
//! The weights are a file (`data/value.bin`): a header, the tables as little-endian `f32`, and
//! a checksum. The engine embeds the file it was built with ([`shipped`]).

use std::sync::OnceLock;

/// Tuples: 49 windows, 9 rows, 9 columns.
pub const TUPLES: usize = 67;
/// Entries per tuple (9 cells).
pub const ENTRIES: usize = 512;
const MAGIC: &[u8; 8] = b"BKUVAL01";
const HEADER: usize = 8 + 4 + 4 + 8 + 8;

/// The weights file the engine is built with.
pub const SHIPPED_FILE: &[u8] = include_bytes!("../../data/value.bin");

/// The checksum (FNV-1a 64 of everything before it) of the shipped weights file.
pub const SHIPPED_CHECKSUM: u64 = 0xa886_fe51_308d_24a6;

/// An n-tuple network and what it was trained on.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    weights: Box<[[f32; ENTRIES]; TUPLES]>,
    /// Training episodes so far.
    pub episodes: u64,
    /// Training rounds so far.
    pub rounds: u64,
}

/// Column 0's cells.
const COL0: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        m |= 1 << (9 * r);
        r += 1;
    }
    m
};

/// Gathers column 0 (bits `9r`) into bits `72 + r`: the products `9r + 72 - 8k` never collide.
const GATHER: u128 = {
    let mut m = 0u128;
    let mut k = 0;
    while k < 9 {
        m |= 1 << (72 - 8 * k);
        k += 1;
    }
    m
};

/// The tuple indices of the board `b`: windows by top-left cell (row-major), rows, columns.
#[inline(always)]
pub fn indices(b: u128) -> [u16; TUPLES] {
    let mut out = [0u16; TUPLES];
    for r in 0..7 {
        let x = (b >> (9 * r)) as u64;
        for c in 0..7 {
            let i = (x >> c) & 7 | ((x >> (9 + c)) & 7) << 3 | ((x >> (18 + c)) & 7) << 6;
            out[r * 7 + c] = i as u16;
        }
    }
    for r in 0..9 {
        out[49 + r] = ((b >> (9 * r)) & 511) as u16;
    }
    for c in 0..9 {
        let col = ((b >> c) & COL0).wrapping_mul(GATHER) >> 72;
        out[58 + c] = (col & 511) as u16;
    }
    out
}

/// The cell `(row, col)` goes to under symmetry `s` of the square (0: identity).
fn image_cell(s: usize, r: usize, c: usize) -> usize {
    let (r, c) = if s & 4 != 0 { (c, r) } else { (r, c) };
    let r = if s & 1 != 0 { 8 - r } else { r };
    let c = if s & 2 != 0 { 8 - c } else { c };
    r * 9 + c
}

/// The board `b` under symmetry `s` (0 to 7) of the square.
pub fn image(b: u128, s: usize) -> u128 {
    let mut out = 0;
    for cell in 0..81 {
        if b >> cell & 1 == 1 {
            out |= 1u128 << image_cell(s, cell / 9, cell % 9);
        }
    }
    out
}

fn zero_tables() -> Box<[[f32; ENTRIES]; TUPLES]> {
    vec![[0.0f32; ENTRIES]; TUPLES]
        .into_boxed_slice()
        .try_into()
        .expect("TUPLES tables")
}

/// FNV-1a, 64 bits.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Net {
    /// A network whose value is 0 everywhere.
    pub fn zeros() -> Net {
        Net {
            weights: zero_tables(),
            episodes: 0,
            rounds: 0,
        }
    }

    /// The value of the board bits `b`.
    #[inline(always)]
    pub fn value(&self, b: u128) -> f32 {
        let idx = indices(b);
        let mut sum = 0.0;
        for (table, &i) in self.weights.iter().zip(&idx) {
            sum += table[i as usize & (ENTRIES - 1)];
        }
        sum
    }

    /// Moves the value of `b` and of its seven images under the symmetries of the square by
    /// `step` each (spread over their tuples).
    pub fn update(&mut self, b: u128, step: f32) {
        let each = step / TUPLES as f32;
        for s in 0..8 {
            for (table, &i) in self.weights.iter_mut().zip(&indices(image(b, s))) {
                table[i as usize] += each;
            }
        }
    }

    /// The weights file: header, tables, checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + TUPLES * ENTRIES * 4 + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(TUPLES as u32).to_le_bytes());
        out.extend_from_slice(&(ENTRIES as u32).to_le_bytes());
        out.extend_from_slice(&self.episodes.to_le_bytes());
        out.extend_from_slice(&self.rounds.to_le_bytes());
        for w in self.weights.iter().flatten() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a weights file, checking its header, size and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, String> {
        let want = HEADER + TUPLES * ENTRIES * 4 + 8;
        if bytes.len() != want {
            return Err(format!("{} bytes, not {want}", bytes.len()));
        }
        if &bytes[..8] != MAGIC {
            return Err("not a value weights file (bad magic)".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        if u32_at(8) as usize != TUPLES || u32_at(12) as usize != ENTRIES {
            return Err("tables of another shape".into());
        }
        let body = want - 8;
        if checksum(&bytes[..body]) != u64_at(body) {
            return Err("checksum does not match".into());
        }
        let mut weights = zero_tables();
        for (k, c) in bytes[HEADER..body].chunks_exact(4).enumerate() {
            weights[k / ENTRIES][k % ENTRIES] = f32::from_le_bytes(c.try_into().expect("4 bytes"));
        }
        Ok(Net {
            weights,
            episodes: u64_at(16),
            rounds: u64_at(24),
        })
    }
}

/// The network the engine plays with: the embedded weights file.
pub fn shipped() -> &'static Net {
    static NET: OnceLock<Net> = OnceLock::new();
    NET.get_or_init(|| Net::from_bytes(SHIPPED_FILE).expect("the embedded weights file is valid"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn plain_indices(b: u128) -> [u16; TUPLES] {
        let cell = |r: usize, c: usize| (b >> (r * 9 + c) & 1) as u16;
        let mut out = [0u16; TUPLES];
        for r in 0..7 {
            for c in 0..7 {
                let mut i = 0;
                for k in 0..9 {
                    i |= cell(r + k / 3, c + k % 3) << k;
                }
                out[r * 7 + c] = i;
            }
        }
        for k in 0..9 {
            for j in 0..9 {
                out[49 + k] |= cell(k, j) << j;
                out[58 + k] |= cell(j, k) << j;
            }
        }
        out
    }

    #[test]
    fn indices_match_a_plain_count() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        for _ in 0..2000 {
            let b = (0..81).fold(0u128, |m, i| m | (rng.gen_bool(0.5) as u128) << i);
            assert_eq!(indices(b), plain_indices(b));
        }
    }

    #[test]
    fn symmetric_updates_give_symmetric_values_and_files_round_trip() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(6);
        let mut net = Net::zeros();
        let boards: Vec<u128> = (0..50)
            .map(|_| (0..81).fold(0u128, |m, i| m | (rng.gen_bool(0.4) as u128) << i))
            .collect();
        for &b in &boards {
            net.update(b, -0.3);
        }
        for &b in &boards {
            let v = net.value(b);
            assert!(v < 0.0);
            for s in 1..8 {
                assert!((net.value(image(b, s)) - v).abs() < 1e-5);
            }
        }
        let back = Net::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(back, net);
        let mut bad = net.to_bytes();
        bad[100] ^= 1;
        assert!(Net::from_bytes(&bad).is_err());
    }

    // The file the engine embeds is the one in the crate's data folder, and it is the file
    // whose checksum the engine names.
    #[test]
    fn the_shipped_file_is_the_one_the_engine_reads() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/value.bin");
        let on_disk = std::fs::read(path).unwrap();
        assert_eq!(on_disk, SHIPPED_FILE);
        let body = on_disk.len() - 8;
        assert_eq!(checksum(&on_disk[..body]), SHIPPED_CHECKSUM);
        assert!(shipped().rounds > 0, "the shipped network was trained");
    }
}
