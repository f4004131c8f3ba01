//! The symmetries of a board size (8 for squares, 4 otherwise) and canonical forms.

use super::{Board, Size};

/// The symmetry group of one size, as cell permutations.
///
/// `perms[k][i]` is the cell whose letter lands on cell `i` under symmetry `k`; `perms[0]` is
/// the identity.
#[derive(Clone, Debug)]
pub struct Symmetries {
    perms: Vec<Vec<u8>>,
}

impl Symmetries {
    /// The symmetries of `size`: rotations and reflections for squares, the two flips and
    /// the half turn otherwise.
    pub fn new(size: Size) -> Symmetries {
        let (cols, rows) = (size.cols(), size.rows());
        // Each map sends the cell at (c, r) of the image to the source coordinates.
        type Map = fn(usize, usize, usize, usize) -> (usize, usize);
        let mut maps: Vec<Map> = vec![
            |c, r, _, _| (c, r),
            |c, r, w, _| (w - 1 - c, r),
            |c, r, _, h| (c, h - 1 - r),
            |c, r, w, h| (w - 1 - c, h - 1 - r),
        ];
        if size.is_square() {
            maps.extend_from_slice(&[
                (|c, r, _, _| (r, c)) as Map,
                |c, r, w, _| (w - 1 - r, c),
                |c, r, _, h| (r, h - 1 - c),
                |c, r, w, h| (w - 1 - r, h - 1 - c),
            ]);
        }
        let perms = maps
            .iter()
            .map(|map| {
                (0..size.cells())
                    .map(|cell| {
                        let (c, r) = size.coords(cell);
                        let (sc, sr) = map(c, r, cols, rows);
                        size.cell(sc, sr) as u8
                    })
                    .collect()
            })
            .collect();
        Symmetries { perms }
    }

    /// The permutations, identity first.
    pub fn perms(&self) -> &[Vec<u8>] {
        &self.perms
    }

    /// Every image of a board (with repeats when the board is itself symmetric).
    pub fn images(&self, board: &Board) -> impl Iterator<Item = Board> + '_ {
        let board = *board;
        self.perms.iter().map(move |perm| {
            let mut out = board;
            for (i, &src) in perm.iter().enumerate() {
                out.set(i, board.get(src as usize));
            }
            out
        })
    }

    /// The canonical form: the image whose letter string is smallest.
    pub fn canonical(&self, board: &Board) -> Board {
        // Board's derived order compares size then letters, and the size is the same for
        // every image, so `min` is the lexicographically smallest string.
        self.images(board)
            .min()
            .expect("a symmetry group always has the identity")
    }

    /// Whether a board is in canonical form.
    #[cfg(test)]
    pub fn is_canonical(&self, board: &Board) -> bool {
        self.canonical(board) == *board
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(size: &str, b: &str) -> String {
        let size: Size = size.parse().unwrap();
        Symmetries::new(size)
            .canonical(&Board::parse(size, b).unwrap())
            .to_string()
    }

    #[test]
    fn published_canonical_forms() {
        assert_eq!(canon("4x4", "perslatgsineters"), "perslatgsineters");
        assert_eq!(canon("3x3", "streaedlp"), "deslatper");
        assert_eq!(canon("3x4", "perslatesind"), "dnisetalsrep");
    }

    #[test]
    fn group_sizes_and_permutations() {
        for (s, n) in [("4x4", 8), ("3x4", 4), ("1x1", 8), ("2x5", 4)] {
            let size: Size = s.parse().unwrap();
            let sym = Symmetries::new(size);
            assert_eq!(sym.perms().len(), n);
            for p in sym.perms() {
                let mut sorted = p.clone();
                sorted.sort();
                assert_eq!(sorted, (0..size.cells() as u8).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn canonical_is_invariant_over_images() {
        let size: Size = "4x4".parse().unwrap();
        let sym = Symmetries::new(size);
        let b = Board::parse(size, "abcdefghijklmnop").unwrap();
        let c = sym.canonical(&b);
        for img in sym.images(&b) {
            assert_eq!(sym.canonical(&img), c);
        }
        // One of the images, the smallest as a string.
        let smallest = sym.images(&b).map(|i| i.to_string()).min();
        assert_eq!(smallest, Some(c.to_string()));
        assert_eq!(
            sym.images(&b)
                .collect::<std::collections::HashSet<_>>()
                .len(),
            8
        );
    }
}
