//! The class breaker: finds every board of one class that reaches a threshold.
//!
//! Trees and OrderlyBound narrow a class down to its candidates, the boards whose DeMulti
//! bound, less an [`OvercountBound`] on its excess over Score, reaches S (the walks prune by
//! that; with every candidate kept, by the bound alone); each candidate is then checked
//! where it is found, on the same thread:
//! rejected exactly by a lower bound on its DeMulti − Score that it shares with the other
//! candidates of its walk ([`OvercountBound`]), or else scored with the solver. Only boards
//! whose true Score reaches S are results; of the others only their number and largest
//! DeMulti are kept (and, when asked, the whole list, every one scored).
//!
//! A class's tree is built whole and branched on each letter of its top cell (the top split:
//! units a run can resume between); a class with more than [`WHOLE_TREE_PATHS`] word paths
//! gets one tree per letter of its top cell instead (and one with more than
//! [`TWO_CELL_PATHS`] and at most [`TWO_CELL_PAIRS`] pairs of letters on its top two cells,
//! or more than [`TWO_CELL_FEW_PAIRS_PATHS`] and at most [`TWO_CELL_FEW_PAIRS`], or more than
//! [`TWO_CELL_MANY_PAIRS_PATHS`] and at most [`TWO_CELL_MANY_PAIRS`], one per pair of those
//! letters, the pairs of one top letter built from one walk and sort of their paths,
//! [`TreeBuilder::collect_pair_source`]), built without the whole one and
//! without the word paths that the forced letters make redundant
//! ([`TreeBuilder::dropping_redundant_paths`]): a bound between Score and DeMulti, so such a
//! unit's candidates are the boards whose (lower) bound reaches S, and the overcount reject
//! counts only the word paths such a tree kept.
//!
//! A class that is its own image under a symmetry of the board (a mirror or a half turn)
//! holds every board together with its image, which scores the same. The breaker then finds
//! one board of each such pair ([`MirrorPair`]): the proof's results are canonical boards,
//! and the canonical form of the board left out is that of the one found.
//!
//! Changing a tuning constant below (the path limits, the pair tiers, the switchover rule)
//! keeps every bound sound (`src/bound/tests.rs` checks each against brute force with the
//! limits forced both ways), but changes what a class's candidates are. Two things must
//! follow: `rescore --audit` of a finished run breaks sampled classes again and expects the
//! counts their journals hold, so the breaker as it was goes into its list of past set-ups
//! (`Rebreakers` in src/pipeline/merge.rs); and the cell that goes on top is part of the
//! run format (`FORMAT_VERSION`). The constants' measured figures, the README's cost table
//! and the committed estimate journals are then as of the old set-up.

use super::class::BoardClass;
use super::orderly_bound::{MirrorPair, OrderlyBound, WalkScratch};
use super::tree::{
    Arena, AtomTrie, CellOrder, MAX_DROP_FORCED, MAX_TREE_CELLS, PathBuffers, SumId, TreeBuilder,
    WordLetters, atoms_of, sat,
};
use crate::board::{Board, Geometry, Size, Symmetries};
use crate::cpu_clock::ThreadCpuClock;
use crate::dict::Trie;
use crate::solve::{GROUP_MAX, OvercountBound, Overcounter, Scoring, Solver};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// What to break a class against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakSettings {
    /// The score S sought: every board with Score ≥ S must be reported.
    pub threshold: u32,
    /// Branch (merge) while the bound is above this; at or below it, switch to OrderlyBound.
    pub switchover: u32,
}

impl BreakSettings {
    /// The default switchover: 9/4 × S. The paper switches at 1.5 × S; our OrderlyBound
    /// bounds each position by its best letter, so it can take larger trees: over six 4x4
    /// classes 2 × S and 2.5 × S tied, both 30 % faster than 1.5 × S. Once OrderlyBound
    /// stopped its steps early, 9/4 × S took 0.955 of 2 × S's time over the 37 reference
    /// 4x4 classes and 0.94 over ten classes of the proof's default partition; on classes
    /// with consonant edges merged the two tie, and the hardest class, 705707, took 1.05
    /// (docs/NOTES-bench.md).
    pub fn with_default_switchover(threshold: u32) -> BreakSettings {
        BreakSettings {
            threshold,
            switchover: sat(threshold as u64 * 9 / 4),
        }
    }

    /// Settings for S = `threshold` with the given switchover, or the default one.
    pub fn with_switchover(threshold: u32, switchover: Option<u32>) -> BreakSettings {
        match switchover {
            Some(switchover) => BreakSettings {
                threshold,
                switchover,
            },
            None => BreakSettings::with_default_switchover(threshold),
        }
    }
}

/// A board that survived every bound (its bound is at least the threshold), with its true
/// Score as the solver counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    /// The board, as it lies in the class (not canonicalised).
    pub board: Board,
    /// The bound the tree converged to, ≥ the threshold: its DeMulti score, or for a unit
    /// tree without redundant paths a value between its Score and its DeMulti.
    pub demulti: u32,
    /// Its Score (each word once), ≤ `demulti`.
    pub score: u64,
}

/// The result of breaking a class (or one branch of its top split).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BreakOutcome {
    /// The orderly bound of the whole class before any branching; for a class too big to
    /// build whole (more than [`WHOLE_TREE_PATHS`] word paths), which gets one tree per
    /// letter of its top cell (or per pair of letters of its top two), the largest bound of
    /// those trees (at most the whole tree's).
    pub root_bound: u32,
    /// The results: candidates whose Score ≥ threshold, sorted.
    pub results: Vec<Candidate>,
    /// How many candidates were found and checked: boards whose bound, [`Candidate::demulti`],
    /// is ≥ threshold and that the walks' overcount pruning left (with every candidate kept,
    /// all boards whose bound is ≥ threshold).
    pub demulti_count: u64,
    /// The largest bound among them (0 if none).
    pub max_demulti: u32,
    /// How many of them the solver scored; the others were rejected exactly by their
    /// [`OvercountBound`]. Not journaled: 0 in outcomes read back from a journal.
    pub scored: u64,
    /// Wall seconds spent checking candidates, within `seconds` (timed by the wall clock,
    /// which costs a twentieth of a CPU clock's read: a heavy class checks batches of
    /// candidates hundreds of thousands of times; on a loaded core it runs high).
    pub check_seconds: f64,
    /// Every candidate, sorted, when the breaker keeps them
    /// ([`ClassBreaker::keep_candidates`]); empty otherwise.
    pub candidates: Vec<Candidate>,
    /// Tree nodes created (build plus merges; a top-split unit counts its merges, and its
    /// build when the class gets one tree per top letter).
    pub nodes: u64,
    /// Peak bytes held by tree arenas.
    pub peak_bytes: u64,
    /// CPU seconds of the thread that broke it ([`ThreadCpuClock`]), checking included.
    pub seconds: f64,
    /// `eliminated[d]`: sub-classes eliminated after forcing `d` cells.
    pub eliminated: Vec<u64>,
    /// `merged[p]`: tree nodes made by the merges that force the cell at position `p` (the
    /// build's nodes are the rest of `nodes`). Not journaled: empty in outcomes read back
    /// from a journal.
    pub merged: Vec<u64>,
}

