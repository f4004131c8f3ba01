//! Soundness checks of every bound against brute force on small random classes.
//!
//! A bound below the true best score of its class is the worst bug this project can have,
//! so each check compares against an independent computation: the solver's Score, Multi and
//! DeMulti of every board of the class.

use super::*;
use crate::board::{Board, Geometry, Size};
use crate::dict::Dictionary;
use crate::solve::{OvercountBound, Overcounter, Scores, Scoring, Solver};
use std::collections::BTreeMap;
use std::sync::OnceLock;

fn enable2k() -> &'static Dictionary {
    static D: OnceLock<Dictionary> = OnceLock::new();
    D.get_or_init(Dictionary::enable2k)
}

/// The project's SplitMix64 ([`crate::rng::splitmix64`]), so every case can be rerun from
/// its seed.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        crate::rng::splitmix64(&mut self.0) % n
    }
}

/// Letters weighted towards common ones, so classes hold many words.
const COMMON: &[u8] = b"eeeaaiioosstrrnnlldcpmgbhuyfkwvqjxz";

fn random_class(rng: &mut Rng, size: Size, max_letters: u32) -> BoardClass {
    let cells = (0..size.cells())
        .map(|_| {
            let k = 1 + rng.below(max_letters as u64) as u32;
            let mut set = 0u32;
            while set.count_ones() < k {
                set |= 1 << (COMMON[rng.below(COMMON.len() as u64) as usize] - b'a');
            }
            set
        })
        .collect();
    BoardClass::new(size, cells).unwrap()
}

/// Every board of the class with its three scores.
fn brute(class: &BoardClass, scoring: Scoring) -> Vec<(Board, Scores)> {
    let g = Geometry::new(class.size());
    let mut solver = Solver::new(enable2k().trie(), &g, scoring);
    class.boards().map(|b| (b, solver.scores(&b))).collect()
}

/// Every built-in scoring: each brute-force check runs under all of them.
const SCORINGS: [Scoring; Scoring::NAMED.len()] = Scoring::NAMED;

fn cases() -> Vec<(Size, u32, u64)> {
    let mut v = Vec::new();
    for seed in 0..40 {
        v.push(("2x2".parse().unwrap(), 4, seed));
        v.push(("2x3".parse().unwrap(), 3, seed));
        v.push((
            "3x3".parse().unwrap(),
            if seed % 4 == 0 { 3 } else { 2 },
            seed,
        ));
    }
    v.push(("3x2".parse().unwrap(), 3, 99));
    v.push(("1x4".parse().unwrap(), 5, 7));
    v
}

#[test]
fn every_bound_is_at_least_the_best_board() {
    for (size, k, seed) in cases() {
        let mut rng = Rng(seed * 1000 + size.cells() as u64);
        let class = random_class(&mut rng, size, k);
        for scoring in SCORINGS {
            let all = brute(&class, scoring);
            let best = all.iter().map(|(_, s)| s.score).max().unwrap();
            let best_multi = all.iter().map(|(_, s)| s.multi).max().unwrap();
            let best_demulti = all.iter().map(|(_, s)| s.demulti).max().unwrap();
            let g = Geometry::new(size);
            let trie = enable2k().trie();
            let ctx = format!("{size} seed {seed} {scoring} class {class}");
            assert!(
                sum_union(trie, &g, &class, scoring) >= best,
                "sum/union {ctx}"
            );
            assert!(
                max_nomark(trie, &g, &class, scoring) >= best_multi,
                "max/no-mark {ctx}"
            );
            let breaker = ClassBreaker::new(trie, size, scoring);
            let mut arena = Arena::new();
            let root = breaker.build_tree(&class, &mut arena);
            assert!(arena.bound(root) as u64 >= best_demulti, "orderly {ctx}");
            arena.check(root, 0).unwrap();
            let order = breaker.order_for(&class);
            // The invariant: the tree forces to DeMulti on every board of the class.
            for (b, s) in &all {
                assert_eq!(
                    arena.force(root, b.letters(), &order),
                    s.demulti,
                    "force {ctx} {b}"
                );
            }
        }
    }
}

#[test]
fn one_board_classes_converge() {
    let trie = enable2k().trie();
    for (size, text) in [
        ("4x4", "perslatgsineters"),
        ("4x4", "eeesrvrreeesrsrs"),
        ("3x3", "streaedlp"),
        ("3x2", "eebfee"),
        ("4x4", "abcdefghijklmnop"),
    ] {
        let size: Size = size.parse().unwrap();
        let b = Board::parse(size, text).unwrap();
        let class = BoardClass::of_board(&b);
        let g = Geometry::new(size);
        let s = Solver::new(trie, &g, Scoring::Standard).scores(&b);
        assert_eq!(
            sum_union(trie, &g, &class, Scoring::Standard),
            s.score,
            "{text}"
        );
        assert_eq!(
            max_nomark(trie, &g, &class, Scoring::Standard),
            s.multi,
            "{text}"
        );
        let breaker = ClassBreaker::new(trie, size, Scoring::Standard);
        let mut arena = Arena::new();
        let root = breaker.build_tree(&class, &mut arena);
        assert_eq!(arena.bound(root) as u64, s.demulti, "{text}");
    }
}

#[test]
fn branching_keeps_the_invariant_and_never_raises_bounds() {
    for scoring in SCORINGS {
        for (size, k, seed) in cases().into_iter().step_by(3) {
            let mut rng = Rng(seed * 7 + 1);
            let class = random_class(&mut rng, size, k);
            let all = brute(&class, scoring);
            let breaker = ClassBreaker::new(enable2k().trie(), size, scoring);
            let order = breaker.order_for(&class);
            let mut arena = Arena::new();
            let root = breaker.build_tree(&class, &mut arena);
            // Force two levels of branching along each board's own letters.
            for (b, s) in all.iter().step_by(3) {
                let mut tree = root;
                for p in 0..order.len().min(3) {
                    let promised =
                        arena.branch_bound(tree, arena.bound(tree), p, b.get(order.cell(p)));
                    let child = arena.branch(tree, p, b.get(order.cell(p)));
                    assert!(
                        arena.bound(child) <= arena.bound(tree),
                        "bound rose {class}"
                    );
                    // The breaker skips merges whose promised bound is at most the switchover.
                    assert!(
                        arena.bound(child) as u64 <= promised,
                        "branch_bound {promised} below the merged bound {} {class}",
                        arena.bound(child)
                    );
                    assert_eq!(
                        arena.force(child, b.letters(), &order),
                        s.demulti,
                        "{class} {b}"
                    );
                    arena.check(child, p + 1).unwrap();
                    tree = child;
                }
            }
        }
    }
}

