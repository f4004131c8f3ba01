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
//! Every node lives in one arena of `u32` words and is named by its offset there. A node is a
//! header followed by one entry per child, and each entry holds the child's offset *and its
//! bound*, so merging, bounding and OrderlyBound read a node's children without touching
//! them (the walks are memory-latency bound: one node, one or two cache lines).
//!
//! - sum node: `[position mask, bound, points, (child, child bound)...]`: one choice child per
//!   set bit of the position mask (bit `p` = the cell at position `p`), in position order;
//! - choice node: `[letter mask | position << 26, bound, (child, child bound)...]`: one sum
//!   child per set bit of the letter mask, in letter order;
//! - a leaf (a sum node with points and no children; a fifth of all nodes) is not stored:
//!   its id is `LEAF | points`, so reading or merging one costs no memory access.
//!
//! Nodes are never changed once made, so subtrees are shared freely (the tree is a DAG after
//! merges), and everything allocated after a [`Mark`] can be dropped by [`Arena::reset`] once
//! the branch that made it is finished.

use super::class::BoardClass;
use crate::board::Geometry;
use crate::dict::{NodeId, Trie};
use crate::solve::Scoring;

/// Offset of a sum node in its [`Arena`], or `LEAF | points` for a childless one.
pub type SumId = u32;
/// Offset of a choice node in its [`Arena`].
pub type ChoiceId = u32;

/// The most cells a tree supports: path keys use 5 bits per cell in a `u128`, and a sum
/// node's children fit one bit per position.
pub const MAX_TREE_CELLS: usize = 25;

/// Words before a sum node's first child entry.
const SUM_HEADER: usize = 3;
/// Words before a choice node's first child entry.
const CHOICE_HEADER: usize = 2;
/// A choice node's letter mask occupies the bits below this shift; its position those above.
const POS_SHIFT: u32 = 26;
const LETTER_MASK: u32 = (1 << POS_SHIFT) - 1;
/// Marks a [`SumId`] that is a leaf: its low bits are its points, and nothing is stored.
/// Offsets stay below it, so the arena holds at most 8 GiB.
const LEAF: u32 = 1 << 31;

/// A child entry: the child's offset and its bound.
#[derive(Clone, Copy, Debug, Default)]
struct Child {
    node: u32,
    bound: u32,
}

/// A position in the arena to return to.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    words: usize,
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
                return Err(bad(format!("cell {cell} is not below {cells}")));
            }
            if order.contains(&(cell as u8)) {
                return Err(bad(format!("cell {cell} appears twice")));
            }
            order.push(cell as u8);
        }
        if order.len() != cells {
            return Err(bad(format!("{} cells given, {cells} needed", order.len())));
        }
        let mut pos = vec![0u8; cells];
        for (p, &c) in order.iter().enumerate() {
            pos[c as usize] = p as u8;
        }
        Ok(CellOrder { order, pos })
    }

    /// The cells, top first.
    pub fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.order.iter().map(|&c| c as usize)
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

/// The node arena of orderly trees.
#[derive(Default, Debug)]
pub struct Arena {
    words: Vec<u32>,
    created: u64,
    peak_bytes: u64,
}

/// A hint to load node `at` into the cache (leaves have nothing to load); it never faults and
/// changes nothing.
#[inline(always)]
fn prefetch(words: &[u32], at: u32) {
    #[cfg(target_arch = "x86_64")]
    if at & LEAF == 0 {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let ptr = words.as_ptr().wrapping_add(at as usize) as *const i8;
        // SAFETY: a prefetch is only a hint: it reads nothing architecturally visible and
        // cannot fault, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (words, at);
}

fn sat(x: u64) -> u32 {
    x.min(u32::MAX as u64) as u32
}

/// The choice children of a sum node, as (choice, position, bound).
pub struct SumChildren<'a> {
    entries: &'a [u32],
    positions: u32,
}

impl Iterator for SumChildren<'_> {
    type Item = (ChoiceId, usize, u32);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.positions == 0 {
            return None;
        }
        let pos = self.positions.trailing_zeros() as usize;
        self.positions &= self.positions - 1;
        let item = (self.entries[0], pos, self.entries[1]);
        self.entries = &self.entries[2..];
        Some(item)
    }
}

