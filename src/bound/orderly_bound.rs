//! OrderlyBound: a depth-first walk over the remaining cells of an orderly tree that finds
//! every board whose forced score reaches the threshold, without building new nodes.
//!
//! # Invariant
//! At position `p` the walk has fixed the letters of cells at positions `< p`. `points` is
//! the sum of the points of every sum node whose path those letters realise and whose
//! choices lie entirely before `p`; `stacks[q]` holds the choice nodes at position `q ≥ p`
//! hanging off such realised sum nodes; `pending` is the sum of their bounds. Then for every
//! board `B` extending the fixed letters, `Force(T, B) = points + Σ Force(node, B)` over the
//! stacked nodes (the paper's lemma, per-cell stacks instead of one), so
//! `points + pending ≥ Force(T, B)` and a walk with `points + pending < S` can stop.
//! When every cell is fixed the stacks are empty and `points = Force(T, B)` exactly.

use super::tree::{Arena, CellOrder, MAX_TREE_CELLS, SumId};

/// The state of one OrderlyBound walk.
pub struct OrderlyBound<'a> {
    arena: &'a Arena,
    order: &'a CellOrder,
    /// Letter set of each cell.
    cells: &'a [u32],
    threshold: u64,
    stacks: Vec<Vec<u32>>,
    /// The letter fixed on each cell so far.
    pub letters: Vec<u8>,
    /// Boards found, with their forced score.
    pub found: Vec<(Vec<u8>, u32)>,
    /// `eliminated[d]`: walks stopped after fixing `d` cells.
    pub eliminated: Vec<u64>,
}

impl<'a> OrderlyBound<'a> {
    /// A walk over `arena`'s trees for a class with per-cell letter sets `cells`, whose
    /// letters before the start position are already in `letters`. `scratch` is reused stack
    /// storage (from [`OrderlyBound::into_scratch`], or empty).
    pub fn new(
        arena: &'a Arena,
        order: &'a CellOrder,
        cells: &'a [u32],
        threshold: u32,
        letters: Vec<u8>,
        mut scratch: Vec<Vec<u32>>,
    ) -> OrderlyBound<'a> {
        scratch.resize_with(order.len(), Vec::new);
        OrderlyBound {
            arena,
            order,
            cells,
            threshold: threshold as u64,
            stacks: scratch,
            letters,
            found: Vec::new(),
            eliminated: vec![0; order.len() + 1],
        }
    }

    /// The stack storage, emptied, for the next walk.
    pub fn into_scratch(self) -> Vec<Vec<u32>> {
        self.stacks
    }

    /// Runs the walk on `tree`, whose cells all lie at positions `≥ p`.
    pub fn run(&mut self, tree: SumId, p: usize) {
        let mut pending = 0u64;
        for (c, pos, bound) in self.arena.children(tree) {
            self.stacks[pos].push(c);
            pending += bound as u64;
        }
        self.step(p, self.arena.points(tree) as u64, pending);
        for s in &mut self.stacks {
            s.clear();
        }
    }

    fn step(&mut self, p: usize, points: u64, pending: u64) {
        if points + pending < self.threshold {
            self.eliminated[p] += 1;
            return;
        }
        if p == self.order.len() {
            debug_assert_eq!(pending, 0);
            self.found
                .push((self.letters.clone(), points.min(u32::MAX as u64) as u32));
            return;
        }
        let cell = self.order.cell(p);
        let here = std::mem::take(&mut self.stacks[p]);
        let here_bound: u64 = here
            .iter()
            .map(|&c| self.arena.choice_bound(c) as u64)
            .sum();
        let rest = pending - here_bound;
        let mut lens = [0u32; MAX_TREE_CELLS];
        for (len, s) in lens.iter_mut().zip(&self.stacks[p + 1..]) {
            *len = s.len() as u32;
        }
        let mut letters = self.cells[cell];
        while letters != 0 {
            let l = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let mut add = 0u64;
            let mut added_bound = 0u64;
            for &c in &here {
                if let Some(s) = self.arena.choice_child(c, l) {
                    add += self.arena.points(s) as u64;
                    for (k, pos, bound) in self.arena.children(s) {
                        // Orderly: a child's cell comes after its parent's, so after `p`.
                        self.stacks[pos].push(k);
                        added_bound += bound as u64;
                    }
                }
            }
            self.letters[cell] = l;
            self.step(p + 1, points + add, rest + added_bound);
            for (s, &len) in self.stacks[p + 1..].iter_mut().zip(&lens) {
                s.truncate(len as usize);
            }
        }
        self.stacks[p] = here;
    }
}
