//! Scoring boards: Score (each word once), Multi (every path) and DeMulti (every distinct
//! cell set) of one board or a batch, the list of words found, and the scorings.
//!
//! # The search
//! A depth-first walk from every cell, carrying the prefix-tree node of the letters so far and
//! a bit mask of used cells, over the solver's own copy of the tree (`walk::WalkTrie`,
//! shared by every [`Solver::fresh`] copy). Before a board's walk, each cell gets the set of
//! letters around it, and each letter the cells that hold it (`around`, `cells_of`): a
//! node then steps only to the letters both around its cell and extending it, which on most
//! nodes of a random board is none, and a child is entered only if some letter around its
//! cell extends it (a child that only ends a word is counted without entering it). Score
//! counts a word once per board by stamping its node with a per-board generation number.

mod overcount;
mod scoring;
mod walk;

pub use overcount::{OvercountBound, Overcounter};
pub use scoring::{Scoring, ScoringTable};

use crate::board::{Board, Geometry, MAX_CELLS};
use crate::dict::{NodeId, Trie, spell};
use std::collections::HashSet;
use std::sync::Arc;
use walk::{LETTERS, WORD, WalkTrie};

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

/// A word found on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundWord {
    /// The word as spelled, with `qu`.
    pub word: String,
    /// Its points under the solver's scoring.
    pub points: u32,
}

/// A reusable scorer for boards of one size. Not shared between threads: make one per thread
/// with [`Solver::fresh`], which shares the word tables of the first.
pub struct Solver<'d> {
    trie: Trie<'d>,
    tables: Arc<SolverTables>,
    neighbor_masks: [u64; MAX_CELLS],
    /// `neighbor_lists[c]`: the cells touching `c`, then [`NO_CELL`] up to 8 entries.
    neighbor_lists: [[u8; 8]; MAX_CELLS],
    cells: usize,
    /// On the current board or group (set by [`Solver::score`] and [`Solver::score_many`]):
    /// `around[c]`, the letters of cell `c`'s neighbours as a mask, and `cells_of[l]`, the
    /// cells holding letter `l`. For a group, the letters of any of its boards.
    around: [u32; MAX_CELLS],
    /// `single[c]`: the letters of `around[c]` held by only one neighbour of `c` (on any board
    /// of a group). A path that steps to `c` from a cell with such a letter cannot take that
    /// letter next, so the walks leave it out of the letters ahead of `c`: when deciding
    /// whether to enter `c`, and then in `c`'s own letter loop.
    single: [u32; MAX_CELLS],
    cells_of: [u64; 26],
    /// `stamps[n] == generation` when the word ending at node `n` of the walk's tree (the
    /// nodes `step` and `step_many` carry are of that tree, not of `trie`) was already
    /// counted on the current board.
    stamps: Vec<u16>,
    generation: u16,
    letters: [u8; MAX_CELLS],
    /// For [`Solver::score_many`]: `seen[n]`, valid when `stamps[n] == generation`, has bit
    /// `i` set once the word of node `n` was counted for the group's `i`-th board,
    /// [`SEEN_ALL`] once it was found on a path that every board of the group has (and so
    /// counts for all).
    seen: Vec<u64>,
}

/// What every solver of one word tree and scoring reads and none writes, built once (a
/// relayout of the whole tree: milliseconds, not to be paid per batch of boards).
struct SolverTables {
    /// The tree laid out for the walk, with each word's points on its node.
    walk: WalkTrie,
    /// Points by word id of the original tree, for [`Solver::words`] and [`Solver::scores`].
    word_points: Vec<u32>,
}

/// The most boards [`Solver::score_many`] scores in one walk.
pub const GROUP_MAX: usize = 63;

/// [`Solver::score_each`] walks a run of boards as one group when they differ in at most this
/// many cells...
const RUN_OPEN_MAX: usize = 1;

/// ... and the run holds at least this many boards.
const RUN_MIN: usize = 4;

/// The padding of [`Solver`]'s neighbour lists: a cell number above every board's cells, so
/// that it reads an empty slot of a table of 64 cells.
const NO_CELL: u8 = 63;
const _: () = assert!(MAX_CELLS <= NO_CELL as usize);
const _: () = assert!((NO_CELL as usize + 1).is_power_of_two());

/// `seen` bit: the word is on every board of the group.
const SEEN_ALL: u64 = 1 << 63;

/// Where a path of [`Solver::score_many`]'s walk stands: its cells, the letter (as a bit) it
/// has on its last cell, and the letters it may take next (those around the last cell, less
/// one that only the cell before it may hold there).
#[derive(Clone, Copy)]
struct Path {
    used: u64,
    letter: u32,
    ahead: u32,
}