impl Arena {
    /// An empty arena.
    pub fn new() -> Arena {
        Arena::default()
    }

    /// Where the arena ends now.
    pub fn mark(&self) -> Mark {
        Mark {
            words: self.words.len(),
        }
    }

    /// Drops every node made after `mark`. Nodes made before it never point to later ones.
    pub fn reset(&mut self, mark: Mark) {
        self.note_peak();
        self.words.truncate(mark.words);
    }

    /// Empties the arena for the next class, keeping its memory if it is at most
    /// `keep_bytes` (reused memory needs no fresh pages, which the kernel must fault in and
    /// zero: a tenth of the time of small classes), and releasing it otherwise.
    pub fn clear(&mut self, keep_bytes: usize) {
        self.words.clear();
        if self.words.capacity() * 4 > keep_bytes {
            self.words = Vec::new();
        }
        self.created = 0;
        self.peak_bytes = 0;
    }

    fn note_peak(&mut self) {
        self.peak_bytes = self.peak_bytes.max(self.words.len() as u64 * 4);
    }

    /// Nodes created so far (build and merges, including ones since dropped; leaves count
    /// though they take no space).
    pub fn created(&self) -> u64 {
        self.created
    }

    /// The most bytes the arena has held.
    pub fn peak_bytes(&mut self) -> u64 {
        self.note_peak();
        self.peak_bytes
    }

    /// The bound of a sum node.
    #[inline]
    pub fn bound(&self, sum: SumId) -> u32 {
        if sum & LEAF != 0 {
            return sum & !LEAF;
        }
        self.words[sum as usize + 1]
    }

    /// The points on a sum node itself.
    #[inline]
    pub fn points(&self, sum: SumId) -> u32 {
        if sum & LEAF != 0 {
            return sum & !LEAF;
        }
        self.words[sum as usize + 2]
    }

    /// The position mask of a sum node's children.
    #[inline]
    fn positions(&self, sum: SumId) -> u32 {
        if sum & LEAF != 0 {
            return 0;
        }
        self.words[sum as usize]
    }

