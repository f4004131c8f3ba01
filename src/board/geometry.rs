//! Board sizes and their neighbour graphs (8-connected, column-major cell numbers).

use super::{BoardError, MAX_CELLS, MAX_SIDE};
use std::fmt;
use std::str::FromStr;

/// A board size: `cols` columns by `rows` rows, each from 1 to 6 (`3x4` = 3 columns, 4 rows).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Size {
    cols: u8,
    rows: u8,
}

impl Size {
    /// A size, if both sides are within 1..=6.
    pub fn new(cols: usize, rows: usize) -> Result<Size, BoardError> {
        if (1..=MAX_SIDE).contains(&cols) && (1..=MAX_SIDE).contains(&rows) {
            Ok(Size {
                cols: cols as u8,
                rows: rows as u8,
            })
        } else {
            Err(BoardError::BadSize {
                got: format!("{cols}x{rows}"),
            })
        }
    }

    /// Columns.
    pub fn cols(self) -> usize {
        self.cols as usize
    }

    /// Rows.
    pub fn rows(self) -> usize {
        self.rows as usize
    }

    /// Number of cells.
    pub fn cells(self) -> usize {
        self.cols() * self.rows()
    }

    /// Cell number of column `col`, row `row`.
    pub fn cell(self, col: usize, row: usize) -> usize {
        col * self.rows() + row
    }

    /// `(column, row)` of a cell.
    pub fn coords(self, cell: usize) -> (usize, usize) {
        (cell / self.rows(), cell % self.rows())
    }

    /// Whether the board is square (8 symmetries rather than 4).
    pub fn is_square(self) -> bool {
        self.cols == self.rows
    }
}

impl FromStr for Size {
    type Err = BoardError;

    fn from_str(s: &str) -> Result<Size, BoardError> {
        let bad = || BoardError::BadSize { got: s.to_string() };
        let (c, r) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let c: usize = c.parse().map_err(|_| bad())?;
        let r: usize = r.parse().map_err(|_| bad())?;
        Size::new(c, r).map_err(|_| bad())
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

/// The neighbour graph of one size, precomputed once and shared by the hot loops.
#[derive(Clone, Debug)]
pub struct Geometry {
    size: Size,
    /// `neighbor_masks[c]` has bit `n` set when cell `n` touches cell `c`.
    neighbor_masks: Vec<u64>,
    /// `neighbors[c]` lists the cells touching `c`, in increasing order.
    neighbors: Vec<Vec<u8>>,
}

impl Geometry {
    /// The neighbour graph of `size`.
    pub fn new(size: Size) -> Geometry {
        let n = size.cells();
        debug_assert!(n <= MAX_CELLS);
        let mut neighbor_masks = vec![0u64; n];
        let mut neighbors = vec![Vec::new(); n];
        for cell in 0..n {
            let (c, r) = size.coords(cell);
            for other in 0..n {
                let (oc, or) = size.coords(other);
                if other != cell && c.abs_diff(oc) <= 1 && r.abs_diff(or) <= 1 {
                    neighbor_masks[cell] |= 1 << other;
                    neighbors[cell].push(other as u8);
                }
            }
        }
        Geometry {
            size,
            neighbor_masks,
            neighbors,
        }
    }

    /// The size this graph is for.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.size.cells()
    }

    /// Bit mask of the cells touching `cell`.
    pub fn neighbor_mask(&self, cell: usize) -> u64 {
        self.neighbor_masks[cell]
    }

    /// The cells touching `cell`, in increasing order.
    pub fn neighbors(&self, cell: usize) -> &[u8] {
        &self.neighbors[cell]
    }

    /// How many cells touch `cell`.
    pub fn degree(&self, cell: usize) -> usize {
        self.neighbors[cell].len()
    }

    /// Whether a cell is a corner of the board (at most 3 neighbours on boards of side ≥ 2;
    /// on a 1-wide board the two ends).
    pub fn is_corner(&self, cell: usize) -> bool {
        let (c, r) = self.size.coords(cell);
        (c == 0 || c + 1 == self.size.cols()) && (r == 0 || r + 1 == self.size.rows())
    }

    /// Whether a cell is an edge of the board: on its border but not a corner.
    pub fn is_edge(&self, cell: usize) -> bool {
        let (c, r) = self.size.coords(cell);
        let border = c == 0 || c + 1 == self.size.cols() || r == 0 || r + 1 == self.size.rows();
        border && !self.is_corner(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_reject() {
        assert_eq!("3x4".parse::<Size>().unwrap().cells(), 12);
        assert_eq!("3x4".parse::<Size>().unwrap().rows(), 4);
        for bad in ["0x3", "7x1", "4", "4x", "x4", "axb", "4x4x4"] {
            assert!(bad.parse::<Size>().is_err(), "{bad}");
        }
    }

    #[test]
    fn neighbours_of_4x4() {
        let g = Geometry::new("4x4".parse().unwrap());
        assert_eq!(g.neighbors(0), &[1, 4, 5]);
        assert_eq!(g.neighbors(5), &[0, 1, 2, 4, 6, 8, 9, 10]);
        assert_eq!(g.degree(15), 3);
        assert!(g.is_corner(0) && g.is_corner(3) && g.is_corner(12) && g.is_corner(15));
        assert!(!g.is_corner(5));
    }

    #[test]
    fn column_major_3x4() {
        let s: Size = "3x4".parse().unwrap();
        // cell 4 is column 1, row 0.
        assert_eq!(s.coords(4), (1, 0));
        assert_eq!(s.cell(2, 3), 11);
    }
}