impl BreakOutcome {
    /// An outcome of nothing yet, for a class of `cells` cells.
    fn empty(cells: usize) -> BreakOutcome {
        BreakOutcome {
            eliminated: vec![0; cells + 1],
            merged: vec![0; cells],
            ..BreakOutcome::default()
        }
    }

    /// Whether the class was broken by bounds alone: no candidate had to be checked.
    pub fn is_broken(&self) -> bool {
        self.demulti_count == 0
    }

    /// Adds another part's figures to this one (for top-split parts of one class).
    pub fn absorb(&mut self, other: &BreakOutcome) {
        self.root_bound = self.root_bound.max(other.root_bound);
        self.results.extend_from_slice(&other.results);
        self.results.sort();
        self.demulti_count += other.demulti_count;
        self.max_demulti = self.max_demulti.max(other.max_demulti);
        self.scored += other.scored;
        self.check_seconds += other.check_seconds;
        self.candidates.extend_from_slice(&other.candidates);
        self.candidates.sort();
        self.nodes += other.nodes;
        self.peak_bytes = self.peak_bytes.max(other.peak_bytes);
        self.seconds += other.seconds;
        add_counts(&mut self.eliminated, &other.eliminated);
        add_counts(&mut self.merged, &other.merged);
    }
}

/// The letters of `class`'s cell `top`, in alphabetical order.
fn top_letters(class: &BoardClass, top: usize) -> impl Iterator<Item = u8> {
    let set = class.cells()[top];
    (0..26u8).filter(move |&l| set >> l & 1 != 0)
}

/// How a class's top-split units get their trees ([`ClassBreaker::plan_units`]).
struct UnitPlan {
    /// The class's whole tree, when it was small enough to build.
    whole: Option<SumId>,
    /// Its bound (0 without it).
    root_bound: u32,
    /// Without a whole tree: one tree per pair of letters of the top two cells, not one per
    /// letter of the top cell.
    two_cells: bool,
    /// The most paths of a top letter for which two-cell units share one source of paths.
    source_limit: usize,
}

/// `class` with the first cells of `order` narrowed to `letters`, one each (one letter of a
/// valid class's set, in place of the set: still a valid class), and those cells' mask.
fn narrowed(class: &BoardClass, order: &CellOrder, letters: &[u8]) -> (BoardClass, u64) {
    let mut cells = class.cells().to_vec();
    for (p, &l) in letters.iter().enumerate() {
        cells[order.cell(p)] = 1 << l;
    }
    let unit = BoardClass::new(class.size(), cells).expect("a narrowed class");
    (unit, order.prefix_mask(letters.len()))
}

/// Adds `other` to `counts` index by index, lengthening `counts` if `other` is longer.
fn add_counts(counts: &mut Vec<u64>, other: &[u64]) {
    if counts.len() < other.len() {
        counts.resize(other.len(), 0);
    }
    for (a, b) in counts.iter_mut().zip(other) {
        *a += b;
    }
}

/// Checkpoint hooks for the top split of a class: the letters of the first branched cell
/// are independent units of work, so a long class can be resumed between them.
pub struct TopSplitHooks<'a> {
    /// Whether the unit for this letter is already done (e.g. found in a journal): skip it.
    pub skip: &'a dyn Fn(u8) -> bool,
    /// Called when the unit for a letter finishes, with that unit's outcome.
    pub done: &'a mut dyn FnMut(u8, &BreakOutcome),
}

/// Breaks classes of one size, word list and scoring.
pub struct ClassBreaker<'d> {
    trie: Trie<'d>,
    /// Every word's letters, from which each atom tree copies its words' (the walk reads
    /// them there).
    word_letters: WordLetters,
    /// The atom trees made so far (a run's classes share a few sets of atoms: a class of
    /// buckets has the buckets it uses, a unit tree's forced letter is an atom of its own),
    /// at most [`ATOM_TRIES_KEPT`] of a few MB each.
    atom_tries: Mutex<Vec<Arc<AtomTrie>>>,
    geometry: Geometry,
    /// The cell order of every class's trees, when one was given ([`ClassBreaker::with_order`]);
    /// by default each class gets its own ([`CellOrder::for_class`]).
    fixed_order: Option<CellOrder>,
    scoring: Scoring,
    /// Points of each word under the breaker's scoring.
    word_points: Vec<u32>,
    /// Cells of each word, for unit trees without redundant paths.
    word_cells: Vec<u8>,
    /// Whether outcomes list every candidate, not only the results.
    keep_candidates: bool,
    /// Whether a class that is its own image is broken for one board of each mirror pair.
    one_of_each_mirror_pair: bool,
    /// Whether the walks prune by Score ([`ClassBreaker::prune_by_score`]).
    prune_by_score: bool,
    /// The symmetries of the size that are their own inverse and move some cell, as cell
    /// permutations.
    involutions: Vec<Vec<u8>>,
    /// Classes with more word paths get one tree per letter of their top cell.
    whole_tree_paths: usize,
    /// Of those, classes with more word paths get one tree per pair of letters of their top
    /// two cells.
    two_cell_paths: usize,
    /// ... or, where those cells have at most [`TWO_CELL_FEW_PAIRS`] pairs of letters, this
    /// many.
    two_cell_paths_few_pairs: usize,
    /// ... or, where they have more than [`TWO_CELL_PAIRS`], this many.
    two_cell_paths_many_pairs: usize,
    /// ... and whose top two cells have at most this many pairs of letters (the largest
    /// tier's, [`TWO_CELL_MANY_PAIRS`]); a class of more is built a top letter at a time.
    max_two_cell_pairs: u32,
    /// The most paths of a pair source ([`PAIR_SOURCE_PATHS`]).
    pair_source_paths: usize,
    /// Memory of finished classes, for the next ones (one entry per thread that finished).
    spare: Mutex<Vec<Scratch<'d>>>,
    /// The solver whose tables every checker's solver shares ([`Solver::fresh`]), made when
    /// the first class needs one.
    solver: OnceLock<Solver<'d>>,
}

/// The buffers one class break uses, kept for the next class.
#[derive(Default)]
struct Scratch<'d> {
    arena: Arena,
    paths: PathBuffers,
    /// The checker's solver (its stamps are as big as the word tree).
    solver: Option<Solver<'d>>,
}

/// The buffers of [`ClassBreaker::check_all`], reused from walk to walk.
#[derive(Default)]
struct Sift {
    bound: OvercountBound,
    /// Ids of all the walk's candidates.
    all: Vec<u32>,
    /// Ids of the walk's candidates that its bound did not reject.
    walk: Vec<u32>,
    /// Ids of one head's candidates that its bound did not reject.
    head: Vec<u32>,
    boards: Vec<Board>,
}

/// Candidates that differ only in this many last cells of the order are checked together.
/// On a 3x4 class with 515,091 candidates checking took (user seconds of the whole break)
/// 12.0 s with 1 open cell, 9.5 with 3, 7.9 with 4, 7.5 with 6, 7.7 with all 12; scoring
/// each board alone, 16.2 s.
const OPEN_TAIL: usize = 6;