    /// The choice children of a sum node, top position first, with their positions and
    /// bounds (read from the sum node, without touching the children).
    #[inline]
    pub fn children(&self, sum: SumId) -> SumChildren<'_> {
        let s = sum as usize;
        let positions = self.positions(sum);
        if positions == 0 {
            return SumChildren {
                entries: &[],
                positions,
            };
        }
        let len = positions.count_ones() as usize;
        SumChildren {
            entries: &self.words[s + SUM_HEADER..s + SUM_HEADER + 2 * len],
            positions,
        }
    }

    /// The position of a choice node's cell in the cell order (stored in its header; merges
    /// read it there directly).
    #[cfg(test)]
    fn choice_pos(&self, choice: ChoiceId) -> usize {
        (self.words[choice as usize] >> POS_SHIFT) as usize
    }

    /// The bound of a choice node.
    #[inline]
    pub fn choice_bound(&self, choice: ChoiceId) -> u32 {
        self.words[choice as usize + 1]
    }

    /// The child entries of a choice node, `(child, bound)` pairs in letter order.
    #[cfg(test)]
    fn choice_entries(&self, choice: ChoiceId) -> &[u32] {
        self.choice_letters(choice).1
    }

    /// A choice node's letter mask and its child entries, `(child, bound)` pairs in letter
    /// order (one pair per set bit of the mask).
    #[inline]
    pub fn choice_letters(&self, choice: ChoiceId) -> (u32, &[u32]) {
        let c = choice as usize;
        let mask = self.words[c] & LETTER_MASK;
        let len = mask.count_ones() as usize;
        (
            mask,
            &self.words[c + CHOICE_HEADER..c + CHOICE_HEADER + 2 * len],
        )
    }

    /// A hint to load node `node` (sum or choice) into the cache before it is read.
    #[inline(always)]
    pub fn prefetch(&self, node: u32) {
        prefetch(&self.words, node);
    }

    /// The sum child of a choice node for `letter`, if it has one.
    #[inline]
    pub fn choice_child(&self, choice: ChoiceId, letter: u8) -> Option<SumId> {
        let c = choice as usize;
        let mask = self.words[c] & LETTER_MASK;
        let bit = 1u32 << letter;
        if mask & bit == 0 {
            return None;
        }
        Some(self.words[c + CHOICE_HEADER + 2 * (mask & (bit - 1)).count_ones() as usize])
    }

    /// `Force(tree, B)`: the points of every sum node whose path of choices the board with
    /// these letters (one per cell) realises. For checking the invariant; not a hot path.
    pub fn force(&self, tree: SumId, letters: &[u8], order: &CellOrder) -> u64 {
        let mut total = self.points(tree) as u64;
        for (c, pos, _) in self.children(tree) {
            if let Some(child) = self.choice_child(c, letters[order.cell(pos)]) {
                total += self.force(child, letters, order);
            }
        }
        total
    }

    /// Checks the stored shape of the tree at `root`, whose cells lie at positions `≥ p`:
    /// every entry's bound equals its child's, every node's bound follows from its entries,
    /// and every choice lies after its parent's position (the orderly property).
    #[cfg(test)]
    pub fn check(&self, root: SumId, p: usize) -> Result<(), String> {
        let mut total = self.points(root) as u64;
        for (c, pos, bound) in self.children(root) {
            if pos < p || self.choice_pos(c) != pos {
                return Err(format!(
                    "choice {c} at position {pos}, below {p} or misfiled"
                ));
            }
            if self.choice_bound(c) != bound {
                return Err(format!("entry bound {bound} for choice {c}"));
            }
            total += bound as u64;
            let mut max = 0;
            for e in self.choice_entries(c).chunks_exact(2) {
                if self.bound(e[0]) != e[1] {
                    return Err(format!("entry bound {} for sum {}", e[1], e[0]));
                }
                max = max.max(e[1]);
                self.check(e[0], pos + 1)?;
            }
            if max != bound {
                return Err(format!("choice {c} bound {bound}, children max {max}"));
            }
        }
        if sat(total) != self.bound(root) {
            return Err(format!("sum {root} bound {} != {total}", self.bound(root)));
        }
        Ok(())
    }

    /// The offset the next node gets. Offsets stay below [`LEAF`].
    fn next_offset(&self) -> u32 {
        let offset = self.words.len() as u64;
        assert!(
            offset < LEAF as u64,
            "orderly tree arena over 8 GiB: use a finer partition for this class"
        );
        offset as u32
    }

    /// Appends a sum node; `positions` has one bit per entry of `children`.
    fn push_sum(&mut self, points: u32, positions: u32, children: &[Child]) -> Child {
        debug_assert_eq!(positions.count_ones() as usize, children.len());
        if children.is_empty() && points < LEAF {
            // Counted like a stored node, so node counts stay comparable across layouts.
            self.created += 1;
            return Child {
                node: LEAF | points,
                bound: points,
            };
        }
        let bound = sat(children
            .iter()
            .fold(points as u64, |acc, c| acc + c.bound as u64));
        let node = self.next_offset();
        self.words.extend_from_slice(&[positions, bound, points]);
        for c in children {
            self.words.extend_from_slice(&[c.node, c.bound]);
        }
        self.created += 1;
        Child { node, bound }
    }

    /// Appends a choice node; `letters` has one bit per entry of `children`.
    fn push_choice(&mut self, pos: usize, letters: u32, children: &[Child]) -> Child {
        debug_assert_eq!(letters.count_ones() as usize, children.len());
        let bound = children.iter().map(|c| c.bound).max().unwrap_or(0);
        let node = self.next_offset();
        self.words
            .extend_from_slice(&[letters | (pos as u32) << POS_SHIFT, bound]);
        for c in children {
            self.words.extend_from_slice(&[c.node, c.bound]);
        }
        self.created += 1;
        Child { node, bound }
    }

    /// Merges two orderly trees whose cells all lie at positions ≥ some common position:
    /// `Force(merge(a, b), B) = Force(a, B) + Force(b, B)`.
    pub fn merge(&mut self, a: SumId, b: SumId) -> SumId {
        self.merge_sum(a, b).node
    }

    fn merge_sum(&mut self, a: SumId, b: SumId) -> Child {
        let (ma, mb) = (self.positions(a), self.positions(b));
        let (pa, pb) = (self.points(a), self.points(b));
        if mb == 0 && pb == 0 {
            return Child {
                node: a,
                bound: self.bound(a),
            };
        }
        if ma == 0 && pa == 0 {
            return Child {
                node: b,
                bound: self.bound(b),
            };
        }
        // Entries are only read for positions a node has, so a leaf's offset is never used.
        let (a, b) = (a as usize, b as usize);
        let mut out = [Child::default(); MAX_TREE_CELLS];
        let n = self.merge_entries::<false>(ma, mb, a + SUM_HEADER, b + SUM_HEADER, &mut out);
        self.push_sum(sat(pa as u64 + pb as u64), ma | mb, &out[..n])
    }

    /// Merges two child lists keyed by bitmasks `ma` and `mb` (entries from `ia` and `ib`)
    /// into `out`, one entry per bit of `ma | mb`, and returns their count. Children on a bit
    /// both have are merged: sum nodes if `SUMS`, else choice nodes.
    fn merge_entries<const SUMS: bool>(
        &mut self,
        ma: u32,
        mb: u32,
        mut ia: usize,
        mut ib: usize,
        out: &mut [Child],
    ) -> usize {
        self.prefetch_pairs(ma, mb, ia, ib);
        let mut rest = ma | mb;
        let mut n = 0;
        // Invariant: `ia` and `ib` index the entries of `a` and `b` for the lowest bit still
        // in `rest` that each of them has; `out[..n]` holds the merged lower bits.
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            out[n] = match (ma & bit != 0, mb & bit != 0) {
                (true, true) => {
                    let (x, y) = (self.words[ia], self.words[ib]);
                    ia += 2;
                    ib += 2;
                    if SUMS {
                        self.merge_sum(x, y)
                    } else {
                        self.merge_choice(x, y)
                    }
                }
                (true, false) => {
                    ia += 2;
                    self.entry(ia - 2)
                }
                _ => {
                    ib += 2;
                    self.entry(ib - 2)
                }
            };
            n += 1;
        }
        n
    }

    /// Asks the CPU to start loading the child pairs that two nodes with child masks `ma` and
    /// `mb` (entries from `fa` and `fb`) have on their common bits, so the merges that follow
    /// do not wait on one cache miss after another.
    #[inline]
    fn prefetch_pairs(&self, ma: u32, mb: u32, fa: usize, fb: usize) {
        let mut common = ma & mb;
        while common != 0 {
            let below = (common & common.wrapping_neg()) - 1;
            common &= common - 1;
            prefetch(
                &self.words,
                self.words[fa + 2 * (ma & below).count_ones() as usize],
            );
            prefetch(
                &self.words,
                self.words[fb + 2 * (mb & below).count_ones() as usize],
            );
        }
    }

    #[inline]
    fn entry(&self, at: usize) -> Child {
        Child {
            node: self.words[at],
            bound: self.words[at + 1],
        }
    }

    fn merge_choice(&mut self, a: ChoiceId, b: ChoiceId) -> Child {
        let (a, b) = (a as usize, b as usize);
        let (ha, hb) = (self.words[a], self.words[b]);
        debug_assert_eq!(ha >> POS_SHIFT, hb >> POS_SHIFT);
        let (ma, mb) = (ha & LETTER_MASK, hb & LETTER_MASK);
        let mut out = [Child::default(); 26];
        let n = self.merge_entries::<true>(ma, mb, a + CHOICE_HEADER, b + CHOICE_HEADER, &mut out);
        self.push_choice((ha >> POS_SHIFT) as usize, ma | mb, &out[..n])
    }

    /// An upper bound on `bound(branch(tree, p, letter))`, read off `tree` without building
    /// anything: the forced child's bound plus the skip tree's. It holds because a merge's
    /// bound is at most the sum of its operands' (points add; a merged choice's best letter
    /// scores at most the two best added). It is also the bound OrderlyBound starts from when
    /// it fixes `letter` at `p` on `tree` itself. `tree` must have no cell before `p`.
    #[inline]
    pub fn branch_bound(&self, tree: SumId, p: usize, letter: u8) -> u64 {
        let bound = self.bound(tree) as u64;
        if bound == u32::MAX as u64 {
            // Saturated: the true sum is unknown, so promise nothing.
            return u64::MAX;
        }
        if self.positions(tree) & (1 << p) == 0 {
            return bound;
        }
        // The top entry is the choice at `p`, with its bound.
        let s = tree as usize;
        let (top, top_bound) = (self.words[s + SUM_HEADER], self.words[s + SUM_HEADER + 1]);
        let forced = self.choice_child(top, letter).map_or(0, |c| self.bound(c));
        bound - top_bound as u64 + forced as u64
    }

    /// The child of branching `tree` on the cell at position `p` with `letter`: the tree of
    /// the sub-class with that cell forced, the cell removed. `tree` must have no cell at a
    /// position before `p`.
    pub fn branch(&mut self, tree: SumId, p: usize, letter: u8) -> SumId {
        let s = tree as usize;
        let positions = self.positions(tree);
        debug_assert_eq!(positions & ((1u32 << p) - 1), 0, "a cell before {p}");
        if positions & (1 << p) == 0 {
            // The cell at `p` is in no word path: the tree does not depend on it.
            return tree;
        }
        let top = self.words[s + SUM_HEADER];
        // The skip tree: the same points and every child but the top one.
        let len = positions.count_ones() as usize;
        let mut rest = [Child::default(); MAX_TREE_CELLS];
        for (k, r) in rest[..len - 1].iter_mut().enumerate() {
            *r = self.entry(s + SUM_HEADER + 2 * (k + 1));
        }
        let points = self.points(tree);
        let skip = self.push_sum(points, positions & !(1 << p), &rest[..len - 1]);
        match self.choice_child(top, letter) {
            Some(forced) => self.merge(forced, skip.node),
            None => skip.node,
        }
    }
}

