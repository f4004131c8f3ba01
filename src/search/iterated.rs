//! Iterated local search: climb one board to a local optimum (no single edit raises it), then
//! repeatedly kick it (a few random edits) and climb again, keeping the result when it scores
//! at least as well (or, with a temperature, sometimes when it scores worse). After `patience`
//! kicks in a row without a better board the episode ends and the next starts from a random
//! board, so one run visits several basins; it reports the best local optima of them all.
//!
//! A climb step scores the board's neighbours a family at a time (the changes of one cell, the
//! swaps of one cell with the later ones: one [`Solver::score_many`] walk each), the families
//! in a random order, and moves to the best board of the first family that holds a better
//! one. A run is sequential and draws only from its own [`Rng::stream`], so runs can go in
//! parallel without changing any result.

use super::{RunOutcome, SearchError, SearchSpace, TopBoards};
use crate::board::{Board, Geometry, Symmetries};
use crate::dict::Trie;
use crate::rng::Rng;
use crate::solve::{GROUP_MAX, Solver};
use std::collections::HashSet;
use std::time::Instant;

/// Settings of an iterated local search.
#[derive(Clone, Debug)]
pub struct IteratedSettings {
    /// Kicks per run (each followed by a climb).
    pub kicks: u64,
    /// Random single edits per kick (at least 1).
    pub strength: usize,
    /// Start a new episode from a random board after this many kicks in a row that do not
    /// raise the episode's best score.
    pub patience: u64,
    /// Accept a worse local optimum with probability `exp(-loss / temperature)` (0: never).
    pub temperature: f64,
    /// How many of the best boards a run reports.
    pub keep: usize,
}

impl IteratedSettings {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), SearchError> {
        let bad = |m: &str| Err(SearchError::BadSetting(m.to_string()));
        if self.kicks == 0 {
            return bad("--kicks must be at least 1");
        }
        if self.strength == 0 {
            return bad("--strength must be at least 1");
        }
        if self.patience == 0 {
            return bad("--patience must be at least 1");
        }
        if !(self.temperature >= 0.0 && self.temperature.is_finite()) {
            return bad("--temperature must be a number, 0 or more");
        }
        Ok(())
    }
}

/// Kicks between two progress reports of a run.
pub const REPORT_EVERY: u64 = 100;

/// What a run reports after every [`REPORT_EVERY`] kicks and after its last.
#[derive(Clone, Copy, Debug)]
pub struct IteratedReport {
    /// The run.
    pub run: usize,
    /// Kicks done so far.
    pub kick: u64,
    /// Kicks done since the run's previous report.
    pub since: u64,
    /// Kicks in all.
    pub kicks: u64,
    /// Best score the run has found so far.
    pub best: u64,
}

/// An iterated local search over one search space.
pub struct IteratedSearch<'d> {
    space: SearchSpace,
    solver: Solver<'d>,
    symmetries: Symmetries,
    settings: IteratedSettings,
}

