//! The 2009 bounds: sum/union (every word any board of the class can hold, once) and
//! max/no-mark (a letter choice per cell per search path, words counted on every path).
//! Both are independent of the orderly trees, which makes them the cross-check in tests.

use super::class::BoardClass;
use crate::board::Geometry;
use crate::dict::{NodeId, Trie};
use crate::solve::Scoring;

/// Sum/union: the points of every distinct word found on any board of the class.
pub fn sum_union(trie: Trie<'_>, geometry: &Geometry, class: &BoardClass, scoring: Scoring) -> u64 {
    let mut walk = SumUnionWalk {
        trie,
        geometry,
        cells: class.cells(),
        points: scoring.word_points(trie),
        seen: vec![false; trie.word_count()],
        total: 0,
    };
    for cell in 0..geometry.cells() {
        walk.step(cell, trie.root(), 1 << cell);
    }
    walk.total
}

/// The state of one sum/union walk: `seen` marks words already counted anywhere.
struct SumUnionWalk<'a, 'd> {
    trie: Trie<'d>,
    geometry: &'a Geometry,
    cells: &'a [u32],
    /// Points of each word, by id.
    points: Vec<u32>,
    seen: Vec<bool>,
    total: u64,
}

impl SumUnionWalk<'_, '_> {
    /// Visits `cell` from the live prefix `node`; `used` holds the cells of the path so far.
    fn step(&mut self, cell: usize, node: NodeId, used: u64) {
        let mut letters = self.cells[cell] & self.trie.child_mask(node);
        while letters != 0 {
            let l = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let Some(child) = self.trie.child(node, l) else {
                continue;
            };
            if let Some(w) = self.trie.word(child)
                && !std::mem::replace(&mut self.seen[w as usize], true)
            {
                self.total += self.points[w as usize] as u64;
            }
            if self.trie.child_mask(child) == 0 {
                continue;
            }
            let mut next = self.geometry.neighbor_mask(cell) & !used;
            while next != 0 {
                let n = next.trailing_zeros() as usize;
                next &= next - 1;
                self.step(n, child, used | 1 << n);
            }
        }
    }
}

/// Max/no-mark: at each cell of each search path, the best letter; words are not marked,
/// so a word counts on every path. For a one-board class this is Multi(B).
pub fn max_nomark(
    trie: Trie<'_>,
    geometry: &Geometry,
    class: &BoardClass,
    scoring: Scoring,
) -> u64 {
    fn step(
        trie: &Trie<'_>,
        g: &Geometry,
        cells: &[u32],
        points: &[u32],
        cell: usize,
        node: NodeId,
        used: u64,
    ) -> u64 {
        let mut best = 0;
        let mut letters = cells[cell] & trie.child_mask(node);
        while letters != 0 {
            let l = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let Some(child) = trie.child(node, l) else {
                continue;
            };
            let mut score = trie.word(child).map_or(0, |w| points[w as usize] as u64);
            if trie.child_mask(child) != 0 {
                let mut next = g.neighbor_mask(cell) & !used;
                while next != 0 {
                    let n = next.trailing_zeros() as usize;
                    next &= next - 1;
                    score += step(trie, g, cells, points, n, child, used | 1 << n);
                }
            }
            best = best.max(score);
        }
        best
    }
    let points = scoring.word_points(trie);
    (0..geometry.cells())
        .map(|cell| {
            step(
                &trie,
                geometry,
                class.cells(),
                &points,
                cell,
                trie.root(),
                1 << cell,
            )
        })
        .sum()
}
