//! Orderly sum/choice trees in an arena: building one for a class, merging, branching.
//!
//! # The tree
//! A sum node holds `points` and choice-node children; a choice node holds a cell and one
//! sum-node child per letter. `Bound(sum) = points + Σ Bound(children)`,
//! `Bound(choice) = max Bound(children)`. Every word path of the class is added with its
//! (cell, letter) choices sorted by the cell order (position 0 = the top of the tree), so a
//! choice node's cell always comes after its ancestors' in that order (the orderly property).
//!
//! # The invariant (the paper's, with de-duplication)
//! `Force(T, B)` sums the points of every sum node whose path of choices board `B`
//! realises. For the built tree, `Force(T, B) = DeMulti(B)` for every board `B` of the class:
//! each (word, set of (cell, letter) choices) is added once, and on a fixed board a word's
//! cell set determines its letters. `Force ≤ Bound` holds by construction, so the root bound
//! bounds DeMulti ≥ Score over the class. `merge(a, b)` has `Force = Force(a) + Force(b)`;
//! `branch` on the top cell splits paths into those through it (forced to a letter) and
//! those that skip it, so each child keeps `Force(child_l, B) = DeMulti(B)` for the boards
//! with that letter there.
//!
//! # Storage
//! Nodes live in two arenas indexed by `u32`; children are runs of `edges`. Nodes are never
//! changed once made, so subtrees are shared freely (the tree is a DAG after merges), and
//! everything allocated after a [`Mark`] can be dropped by [`Arena::reset`] once the branch
//! that made it is finished.

use super::class::BoardClass;
use crate::board::Geometry;
use crate::dict::{NodeId, Trie};
use crate::solve::Scoring;

/// Index of a sum node.
pub type SumId = u32;
/// Index of a choice node.
pub type ChoiceId = u32;

/// The most cells a tree supports: path keys use 5 bits per cell in a `u128`.
pub const MAX_TREE_CELLS: usize = 25;

#[derive(Clone, Copy, Debug)]
struct SumNode {
    points: u32,
    bound: u32,
    /// Children are `edges[first .. first + len]`, choice ids sorted by cell position.
    first: u32,
    len: u32,
}

#[derive(Clone, Copy, Debug)]
struct ChoiceNode {
    bound: u32,
    /// Children are `edges[first ..]`, one sum id per letter of `mask`, in letter order.
    first: u32,
    mask: u32,
    cell: u8,
    /// The cell's position in the [`CellOrder`], kept here so merges compare it directly.
    pos: u8,
}

