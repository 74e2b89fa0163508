//! The 9x9 solver's look-up tables, computed at compile time by `const fn` (none is copied):
//! per band row and mini-row set, what the band logic of [`super`] keeps, locks or solves.

/// All 27 cells of a band.
pub(super) const ALL: u32 = (1 << 27) - 1;

/// A 3-bit mask of the boxes (mini-rows) of one 9-bit band row that still hold candidates.
pub(super) const fn shrink(row9: u32) -> u32 {
    ((row9 & 0o7 != 0) as u32)
        | (((row9 & 0o70 != 0) as u32) << 1)
        | (((row9 & 0o700 != 0) as u32) << 2)
}

pub(super) const SHRINK: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = shrink(i as u32) as u8;
        i += 1;
    }
    t
};

/// For a 9-bit set of live mini-rows (bit `3*row + box`), the 27-bit cell mask of the
/// mini-rows that belong to at least one row-to-box permutation made only of live mini-rows.
pub(super) const PERM_KEEP: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut keep = 0u32;
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let mut ok = true;
            let mut row = 0;
            while row < 3 {
                if s & (1 << (3 * row + perm[row])) == 0 {
                    ok = false;
                }
                row += 1;
            }
            if ok {
                let mut row = 0;
                while row < 3 {
                    keep |= 0o7 << (9 * row + 3 * perm[row]);
                    row += 1;
                }
            }
            p += 1;
        }
        t[s] = keep;
        s += 1;
    }
    t
};

/// For the 9-bit set of columns a digit may use in a band, the cells the other two bands
/// may keep: a box confined to one column in this band owns that column.
pub(super) const COL_LOCK: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut remove = 0u32;
        let mut bx = 0;
        while bx < 3 {
            let c: u32 = (cols as u32 >> (3 * bx)) & 7;
            if c.count_ones() == 1 {
                let col = c.trailing_zeros() + 3 * bx as u32;
                remove |= (1 << col) | (1 << (col + 9)) | (1 << (col + 18));
            }
            bx += 1;
        }
        t[cols] = ALL & !remove;
        cols += 1;
    }
    t
};

/// For the 9-bit set of columns where a digit can only go in this band (no other band has
/// it there), the cells this band may keep: a box holding such a column must put the digit
/// in it, so its other columns go. This is column-to-box claiming, which also finds hidden
/// singles in columns; the band logic above only covers rows and boxes.
pub(super) const CLAIM: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut only = 0;
    while only < 512 {
        let mut remove = 0u32;
        let mut bx = 0;
        while bx < 3 {
            let c = (only as u32 >> (3 * bx)) & 7;
            if c != 0 {
                let mut k = 0;
                while k < 3 {
                    if c & (1 << k) == 0 {
                        let col = 3 * bx as u32 + k;
                        remove |= (1 << col) | (1 << (col + 9)) | (1 << (col + 18));
                    }
                    k += 1;
                }
            }
            bx += 1;
        }
        t[only] = ALL & !remove;
        only += 1;
    }
    t
};

/// For a 9-bit band row, the row itself when it has exactly one cell, else 0.
pub(super) const ROW_SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut r = 0;
    while r < 512 {
        if (r as u32).count_ones() == 1 {
            t[r] = r as u16;
        }
        r += 1;
    }
    t
};

/// For a 3-bit set of the rows of a band, their cells.
pub(super) const ROWS_OF: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut s = 0;
    while s < 8 {
        let mut r = 0;
        while r < 3 {
            if s & (1 << r) != 0 {
                t[s] |= 0o777 << (9 * r);
            }
            r += 1;
        }
        s += 1;
    }
    t
};

/// For a 3-bit set of the boxes of a band, their cells.
pub(super) const BOXES_OF: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut s = 0;
    while s < 8 {
        let mut b = 0;
        while b < 3 {
            if s & (1 << b) != 0 {
                t[s] |= 0o007_007_007 << (3 * b);
            }
            b += 1;
        }
        s += 1;
    }
    t
};

/// For a cell of a band (0..27), the cells of the same digit in the same band that may stay:
/// everything but its row and box peers (the cell itself stays).
pub(super) const OWN_BAND_KEEP: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let row = i / 9;
        let bx = (i % 9) / 3;
        let mut peers = 0u32;
        let mut j = 0;
        while j < 27 {
            if j / 9 == row || (j % 9) / 3 == bx {
                peers |= 1 << j;
            }
            j += 1;
        }
        t[i] = (ALL & !peers) | (1 << i);
        i += 1;
    }
    t
};

