//! The cell order of a tree: which cell each position (0 = the top) holds.

use crate::board::Geometry;

/// The cell order: `order[p]` is the cell at position `p` (0 = top of the tree).
#[derive(Clone, Debug)]
pub struct CellOrder {
    order: Vec<u8>,
    pos: Vec<u8>,
}

impl CellOrder {
    /// Centre cells first, then edges, then corners: by neighbour count (most first), then by
    /// distance from the centre, then by cell number.
    pub fn centre_first(geometry: &Geometry) -> CellOrder {
        CellOrder::centre_first_by(geometry, |_| 0)
    }

    /// The order of [`CellOrder::centre_first`], with the cells of each ring (the same
    /// neighbour count and distance from the centre) taken fewest letters first. A cell of
    /// few letters forced early splits the class into few sub-classes, each with a much
    /// lower bound; a cell of many rare letters (`bcdfgmpqvwxz`) forced early makes many
    /// sub-classes whose bounds hardly fall. The whole 4x4 proof, estimated with both orders
    /// side by side, took 0.70 of the fixed order's time; single classes 0.42-1.29, and the
    /// 37 classes of the reference table (the published split) 0.87 all together, 0.51-1.44
    /// a class (docs/NOTES-bench.md, "The cell order by letter count" and the twenty-third
    /// session's section above it). The breaker's default for most classes
    /// ([`CellOrder::for_class`] says which).
    pub fn fewest_letters_first(geometry: &Geometry, cells: &[u32]) -> CellOrder {
        assert_eq!(cells.len(), geometry.cells(), "one letter set per cell");
        CellOrder::centre_first_by(geometry, |cell| cells[cell].count_ones())
    }

    /// A centre or edge cell of at least this many letters, short of all 26, makes a class
    /// keep the centre-first order ([`CellOrder::for_class`]).
    pub const LARGE_INNER_SET: u32 = 13;

    /// The order a breaker gives a class's trees by default:
    /// [`CellOrder::fewest_letters_first`], unless a cell that is not a corner has from
    /// [`CellOrder::LARGE_INNER_SET`] to 25 letters; then [`CellOrder::centre_first`].
    /// The letter count was measured to win where the centre and edges have sets of 6, 8
    /// and 12 letters, with whole corners (the default partitions) and with corners of 7 and
    /// 19 (the reference's published split). With the consonant edges merged into one set
    /// of 20, it put the vowel edges before the consonant ones and took 1.09-1.39x the tree
    /// nodes of the centre-first order on five of six 4x4 classes (0.95 on the sixth, whose
    /// edges hold one such set; docs/NOTES-bench.md, "The cell order of merged edges").
    ///
    /// Which cell this puts on top is part of the run format: a journal's top-split records
    /// name only a letter of it. Change it, and bump `FORMAT_VERSION` (a test in
    /// src/pipeline/manifest.rs says so).
    pub fn for_class(geometry: &Geometry, cells: &[u32]) -> CellOrder {
        let large_inner = |(cell, set): (usize, &u32)| {
            !geometry.is_corner(cell) && (Self::LARGE_INNER_SET..26).contains(&set.count_ones())
        };
        if cells.iter().enumerate().any(large_inner) {
            CellOrder::centre_first(geometry)
        } else {
            CellOrder::fewest_letters_first(geometry, cells)
        }
    }

    /// Centre first; within a ring, by `key` (smallest first), then by cell number.
    fn centre_first_by(geometry: &Geometry, key: impl Fn(usize) -> u32) -> CellOrder {
        let size = geometry.size();
        let mut order: Vec<u8> = (0..geometry.cells() as u8).collect();
        let dist = |cell: u8| {
            let (c, r) = size.coords(cell as usize);
            let dc = (2 * c as i32 + 1 - size.cols() as i32).abs();
            let dr = (2 * r as i32 + 1 - size.rows() as i32).abs();
            dc * dc + dr * dr
        };
        order.sort_by_key(|&c| {
            (
                std::cmp::Reverse(geometry.degree(c as usize)),
                dist(c),
                key(c as usize),
                c,
            )
        });
        CellOrder::from_order(order)
    }

    /// The order of `order`'s cells, top first, with each cell's position.
    fn from_order(order: Vec<u8>) -> CellOrder {
        let mut pos = vec![0u8; order.len()];
        for (p, &c) in order.iter().enumerate() {
            pos[c as usize] = p as u8;
        }
        CellOrder { order, pos }
    }

    /// An order written as cell numbers, top first: `"5,9,6,10,..."` (every cell of a board
    /// of `cells` cells exactly once).
    pub fn parse(cells: usize, text: &str) -> Result<CellOrder, CellOrderError> {
        let bad = |problem: String| CellOrderError {
            text: text.to_string(),
            problem,
        };
        let mut order = Vec::with_capacity(cells);
        for part in text.split(',') {
            let cell: usize = part
                .trim()
                .parse()
                .map_err(|_| bad(format!("'{}' is not a cell number", part.trim())))?;
            if cell >= cells {
                return Err(bad(format!(
                    "cell {cell} is not on the board (its cells are 0 to {})",
                    cells - 1
                )));
            }
            if order.contains(&(cell as u8)) {
                return Err(bad(format!("cell {cell} appears twice")));
            }
            order.push(cell as u8);
        }
        if order.len() != cells {
            return Err(bad(format!("{} cells given, {cells} needed", order.len())));
        }
        Ok(CellOrder::from_order(order))
    }

    /// The cell at position `p`.
    pub fn cell(&self, p: usize) -> usize {
        self.order[p] as usize
    }

    /// The mask of the cells at the first `k` positions.
    pub fn prefix_mask(&self, k: usize) -> u64 {
        self.order[..k].iter().fold(0, |mask, &c| mask | 1 << c)
    }

    /// The position of `cell`.
    pub fn pos(&self, cell: usize) -> usize {
        self.pos[cell] as usize
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

impl std::fmt::Display for CellOrder {
    /// Cell numbers, top first, separated by commas (what [`CellOrder::parse`] reads).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (p, c) in self.order.iter().enumerate() {
            if p > 0 {
                f.write_str(",")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// A cell order that is not a permutation of the board's cells.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "bad cell order '{text}': {problem}; give every cell number once, top first, e.g. '4,1,3,5,7,0,2,6,8'"
)]
pub struct CellOrderError {
    text: String,
    problem: String,
}