/// The most word paths of a class that is built as one tree (16.8 million: 256 MiB of
/// paths). A class with more gets one tree per letter of its top cell instead, each the tree
/// that branching the whole one on that letter gives, less its redundant paths (which took
/// 705707 from 410 to 330 CPU s, 0.80, its candidates from 10.4 to 3.4 million, its peak RSS
/// from 808 to 779 MB; and with the overcount reject leaving those paths out too, 260 to 239
/// CPU s, 12,083 of the 3.4 million scored; docs/NOTES-bench.md): a whole tree is held for
/// the whole break, and its paths beside it while it is built, about 47 bytes a path at the
/// peak. Measured (one thread, whole process, S = 3500, 4x4 classes of the default
/// partition, the two ways in turn on one core, twice): a letter at a time took 0.77-1.04 of
/// the time of the whole tree from 17.1 to 20.7 million paths (0.90 over 15 classes whose top
/// two cells have 48 pairs of letters, 0.95 over seven of 36 pairs), at about half the
/// peak memory; from 11.2 to 15.8 million 0.87-1.08, and 1.07 before the unit builds got
/// faster. (The limit was 21.0 million until 2026-11-30.)
pub const WHOLE_TREE_PATHS: usize = 1 << 24;

/// The most word paths of a class whose units force one cell (31.5 million), but for top
/// cells of few letters ([`TWO_CELL_FEW_PAIRS`]). A class with
/// more, whose top two cells have at most [`TWO_CELL_PAIRS`] pairs of letters, gets one tree
/// per pair of letters of those cells, each without the paths that either forced letter
/// makes redundant: tighter bounds, fewer merges, and half the memory, for more and smaller
/// builds. Measured (one thread, whole process, S = 3500, default 4x4 partition, the two ways
/// at the same time on the two cores, then swapped): 23.0 million paths 1.09-1.19x the time,
/// 29.2 million 1.00, 35.9 million (705707) 0.87-0.93 and 44.1 million 0.96-0.97, at
/// 0.50-0.53x the peak memory; docs/NOTES-bench.md.
pub const TWO_CELL_PATHS: usize = 15 << 21;

/// The most pairs of letters of the top two cells for which a class is built two cells at a
/// time from [`TWO_CELL_PATHS`] word paths on (48: a cell of `aeijou` and one of
/// `hklnrsty`); a class of more pairs, up to [`TWO_CELL_MANY_PAIRS`], only from
/// [`TWO_CELL_MANY_PAIRS_PATHS`] on. Each pair is
/// a build of its own, and the paths that pass through neither cell (most of them) are
/// collected, sorted and built again in each. Measured as above, 4x4 ENABLE2K classes of the
/// default partition: 36 pairs 0.89-0.97 of the time (705707, 176918), 48 pairs 0.93 and
/// 1.03-1.04 (38726, 58375), at half the memory, 64 pairs 1.18-1.19x (19415); with the
/// consonant edges merged (the centre-first cell order), 48 pairs 0.98-0.99 (3941), 64
/// 1.12-1.14x (2224), 72 and 96 1.29-1.47x (1035, 3337, 2420: 41.5 to 73.5 million paths).
/// Not the paths a pair either: 1.0 million a pair gained on 705707 and lost on 3337. (All
/// measured before the pairs of one top letter shared one walk and sort of their paths,
/// which took 0.91-0.98 of such classes' time.)
pub const TWO_CELL_PAIRS: u32 = 48;

/// Classes whose top two cells have at most this many pairs of letters (36: two cells of
/// `aeijou`) are built two cells at a time from [`TWO_CELL_FEW_PAIRS_PATHS`] on, not
/// [`TWO_CELL_PATHS`], since their units share one walk and sort of their paths per top
/// letter ([`TreeBuilder::collect_pair_source`]). Measured (one thread, whole process, S =
/// 3500, default 4x4 partition, 21.5 to 30.3 million paths, the two ways at the same time on
/// the two cores, cores alternating class by class): six classes of 36 pairs 0.92 of the
/// time all together (0.86-1.02 a class), at 0.75 of the peak memory; four of 48 pairs 1.04
/// (0.99-1.12); docs/NOTES-bench.md.
pub const TWO_CELL_FEW_PAIRS: u32 = 36;

/// The most word paths of a class whose top two cells have at most [`TWO_CELL_FEW_PAIRS`]
/// pairs of letters that is built a letter of its top cell at a time (21.0 million); a class
/// with more is built two cells at a time. Measured against the whole tree (one core, A B B
/// A), from 15.6 to 20.0 million paths: two cells 0.78, 1.04, 1.17 and 0.97 of its time
/// (29893, 4206, 92849, 80570), one cell 0.90, 1.01 and 1.04 (4206, 92849, 80570; 0.98 on
/// average against two cells' 1.06 on those three); docs/NOTES-bench.md.
pub const TWO_CELL_FEW_PAIRS_PATHS: usize = 5 << 22;

/// The most pairs of letters of the top two cells for which a class over
/// [`TWO_CELL_MANY_PAIRS_PATHS`] is built two cells at a time (72: a cell of `aeijou` and
/// one of `bcdfgmpqvwxz`). Only classes with consonant edges merged have that many paths
/// (the default 4x4 partition's largest class of 64 pairs in the estimate's 471 draws has
/// 45.2 million, of 72 or 96 pairs 10.0 million). Measured (one thread, whole process, S =
/// 3500, merged-edge 4x4 classes, the two ways at the same time on the two cores, then
/// swapped; docs/NOTES-bench.md): 64 pairs 0.99 of the time at 0.72 of the peak memory
/// (5181, 92.1 million paths) and 1.02 at 0.69 (1651, 60.6 million); 72 pairs 0.92 at 0.65
/// (8527, 197.4 million: 4.0 → 2.6 GiB) and 1.16x at 0.77 (3337, 73.5 million); 96 pairs
/// 1.16x at 0.78 (835, 60.5 million).
pub const TWO_CELL_MANY_PAIRS: u32 = 72;

/// The most word paths of a class whose top two cells have more than [`TWO_CELL_PAIRS`]
/// and at most [`TWO_CELL_MANY_PAIRS`] pairs of letters that is built a letter of its top cell
/// at a time (50.3 million); a class with more is built two cells at a time. Below it two
/// cells at 72 pairs won as often as they lost (one thread, whole process, S = 3500,
/// merged-edge 4x4 classes, the two ways at the same time on the two cores, then swapped):
/// 0.86 of the time on 3897 (46.6 million paths) and 1.18x on 1035 (41.5 million), at 0.70
/// and 0.77 of the peak memory; a class that small needs the memory less
/// (docs/NOTES-bench.md).
pub const TWO_CELL_MANY_PAIRS_PATHS: usize = 3 << 24;

/// The most paths of a top letter's unit whose two-cell units share one walk and sort of them
/// (the pair source, [`TreeBuilder::collect_pair_source`]; 50.3 million, 768 MiB); the units
/// of a top letter with more walk and sort their own. A source that large is held beside the
/// units' trees for all their branching: 1.7 GiB for 4x4 class 7182's `a` (merged consonant
/// edges, 110.1 million paths). Measured (one thread, whole process, S = 3500, merged-edge
/// class 5886, 91.1 million paths for its `a`, the two ways at the same time on the two
/// cores; docs/NOTES-bench.md): without the source 1.05x the time at 0.57 of the peak
/// memory (3,449 → 1,951 MiB). The largest top letter of the default 4x4 partition's
/// largest class in the estimate's draws has 41.2 million (58328's `e`); those keep theirs.
pub const PAIR_SOURCE_PATHS: usize = 3 << 24;

