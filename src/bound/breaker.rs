//! The class breaker: decides for one board class which boards might reach a threshold.

use super::class::BoardClass;
use crate::board::{Board, Geometry, Size};
use crate::dict::Trie;
use crate::solve::{Scoring, Solver};

/// What to break a class against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakSettings {
    /// The score S sought: every board with Score ≥ S must be reported.
    pub threshold: u32,
    /// Branch (merge) while the bound is above this; at or below it, switch to OrderlyBound.
    pub switchover: u32,
}

impl BreakSettings {
    /// The paper's default switchover: 1.5 × S.
    pub fn with_default_switchover(threshold: u32) -> BreakSettings {
        BreakSettings {
            threshold,
            switchover: threshold.saturating_add(threshold / 2),
        }
    }
}

/// A board that survived every bound: its DeMulti bound is at least the threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    /// The board, as it lies in the class (not canonicalised).
    pub board: Board,
    /// Its DeMulti score (the bound the tree converged to), ≥ the threshold.
    pub demulti: u32,
}

/// The result of breaking a class (or one branch of its top split).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BreakOutcome {
    /// The orderly bound of the whole class before any branching.
    pub root_bound: u32,
    /// Boards whose DeMulti ≥ threshold, sorted.
    pub candidates: Vec<Candidate>,
    /// Tree nodes created (build plus merges).
    pub nodes: u64,
    /// Peak bytes held by tree arenas.
    pub peak_bytes: u64,
    /// Wall seconds.
    pub seconds: f64,
    /// `eliminated[d]`: sub-classes eliminated after forcing `d` cells.
    pub eliminated: Vec<u64>,
}

impl BreakOutcome {
    /// Whether the class was broken: no board can reach the threshold.
    pub fn is_broken(&self) -> bool {
        self.candidates.is_empty()
    }

    /// Adds another part's figures to this one (for top-split parts of one class).
    pub fn absorb(&mut self, other: &BreakOutcome) {
        self.candidates.extend_from_slice(&other.candidates);
        self.candidates.sort();
        self.nodes += other.nodes;
        self.peak_bytes = self.peak_bytes.max(other.peak_bytes);
        self.seconds += other.seconds;
        if self.eliminated.len() < other.eliminated.len() {
            self.eliminated.resize(other.eliminated.len(), 0);
        }
        for (a, b) in self.eliminated.iter_mut().zip(&other.eliminated) {
            *a += b;
        }
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
    geometry: Geometry,
    scoring: Scoring,
}

impl<'d> ClassBreaker<'d> {
    /// A breaker for `size` boards.
    pub fn new(trie: Trie<'d>, size: Size, scoring: Scoring) -> ClassBreaker<'d> {
        ClassBreaker {
            trie,
            geometry: Geometry::new(size),
            scoring,
        }
    }

    /// Finds every board of `class` that might score at least the threshold.
    pub fn break_class(&self, class: &BoardClass, settings: &BreakSettings) -> BreakOutcome {
        self.break_class_with(class, settings, None)
    }

    /// As [`ClassBreaker::break_class`], with checkpoint hooks for the top split. The
    /// returned outcome covers only the units that ran (not the skipped ones).
    pub fn break_class_with(
        &self,
        class: &BoardClass,
        settings: &BreakSettings,
        hooks: Option<TopSplitHooks<'_>>,
    ) -> BreakOutcome {
        // Placeholder until the orderly-tree breaker lands: exact brute force over the class,
        // fine for small test classes only. Candidates get their DeMulti.
        let _ = hooks;
        let start = std::time::Instant::now();
        let mut solver = Solver::new(self.trie, &self.geometry, self.scoring);
        let mut out = BreakOutcome::default();
        for board in class.boards() {
            let s = solver.scores(&board);
            if s.score >= settings.threshold as u64 {
                out.candidates.push(Candidate {
                    board,
                    demulti: s.demulti.min(u32::MAX as u64) as u32,
                });
            }
        }
        out.candidates.sort();
        out.seconds = start.elapsed().as_secs_f64();
        out
    }
}
