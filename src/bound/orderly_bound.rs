//! OrderlyBound: a depth-first walk over the remaining cells of an orderly tree that finds
//! every board whose forced score reaches the threshold, without building new nodes.
//!
//! # Invariant
//! At position `p` the walk has fixed the letters of cells at positions `< p`. `points` is
//! the sum of the points of every sum node whose path those letters realise and whose
//! choices lie entirely before `p`; `stacks[q]` holds the choice nodes at position `q ≥ p`
//! hanging off such realised sum nodes. Then for every board `B` extending the fixed
//! letters, `Force(T, B) = points + Σ Force(node, B)` over the stacked nodes (the paper's
//! lemma, per-cell stacks instead of one). When every cell is fixed the stacks are empty and
//! `points = Force(T, B)` exactly.
//!
//! # The bound: the best letter per position
//! The paper bounds the stacked nodes by the sum of their bounds, letting every node pick
//! its own best letter, though the nodes stacked at one position all read the same cell.
//! The walk instead keeps, for each position `q` and letter `l`, the sum of the stacked
//! nodes' child bounds for `l`. A board puts one letter `l` on that cell, and each node then
//! forces at most its `l` child's bound, so `Σ Force(node, B) ≤ max_l (sum for l)` over the
//! nodes at `q`: at most the sum of their own bounds, often far below it. The walk stops
//! when `points` plus these per-position bounds is below `S`, and skips a letter at `p`
//! whose own sum cannot reach `S` with them, before stacking anything. This is the
//! synchronisation a merge buys, one level deep and without building nodes; it lets the
//! breaker hand larger trees to the walk.

use super::tree::{Arena, CellOrder, MAX_TREE_CELLS, SumId};

/// Storage that one OrderlyBound walk hands to the next ([`OrderlyBound::into_scratch`]), so
/// that the many small walks of a class reuse their stacks and saved sums. (The letter sums
/// themselves, a few hundred bytes, are allocated per walk: reusing them too measured no
/// faster, 1.04 on 446667 in 6 alternating pairs.)
#[derive(Debug, Default)]
pub struct WalkScratch {
    stacks: Vec<Vec<u32>>,
    saved: Vec<[u64; 26]>,
}

/// The state of one OrderlyBound walk.
pub struct OrderlyBound<'a> {
    arena: &'a Arena,
    order: &'a CellOrder,
    /// Letter set of each cell.
    cells: &'a [u32],
    threshold: u64,
    stacks: Vec<Vec<u32>>,
    /// `letter_bounds[q][l]`: the sum, over the choice nodes in `stacks[q]`, of the bound of
    /// each node's child for letter `l` (0 where it has none).
    letter_bounds: Vec<[u64; 26]>,
    /// `saved[p * n + q]`: row `q` of `letter_bounds` as it was before the walk at position
    /// `p` stacked the nodes of its current letter, restored after (`n` positions).
    saved: Vec<[u64; 26]>,
    /// The letter fixed on each cell so far.
    pub letters: Vec<u8>,
    /// Boards found, with their forced score.
    pub found: Vec<(Vec<u8>, u32)>,
    /// `eliminated[d]`: walks stopped after fixing `d` cells.
    pub eliminated: Vec<u64>,
    /// A mirror pair of a class that is its own image ([`MirrorPair`]): at its late position
    /// the walk takes no letter below its early cell's.
    mirror: Option<MirrorPair>,
}

/// Two cells that a symmetry of a class swaps (the class is its own image under it, and the
/// symmetry is its own inverse): of every board and its image, one has a letter on `early`
/// at most the letter on the cell at position `late`, so only those boards need be found.
/// `early`'s position in the order is before `late`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MirrorPair {
    /// The cell fixed first.
    pub early: usize,
    /// The position in the order of the other cell.
    pub late: usize,
}

impl MirrorPair {
    /// The letters of `letters` that the cell at position `p` may take, with the letters
    /// fixed so far in `fixed` (by cell): at the pair's late position, those not below the
    /// early cell's letter; elsewhere, or without a pair, all of them.
    #[inline]
    pub fn letters_at(pair: Option<MirrorPair>, p: usize, fixed: &[u8], letters: u32) -> u32 {
        match pair {
            Some(m) if m.late == p => letters & !((1u32 << fixed[m.early]) - 1),
            _ => letters,
        }
    }
}