/// A position in the arenas to return to.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    sums: usize,
    choices: usize,
    edges: usize,
}

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
        let size = geometry.size();
        let mut order: Vec<u8> = (0..geometry.cells() as u8).collect();
        let dist = |cell: u8| {
            let (c, r) = size.coords(cell as usize);
            let dc = (2 * c as i32 + 1 - size.cols() as i32).abs();
            let dr = (2 * r as i32 + 1 - size.rows() as i32).abs();
            dc * dc + dr * dr
        };
        order.sort_by_key(|&c| (std::cmp::Reverse(geometry.degree(c as usize)), dist(c), c));
        let mut pos = vec![0u8; order.len()];
        for (p, &c) in order.iter().enumerate() {
            pos[c as usize] = p as u8;
        }
        CellOrder { order, pos }
    }

    /// The cell at position `p`.
    pub fn cell(&self, p: usize) -> usize {
        self.order[p] as usize
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

/// The node arenas of orderly trees.
#[derive(Default, Debug)]
pub struct Arena {
    sums: Vec<SumNode>,
    choices: Vec<ChoiceNode>,
    edges: Vec<u32>,
    created: u64,
    peak_bytes: u64,
}

fn sat(x: u64) -> u32 {
    x.min(u32::MAX as u64) as u32
}

impl Arena {
    /// An empty arena.
    pub fn new() -> Arena {
        Arena::default()
    }

    /// Where the arenas end now.
    pub fn mark(&self) -> Mark {
        Mark {
            sums: self.sums.len(),
            choices: self.choices.len(),
            edges: self.edges.len(),
        }
    }

    /// Drops every node made after `mark`. Nodes made before it never point to later ones.
    pub fn reset(&mut self, mark: Mark) {
        self.note_peak();
        self.sums.truncate(mark.sums);
        self.choices.truncate(mark.choices);
        self.edges.truncate(mark.edges);
    }

    fn note_peak(&mut self) {
        let bytes = (self.sums.len() * size_of::<SumNode>()
            + self.choices.len() * size_of::<ChoiceNode>()
            + self.edges.len() * 4) as u64;
        self.peak_bytes = self.peak_bytes.max(bytes);
    }

    /// Nodes created so far (build and merges, including ones since dropped).
    pub fn created(&self) -> u64 {
        self.created
    }

    /// The most bytes the arenas have held.
    pub fn peak_bytes(&mut self) -> u64 {
        self.note_peak();
        self.peak_bytes
    }

    /// Nodes reachable from a sum node, counting shared nodes once per path (a tree count).
    pub fn tree_size(&self, root: SumId) -> u64 {
        let s = self.sums[root as usize];
        1 + self
            .sum_children(s)
            .iter()
            .map(|&c| {
                let ch = self.choices[c as usize];
                1 + self
                    .choice_children(ch)
                    .iter()
                    .map(|&k| self.tree_size(k))
                    .sum::<u64>()
            })
            .sum::<u64>()
    }

    fn sum_children(&self, s: SumNode) -> &[ChoiceId] {
        &self.edges[s.first as usize..(s.first + s.len) as usize]
    }

    fn choice_children(&self, c: ChoiceNode) -> &[SumId] {
        &self.edges[c.first as usize..c.first as usize + c.mask.count_ones() as usize]
    }

    /// The bound of a sum node.
    pub fn bound(&self, sum: SumId) -> u32 {
        self.sums[sum as usize].bound
    }

    /// The points on a sum node itself.
    pub fn points(&self, sum: SumId) -> u32 {
        self.sums[sum as usize].points
    }

    /// The choice children of a sum node, top cell first.
    pub fn children(&self, sum: SumId) -> &[ChoiceId] {
        self.sum_children(self.sums[sum as usize])
    }

    /// The cell of a choice node.
    pub fn choice_cell(&self, choice: ChoiceId) -> usize {
        self.choices[choice as usize].cell as usize
    }

    /// The position of a choice node's cell in the cell order.
    #[inline]
    pub fn choice_pos(&self, choice: ChoiceId) -> usize {
        self.choices[choice as usize].pos as usize
    }

    /// The bound of a choice node.
    pub fn choice_bound(&self, choice: ChoiceId) -> u32 {
        self.choices[choice as usize].bound
    }

    /// The sum child of a choice node for `letter`, if it has one.
    #[inline]
    pub fn choice_child(&self, choice: ChoiceId, letter: u8) -> Option<SumId> {
        let c = self.choices[choice as usize];
        let bit = 1u32 << letter;
        if c.mask & bit == 0 {
            return None;
        }
        Some(self.edges[(c.first + (c.mask & (bit - 1)).count_ones()) as usize])
    }

    /// `Force(tree, B)`: the points of every sum node whose path of choices the board with
    /// these letters (one per cell) realises. For checking the invariant; not a hot path.
    pub fn force(&self, tree: SumId, letters: &[u8]) -> u64 {
        let s = self.sums[tree as usize];
        let mut total = s.points as u64;
        for &c in self.sum_children(s) {
            let cell = self.choices[c as usize].cell as usize;
            if let Some(child) = self.choice_child(c, letters[cell]) {
                total += self.force(child, letters);
            }
        }
        total
    }

    fn push_sum(&mut self, points: u32, children: &[ChoiceId]) -> SumId {
        let total = children.iter().fold(points as u64, |acc, &c| {
            acc + self.choices[c as usize].bound as u64
        });
        let first = self.edges.len() as u32;
        self.edges.extend_from_slice(children);
        self.sums.push(SumNode {
            points,
            bound: sat(total),
            first,
            len: children.len() as u32,
        });
        self.created += 1;
        (self.sums.len() - 1) as SumId
    }

    fn push_choice(&mut self, cell: u8, pos: u8, mask: u32, children: &[SumId]) -> ChoiceId {
        debug_assert_eq!(mask.count_ones() as usize, children.len());
        let bound = children
            .iter()
            .map(|&s| self.sums[s as usize].bound)
            .max()
            .unwrap_or(0);
        let first = self.edges.len() as u32;
        self.edges.extend_from_slice(children);
        self.choices.push(ChoiceNode {
            bound,
            first,
            mask,
            cell,
            pos,
        });
        self.created += 1;
        (self.choices.len() - 1) as ChoiceId
    }

    /// Merges two orderly trees whose cells all lie at positions ≥ some common position:
    /// `Force(merge(a, b), B) = Force(a, B) + Force(b, B)`.
    pub fn merge(&mut self, a: SumId, b: SumId) -> SumId {
        let (sa, sb) = (self.sums[a as usize], self.sums[b as usize]);
        if sb.len == 0 && sb.points == 0 {
            return a;
        }
        if sa.len == 0 && sa.points == 0 {
            return b;
        }
        let (fa, la) = (sa.first as usize, sa.len as usize);
        let (fb, lb) = (sb.first as usize, sb.len as usize);
        let mut out = [0 as ChoiceId; MAX_TREE_CELLS];
        let mut n = 0;
        let (mut i, mut j) = (0, 0);
        // Both child lists are sorted by position. Invariant: `out[..n]` holds, in position
        // order, every child of `a` before `i` and of `b` before `j`, those on the same
        // position merged.
        while i < la && j < lb {
            let (x, y) = (self.edges[fa + i], self.edges[fb + j]);
            let (px, py) = (self.choices[x as usize].pos, self.choices[y as usize].pos);
            out[n] = if px == py {
                i += 1;
                j += 1;
                self.merge_choice(x, y)
            } else if px < py {
                i += 1;
                x
            } else {
                j += 1;
                y
            };
            n += 1;
        }
        for k in i..la {
            out[n] = self.edges[fa + k];
            n += 1;
        }
        for k in j..lb {
            out[n] = self.edges[fb + k];
            n += 1;
        }
        self.push_sum(sat(sa.points as u64 + sb.points as u64), &out[..n])
    }

    fn merge_choice(&mut self, a: ChoiceId, b: ChoiceId) -> ChoiceId {
        let (ca, cb) = (self.choices[a as usize], self.choices[b as usize]);
        debug_assert_eq!(ca.cell, cb.cell);
        let mask = ca.mask | cb.mask;
        let mut out = [0 as SumId; 26];
        let mut n = 0;
        let (mut ia, mut ib) = (ca.first as usize, cb.first as usize);
        let mut letters = mask;
        // Invariant: `ia` and `ib` index the children of `a` and `b` for the lowest letter
        // still in `letters` that each of them has.
        while letters != 0 {
            let bit = letters & letters.wrapping_neg();
            letters ^= bit;
            out[n] = match (ca.mask & bit != 0, cb.mask & bit != 0) {
                (true, true) => {
                    let (x, y) = (self.edges[ia], self.edges[ib]);
                    ia += 1;
                    ib += 1;
                    self.merge(x, y)
                }
                (true, false) => {
                    ia += 1;
                    self.edges[ia - 1]
                }
                (false, true) => {
                    ib += 1;
                    self.edges[ib - 1]
                }
                (false, false) => unreachable!("the letter is in one of the masks"),
            };
            n += 1;
        }
        self.push_choice(ca.cell, ca.pos, mask, &out[..n])
    }

    /// The child of branching `tree` on the cell at position `p` with `letter`: the tree of
    /// the sub-class with that cell forced, the cell removed. `tree` must have no cell at a
    /// position before `p`.
    pub fn branch(&mut self, tree: SumId, p: usize, letter: u8) -> SumId {
        let s = self.sums[tree as usize];
        let top = self.sum_children(s).first().copied();
        let Some(top) = top.filter(|&c| self.choices[c as usize].pos as usize == p) else {
            // The cell at `p` is in no word path: the tree does not depend on it.
            return tree;
        };
        debug_assert!(
            self.sum_children(s)
                .iter()
                .all(|&c| self.choices[c as usize].pos as usize >= p)
        );
        // The skip tree: the same points and every child but the top one (shares edges).
        let rest_bound = self.sum_children(s)[1..]
            .iter()
            .fold(s.points as u64, |acc, &c| {
                acc + self.choices[c as usize].bound as u64
            });
        self.sums.push(SumNode {
            points: s.points,
            bound: sat(rest_bound),
            first: s.first + 1,
            len: s.len - 1,
        });
        self.created += 1;
        let skip = (self.sums.len() - 1) as SumId;
        match self.choice_child(top, letter) {
            Some(forced) => self.merge(forced, skip),
            None => skip,
        }
    }
}

/// Builds the de-duplicated orderly tree of a class.
pub struct TreeBuilder<'a, 'd> {
    trie: Trie<'d>,
    geometry: &'a Geometry,
    order: &'a CellOrder,
    word_points: Vec<u32>,
}

/// One word path: its choices packed by position (5 bits each, `letter + 1`, position 0 in
/// the most significant used bits, 0 = cell unused) and the word id.
type PathKey = (u128, u32);

impl<'a, 'd> TreeBuilder<'a, 'd> {
    /// A builder for one word list, geometry, order and scoring.
    pub fn new(
        trie: Trie<'d>,
        geometry: &'a Geometry,
        order: &'a CellOrder,
        scoring: Scoring,
    ) -> TreeBuilder<'a, 'd> {
        assert!(geometry.cells() <= MAX_TREE_CELLS, "tree size limit");
        let word_points = (0..trie.word_count() as u32)
            .map(|w| scoring.points(trie.word_len(w) as usize))
            .collect();
        TreeBuilder {
            trie,
            geometry,
            order,
            word_points,
        }
    }

    fn shift(&self, p: usize) -> u32 {
        5 * (self.order.len() - 1 - p) as u32
    }

    /// Builds the tree of `class` in `arena` and returns its root.
    pub fn build(&self, class: &BoardClass, arena: &mut Arena) -> SumId {
        let cells = class.cells();
        let shifts: Vec<u32> = (0..cells.len())
            .map(|c| self.shift(self.order.pos(c)))
            .collect();
        let mut paths: Vec<PathKey> = Vec::new();
        let root = self.trie.root();
        let root_mask = self.trie.child_mask(root);
        for (cell, &set) in cells.iter().enumerate() {
            let mut letters = set & root_mask;
            while letters != 0 {
                let l = letters.trailing_zeros() as u8;
                letters &= letters - 1;
                let node = self.trie.child_unchecked_letter(root, root_mask, l);
                let key = ((l as u128) + 1) << shifts[cell];
                self.collect(cells, &shifts, cell, node, 1 << cell, key, &mut paths);
            }
        }
        {
            use rayon::slice::ParallelSliceMut;
            paths.par_sort_unstable();
        }
        paths.dedup();
        self.build_sum(&paths, 0, arena)
    }

    /// Records every word path that extends the path ending on `cell` at trie `node`.
    #[allow(clippy::too_many_arguments)]
    fn collect(
        &self,
        cells: &[u32],
        shifts: &[u32],
        cell: usize,
        node: NodeId,
        used: u64,
        key: u128,
        paths: &mut Vec<PathKey>,
    ) {
        if let Some(w) = self.trie.word(node) {
            paths.push((key, w));
        }
        let mask = self.trie.child_mask(node);
        if mask == 0 {
            return;
        }
        let mut next = self.geometry.neighbor_mask(cell) & !used;
        while next != 0 {
            let n = next.trailing_zeros() as usize;
            next &= next - 1;
            let mut letters = cells[n] & mask;
            while letters != 0 {
                let l = letters.trailing_zeros() as u8;
                letters &= letters - 1;
                let child = self.trie.child_unchecked_letter(node, mask, l);
                let k = key | (((l as u128) + 1) << shifts[n]);
                self.collect(cells, shifts, n, child, used | 1 << n, k, paths);
            }
        }
    }

    /// Mask of the key bits for positions `p..`.
    fn tail_mask(&self, p: usize) -> u128 {
        let bits = 5 * (self.order.len() - p) as u32;
        if bits >= 128 {
            u128::MAX
        } else {
            (1u128 << bits) - 1
        }
    }

    /// Builds the sum node for `paths`, which agree on positions before `p`.
    ///
    /// All keys share their bits before `p`, so sorted keys are sorted by their tails
    /// (`key & tail_mask(p)`), and each group below is a range of tail values found by binary
    /// search: the paths ending here have tail 0; the paths whose first choice at or after `p`
    /// is at position `q` have tails in `[1 << shift(q), 1 << (shift(q) + 5))`.
    fn build_sum(&self, paths: &[PathKey], p: usize, arena: &mut Arena) -> SumId {
        let tail = self.tail_mask(p);
        let ends = paths.partition_point(|(k, _)| k & tail == 0);
        let points = paths[..ends].iter().fold(0u64, |acc, &(_, w)| {
            acc + self.word_points[w as usize] as u64
        });
        let mut children = [0 as ChoiceId; MAX_TREE_CELLS];
        let mut n = 0;
        let mut hi = paths.len();
        // Top position first: its group has the largest tails, at the end of the slice.
        for q in p..self.order.len() {
            if hi == ends {
                break;
            }
            let floor = 1u128 << self.shift(q);
            let lo = ends + paths[ends..hi].partition_point(|(k, _)| k & tail < floor);
            if lo < hi {
                children[n] = self.build_choice(&paths[lo..hi], q, arena);
                n += 1;
                hi = lo;
            }
        }
        arena.push_sum(sat(points), &children[..n])
    }

    /// Builds the choice node at position `q` for `paths`, which all use that position (and
    /// agree before it), so they are sorted by the letter there.
    fn build_choice(&self, paths: &[PathKey], q: usize, arena: &mut Arena) -> ChoiceId {
        let shift = self.shift(q);
        let letter = |k: u128| ((k >> shift) & 31) as u8 - 1;
        let mut mask = 0u32;
        let mut children = [0 as SumId; 26];
        let mut n = 0;
        let mut i = 0;
        while i < paths.len() {
            let l = letter(paths[i].0);
            let j = i + paths[i..].partition_point(|(k, _)| letter(*k) == l);
            mask |= 1 << l;
            children[n] = self.build_sum(&paths[i..j], q + 1, arena);
            n += 1;
            i = j;
        }
        arena.push_choice(self.order.cell(q) as u8, q as u8, mask, &children[..n])
    }
}