/// A group of boards that agree on all cells but a few ("open" cells), for one walk.
struct Group {
    /// Bit `c` set: the boards differ at cell `c`.
    open: u64,
    /// `has[c][l]`: bit `i` set if board `i` has letter `l` at open cell `c`.
    has: [[u64; 26]; MAX_CELLS],
    /// `letters[c]`: bit `l` set if some board has letter `l` at cell `c`.
    letters: [u32; MAX_CELLS],
    /// Bits of every board of the group.
    full: u64,
    /// Points of words found on every board.
    all: u64,
    /// `extra[i]`: points of words found on board `i` but not (yet) on every board.
    extra: [u64; GROUP_MAX],
}

impl<'d> Solver<'d> {
    /// A solver for one geometry, word tree and scoring. Builds the tables that
    /// [`Solver::fresh`] shares: make one, then a fresh one per thread or task.
    pub fn new(trie: Trie<'d>, geometry: &Geometry, scoring: Scoring) -> Solver<'d> {
        let mut neighbor_masks = [0u64; MAX_CELLS];
        let mut neighbor_lists = [[NO_CELL; 8]; MAX_CELLS];
        for cell in 0..geometry.cells() {
            neighbor_masks[cell] = geometry.neighbor_mask(cell);
            // A cell of a grid touches at most 8 others.
            let around = geometry.neighbors(cell);
            neighbor_lists[cell][..around.len()].copy_from_slice(around);
        }
        let word_points = scoring.word_points(trie);
        let walk = WalkTrie::new(trie, &word_points);
        let tables = Arc::new(SolverTables { walk, word_points });
        Solver::with_tables(
            trie,
            tables,
            neighbor_masks,
            neighbor_lists,
            geometry.cells(),
        )
    }

    fn with_tables(
        trie: Trie<'d>,
        tables: Arc<SolverTables>,
        neighbor_masks: [u64; MAX_CELLS],
        neighbor_lists: [[u8; 8]; MAX_CELLS],
        cells: usize,
    ) -> Solver<'d> {
        let nodes = tables.walk.node_count();
        Solver {
            trie,
            tables,
            neighbor_masks,
            neighbor_lists,
            cells,
            around: [0; MAX_CELLS],
            single: [0; MAX_CELLS],
            cells_of: [0; 26],
            // Zeroed allocations: pages are only touched as words are found.
            stamps: vec![0; nodes],
            seen: vec![0; nodes],
            generation: 0,
            letters: [0; MAX_CELLS],
        }
    }

    /// A solver for the same geometry, word tree and scoring, with its own scratch space and
    /// this one's tables (cheap: no relayout of the tree).
    pub fn fresh(&self) -> Solver<'d> {
        Solver::with_tables(
            self.trie,
            Arc::clone(&self.tables),
            self.neighbor_masks,
            self.neighbor_lists,
            self.cells,
        )
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

    /// Sets `cells_of` and `around` for cells that may hold the letters `held[c]` (a mask: one
    /// letter on a board, several for a group of boards).
    fn index_letters(&mut self, held: &[u32; MAX_CELLS]) {
        self.cells_of = [0; 26];
        for (cell, &letters) in held[..self.cells].iter().enumerate() {
            let mut rest = letters;
            while rest != 0 {
                self.cells_of[rest.trailing_zeros() as usize] |= 1 << cell;
                rest &= rest - 1;
            }
        }
        // Each cell's letters, and none past the board's cells: a neighbour list's padding
        // reads an empty slot, so every cell's loop below runs its 8 entries without a
        // branch that depends on the board.
        let mut by_cell = [0u32; NO_CELL as usize + 1];
        by_cell[..self.cells].copy_from_slice(&held[..self.cells]);
        for cell in 0..self.cells {
            // `once`: letters of at least one neighbour; `twice`: of at least two.
            let (mut once, mut twice) = (0u32, 0u32);
            for &n in &self.neighbor_lists[cell] {
                let h = by_cell[n as usize & NO_CELL as usize];
                twice |= once & h;
                once |= h;
            }
            self.around[cell] = once;
            self.single[cell] = once & !twice;
        }
    }

