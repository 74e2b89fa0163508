//! Named cell masks of the 9x9 board and set-bit iteration, so evaluation code reads as
//! prose (blokie's `bitboard.h`: `row()`, `column()`, `cube()`; cozy-chess's bitboard
//! iterator) instead of hand-built constants and `trailing_zeros` loops. Bit
//! `row * 9 + col` is cell (`row`, `col`), as in [`super::Board`].

/// Number of cells on the board.
pub const CELLS: usize = 81;

/// All 81 board bits set (bit `row * 9 + col`, 0-based).
pub const FULL: u128 = (1u128 << CELLS) - 1;

/// The 27 regions that clear when full: rows 0-8, then columns 0-8, then 3x3 boxes 0-8
/// (boxes numbered row-major from the top-left).
pub const REGIONS: [u128; 27] = region_masks();

const fn region_masks() -> [u128; 27] {
    let mut out = [0u128; 27];
    let mut r = 0;
    while r < 9 {
        let mut c = 0;
        while c < 9 {
            let bit = 1u128 << (r * 9 + c);
            out[r] |= bit;
            out[9 + c] |= bit;
            out[18 + (r / 3) * 3 + c / 3] |= bit;
            c += 1;
        }
        r += 1;
    }
    out
}

/// Row `r` (0-8, top to bottom).
pub const fn row(r: usize) -> u128 {
    REGIONS[r]
}

/// Column `c` (0-8, left to right).
pub const fn column(c: usize) -> u128 {
    REGIONS[9 + c]
}

/// The 3x3 box `b` (0-8, row-major from the top-left).
pub const fn box3(b: usize) -> u128 {
    REGIONS[18 + b]
}

/// The cells on the board's edge.
pub const EDGES: u128 = row(0) | row(8) | column(0) | column(8);
/// Cells whose upper neighbour is across a box boundary (rows 3 and 6).
pub const BELOW_BOUNDARY: u128 = row(3) | row(6);
/// Cells whose lower neighbour is across a box boundary (rows 2 and 5).
pub const ABOVE_BOUNDARY: u128 = BELOW_BOUNDARY >> 9;
/// Cells whose left neighbour is across a box boundary (columns 3 and 6).
pub const RIGHT_OF_BOUNDARY: u128 = column(3) | column(6);
/// Cells whose right neighbour is across a box boundary (columns 2 and 5).
pub const LEFT_OF_BOUNDARY: u128 = RIGHT_OF_BOUNDARY >> 1;
/// Left ends of the horizontal 3-cell lines (columns 0-6).
pub const H3_ANCHORS: u128 = FULL & !column(7) & !column(8);
/// Top ends of the vertical 3-cell lines (rows 0-6).
pub const V3_ANCHORS: u128 = FULL & !(row(7) | row(8));
/// Anchors of a piece with a 3x3 bounding box: rows and columns 0-6.
pub const ANCHORS_3X3: u128 = H3_ANCHORS & V3_ANCHORS;
/// The centre box.
pub const CENTER_BOX: u128 = box3(4);
/// The four boxes at the middle of a side.
pub const SIDE_BOXES: u128 = box3(1) | box3(3) | box3(5) | box3(7);
/// The four corner boxes.
pub const CORNER_BOXES: u128 = box3(0) | box3(2) | box3(6) | box3(8);
/// The top-left cell of every box.
pub const BOX_CORNERS: u128 = (row(0) | row(3) | row(6)) & (column(0) | column(3) | column(6));

/// The set cells of `mask`, lowest first.
#[inline]
pub fn cells(mask: u128) -> SetBits {
    SetBits(mask)
}

/// Iterator over the set bits of a mask (cell indices, lowest first).
#[derive(Clone, Copy, Debug)]
pub struct SetBits(pub u128);

impl Iterator for SetBits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let cell = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_masks_match_the_hand_built_ones() {
        assert_eq!(row(0), 0x1ff);
        assert_eq!(row(8), 0x1ff << 72);
        assert_eq!(BELOW_BOUNDARY, 0x1ff << 27 | 0x1ff << 54);
        assert_eq!(BOX_CORNERS.count_ones(), 9);
        assert_eq!(ANCHORS_3X3.count_ones(), 49);
        assert_eq!(cells(0b1010).collect::<Vec<_>>(), vec![1, 3]);
        assert_eq!((column(0) >> (9 * 8)) & 1, 1);
    }
}