/// Builds the de-duplicated orderly tree of a class.
pub struct TreeBuilder<'a, 'd> {
    trie: Trie<'d>,
    geometry: &'a Geometry,
    order: &'a CellOrder,
    word_points: &'a [u32],
}

/// One word path: its choices packed by position (5 bits each, `letter + 1`, position 0 in
/// the most significant used bits, 0 = cell unused) and its word. Sorting paths sorts them
/// by their choices, then by word.
trait PathKey: Copy + Ord + Send {
    /// The path with `choices` of word `word`, which scores `points`.
    fn new(choices: u128, word: u32, points: u32) -> Self;
    fn choices(self) -> u128;
    /// The points of the path's word (`word_points` by word id).
    fn points(self, word_points: &[u32]) -> u32;
}

/// Bits of a word id in a [`PackedPath`].
const WORD_BITS: u32 = 24;
/// Bits of the word's points in a [`PackedPath`].
const POINTS_BITS: u32 = 8;
/// The most cells whose choices fit a [`PackedPath`] beside the word.
const PACKED_CELLS: usize = ((128 - WORD_BITS - POINTS_BITS) / 5) as usize;

/// A path in one integer: `choices | points | word id`. Half the size of a [`WidePath`] and
/// compared in one step, so collecting, sorting and splitting paths move half the bytes, and
/// the points travel with the path instead of being looked up at random by word id. Boards
/// of up to [`PACKED_CELLS`] cells, fewer than `1 << WORD_BITS` words, points below 256.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct PackedPath(u128);