impl<'d> IteratedSearch<'d> {
    /// A search for a search space and settings.
    pub fn new(
        trie: Trie<'d>,
        space: SearchSpace,
        settings: IteratedSettings,
    ) -> Result<IteratedSearch<'d>, SearchError> {
        settings.validate()?;
        Ok(IteratedSearch {
            solver: Solver::new(trie, &Geometry::new(space.size), space.scoring),
            symmetries: Symmetries::new(space.size),
            space,
            settings,
        })
    }

    /// One random single edit: a cell changed to another letter, or two cells swapped.
    fn edit(&self, board: &mut Board, rng: &mut Rng) {
        let n = self.space.size.cells();
        let cell = rng.index(n);
        if rng.below(3) == 0 && n > 1 {
            let mut other = rng.index(n - 1);
            if other >= cell {
                other += 1;
            }
            board.swap(cell, other);
        } else {
            let l = self.space.letters.random_other(rng, board.get(cell));
            board.set(cell, l);
        }
    }

    /// Climbs `board` to a local optimum; returns it with its score.
    fn climb(
        &self,
        solver: &mut Solver<'d>,
        mut board: Board,
        mut score: u64,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> (Board, u64) {
        let n = self.space.size.cells();
        let families = 2 * n;
        // Invariant: `score` is the score of `board`; a full pass over the families in which
        // none holds a better board ends the climb.
        'climb: loop {
            rng.shuffle(&mut scratch.order);
            // A board this run has already found to be a local optimum needs no pass: it
            // would find nothing (the shuffle above is kept, so the random stream is the same).
            if scratch.optima.contains(&board) {
                return (board, score);
            }
            for &f in &scratch.order[..families] {
                scratch.boards.clear();
                if f < n {
                    let old = board.get(f);
                    for &l in self.space.letters.allowed() {
                        if l != old {
                            let mut b = board;
                            b.set(f, l);
                            scratch.boards.push(b);
                        }
                    }
                } else {
                    let i = f - n;
                    for j in i + 1..n {
                        if board.get(i) != board.get(j) {
                            let mut b = board;
                            b.swap(i, j);
                            scratch.boards.push(b);
                        }
                    }
                }
                if scratch.boards.is_empty() {
                    continue;
                }
                // A family holds at most 25 changes or 35 swaps (6x6), within one walk.
                debug_assert!(scratch.boards.len() <= GROUP_MAX);
                scratch.scores.clear();
                scratch.scores.resize(scratch.boards.len(), 0);
                solver.score_many(&scratch.boards, &mut scratch.scores);
                // The family is not empty (checked above), so it has a best board.
                let (best_index, &best_score) = scratch
                    .scores
                    .iter()
                    .enumerate()
                    .max_by_key(|&(i, score)| (score, std::cmp::Reverse(i)))
                    .expect("a non-empty family");
                if best_score > score {
                    board = scratch.boards[best_index];
                    score = best_score;
                    continue 'climb;
                }
            }
            scratch.optima.insert(board);
            return (board, score);
        }
    }

    /// Runs search number `run` (its generator is `Rng::stream(seed, run)`), calling
    /// `report` after every [`REPORT_EVERY`] kicks and after the last.
    pub fn run(&self, run: usize, report: &(dyn Fn(&IteratedReport) + Sync)) -> RunOutcome {
        let start = Instant::now();
        let settings = &self.settings;
        let mut rng = Rng::stream(self.space.seed, run as u64);
        let mut solver = self.solver.fresh();
        let n = self.space.size.cells();
        let mut scratch = Scratch {
            order: (0..2 * n).collect(),
            boards: Vec::new(),
            scores: Vec::new(),
            optima: HashSet::new(),
        };
        let mut top = TopBoards::new(settings.keep);
        let first = self.space.letters.random_board(self.space.size, &mut rng);
        let first_score = solver.score(&first);
        let (mut board, score) =
            self.climb(&mut solver, first, first_score, &mut rng, &mut scratch);
        top.offer(&self.symmetries, &board, score);
        let mut episode = Episode::start(score);
        // Invariant: `episode.score` is the score of `board`, the current local optimum.
        for kick in 0..settings.kicks {
            if episode.is_over(settings.patience) {
                let fresh = self.space.letters.random_board(self.space.size, &mut rng);
                let fresh_score = solver.score(&fresh);
                let (next, next_score) =
                    self.climb(&mut solver, fresh, fresh_score, &mut rng, &mut scratch);
                top.offer(&self.symmetries, &next, next_score);
                board = next;
                episode = Episode::start(next_score);
            } else {
                let mut next = board;
                for _ in 0..settings.strength {
                    self.edit(&mut next, &mut rng);
                }
                let kicked_score = solver.score(&next);
                let (next, next_score) =
                    self.climb(&mut solver, next, kicked_score, &mut rng, &mut scratch);
                top.offer(&self.symmetries, &next, next_score);
                if episode.accepts(next_score, settings.temperature, &mut rng) {
                    board = next;
                    episode.record(next_score);
                } else {
                    episode.record(episode.score);
                }
            }
            let done = kick + 1;
            if done % REPORT_EVERY == 0 || done == settings.kicks {
                report(&IteratedReport {
                    run,
                    kick: done,
                    since: done - kick / REPORT_EVERY * REPORT_EVERY,
                    kicks: settings.kicks,
                    best: top.best_score().unwrap_or(0),
                });
            }
        }
        RunOutcome {
            run,
            finalists: top.boards().to_vec(),
            rounds: settings.kicks,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}

/// Where a run stands between two kicks: the score of its current local optimum, the best
/// score of its episode, and how many kicks in a row have not raised that best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Episode {
    score: u64,
    best: u64,
    stale: u64,
}

impl Episode {
    /// An episode whose first local optimum scores `score`.
    fn start(score: u64) -> Episode {
        Episode {
            score,
            best: score,
            stale: 0,
        }
    }

    /// Whether `patience` kicks in a row have gone by without a better board.
    fn is_over(&self, patience: u64) -> bool {
        self.stale >= patience
    }

    /// Whether to move to a local optimum scoring `next`: always if it is at least as good,
    /// otherwise with probability `exp(-loss / temperature)` (never at temperature 0, which
    /// draws nothing from `rng`).
    fn accepts(&self, next: u64, temperature: f64, rng: &mut Rng) -> bool {
        next >= self.score
            || (temperature > 0.0
                && rng.unit() < ((next as f64 - self.score as f64) / temperature).exp())
    }

    /// Records a kick after which the current local optimum scores `score`.
    fn record(&mut self, score: u64) {
        self.score = score;
        if score > self.best {
            self.best = score;
            self.stale = 0;
        } else {
            self.stale += 1;
        }
    }
}