/// Boards of at least this many cells have their walks prune by Score by default
/// ([`ClassBreaker::prune_by_score`]). Measured (whole processes, alternating pairs, one
/// core): ten 3x4 classes 0.89 of the time, heavy 4x4 classes 0.90-0.97, light ones 1.00;
/// the whole 3x3 proof 1.06, its walks too small to pay for their overcount bounds.
pub const PRUNE_BY_SCORE_CELLS: usize = 12;

/// The most atom trees a breaker keeps ([`ClassBreaker::atom_trie`]).
const ATOM_TRIES_KEPT: usize = 32;

/// The largest arena kept for the next class (256 MiB): for small classes page faults on
/// fresh memory are a tenth of the time; for big ones they are noise and the memory is better
/// returned.
const KEEP_ARENA_BYTES: usize = 256 << 20;

/// The mutable state of breaking one class.
struct Run<'c, 'd> {
    arena: Arena,
    cells: &'c [u32],
    /// The class's cell order ([`ClassBreaker::order_for`]).
    order: CellOrder,
    letters: Vec<u8>,
    settings: BreakSettings,
    out: BreakOutcome,
    /// Storage reused by every OrderlyBound walk.
    scratch: WalkScratch,
    /// Buffers of the candidate check.
    sift: Sift,
    /// Scores the candidates; made when the first one is scored ([`ClassBreaker::solver`]).
    solver: Option<Solver<'d>>,
    /// The forced cells (a mask: the first one or two of the order) while a unit tree
    /// without redundant paths is broken (its bound is below DeMulti, and the overcount bound
    /// leaves the same paths out); 0 for a whole tree, whose bound on a board is its DeMulti.
    unit_forced: u64,
    /// The class's mirror pair, when only one board of each pair of images is sought.
    mirror: Option<MirrorPair>,
    /// `overcounts[e]`: the overcount bound of boards with the letters of `run.letters` on
    /// the cells of positions `< e`, shared by the walks below the branch at `e`; valid where
    /// `overcount_valid` has bit `e`.
    overcounts: Vec<OvercountBound>,
    overcount_valid: u64,
}

impl<'d> ClassBreaker<'d> {
    /// A breaker for `size` boards (at most 25 cells), which gives each class the cell
    /// order [`CellOrder::for_class`].
    pub fn new(trie: Trie<'d>, size: Size, scoring: Scoring) -> ClassBreaker<'d> {
        ClassBreaker::with_fixed_order(trie, size, scoring, None)
    }

    /// A breaker whose trees put cells in `order` (which must cover `size`'s cells) for every
    /// class, instead of each class's own order. Any order gives sound bounds; it changes
    /// the work.
    pub fn with_order(
        trie: Trie<'d>,
        size: Size,
        scoring: Scoring,
        order: CellOrder,
    ) -> ClassBreaker<'d> {
        assert_eq!(order.len(), size.cells(), "cell order length");
        ClassBreaker::with_fixed_order(trie, size, scoring, Some(order))
    }

