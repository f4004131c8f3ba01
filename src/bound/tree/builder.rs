//! Building the orderly tree of a class: every word path of the class, its choices sorted
//! by the cell order, de-duplicated by cell set, turned into nodes of an [`Arena`].

use super::arena::{Arena, Child, sat};
use super::atoms::{AtomTrie, atoms_of};
use super::order::CellOrder;
use super::paths::{
    Choices, PACKED_CELLS, POINTS_BITS, PackedPath, PathBuffers, PathKey, SMALL_CELLS,
    SMALL_WORD_BITS, WORD_BITS,
};
use super::{MAX_TREE_CELLS, SumId};
use crate::board::Geometry;
use crate::bound::class::BoardClass;
use crate::dict::{NodeId, Trie};
use crate::solve::Scoring;

/// Builds the de-duplicated orderly tree of a class.
pub struct TreeBuilder<'a, 'd> {
    trie: Trie<'d>,
    geometry: &'a Geometry,
    order: &'a CellOrder,
    word_points: &'a [u32],
    /// When set (the number of cells of each word, by word id): a tree with one or two forced
    /// cells leaves out the word paths that another path of the same word makes redundant
    /// ([`TreeBuilder::dropping_redundant_paths`]).
    word_cells: Option<&'a [u8]>,
    /// When set: collect a class's paths over this tree of its atoms
    /// ([`TreeBuilder::by_atoms`]) instead of the word list's letters.
    atoms: Option<&'a AtomTrie>,
}

/// The most forced cells whose redundant paths a build leaves out
/// ([`TreeBuilder::dropping_redundant_paths`]).
pub const MAX_DROP_FORCED: usize = 2;

/// The state of one walk collecting paths: the class's letter sets, each cell's shift in a
/// path key, the key bits a path keeps (a forced cell's choice is left out), the most paths
/// to collect, where they go, and how many were found: once more than `limit`, the walk
/// only counts, and it stops once more than `count_limit` (at least `limit`).
struct PathWalk<'w, K: PathKey> {
    cells: &'w [u32],
    shifts: &'w [u32],
    keep: K::C,
    limit: usize,
    count_limit: usize,
    count: usize,
    paths: &'w mut Vec<K>,
}

/// What a walk over an [`AtomTrie`] reads: the tree and the atoms of each cell.
struct AtomWalk<'w> {
    atoms: &'w AtomTrie,
    cell_atoms: &'w [u32; MAX_TREE_CELLS],
}

/// Bit 0 of each field of `choices` whose position is used (holds a choice): `ones` is
/// [`TreeBuilder::field_ones`].
#[inline(always)]
fn used_fields<C: Choices>(choices: C, ones: C) -> C {
    (choices | choices >> 1 | choices >> 2 | choices >> 3 | choices >> 4) & ones
}

/// The number of leading indices in `0..n` for which `holds` is true, given that it is true
/// for a prefix and false after: probes 1, 2, 4, … then bisects the last step, so a short
/// prefix costs a few nearby probes (a forward search through sorted paths mostly moves a
/// short way).
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

/// One level of the route [`TreeBuilder::build_sorted`] keeps open: the choice node that
/// leads into it (none at the root) and the sum node under that choice's latest letter.
#[derive(Clone, Copy)]
struct OpenLevel {
    /// The sum node: its points so far, and its closed choice children, last position first
    /// (the order a sorted pass closes them in), and their positions as a mask.
    points: u64,
    positions: u32,
    kids: [Child; MAX_TREE_CELLS],
    kid_count: usize,
    /// The choice node above the sum: its position, its letters so far (the last one is the
    /// open sum's), and its closed sum children in letter order.
    pos: usize,
    letters: u32,
    letter_kids: [Child; 26],
    letter_count: usize,
}

/// The open route of [`TreeBuilder::build_sorted`]: levels `0..=depth`, level 0 the root.
struct OpenRoute {
    levels: Vec<OpenLevel>,
    depth: usize,
}

impl OpenRoute {
    fn new(cells: usize) -> OpenRoute {
        let empty = OpenLevel {
            points: 0,
            positions: 0,
            kids: [Child::default(); MAX_TREE_CELLS],
            kid_count: 0,
            pos: 0,
            letters: 0,
            letter_kids: [Child::default(); 26],
            letter_count: 0,
        };
        OpenRoute {
            levels: vec![empty; cells + 1],
            depth: 0,
        }
    }

    fn add_points(&mut self, points: u32) {
        self.levels[self.depth].points += points as u64;
    }

    /// Opens the next level: a choice at `pos` (or the open one's next letter, if the
    /// level's choice is still open at that position) and the sum under `letter`.
    fn open(&mut self, pos: usize, letter: u8) {
        self.depth += 1;
        let level = &mut self.levels[self.depth];
        if level.letters == 0 {
            level.pos = pos;
        }
        debug_assert_eq!(level.pos, pos);
        level.letters |= 1 << letter;
    }

    /// Closes the sum at `d` into the choice above it.
    fn close_sum(&mut self, d: usize, arena: &mut Arena) {
        let level = &mut self.levels[d];
        level.kids[..level.kid_count].reverse();
        let child = arena.push_sum(
            sat(level.points),
            level.positions,
            &level.kids[..level.kid_count],
        );
        level.points = 0;
        level.positions = 0;
        level.kid_count = 0;
        level.letter_kids[level.letter_count] = child;
        level.letter_count += 1;
    }

    /// Closes the choice at `d` (its sums all closed) into the sum at `d - 1`.
    fn close_choice(&mut self, d: usize, arena: &mut Arena) {
        let level = &mut self.levels[d];
        let child = arena.push_choice(
            level.pos,
            level.letters,
            &level.letter_kids[..level.letter_count],
        );
        let pos = level.pos;
        level.letters = 0;
        level.letter_count = 0;
        let parent = &mut self.levels[d - 1];
        parent.kids[parent.kid_count] = child;
        parent.kid_count += 1;
        parent.positions |= 1 << pos;
    }

