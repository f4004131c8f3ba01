//! A lower bound on DeMulti(B) − Score(B) shared by boards that agree on some cells: an exact
//! early reject for class-breaking candidates, which mostly fail by their repeated letters.
//!
//! # Why it is a bound
//! DeMulti counts a word once per distinct set of cells that spells it, Score once, so
//! DeMulti(B) − Score(B) = Σ_w p(w)·(K(w) − 1)⁺, where K(w) is the number of cell sets that
//! spell w on B. Split the cells into fixed ones F (every board of a group has the same
//! letters there) and open ones. The cell sets of w inside F (K_F of them) and, for each open
//! cell o, those whose only open cell is o (k_o of them, fixed by F and B's letter at o) are
//! all distinct, so K(w) ≥ K_F + Σ_o k_o, and
//!
//! (K_F + Σ_o k_o − 1)⁺ ≥ (K_F − 1)⁺ + Σ_o δ_o, with δ_o = k_o if K_F ≥ 1, else (k_o − 1)⁺:
//! equal when K_F ≥ 1; when K_F = 0, because (Σ k − 1)⁺ ≥ Σ (k − 1)⁺ for k ≥ 0.
//!
//! Weighting by p(w) and summing over words:
//! DeMulti(B) − Score(B) ≥ base + Σ_o `extra[o][B_o]`,
//! one walk for the whole group ([`Overcounter::overcount_bound`]). Paths through two or more
//! open cells are left out: they could only add to K. So a board whose DeMulti minus this
//! bound is below S has Score below S, and need not be scored.
//!
//! # Trees without redundant paths
//! A class breaker's unit tree has one or two forced cells F (fixed letters), and its word
//! paths are keyed by their cells outside F: two cell sets of a word that differ only in
//! which forced cells they use are one path of the tree (`Force` counts it once). It leaves
//! out a word's set S2 when S2 has a cell g holding the letter of a forced cell f ∉ S2 such
//! that S1 = S2 − g + f spells the word too and is kept (`TreeBuilder::dropping_redundant_paths`;
//! S1 has one cell fewer outside F, so whether it is kept is decided first). Its Force is
//! then D'(B) = Σ_w p(w)·K'(w), K'(w) counting only the kept sets (as keys), and K'(w) ≥ 1
//! exactly when w is on B (a left-out set's S1 is on B too, and a chain of such steps ends on
//! a kept set), so D'(B) − Score(B) = Σ_w p(w)·(K'(w) − 1)⁺. The same bound holds for it when
//! the walk counts each kept key once and nothing else. With F fixed and S2 having at most
//! one open cell, S1 has at most one too, and the walk sees it: with S2's tag if g is fixed,
//! inside the fixed cells if g is S2's open cell. So the walk keys its sets by their cells
//! outside F and leaves out of its counts every set with a partner S1 that it found and did
//! not leave out: exactly the sets the tree left out among those it sees.

use crate::board::{Geometry, MAX_CELLS};
use crate::dict::{NodeId, Trie};

/// For boards with given letters on a set of fixed cells: at least how much their DeMulti
/// exceeds their Score. Reused from group to group (it keeps its buffers).
#[derive(Clone, Debug, Default)]
pub struct OvercountBound {
    /// Cells that are neither fixed nor outside the board.
    open: u64,
    /// Σ_w p(w)·(K_F(w) − 1)⁺ over the paths inside the fixed cells.
    base: u64,
    /// `extra[o][l]`: Σ_w p(w)·δ_o(w) for letter `l` on open cell `o`.
    extra: Vec<[u64; 26]>,
    /// Scratch: one key per path that spells a word (see [`path_key`]).
    paths: Vec<u128>,
}

/// The tag of a path that lies inside the fixed cells; sorts after every open cell's tag.
const FIXED_ONLY: u32 = u32::MAX;

/// A path as a sortable key: word, then tag (its open cell and letter, or [`FIXED_ONLY`]),
/// then its cell set, so that paths of one word and tag sort together and distinct cell sets
/// stay apart.
fn path_key(word: u32, tag: u32, used: u64) -> u128 {
    (word as u128) << 96 | (tag as u128) << 64 | used as u128
}