impl PathKey for PackedPath {
    fn new(choices: u128, word: u32, points: u32) -> Self {
        PackedPath(choices << (POINTS_BITS + WORD_BITS) | (points << WORD_BITS | word) as u128)
    }
    fn choices(self) -> u128 {
        self.0 >> (POINTS_BITS + WORD_BITS)
    }
    fn points(self, _: &[u32]) -> u32 {
        (self.0 >> WORD_BITS) as u32 & ((1 << POINTS_BITS) - 1)
    }
}

/// A path for boards of any size up to [`MAX_TREE_CELLS`] cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct WidePath(u128, u32);

impl PathKey for WidePath {
    fn new(choices: u128, word: u32, _: u32) -> Self {
        WidePath(choices, word)
    }
    fn choices(self) -> u128 {
        self.0
    }
    fn points(self, word_points: &[u32]) -> u32 {
        word_points[self.1 as usize]
    }
}

/// Path buffers that [`TreeBuilder::build_reusing`] keeps from one class to the next.
#[derive(Default, Debug)]
pub struct PathBuffers {
    packed: Vec<PackedPath>,
    wide: Vec<WidePath>,
}

/// The most paths a [`PathBuffers`] keeps between builds (64 MiB packed): reusing a
/// buffer saves page faults on small trees; on big ones they do not matter, while the buffer
/// would sit in memory beside the tree for the whole branching.
const KEEP_PATHS: usize = 1 << 22;