/// A unit's own tree (the top cell forced, built without the whole tree) is the tree that
/// branching the whole one gives: the same bound, the same Force on every board of the unit.
/// The breaker's unit trees also leave out redundant word paths, with the top cell forced
/// and with the top two: their Force lies between Score and DeMulti on every board of the
/// unit, their bound is at most the branched tree's, and the paths left out lower Force on
/// some boards (below DeMulti, and with two cells below the one-cell unit's: the test must
/// bite). Their overcount bound (the forced cells given) is at most Force − Score on every
/// board of random groups, exactly Force − Score with every cell fixed, and on some boards
/// below the bound without the last forced cell, which would exceed Force − Score there.
#[test]
fn a_unit_tree_is_the_branched_tree() {
    // Counts for units of one forced cell and of two.
    let mut lowered = [0; 2];
    let (mut overcounted, mut groups_positive) = ([0; 2], 0);
    // 3x4 too: on the smaller boards the top cell touches every other cell, so every path
    // could take the forced letter from it, and leaving out too much would go unseen.
    let wide: Vec<(Size, u32, u64)> = (0..4)
        .map(|seed| ("3x4".parse().unwrap(), 2, 500 + seed))
        .collect();
    for scoring in SCORINGS {
        for (size, k, seed) in cases().into_iter().step_by(2).chain(wide.iter().copied()) {
            let mut rng = Rng(seed * 11 + 3);
            let class = random_class(&mut rng, size, k);
            let all = brute(&class, scoring);
            let breaker = ClassBreaker::new(enable2k().trie(), size, scoring);
            let order = breaker.order_for(&class);
            let geometry = Geometry::new(size);
            let points = TreeBuilder::word_points(enable2k().trie(), scoring);
            let plain = TreeBuilder::new(enable2k().trie(), &geometry, &order, &points);
            let top = order.cell(0);
            let mut arena = Arena::new();
            let mut buffers = tree::PathBuffers::default();
            let root = breaker.build_tree(&class, &mut arena);
            let mut solver = Solver::new(enable2k().trie(), &geometry, scoring);
            let mut overcounter = Overcounter::new(enable2k().trie(), &geometry, &points);
            let mut overcount = OvercountBound::default();
            let none_open = vec![0u32; size.cells()];
            let mut letters = class.cells()[top];
            while letters != 0 {
                let l = letters.trailing_zeros() as u8;
                letters &= letters - 1;
                let branched = arena.branch(root, 0, l);
                let mut cells = class.cells().to_vec();
                cells[top] = 1 << l;
                let unit_class = BoardClass::new(size, cells).unwrap();
                let unit = plain
                    .build_limited(&unit_class, 1 << top, usize::MAX, &mut arena, &mut buffers)
                    .unwrap();
                assert_eq!(arena.bound(unit), arena.bound(branched), "{class} {l}");
                arena.check(unit, 1).unwrap();
                // The unit of the top letter, and the units of each letter of the second cell
                // with it, as the heaviest classes are broken; `lean` is the first.
                let second = order.cell(1);
                let mut units = vec![vec![l]];
                let mut seconds = class.cells()[second];
                while seconds != 0 {
                    units.push(vec![l, seconds.trailing_zeros() as u8]);
                    seconds &= seconds - 1;
                }
                let lean = breaker.build_unit_tree(&class, &order, &[l], &mut arena, &mut buffers);
                assert!(arena.bound(lean) <= arena.bound(unit), "{class} {l}");
                for ls in &units {
                    let k = ls.len() - 1;
                    let tree = match k {
                        0 => lean,
                        _ => breaker.build_unit_tree(&class, &order, ls, &mut arena, &mut buffers),
                    };
                    arena.check(tree, ls.len()).unwrap();
                    let forced = (0..ls.len()).fold(0u64, |m, p| m | 1 << order.cell(p));
                    let in_unit = |b: &Board| (0..ls.len()).all(|p| b.get(order.cell(p)) == ls[p]);
                    for (b, s) in all.iter().filter(|(b, _)| in_unit(b)) {
                        if k == 0 {
                            let demulti = arena.force(unit, b.letters(), &order);
                            assert_eq!(demulti, s.demulti, "{class} {b}");
                        }
                        let force = arena.force(tree, b.letters(), &order);
                        assert!(
                            s.score <= force && force <= s.demulti,
                            "{class} {ls:?} {b}: {force} outside {s:?}"
                        );
                        // A second forced cell leaves out paths the first keeps.
                        let before = match k {
                            0 => s.demulti,
                            _ => arena.force(lean, b.letters(), &order),
                        };
                        lowered[k] += (force < before) as usize;
                        let over = force - s.score;
                        overcounter.overcount_bound(
                            b.letters(),
                            u64::MAX,
                            &none_open,
                            forced,
                            &mut overcount,
                        );
                        assert_eq!(overcount.of(b.letters()), over, "{class} {ls:?} {b}");
                        // Without the last forced cell, the bound would exceed Force − Score.
                        let fewer = forced & !(1 << order.cell(k));
                        overcounter.overcount_bound(
                            b.letters(),
                            u64::MAX,
                            &none_open,
                            fewer,
                            &mut overcount,
                        );
                        overcounted[k] += (overcount.of(b.letters()) > over) as usize;
                    }
                    // Groups of the unit's boards that agree on the forced cells and a random
                    // set of other cells, as the breaker's candidates of one walk do.
                    let unit_boards: Vec<&Board> =
                        all.iter().map(|(b, _)| b).filter(|b| in_unit(b)).collect();
                    for _ in 0..4 {
                        let base = unit_boards[rng.below(unit_boards.len() as u64) as usize];
                        let mut fixed = forced;
                        for c in 0..size.cells() {
                            fixed |= rng.below(2) << c;
                        }
                        let agree = |b: &Board| {
                            (0..size.cells())
                                .all(|c| fixed >> c & 1 == 0 || b.get(c) == base.get(c))
                        };
                        let group: Vec<&Board> = unit_boards
                            .iter()
                            .copied()
                            .filter(|b| agree(b))
                            .take(40)
                            .collect();
                        let mut open_letters = vec![0u32; size.cells()];
                        for b in &group {
                            for (c, &x) in b.letters().iter().enumerate() {
                                if fixed >> c & 1 == 0 {
                                    open_letters[c] |= 1 << x;
                                }
                            }
                        }
                        overcounter.overcount_bound(
                            base.letters(),
                            fixed,
                            &open_letters,
                            forced,
                            &mut overcount,
                        );
                        for b in group {
                            let force = arena.force(tree, b.letters(), &order);
                            let over = force - solver.score(b);
                            let got = overcount.of(b.letters());
                            assert!(got <= over, "{class} {b} fixed {fixed:b}: {got} > {over}");
                            groups_positive += (got > 0) as usize;
                        }
                    }
                }
            }
        }
    }
    assert!(
        lowered.iter().all(|&n| n > 0),
        "no redundant path was ever left out: {lowered:?}"
    );
    assert!(
        overcounted.iter().all(|&n| n > 0),
        "the overcount bound never needed the last forced cell: {overcounted:?}"
    );
    assert!(
        groups_positive > 0,
        "the groups' overcount bound was never positive"
    );
}