impl OvercountBound {
    /// The part shared by every board of the group: from the paths inside the fixed cells.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// `extra()[cell][letter]`: the part that letter `letter` on open cell `cell` adds (zero
    /// on fixed cells).
    pub fn extra(&self) -> &[[u64; 26]] {
        &self.extra
    }

    /// The bound for a board that has the group's letters on the fixed cells.
    #[inline]
    pub fn of(&self, letters: &[u8]) -> u64 {
        let mut total = self.base;
        let mut open = self.open;
        while open != 0 {
            let c = open.trailing_zeros() as usize;
            open &= open - 1;
            total += self.extra[c][letters[c] as usize];
        }
        total
    }
}

/// Computes [`OvercountBound`]s: what the walk reads (the word tree, its words' points, the
/// board's neighbours), without the solver's tables, which a class breaker needs only once it
/// scores a board.
#[derive(Clone, Debug)]
pub struct Overcounter<'a> {
    trie: Trie<'a>,
    word_points: &'a [u32],
    geometry: &'a Geometry,
    /// The group's letters on the fixed cells, for the walk.
    letters: [u8; MAX_CELLS],
}

impl<'a> Overcounter<'a> {
    /// For boards of `geometry` over `trie`, whose words score `word_points` (by word id).
    pub fn new(trie: Trie<'a>, geometry: &'a Geometry, word_points: &'a [u32]) -> Overcounter<'a> {
        Overcounter {
            trie,
            word_points,
            geometry,
            letters: [0; MAX_CELLS],
        }
    }

    /// Fills `out` with the bound for boards that have `letters` on the cells of `fixed` and,
    /// on each other cell `c`, one of the letters in `open_letters[c]` (bit `l` for letter
    /// `l`); `letters` of other cells are ignored. The walk follows every path inside the
    /// fixed cells and every path with exactly one open cell, once per letter allowed there.
    ///
    /// With `forced` cells (a mask; none for 0) the bound is on Force(T, B) − Score(B) for a
    /// tree T without the paths that its forced cells (fixed, with their letters in
    /// `letters`) make redundant, instead of on DeMulti(B) − Score(B) (the module
    /// documentation says why it holds).
    pub fn overcount_bound(
        &mut self,
        letters: &[u8],
        fixed: u64,
        open_letters: &[u32],
        forced: u64,
        out: &mut OvercountBound,
    ) {
        let cells = self.geometry.cells();
        assert!(
            letters.len() == cells && open_letters.len() == cells,
            "board size"
        );
        assert_eq!(forced & !fixed, 0, "the forced cells are fixed");
        self.letters[..cells].copy_from_slice(letters);
        let all = (1u64 << cells) - 1;
        let fixed = fixed & all;
        let mut paths = std::mem::take(&mut out.paths);
        paths.clear();
        let root = self.trie.root();
        let root_mask = self.trie.child_mask(root);
        for c in 0..cells {
            let (choices, tag_cell) = if fixed >> c & 1 != 0 {
                (1u32 << self.letters[c], None)
            } else {
                (open_letters[c], Some(c))
            };
            let mut ls = choices & root_mask;
            while ls != 0 {
                let l = ls.trailing_zeros() as u8;
                ls &= ls - 1;
                let tag = tag_cell.map_or(FIXED_ONLY, |c| open_tag(c, l));
                let node = self.trie.child_unchecked_letter(root, root_mask, l);
                self.overcount_step(c, node, 1 << c, fixed, tag, open_letters, &mut paths);
            }
        }
        // The forced cells' letters (bit `l` for letter `l`).
        let mut forced_letters = 0u32;
        let mut rest = forced;
        while rest != 0 {
            forced_letters |= 1 << self.letters[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        if forced != 0 {
            // The tree's keys: cells outside the forced ones.
            for k in &mut paths {
                *k &= !(forced as u128);
            }
        }
        paths.sort_unstable();
        paths.dedup();

        out.open = all & !fixed;
        out.base = 0;
        out.extra.clear();
        out.extra.resize(cells, [0; 26]);
        // Paths sorted by word, then tag (fixed-only last), then cell set; one run per word.
        let mut i = 0;
        while i < paths.len() {
            let word = (paths[i] >> 96) as u32;
            let mut end = i + 1;
            while end < paths.len() && (paths[end] >> 96) as u32 == word {
                end += 1;
            }
            let points = self.word_points[word as usize] as u64;
            let of_word = &paths[i..end];
            let tag = |k: u128| (k >> 64) as u32;
            let counted = |k: u128| forced == 0 || !self.is_redundant(k, forced_letters, of_word);
            let fixed_sets = of_word
                .iter()
                .filter(|&&k| tag(k) == FIXED_ONLY && counted(k))
                .count() as u64;
            out.base += points * fixed_sets.saturating_sub(1);
            let mut a = 0;
            while a < of_word.len() && tag(of_word[a]) != FIXED_ONLY {
                let t = tag(of_word[a]);
                let mut b = a + 1;
                while b < of_word.len() && tag(of_word[b]) == t {
                    b += 1;
                }
                let sets = of_word[a..b].iter().filter(|&&k| counted(k)).count() as u64;
                let delta = if fixed_sets >= 1 {
                    sets
                } else {
                    sets.saturating_sub(1)
                };
                let (cell, letter) = ((t >> 5) as usize, (t & 31) as usize);
                out.extra[cell][letter] += points * delta;
                a = b;
            }
            i = end;
        }
        out.paths = paths;
    }

    /// Whether the cell set of `key` (one of `of_word`, its word's sorted keys, without the
    /// forced cells) is one that a tree with those cells forced leaves out: it has a cell g
    /// holding a forced cell's letter (a bit of `forced_letters`) such that the set without g is in `of_word` too (then
    /// passing through one forced cell more) and is not left out itself; with the same tag
    /// if g is fixed, inside the fixed cells if g is the key's open cell. (A set through every
    /// forced cell has no such partner, so the recursion ends within as many steps.)
    fn is_redundant(&self, key: u128, forced_letters: u32, of_word: &[u128]) -> bool {
        let (word, tag, used) = ((key >> 96) as u32, (key >> 64) as u32, key as u64);
        let open = (tag != FIXED_ONLY).then_some(((tag >> 5) as usize, (tag & 31) as u8));
        let mut cells = used;
        while cells != 0 {
            let g = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let (letter, other_tag) = match open {
                Some((o, l)) if o == g => (l, FIXED_ONLY),
                _ => (self.letters[g], tag),
            };
            if forced_letters >> letter & 1 == 0 {
                continue;
            }
            let other = path_key(word, other_tag, used & !(1 << g));
            if of_word.binary_search(&other).is_ok()
                && !self.is_redundant(other, forced_letters, of_word)
            {
                return true;
            }
        }
        false
    }

    /// The walk of [`Overcounter::overcount_bound`] from the path `used` (spelling `node`,
    /// ending on `cell`, tagged `tag`): onto fixed cells with their letter, and onto open cells
    /// with each allowed letter while the path has no open cell yet.
    #[allow(clippy::too_many_arguments)]
    fn overcount_step(
        &self,
        cell: usize,
        node: NodeId,
        used: u64,
        fixed: u64,
        tag: u32,
        open_letters: &[u32],
        paths: &mut Vec<u128>,
    ) {
        if let Some(w) = self.trie.word(node) {
            paths.push(path_key(w, tag, used));
        }
        let mask = self.trie.child_mask(node);
        if mask == 0 {
            return;
        }
        let mut next = self.geometry.neighbor_mask(cell) & !used;
        if tag != FIXED_ONLY {
            next &= fixed;
        }
        while next != 0 {
            let n = next.trailing_zeros() as usize;
            next &= next - 1;
            if fixed >> n & 1 != 0 {
                let l = self.letters[n];
                if mask >> l & 1 != 0 {
                    let child = self.trie.child_unchecked_letter(node, mask, l);
                    self.overcount_step(n, child, used | 1 << n, fixed, tag, open_letters, paths);
                }
                continue;
            }
            let mut ls = open_letters[n] & mask;
            while ls != 0 {
                let l = ls.trailing_zeros() as u8;
                ls &= ls - 1;
                let child = self.trie.child_unchecked_letter(node, mask, l);
                let tag = open_tag(n, l);
                self.overcount_step(n, child, used | 1 << n, fixed, tag, open_letters, paths);
            }
        }
    }
}

/// The tag of paths whose one open cell is `cell`, holding letter `letter`.
fn open_tag(cell: usize, letter: u8) -> u32 {
    debug_assert!(cell < MAX_CELLS && letter < 26);
    (cell as u32) << 5 | letter as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Geometry, Size};
    use crate::dict::Dictionary;
    use crate::rng::Rng;
    use crate::solve::{Scoring, Solver};

    /// Against brute force: on groups of random boards rich in repeated letters that agree on
    /// a random set of fixed cells, the bound never exceeds any board's DeMulti − Score, and
    /// it is not vacuous (it is positive on many boards, and reaches DeMulti − Score on some).
    #[test]
    fn bound_is_at_most_demulti_minus_score() {
        let dict = Dictionary::enable2k();
        let mut rng = Rng::new(11);
        let (mut positive, mut exact, mut boards_seen) = (0, 0, 0);
        for (size, scoring) in [
            ("3x3", Scoring::Standard),
            ("3x4", Scoring::Words),
            ("4x4", Scoring::Standard),
            ("4x4", Scoring::Pow2),
            ("3x4", Scoring::Fibonacci),
            ("4x4", Scoring::Boojum),
        ] {
            let size: Size = size.parse().unwrap();
            let cells = size.cells();
            let g = Geometry::new(size);
            let mut solver = Solver::new(dict.trie(), &g, scoring);
            let points = scoring.word_points(dict.trie());
            let mut overcounter = Overcounter::new(dict.trie(), &g, &points);
            let common = b"aeeeiorsstlnpd";
            let pick = |rng: &mut Rng| common[rng.index(common.len())] - b'a';
            let mut bound = OvercountBound::default();
            for _ in 0..40 {
                let base: Vec<u8> = (0..cells).map(|_| pick(&mut rng)).collect();
                let mut fixed = 0u64;
                for c in 0..cells {
                    if rng.index(3) != 0 {
                        fixed |= 1 << c;
                    }
                }
                let boards: Vec<Vec<u8>> = (0..1 + rng.index(12))
                    .map(|_| {
                        let mut b = base.clone();
                        for (c, l) in b.iter_mut().enumerate() {
                            if fixed >> c & 1 == 0 {
                                *l = pick(&mut rng);
                            }
                        }
                        b
                    })
                    .collect();
                let mut open_letters = vec![0u32; cells];
                for b in &boards {
                    for (c, &l) in b.iter().enumerate() {
                        if fixed >> c & 1 == 0 {
                            open_letters[c] |= 1 << l;
                        }
                    }
                }
                overcounter.overcount_bound(&base, fixed, &open_letters, 0, &mut bound);
                for b in &boards {
                    let s = solver.scores(&Board::from_letters(size, b));
                    let got = bound.of(b);
                    let most = s.demulti - s.score;
                    assert!(got <= most, "{size} fixed {fixed:b}: {got} > {most}");
                    positive += (got > 0) as usize;
                    exact += (got == most && most > 0) as usize;
                    boards_seen += 1;
                }
            }
        }
        assert!(positive * 2 > boards_seen, "{positive} of {boards_seen}");
        assert!(exact > 0, "never tight");
    }

    /// With every cell fixed the bound is exactly DeMulti − Score.
    #[test]
    fn all_cells_fixed_gives_the_exact_overcount() {
        let dict = Dictionary::enable2k();
        let size: Size = "4x4".parse().unwrap();
        let g = Geometry::new(size);
        let mut solver = Solver::new(dict.trie(), &g, Scoring::Standard);
        let points = Scoring::Standard.word_points(dict.trie());
        let mut overcounter = Overcounter::new(dict.trie(), &g, &points);
        let mut bound = OvercountBound::default();
        for text in ["perslatgsineters", "eeeeeeeeeeeeeeee", "seesaseesasesees"] {
            let b = Board::parse(size, text).unwrap();
            overcounter.overcount_bound(b.letters(), u64::MAX, &[0; 16], 0, &mut bound);
            let s = solver.scores(&b);
            assert_eq!(bound.of(b.letters()), s.demulti - s.score, "{text}");
        }
    }
}