/// What the climbs of one run share: buffers, and the local optima found so far.
struct Scratch {
    /// The families (cells, then cells + n for swaps), shuffled before each pass.
    order: Vec<usize>,
    boards: Vec<Board>,
    scores: Vec<u64>,
    /// Every local optimum the run has reached (at most one per climb).
    optima: HashSet<Board>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::dict::Dictionary;
    use crate::search::Letters;
    use crate::solve::Scoring;

    fn searcher<'d>(d: &'d Dictionary, size: &str, letters: Letters) -> IteratedSearch<'d> {
        let space = SearchSpace {
            size: size.parse::<Size>().unwrap(),
            scoring: Scoring::Standard,
            letters,
            seed: 3,
        };
        let settings = IteratedSettings {
            kicks: 20,
            strength: 2,
            patience: 5,
            temperature: 0.0,
            keep: 3,
        };
        IteratedSearch::new(d.trie(), space, settings).unwrap()
    }

    /// A climb ends on a board that no single edit (a change, a swap) improves, scoring each
    /// neighbour alone.
    #[test]
    fn a_climb_ends_on_a_local_optimum() {
        let d = Dictionary::enable2k();
        let search = searcher(&d, "3x4", Letters::all());
        let size = search.space.size;
        let mut solver = search.solver.fresh();
        let mut rng = Rng::new(11);
        let n = size.cells();
        let mut scratch = Scratch {
            order: (0..2 * n).collect(),
            boards: Vec::new(),
            scores: Vec::new(),
            optima: HashSet::new(),
        };
        for _ in 0..5 {
            let start = search.space.letters.random_board(size, &mut rng);
            let start_score = solver.score(&start);
            let (top, score) =
                search.climb(&mut solver, start, start_score, &mut rng, &mut scratch);
            assert_eq!(score, solver.score(&top));
            assert!(score >= start_score);
            for cell in 0..n {
                for l in 0..26 {
                    let mut b = top;
                    b.set(cell, l);
                    assert!(solver.score(&b) <= score, "{top} -> {b}");
                }
                for other in cell + 1..n {
                    let mut b = top;
                    b.swap(cell, other);
                    assert!(solver.score(&b) <= score, "{top} -> {b}");
                }
            }
        }
    }

    /// An episode ends after exactly `patience` kicks in a row without a better board, and a
    /// better board starts the count again; worse boards are refused at temperature 0 and
    /// taken at a high one.
    #[test]
    fn episodes_end_after_patience_stale_kicks() {
        let mut e = Episode::start(100);
        for _ in 0..2 {
            assert!(!e.is_over(3));
            e.record(100);
        }
        e.record(101);
        assert_eq!((e.best, e.stale), (101, 0));
        for _ in 0..3 {
            assert!(!e.is_over(3));
            e.record(99);
        }
        assert!(e.is_over(3));
        assert_eq!(e.best, 101);
        let mut rng = Rng::new(1);
        let e = Episode::start(100);
        assert!(e.accepts(100, 0.0, &mut rng));
        assert!(!e.accepts(99, 0.0, &mut rng));
        let taken = (0..1000).filter(|_| e.accepts(99, 1e6, &mut rng)).count();
        assert!(taken > 990, "{taken}");
        let taken = (0..1000).filter(|_| e.accepts(50, 1.0, &mut rng)).count();
        assert_eq!(taken, 0);
    }

    #[test]
    fn tiny_dictionary_finds_its_word() {
        // With one word the best boards spell it once (1 point).
        let d = Dictionary::from_text("t", b"cat\n");
        let letters = Letters::excluding("bdefghijklmnopqrsuvwxz").unwrap();
        let search = searcher(&d, "2x2", letters);
        let out = search.run(0, &|_| {});
        assert_eq!(out.best().score, 1);
        assert_eq!(out.rounds, 20);
        assert!(out.finalists.len() <= 3);
    }

    #[test]
    fn bad_settings_are_refused() {
        let d = Dictionary::from_text("t", b"cat\n");
        let space = SearchSpace {
            size: "2x2".parse::<Size>().unwrap(),
            scoring: Scoring::Standard,
            letters: Letters::all(),
            seed: 1,
        };
        let good = IteratedSettings {
            kicks: 1,
            strength: 1,
            patience: 1,
            temperature: 0.0,
            keep: 1,
        };
        for bad in [
            IteratedSettings {
                kicks: 0,
                ..good.clone()
            },
            IteratedSettings {
                strength: 0,
                ..good.clone()
            },
            IteratedSettings {
                patience: 0,
                ..good.clone()
            },
            IteratedSettings {
                temperature: f64::NAN,
                ..good.clone()
            },
            IteratedSettings {
                temperature: -1.0,
                ..good.clone()
            },
        ] {
            assert!(IteratedSearch::new(d.trie(), space.clone(), bad).is_err());
        }
        assert!(IteratedSearch::new(d.trie(), space, good).is_ok());
    }
}