    fn with_fixed_order(
        trie: Trie<'d>,
        size: Size,
        scoring: Scoring,
        fixed_order: Option<CellOrder>,
    ) -> ClassBreaker<'d> {
        let geometry = Geometry::new(size);
        // Own inverses that move some cell (a 1-column board's column flip moves none).
        let involutions = Symmetries::new(size).perms()[1..]
            .iter()
            .filter(|perm| {
                (0..perm.len()).all(|i| perm[perm[i] as usize] as usize == i)
                    && (0..perm.len()).any(|i| perm[i] as usize != i)
            })
            .cloned()
            .collect();
        let word_letters = WordLetters::new(trie);
        ClassBreaker {
            trie,
            word_cells: word_letters.cells(),
            word_letters,
            atom_tries: Mutex::new(Vec::new()),
            geometry,
            fixed_order,
            scoring,
            word_points: TreeBuilder::word_points(trie, scoring),
            keep_candidates: false,
            one_of_each_mirror_pair: true,
            prune_by_score: size.cells() >= PRUNE_BY_SCORE_CELLS,
            involutions,
            whole_tree_paths: WHOLE_TREE_PATHS,
            two_cell_paths: TWO_CELL_PATHS,
            two_cell_paths_few_pairs: TWO_CELL_FEW_PAIRS_PATHS,
            two_cell_paths_many_pairs: TWO_CELL_MANY_PAIRS_PATHS,
            max_two_cell_pairs: TWO_CELL_MANY_PAIRS,
            pair_source_paths: PAIR_SOURCE_PATHS,
            spare: Mutex::new(Vec::new()),
            solver: OnceLock::new(),
        }
    }

    /// Makes outcomes list every candidate (with its Score), not only the results: for
    /// audits and tests. It costs memory in classes with millions of candidates.
    pub fn keep_candidates(mut self, keep: bool) -> ClassBreaker<'d> {
        self.keep_candidates = keep;
        self
    }

    /// Makes a class that is its own image under a symmetry be broken for every board
    /// (`true`), not for one board of each pair of images (the default, `false`): for tests
    /// that compare candidates with brute force, and audits of runs made before.
    pub fn every_mirror_image(mut self, every: bool) -> ClassBreaker<'d> {
        self.one_of_each_mirror_pair = !every;
        self
    }

    /// Makes the walks prune by Score (`true`) or by their bound alone (`false`); by default
    /// boards of [`PRUNE_BY_SCORE_CELLS`] or more do. Either way the results are the same;
    /// pruning by Score finds fewer candidates. Ignored while every candidate is kept.
    pub fn prune_by_score(mut self, prune: bool) -> ClassBreaker<'d> {
        self.prune_by_score = prune;
        self
    }

    /// The pair of cells whose letters the breaker orders for `class`, if the class is its
    /// own image under a symmetry that is its own inverse: of the cells with two letters or
    /// more that such a symmetry moves, the pair whose later cell comes first in the order
    /// (so that the most work is halved). `None` for a class that is no image of itself, or
    /// when every image is to be found ([`ClassBreaker::every_mirror_image`]).
    pub fn mirror_pair(&self, class: &BoardClass) -> Option<MirrorPair> {
        self.mirror_pair_in(class, &self.order_for(class))
    }

    /// [`ClassBreaker::mirror_pair`] for the class's trees in `order`.
    fn mirror_pair_in(&self, class: &BoardClass, order: &CellOrder) -> Option<MirrorPair> {
        if !self.one_of_each_mirror_pair {
            return None;
        }
        let cells = class.cells();
        let mut best: Option<MirrorPair> = None;
        for perm in &self.involutions {
            // The image of a board puts the letter of cell perm[i] on cell i, so the class is
            // its own image when every cell has the letter set of the cell it receives from.
            if (0..cells.len()).any(|i| cells[perm[i] as usize] != cells[i]) {
                continue;
            }
            for (a, &b) in perm.iter().enumerate() {
                let b = b as usize;
                // A pair of one-letter cells orders nothing.
                if b == a || cells[a].count_ones() < 2 {
                    continue;
                }
                let (pa, pb) = (order.pos(a), order.pos(b));
                let pair = if pa < pb {
                    MirrorPair {
                        early_cell: a,
                        late_pos: pb,
                    }
                } else {
                    MirrorPair {
                        early_cell: b,
                        late_pos: pa,
                    }
                };
                if best.is_none_or(|m| pair.late_pos < m.late_pos) {
                    best = Some(pair);
                }
            }
        }
        best
    }

    /// The cell order of `class`'s trees (position 0 = top): the breaker's fixed order if it
    /// was given one, else [`CellOrder::for_class`] for the class's letter sets.
    pub fn order_for(&self, class: &BoardClass) -> CellOrder {
        match &self.fixed_order {
            Some(order) => order.clone(),
            None => CellOrder::for_class(&self.geometry, class.cells()),
        }
    }

    /// Builds one tree per letter of the top cell for classes with more than `paths` word
    /// paths, instead of one tree for the class (default [`WHOLE_TREE_PATHS`]). The results
    /// are the same either way; the candidates of the trees per letter are some of the whole
    /// tree's, as those trees leave out redundant paths. For tests and experiments.
    pub fn whole_tree_paths(mut self, paths: usize) -> ClassBreaker<'d> {
        self.whole_tree_paths = paths;
        self
    }

    /// Of the classes built a letter of the top cell at a time, builds one tree per pair of
    /// letters of the top two cells for those with more than `paths` word paths, whatever
    /// their pairs of letters (by default [`TWO_CELL_PATHS`], for top cells of at most
    /// [`TWO_CELL_FEW_PAIRS`] pairs [`TWO_CELL_FEW_PAIRS_PATHS`], and for those of more than
    /// [`TWO_CELL_PAIRS`] [`TWO_CELL_MANY_PAIRS_PATHS`]). The results are the same either
    /// way. For tests and experiments.
    pub fn two_cell_paths(mut self, paths: usize) -> ClassBreaker<'d> {
        self.two_cell_paths = paths;
        self.two_cell_paths_few_pairs = paths;
        self.two_cell_paths_many_pairs = paths;
        self
    }

    /// As [`ClassBreaker::two_cell_paths`], for the classes whose top two cells have at most
    /// [`TWO_CELL_FEW_PAIRS`] pairs of letters only. For tests and experiments.
    pub fn two_cell_paths_few_pairs(mut self, paths: usize) -> ClassBreaker<'d> {
        self.two_cell_paths_few_pairs = paths;
        self
    }

    /// As [`ClassBreaker::two_cell_paths`], for the classes whose top two cells have more
    /// than [`TWO_CELL_PAIRS`] pairs of letters only. For tests and experiments.
    pub fn two_cell_paths_many_pairs(mut self, paths: usize) -> ClassBreaker<'d> {
        self.two_cell_paths_many_pairs = paths;
        self
    }

    /// Has the two-cell units of a top letter whose unit has more than `paths` word paths
    /// walk their own paths instead of sharing one walk (default [`PAIR_SOURCE_PATHS`]). The
    /// trees are the same either way. For tests and experiments.
    pub fn pair_source_paths(mut self, paths: usize) -> ClassBreaker<'d> {
        self.pair_source_paths = paths;
        self
    }

    /// Builds two cells at a time only the classes whose top two cells have at most `pairs`
    /// pairs of letters (default [`TWO_CELL_MANY_PAIRS`]), of those over
    /// [`ClassBreaker::two_cell_paths`]. For tests and experiments.
    pub fn max_two_cell_pairs(mut self, pairs: u32) -> ClassBreaker<'d> {
        self.max_two_cell_pairs = pairs;
        self
    }

    /// Builds the orderly tree of a class into `arena` and returns its root.
    /// The tree's cell order is [`ClassBreaker::order_for`] the class.
    pub fn build_tree(&self, class: &BoardClass, arena: &mut Arena) -> SumId {
        let atoms = self.atom_trie(class.cells());
        let order = self.order_for(class);
        self.builder(&order).by_atoms(&atoms).build(class, arena)
    }

    /// As [`ClassBreaker::build_tree`], unless the class has more than `max_paths` word
    /// paths: then it builds nothing and returns `Err` with a count above `max_paths`. The
    /// paths are counted first, in a walk that keeps none and stops past `max_paths`, so a
    /// refused class takes no memory; a whole tree takes about 50 bytes a path.
    pub fn build_tree_limited(
        &self,
        class: &BoardClass,
        arena: &mut Arena,
        max_paths: usize,
    ) -> Result<SumId, usize> {
        let atoms = self.atom_trie(class.cells());
        let order = self.order_for(class);
        let builder = self.builder(&order).by_atoms(&atoms);
        let mut buffers = PathBuffers::default();
        // With a limit of 0 paths kept, `Err` is the count (up to past `max_paths`), and `Ok`
        // the tree of a class without any path, already built.
        match builder.build_or_count(class, 0, 0, max_paths, arena, &mut buffers) {
            Ok(empty) => Ok(empty),
            Err(paths) if paths > max_paths => Err(paths),
            Err(_) => Ok(builder.build_reusing(class, arena, &mut buffers)),
        }
    }

    /// The atom tree of a class with these cells ([`TreeBuilder::by_atoms`]): made once for
    /// each set of atoms. Collecting a class's paths by atoms instead of letters took the
    /// whole 3x3 proof with three buckets on every cell from 107.4 to 62.9 CPU s.
    fn atom_trie(&self, cells: &[u32]) -> Arc<AtomTrie> {
        let atoms = atoms_of(cells);
        let mut made = self.atom_tries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = made.iter().find(|t| t.atoms() == atoms) {
            return t.clone();
        }
        if made.len() >= ATOM_TRIES_KEPT {
            made.clear();
        }
        let t = Arc::new(AtomTrie::new(
            self.trie,
            &self.word_letters,
            &atoms,
            cells.len(),
        ));
        made.push(t.clone());
        t
    }

    /// Builds the tree of the unit of `class` whose first one or two cells of the order
    /// ([`MAX_DROP_FORCED`]) have `letters`, with those cells forced (left out of the tree):
    /// the tree that branching the whole class's tree on them gives, built without the whole
    /// tree and without the paths that the forced letters make redundant
    /// ([`TreeBuilder::dropping_redundant_paths`]).
    pub(super) fn build_unit_tree(
        &self,
        class: &BoardClass,
        order: &CellOrder,
        letters: &[u8],
        arena: &mut Arena,
        buffers: &mut PathBuffers,
    ) -> SumId {
        assert!(
            (1..=MAX_DROP_FORCED).contains(&letters.len()),
            "one or two forced cells"
        );
        let (unit, forced) = narrowed(class, order, letters);
        let builder = self
            .builder(order)
            .dropping_redundant_paths(&self.word_cells);
        if letters.len() == 2 && buffers.has_pair_source(order.cell(0), 1 << letters[0]) {
            return builder.build_pair_unit(&unit, order.cell(0), order.cell(1), arena, buffers);
        }
        let atoms = self.atom_trie(unit.cells());
        builder
            .by_atoms(&atoms)
            .build_limited(&unit, forced, usize::MAX, arena, buffers)
            .expect("no limit on paths")
    }

    /// Collects into `buffers` the paths that the two-cell units of `class` with `letter`
    /// on its top cell share ([`TreeBuilder::collect_pair_source`]), which
    /// [`ClassBreaker::build_unit_tree`] then builds them from, unless they are more than
    /// `limit`: then the units walk their own.
    fn collect_pair_source(
        &self,
        class: &BoardClass,
        order: &CellOrder,
        letter: u8,
        limit: usize,
        buffers: &mut PathBuffers,
    ) {
        let (unit, _) = narrowed(class, order, &[letter]);
        let atoms = self.atom_trie(unit.cells());
        self.builder(order).by_atoms(&atoms).collect_pair_source(
            &unit,
            order.cell(0),
            order.cell(1),
            limit,
            buffers,
        );
    }

    /// The most word paths of a class built a top letter at a time whose units force only
    /// the top cell, when its top two cells have `pairs` pairs of letters.
    fn one_cell_paths(&self, pairs: u32) -> usize {
        if pairs <= TWO_CELL_FEW_PAIRS {
            self.two_cell_paths_few_pairs
        } else if pairs <= TWO_CELL_PAIRS {
            self.two_cell_paths
        } else {
            self.two_cell_paths_many_pairs
        }
    }

    fn builder<'b>(&'b self, order: &'b CellOrder) -> TreeBuilder<'b, 'd> {
        TreeBuilder::new(self.trie, &self.geometry, order, &self.word_points)
    }

    /// Finds every board of `class` that might score at least the threshold.
    pub fn break_class(&self, class: &BoardClass, settings: &BreakSettings) -> BreakOutcome {
        self.break_class_with(class, settings, None)
    }

    /// As [`ClassBreaker::break_class`], with checkpoint hooks for the top split. The
    /// returned outcome covers only the units that ran (not the skipped ones); its
    /// `root_bound` is the class's (for a class built a letter at a time, the largest bound
    /// of the unit trees that ran). A unit is always one letter of the top cell, with one
    /// tree or, for the heaviest classes, one per letter of the second cell.
    pub fn break_class_with(
        &self,
        class: &BoardClass,
        settings: &BreakSettings,
        mut hooks: Option<TopSplitHooks<'_>>,
    ) -> BreakOutcome {
        assert_eq!(class.size(), self.geometry.size(), "class size");
        let start = ThreadCpuClock::start();
        let order = self.order_for(class);
        let n = order.len();
        let top = order.cell(0);
        let skipped = |l: u8| hooks.as_ref().is_some_and(|h| (h.skip)(l));
        // A resumed class whose every unit is journaled needs no tree.
        if hooks.is_some() && top_letters(class, top).all(skipped) {
            return BreakOutcome {
                eliminated: vec![0; n + 1],
                seconds: start.seconds(),
                ..BreakOutcome::default()
            };
        }
        let Scratch {
            arena,
            paths: mut buffers,
            solver,
        } = self.take_scratch();
        let mut run = Run {
            arena,
            cells: class.cells(),
            mirror: self.mirror_pair_in(class, &order),
            order,
            letters: vec![0; n],
            settings: *settings,
            scratch: WalkScratch::default(),
            sift: Sift::default(),
            solver,
            out: BreakOutcome::empty(n),
            unit_forced: 0,
            overcounts: vec![OvercountBound::default(); n + 1],
            overcount_valid: 0,
        };
        let units = self.plan_units(class, &mut run, &mut buffers);
        let mut total = BreakOutcome {
            root_bound: units.root_bound,
            eliminated: vec![0; n + 1],
            ..BreakOutcome::default()
        };
        if units.whole.is_some() && (units.root_bound as u64) < settings.threshold as u64 {
            total.eliminated[0] = 1;
        } else {
            // The top split: one independent unit per letter of the top cell. Unit trees
            // are built one after another, of about the same size: their paths' buffer is
            // kept from one to the next.
            buffers.keep_all(units.whole.is_none());
            let letters: Vec<u8> = top_letters(class, top).filter(|&l| !skipped(l)).collect();
            for l in letters {
                let part = self.break_top_letter(&mut run, class, &units, l, &mut buffers);
                if let Some(h) = hooks.as_mut() {
                    (h.done)(l, &part);
                }
                total.absorb(&part);
            }
        }
        buffers.keep_all(false);
        buffers.release_pair_source();
        total.nodes = run.arena.created();
        total.peak_bytes = run.arena.peak_bytes();
        total.seconds = start.seconds();
        run.arena.clear(KEEP_ARENA_BYTES);
        self.spare
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Scratch {
                arena: run.arena,
                paths: buffers,
                solver: run.solver,
            });
        total
    }

    /// Builds the class's whole tree into `run.arena` if it has at most the whole tree's
    /// limit of word paths, and otherwise decides how its top-split units are built: a tree
    /// per letter of the top cell, or per pair of letters of the top two cells.
    fn plan_units(
        &self,
        class: &BoardClass,
        run: &mut Run<'_, 'd>,
        buffers: &mut PathBuffers,
    ) -> UnitPlan {
        let atoms = self.atom_trie(class.cells());
        // Past the whole tree's limit its walk counts the paths on, up to the two-cell ones.
        let built = self.builder(&run.order).by_atoms(&atoms).build_or_count(
            class,
            0,
            self.whole_tree_paths,
            self.two_cell_paths
                .max(self.two_cell_paths_few_pairs)
                .max(self.two_cell_paths_many_pairs)
                .max(self.pair_source_paths),
            &mut run.arena,
            buffers,
        );
        // The heaviest classes' units force the top two cells, if those have few letters.
        let pairs = || {
            let letters_at = |p: usize| class.cells()[run.order.cell(p)].count_ones();
            letters_at(0) * letters_at(1)
        };
        let two_cells = run.order.len() > 2
            && pairs() <= self.max_two_cell_pairs
            && built.is_err_and(|paths| paths > self.one_cell_paths(pairs()));
        // Only a class of more paths can have a top letter of more than the pair source's limit.
        let source_limit = if built.is_err_and(|paths| paths > self.pair_source_paths) {
            self.pair_source_paths
        } else {
            usize::MAX
        };
        let whole = built.ok();
        UnitPlan {
            whole,
            root_bound: whole.map_or(0, |root| run.arena.bound(root)),
            two_cells,
            source_limit,
        }
    }

    /// Breaks the sub-class whose top cell has letter `l` (from the whole tree, or from
    /// unit trees built for it) and returns that unit's outcome, `run.out` left empty.
    fn break_top_letter(
        &self,
        run: &mut Run<'_, 'd>,
        class: &BoardClass,
        units: &UnitPlan,
        l: u8,
        buffers: &mut PathBuffers,
    ) -> BreakOutcome {
        let unit_start = ThreadCpuClock::start();
        let created = run.arena.created();
        let unit_bound = match units.whole {
            Some(root) => {
                self.branch(run, root, units.root_bound, 0, l);
                units.root_bound
            }
            None if units.two_cells => {
                // One tree per letter of the second cell too (of those a mirror pair allows
                // there, with `l` on the top cell).
                let top = run.order.cell(0);
                run.letters[top] = l;
                let second = run.order.cell(1);
                let mut seconds =
                    MirrorPair::letters_at(run.mirror, 1, &run.letters, class.cells()[second]);
                self.collect_pair_source(class, &run.order, l, units.source_limit, buffers);
                let mut bound = 0;
                while seconds != 0 {
                    let l2 = seconds.trailing_zeros() as u8;
                    seconds &= seconds - 1;
                    bound = bound.max(self.break_unit(run, class, &[l, l2], buffers));
                }
                bound
            }
            None => self.break_unit(run, class, &[l], buffers),
        };
        let mut part = std::mem::replace(&mut run.out, BreakOutcome::empty(run.order.len()));
        part.root_bound = unit_bound;
        part.results.sort();
        part.candidates.sort();
        part.nodes = run.arena.created() - created;
        part.peak_bytes = run.arena.peak_bytes();
        part.seconds = unit_start.seconds();
        part
    }

    /// Builds the unit tree of `class` whose first cells of the order have `letters`
    /// ([`ClassBreaker::build_unit_tree`]), breaks it into `run.out`, drops it, and returns
    /// its bound.
    fn break_unit(
        &self,
        run: &mut Run<'_, 'd>,
        class: &BoardClass,
        letters: &[u8],
        buffers: &mut PathBuffers,
    ) -> u32 {
        let mark = run.arena.mark();
        let tree = self.build_unit_tree(class, &run.order, letters, &mut run.arena, buffers);
        let bound = run.arena.bound(tree);
        run.unit_forced = 0;
        for (p, &l) in letters.iter().enumerate() {
            let cell = run.order.cell(p);
            run.letters[cell] = l;
            run.unit_forced |= 1 << cell;
        }
        run.overcount_valid = 0;
        self.descend(run, tree, letters.len());
        run.unit_forced = 0;
        run.arena.reset(mark);
        bound
    }

    /// The walker of candidates' overcount bounds: the breaker's word tree and points, with
    /// none of the solver's tables.
    fn overcounter(&self) -> Overcounter<'_> {
        Overcounter::new(self.trie, &self.geometry, &self.word_points)
    }

    /// A class's solver, made (sharing the breaker's tables, made once) when the class scores
    /// its first board: a process whose classes score none skips the tables' build (28 of
    /// the 82 million instructions of a `break-class` process whose class needs no work, 37
    /// of 897 million in 4x4 class 5553243, whose candidates all fail their overcount bound).
    fn solver<'r>(&self, solver: &'r mut Option<Solver<'d>>) -> &'r mut Solver<'d> {
        solver.get_or_insert_with(|| {
            self.solver
                .get_or_init(|| Solver::new(self.trie, &self.geometry, self.scoring))
                .fresh()
        })
    }

    /// Buffers left by an earlier class, or new ones.
    fn take_scratch(&self) -> Scratch<'d> {
        self.spare
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default()
    }

    /// Breaks the sub-class of `tree` (bound `bound`; cells before `p` fixed in
    /// `run.letters`) whose cell at position `p` is `letter`. The paper branches by merging
    /// and switches to OrderlyBound once the merged tree's bound is at most the switchover;
    /// when the forced and skip trees' bounds already add up to no more than the switchover,
    /// the merge is skipped and OrderlyBound runs on `tree` itself with the cell held to
    /// `letter` (a shallow merge of the same two trees: sound by the same lemma, and on seven
    /// 4x4 classes 5-17 % faster than building the merged tree first; docs/NOTES-bench.md
    /// has the figures).
    fn branch(&self, run: &mut Run<'_, 'd>, tree: SumId, bound: u32, p: usize, letter: u8) {
        // Entries after `p` hold the letter this branch replaces.
        run.overcount_valid &= (2u64 << p) - 1;
        if run.arena.branch_bound(tree, bound, p, letter) <= run.settings.switchover as u64 {
            self.orderly_bound(run, tree, bound, p, Some(letter));
            return;
        }
        let mark = run.arena.mark();
        let created = run.arena.created();
        let child = run.arena.branch(tree, p, letter);
        run.out.merged[p] += run.arena.created() - created;
        run.letters[run.order.cell(p)] = letter;
        self.descend(run, child, p + 1);
        run.arena.reset(mark);
    }

    /// Breaks the sub-class whose cells before position `p` are fixed in `run.letters` and
    /// whose tree is `tree`: branch while the bound is above the switchover, then
    /// OrderlyBound.
    fn descend(&self, run: &mut Run<'_, 'd>, tree: SumId, p: usize) {
        let bound = run.arena.bound(tree);
        if bound < run.settings.threshold {
            run.out.eliminated[p] += 1;
            return;
        }
        if p == run.order.len() {
            let start = Instant::now();
            let mut letters = [0u8; MAX_TREE_CELLS];
            let letters = &mut letters[..run.letters.len()];
            letters.copy_from_slice(&run.letters);
            self.check(run, letters, bound);
            run.out.check_seconds += start.elapsed().as_secs_f64();
            return;
        }
        if bound <= run.settings.switchover {
            self.orderly_bound(run, tree, bound, p, None);
            return;
        }
        let mut letters =
            MirrorPair::letters_at(run.mirror, p, &run.letters, run.cells[run.order.cell(p)]);
        while letters != 0 {
            let l = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            self.branch(run, tree, bound, p, l);
        }
    }

    /// Runs OrderlyBound on `tree` (whose bound is `bound`) from position `p`, with the cell
    /// at `p` held to `only` if given, and adds what it finds and eliminates to `run.out`.
    /// Unless every candidate is kept (or [`ClassBreaker::prune_by_score`] is off), the walk
    /// prunes by Score ([`OrderlyBound::with_overcount`]) with the overcount bound of the
    /// branch just above it, made once for all the walks below that branch (one per walk was
    /// as slow as the pruning saved on a heavy 4x4 class; shared, 0.9 of the time:
    /// docs/NOTES-bench.md).
    fn orderly_bound(
        &self,
        run: &mut Run<'_, 'd>,
        tree: SumId,
        bound: u32,
        p: usize,
        only: Option<u8>,
    ) {
        let mut cells = [0u32; MAX_TREE_CELLS];
        let cells = &mut cells[..run.cells.len()];
        cells.copy_from_slice(run.cells);
        if let Some(l) = only {
            cells[run.order.cell(p)] = 1 << l;
        }
        let mut walk = OrderlyBound::new(
            &run.arena,
            &run.order,
            cells,
            run.settings.threshold,
            run.letters.clone(),
            std::mem::take(&mut run.scratch),
        )
        .with_mirror(run.mirror);
        // A saturated bound may stand for more than it says, so it is never lowered (no bound
        // in the tree exceeds its root's).
        if self.prune_by_score && !self.keep_candidates && bound < u32::MAX {
            // The entry of the branch above the walk: at `p` for a walk that holds the cell
            // at `p` to one letter, else at the position merged last, and never above a unit
            // tree's forced cells (a unit's walks start below them, at 1 or 2 or later).
            let e = match only {
                Some(_) => p,
                None => p
                    .saturating_sub(1)
                    .max(run.unit_forced.count_ones() as usize),
            };
            if run.overcount_valid >> e & 1 == 0 {
                self.overcounter().overcount_bound(
                    &run.letters,
                    run.order.prefix_mask(e),
                    run.cells,
                    run.unit_forced,
                    &mut run.overcounts[e],
                );
                run.overcount_valid |= 1 << e;
            }
            // Cells fixed since the entry add their part to its base; the walk adds the rest
            // (from `p` on, the held cell included) position by position.
            let overcount = &run.overcounts[e];
            let mut base = overcount.base();
            for q in e..p {
                let c = run.order.cell(q);
                base += overcount.extra()[c][run.letters[c] as usize];
            }
            walk = walk.with_overcount(base, overcount.extra());
        }
        walk.run(tree, p);
        for (d, e) in walk.eliminated.iter().enumerate() {
            run.out.eliminated[d] += e;
        }
        let found = std::mem::take(&mut walk.found);
        run.scratch = walk.into_scratch();
        if !found.is_empty() {
            let start = Instant::now();
            self.check_all(run, &found, p + only.is_some() as usize);
            run.out.check_seconds += start.elapsed().as_secs_f64();
        }
    }

    /// Checks the candidates of one walk, which all have the letters of `run.letters` on the
    /// cells of the first `fixed` positions. Most fail by their repeated letters, so first an
    /// [`OvercountBound`] for the whole walk rejects every board whose DeMulti minus the bound
    /// is below S, exactly, without scoring it; then one bound per run of survivors that agree
    /// on the head cells (all but the last [`OPEN_TAIL`] positions) rejects more. The rest are
    /// scored, each run of survivors with one head (up to [`GROUP_MAX`]) in one walk of the
    /// solver ([`Solver::score_many`]). When every candidate is kept, every one is scored.
    fn check_all(&self, run: &mut Run<'_, 'd>, found: &[(Vec<u8>, u32)], fixed: usize) {
        let mut sift = std::mem::take(&mut run.sift);
        sift.all.clear();
        sift.all.extend(0..found.len() as u32);
        if self.keep_candidates {
            sift.walk.clone_from(&sift.all);
        } else {
            self.sift(
                run,
                found,
                &sift.all,
                fixed,
                &mut sift.bound,
                &mut sift.walk,
            );
        }
        // The head cells: those before the last OPEN_TAIL positions of the order.
        let head = run.order.len().saturating_sub(OPEN_TAIL);
        let mut head_cells = [0usize; MAX_TREE_CELLS];
        for (p, cell) in head_cells[..head].iter_mut().enumerate() {
            *cell = run.order.cell(p);
        }
        let head_cells = &head_cells[..head];
        let same_head = |a: u32, b: u32| {
            let (a, b) = (&found[a as usize].0, &found[b as usize].0);
            head_cells.iter().all(|&c| a[c] == b[c])
        };
        let mut i = 0;
        while i < sift.walk.len() {
            let mut end = i + 1;
            while end < sift.walk.len() && same_head(sift.walk[i], sift.walk[end]) {
                end += 1;
            }
            let run_of_head = &sift.walk[i..end];
            if head > fixed && !self.keep_candidates && run_of_head.len() > 1 {
                self.sift(
                    run,
                    found,
                    run_of_head,
                    head,
                    &mut sift.bound,
                    &mut sift.head,
                );
            } else {
                sift.head.clear();
                sift.head.extend_from_slice(run_of_head);
            }
            for group in sift.head.chunks(GROUP_MAX) {
                self.score_group(run, found, group, &mut sift.boards);
            }
            i = end;
        }
        run.sift = sift;
    }

    /// Rejects the candidates `found[ids]` whose DeMulti minus the [`OvercountBound`] of their
    /// first `fixed` positions' cells is below S (they agree there), and puts the others'
    /// ids in `survivors`, in order.
    fn sift(
        &self,
        run: &mut Run<'_, 'd>,
        found: &[(Vec<u8>, u32)],
        ids: &[u32],
        fixed: usize,
        bound: &mut OvercountBound,
        survivors: &mut Vec<u32>,
    ) {
        survivors.clear();
        let first = &found[ids[0] as usize].0;
        let fixed_cells = run.order.prefix_mask(fixed);
        let mut open_letters = [0u32; MAX_TREE_CELLS];
        let open_letters = &mut open_letters[..first.len()];
        for &id in ids {
            for (c, &l) in found[id as usize].0.iter().enumerate() {
                open_letters[c] |= 1 << l;
            }
        }
        self.overcounter().overcount_bound(
            first,
            fixed_cells,
            open_letters,
            run.unit_forced,
            bound,
        );
        let threshold = run.settings.threshold as u64;
        for &id in ids {
            let (letters, demulti) = &found[id as usize];
            // A DeMulti of u32::MAX is saturated (the true one may be larger): never rejected.
            if *demulti != u32::MAX && (*demulti as u64) < threshold + bound.of(letters) {
                self.count(run, *demulti);
            } else {
                survivors.push(id);
            }
        }
    }

    /// Scores the candidates `found[ids]` (which agree on the head cells) in one walk of the
    /// solver, and records them.
    fn score_group(
        &self,
        run: &mut Run<'_, 'd>,
        found: &[(Vec<u8>, u32)],
        ids: &[u32],
        boards: &mut Vec<Board>,
    ) {
        if let [id] = ids {
            let (letters, demulti) = &found[*id as usize];
            self.check(run, letters, *demulti);
            return;
        }
        boards.clear();
        boards.extend(
            ids.iter()
                .map(|&id| Board::from_letters(self.geometry.size(), &found[id as usize].0)),
        );
        let mut scores = [0u64; GROUP_MAX];
        let scores = &mut scores[..boards.len()];
        self.solver(&mut run.solver).score_many(boards, scores);
        for ((board, &id), &score) in boards.iter().zip(ids).zip(&*scores) {
            self.record(run, *board, found[id as usize].1, score);
        }
    }

    /// Checks one candidate: scores it, then records it.
    fn check(&self, run: &mut Run<'_, 'd>, letters: &[u8], demulti: u32) {
        let board = Board::from_letters(self.geometry.size(), letters);
        let score = self.solver(&mut run.solver).score(&board);
        self.record(run, board, demulti, score);
    }

    /// Counts a candidate (scored or rejected by its overcount bound).
    fn count(&self, run: &mut Run<'_, 'd>, demulti: u32) {
        run.out.demulti_count += 1;
        run.out.max_demulti = run.out.max_demulti.max(demulti);
    }

    /// Counts a scored candidate, and keeps it if it is a result (or if every candidate
    /// is kept).
    fn record(&self, run: &mut Run<'_, 'd>, board: Board, demulti: u32, score: u64) {
        let candidate = Candidate {
            board,
            demulti,
            score,
        };
        self.count(run, demulti);
        let out = &mut run.out;
        out.scored += 1;
        if score >= run.settings.threshold as u64 {
            out.results.push(candidate);
        }
        if self.keep_candidates {
            out.candidates.push(candidate);
        }
    }
}
