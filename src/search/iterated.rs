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
use crate::solve::Solver;
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

/// What a run reports every so often.
#[derive(Clone, Copy, Debug)]
pub struct IteratedReport {
    /// The run.
    pub run: usize,
    /// Kicks done so far.
    pub kick: u64,
    /// Kicks in all.
    pub kicks: u64,
    /// Best score so far.
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
                scratch.scores.clear();
                scratch.scores.resize(scratch.boards.len(), 0);
                solver.score_many(&scratch.boards, &mut scratch.scores);
                let (i, &s) = scratch
                    .scores
                    .iter()
                    .enumerate()
                    .max_by_key(|&(i, s)| (s, std::cmp::Reverse(i)))
                    .expect("a non-empty family");
                if s > score {
                    board = scratch.boards[i];
                    score = s;
                    continue 'climb;
                }
            }
            return (board, score);
        }
    }

    /// Runs search number `run` (its generator is `Rng::stream(seed, run)`).
    pub fn run(&self, run: usize, report: &(dyn Fn(&IteratedReport) + Sync)) -> RunOutcome {
        let start = Instant::now();
        let s = &self.settings;
        let mut rng = Rng::stream(self.space.seed, run as u64);
        let mut solver = self.solver.fresh();
        let n = self.space.size.cells();
        let mut scratch = Scratch {
            order: (0..2 * n).collect(),
            boards: Vec::new(),
            scores: Vec::new(),
        };
        let mut top = TopBoards::new(s.keep);
        let first = self.space.letters.random_board(self.space.size, &mut rng);
        let first_score = solver.score(&first);
        let (mut board, mut score) =
            self.climb(&mut solver, first, first_score, &mut rng, &mut scratch);
        top.offer(&self.symmetries, &board, score);
        let mut best_score = score;
        let mut episode_best = score;
        let mut stale = 0;
        for kick in 0..s.kicks {
            let (next, next_score) = if stale >= s.patience {
                // A new episode, from a random board.
                let b = self.space.letters.random_board(self.space.size, &mut rng);
                let sc = solver.score(&b);
                stale = 0;
                episode_best = 0;
                score = 0;
                self.climb(&mut solver, b, sc, &mut rng, &mut scratch)
            } else {
                let mut next = board;
                for _ in 0..s.strength {
                    self.edit(&mut next, &mut rng);
                }
                let next_score = solver.score(&next);
                self.climb(&mut solver, next, next_score, &mut rng, &mut scratch)
            };
            if top.admits(next_score) {
                top.offer(&self.symmetries, &next, next_score);
            }
            let accept = next_score >= score
                || (s.temperature > 0.0
                    && rng.unit() < ((next_score as f64 - score as f64) / s.temperature).exp());
            if accept {
                board = next;
                score = next_score;
            }
            if score > episode_best {
                episode_best = score;
                stale = 0;
            } else {
                stale += 1;
            }
            best_score = best_score.max(score);
            if (kick + 1) % 100 == 0 {
                report(&IteratedReport {
                    run,
                    kick: kick + 1,
                    kicks: s.kicks,
                    best: best_score,
                });
            }
        }
        RunOutcome {
            run,
            finalists: top.boards().to_vec(),
            rounds: s.kicks,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}

/// Buffers a climb reuses.
struct Scratch {
    /// The families (cells, then cells + n for swaps), shuffled before each pass.
    order: Vec<usize>,
    boards: Vec<Board>,
    scores: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::dict::Dictionary;
    use crate::search::Letters;
    use crate::solve::Scoring;

    fn search<'d>(d: &'d Dictionary, size: &str, letters: Letters) -> IteratedSearch<'d> {
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
        let it = search(&d, "3x4", Letters::all());
        let size = it.space.size;
        let mut solver = it.solver.fresh();
        let mut rng = Rng::new(11);
        let n = size.cells();
        let mut scratch = Scratch {
            order: (0..2 * n).collect(),
            boards: Vec::new(),
            scores: Vec::new(),
        };
        for _ in 0..5 {
            let start = it.space.letters.random_board(size, &mut rng);
            let start_score = solver.score(&start);
            let (top, score) = it.climb(&mut solver, start, start_score, &mut rng, &mut scratch);
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

    #[test]
    fn tiny_dictionary_finds_its_word() {
        // With one word the best boards spell it once (1 point).
        let d = Dictionary::from_text("t", b"cat\n");
        let letters = Letters::excluding("bdefghijklmnopqrsuvwxz").unwrap();
        let it = search(&d, "2x2", letters);
        let out = it.run(0, &|_| {});
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