impl<'a> OrderlyBound<'a> {
    /// A walk over `arena`'s trees for a class with per-cell letter sets `cells`, whose
    /// letters before the start position are already in `letters`. `scratch` is reused
    /// storage (from [`OrderlyBound::into_scratch`], or the default).
    pub fn new(
        arena: &'a Arena,
        order: &'a CellOrder,
        cells: &'a [u32],
        threshold: u32,
        letters: Vec<u8>,
        scratch: WalkScratch,
    ) -> OrderlyBound<'a> {
        let n = order.len();
        let WalkScratch {
            mut stacks,
            mut saved,
        } = scratch;
        stacks.resize_with(n, Vec::new);
        // Every saved row is written before it is read, so old contents do no harm.
        saved.resize(n * n, [0; 26]);
        OrderlyBound {
            arena,
            order,
            cells,
            threshold: threshold as u64,
            stacks,
            letter_bounds: vec![[0; 26]; n],
            saved,
            letters,
            found: Vec::new(),
            eliminated: vec![0; order.len() + 1],
            mirror: None,
        }
    }

    /// Finds only one board of each mirror pair of a class that is its own image: at
    /// `pair.late` the walk skips letters below the one on `pair.early` (fixed before).
    pub fn with_mirror(mut self, pair: Option<MirrorPair>) -> OrderlyBound<'a> {
        self.mirror = pair;
        self
    }

    /// The storage, stacks emptied, for the next walk.
    pub fn into_scratch(self) -> WalkScratch {
        WalkScratch {
            stacks: self.stacks,
            saved: self.saved,
        }
    }

    /// Runs the walk on `tree`, whose cells all lie at positions `≥ p`.
    pub fn run(&mut self, tree: SumId, p: usize) {
        for (c, pos) in self.arena.choices(tree) {
            self.stacks[pos].push(c);
        }
        for q in p..self.order.len() {
            self.add_letter_bounds(q, 0);
        }
        self.step(p, self.arena.points(tree) as u64);
        for s in &mut self.stacks {
            s.clear();
        }
        for row in &mut self.letter_bounds {
            *row = [0; 26];
        }
    }

    /// Adds the child bounds of the nodes stacked at position `pos` from index `from` on to
    /// the position's letter sums.
    #[inline]
    fn add_letter_bounds(&mut self, pos: usize, from: usize) {
        let row = &mut self.letter_bounds[pos];
        for &c in &self.stacks[pos][from..] {
            let (mut mask, entries) = self.arena.choice_letters(c);
            for pair in entries.chunks_exact(2) {
                row[mask.trailing_zeros() as usize] += pair[1] as u64;
                mask &= mask - 1;
            }
        }
    }

    /// The most that the nodes stacked at position `q` can force together: their summed
    /// child bounds for the best letter the cell may take. Every board puts one letter there,
    /// so this bounds their forced sum, and it is at most the sum of their own bounds.
    #[inline]
    fn position_bound(&self, q: usize) -> u64 {
        let row = &self.letter_bounds[q];
        let mut letters = self.cells[self.order.cell(q)];
        let mut best = 0;
        while letters != 0 {
            best = best.max(row[letters.trailing_zeros() as usize]);
            letters &= letters - 1;
        }
        best
    }

    fn step(&mut self, p: usize, points: u64) {
        let n = self.order.len();
        let later: u64 = (p + 1..n).map(|q| self.position_bound(q)).sum();
        let here_bound = if p < n { self.position_bound(p) } else { 0 };
        if points + here_bound + later < self.threshold {
            self.eliminated[p] += 1;
            return;
        }
        if p == n {
            // Every cell is fixed: the stacks are empty and `points` is the forced score.
            self.found
                .push((self.letters.clone(), points.min(u32::MAX as u64) as u32));
            return;
        }
        let cell = self.order.cell(p);
        let here = std::mem::take(&mut self.stacks[p]);
        let mut lens = [0u32; MAX_TREE_CELLS];
        for (len, s) in lens.iter_mut().zip(&self.stacks[p + 1..]) {
            *len = s.len() as u32;
        }
        let mut letters = MirrorPair::letters_at(self.mirror, p, &self.letters, self.cells[cell]);
        while letters != 0 {
            let l = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            if points + self.letter_bounds[p][l as usize] + later < self.threshold {
                self.eliminated[p + 1] += 1;
                continue;
            }
            // Three passes, so that the cache misses of one pass overlap: start loading the
            // sum children for `l`, stack their choice children (starting to load those),
            // then add the new nodes' child bounds to the letter sums.
            for &c in &here {
                if let Some(s) = self.arena.choice_child(c, l) {
                    self.arena.prefetch(s);
                }
            }
            let mut add = 0u64;
            for &c in &here {
                if let Some(s) = self.arena.choice_child(c, l) {
                    add += self.arena.points(s) as u64;
                    for (k, pos) in self.arena.choices(s) {
                        // Orderly: a child's cell comes after its parent's, so after `p`.
                        self.stacks[pos].push(k);
                        self.arena.prefetch(k);
                    }
                }
            }
            // The rows that gain nodes are saved and restored afterwards: a copy of 26 sums
            // instead of a second pass over the new nodes (scattered in the arena) to take
            // their bounds back out.
            let mut changed = 0u32;
            for (q, &len) in (p + 1..n).zip(&lens) {
                if self.stacks[q].len() > len as usize {
                    changed |= 1 << q;
                    self.saved[p * n + q] = self.letter_bounds[q];
                    self.add_letter_bounds(q, len as usize);
                }
            }
            self.letters[cell] = l;
            self.step(p + 1, points + add);
            while changed != 0 {
                let q = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                self.letter_bounds[q] = self.saved[p * n + q];
                self.stacks[q].truncate(lens[q - p - 1] as usize);
            }
        }
        self.stacks[p] = here;
    }
}
