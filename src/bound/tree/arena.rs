//! The node arena: storage of sum and choice nodes, their bounds, merging and branching
//! (the module `super` documents the layout).

use super::{ChoiceId, MAX_TREE_CELLS, SumId};

/// Bit of a stored sum node's header: a word of points follows it (most sum nodes have
/// none, and store no points word). Below it, the header holds the position mask.
const HAS_POINTS: u32 = 1 << 30;
/// Bit of a choice node's header (a sum node's header never has it). A [`SumId`] whose node
/// has it names a pass-through sum: no points and that one choice child.
const IS_CHOICE: u32 = 1 << 31;
/// Words before a choice node's first child entry.
const CHOICE_HEADER: usize = 1;
/// A choice node's letter mask occupies the bits below this shift; its position the five
/// above, below [`IS_CHOICE`].
const POS_SHIFT: u32 = 26;
const LETTER_MASK: u32 = (1 << POS_SHIFT) - 1;
const POS_MASK: u32 = 31;

/// The position stored in a choice node's header.
#[inline]
fn header_pos(header: u32) -> usize {
    ((header >> POS_SHIFT) & POS_MASK) as usize
}

/// Marks a [`SumId`] that is a leaf: its low bits are its points, and nothing is stored.
/// Offsets stay below it, so the arena holds at most 8 GiB.
const LEAF: u32 = 1 << 31;

/// A child entry: the child's offset and its bound.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Child {
    pub(super) node: u32,
    pub(super) bound: u32,
}

/// A position in the arena to return to.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    words: usize,
}

/// The node arena of orderly trees.
#[derive(Default, Debug)]
pub struct Arena {
    words: Vec<u32>,
    created: u64,
    peak_bytes: u64,
    /// Scratch of [`Arena::merge_sum`], kept between merges: the pairs of the level being
    /// merged and of the next, the nodes written with children still to merge (offset and
    /// slot, in the order written), and the merge's result.
    merge_level: Vec<PendingMerge>,
    merge_next: Vec<PendingMerge>,
    merge_open: Vec<[u32; 2]>,
    merge_root: [u32; 2],
}

/// How many pairs ahead of its turn a merge asks for a pair's two nodes.
const MERGE_AHEAD: usize = 16;

/// The slot of a merge's result, which is not an entry in the arena.
const ROOT_SLOT: u32 = u32::MAX >> 1;

/// Bit of [`PendingMerge::slot`]: the pair is of choice nodes (else of sum nodes).
const PENDING_CHOICES: u32 = 1 << 31;

/// A pair of nodes waiting for its turn in [`Arena::merge_sum`], and the entry (word
/// offset) in its merged parent that takes the result.
#[derive(Clone, Copy, Debug)]
struct PendingMerge {
    a: Child,
    b: Child,
    slot: u32,
}

impl PendingMerge {
    fn sums(a: Child, b: Child, slot: u32) -> PendingMerge {
        PendingMerge { a, b, slot }
    }

    fn choices(a: Child, b: Child, slot: u32) -> PendingMerge {
        PendingMerge {
            a,
            b,
            slot: slot | PENDING_CHOICES,
        }
    }

    fn is_choice(&self) -> bool {
        self.slot & PENDING_CHOICES != 0
    }

    fn slot(&self) -> u32 {
        self.slot & !PENDING_CHOICES
    }
}

/// A hint to load node `at` into the cache (leaves have nothing to load); it never faults and
/// changes nothing. It asks for the node's first two cache lines: a node rarely starts at a
/// line's start, and a choice node of 8 letters is 17 words, so its entries often reach the
/// next line (the second line took 0.976 of the time over the 37 reference classes).
#[inline(always)]
fn prefetch(words: &[u32], at: u32) {
    #[cfg(target_arch = "x86_64")]
    if at & LEAF == 0 {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let ptr = words.as_ptr().wrapping_add(at as usize) as *const i8;
        // SAFETY: a prefetch is only a hint: it reads nothing architecturally visible and
        // cannot fault, whatever the address (past the arena's end too).
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(ptr);
            _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(64));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (words, at);
}

