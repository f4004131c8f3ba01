//! The 2009 bounds: sum/union (every word any board of the class can hold, once) and
//! max/no-mark (a letter choice per cell per search path, words counted on every path).
//! Both are independent of the orderly trees, which makes them the cross-check in tests.

use super::class::BoardClass;
use crate::board::Geometry;
use crate::dict::{NodeId, Trie};
use crate::solve::Scoring;

/// Sum/union: the points of every distinct word found on any board of the class.
pub fn sum_union(trie: Trie<'_>, geometry: &Geometry, class: &BoardClass, scoring: Scoring) -> u64 {
    let mut seen = vec![false; trie.word_count()];
    let mut total = 0u64;
    // Every call is on a live prefix; `seen` marks words already counted anywhere.
    fn step(
        trie: &Trie<'_>,
        g: &Geometry,
        cells: &[u32],
        scoring: Scoring,
        cell: usize,
        node: NodeId,
        used: u64,
        seen: &mut [bool],
        total: &mut u64,
    ) {
        let mut letters = cells[cell] & trie.child_mask(node);
        while letters != 0 {
            let l = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let Some(child) = trie.child(node, l) else {
                continue;
            };
            if let Some(w) = trie.word(child) {
                if !std::mem::replace(&mut seen[w as usize], true) {
                    *total += scoring.points(trie.word_len(w) as usize) as u64;
                }
            }
            if trie.child_mask(child) == 0 {
                continue;
            }
            let mut next = g.neighbor_mask(cell) & !used;
            while next != 0 {
                let n = next.trailing_zeros() as usize;
                next &= next - 1;
                step(
                    trie,
                    g,
                    cells,
                    scoring,
                    n,
                    child,
                    used | 1 << n,
                    seen,
                    total,
                );
            }
        }
    }
    for cell in 0..geometry.cells() {
        step(
            &trie,
            geometry,
            class.cells(),
            scoring,
            cell,
            trie.root(),
            1 << cell,
            &mut seen,
            &mut total,
        );
    }
    total
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
        scoring: Scoring,
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
            let mut score = trie
                .word(child)
                .map_or(0, |w| scoring.points(trie.word_len(w) as usize) as u64);
            if trie.child_mask(child) != 0 {
                let mut next = g.neighbor_mask(cell) & !used;
                while next != 0 {
                    let n = next.trailing_zeros() as usize;
                    next &= next - 1;
                    score += step(trie, g, cells, scoring, n, child, used | 1 << n);
                }
            }
            best = best.max(score);
        }
        best
    }
    (0..geometry.cells())
        .map(|cell| {
            step(
                &trie,
                geometry,
                class.cells(),
                scoring,
                cell,
                trie.root(),
                1 << cell,
            )
        })
        .sum()
}