    /// Closes the route below level `keep`; if `keep_choice`, the choice at `keep + 1`
    /// stays open (only its sum is closed) for a next letter.
    fn close_to(&mut self, keep: usize, keep_choice: bool, arena: &mut Arena) {
        while self.depth > keep {
            let d = self.depth;
            self.close_sum(d, arena);
            if !(keep_choice && d == keep + 1) {
                self.close_choice(d, arena);
            }
            self.depth -= 1;
        }
    }

    /// Closes the root (the route closed to level 0 first).
    fn close_root(&mut self, arena: &mut Arena) -> Child {
        debug_assert_eq!(self.depth, 0);
        let level = &mut self.levels[0];
        level.kids[..level.kid_count].reverse();
        arena.push_sum(
            sat(level.points),
            level.positions,
            &level.kids[..level.kid_count],
        )
    }
}

impl<'a, 'd> TreeBuilder<'a, 'd> {
    /// The points of every word of `trie` (by word id), for [`TreeBuilder::new`]: compute
    /// them once per word list, not once per class.
    pub fn word_points(trie: Trie<'_>, scoring: Scoring) -> Vec<u32> {
        scoring.word_points(trie)
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
            word_cells: None,
            atoms: None,
        }
    }

    /// Makes trees with one or two forced cells ([`MAX_DROP_FORCED`]) leave out redundant
    /// word paths: a path is left out when the word has a kept path whose choices are the
    /// same but for one cell that holds a forced cell's letter, which the kept path takes
    /// from that forced cell instead (so it passes through one forced cell more). On every
    /// board of the tree's class where the left-out path lies, the kept one lies too (its
    /// choices are a subset, and forced cells always hold their letters), so the word is
    /// still counted and `Score(B) ≤ Force(tree, B) ≤ DeMulti(B)`. (Only `Force = DeMulti` is
    /// lost.) Paths are decided in key order, and a path's partner has a smaller key, so
    /// "kept" is decided before it is asked. `word_cells` is [`WordLetters::cells`](super::WordLetters::cells) of
    /// the builder's word list.
    pub fn dropping_redundant_paths(mut self, word_cells: &'a [u8]) -> TreeBuilder<'a, 'd> {
        assert_eq!(word_cells.len(), self.trie.word_count(), "cells per word");
        self.word_cells = Some(word_cells);
        self
    }

    /// Collects the paths of the classes whose atoms ([`atoms_of`]) are `atoms`' by walking
    /// `atoms` (the same paths, found a group of letters at a time); `atoms` must be built
    /// from the builder's word list. Other classes are collected letter by letter as before.
    pub fn by_atoms(mut self, atoms: &'a AtomTrie) -> TreeBuilder<'a, 'd> {
        self.atoms = Some(atoms);
        self
    }

    /// The shift of position `p`'s 5-bit field in a path's choices.
    fn shift(&self, p: usize) -> u32 {
        5 * (self.order.len() - 1 - p) as u32
    }

    /// Bit 0 of each position's 5-bit field: [`used_fields`] reads a key's used positions
    /// with it.
    fn field_ones<C: Choices>(&self) -> C {
        (0..self.order.len()).fold(C::ZERO, |m, p| m | C::from_u8(1) << self.shift(p))
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
        self.build_limited(class, 0, usize::MAX, arena, buffers)
            .expect("no limit on paths")
    }

    /// As [`TreeBuilder::build_reusing`], for the class with the cells of `forced` (each
    /// with one letter) forced: their choices are left out of the tree. With one forced cell
    /// still `Force(tree, B) = DeMulti(B)` for the boards of the class (a word's paths differ
    /// in more than a forced cell, having as many cells), and for the top cell of the order
    /// this is the tree that branching on it gives (less its redundant paths if the builder
    /// is [`TreeBuilder::dropping_redundant_paths`]). With more, a word's paths that differ
    /// only in which forced cells they use become one path, so `Score(B) ≤ Force(tree, B) ≤
    /// DeMulti(B)`. Builds nothing and returns `None` if more than `limit` paths are collected
    /// (counted before de-duplication).
    pub fn build_limited(
        &self,
        class: &BoardClass,
        forced: u64,
        limit: usize,
        arena: &mut Arena,
        buffers: &mut PathBuffers,
    ) -> Option<SumId> {
        self.build_or_count(class, forced, limit, limit, arena, buffers)
            .ok()
    }

    /// As [`TreeBuilder::build_limited`], and when there are more than `limit` paths, counts
    /// them on without collecting: `Err` with their number, or with a number above
    /// `count_limit` (at least `limit`) if there are more than that.
    pub fn build_or_count(
        &self,
        class: &BoardClass,
        forced: u64,
        limit: usize,
        count_limit: usize,
        arena: &mut Arena,
        buffers: &mut PathBuffers,
    ) -> Result<SumId, usize> {
        let limits = [limit, count_limit.max(limit)];
        let root = if self.fits_small() {
            self.build_with(class, forced, limits, arena, &mut buffers.small)
        } else if self.fits_packed() {
            self.build_with(class, forced, limits, arena, &mut buffers.packed)
        } else {
            self.build_with(class, forced, limits, arena, &mut buffers.wide)
        };
        buffers.trim();
        root
    }

    fn build_with<K: PathKey>(
        &self,
        class: &BoardClass,
        forced: u64,
        limits: [usize; 2],
        arena: &mut Arena,
        paths: &mut Vec<K>,
    ) -> Result<SumId, usize> {
        self.walk_paths(class, forced, limits, paths)?;
        // One thread: classes are the unit of parallel work. The standard library's sort
        // took 1.7 % less CPU than rayon's parallel one on a pool of one thread (30 3x4
        // classes, whole process, 3 runs each in turn: 18.75 against 19.06 CPU s); an
        // in-place radix sort took 1.6 times as long (docs/NOTES-bench.md).
        paths.sort_unstable();
        let root = self.build_from_sorted(class.cells(), forced, paths, arena);
        paths.clear();
        Ok(root)
    }

    /// Collects every word path of `class` into `paths` (emptied first), the choices of the
    /// cells of `forced` left out of their keys; `Err` with their number (or a number above
    /// `count_limit`) if there are more than `limit`, and `paths` emptied.
    fn walk_paths<K: PathKey>(
        &self,
        class: &BoardClass,
        forced: u64,
        [limit, count_limit]: [usize; 2],
        paths: &mut Vec<K>,
    ) -> Result<(), usize> {
        let cells = class.cells();
        assert!(
            (0..cells.len()).all(|c| forced & 1 << c == 0 || cells[c].count_ones() == 1),
            "a forced cell has one letter"
        );
        let mut shifts = [0u32; MAX_TREE_CELLS];
        let mut keep = !K::C::ZERO;
        for (c, shift) in shifts[..cells.len()].iter_mut().enumerate() {
            *shift = self.shift(self.order.pos(c));
            if forced & 1 << c != 0 {
                keep = keep & !(K::C::from_u8(31) << *shift);
            }
        }
        let mut walk = PathWalk {
            cells,
            shifts: &shifts[..cells.len()],
            keep,
            limit,
            count_limit,
            count: 0,
            paths,
        };
        let finished = self.collect_all(&mut walk);
        let count = walk.count;
        if !finished || count > limit {
            paths.clear();
            return Err(count);
        }
        Ok(())
    }

    /// The tree of `paths`, sorted, of the class with letter sets `cells` and the cells of
    /// `forced` left out: de-duplicated, less the paths the forced letters make redundant if
    /// the builder drops those, and built.
    fn build_from_sorted<K: PathKey>(
        &self,
        cells: &[u32],
        forced: u64,
        paths: &mut Vec<K>,
        arena: &mut Arena,
    ) -> SumId {
        paths.dedup();
        if let Some(word_cells) = self.word_cells
            && forced != 0
        {
            assert!(
                forced.count_ones() as usize <= MAX_DROP_FORCED,
                "redundant paths of at most {MAX_DROP_FORCED} forced cells"
            );
            let mut letters = [K::C::ZERO; MAX_DROP_FORCED];
            let mut rest = forced;
            for x in &mut letters[..forced.count_ones() as usize] {
                let cell = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                *x = K::C::from_u8(cells[cell].trailing_zeros() as u8 + 1);
            }
            self.drop_redundant(paths, word_cells, &letters[..forced.count_ones() as usize]);
        }
        self.build_sorted(paths, arena).node
    }

    /// Whether this builder's paths fit a [`SmallPath`](super::paths::SmallPath) (which its
    /// builds then use).
    fn fits_small(&self) -> bool {
        self.order.len() <= SMALL_CELLS && self.trie.word_count() < 1 << SMALL_WORD_BITS
    }

    /// Whether this builder's paths fit a [`PackedPath`] (which its builds use unless they
    /// fit a [`SmallPath`](super::paths::SmallPath)).
    fn fits_packed(&self) -> bool {
        self.order.len() <= PACKED_CELLS
            && self.trie.word_count() < 1 << WORD_BITS
            && self.word_points.iter().all(|&p| p < 1 << POINTS_BITS)
    }

    /// Collects the paths that the two-cell units of `class` with the same letter on its top
    /// cell share, into `buffers`' pair source, for [`TreeBuilder::build_pair_unit`]: the
    /// paths of `class` (whose top cell in the order, `first`, has one letter; its choice is
    /// left out), each key with the choice of the cell at position 1, `second`, moved below
    /// the word, sorted. One walk and one sort then serve every letter of `second`, where each
    /// unit's own build walked and sorted nearly as many paths. False, and nothing collected
    /// (the last source freed), for builders whose paths are not packed and for classes of
    /// more than `limit` paths (counted first by a walk that keeps none, unless `limit` is
    /// `usize::MAX`).
    pub fn collect_pair_source(
        &self,
        class: &BoardClass,
        first: usize,
        second: usize,
        limit: usize,
        buffers: &mut PathBuffers,
    ) -> bool {
        assert_eq!(self.order.pos(first), 0, "the top cell first");
        assert_eq!(self.order.pos(second), 1, "the second cell next");
        buffers.pair_source_first = None;
        // The builds of this builder's units use packed paths, which the source must match.
        let packed = !self.fits_small() && self.fits_packed();
        // A walk that keeps no path counts them.
        let too_many = || {
            self.walk_paths(class, 1 << first, [0, limit], &mut Vec::<PackedPath>::new())
                .is_err_and(|count| count > limit)
        };
        if !packed || (limit < usize::MAX && too_many()) {
            buffers.release_pair_source();
            return false;
        }
        let mut paths = std::mem::take(&mut buffers.pair_source);
        self.walk_paths(class, 1 << first, [usize::MAX; 2], &mut paths)
            .expect("no limit on paths");
        let at = self.shift(1) + POINTS_BITS + WORD_BITS;
        let field = 31u128 << at;
        for path in &mut paths {
            // The top field (position 0) is the forced cell's, left out: shifting by one
            // field loses nothing.
            debug_assert_eq!(path.0 >> (128 - 5), 0);
            path.0 = (path.0 & !field) << 5 | (path.0 & field) >> at;
        }
        paths.sort_unstable();
        buffers.pair_source = paths;
        buffers.pair_source_first = Some((first, class.cells()[first]));
        true
    }

    /// The unit tree of `class`, whose cells `first` (the top one) and `second` have one
    /// letter each, both forced, from the pair source that [`TreeBuilder::collect_pair_source`]
    /// left in `buffers` for the same letter on `first`: the paths whose `second` choice is
    /// none or its letter, in order already. The same tree, word for word, as
    /// [`TreeBuilder::build_limited`] with both forced.
    pub fn build_pair_unit(
        &self,
        class: &BoardClass,
        first: usize,
        second: usize,
        arena: &mut Arena,
        buffers: &mut PathBuffers,
    ) -> SumId {
        assert_eq!(
            buffers.pair_source_first,
            Some((first, class.cells()[first])),
            "a pair source for this letter on the top cell"
        );
        let letter = class.cells()[second];
        assert_eq!(letter.count_ones(), 1, "a forced cell has one letter");
        let choice = letter.trailing_zeros() as u128 + 1;
        let mut paths = std::mem::take(&mut buffers.packed);
        paths.clear();
        // Keys ordered by all but their last field stay in order once it is shifted out.
        paths.extend(
            buffers
                .pair_source
                .iter()
                .filter(|p| p.0 & 31 == 0 || p.0 & 31 == choice)
                .map(|p| PackedPath(p.0 >> 5)),
        );
        let root =
            self.build_from_sorted(class.cells(), 1 << first | 1 << second, &mut paths, arena);
        paths.clear();
        buffers.packed = paths;
        buffers.trim();
        root
    }

    /// Collects every word path of the walk's class into its `paths` (emptied first; past
    /// the walk's limit, counts them only); false if it stopped at the walk's count limit.
    fn collect_all<K: PathKey>(&self, walk: &mut PathWalk<'_, K>) -> bool {
        walk.paths.clear();
        if let Some(atoms) = self.atoms
            && atoms.atoms() == atoms_of(walk.cells)
        {
            return self.collect_all_atoms(walk, atoms);
        }
        let root = self.trie.root();
        let root_mask = self.trie.child_mask(root);
        for (cell, &set) in walk.cells.iter().enumerate() {
            let mut letters = set & root_mask;
            while letters != 0 {
                let l = letters.trailing_zeros() as u8;
                letters &= letters - 1;
                let node = self.trie.child_unchecked_letter(root, root_mask, l);
                let key = K::C::from_u8(l + 1) << walk.shifts[cell];
                if !self.collect(walk, cell, node, 1 << cell, key) {
                    return false;
                }
            }
        }
        true
    }

    /// [`TreeBuilder::collect_all`] over `atoms`, the tree of the walk's class's atoms.
    fn collect_all_atoms<K: PathKey>(&self, walk: &mut PathWalk<'_, K>, atoms: &AtomTrie) -> bool {
        // The atoms that each cell's letter set holds (whole: a cell's set is a union of
        // atoms).
        let mut cell_atoms = [0u32; MAX_TREE_CELLS];
        for (c, &set) in walk.cells.iter().enumerate() {
            for (a, &atom) in atoms.atoms().iter().enumerate() {
                if set & atom != 0 {
                    cell_atoms[c] |= 1 << a;
                }
            }
        }
        let root = atoms.root();
        let mut route = [0u8; MAX_TREE_CELLS];
        for cell in 0..walk.cells.len() {
            let mask = atoms.mask(root);
            let mut next = cell_atoms[cell] & mask;
            while next != 0 {
                let a = next.trailing_zeros();
                next &= next - 1;
                route[0] = cell as u8;
                let at = AtomWalk {
                    atoms,
                    cell_atoms: &cell_atoms,
                };
                if !self.collect_atoms(walk, &at, &mut route, 1, atoms.child(root, a), 1 << cell) {
                    return false;
                }
            }
        }
        true
    }

    /// Records every word path whose cells begin with `route[..len]` (cells `used`) and whose
    /// atoms spell `node`'s path (counts them only, past the walk's limit); false once there
    /// are more than the walk's count limit.
    fn collect_atoms<K: PathKey>(
        &self,
        walk: &mut PathWalk<'_, K>,
        at: &AtomWalk<'_>,
        route: &mut [u8; MAX_TREE_CELLS],
        len: usize,
        node: u32,
        used: u64,
    ) -> bool {
        let words = at.atoms.words(node);
        walk.count += words.len();
        if walk.count > walk.limit {
            if walk.count > walk.count_limit {
                return false;
            }
        } else {
            // Every word of these atoms lies on the route: each cell holds its letter's atom.
            let spelled = at.atoms.spelled(node, len).chunks_exact(len);
            for (&w, letters) in words.iter().zip(spelled) {
                let key = letters
                    .iter()
                    .zip(&route[..len])
                    .fold(K::C::ZERO, |k, (&l, &c)| {
                        k | K::C::from_u8(l + 1) << walk.shifts[c as usize]
                    });
                walk.paths
                    .push(K::new(key & walk.keep, w, self.word_points[w as usize]));
            }
        }
        let mask = at.atoms.mask(node);
        if mask == 0 {
            return true;
        }
        let cell = route[len - 1] as usize;
        let mut next = self.geometry.neighbor_mask(cell) & !used;
        while next != 0 {
            let n = next.trailing_zeros() as usize;
            next &= next - 1;
            let mut here = at.cell_atoms[n] & mask;
            while here != 0 {
                let a = here.trailing_zeros();
                here &= here - 1;
                route[len] = n as u8;
                if !self.collect_atoms(
                    walk,
                    at,
                    route,
                    len + 1,
                    at.atoms.child(node, a),
                    used | 1 << n,
                ) {
                    return false;
                }
            }
        }
        true
    }

    /// Records every word path that extends the path ending on `cell` at trie `node` (cells
    /// `used`, choices `key`; counts them only, past the walk's limit); false once there are
    /// more than the walk's count limit.
    fn collect<K: PathKey>(
        &self,
        walk: &mut PathWalk<'_, K>,
        cell: usize,
        node: NodeId,
        used: u64,
        key: K::C,
    ) -> bool {
        if let Some(w) = self.trie.word(node) {
            walk.count += 1;
            if walk.count > walk.limit {
                if walk.count > walk.count_limit {
                    return false;
                }
            } else {
                walk.paths
                    .push(K::new(key & walk.keep, w, self.word_points[w as usize]));
            }
        }
        let mask = self.trie.child_mask(node);
        if mask == 0 {
            return true;
        }
        let mut next = self.geometry.neighbor_mask(cell) & !used;
        while next != 0 {
            let n = next.trailing_zeros() as usize;
            next &= next - 1;
            let mut letters = walk.cells[n] & mask;
            while letters != 0 {
                let l = letters.trailing_zeros() as u8;
                letters &= letters - 1;
                let child = self.trie.child_unchecked_letter(node, mask, l);
                if !self.collect(
                    walk,
                    n,
                    child,
                    used | 1 << n,
                    key | K::C::from_u8(l + 1) << walk.shifts[n],
                ) {
                    return false;
                }
            }
        }
        true
    }

    /// Leaves out of `paths` (sorted and de-duplicated, the forced cells left out of their
    /// keys; `forced` holds their letters in key form, letter + 1) every path with a forced
    /// letter on a cell whose choice, taken away, leaves the key of a kept path of the same
    /// word (which then passes through one forced cell more: it has one choice fewer). See
    /// [`TreeBuilder::dropping_redundant_paths`].
    ///
    /// One pass, in place, with no sort: taking a choice away from a key makes it smaller, so
    /// the path looked for comes before the one looked from; and among paths with one letter
    /// at one position, taking that choice away keeps their order (two such keys first differ
    /// elsewhere), so the keys looked for at each position and forced letter rise, and one
    /// cursor per position and forced letter moves forward only. (Replaced a scan of every
    /// path per position, each sorting its reduced keys: 3.6x faster, 4x4 59040's whole
    /// break 0.94 of the time, its peak RSS 0.89; docs/NOTES-bench.md.)
    fn drop_redundant<K: PathKey>(&self, paths: &mut Vec<K>, word_cells: &[u8], forced: &[K::C]) {
        let n = self.order.len();
        let ones = self.field_ones();
        let used = |c: K::C| used_fields(c, ones);
        // Each forced letter in every field, once (two forced cells may hold one letter).
        let mut everywhere = [K::C::ZERO; MAX_DROP_FORCED];
        let mut letters = 0;
        for (k, &letter) in forced.iter().enumerate() {
            if !forced[..k].contains(&letter) {
                everywhere[letters] = (0..n).fold(K::C::ZERO, |m, p| m | letter << self.shift(p));
                letters += 1;
            }
        }
        let top = K::C::BITS - 1;
        // `cursor[k][f]`: every kept path before it is below the key last looked for by
        // taking away the `k`-th distinct forced letter in field `f` (bits `5 f` up), and so
        // below every later one.
        let mut cursor = [[0usize; MAX_TREE_CELLS]; MAX_DROP_FORCED];
        let mut kept = 0;
        // A path through every forced cell has no partner (it would pass through one more).
        let least =
            |word: u32| (word_cells[word as usize] as u32 + 1).saturating_sub(forced.len() as u32);
        // Invariant: `paths[..kept]` holds, in order, the paths before `i` that are not
        // redundant.
        for i in 0..paths.len() {
            let path = paths[i];
            let c = path.choices();
            let mut redundant = false;
            if used(c).count_ones() >= least(path.word()) {
                for (k, &in_every_field) in everywhere[..letters].iter().enumerate() {
                    // The fields holding this forced letter (forced cells' fields are empty).
                    let mut fields = ones & !used(c ^ in_every_field);
                    while fields != K::C::ZERO && !redundant {
                        let bit = top - fields.leading_zeros();
                        fields = fields & !(K::C::from_u8(1) << bit);
                        let key = path.with_choices(c & !(K::C::from_u8(31) << bit));
                        let at = &mut cursor[k][(bit / 5) as usize];
                        *at += prefix_len(kept - *at, |d| paths[*at + d] < key);
                        redundant = *at < kept && paths[*at] == key;
                    }
                }
            }
            if !redundant {
                paths[kept] = path;
                kept += 1;
            }
        }
        paths.truncate(kept);
    }

    /// Builds the tree of `paths` (sorted and de-duplicated) in one pass and returns its
    /// root. A path's key spells its route down the tree, one choice node and the sum under
    /// its letter per choice, position by position; sorted keys meet the paths of each node
    /// in one run. The route of the previous path is kept open ([`OpenRoute`]): each path
    /// closes it below the first position where the two keys differ (pushing those nodes,
    /// children before parents, now that no later path reaches them) and opens its own
    /// route from there. (Replaced a recursive build that split the sorted paths into
    /// groups by searching: 0.52 → 0.35 s on a 3x3 class of 4.8 million paths.)
    fn build_sorted<K: PathKey>(&self, paths: &[K], arena: &mut Arena) -> Child {
        let n = self.order.len();
        let mut route = OpenRoute::new(n);
        let ones = self.field_ones();
        let used = |c: K::C| used_fields(c, ones);
        let top = K::C::BITS - 1;
        let mut prev: Option<K::C> = None;
        // Invariant: the route open is that of `prev`, the last path added, and every node
        // made so far lies off it and below it, complete.
        for path in paths {
            let c = path.choices();
            // The first position at which this path leaves the open route, and how many of
            // the route's choices it keeps.
            let from_bit = match prev {
                None => K::C::BITS,
                Some(old) => {
                    let x = old ^ c;
                    if x != K::C::ZERO {
                        let bit = top - x.leading_zeros();
                        let sh = bit - bit % 5;
                        let keep = (used(c) >> (sh + 5)).count_ones() as usize;
                        let was = (old >> sh).low_u8() & 31;
                        route.close_to(keep, was != 0, arena);
                        sh + 5
                    } else {
                        0
                    }
                }
            };
            // Open the path's choices from the first one where it differs.
            let mut rest = if from_bit >= K::C::BITS {
                c
            } else {
                c & !(!K::C::ZERO << from_bit)
            };
            while rest != K::C::ZERO {
                let bit = top - rest.leading_zeros();
                let sh = bit - bit % 5;
                let letter = ((c >> sh).low_u8() & 31) - 1;
                rest = rest & !(K::C::from_u8(31) << sh);
                route.open(n - 1 - (sh / 5) as usize, letter);
            }
            route.add_points(path.points(self.word_points));
            prev = Some(c);
        }
        route.close_to(0, false, arena);
        route.close_root(arena)
    }
}