/// `x` clamped to `u32`: bounds saturate at `u32::MAX` instead of wrapping.
pub(crate) fn sat(x: u64) -> u32 {
    x.min(u32::MAX as u64) as u32
}

/// The choice children of a sum node with their bounds, as (choice, position, bound), top
/// position first ([`Arena::choices_with_bounds`]).
pub struct SumChoiceBounds<'a> {
    /// The stored entries, `(choice, bound)` pairs: empty for a pass-through.
    entries: &'a [u32],
    /// The positions not yet returned.
    positions: u32,
    /// The one child of a pass-through sum and its bound (the sum's), until it is returned.
    pass: Option<(ChoiceId, u32)>,
}

impl Iterator for SumChoiceBounds<'_> {
    type Item = (ChoiceId, usize, u32);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.positions == 0 {
            return None;
        }
        let pos = self.positions.trailing_zeros() as usize;
        self.positions &= self.positions - 1;
        if let Some((choice, bound)) = self.pass.take() {
            return Some((choice, pos, bound));
        }
        let item = (self.entries[0], pos, self.entries[1]);
        self.entries = &self.entries[2..];
        Some(item)
    }
}

/// Where a sum node's child entries are, for merging: stored in the arena from an offset, or,
/// for a pass-through sum, the one entry itself (its choice, whose bound is the sum's).
#[derive(Clone, Copy)]
enum Entries {
    At(usize),
    One(Child),
}