#[test]
fn break_class_finds_exactly_the_boards_reaching_demulti_s() {
    // Cases where S splits the class (some boards reach it, some not): the test must bite.
    let mut splitting = 0;
    // The unit counts: trees per letter of the top cell, and per pair of the top two.
    let (mut rejected, mut rejected_by_letter) = (0, [0; 2]);
    let (mut pruned, mut pruned_by_letter) = (0, [0; 2]);
    let total = SCORINGS.len() * cases().len();
    for scoring in SCORINGS {
        for (size, k, seed) in cases() {
            let mut rng = Rng(seed * 31 + 5);
            let class = random_class(&mut rng, size, k);
            let all = brute(&class, scoring);
            let mut demultis: Vec<u64> = all.iter().map(|(_, s)| s.demulti).collect();
            demultis.sort_unstable();
            let score_of: BTreeMap<Board, u64> = all.iter().map(|(b, sc)| (*b, sc.score)).collect();
            let breaker = ClassBreaker::new(enable2k().trie(), size, scoring).keep_candidates(true);
            // Without kept candidates most are rejected by their overcount bound, unscored.
            let sifting = ClassBreaker::new(enable2k().trie(), size, scoring).prune_by_score(true);
            // One tree per letter of the top cell, as heavy classes are broken, and one per
            // pair of letters of the top two cells, as the heaviest are, each with every
            // candidate kept and with candidates sifted.
            let units = [usize::MAX, 0].map(|two| {
                let kept = ClassBreaker::new(enable2k().trie(), size, scoring)
                    .keep_candidates(true)
                    .whole_tree_paths(0)
                    .two_cell_paths(two)
                    .max_two_cell_pairs(u32::MAX);
                let sifting = ClassBreaker::new(enable2k().trie(), size, scoring)
                    .whole_tree_paths(0)
                    .two_cell_paths(two)
                    .max_two_cell_pairs(u32::MAX)
                    .prune_by_score(true);
                (kept, sifting)
            });
            // Thresholds from the top of the class down to its middle, and one above it all.
            let picks = [
                demultis.len() - 1,
                demultis.len() * 9 / 10,
                demultis.len() / 2,
            ];
            let mut thresholds: Vec<u32> =
                picks.iter().map(|&i| demultis[i].max(1) as u32).collect();
            thresholds.push(*demultis.last().unwrap() as u32 + 1);
            for s in thresholds {
                let want: BTreeMap<Board, u32> = all
                    .iter()
                    .filter(|(_, sc)| sc.demulti >= s as u64)
                    .map(|(b, sc)| (*b, sc.demulti as u32))
                    .collect();
                splitting += (!want.is_empty() && want.len() < all.len()) as usize;
                for switchover in [0, s + s / 2, u32::MAX] {
                    let settings = BreakSettings {
                        threshold: s,
                        switchover,
                    };
                    let outcome = breaker.break_class(&class, &settings);
                    let found = &outcome.candidates;
                    let got: BTreeMap<Board, u32> =
                        found.iter().map(|c| (c.board, c.demulti)).collect();
                    assert_eq!(got, want, "{size} seed {seed} S={s} B={switchover} {class}");
                    assert_eq!(found.len(), got.len(), "a board reported twice: {class}");
                    // Checked where found: the counts, and the results are exactly the boards
                    // of the class whose Score reaches S, each with its Score.
                    assert_eq!(outcome.demulti_count, want.len() as u64, "{class}");
                    assert_eq!(
                        outcome.max_demulti,
                        want.values().copied().max().unwrap_or(0),
                        "{class}"
                    );
                    let want_results: BTreeMap<Board, u64> = all
                        .iter()
                        .filter(|(_, sc)| sc.score >= s as u64)
                        .map(|(b, sc)| (*b, sc.score))
                        .collect();
                    let got_results: BTreeMap<Board, u64> =
                        outcome.results.iter().map(|c| (c.board, c.score)).collect();
                    assert_eq!(got_results, want_results, "S={s} B={switchover} {class}");
                    assert_eq!(outcome.results.len(), got_results.len(), "{class}");
                    for c in found {
                        assert_eq!(c.score, score_of[&c.board], "{class} {}", c.board);
                    }
                    // Results compared by board and Score: a unit's bound may be lower.
                    let scored = |o: &BreakOutcome| -> Vec<(Board, u64)> {
                        o.results.iter().map(|c| (c.board, c.score)).collect()
                    };
                    for (k, (by_letter, sifting_by_letter)) in units.iter().enumerate() {
                        // Unit trees leave out redundant paths: their candidates are some of
                        // the whole tree's (Force at most DeMulti, at least Score), the results
                        // the same.
                        let lettered = by_letter.break_class(&class, &settings);
                        for c in &lettered.candidates {
                            let whole = found.binary_search_by_key(&c.board, |w| w.board);
                            let w = &found[whole.expect("a candidate of the whole tree")];
                            assert!(c.demulti <= w.demulti && c.score == w.score, "{class}");
                            assert!(c.score <= c.demulti as u64, "{class} {}", c.board);
                        }
                        assert_eq!(scored(&lettered), scored(&outcome), "units {k} {class}");
                        assert!(
                            lettered.root_bound <= outcome.root_bound,
                            "units {k} {class}"
                        );
                        // Without kept candidates the walks prune by Score: some of the
                        // candidates, the same results.
                        let sifted_lettered = sifting_by_letter.break_class(&class, &settings);
                        assert_eq!(
                            scored(&sifted_lettered),
                            scored(&outcome),
                            "units {k} {class}"
                        );
                        assert!(
                            sifted_lettered.demulti_count <= lettered.demulti_count
                                && sifted_lettered.max_demulti <= lettered.max_demulti,
                            "units {k} {class}"
                        );
                        rejected_by_letter[k] +=
                            sifted_lettered.demulti_count - sifted_lettered.scored;
                        pruned_by_letter[k] +=
                            lettered.demulti_count - sifted_lettered.demulti_count;
                    }
                    // The same results when the walks prune by Score and candidates are
                    // sifted, not all scored; some of the candidates.
                    let sifted = sifting.break_class(&class, &settings);
                    assert_eq!(sifted.results, outcome.results, "sifted {class}");
                    assert!(
                        sifted.demulti_count <= outcome.demulti_count
                            && sifted.max_demulti <= outcome.max_demulti,
                        "sifted {class}"
                    );
                    pruned += outcome.demulti_count - sifted.demulti_count;
                    assert_eq!(outcome.scored, outcome.demulti_count, "kept: all scored");
                    rejected += sifted.demulti_count - sifted.scored;
                }
            }
        }
    }
    assert!(
        splitting >= total,
        "only {splitting} splitting thresholds in {total} cases"
    );
    assert!(rejected > 0, "no candidate was ever rejected unscored");
    assert!(
        rejected_by_letter.iter().all(|&r| r > 0),
        "no unit's candidate was ever rejected unscored: {rejected_by_letter:?}"
    );
    assert!(pruned > 0, "the walks never pruned a candidate by Score");
    assert!(
        pruned_by_letter.iter().all(|&p| p > 0),
        "the walks of unit trees never pruned a candidate by Score: {pruned_by_letter:?}"
    );
}