/// The number of leading indices in `0..n` for which `holds` is true, given that it is true
/// for a prefix and false after: probes 1, 2, 4, … then bisects the last step, so a short
/// prefix costs a few nearby probes (the groups split off the sorted paths are mostly short).
fn prefix_len(n: usize, holds: impl Fn(usize) -> bool) -> usize {
    let mut step = 1;
    while step < n && holds(step) {
        step *= 2;
    }
    // The answer lies in [step / 2, min(step, n)]: `holds(step / 2)` is true when step ≥ 2,
    // and `holds(step)` is false when step < n.
    let (mut lo, mut hi) = (step / 2, step.min(n));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if holds(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

impl<'a, 'd> TreeBuilder<'a, 'd> {
    /// The points of every word of `trie` (by word id), for [`TreeBuilder::new`]: compute
    /// them once per word list, not once per class.
    pub fn word_points(trie: Trie<'_>, scoring: Scoring) -> Vec<u32> {
        (0..trie.word_count() as u32)
            .map(|w| scoring.points(trie.word_len(w) as usize))
            .collect()
    }

    /// A builder for one word list, geometry, order and the word points of a scoring.
    pub fn new(
        trie: Trie<'d>,
        geometry: &'a Geometry,
        order: &'a CellOrder,
        word_points: &'a [u32],
    ) -> TreeBuilder<'a, 'd> {
        assert!(geometry.cells() <= MAX_TREE_CELLS, "tree size limit");
        assert_eq!(word_points.len(), trie.word_count(), "points per word");
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
        self.build_reusing(class, arena, &mut PathBuffers::default())
    }

    /// As [`TreeBuilder::build`], collecting the paths in `buffers` (kept for the next build
    /// when they are small).
    pub fn build_reusing(
        &self,
        class: &BoardClass,
        arena: &mut Arena,
        buffers: &mut PathBuffers,
    ) -> SumId {
        let packs = self.order.len() <= PACKED_CELLS
            && self.trie.word_count() < 1 << WORD_BITS
            && self.word_points.iter().all(|&p| p < 1 << POINTS_BITS);
        if packs {
            self.build_with(class, arena, &mut buffers.packed)
        } else {
            self.build_with(class, arena, &mut buffers.wide)
        }
    }

    fn build_with<K: PathKey>(
        &self,
        class: &BoardClass,
        arena: &mut Arena,
        paths: &mut Vec<K>,
    ) -> SumId {
        let cells = class.cells();
        let shifts: Vec<u32> = (0..cells.len())
            .map(|c| self.shift(self.order.pos(c)))
            .collect();
        paths.clear();
        let root = self.trie.root();
        let root_mask = self.trie.child_mask(root);
        for (cell, &set) in cells.iter().enumerate() {
            let mut letters = set & root_mask;
            while letters != 0 {
                let l = letters.trailing_zeros() as u8;
                letters &= letters - 1;
                let node = self.trie.child_unchecked_letter(root, root_mask, l);
                let key = ((l as u128) + 1) << shifts[cell];
                self.collect(cells, &shifts, cell, node, 1 << cell, key, paths);
            }
        }
        {
            use rayon::slice::ParallelSliceMut;
            paths.par_sort_unstable();
        }
        paths.dedup();
        let root = self.build_sum(paths, 0, arena).node;
        if paths.capacity() > KEEP_PATHS {
            *paths = Vec::new();
        }
        root
    }

    /// Records every word path that extends the path ending on `cell` at trie `node`.
    #[allow(clippy::too_many_arguments)]
    fn collect<K: PathKey>(
        &self,
        cells: &[u32],
        shifts: &[u32],
        cell: usize,
        node: NodeId,
        used: u64,
        key: u128,
        paths: &mut Vec<K>,
    ) {
        if let Some(w) = self.trie.word(node) {
            paths.push(K::new(key, w, self.word_points[w as usize]));
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
    /// All paths share their choices before `p`, so sorted paths are sorted by their tails
    /// (`choices & tail_mask(p)`), and each group below is a range of tails found by search: the paths ending here have tail 0; the paths whose first choice at or after `p`
    /// is at position `q` have tails in `[1 << shift(q), 1 << (shift(q) + 5))`. The groups
    /// are found from the last path down (top position first, as the sum node stores them),
    /// each from the first choice of its last path, so there is one search per child.
    fn build_sum<K: PathKey>(&self, paths: &[K], p: usize, arena: &mut Arena) -> Child {
        let tail = self.tail_mask(p);
        let ends = prefix_len(paths.len(), |i| paths[i].choices() & tail == 0);
        let points = paths[..ends]
            .iter()
            .fold(0u64, |acc, k| acc + k.points(self.word_points) as u64);
        let mut children = [Child::default(); MAX_TREE_CELLS];
        let mut n = 0;
        let mut positions = 0u32;
        let mut hi = paths.len();
        // Invariant: `paths[hi..]` are grouped into `children[..n]`; `paths[ends..hi]` all
        // have a choice at or after `p`, so a non-zero tail.
        while hi > ends {
            let top = 127 - (paths[hi - 1].choices() & tail).leading_zeros();
            let q = self.order.len() - 1 - (top / 5) as usize;
            let floor = 1u128 << self.shift(q);
            let lo = hi - prefix_len(hi - ends, |i| paths[hi - 1 - i].choices() & tail >= floor);
            children[n] = self.build_choice(&paths[lo..hi], q, arena);
            positions |= 1 << q;
            n += 1;
            hi = lo;
        }
        arena.push_sum(sat(points), positions, &children[..n])
    }

    /// Builds the choice node at position `q` for `paths`, which all use that position (and
    /// agree before it), so they are sorted by the letter there.
    fn build_choice<K: PathKey>(&self, paths: &[K], q: usize, arena: &mut Arena) -> Child {
        let shift = self.shift(q);
        let letter = |k: K| ((k.choices() >> shift) & 31) as u8 - 1;
        let mut mask = 0u32;
        let mut children = [Child::default(); 26];
        let mut n = 0;
        let mut i = 0;
        while i < paths.len() {
            let l = letter(paths[i]);
            let j = i + prefix_len(paths.len() - i, |d| letter(paths[i + d]) == l);
            mask |= 1 << l;
            children[n] = self.build_sum(&paths[i..j], q + 1, arena);
            n += 1;
            i = j;
        }
        arena.push_choice(q, mask, &children[..n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::dict::Dictionary;

    /// Both path layouts build the same tree, word for word: the packed one is what classes
    /// of up to 19 cells use, the wide one what larger boards (and large points) fall back on.
    #[test]
    fn packed_and_wide_paths_build_the_same_tree() {
        let dict = Dictionary::enable2k();
        for (size, class) in [
            (
                "3x3",
                "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz",
            ),
            ("3x4", "st ae rl pl ae st ei nr sd ae rt qu"),
            ("2x2", "abcdefghijklmnopqrstuvwxyz e s t"),
        ] {
            let size: Size = size.parse().unwrap();
            let geometry = Geometry::new(size);
            let order = CellOrder::centre_first(&geometry);
            let class = BoardClass::parse(size, class).unwrap();
            for scoring in [Scoring::Standard, Scoring::Words] {
                let points = TreeBuilder::word_points(dict.trie(), scoring);
                let builder = TreeBuilder::new(dict.trie(), &geometry, &order, &points);
                let mut packed = Arena::new();
                let mut wide = Arena::new();
                let mut buffers = PathBuffers::default();
                let a = builder.build_with(&class, &mut packed, &mut buffers.packed);
                let b = builder.build_with(&class, &mut wide, &mut buffers.wide);
                assert_eq!((a, packed.created()), (b, wide.created()), "{class}");
                assert_eq!(packed.words, wide.words, "{class}");
                assert!(packed.bound(a) > 0, "{class}");
            }
        }
    }

    /// `prefix_len` agrees with a linear count on every prefix length.
    #[test]
    fn prefix_len_counts_the_true_prefix() {
        for n in 0..70 {
            for k in 0..=n {
                let holds = |i: usize| {
                    assert!(i < n, "probed {i} of {n}");
                    i < k
                };
                assert_eq!(prefix_len(n, holds), k, "n={n} k={k}");
            }
        }
    }
}
