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
//!
//! # Stopping a step before its rows are added up
//! Adding a new node's child bounds to its row's letter sums touches every child entry, and
//! most steps are stopped by the bound those sums give (on a merged-edge 4x4 class, 62 % of
//! them, after adding a couple of hundred entries each). Before a row gets its new nodes'
//! entries it is bounded more loosely by its best letter's sum plus the new nodes' own
//! bounds, which their parents' entries hold. The walk adds the rows one at a time,
//! tightening the total as it goes, and stops as soon as the total is below the goal; a
//! step that goes on has every row added, as before. Only work is saved: the steps that
//! stop, and the boards found, are the same.
//!
//! # Pruning by Score
//! A tree's Force on a board is its DeMulti (or, for a unit tree without redundant paths, a
//! value between Score and DeMulti), and boards rich in repeated letters count many words
//! twice or more. Given a lower bound on Force − Score of the form `base + Σ extra[c][l]`
//! over the cells still open ([`OvercountBound`], the same for every board of the walk), the
//! walk starts each position's letter sums at `−extra` and adds `base` (and, as it fixes a
//! cell, that letter's `extra`) to the threshold it must reach. Both inequalities hold board
//! by board, so every board whose Score reaches S is still found; boards that only their
//! repeated words lift over S are cut off as high as the bound sees them. On the 4x4 class
//! of docs/NOTES-bench.md with 8.6 million DeMulti candidates, the walks found 0.5 million.
//!
//! [`OvercountBound`]: crate::solve::OvercountBound

use super::tree::{Arena, CellOrder, MAX_TREE_CELLS, SumId, sat};

/// Storage that one OrderlyBound walk hands to the next ([`OrderlyBound::into_scratch`]), so
/// that the many small walks of a class reuse their stacks and saved sums. (The letter sums
/// themselves, a few hundred bytes, are allocated per walk: reusing them too measured no
/// faster, 1.04 on 446667 in 6 alternating pairs.)
#[derive(Debug, Default)]
pub struct WalkScratch {
    stacks: Vec<Vec<u32>>,
    saved: Vec<[i64; 26]>,
    saved_best: Vec<i64>,
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
    /// each node's child for letter `l` (0 where it has none), less `penalty[q][l]`.
    letter_bounds: Vec<[i64; 26]>,
    /// `saved[p * n + q]`: row `q` of `letter_bounds` as it was before the walk at position
    /// `p` stacked the nodes of its current letter, restored after (`n` positions).
    saved: Vec<[i64; 26]>,
    /// `best[q]`: [`OrderlyBound::position_bound`] of row `q`, kept for every position the
    /// walk has not fixed yet, so that a step sums the later positions' bounds without
    /// scanning each of their rows' letters again (a merged edge has 20).
    best: Vec<i64>,
    /// `saved_best[p * n + q]`: `best[q]` as it was when `saved[p * n + q]` was taken.
    saved_best: Vec<i64>,
    /// The letter fixed on each cell so far.
    pub letters: Vec<u8>,
    /// Boards found, with their forced score.
    pub found: Vec<(Vec<u8>, u32)>,
    /// `eliminated[d]`: walks stopped after fixing `d` cells.
    pub eliminated: Vec<u64>,
    /// A mirror pair of a class that is its own image ([`MirrorPair`]): at its late position
    /// the walk takes no letter below its early cell's.
    mirror: Option<MirrorPair>,
    /// `penalty[q][l]`: the overcount that letter `l` at position `q` adds (all zero
    /// without [`OrderlyBound::with_overcount`]).
    penalty: Vec<[u64; 26]>,
    /// The overcount of the letters fixed so far: Force − Score ≥ `spent` plus each open
    /// position's `penalty` for its letter, on every board the walk can still reach.
    spent: u64,
}

/// Two cells that a symmetry of a class swaps (the class is its own image under it, and the
/// symmetry is its own inverse): of every board and its image, one has a letter on
/// `early_cell` at most the letter on the cell at position `late_pos`, so only those boards
/// need be found. `early_cell`'s position in the order is before `late_pos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MirrorPair {
    /// The cell fixed first.
    pub early_cell: usize,
    /// The position in the order of the other cell.
    pub late_pos: usize,
}

impl MirrorPair {
    /// The letters of `letters` that the cell at position `p` may take, with the letters
    /// fixed so far in `fixed` (by cell): at the pair's late position, those not below the
    /// early cell's letter; elsewhere, or without a pair, all of them.
    #[inline]
    pub fn letters_at(pair: Option<MirrorPair>, p: usize, fixed: &[u8], letters: u32) -> u32 {
        match pair {
            Some(m) if m.late_pos == p => letters & !((1u32 << fixed[m.early_cell]) - 1),
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
            mut saved_best,
        } = scratch;
        stacks.resize_with(n, Vec::new);
        // Every saved row is written before it is read, so old contents do no harm.
        saved.resize(n * n, [0; 26]);
        saved_best.resize(n * n, 0);
        OrderlyBound {
            arena,
            order,
            cells,
            threshold: threshold as u64,
            stacks,
            letter_bounds: vec![[0; 26]; n],
            saved,
            best: vec![0; n],
            saved_best,
            letters,
            found: Vec::new(),
            eliminated: vec![0; order.len() + 1],
            mirror: None,
            penalty: vec![[0; 26]; n],
            spent: 0,
        }
    }