impl Arena {
    /// The raw words, for tests that compare two arenas word for word.
    #[cfg(test)]
    pub(super) fn raw_words(&self) -> &[u32] {
        &self.words
    }

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
        // A heavy class's merges may have queued millions of pairs.
        let scratch = (self.merge_level.capacity() + self.merge_next.capacity())
            * std::mem::size_of::<PendingMerge>()
            + self.merge_open.capacity() * std::mem::size_of::<[u32; 2]>();
        if scratch > keep_bytes / 8 {
            self.merge_level = Vec::new();
            self.merge_next = Vec::new();
            self.merge_open = Vec::new();
        }
        self.created = 0;
        self.peak_bytes = 0;
    }

    fn note_peak(&mut self) {
        self.peak_bytes = self.peak_bytes.max(self.words.len() as u64 * 4);
    }

    /// Nodes created so far (build and merges, including ones since dropped; leaves and
    /// pass-throughs count though they take no space).
    pub fn created(&self) -> u64 {
        self.created
    }

    /// The most bytes the arena has held.
    pub fn peak_bytes(&mut self) -> u64 {
        self.note_peak();
        self.peak_bytes
    }

    /// Whether the sum node `sum` is a pass-through: the id of its one choice child.
    #[inline]
    fn is_pass(&self, sum: SumId) -> bool {
        sum & LEAF == 0 && self.words[sum as usize] & IS_CHOICE != 0
    }

    /// The bound of a sum node: its points plus its children's bounds, read from its own
    /// entries. (Nodes do not store their bound: the parent's entry holds it, and the walks
    /// read it there.)
    #[inline]
    pub fn bound(&self, sum: SumId) -> u32 {
        if sum & LEAF != 0 {
            return sum & !LEAF;
        }
        if self.is_pass(sum) {
            return self.choice_bound(sum);
        }
        let total = self
            .sum_entry_slice(sum as usize)
            .chunks_exact(2)
            .fold(self.points(sum) as u64, |acc, e| acc + e[1] as u64);
        sat(total)
    }

    /// The points on a sum node itself.
    #[inline]
    pub fn points(&self, sum: SumId) -> u32 {
        if sum & LEAF != 0 {
            return sum & !LEAF;
        }
        let s = sum as usize;
        // A choice header (a pass-through) has IS_CHOICE, never HAS_POINTS alone.
        if self.words[s] & (IS_CHOICE | HAS_POINTS) == HAS_POINTS {
            self.words[s + 1]
        } else {
            0
        }
    }

    /// The position mask of a sum node's children.
    #[inline]
    fn positions(&self, sum: SumId) -> u32 {
        if sum & LEAF != 0 {
            return 0;
        }
        let header = self.words[sum as usize];
        if header & IS_CHOICE != 0 {
            1 << header_pos(header)
        } else {
            header & !HAS_POINTS
        }
    }

    /// Where the child entries of the stored sum node at `s` begin: after its header and,
    /// if it has points, their word.
    #[inline]
    fn sum_entries(&self, s: usize) -> usize {
        s + 1 + ((self.words[s] >> HAS_POINTS.trailing_zeros()) & 1) as usize
    }

    /// The child entries, `(choice, bound)` pairs, of the stored sum node at `s` (not a leaf
    /// or a pass-through).
    #[inline]
    fn sum_entry_slice(&self, s: usize) -> &[u32] {
        let len = (self.words[s] & !HAS_POINTS).count_ones() as usize;
        let first = self.sum_entries(s);
        &self.words[first..first + 2 * len]
    }

    /// The child entries of the sum node `sum` (its entry in a parent: node and bound), for
    /// merging. Not read for a node without children.
    #[inline]
    fn entries(&self, sum: Child) -> Entries {
        if sum.node & LEAF != 0 {
            Entries::At(0)
        } else if self.is_pass(sum.node) {
            // The sum's bound is its one child's.
            Entries::One(sum)
        } else {
            Entries::At(self.sum_entries(sum.node as usize))
        }
    }

    /// The choice children of a sum node with their positions, top position first (read
    /// from the sum node, or for a pass-through from its id, without touching the children).
    #[inline]
    pub fn choices(&self, sum: SumId) -> impl Iterator<Item = (ChoiceId, usize)> + '_ {
        // Without a bound at hand, a pass-through's is given as 0 and dropped with the rest.
        self.choices_with_bounds(sum, 0)
            .map(|(choice, pos, _)| (choice, pos))
    }

    /// [`Arena::choices`] with each choice's bound; `bound` is the sum node's own (from its
    /// parent's entry), which is its choice's when it is a pass-through.
    #[inline]
    pub fn choices_with_bounds(&self, sum: SumId, bound: u32) -> SumChoiceBounds<'_> {
        let positions = self.positions(sum);
        if positions == 0 {
            return SumChoiceBounds {
                entries: &[],
                positions,
                pass: None,
            };
        }
        if self.is_pass(sum) {
            return SumChoiceBounds {
                entries: &[],
                positions,
                pass: Some((sum, bound)),
            };
        }
        SumChoiceBounds {
            entries: self.sum_entry_slice(sum as usize),
            positions,
            pass: None,
        }
    }

    /// The position of a choice node's cell in the cell order (stored in its header; merges
    /// read it there directly).
    #[cfg(test)]
    fn choice_pos(&self, choice: ChoiceId) -> usize {
        header_pos(self.words[choice as usize])
    }

    /// The bound of a choice node: its best child's, read from its entries.
    #[inline]
    fn choice_bound(&self, choice: ChoiceId) -> u32 {
        let (_, entries) = self.choice_letters(choice);
        entries.chunks_exact(2).map(|e| e[1]).max().unwrap_or(0)
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
        self.choice_entry(choice, letter).map(|c| c.node)
    }

    /// The sum child of a choice node for `letter` and the child's bound, if it has one.
    #[inline]
    pub fn choice_child_bound(&self, choice: ChoiceId, letter: u8) -> Option<(SumId, u32)> {
        self.choice_entry(choice, letter).map(|c| (c.node, c.bound))
    }

    /// The entry (sum child and its bound) of a choice node for `letter`, if it has one.
    #[inline]
    fn choice_entry(&self, choice: ChoiceId, letter: u8) -> Option<Child> {
        let c = choice as usize;
        let mask = self.words[c] & LETTER_MASK;
        let bit = 1u32 << letter;
        if mask & bit == 0 {
            return None;
        }
        Some(self.entry(c + CHOICE_HEADER + 2 * (mask & (bit - 1)).count_ones() as usize))
    }

    /// `Force(tree, B)`: the points of every sum node whose path of choices the board with
    /// these letters (one per cell) realises. For checking the invariant; not a hot path.
    #[cfg(test)]
    pub fn force(&self, tree: SumId, letters: &[u8], order: &super::order::CellOrder) -> u64 {
        let mut total = self.points(tree) as u64;
        for (c, pos) in self.choices(tree) {
            if let Some(child) = self.choice_child(c, letters[order.cell(pos)]) {
                total += self.force(child, letters, order);
            }
        }
        total
    }

    /// Checks the stored shape of the tree at `root`, whose cells lie at positions `≥ p`:
    /// every entry's bound equals the bound its child adds up from its own entries (so every
    /// bound in the tree follows from the points below it), every choice lies after its
    /// parent's position (the orderly property), and no stored sum node is a pass-through.
    #[cfg(test)]
    pub fn check(&self, root: SumId, p: usize) -> Result<(), String> {
        let stored = !self.is_pass(root) && root & LEAF == 0;
        if stored && self.points(root) == 0 && self.positions(root).count_ones() == 1 {
            return Err(format!("sum {root} is a stored pass-through"));
        }
        for (k, (c, pos)) in self.choices(root).enumerate() {
            if pos < p || self.choice_pos(c) != pos {
                return Err(format!(
                    "choice {c} at position {pos}, below {p} or misfiled"
                ));
            }
            if stored {
                let bound = self.sum_entry_slice(root as usize)[2 * k + 1];
                if self.choice_bound(c) != bound {
                    return Err(format!("entry bound {bound} for choice {c}"));
                }
            }
            for e in self.choice_entries(c).chunks_exact(2) {
                if self.bound(e[0]) != e[1] {
                    return Err(format!("entry bound {} for sum {}", e[1], e[0]));
                }
                self.check(e[0], pos + 1)?;
            }
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

    /// Appends a sum node; `positions` has one bit per entry of `children`. A leaf or a
    /// pass-through is not stored: its id says what it is.
    pub(super) fn push_sum(&mut self, points: u32, positions: u32, children: &[Child]) -> Child {
        debug_assert_eq!(positions.count_ones() as usize, children.len());
        if children.is_empty() && points < LEAF {
            // Counted like a stored node, so node counts stay comparable across layouts.
            self.created += 1;
            return Child {
                node: LEAF | points,
                bound: points,
            };
        }
        if let [only] = children
            && points == 0
        {
            // A pass-through: the choice stands for the sum, whose bound is its bound.
            self.created += 1;
            return *only;
        }
        let bound = sat(children
            .iter()
            .fold(points as u64, |acc, c| acc + c.bound as u64));
        let node = self.next_offset();
        if points == 0 {
            self.words.push(positions);
        } else {
            self.words
                .extend_from_slice(&[positions | HAS_POINTS, points]);
        }
        for c in children {
            self.words.extend_from_slice(&[c.node, c.bound]);
        }
        self.created += 1;
        Child { node, bound }
    }

    /// Appends a choice node; `letters` has one bit per entry of `children`.
    pub(super) fn push_choice(&mut self, pos: usize, letters: u32, children: &[Child]) -> Child {
        debug_assert_eq!(letters.count_ones() as usize, children.len());
        let bound = children.iter().map(|c| c.bound).max().unwrap_or(0);
        let node = self.next_offset();
        self.words
            .push(IS_CHOICE | letters | (pos as u32) << POS_SHIFT);
        for c in children {
            self.words.extend_from_slice(&[c.node, c.bound]);
        }
        self.created += 1;
        Child { node, bound }
    }

    /// Merges two orderly trees whose cells all lie at positions ≥ some common position,
    /// given as entries (node and bound): `Force(merge(a, b), B) = Force(a, B) + Force(b, B)`.
    ///
    /// # Breadth first
    /// A merge is a walk down both trees together, and it waits on memory: each pair of
    /// nodes to merge is two loads from anywhere in the arena. Depth first, every level's
    /// first pair is asked for only when it is needed. So the merge runs level by level:
    /// each level's pairs are known before any is merged, and a pair is asked for
    /// [`MERGE_AHEAD`] pairs before its turn. A merged node is written when its pair's turn
    /// comes, and an entry for a child still to merge holds a placeholder, which the
    /// child's node (written in a later level) fills in: with its offset and bound if all
    /// its own children are known then, else with its offset, and the node is left open.
    /// Open nodes get their bounds last, the last written first: a node's children are all
    /// written after it.
    fn merge_sum(&mut self, a: Child, b: Child) -> Child {
        let mut level = std::mem::take(&mut self.merge_level);
        let mut next = std::mem::take(&mut self.merge_next);
        level.clear();
        self.merge_open.clear();
        level.push(PendingMerge::sums(a, b, ROOT_SLOT));
        // Invariant: `level` holds the pairs whose parents are all written (or the root's
        // pair); the merge of each writes its node, or its whole result, into its slot.
        while !level.is_empty() {
            next.clear();
            for i in 0..level.len() {
                if let Some(ahead) = level.get(i + MERGE_AHEAD) {
                    prefetch(&self.words, ahead.a.node);
                    prefetch(&self.words, ahead.b.node);
                }
                let m = level[i];
                if m.is_choice() {
                    self.merge_choice_level(m, &mut next);
                } else {
                    self.merge_sum_level(m, &mut next);
                }
            }
            std::mem::swap(&mut level, &mut next);
        }
        // Invariant: every node written after the open node at `k` has its bound in its
        // slot.
        for k in (0..self.merge_open.len()).rev() {
            let [node, slot] = self.merge_open[k];
            // A stored sum's bound, or a choice's (read as a pass-through's).
            let bound = self.bound(node);
            self.fill_slot(slot, Child { node, bound });
        }
        self.merge_level = level;
        self.merge_next = next;
        let [node, bound] = self.merge_root;
        Child { node, bound }
    }

    /// The entry `entries` holds first, moving `entries` on to the next.
    #[inline]
    fn next_entry(&self, entries: &mut Entries) -> Child {
        match *entries {
            Entries::At(at) => {
                *entries = Entries::At(at + 2);
                self.entry(at)
            }
            // A pass-through has one entry, so it is never read twice.
            Entries::One(child) => child,
        }
    }

    #[inline]
    fn entry(&self, at: usize) -> Child {
        Child {
            node: self.words[at],
            bound: self.words[at + 1],
        }
    }

    /// Writes an entry (node and bound) into `slot`: a child entry of a node in the arena,
    /// or the result of the merge.
    #[inline]
    fn fill_slot(&mut self, slot: u32, child: Child) {
        if slot == ROOT_SLOT {
            self.merge_root = [child.node, child.bound];
        } else {
            self.words[slot as usize] = child.node;
            self.words[slot as usize + 1] = child.bound;
        }
    }

    /// Gives a node just written by a merge to its slot, with the bound `known` of the
    /// entries it copied: its bound if it has no children still to merge (`open` is false),
    /// else a stand-in, and the node is left open for the last pass to give its bound.
    #[inline]
    fn place_in_slot(&mut self, slot: u32, node: u32, open: bool, known: u32) {
        self.fill_slot(slot, Child { node, bound: known });
        if open {
            self.merge_open.push([node, slot]);
        }
    }

    /// Appends a placeholder entry for a child still to merge, and queues the merge of
    /// `a` and `b` (choice nodes if `choices`, else sum nodes) to fill it in.
    #[inline]
    fn push_pending(&mut self, a: Child, b: Child, choices: bool, next: &mut Vec<PendingMerge>) {
        // The slot's offset must not reach the bits that mark the root and the pair's kind.
        let at = self.words.len() as u64;
        assert!(
            at < ROOT_SLOT as u64,
            "orderly tree arena over 8 GiB: use a finer partition for this class"
        );
        let at = at as u32;
        next.push(if choices {
            PendingMerge::choices(a, b, at)
        } else {
            PendingMerge::sums(a, b, at)
        });
        self.words.extend_from_slice(&[0, 0]);
    }

    /// One pair of sum nodes of [`Arena::merge_sum`]: the merged node's points and
    /// positions; children both have are merged in the next level.
    fn merge_sum_level(&mut self, m: PendingMerge, next: &mut Vec<PendingMerge>) {
        let (a, b, slot) = (m.a, m.b, m.slot());
        if let Some(merged) = self.merge_at_hand(a, b) {
            return self.fill_slot(slot, merged);
        }
        let (ma, mb) = (self.positions(a.node), self.positions(b.node));
        let (pa, pb) = (self.points(a.node), self.points(b.node));
        let points = sat(pa as u64 + pb as u64);
        let mask = ma | mb;
        if mask == 0 {
            // Points that reach the leaf limit: a node of its own.
            let leaf = self.push_sum(points, 0, &[]);
            return self.fill_slot(slot, leaf);
        }
        let (mut ia, mut ib) = (self.entries(a), self.entries(b));
        if points == 0 && mask.count_ones() == 1 {
            // A pass-through: no points, and one position, which both have (a side without
            // it would be empty, and returned above). The merged choice stands for the sum.
            self.created += 1;
            let (x, y) = (self.next_entry(&mut ia), self.next_entry(&mut ib));
            next.push(PendingMerge::choices(x, y, slot));
            return;
        }
        let node = self.next_offset();
        let before = next.len();
        // The bound of the entries known so far (all of them, if none is still to merge).
        let mut known = points as u64;
        if points == 0 {
            self.words.push(mask);
        } else {
            self.words.extend_from_slice(&[mask | HAS_POINTS, points]);
        }
        let mut rest = mask;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            match (ma & bit != 0, mb & bit != 0) {
                (true, true) => {
                    let (x, y) = (self.next_entry(&mut ia), self.next_entry(&mut ib));
                    self.push_pending(x, y, true, next);
                }
                (true, false) => {
                    let x = self.next_entry(&mut ia);
                    self.words.extend_from_slice(&[x.node, x.bound]);
                    known += x.bound as u64;
                }
                _ => {
                    let y = self.next_entry(&mut ib);
                    self.words.extend_from_slice(&[y.node, y.bound]);
                    known += y.bound as u64;
                }
            }
        }
        self.created += 1;
        let open = next.len() > before;
        self.place_in_slot(slot, node, open, sat(known));
    }

    /// The merge of two sum nodes when it needs no node of its own: one side empty, or two
    /// leaves, whose points add (below the leaf limit). Read off their ids alone, so a
    /// choice pair merges such children where it finds them instead of queueing them: on 4x4
    /// 7506 a sixth of them, 0.98 of the class's time.
    #[inline]
    fn merge_at_hand(&mut self, x: Child, y: Child) -> Option<Child> {
        if x.node == LEAF {
            return Some(y);
        }
        if y.node == LEAF {
            return Some(x);
        }
        let points = x.bound as u64 + y.bound as u64;
        if x.node & y.node & LEAF == 0 || points >= LEAF as u64 {
            return None;
        }
        // Counted like the leaf that merging them in turn would make.
        self.created += 1;
        Some(Child {
            node: LEAF | points as u32,
            bound: points as u32,
        })
    }

    /// One pair of choice nodes (at one position) of [`Arena::merge_sum`]: the merged
    /// node; children for letters both have are merged in the next level.
    ///
    /// Its loop is [`Arena::merge_sum_level`]'s with raw offsets, the best bound instead of
    /// the sum, and children merged on the spot where that needs no node
    /// ([`Arena::merge_at_hand`]): one helper for both loops, with the pass-through's
    /// `Entries`, measured 1.05x slower on 4x4 7506 (2 alternating pairs).
    fn merge_choice_level(&mut self, m: PendingMerge, next: &mut Vec<PendingMerge>) {
        let (a, b) = (m.a.node as usize, m.b.node as usize);
        let (ha, hb) = (self.words[a], self.words[b]);
        debug_assert_eq!(header_pos(ha), header_pos(hb));
        let (ma, mb) = (ha & LETTER_MASK, hb & LETTER_MASK);
        let node = self.next_offset();
        let before = next.len();
        // The bound of the entries known so far (all of them, if none is still to merge).
        let mut known = 0u32;
        self.words
            .push(IS_CHOICE | ma | mb | (header_pos(ha) as u32) << POS_SHIFT);
        let (mut ia, mut ib) = (a + CHOICE_HEADER, b + CHOICE_HEADER);
        let mut rest = ma | mb;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            match (ma & bit != 0, mb & bit != 0) {
                (true, true) => {
                    let (x, y) = (self.entry(ia), self.entry(ib));
                    ia += 2;
                    ib += 2;
                    match self.merge_at_hand(x, y) {
                        Some(z) => {
                            self.words.extend_from_slice(&[z.node, z.bound]);
                            known = known.max(z.bound);
                        }
                        None => self.push_pending(x, y, false, next),
                    }
                }
                (true, false) => {
                    let x = self.entry(ia);
                    ia += 2;
                    self.words.extend_from_slice(&[x.node, x.bound]);
                    known = known.max(x.bound);
                }
                _ => {
                    let y = self.entry(ib);
                    ib += 2;
                    self.words.extend_from_slice(&[y.node, y.bound]);
                    known = known.max(y.bound);
                }
            }
        }
        self.created += 1;
        let open = next.len() > before;
        self.place_in_slot(m.slot(), node, open, known);
    }

    /// An upper bound on `bound(branch(tree, p, letter))`, read off `tree` without building
    /// anything: the forced child's bound plus the skip tree's. It holds because a merge's
    /// bound is at most the sum of its operands' (points add; a merged choice's best letter
    /// scores at most the two best added). It is also the bound OrderlyBound starts from when
    /// it fixes `letter` at `p` on `tree` itself. `tree` must have no cell before `p`.
    /// `bound` is `bound(tree)`, which the caller has at hand.
    #[inline]
    pub fn branch_bound(&self, tree: SumId, bound: u32, p: usize, letter: u8) -> u64 {
        debug_assert_eq!(bound, self.bound(tree));
        if bound == u32::MAX {
            // Saturated: the true sum is unknown, so promise nothing.
            return u64::MAX;
        }
        if self.positions(tree) & (1 << p) == 0 {
            return bound as u64;
        }
        let forced = |top| self.choice_entry(top, letter).map_or(0, |c| c.bound) as u64;
        if self.is_pass(tree) {
            // The choice at `p` is the whole tree: nothing skips it.
            return forced(tree);
        }
        // The top entry is the choice at `p`, with its bound.
        let e = self.sum_entries(tree as usize);
        let (top, top_bound) = (self.words[e], self.words[e + 1]);
        bound as u64 - top_bound as u64 + forced(top)
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
        if self.is_pass(tree) {
            // The choice at `p` is the whole tree: the skip tree is empty. (Counted as the
            // empty skip tree a stored sum would make, so node counts do not depend on it.)
            self.created += 1;
            return self.choice_child(tree, letter).unwrap_or(LEAF);
        }
        let e = self.sum_entries(s);
        let top = self.words[e];
        // The skip tree: the same points and every child but the top one.
        let len = positions.count_ones() as usize;
        let mut rest = [Child::default(); MAX_TREE_CELLS];
        for (k, r) in rest[..len - 1].iter_mut().enumerate() {
            *r = self.entry(e + 2 * (k + 1));
        }
        let points = self.points(tree);
        let skip = self.push_sum(points, positions & !(1 << p), &rest[..len - 1]);
        match self.choice_entry(top, letter) {
            Some(forced) => self.merge_sum(forced, skip).node,
            None => skip.node,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(points: u32) -> Child {
        Child {
            node: LEAF | points,
            bound: points,
        }
    }

    /// A pass-through reads as a sum without points and with its one choice, and bounds,
    /// branches and merges like a stored sum, at every position: from 16 on, its choice's
    /// header has the bit a sum header uses for points.
    #[test]
    fn pass_throughs_read_like_sums_at_every_position() {
        for pos in [0, 15, 16, MAX_TREE_CELLS - 1] {
            let mut arena = Arena::new();
            // Letters 0 and 2, worth 3 and 7.
            let choice = arena.push_choice(pos, 0b101, &[leaf(3), leaf(7)]);
            let words = arena.raw_words().len();
            let pass = arena.push_sum(0, 1 << pos, &[choice]);
            assert_eq!(
                arena.raw_words().len(),
                words,
                "a pass-through is not stored"
            );
            assert_eq!(pass.node, choice.node);
            assert!(arena.is_pass(pass.node));
            assert_eq!(arena.points(pass.node), 0);
            assert_eq!(arena.positions(pass.node), 1 << pos);
            assert_eq!((arena.bound(pass.node), pass.bound), (7, 7));
            let kids: Vec<_> = arena.choices(pass.node).collect();
            assert_eq!(kids, [(choice.node, pos)]);
            // With bounds: a pass-through's choice has the bound its parent gave the sum.
            let kids: Vec<_> = arena.choices_with_bounds(pass.node, pass.bound).collect();
            assert_eq!(kids, [(choice.node, pos, 7)]);
            assert_eq!(
                arena.choice_child_bound(choice.node, 2),
                Some((LEAF | 7, 7))
            );
            assert_eq!(arena.choice_child_bound(choice.node, 1), None);
            arena.check(pass.node, pos).unwrap();
            // A stored twin with points.
            let twin = arena.push_sum(5, 1 << pos, &[choice]);
            assert!(!arena.is_pass(twin.node));
            assert_eq!((arena.points(twin.node), arena.bound(twin.node)), (5, 12));
            // A stored sum's choices carry the bounds of its own entries.
            let kids: Vec<_> = arena.choices_with_bounds(twin.node, twin.bound).collect();
            assert_eq!(kids, [(choice.node, pos, 7)]);
            arena.check(twin.node, pos).unwrap();
            // Branching: the letter's child, or nothing for a letter it lacks.
            assert_eq!(arena.branch_bound(pass.node, 7, pos, 2), 7);
            assert_eq!(arena.branch(pass.node, pos, 2), LEAF | 7);
            assert_eq!(arena.branch_bound(pass.node, 7, pos, 1), 0);
            assert_eq!(arena.branch(pass.node, pos, 1), LEAF);
            assert_eq!(arena.branch_bound(twin.node, 12, pos, 0), 8);
            let forced = arena.branch(twin.node, pos, 0);
            assert_eq!(arena.bound(forced), 8);
            // Merging: points add, and letters' children merge.
            let both = arena.merge_sum(pass, twin);
            assert_eq!((arena.points(both.node), arena.bound(both.node)), (5, 19));
            arena.check(both.node, pos).unwrap();
            let twice = arena.merge_sum(pass, pass);
            assert!(arena.is_pass(twice.node));
            assert_eq!((twice.bound, arena.bound(twice.node)), (14, 14));
            arena.check(twice.node, pos).unwrap();
        }
    }

    /// A choice pair's children merged on the spot ([`Arena::merge_at_hand`]) read like
    /// those merged in turn: an empty side gives the other, two leaves add, and two leaves
    /// whose points reach the leaf limit get a stored node of their own.
    #[test]
    fn children_merged_on_the_spot_are_the_merges_they_stand_for() {
        let big = LEAF - 3;
        let mut arena = Arena::new();
        // Letters 0-3: a leaf of 2 / nothing / a leaf of 5 / a big leaf (stored: over the
        // limit as a leaf id, its points still fit a stored node).
        let big_leaf = arena.push_sum(big, 0, &[]);
        let sub = arena.push_choice(7, 0b1, &[leaf(4)]);
        let deep = arena.push_sum(1, 1 << 7, &[sub]);
        let a = arena.push_choice(3, 0b1111, &[leaf(2), leaf(0), leaf(5), big_leaf]);
        let b = arena.push_choice(3, 0b1111, &[leaf(0), deep, leaf(6), leaf(9)]);
        let created = arena.created();
        let merged = arena.merge_sum(a, b);
        // Letter 0: 2 + nothing; 1: nothing + deep; 2: 5 + 6 = 11 (a new leaf); 3: big + 9.
        assert_eq!(arena.choice_child(merged.node, 0), Some(LEAF | 2));
        assert_eq!(arena.choice_child(merged.node, 1), Some(deep.node));
        assert_eq!(arena.choice_child(merged.node, 2), Some(LEAF | 11));
        let sum = arena.choice_child(merged.node, 3).unwrap();
        assert_eq!(sum & LEAF, 0, "points at the limit are a stored node");
        assert_eq!(arena.points(sum), sat(big as u64 + 9));
        assert_eq!(merged.bound, sat(big as u64 + 9));
        arena.check(merged.node, 3).unwrap();
        // The pass-through sum the two choices stand for, the merged choice, the leaf of
        // letter 2 and the stored node of letter 3, as merging each pair in turn counts them.
        assert_eq!(arena.created() - created, 4);
    }
}