/// A random class that is its own image under the symmetry `perm` (its own inverse): each
/// cell and the cell it swaps with get one letter set.
fn mirrored_class(rng: &mut Rng, size: Size, max_letters: u32, perm: &[u8]) -> BoardClass {
    let mut cells = random_class(rng, size, max_letters).cells().to_vec();
    for i in 0..cells.len() {
        cells[i] = cells[perm[i] as usize].min(cells[i]);
    }
    BoardClass::new(size, cells).unwrap()
}

/// A class that is its own image is broken for one board of each mirror pair: the
/// candidates are exactly the brute-force boards with DeMulti ≥ S whose letter on the pair's
/// early cell is not after the one on its late cell, and the results' canonical forms are
/// those of every board of the class with Score ≥ S (what a proof reports).
#[test]
fn mirror_classes_find_one_board_of_each_pair() {
    let (mut classes, mut halved) = (0, 0);
    for (size, k) in [("2x2", 4), ("2x3", 3), ("3x3", 2), ("1x4", 5)] {
        let size: Size = size.parse().unwrap();
        let symmetries = crate::board::Symmetries::new(size);
        for perm in &symmetries.perms()[1..] {
            // Its own inverse, and not the identity (the flip of a 1-column board's columns).
            if (0..perm.len()).any(|i| perm[perm[i] as usize] as usize != i)
                || (0..perm.len()).all(|i| perm[i] as usize == i)
            {
                continue;
            }
            for seed in 0..6 {
                let mut rng = Rng(seed * 7 + 3);
                let class = mirrored_class(&mut rng, size, k, perm);
                for scoring in [Scoring::Standard, Scoring::Fibonacci] {
                    let breaker = ClassBreaker::new(enable2k().trie(), size, scoring);
                    let Some(pair) = breaker.mirror_pair(&class) else {
                        // Only when every cell the symmetry moves has one letter.
                        let mut moved = (0..perm.len()).filter(|&i| perm[i] as usize != i);
                        assert!(moved.all(|i| class.cells()[i].count_ones() == 1), "{class}");
                        continue;
                    };
                    classes += 1;
                    let order = breaker.order_for(&class);
                    let late_cell = order.cell(pair.late_pos);
                    assert!(order.pos(pair.early_cell) < pair.late_pos, "{class}");
                    let all = brute(&class, scoring);
                    let mut demultis: Vec<u64> = all.iter().map(|(_, s)| s.demulti).collect();
                    demultis.sort_unstable();
                    let s = demultis[demultis.len() * 3 / 4].max(1) as u32;
                    let kept = breaker.keep_candidates(true);
                    let by_letter =
                        ClassBreaker::new(enable2k().trie(), size, scoring).whole_tree_paths(0);
                    let by_pair = ClassBreaker::new(enable2k().trie(), size, scoring)
                        .whole_tree_paths(0)
                        .two_cell_paths(0)
                        .max_two_cell_pairs(u32::MAX);
                    let want: BTreeMap<Board, u32> = all
                        .iter()
                        .filter(|(b, sc)| {
                            sc.demulti >= s as u64 && b.get(pair.early_cell) <= b.get(late_cell)
                        })
                        .map(|(b, sc)| (*b, sc.demulti as u32))
                        .collect();
                    let canonical_results: std::collections::BTreeSet<Board> = all
                        .iter()
                        .filter(|(_, sc)| sc.score >= s as u64)
                        .map(|(b, _)| symmetries.canonical(b))
                        .collect();
                    let with_demulti = all.iter().filter(|(_, sc)| sc.demulti >= s as u64);
                    halved += (want.len() < with_demulti.count()) as usize;
                    for switchover in [0, s + s / 2, u32::MAX] {
                        let settings = BreakSettings {
                            threshold: s,
                            switchover,
                        };
                        let outcome = kept.break_class(&class, &settings);
                        let got: BTreeMap<Board, u32> = outcome
                            .candidates
                            .iter()
                            .map(|c| (c.board, c.demulti))
                            .collect();
                        assert_eq!(got, want, "S={s} B={switchover} {class}");
                        let units = [
                            by_letter.break_class(&class, &settings),
                            by_pair.break_class(&class, &settings),
                        ];
                        for o in [&outcome, &units[0], &units[1]] {
                            let got: std::collections::BTreeSet<Board> = o
                                .results
                                .iter()
                                .map(|c| symmetries.canonical(&c.board))
                                .collect();
                            assert_eq!(got, canonical_results, "S={s} B={switchover} {class}");
                        }
                    }
                }
            }
        }
    }
    assert!(classes >= 40, "{classes} mirror classes");
    assert!(
        halved * 3 >= classes,
        "only {halved} of {classes} classes lost boards"
    );
}