    /// Prunes by Score instead of Force (the module documentation says how): `base` plus
    /// `extra[cell][letter]` over the open cells must be at most Force − Score on every board
    /// of the walk, whose cells before its start position count in `base` only. A board is
    /// then found only if its Force minus that reaches the threshold.
    pub fn with_overcount(mut self, base: u64, extra: &[[u64; 26]]) -> OrderlyBound<'a> {
        self.spent = base;
        for (q, row) in self.penalty.iter_mut().enumerate() {
            *row = extra[self.order.cell(q)];
        }
        self
    }

    /// Finds only one board of each mirror pair of a class that is its own image: at
    /// `pair.late_pos` the walk skips letters below the one on `pair.early_cell` (fixed before).
    pub fn with_mirror(mut self, pair: Option<MirrorPair>) -> OrderlyBound<'a> {
        self.mirror = pair;
        self
    }

    /// The storage, stacks emptied, for the next walk.
    pub fn into_scratch(self) -> WalkScratch {
        WalkScratch {
            stacks: self.stacks,
            saved: self.saved,
            saved_best: self.saved_best,
        }
    }

    /// Runs the walk on `tree`, whose cells all lie at positions `≥ p`.
    pub fn run(&mut self, tree: SumId, p: usize) {
        for (c, pos) in self.arena.choices(tree) {
            self.stacks[pos].push(c);
        }
        for q in p..self.order.len() {
            for (sum, pen) in self.letter_bounds[q].iter_mut().zip(&self.penalty[q]) {
                *sum = -(*pen as i64);
            }
            self.add_letter_bounds(q, 0);
            self.best[q] = self.position_bound(q);
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
                row[mask.trailing_zeros() as usize] += pair[1] as i64;
                mask &= mask - 1;
            }
        }
    }

    /// The most that the nodes stacked at position `q` can force together, less the
    /// overcount the letter adds: their summed child bounds for the best letter the cell may
    /// take, less that letter's penalty. Every board puts one letter there, so this bounds
    /// their forced sum, and it is at most the sum of their own bounds.
    #[inline]
    fn position_bound(&self, q: usize) -> i64 {
        let row = &self.letter_bounds[q];
        let mut letters = self.cells[self.order.cell(q)];
        let mut best = i64::MIN;
        while letters != 0 {
            best = best.max(row[letters.trailing_zeros() as usize]);
            letters &= letters - 1;
        }
        best
    }

    fn step(&mut self, p: usize, points: u64) {
        let n = self.order.len();
        let later: i64 = self.best[(p + 1).min(n)..].iter().sum();
        let here_bound = if p < n { self.best[p] } else { 0 };
        let goal = (self.threshold + self.spent) as i64;
        if points as i64 + here_bound + later < goal {
            self.eliminated[p] += 1;
            return;
        }
        if p == n {
            // Every cell is fixed: the stacks are empty and `points` is the forced score.
            self.found.push((self.letters.clone(), sat(points)));
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
            if points as i64 + self.letter_bounds[p][l as usize] + later < goal {
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
            // `loose[q]`: the sum of the new nodes' own bounds at position `q`, read from their
            // parents' entries without touching the nodes.
            let mut add = 0u64;
            let mut loose = [0i64; MAX_TREE_CELLS];
            for &c in &here {
                if let Some((s, bound)) = self.arena.choice_child_bound(c, l) {
                    add += self.arena.points(s) as u64;
                    for (k, pos, k_bound) in self.arena.choices_with_bounds(s, bound) {
                        // Orderly: a child's cell comes after its parent's, so after `p`.
                        self.stacks[pos].push(k);
                        self.arena.prefetch(k);
                        loose[pos] += k_bound as i64;
                    }
                }
            }
            // The next step's bound, row by row: a row that gained nodes is bounded first by
            // its old best plus the new nodes' own bounds, then, once their child bounds are
            // added to its letter sums, by its new best (at most that). Both bound what the
            // row's nodes force, so the walk may stop as soon as the total falls below the
            // goal, before it adds up the remaining rows (most of these steps stop here).
            // The rows that gain nodes are saved and restored afterwards: a copy of 26 sums
            // instead of a second pass over the new nodes (scattered in the arena) to take
            // their bounds back out.
            let goal_next = goal + self.penalty[p][l as usize] as i64;
            let mut total = points as i64 + add as i64 + later;
            let mut pushed = 0u32;
            for (q, &len) in (p + 1..n).zip(&lens) {
                if self.stacks[q].len() > len as usize {
                    pushed |= 1 << q;
                    total += loose[q];
                }
            }
            let mut changed = 0u32;
            let mut rows = pushed;
            while rows != 0 && total >= goal_next {
                let q = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                changed |= 1 << q;
                self.saved[p * n + q] = self.letter_bounds[q];
                self.saved_best[p * n + q] = self.best[q];
                self.add_letter_bounds(q, lens[q - p - 1] as usize);
                let best = self.position_bound(q);
                total += best - self.best[q] - loose[q];
                self.best[q] = best;
            }
            if total < goal_next {
                self.eliminated[p + 1] += 1;
            } else {
                self.letters[cell] = l;
                self.spent += self.penalty[p][l as usize];
                self.step(p + 1, points + add);
                self.spent -= self.penalty[p][l as usize];
            }
            while changed != 0 {
                let q = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                self.letter_bounds[q] = self.saved[p * n + q];
                self.best[q] = self.saved_best[p * n + q];
            }
            while pushed != 0 {
                let q = pushed.trailing_zeros() as usize;
                pushed &= pushed - 1;
                self.stacks[q].truncate(lens[q - p - 1] as usize);
            }
        }
        self.stacks[p] = here;
    }
}