    /// Score(B): the points of every distinct word on the board.
    pub fn score(&mut self, board: &Board) -> u64 {
        self.load(board);
        self.next_generation();
        let mut held = [0u32; MAX_CELLS];
        for (h, &l) in held.iter_mut().zip(&self.letters[..self.cells]) {
            *h = 1 << l;
        }
        self.index_letters(&held);
        let root = self.tables.walk.root();
        let root_mask = self.tables.walk.mask(root);
        let mut total = 0;
        for cell in 0..self.cells {
            let l = self.letters[cell];
            if root_mask >> l & 1 != 0 {
                let node = self.tables.walk.child(root, l);
                let ahead = self.around[cell];
                total += self.step(cell, node, self.tables.walk.mask(node), 1 << cell, ahead);
            }
        }
        total
    }

    /// Score of the words not yet counted through `node` (whose mask is `flags`), which
    /// spells the path over `used` ending on `cell`: the walk path by path, each word
    /// counted once per board by its stamp. `ahead` is the letters the path may take next:
    /// those around `cell`, less the letter of the cell the path came from when no other
    /// neighbour holds it.
    fn step(&mut self, cell: usize, node: NodeId, flags: u32, used: u64, ahead: u32) -> u64 {
        let mut total = self.count_if_word(node, flags);
        let neighbours = self.neighbor_masks[cell] & !used;
        let mine = 1u32 << self.letters[cell];
        // Only the letters both next to the cell and extending the node: on most nodes none.
        // (`ahead` holds letter bits only, so the mask's word and point bits drop out.)
        let mut letters = flags & ahead;
        while letters != 0 {
            let l = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let mut cells = neighbours & self.cells_of[l as usize];
            if cells == 0 {
                continue;
            }
            let child = self.tables.walk.child(node, l);
            let child_flags = self.tables.walk.mask(child);
            while cells != 0 {
                let n = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                // The letters around `n` but this cell's own when only this cell has it.
                let ahead = self.around[n] & !(mine & self.single[n]);
                if child_flags & ahead != 0 {
                    total += self.step(n, child, child_flags, used | 1 << n, ahead);
                } else {
                    // No letter around `n` extends it: only its word, if any, is there.
                    total += self.count_if_word(child, child_flags);
                }
            }
        }
        total
    }

    /// The points of the word ending at `node` (whose mask is `flags`) if it was not counted
    /// yet on this board; 0 if none ends there. Without a branch on whether one does: on a
    /// random board the walk could not predict it (14 % of the run's mispredicted branches).
    #[inline(always)]
    fn count_if_word(&mut self, node: NodeId, flags: u32) -> u64 {
        // The walks never count the root (every path has a letter), so its stamp is free to
        // take the writes of nodes that end no word; such a node's point bits are 0.
        let slot = if flags & WORD != 0 { node as usize } else { 0 };
        let stamp = &mut self.stamps[slot];
        let fresh = *stamp != self.generation;
        *stamp = self.generation;
        fresh as u64 * self.tables.walk.points(node, flags) as u64
    }

    /// Score of any number of boards: `out[i]` = Score(`boards[i]`). A run of consecutive
    /// boards that differ from the run's first board in at most [`RUN_OPEN_MAX`] cells (a
    /// board's one-letter changes, a hill climb's neighbours) is scored in one walk
    /// ([`Solver::score_many`]) when it holds at least [`RUN_MIN`] boards; other boards are
    /// scored one by one. The scores are the same either way.
    pub fn score_each(&mut self, boards: &[Board], out: &mut [u64]) {
        assert_eq!(boards.len(), out.len(), "one score a board");
        let mut start = 0;
        // Invariant: `out[..start]` holds the scores of `boards[..start]`.
        while start < boards.len() {
            let base = boards[start].letters();
            let mut open = 0u64;
            let mut end = start + 1;
            while end < boards.len() && end - start < GROUP_MAX {
                let mut differ = open;
                for (c, (a, b)) in base.iter().zip(boards[end].letters()).enumerate() {
                    if a != b {
                        differ |= 1 << c;
                    }
                }
                if differ.count_ones() as usize > RUN_OPEN_MAX {
                    break;
                }
                open = differ;
                end += 1;
            }
            if end - start >= RUN_MIN {
                self.score_many(&boards[start..end], &mut out[start..end]);
            } else {
                end = start + 1;
                out[start] = self.score(&boards[start]);
            }
            start = end;
        }
    }