#[cfg(test)]
mod tests {
    use super::super::atoms::WordLetters;
    use super::super::paths::{SmallPath, WidePath};
    use super::*;
    use crate::board::Size;
    use crate::dict::Dictionary;

    /// Every path layout builds the same tree, word for word: the small one is what classes
    /// of up to 9 cells use, the packed one up to 19 cells, the wide one what larger boards
    /// (and large points) fall back on.
    #[test]
    fn small_packed_and_wide_paths_build_the_same_tree() {
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
                let a = builder
                    .build_with(&class, 0, [usize::MAX; 2], &mut packed, &mut buffers.packed)
                    .unwrap();
                let b = builder
                    .build_with(&class, 0, [usize::MAX; 2], &mut wide, &mut buffers.wide)
                    .unwrap();
                assert_eq!((a, packed.created()), (b, wide.created()), "{class}");
                assert_eq!(packed.raw_words(), wide.raw_words(), "{class}");
                assert!(packed.bound(a) > 0, "{class}");
                if size.cells() <= SMALL_CELLS {
                    let mut small = Arena::new();
                    let c = builder
                        .build_with(&class, 0, [usize::MAX; 2], &mut small, &mut buffers.small)
                        .unwrap();
                    assert_eq!((c, small.created()), (a, packed.created()), "{class}");
                    assert_eq!(small.raw_words(), packed.raw_words(), "{class}");
                }
                // The limit is exact: the least limit that builds is the class's path
                // count, and it builds the same tree; one less builds nothing.
                let build = |limit: usize| {
                    let mut arena = Arena::new();
                    let root = builder.build_limited(
                        &class,
                        0,
                        limit,
                        &mut arena,
                        &mut PathBuffers::default(),
                    );
                    (root, arena)
                };
                let (mut fails, mut builds) = (0, 1 << 24);
                assert!(
                    build(fails).0.is_none() && build(builds).0.is_some(),
                    "{class}"
                );
                while builds - fails > 1 {
                    let mid = (fails + builds) / 2;
                    if build(mid).0.is_some() {
                        builds = mid;
                    } else {
                        fails = mid;
                    }
                }
                let (c, at_limit) = build(builds);
                assert_eq!(c, Some(a), "{class}");
                assert_eq!(at_limit.raw_words(), packed.raw_words(), "{class}");
            }
        }
    }

    /// A two-cell unit built from its top letter's pair source is the tree its own build
    /// makes, word for word, for every pair of letters of the top two cells, with redundant
    /// paths dropped and without; a top letter of more paths than the limit and builders
    /// whose paths are not packed make no source.
    #[test]
    fn pair_units_from_a_shared_source_are_their_own_builds() {
        let dict = Dictionary::enable2k();
        let word_cells = WordLetters::new(dict.trie()).cells();
        for (size, class) in [
            ("3x4", "st aei rl pl aeo st ei nrt sd ae rt qu"),
            (
                "4x4",
                "bcd aei lnrst aeiou st aeo lnr aei rst e aeiou dgs ae lnrst aeiou st",
            ),
        ] {
            let size: Size = size.parse().unwrap();
            let geometry = Geometry::new(size);
            let order = CellOrder::centre_first(&geometry);
            let class = BoardClass::parse(size, class).unwrap();
            let points = TreeBuilder::word_points(dict.trie(), Scoring::Standard);
            let (first, second) = (order.cell(0), order.cell(1));
            let narrowed = |sets: &[(usize, u8)]| {
                let mut cells = class.cells().to_vec();
                for &(cell, l) in sets {
                    cells[cell] = 1 << l;
                }
                BoardClass::new(size, cells).unwrap()
            };
            let sets = class.cells().to_vec();
            let letters = |cell: usize| {
                let set = sets[cell];
                (0..26u8).filter(move |l| set >> l & 1 != 0)
            };
            assert!(
                letters(first).count() > 1 && letters(second).count() > 1,
                "{class}"
            );
            for drop in [false, true] {
                let mut builder = TreeBuilder::new(dict.trie(), &geometry, &order, &points);
                if drop {
                    builder = builder.dropping_redundant_paths(&word_cells);
                }
                let mut buffers = PathBuffers::default();
                for x in letters(first) {
                    let top = narrowed(&[(first, x)]);
                    let mut count = PathBuffers::default();
                    let paths = builder
                        .build_or_count(
                            &top,
                            1 << first,
                            0,
                            usize::MAX,
                            &mut Arena::new(),
                            &mut count,
                        )
                        .unwrap_err();
                    // Over the limit, no source, and the last one freed.
                    assert!(!builder.collect_pair_source(
                        &top,
                        first,
                        second,
                        paths - 1,
                        &mut buffers
                    ));
                    assert!(!buffers.has_pair_source(first, 1 << x));
                    assert_eq!(buffers.pair_source.capacity(), 0);
                    assert!(builder.collect_pair_source(&top, first, second, paths, &mut buffers));
                    assert!(buffers.has_pair_source(first, 1 << x));
                    assert_eq!(buffers.pair_source.len(), paths);
                    for y in letters(second) {
                        let unit = narrowed(&[(first, x), (second, y)]);
                        let forced = 1 << first | 1 << second;
                        let (mut own, mut shared) = (Arena::new(), Arena::new());
                        let a = builder
                            .build_limited(
                                &unit,
                                forced,
                                usize::MAX,
                                &mut own,
                                &mut PathBuffers::default(),
                            )
                            .unwrap();
                        let b = builder.build_pair_unit(
                            &unit,
                            first,
                            second,
                            &mut shared,
                            &mut buffers,
                        );
                        assert_eq!(a, b, "{unit}");
                        assert_eq!(own.raw_words(), shared.raw_words(), "{unit}");
                        assert_eq!(own.created(), shared.created(), "{unit}");
                    }
                }
                buffers.release_pair_source();
                assert!(!buffers.has_pair_source(first, 1 << letters(first).next().unwrap()));
            }
        }
        // A 3x3 builder's paths are small ones: it makes no source.
        let size: Size = "3x3".parse().unwrap();
        let geometry = Geometry::new(size);
        let order = CellOrder::centre_first(&geometry);
        let points = TreeBuilder::word_points(dict.trie(), Scoring::Standard);
        let builder = TreeBuilder::new(dict.trie(), &geometry, &order, &points);
        let mut cells = vec![0b111u32; 9];
        cells[order.cell(0)] = 1;
        let class = BoardClass::new(size, cells).unwrap();
        let mut buffers = PathBuffers::default();
        assert!(!builder.collect_pair_source(
            &class,
            order.cell(0),
            order.cell(1),
            usize::MAX,
            &mut buffers
        ));
        assert!(!buffers.has_pair_source(order.cell(0), 1));
    }

    /// Collecting by atoms builds the same tree as collecting letter by letter, word for
    /// word, on classes of buckets, of random letter sets (many atoms), with whole cells and
    /// with a forced cell, and the limit counts the same paths.
    #[test]
    fn paths_by_atoms_build_the_same_tree() {
        let dict = Dictionary::enable2k();
        let letters = WordLetters::new(dict.trie());
        let mut classes = vec![
            (
                "3x3",
                "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz".to_string(),
                0u64,
            ),
            ("3x4", "st ae rl pl ae st ei nr sd ae rt qu".to_string(), 0),
            ("2x2", "abcdefghijklmnopqrstuvwxyz e s t".to_string(), 0),
            (
                "3x3",
                "abcdefghijklmnopqrstuvwxyz aeijou e hklnrsty aeijou bcdfgmpqvwxz abcdefghijklmnopqrstuvwxyz hklnrsty abcdefghijklmnopqrstuvwxyz".to_string(),
                1 << 2,
            ),
        ];
        // Random letter sets: letters fall into many atoms.
        let mut rng = crate::rng::Rng::new(12345);
        for _ in 0..6 {
            let mut sets = Vec::new();
            for _ in 0..9 {
                let mut set = String::new();
                for l in b'a'..=b'z' {
                    if rng.below(8) == 0 {
                        set.push(l as char);
                    }
                }
                if set.is_empty() {
                    set.push('e');
                }
                sets.push(set);
            }
            classes.push(("3x3", sets.join(" "), 0));
        }
        for (size, class, forced) in classes {
            let size: Size = size.parse().unwrap();
            let geometry = Geometry::new(size);
            let order = CellOrder::centre_first(&geometry);
            let class = BoardClass::parse(size, &class).unwrap();
            let points = TreeBuilder::word_points(dict.trie(), Scoring::Standard);
            let atoms = AtomTrie::new(
                dict.trie(),
                &letters,
                &atoms_of(class.cells()),
                size.cells(),
            );
            let by_letter = TreeBuilder::new(dict.trie(), &geometry, &order, &points);
            let by_atom =
                TreeBuilder::new(dict.trie(), &geometry, &order, &points).by_atoms(&atoms);
            let build = |builder: &TreeBuilder<'_, '_>, limit: usize| {
                let mut arena = Arena::new();
                let root = builder.build_limited(
                    &class,
                    forced,
                    limit,
                    &mut arena,
                    &mut PathBuffers::default(),
                );
                (root, arena)
            };
            let (a, mut letter_arena) = build(&by_letter, usize::MAX);
            let (b, atom_arena) = build(&by_atom, usize::MAX);
            assert_eq!(a, b, "{class}");
            assert_eq!(letter_arena.raw_words(), atom_arena.raw_words(), "{class}");
            assert_eq!(letter_arena.created(), atom_arena.created(), "{class}");
            assert!(letter_arena.peak_bytes() > 0, "{class}");
            // The same number of paths before de-duplication: the least limit that builds.
            let least = |builder: &TreeBuilder<'_, '_>| {
                let (mut fails, mut builds) = (0, 1 << 24);
                while builds - fails > 1 {
                    let mid = (fails + builds) / 2;
                    if build(builder, mid).0.is_some() {
                        builds = mid;
                    } else {
                        fails = mid;
                    }
                }
                builds
            };
            let paths = least(&by_letter);
            assert_eq!(paths, least(&by_atom), "{class}");
            // Past the limit the walk counts them on, by atoms and by letters.
            for builder in [&by_letter, &by_atom] {
                let mut arena = Arena::new();
                let mut buffers = PathBuffers::default();
                let mut count = |limit, count_limit| {
                    builder.build_or_count(
                        &class,
                        forced,
                        limit,
                        count_limit,
                        &mut arena,
                        &mut buffers,
                    )
                };
                assert_eq!(count(paths / 3, usize::MAX), Err(paths), "{class}");
                assert_eq!(count(0, paths), Err(paths), "{class}");
                assert!(
                    count(paths / 3, paths - 1).unwrap_err() > paths - 1,
                    "{class}"
                );
                assert!(count(paths, 0).is_ok(), "{class}");
            }
        }
    }

    /// `drop_redundant` leaves out exactly the paths that the rule's plain statement does:
    /// in key order, a path one of whose choices holds a forced letter and, taken away,
    /// leaves a path already kept. Random sets over three letters, with one forced cell and
    /// with two (of one letter or two), half of the paths built with a partner, and chains
    /// of partners; for every key type.
    #[test]
    fn redundant_paths_are_the_ones_with_a_partner() {
        use crate::rng::Rng;
        use std::collections::HashSet;
        fn check<K: PathKey + std::hash::Hash + std::fmt::Debug>(
            builder: &TreeBuilder<'_, '_>,
            rng: &mut Rng,
            nf: usize,
        ) {
            let n = builder.order.len();
            // `nf` distinct forced positions; their letters 2, and 2 or 3.
            let mut forced = Vec::new();
            while forced.len() < nf {
                let p = rng.below(n as u64) as usize;
                if !forced.contains(&p) {
                    forced.push(p);
                }
            }
            let letters: Vec<K::C> = (0..nf)
                .map(|k| K::C::from_u8(2 + (k > 0 && rng.below(2) == 1) as u8))
                .collect();
            let field_of = |c: K::C, p: usize| (c >> builder.shift(p)) & K::C::from_u8(31);
            // At most n - nf cells: a path that skips every forced cell has room for them.
            let word_cells: Vec<u8> = (0..40)
                .map(|_| 2 + rng.below((n - nf - 1) as u64) as u8)
                .collect();
            // The key less one of its fields holding a forced letter, if it has one.
            let partner = |rng: &mut Rng, c: K::C| {
                let with_letter: Vec<usize> = (0..n)
                    .filter(|&p| letters.contains(&field_of(c, p)))
                    .collect();
                (!with_letter.is_empty()).then(|| {
                    let p = with_letter[rng.below(with_letter.len() as u64) as usize];
                    c & !(K::C::from_u8(31) << builder.shift(p))
                })
            };
            let mut paths = Vec::new();
            for _ in 0..3000 {
                let word = rng.below(word_cells.len() as u64) as u32;
                let cells = word_cells[word as usize] as usize;
                let through = rng.below(nf as u64 + 1) as usize;
                // Distinct positions other than the forced ones, with letters 1 to 3.
                let mut c = K::C::ZERO;
                let mut placed = 0;
                while placed < cells - through {
                    let p = rng.below(n as u64) as usize;
                    let field = K::C::from_u8(31) << builder.shift(p);
                    if !forced.contains(&p) && c & field == K::C::ZERO {
                        let l = K::C::from_u8(1 + rng.below(3) as u8);
                        c = c | l << builder.shift(p);
                        placed += 1;
                    }
                }
                let path = K::new(c, word, 1);
                paths.push(path);
                // Half the time, the path's partner (through one forced cell more), and so on
                // while there is a forced cell left: chains of partners.
                let mut at = (c, through);
                while at.1 < nf && rng.below(2) == 1 {
                    let Some(p) = partner(rng, at.0) else { break };
                    paths.push(path.with_choices(p));
                    at = (p, at.1 + 1);
                }
            }
            paths.sort_unstable();
            paths.dedup();
            // The rule, stated plainly: in key order, a path is left out when taking away
            // one of its fields holding a forced letter leaves a path already kept.
            let mut kept: HashSet<K> = HashSet::new();
            let mut want = Vec::new();
            for &path in &paths {
                let c = path.choices();
                let redundant = (0..n).any(|p| {
                    let field = K::C::from_u8(31) << builder.shift(p);
                    letters.contains(&field_of(c, p))
                        && kept.contains(&path.with_choices(c & !field))
                });
                if !redundant {
                    kept.insert(path);
                    want.push(path);
                }
            }
            assert!(want.len() < paths.len(), "no path was redundant");
            builder.drop_redundant(&mut paths, &word_cells, &letters);
            assert_eq!(paths, want);
        }
        let dict = Dictionary::enable2k();
        let mut rng = Rng::new(20261129);
        // Every key type a build may use: 5x5 keys (and any board's, with large points or
        // a large word list) are wide.
        for size in ["3x3", "4x4", "5x5"] {
            let size: Size = size.parse().unwrap();
            let geometry = Geometry::new(size);
            let order = CellOrder::centre_first(&geometry);
            let points = TreeBuilder::word_points(dict.trie(), Scoring::Standard);
            let builder = TreeBuilder::new(dict.trie(), &geometry, &order, &points);
            for nf in (1..=MAX_DROP_FORCED).cycle().take(20) {
                if size.cells() <= SMALL_CELLS {
                    check::<SmallPath>(&builder, &mut rng, nf);
                }
                if size.cells() <= PACKED_CELLS {
                    check::<PackedPath>(&builder, &mut rng, nf);
                }
                check::<WidePath>(&builder, &mut rng, nf);
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
