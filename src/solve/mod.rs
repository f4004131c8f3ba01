//! Scoring one board: Score (each word once), Multi (every path) and DeMulti (every distinct
//! cell set), and the list of words found.
//!
//! # The search
//! A depth-first walk from every cell, carrying the prefix-tree node of the letters so far and
//! a bit mask of used cells. It only steps to an unused neighbour whose letter extends the
//! node (`child_mask`), so every call is on a live prefix. Score counts a word once per board
//! by stamping its id with a per-board generation number.

mod scoring;

pub use scoring::Scoring;

use crate::board::{Board, Geometry, MAX_CELLS};
use crate::dict::{NodeId, Trie, spell};
use std::collections::HashSet;

/// All three scores of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scores {
    /// Each word counted once.
    pub score: u64,
    /// Every path that spells a word counted.
    pub multi: u64,
    /// Every distinct set of cells that spells a word counted.
    pub demulti: u64,
}

/// `via` of a path that has not passed the group's cell.
const NO_LETTER: usize = usize::MAX;

/// A word found on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundWord {
    /// The word as spelled, with `qu`.
    pub word: String,
    /// Its points under the solver's scoring.
    pub points: u32,
}

/// A reusable scorer for boards of one size. Not shared between threads: make one per thread.
pub struct Solver<'d> {
    trie: Trie<'d>,
    neighbor_masks: [u64; MAX_CELLS],
    cells: usize,
    word_points: Vec<u32>,
    /// `stamps[w] == generation` when word `w` was already counted on the current board.
    stamps: Vec<u32>,
    generation: u32,
    letters: [u8; MAX_CELLS],
    /// For [`Solver::score_group`]: `seen[w]`, valid when `stamps[w] == generation`, has
    /// bit `i` set once word `w` was counted for the group's `i`-th letter, [`SEEN_ALL`] once
    /// it was found on a path that avoids the group's cell (and so counts for every letter).
    seen: Vec<u32>,
}

/// `seen` bit: the word is on the board whatever letter the group's cell holds.
const SEEN_ALL: u32 = 1 << 31;

/// The running sums of [`Solver::score_group`].
struct GroupSums {
    /// Points of words found on paths that avoid the group's cell.
    all: u64,
    /// `by_letter[i]`: points of words found through the cell holding the `i`-th letter,
    /// and on no path that avoids it.
    by_letter: [u64; 26],
}