    /// The Scores of up to [`GROUP_MAX`] boards of one size: `out[i]` = Score(`boards[i]`).
    /// Boards that agree on most cells are scored in one walk: a path over cells where all
    /// boards agree is followed once for the whole group, and where they differ, once per
    /// letter the boards hold there, carrying the set of boards the path is on. Fastest for
    /// boards that differ in a few cells, as a class breaker's candidates do.
    pub fn score_many(&mut self, boards: &[Board], out: &mut [u64]) {
        assert!(
            boards.len() <= GROUP_MAX && out.len() == boards.len(),
            "group size"
        );
        let Some(first) = boards.first() else { return };
        self.load(first);
        self.next_generation();
        let mut g = Group {
            open: 0,
            has: [[0; 26]; MAX_CELLS],
            letters: [0; MAX_CELLS],
            full: (1u64 << boards.len()) - 1,
            all: 0,
            extra: [0; GROUP_MAX],
        };
        for (i, b) in boards.iter().enumerate() {
            assert_eq!(b.size().cells(), self.cells, "board size");
            for (c, &l) in b.letters().iter().enumerate() {
                g.has[c][l as usize] |= 1 << i;
                g.letters[c] |= 1 << l;
                if l != self.letters[c] {
                    g.open |= 1 << c;
                }
            }
        }
        self.index_letters(&g.letters);
        let root = self.tables.walk.root();
        let root_mask = self.tables.walk.mask(root) & LETTERS;
        for cell in 0..self.cells {
            let mut letters = g.letters[cell] & root_mask;
            while letters != 0 {
                let l = letters.trailing_zeros() as u8;
                letters &= letters - 1;
                let on = g.full & g.has[cell][l as usize];
                let child = self.tables.walk.child(root, l);
                let flags = self.tables.walk.mask(child);
                let path = Path {
                    used: 1 << cell,
                    letter: 1 << l,
                    ahead: self.around[cell],
                };
                self.step_many(cell, child, flags, path, on, &mut g);
            }
        }
        for (o, extra) in out.iter_mut().zip(g.extra) {
            *o = g.all + extra;
        }
    }

    /// The walk of [`Solver::score_many`]: as [`Solver::step`], for the boards `on`, which
    /// all have the path `path` spelling `node`. Where the boards differ, a cell is followed
    /// once per letter, with the boards that have it.
    fn step_many(
        &mut self,
        cell: usize,
        node: NodeId,
        flags: u32,
        path: Path,
        on: u64,
        g: &mut Group,
    ) {
        if flags & WORD != 0 {
            let w = node as usize;
            if self.stamps[w] != self.generation {
                self.stamps[w] = self.generation;
                self.seen[w] = 0;
            }
            let points = self.tables.walk.points(node, flags) as u64;
            let seen = self.seen[w];
            if seen & SEEN_ALL == 0 {
                if on == g.full {
                    // Counted so far for some boards only: now it counts for all of them.
                    let mut bits = seen;
                    while bits != 0 {
                        g.extra[bits.trailing_zeros() as usize] -= points;
                        bits &= bits - 1;
                    }
                    self.seen[w] = SEEN_ALL;
                    g.all += points;
                } else {
                    let mut new = on & !seen;
                    self.seen[w] = seen | new;
                    while new != 0 {
                        g.extra[new.trailing_zeros() as usize] += points;
                        new &= new - 1;
                    }
                }
            }
        }
        let neighbours = self.neighbor_masks[cell] & !path.used;
        let mut letters = flags & LETTERS & path.ahead;
        while letters != 0 {
            let l = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let mut cells = neighbours & self.cells_of[l as usize];
            if cells == 0 {
                continue;
            }
            let child = self.tables.walk.child(node, l);
            let child_flags = self.tables.walk.mask(child);
            while cells != 0 {
                let n = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let here = if g.open >> n & 1 != 0 {
                    on & g.has[n][l as usize]
                } else {
                    on
                };
                // As in `step`: skip a child that is no word and that no letter around `n`
                // (on any board) extends. A letter that only this cell may hold around `n`
                // is not ahead: the path holds this cell.
                let ahead = self.around[n] & !(path.letter & self.single[n]);
                if here != 0 && (child_flags & WORD != 0 || child_flags & ahead != 0) {
                    let next = Path {
                        used: path.used | 1 << n,
                        letter: 1 << l,
                        ahead,
                    };
                    self.step_many(n, child, child_flags, next, here, g);
                }
            }
        }
    }