/// The issue's 3x3 class: big enough to branch at S = 300-500, small enough for a test.
fn issue_class() -> BoardClass {
    let size: Size = "3x3".parse().unwrap();
    BoardClass::parse(
        size,
        "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz",
    )
    .unwrap()
}

#[test]
fn top_split_units_add_up_to_the_whole() {
    let class = issue_class();
    let size = class.size();
    let breaker =
        ClassBreaker::new(enable2k().trie(), size, Scoring::Standard).keep_candidates(true);
    let settings = BreakSettings::with_default_switchover(500);
    let whole = breaker.break_class(&class, &settings);
    assert!(!whole.candidates.is_empty());
    // Run half the units, then the other half, as a resumed run would; also with one tree
    // per unit, as the heaviest classes are broken.
    let by_letter = ClassBreaker::new(enable2k().trie(), size, Scoring::Standard)
        .keep_candidates(true)
        .whole_tree_paths(0);
    let by_pair = ClassBreaker::new(enable2k().trie(), size, Scoring::Standard)
        .keep_candidates(true)
        .whole_tree_paths(0)
        .two_cell_paths(0)
        .max_two_cell_pairs(u32::MAX);
    for breaker in [&breaker, &by_letter, &by_pair] {
        let whole = breaker.break_class(&class, &settings);
        let mut parts = Vec::new();
        let first_half = |l: u8| l < 10;
        for skip_first in [false, true] {
            let skip = |l: u8| first_half(l) != skip_first;
            let mut done = |l: u8, o: &BreakOutcome| parts.push((l, o.candidates.clone()));
            breaker.break_class_with(
                &class,
                &settings,
                Some(TopSplitHooks {
                    skip: &skip,
                    done: &mut done,
                }),
            );
        }
        let mut joined: Vec<Candidate> = parts.into_iter().flat_map(|(_, c)| c).collect();
        joined.sort();
        assert_eq!(joined, whole.candidates);
        // Every unit done already: nothing is built or run.
        let mut ran = false;
        let rest = breaker.break_class_with(
            &class,
            &settings,
            Some(TopSplitHooks {
                skip: &|_| true,
                done: &mut |_, _| ran = true,
            }),
        );
        assert!(!ran);
        assert_eq!((rest.nodes, rest.peak_bytes, rest.demulti_count), (0, 0, 0));
    }
}