impl<'d> Solver<'d> {
    /// A solver for one geometry, word tree and scoring.
    pub fn new(trie: Trie<'d>, geometry: &Geometry, scoring: Scoring) -> Solver<'d> {
        let mut neighbor_masks = [0u64; MAX_CELLS];
        for (cell, m) in neighbor_masks.iter_mut().enumerate().take(geometry.cells()) {
            *m = geometry.neighbor_mask(cell);
        }
        let word_points = (0..trie.word_count() as u32)
            .map(|w| scoring.points(trie.word_len(w) as usize))
            .collect();
        Solver {
            trie,
            neighbor_masks,
            cells: geometry.cells(),
            word_points,
            stamps: vec![0; trie.word_count()],
            generation: 0,
            letters: [0; MAX_CELLS],
            seen: vec![0; trie.word_count()],
        }
    }

    fn load(&mut self, board: &Board) {
        assert_eq!(board.size().cells(), self.cells, "board size");
        self.letters[..self.cells].copy_from_slice(board.letters());
    }

    /// Starts a new board: no word counted yet.
    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.fill(0);
            self.generation = 1;
        }
    }

    /// Score(B): the points of every distinct word on the board.
    pub fn score(&mut self, board: &Board) -> u64 {
        self.load(board);
        self.next_generation();
        let root = self.trie.root();
        let root_mask = self.trie.child_mask(root);
        let mut total = 0;
        for cell in 0..self.cells {
            let l = self.letters[cell];
            if root_mask >> l & 1 != 0 {
                let node = self.trie.child_unchecked_letter(root, root_mask, l);
                total += self.step(cell, node, 1 << cell);
            }
        }
        total
    }

    /// Score of the words through `node`, which spells the path ending on `cell`.
    fn step(&mut self, cell: usize, node: NodeId, used: u64) -> u64 {
        let mut total = 0;
        if let Some(w) = self.trie.word(node) {
            let stamp = &mut self.stamps[w as usize];
            if *stamp != self.generation {
                *stamp = self.generation;
                total += self.word_points[w as usize] as u64;
            }
        }
        let mask = self.trie.child_mask(node);
        if mask == 0 {
            return total;
        }
        let mut next = self.neighbor_masks[cell] & !used;
        while next != 0 {
            let n = next.trailing_zeros() as usize;
            next &= next - 1;
            let l = self.letters[n];
            if mask >> l & 1 != 0 {
                let child = self.trie.child_unchecked_letter(node, mask, l);
                total += self.step(n, child, used | 1 << n);
            }
        }
        total
    }

    /// The Scores of a group of boards that differ only in `cell`: `board` with `cell`
    /// holding `letters[i]` scores `out[i]`. One walk serves the whole group: paths that
    /// avoid the cell are followed once, not once per board, and only paths through it are
    /// followed per letter. Letters must be distinct; `out` as long as `letters`.
    pub fn score_group(&mut self, board: &Board, cell: usize, letters: &[u8], out: &mut [u64]) {
        assert!(
            letters.len() <= 26 && out.len() == letters.len(),
            "group size"
        );
        self.load(board);
        self.next_generation();
        let mut sums = GroupSums {
            all: 0,
            by_letter: [0; 26],
        };
        let root = self.trie.root();
        let root_mask = self.trie.child_mask(root);
        for start in 0..self.cells {
            if start == cell {
                for (i, &l) in letters.iter().enumerate() {
                    if root_mask >> l & 1 != 0 {
                        let node = self.trie.child_unchecked_letter(root, root_mask, l);
                        self.step_group(start, node, 1 << start, cell, letters, i, &mut sums);
                    }
                }
                continue;
            }
            let l = self.letters[start];
            if root_mask >> l & 1 != 0 {
                let node = self.trie.child_unchecked_letter(root, root_mask, l);
                self.step_group(start, node, 1 << start, cell, letters, NO_LETTER, &mut sums);
            }
        }
        for (o, by_letter) in out.iter_mut().zip(sums.by_letter) {
            *o = sums.all + by_letter;
        }
    }

    /// The walk of [`Solver::score_group`]: as [`Solver::step`], where `via` is the index of
    /// the letter the path took through the group's cell, or `NO_LETTER` if it has not.
    #[allow(clippy::too_many_arguments)]
    fn step_group(
        &mut self,
        at: usize,
        node: NodeId,
        used: u64,
        cell: usize,
        letters: &[u8],
        via: usize,
        sums: &mut GroupSums,
    ) {
        if let Some(w) = self.trie.word(node) {
            let w = w as usize;
            if self.stamps[w] != self.generation {
                self.stamps[w] = self.generation;
                self.seen[w] = 0;
            }
            let points = self.word_points[w] as u64;
            let seen = self.seen[w];
            if via == NO_LETTER {
                if seen & SEEN_ALL == 0 {
                    // Counted so far for some letters only: now it counts for all of them.
                    let mut bits = seen;
                    while bits != 0 {
                        sums.by_letter[bits.trailing_zeros() as usize] -= points;
                        bits &= bits - 1;
                    }
                    self.seen[w] = SEEN_ALL;
                    sums.all += points;
                }
            } else if seen & (SEEN_ALL | 1 << via) == 0 {
                self.seen[w] = seen | 1 << via;
                sums.by_letter[via] += points;
            }
        }
        let mask = self.trie.child_mask(node);
        if mask == 0 {
            return;
        }
        let mut next = self.neighbor_masks[at] & !used;
        while next != 0 {
            let n = next.trailing_zeros() as usize;
            next &= next - 1;
            if n == cell {
                for (i, &l) in letters.iter().enumerate() {
                    if mask >> l & 1 != 0 {
                        let child = self.trie.child_unchecked_letter(node, mask, l);
                        self.step_group(n, child, used | 1 << n, cell, letters, i, sums);
                    }
                }
                continue;
            }
            let l = self.letters[n];
            if mask >> l & 1 != 0 {
                let child = self.trie.child_unchecked_letter(node, mask, l);
                self.step_group(n, child, used | 1 << n, cell, letters, via, sums);
            }
        }
    }

    /// Score, Multi and DeMulti together (slower than [`Solver::score`]).
    pub fn scores(&mut self, board: &Board) -> Scores {
        let score = self.score(board);
        let mut multi = 0;
        let mut seen = HashSet::new();
        let mut demulti = 0;
        let points = &self.word_points;
        self.each_path(board, &mut |word, used, _| {
            let p = points[word as usize] as u64;
            multi += p;
            if seen.insert((word, used)) {
                demulti += p;
            }
        });
        Scores {
            score,
            multi,
            demulti,
        }
    }

    /// The distinct words on the board, sorted by points descending, then alphabetically.
    pub fn words(&mut self, board: &Board) -> Vec<FoundWord> {
        let mut found: Vec<(u32, Vec<u8>)> = Vec::new();
        let mut seen = HashSet::new();
        let points = &self.word_points;
        self.each_path(board, &mut |word, _, path| {
            if seen.insert(word) {
                found.push((points[word as usize], path.to_vec()));
            }
        });
        let mut out: Vec<FoundWord> = found
            .into_iter()
            .map(|(points, letters)| FoundWord {
                word: spell(&letters),
                points,
            })
            .collect();
        out.sort_by(|a, b| b.points.cmp(&a.points).then_with(|| a.word.cmp(&b.word)));
        out
    }

    /// Calls `f(word id, cells used, letters)` for every path that spells a word.
    fn each_path(&self, board: &Board, f: &mut dyn FnMut(u32, u64, &[u8])) {
        assert_eq!(board.size().cells(), self.cells, "board size");
        let trie = self.trie;
        let letters = board.letters();
        let masks = &self.neighbor_masks;
        let mut path = Vec::new();
        #[allow(clippy::too_many_arguments)]
        fn walk(
            trie: &Trie<'_>,
            letters: &[u8],
            masks: &[u64],
            cell: usize,
            node: NodeId,
            used: u64,
            path: &mut Vec<u8>,
            f: &mut dyn FnMut(u32, u64, &[u8]),
        ) {
            path.push(letters[cell]);
            if let Some(w) = trie.word(node) {
                f(w, used, path);
            }
            let mut next = masks[cell] & !used;
            while next != 0 {
                let n = next.trailing_zeros() as usize;
                next &= next - 1;
                if let Some(child) = trie.child(node, letters[n]) {
                    walk(trie, letters, masks, n, child, used | 1 << n, path, f);
                }
            }
            path.pop();
        }
        for cell in 0..self.cells {
            if let Some(node) = trie.child(trie.root(), letters[cell]) {
                walk(&trie, letters, masks, cell, node, 1 << cell, &mut path, f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::dict::Dictionary;

    #[test]
    fn tiny_dictionary_scores() {
        let d = Dictionary::from_text("t", b"bee\nfee\nbeef\n");
        let size: Size = "3x2".parse().unwrap();
        let g = Geometry::new(size);
        let mut s = Solver::new(d.trie(), &g, Scoring::Standard);
        // rows `e b e / e f e` in column-major order.
        let b = Board::parse(size, "eebfee").unwrap();
        assert_eq!(
            s.scores(&b),
            Scores {
                score: 3,
                multi: 12,
                demulti: 6
            }
        );
        let words: Vec<String> = s.words(&b).into_iter().map(|w| w.word).collect();
        assert_eq!(words, ["bee", "beef", "fee"]);
    }

    /// A group's one walk gives each board the Score it gets alone: on random boards rich
    /// in repeated letters (so words are found both through and around the cell), for
    /// every cell and groups of several sizes.
    #[test]
    fn score_group_equals_scoring_each_board() {
        let dict = Dictionary::enable2k();
        let mut rng = crate::rng::Rng::new(7);
        for size in ["3x3", "4x4", "5x5"] {
            let size: Size = size.parse().unwrap();
            let g = Geometry::new(size);
            let mut s = Solver::new(dict.trie(), &g, Scoring::Standard);
            let common = b"aeiorstlnpdg";
            for _ in 0..30 {
                let letters: Vec<u8> = (0..size.cells())
                    .map(|_| common[rng.index(common.len())] - b'a')
                    .collect();
                let board = Board::from_letters(size, &letters);
                let cell = rng.index(size.cells());
                let mut group: Vec<u8> = (0..26).collect();
                rng.shuffle(&mut group);
                group.truncate(1 + rng.index(26));
                let mut got = vec![0; group.len()];
                s.score_group(&board, cell, &group, &mut got);
                for (i, &l) in group.iter().enumerate() {
                    let mut one = letters.clone();
                    one[cell] = l;
                    let want = s.score(&Board::from_letters(size, &one));
                    assert_eq!(got[i], want, "{size} cell {cell} letter {l}");
                }
            }
        }
    }
}