    /// Score, Multi and DeMulti together (slower than [`Solver::score`]).
    pub fn scores(&mut self, board: &Board) -> Scores {
        let score = self.score(board);
        let mut multi = 0;
        let mut seen = HashSet::new();
        let mut demulti = 0;
        let points = &self.tables.word_points;
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
        let points = &self.tables.word_points;
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

    /// The walk over the solver's own tree, with its letters-around pruning, finds the same
    /// words as the plain walk over the dictionary's tree that `words` uses: Score equals the
    /// points of the listed words, on random boards rich in repeated letters and on uniform
    /// ones, from 3x3 to 6x6 (cells past 32), under two scorings, and on copies made with
    /// `fresh` after other boards.
    #[test]
    fn score_equals_the_points_of_the_words() {
        let dict = Dictionary::enable2k();
        let mut rng = crate::rng::Rng::new(11);
        for size in ["3x3", "4x4", "4x5", "6x6"] {
            let size: Size = size.parse().unwrap();
            let g = Geometry::new(size);
            for scoring in [Scoring::Standard, Scoring::Boojum] {
                let first = Solver::new(dict.trie(), &g, scoring);
                let mut s = first.fresh();
                let common = b"aeiorstlnpdgq";
                for i in 0..40 {
                    let letters: Vec<u8> = (0..size.cells())
                        .map(|_| {
                            if i % 2 == 0 {
                                common[rng.index(common.len())] - b'a'
                            } else {
                                rng.index(26) as u8
                            }
                        })
                        .collect();
                    let b = Board::from_letters(size, &letters);
                    let listed: u64 = s.words(&b).iter().map(|w| w.points as u64).sum();
                    assert_eq!(s.score(&b), listed, "{size} {scoring} {b}");
                }
            }
        }
    }

    /// `score_each` gives every board the Score it gets alone, whatever runs it forms: one
    /// cell's changes of a board (a run), the same board 100 times (runs cut at
    /// [`GROUP_MAX`]), two cells' changes one after the other (not one run), random boards
    /// between them, and runs shorter than [`RUN_MIN`].
    #[test]
    fn score_each_equals_scoring_each_board() {
        let dict = Dictionary::enable2k();
        let size: Size = "4x4".parse().unwrap();
        let g = Geometry::new(size);
        let mut s = Solver::new(dict.trie(), &g, Scoring::Standard);
        let mut rng = crate::rng::Rng::new(5);
        let base = Board::parse(size, "perslatgsineters").unwrap();
        let change = |cell: usize, l: u8| {
            let mut letters = base.letters().to_vec();
            letters[cell] = l;
            Board::from_letters(size, &letters)
        };
        let mut boards = Vec::new();
        for cell in [3, 5, 5, 0] {
            boards.extend((0..26).map(|l| change(cell, l)));
            boards.push(Board::from_letters(
                size,
                &(0..16).map(|_| rng.index(26) as u8).collect::<Vec<_>>(),
            ));
        }
        boards.extend(std::iter::repeat_n(base, 100));
        for l in [1, 2, 3] {
            boards.push(change(7, l));
            boards.push(change(9, l));
        }
        boards.extend((0..3).map(|l| change(2, l)));
        let mut got = vec![0; boards.len()];
        s.score_each(&boards, &mut got);
        for (b, got) in boards.iter().zip(got) {
            assert_eq!(got, s.score(b), "{b}");
        }
    }

    /// A group's one walk gives each board the Score it gets alone: on random boards rich
    /// in repeated letters (so words are found on paths that some boards share and others
    /// do not), differing in up to four random cells, in groups of 1 to 63.
    #[test]
    fn score_many_equals_scoring_each_board() {
        let dict = Dictionary::enable2k();
        let mut rng = crate::rng::Rng::new(7);
        for size in ["3x3", "4x4", "5x5", "6x6"] {
            let size: Size = size.parse().unwrap();
            let g = Geometry::new(size);
            let mut s = Solver::new(dict.trie(), &g, Scoring::Standard);
            let common = b"aeiorstlnpdg";
            let pick = |rng: &mut crate::rng::Rng| common[rng.index(common.len())] - b'a';
            for _ in 0..30 {
                let base: Vec<u8> = (0..size.cells()).map(|_| pick(&mut rng)).collect();
                let open: Vec<usize> = (0..1 + rng.index(4))
                    .map(|_| rng.index(size.cells()))
                    .collect();
                let boards: Vec<Board> = (0..1 + rng.index(GROUP_MAX))
                    .map(|_| {
                        let mut b = base.clone();
                        for &c in &open {
                            b[c] = if rng.index(3) == 0 {
                                rng.index(26) as u8
                            } else {
                                pick(&mut rng)
                            };
                        }
                        Board::from_letters(size, &b)
                    })
                    .collect();
                let mut got = vec![0; boards.len()];
                s.score_many(&boards, &mut got);
                for (b, got) in boards.iter().zip(got) {
                    assert_eq!(got, s.score(b), "{size} {b} open {open:?}");
                }
            }
        }
    }
}