/// For a cell of a band, the three cells of its column within any band.
pub(super) const COLUMN: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let col = i % 9;
        t[i] = (1 << col) | (1 << (col + 9)) | (1 << (col + 18));
        i += 1;
    }
    t
};

/// The six ways a digit can cross a band: `PERMS[p][row]` is the box (mini-row) it takes
/// in `row`. Read with rows as bands and boxes as the columns of one box, the same six are
/// the ways a digit crosses a stack of boxes (a vertical band).
pub(super) const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// For a 9-bit set of live mini-rows (bit `3*row + box`), the set of [`PERMS`] made only of
/// live mini-rows: a digit's possible configurations in the band.
pub(super) const CONFIGS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut s = 0;
    while s < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            if s & (1 << perm[0]) != 0
                && s & (1 << (3 + perm[1])) != 0
                && s & (1 << (6 + perm[2])) != 0
            {
                t[s] |= 1 << p;
            }
            p += 1;
        }
        s += 1;
    }
    t
};

/// For a set of configurations (see [`CONFIGS`]), the mini-rows (bit `3*row + box`) that
/// every one of them uses: the digit must go there.
pub(super) const CONFIG_MUST: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut set = 1;
    while set < 64 {
        let mut must = 0o777u16;
        let mut p = 0;
        while p < 6 {
            if set & (1 << p) != 0 {
                let mut used = 0u16;
                let mut row = 0;
                while row < 3 {
                    used |= 1 << (3 * row + PERMS[p][row]);
                    row += 1;
                }
                must &= used;
            }
            p += 1;
        }
        t[set] = must;
        set += 1;
    }
    t
};

/// For a set of configurations (see [`CONFIGS`]), the mini-rows (bit `3*row + box`) that at
/// least one of them uses: where the digit may still go.
pub(super) const CONFIG_ANY: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut set = 1;
    while set < 64 {
        let mut p = 0;
        while p < 6 {
            if set & (1 << p) != 0 {
                let mut row = 0;
                while row < 3 {
                    t[set] |= 1 << (3 * row + PERMS[p][row]);
                    row += 1;
                }
            }
            p += 1;
        }
        set += 1;
    }
    t
};

/// For a 9-bit set of mini-rows of a band (bit `3*row + box`), their cells.
pub(super) const MINIROW_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut k = 0;
        while k < 9 {
            if s & (1 << k) != 0 {
                t[s] |= 0o7 << (3 * k);
            }
            k += 1;
        }
        s += 1;
    }
    t
};

/// For a configuration of [`PERMS`] in a horizontal band, the cells it leaves the digit.
pub(super) const CONFIG_CELLS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        let mut row = 0;
        while row < 3 {
            t[p] |= 0o7 << (9 * row + 3 * PERMS[p][row]);
            row += 1;
        }
        p += 1;
    }
    t
};

/// For a vertical band (stack) `v` and a configuration `p` of [`PERMS`] (band to column of
/// the stack), `STACK_CONFIG_CELLS[v][p][band]` is the cells band `band` keeps for the digit.
pub(super) const STACK_CONFIG_CELLS: [[[u32; 3]; 6]; 3] = {
    let mut t = [[[0u32; 3]; 6]; 3];
    let mut v = 0;
    while v < 3 {
        let mut p = 0;
        while p < 6 {
            let mut band = 0;
            while band < 3 {
                let mut remove = 0u32;
                let mut j = 0;
                while j < 3 {
                    if j != PERMS[p][band] {
                        let col = 3 * v + j;
                        remove |= (1 << col) | (1 << (col + 9)) | (1 << (col + 18));
                    }
                    j += 1;
                }
                t[v][p][band] = ALL & !remove;
                band += 1;
            }
            p += 1;
        }
        v += 1;
    }
    t
};

/// `BAND_BYTES[k][band]` selects, in the `k`-th `u64` of [`super::Grid::configs`], the bytes of the
/// digit-bands of `band` (byte `i` of the array belongs to band `i % 3`; bytes 27.. are 0).
pub(super) const BAND_BYTES: [[u64; 3]; 4] = {
    let mut t = [[0u64; 3]; 4];
    let mut i = 0;
    while i < 27 {
        t[i / 8][i % 3] |= 0xff << (8 * (i % 8));
        i += 1;
    }
    t
};