/// Breaks 3x4 classes whose top two cells (centre first) have the letters `top` and
/// `second` and whose other cells are fixed, each two cells at a time and a top letter at a
/// time, and checks that:
/// - `every_case` holds of the pairs of letters of its top two cells, and `pairs_in_range`
///   exactly when the case says that the limit under test applies;
/// - both ways give the same boards and Scores, and different nodes;
/// - `lowered`, a breaker with units for every class and that limit at 0, takes two cells
///   exactly where the limit applies;
/// - a breaker with units for every class and the default limits takes one cell (3x4 classes
///   have fewer paths than any two-cell limit).
fn check_two_cells_by_pairs(
    cases: &[(&str, &str, bool)],
    every_case: impl Fn(u32) -> bool,
    pairs_in_range: impl Fn(u32) -> bool,
    lowered: impl Fn(ClassBreaker<'static>) -> ClassBreaker<'static>,
) {
    let size: Size = "3x4".parse().unwrap();
    let centre = CellOrder::centre_first(&Geometry::new(size));
    let settings = BreakSettings::with_default_switchover(600);
    let units = || {
        ClassBreaker::new(enable2k().trie(), size, Scoring::Standard)
            .keep_candidates(true)
            .whole_tree_paths(0)
    };
    for &(top, second, applies) in cases {
        let mut sets: Vec<&str> = (0..12).map(|c| ["st", "ae", "rl", "ei"][c % 4]).collect();
        sets[centre.cell(0)] = top;
        sets[centre.cell(1)] = second;
        let class = BoardClass::parse(size, &sets.join(" ")).unwrap();
        let order = units().order_for(&class);
        let letters = |p: usize| class.cells()[order.cell(p)].count_ones();
        let pairs = letters(0) * letters(1);
        assert!(every_case(pairs), "{class}");
        assert_eq!(pairs_in_range(pairs), applies, "{class}");
        let by_default = lowered(units()).break_class(&class, &settings);
        let two = units()
            .two_cell_paths(0)
            .max_two_cell_pairs(u32::MAX)
            .break_class(&class, &settings);
        let one = units()
            .two_cell_paths(usize::MAX)
            .break_class(&class, &settings);
        assert_ne!(two.nodes, one.nodes, "the test must bite: {class}");
        // The same boards and Scores; their bounds differ with the units' trees.
        let found =
            |o: &BreakOutcome| -> Vec<_> { o.results.iter().map(|c| (c.board, c.score)).collect() };
        assert_eq!(found(&two), found(&one), "{class}");
        assert!(!found(&one).is_empty(), "{class}");
        let want = if applies { &two } else { &one };
        assert_eq!(
            (by_default.nodes, &by_default.candidates),
            (want.nodes, &want.candidates),
            "{class}"
        );
        // Under the default limits, one cell.
        let default_paths = units().break_class(&class, &settings);
        assert_eq!(
            (default_paths.nodes, &default_paths.candidates),
            (one.nodes, &one.candidates),
            "{class}"
        );
    }
}

/// Classes built a top letter at a time take two cells at a time where their top two cells
/// have at most [`TWO_CELL_FEW_PAIRS`] pairs of letters and their paths are over that limit
/// of their own (by default [`TWO_CELL_FEW_PAIRS_PATHS`]), and one cell where they have more
/// pairs (up to [`TWO_CELL_PATHS`] paths) or fewer paths: nodes and candidates tell the two
/// ways apart.
#[test]
fn few_pairs_of_top_letters_take_two_cells_from_their_own_limit() {
    check_two_cells_by_pairs(
        &[("aeiost", "aeilnr", true), ("aeiost", "aeilnrt", false)],
        |pairs| pairs <= TWO_CELL_PAIRS,
        |pairs| pairs <= TWO_CELL_FEW_PAIRS,
        |b| b.two_cell_paths_few_pairs(0),
    );
}

/// Classes whose top two cells have more than [`TWO_CELL_PAIRS`] and at most
/// [`TWO_CELL_MANY_PAIRS`] pairs of letters take two cells at a time over a limit of their
/// own (by default [`TWO_CELL_MANY_PAIRS_PATHS`]), and those of more pairs one cell, whatever
/// their paths: nodes and candidates tell the two ways apart. The cases: 64 pairs (two
/// cells of `hklnrsty`), 72 and 81.
#[test]
fn many_pairs_of_top_letters_take_two_cells_from_their_own_limit() {
    check_two_cells_by_pairs(
        &[
            ("aeilorst", "aeilnrst", true),
            ("aeilorst", "adeilnrst", true),
            ("adeilorst", "adeilnrst", false),
        ],
        |pairs| pairs > TWO_CELL_PAIRS,
        |pairs| pairs <= TWO_CELL_MANY_PAIRS,
        |b| b.two_cell_paths_many_pairs(0),
    );
}

/// Two-cell units whose top letter has more paths than the pair source's limit walk their
/// own: the same trees, so the same nodes, candidates and results as from the shared source.
#[test]
fn two_cell_units_over_the_pair_source_limit_are_the_same() {
    let size: Size = "3x4".parse().unwrap();
    let class = BoardClass::parse(size, "st aei rl pl aeo st ei nrt sd ae rt st").unwrap();
    let settings = BreakSettings::with_default_switchover(600);
    let units = || {
        ClassBreaker::new(enable2k().trie(), size, Scoring::Standard)
            .keep_candidates(true)
            .whole_tree_paths(0)
            .two_cell_paths(0)
            .max_two_cell_pairs(u32::MAX)
    };
    let shared = units().break_class(&class, &settings);
    let own = units().pair_source_paths(0).break_class(&class, &settings);
    assert!(!shared.results.is_empty(), "the test must bite");
    let figures = |o: &BreakOutcome| (o.nodes, o.candidates.clone(), o.results.clone());
    assert_eq!(figures(&own), figures(&shared));
    // Two cells, not one: a top letter at a time makes other trees.
    let one = units()
        .two_cell_paths(usize::MAX)
        .break_class(&class, &settings);
    assert_ne!(one.nodes, shared.nodes);
}

/// The nodes a break makes are its tree's build and its merges, which are counted by the
/// position they force.
#[test]
fn merged_nodes_by_position_add_up() {
    let class = issue_class();
    let breaker = ClassBreaker::new(enable2k().trie(), class.size(), Scoring::Standard);
    let mut arena = Arena::default();
    breaker.build_tree(&class, &mut arena);
    let built = arena.created();
    for switchover in [0, 600, u32::MAX] {
        let settings = BreakSettings {
            threshold: 500,
            switchover,
        };
        let outcome = breaker.break_class(&class, &settings);
        let merged: u64 = outcome.merged.iter().sum();
        // Above the root bound the break is OrderlyBound's alone: no merges.
        assert_eq!(merged > 0, switchover < u32::MAX, "{:?}", outcome.merged);
        assert_eq!(outcome.nodes, built + merged, "B={switchover}");
        assert_eq!(outcome.merged.len(), 9);
    }
}

/// A breaker reuses the memory of one class for the next: breaking classes one after another
/// with one breaker (big class, small, big again) gives what fresh breakers give, node counts
/// and peak memory included.
#[test]
fn a_reused_breaker_breaks_like_a_fresh_one() {
    let big = issue_class();
    let size = big.size();
    let mut rng = Rng(2026);
    let small = random_class(&mut rng, size, 2);
    let settings = BreakSettings::with_default_switchover(300);
    let reused = ClassBreaker::new(enable2k().trie(), size, Scoring::Standard);
    for class in [&big, &small, &big, &small] {
        let fresh = ClassBreaker::new(enable2k().trie(), size, Scoring::Standard);
        let mut a = reused.break_class(class, &settings);
        let mut b = fresh.break_class(class, &settings);
        (a.seconds, a.check_seconds) = (0.0, 0.0);
        (b.seconds, b.check_seconds) = (0.0, 0.0);
        assert_eq!(a, b, "{class}");
    }
}

/// A random permutation of `n` cells.
fn random_order(rng: &mut Rng, n: usize) -> CellOrder {
    let mut cells: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        cells.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let text: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    CellOrder::parse(n, &text.join(",")).unwrap()
}

/// The cell order changes the work, never the answer: with random orders the tree still
/// forces to DeMulti on every board, and breaking still finds exactly the boards whose
/// DeMulti reaches S.
#[test]
fn any_cell_order_is_sound() {
    for scoring in SCORINGS {
        for (size, k, seed) in cases().into_iter().step_by(2) {
            let mut rng = Rng(seed * 13 + 3);
            let class = random_class(&mut rng, size, k);
            let order = random_order(&mut rng, size.cells());
            let all = brute(&class, scoring);
            let breaker = ClassBreaker::with_order(enable2k().trie(), size, scoring, order.clone())
                .keep_candidates(true);
            let ctx = format!("{size} seed {seed} order {order} {class}");
            let mut arena = Arena::new();
            let root = breaker.build_tree(&class, &mut arena);
            arena.check(root, 0).unwrap();
            for (b, s) in &all {
                assert_eq!(
                    arena.force(root, b.letters(), &order),
                    s.demulti,
                    "{ctx} {b}"
                );
            }
            let mut demultis: Vec<u64> = all.iter().map(|(_, s)| s.demulti).collect();
            demultis.sort_unstable();
            let s = demultis[demultis.len() * 9 / 10].max(1) as u32;
            let want: BTreeMap<Board, u32> = all
                .iter()
                .filter(|(_, sc)| sc.demulti >= s as u64)
                .map(|(b, sc)| (*b, sc.demulti as u32))
                .collect();
            for switchover in [0, s + s / 2, u32::MAX] {
                let settings = BreakSettings {
                    threshold: s,
                    switchover,
                };
                let got: BTreeMap<Board, u32> = breaker
                    .break_class(&class, &settings)
                    .candidates
                    .iter()
                    .map(|c| (c.board, c.demulti))
                    .collect();
                assert_eq!(got, want, "{ctx} S={s} B={switchover}");
            }
        }
    }
}

/// Each class's own order keeps the rings of the centre-first order where they are (a ring:
/// the cells of one neighbour count and one distance from the centre) and takes each ring's
/// cells fewest letters first; the breaker uses it unless given an order, and a class whose
/// cells all have as many letters gets the centre-first order itself.
#[test]
fn each_class_orders_its_rings_fewest_letters_first() {
    for size in ["3x3", "3x4", "4x4", "5x5"] {
        let size: Size = size.parse().unwrap();
        let geometry = Geometry::new(size);
        let ring = |cell: usize| {
            let (c, r) = size.coords(cell);
            let dc = (2 * c as i32 + 1 - size.cols() as i32).abs();
            let dr = (2 * r as i32 + 1 - size.rows() as i32).abs();
            (std::cmp::Reverse(geometry.degree(cell)), dc * dc + dr * dr)
        };
        let centre_first = CellOrder::centre_first(&geometry);
        let breaker = ClassBreaker::new(enable2k().trie(), size, Scoring::Standard);
        for seed in 0..20 {
            let class = random_class(&mut Rng(seed * 7 + 1), size, 12);
            let cells = class.cells();
            let order = CellOrder::fewest_letters_first(&geometry, cells);
            assert_eq!(breaker.order_for(&class).to_string(), order.to_string());
            let mut seen = vec![false; size.cells()];
            for p in 0..order.len() {
                let (cell, same_place) = (order.cell(p), centre_first.cell(p));
                assert!(!seen[cell], "{class}: {order}");
                seen[cell] = true;
                assert_eq!(order.pos(cell), p);
                assert_eq!(ring(cell), ring(same_place), "{class}: {order}");
                if p > 0 && ring(order.cell(p - 1)) == ring(cell) {
                    let before = cells[order.cell(p - 1)].count_ones();
                    assert!(before <= cells[cell].count_ones(), "{class}: {order}");
                }
            }
        }
        let even = BoardClass::new(size, vec![0b111; size.cells()]).unwrap();
        assert_eq!(
            CellOrder::fewest_letters_first(&geometry, even.cells()).to_string(),
            centre_first.to_string()
        );
    }
    // The 4x4 class of the notes' 45815: vowels (cell 10), then hklnrsty (9), then the two
    // centre cells of bcdfgmpqvwxz; the vowel edges 13 and 14 lead the edges.
    let class = BoardClass::parse(
        "4x4".parse().unwrap(),
        "abcdefghijklmnopqrstuvwxyz hklnrsty bcdfgmpqvwxz abcdefghijklmnopqrstuvwxyz hklnrsty \
         bcdfgmpqvwxz bcdfgmpqvwxz hklnrsty hklnrsty hklnrsty aeijou hklnrsty \
         abcdefghijklmnopqrstuvwxyz aeijou aeijou abcdefghijklmnopqrstuvwxyz",
    )
    .unwrap();
    let geometry = Geometry::new(class.size());
    assert_eq!(
        CellOrder::fewest_letters_first(&geometry, class.cells()).to_string(),
        "10,9,5,6,13,14,1,4,7,8,11,2,0,3,12,15"
    );
}

/// A class with a centre or edge cell of 13 to 25 letters (the merged consonant edges' 20)
/// keeps the centre-first order, where the letter count lost; one whose centre and edges have
/// at most 12 letters gets its letter-count order, whatever its corners (whole, or the
/// reference's 7 and 19); and the breaker gives each class that order.
#[test]
fn classes_with_large_letter_sets_keep_the_centre_first_order() {
    let size: Size = "4x4".parse().unwrap();
    let geometry = Geometry::new(size);
    let breaker = ClassBreaker::new(enable2k().trie(), size, Scoring::Standard);
    let whole = "abcdefghijklmnopqrstuvwxyz";
    let (v, c20, c12, h) = ("aeijou", "bcdfghklmnpqrstvwxyz", "bcdfgmpqvwxz", "hklnrsty");
    // Class 175 of the merged-edge partition (docs/NOTES-bench.md).
    let merged = [
        whole, c20, c20, whole, c20, v, c12, v, c20, v, v, v, whole, v, v, whole,
    ];
    // The same class with its edges split as the default partition splits them.
    let default = [
        whole, h, c12, whole, h, v, c12, v, h, v, v, v, whole, v, v, whole,
    ];
    // Class 7506 of the reference's published split, its corners of 7 and 19 letters.
    let (cv, cc) = ("aeiosuy", "bcdfghjklmnpqrtvwxz");
    let published = [cv, v, v, cc, c12, v, h, c12, h, v, v, v, cv, v, v, cv];
    // The third field says whether the letter-count order is the one chosen: the merged
    // class has 20-letter edges, so it keeps the centre-first order instead.
    for (sets, expected, by_letter_count) in [
        (
            merged,
            CellOrder::centre_first(&geometry).to_string(),
            false,
        ),
        (
            default,
            "5,9,10,6,7,11,13,14,1,4,8,2,0,3,12,15".to_string(),
            true,
        ),
        (
            published,
            "5,9,10,6,1,2,11,13,14,8,4,7,0,12,15,3".to_string(),
            true,
        ),
    ] {
        let class = BoardClass::parse(size, &sets.join(" ")).unwrap();
        let order = CellOrder::for_class(&geometry, class.cells());
        assert_eq!(order.to_string(), expected, "{class}");
        assert_eq!(breaker.order_for(&class).to_string(), expected, "{class}");
        let count_order = CellOrder::fewest_letters_first(&geometry, class.cells()).to_string();
        assert_eq!(count_order == expected, by_letter_count, "{class}");
    }
}

/// With the reference's 3x3 order (centre, bottom, top, left, right, then the corners) the
/// issue's class gets exactly the reference's tree: bound 1,231 with 332,438 nodes.
#[test]
fn the_reference_order_gives_the_reference_tree() {
    let class = issue_class();
    let order = CellOrder::parse(9, "4,5,3,1,7,0,2,6,8").unwrap();
    let breaker =
        ClassBreaker::with_order(enable2k().trie(), class.size(), Scoring::Standard, order);
    let mut arena = Arena::new();
    let root = breaker.build_tree(&class, &mut arena);
    assert_eq!((arena.bound(root), arena.created()), (1231, 332_438));
}

#[test]
fn cell_orders_must_name_every_cell_once() {
    assert_eq!(
        CellOrder::parse(4, "0,1,2,3").unwrap().to_string(),
        "0,1,2,3"
    );
    for bad in ["0,1,2", "0,1,2,3,4", "0,1,2,4", "0,1,1,3", "0,1,x,3", ""] {
        let err = CellOrder::parse(4, bad).unwrap_err().to_string();
        assert!(err.starts_with(&format!("bad cell order '{bad}'")), "{err}");
    }
}

/// Points never wrap: under pow2 two words of 35 spelled letters or more (the Qu die counts two)
/// are worth `u32::MAX` each, so the board's Score needs 33 bits. The solver counts it in 64
/// bits and the trees saturate instead of wrapping, so the one-board class is still found at
/// the highest threshold there is. A wrapping sum (`u32::MAX + u32::MAX` = `u32::MAX - 1`)
/// would eliminate it.
#[test]
fn long_words_never_wrap() {
    let size: Size = "5x5".parse().unwrap();
    let g = Geometry::new(size);
    // A snake through the columns: down column 0, up column 1, ...; letters q a q b q c ...
    let path: Vec<usize> = (0..5)
        .flat_map(|c| (0..5).map(move |r| c * 5 + if c % 2 == 0 { r } else { 4 - r }))
        .collect();
    let others = b"abcdefghijkl";
    let mut letters = vec![0u8; 25];
    for (i, &cell) in path.iter().enumerate() {
        letters[cell] = if i % 2 == 0 { b'q' } else { others[i / 2] } - b'a';
    }
    let spell = |n: usize| -> String {
        path[..n]
            .iter()
            .map(|&c| match letters[c] + b'a' {
                b'q' => "qu".to_string(),
                l => (l as char).to_string(),
            })
            .collect()
    };
    let words = format!("{}\n{}\n", spell(25), spell(24));
    let dict = Dictionary::from_text("long", words.as_bytes());
    let board = Board::from_letters(size, &letters);
    let want = 2 * u32::MAX as u64;
    let mut solver = Solver::new(dict.trie(), &g, Scoring::Pow2);
    assert_eq!(solver.score(&board), want);
    let class = BoardClass::parse(
        size,
        &letters
            .iter()
            .map(|&l| ((l + b'a') as char).to_string())
            .collect::<Vec<_>>()
            .join(" "),
    )
    .unwrap();
    let breaker = ClassBreaker::new(dict.trie(), size, Scoring::Pow2);
    let outcome = breaker.break_class(&class, &BreakSettings::with_default_switchover(u32::MAX));
    let found: Vec<(Board, u64)> = outcome.results.iter().map(|c| (c.board, c.score)).collect();
    assert_eq!(found, [(board, want)]);
}

/// A DeMulti that saturates the trees' 32 bits is never taken as exact: a candidate whose
/// stored DeMulti is `u32::MAX` is scored, not rejected by its overcount bound. Here one
/// word worth 3e9 points appears on several cell sets of every board, so the head's overcount
/// bound is far above `u32::MAX − S`, though each board's Score is S.
#[test]
fn saturated_candidates_are_scored() {
    let size: Size = "3x3".parse().unwrap();
    let dict = Dictionary::from_text("tat", b"tat\n");
    let table = crate::solve::ScoringTable::parse("3+ 3000000000\n").unwrap();
    let scoring = Scoring::Table(Box::leak(Box::new(table)));
    // Centre a, every other cell t, one corner t or x.
    let class = BoardClass::parse(size, "tx t t t a t t t t").unwrap();
    let mut solver = Solver::new(dict.trie(), &Geometry::new(size), scoring);
    let want: Vec<(Board, u64)> = class.boards().map(|b| (b, solver.score(&b))).collect();
    assert!(want.iter().all(|&(_, s)| s == 3_000_000_000));
    let breaker = ClassBreaker::new(dict.trie(), size, scoring);
    let outcome = breaker.break_class(
        &class,
        &BreakSettings::with_default_switchover(3_000_000_000),
    );
    let mut got: Vec<(Board, u64)> = outcome.results.iter().map(|c| (c.board, c.score)).collect();
    got.sort();
    let mut want = want;
    want.sort();
    assert_eq!(got, want);
}

/// `build_tree_limited` builds what `build_tree` builds, once (the same bound and node
/// count, also for a class no word can be spelled in), and refuses a class of more paths
/// than its limit without building anything.
#[test]
fn a_limited_build_is_the_same_build_or_none() {
    let size = Size::new(3, 3).unwrap();
    let breaker = ClassBreaker::new(enable2k().trie(), size, Scoring::Standard);
    for text in [
        "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz",
        "x x x x x x x x x",
        "s t r e a e d l p",
    ] {
        let class = BoardClass::parse(size, text).unwrap();
        let mut whole = Arena::new();
        let root = breaker.build_tree(&class, &mut whole);
        let mut limited = Arena::new();
        let got = breaker
            .build_tree_limited(&class, &mut limited, usize::MAX)
            .unwrap();
        assert_eq!(limited.bound(got), whole.bound(root), "{text}");
        assert_eq!(limited.created(), whole.created(), "{text}");
    }
    let class = BoardClass::parse(
        size,
        "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz",
    )
    .unwrap();
    let mut arena = Arena::new();
    let paths = breaker
        .build_tree_limited(&class, &mut arena, 1000)
        .unwrap_err();
    assert!(paths > 1000, "{paths}");
    assert_eq!(arena.created(), 0);
}
