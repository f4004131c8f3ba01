//! Pool hill climbing (the paper's Listing 1): keep the P best distinct boards among the pool
//! and every board within one edit of it, until the pool converges (a round leaves it
//! unchanged).
//!
//! An *edit* changes one cell to another allowed letter, or swaps the letters of two cells.
//! Neighbours are generated in parallel, reduced to canonical forms, sorted and deduplicated;
//! they are scored in fixed-size chunks (one [`Solver`] per chunk) whose results are
//! concatenated in order, and the next pool is the first P of the candidates sorted by
//! (score descending, canonical string ascending). Every step is therefore a function of the
//! pool alone, whatever the number of threads.
//!
//! Scores of the previous round's candidates are kept and reused: a board that stays in the
//! pool has the same neighbours as last round, so late rounds score only the neighbours of
//! the few boards that are new to the pool.

use super::{RunOutcome, Scored, SearchError, SearchSpace};
use crate::board::{Board, Geometry, Symmetries};
use crate::dict::Trie;
use crate::rng::Rng;
use crate::solve::Solver;
use rayon::prelude::*;
use std::time::Instant;

/// Boards scored by one solver in one parallel task.
const CHUNK: usize = 2048;

/// Settings of a hill climb.
#[derive(Clone, Debug)]
pub struct HillclimbSettings {
    /// Pool size P (at least 1).
    pub pool: usize,
    /// How many of the final pool a run reports as finalists (at least 1).
    pub keep: usize,
    /// Stop after this many rounds even if still improving (`None`: no limit).
    pub max_rounds: Option<u64>,
    /// End a run early after this many rounds in a row that do not raise the pool's best
    /// score (`None`: run until the pool converges, as Listing 1 does).
    pub patience: Option<u64>,
}

impl HillclimbSettings {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), SearchError> {
        if self.pool == 0 {
            return Err(SearchError::EmptyPool);
        }
        if self.patience == Some(0) {
            return Err(SearchError::BadSetting(
                "--patience must be at least 1".into(),
            ));
        }
        if self.max_rounds == Some(0) {
            return Err(SearchError::BadSetting(
                "--max-rounds must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// What a run reports after each round.
#[derive(Clone, Copy, Debug)]
pub struct RoundReport {
    /// The run.
    pub run: usize,
    /// Rounds done so far (1 after the first).
    pub round: u64,
    /// Best score in the pool after this round.
    pub best: u64,
    /// Distinct boards in this round's neighbourhood.
    pub candidates: usize,
    /// Of those, boards not scored in the previous round (scored now).
    pub scored: usize,
}

/// One hill climber: the word tree, the geometry and the symmetries of one search space.
pub struct HillClimber<'d> {
    space: SearchSpace,
    trie: Trie<'d>,
    geometry: Geometry,
    symmetries: Symmetries,
    settings: HillclimbSettings,
}

impl<'d> HillClimber<'d> {
    /// A climber for a search space and settings.
    pub fn new(
        trie: Trie<'d>,
        space: SearchSpace,
        settings: HillclimbSettings,
    ) -> Result<HillClimber<'d>, SearchError> {
        settings.validate()?;
        Ok(HillClimber {
            geometry: Geometry::new(space.size),
            symmetries: Symmetries::new(space.size),
            space,
            trie,
            settings,
        })
    }

    /// Scores boards in parallel (in the current rayon pool); results in input order.
    fn score_all(&self, boards: &[Board]) -> Vec<Scored> {
        boards
            .par_chunks(CHUNK)
            .flat_map_iter(|chunk| {
                let mut solver = Solver::new(self.trie, &self.geometry, self.space.scoring);
                chunk
                    .iter()
                    .map(|b| Scored {
                        score: solver.score(b),
                        board: *b,
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The canonical forms of every board within one edit of `board`.
    pub fn neighbours(&self, board: &Board) -> Vec<Board> {
        let n = self.space.size.cells();
        let letters = self.space.letters.allowed();
        let mut out = Vec::with_capacity(n * letters.len() + n * (n - 1) / 2);
        for cell in 0..n {
            let old = board.get(cell);
            for &l in letters {
                if l != old {
                    let mut b = *board;
                    b.set(cell, l);
                    out.push(self.symmetries.canonical(&b));
                }
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                if board.get(i) != board.get(j) {
                    let mut b = *board;
                    b.swap(i, j);
                    out.push(self.symmetries.canonical(&b));
                }
            }
        }
        out
    }

    /// Scores `boards` (sorted, distinct), taking the score of every board that `known`
    /// (sorted by board) already holds. Returns all of them in board order, and how many
    /// were scored now.
    fn score_with(&self, boards: Vec<Board>, known: &[Scored]) -> (Vec<Scored>, usize) {
        // Merge join: both lists are sorted by board, so one pass finds the known scores.
        let mut out = Vec::with_capacity(boards.len());
        let mut fresh = Vec::new();
        let mut k = 0;
        for b in boards {
            while k < known.len() && known[k].board < b {
                k += 1;
            }
            if k < known.len() && known[k].board == b {
                out.push(known[k]);
            } else {
                fresh.push(out.len());
                out.push(Scored { score: 0, board: b });
            }
        }
        let to_score: Vec<Board> = fresh.iter().map(|&i| out[i].board).collect();
        let scored = self.score_all(&to_score);
        for (&i, s) in fresh.iter().zip(&scored) {
            out[i] = *s;
        }
        (out, fresh.len())
    }

    /// The `pool` best of `scored`, best first.
    fn best_of(&self, scored: &[Scored]) -> Vec<Scored> {
        let mut best = scored.to_vec();
        let p = self.settings.pool.min(best.len());
        if p < best.len() {
            best.select_nth_unstable(p);
            best.truncate(p);
        }
        best.par_sort_unstable();
        best
    }

    /// Runs climb number `run` (its generator is `Rng::stream(seed, run)`), calling
    /// `report` after every round.
    pub fn run(&self, run: usize, report: &mut dyn FnMut(&RoundReport)) -> RunOutcome {
        let start = Instant::now();
        let mut rng = Rng::stream(self.space.seed, run as u64);
        let mut initial: Vec<Board> = (0..self.settings.pool)
            .map(|_| {
                let b = self.space.letters.random_board(self.space.size, &mut rng);
                self.symmetries.canonical(&b)
            })
            .collect();
        initial.par_sort_unstable();
        initial.dedup();
        let (mut known, _) = self.score_with(initial, &[]);
        let mut pool = self.best_of(&known);
        let mut rounds = 0;
        let mut best = pool[0].score;
        let mut stale = 0;
        // Invariant: `pool` is the best P of `known` in (score, board) order, so each round's
        // pool is at least as good, board for board, as the last; equality means converged.
        loop {
            let mut candidates: Vec<Board> = pool
                .par_iter()
                .flat_map_iter(|s| self.neighbours(&s.board))
                .collect();
            candidates.extend(pool.iter().map(|s| s.board));
            candidates.par_sort_unstable();
            candidates.dedup();
            let count = candidates.len();
            let (next_known, scored) = self.score_with(candidates, &known);
            known = next_known;
            let next = self.best_of(&known);
            rounds += 1;
            report(&RoundReport {
                run,
                round: rounds,
                best: next[0].score,
                candidates: count,
                scored,
            });
            let converged = next == pool;
            pool = next;
            if pool[0].score > best {
                best = pool[0].score;
                stale = 0;
            } else {
                stale += 1;
            }
            if converged
                || self.settings.patience.is_some_and(|p| stale >= p)
                || self.settings.max_rounds.is_some_and(|m| rounds >= m)
            {
                break;
            }
        }
        pool.truncate(self.settings.keep.max(1));
        RunOutcome {
            run,
            finalists: pool,
            rounds,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::dict::Dictionary;
    use crate::search::Letters;
    use crate::solve::Scoring;

    fn space(size: &str, letters: Letters) -> SearchSpace {
        SearchSpace {
            size: size.parse::<Size>().unwrap(),
            scoring: Scoring::Standard,
            letters,
            seed: 1,
        }
    }

    #[test]
    fn neighbourhood_counts() {
        let d = Dictionary::from_text("t", b"cat\n");
        let settings = HillclimbSettings {
            pool: 1,
            keep: 1,
            max_rounds: None,
            patience: None,
        };
        let hc = HillClimber::new(d.trie(), space("3x3", Letters::all()), settings).unwrap();
        let size: Size = "3x3".parse().unwrap();
        // All letters distinct: 9 * 25 changes + 36 swaps.
        let b = Board::parse(size, "abcdefghi").unwrap();
        assert_eq!(hc.neighbours(&b).len(), 9 * 25 + 36);
        // Equal letters are never swapped.
        let b = Board::parse(size, "aaaaaaaab").unwrap();
        assert_eq!(hc.neighbours(&b).len(), 9 * 25 + 8);
        let sym = Symmetries::new(size);
        assert!(hc.neighbours(&b).iter().all(|n| sym.is_canonical(n)));
    }

    #[test]
    fn zero_pool_is_refused() {
        let d = Dictionary::from_text("t", b"cat\n");
        let settings = HillclimbSettings {
            pool: 0,
            keep: 1,
            max_rounds: None,
            patience: None,
        };
        assert!(matches!(
            HillClimber::new(d.trie(), space("3x3", Letters::all()), settings),
            Err(SearchError::EmptyPool)
        ));
    }

    #[test]
    fn tiny_dictionary_climbs_to_its_word() {
        // With one word the best board spells it; over four letters a pool of 20 finds it.
        let d = Dictionary::from_text("t", b"cat\n");
        let letters = Letters::excluding("bdefghijklmnopqrsuvwxz").unwrap();
        let settings = HillclimbSettings {
            pool: 20,
            keep: 3,
            max_rounds: None,
            patience: None,
        };
        let hc = HillClimber::new(d.trie(), space("2x2", letters), settings).unwrap();
        let mut rounds = 0;
        let out = hc.run(0, &mut |_| rounds += 1);
        assert_eq!(out.best().score, 1);
        assert_eq!(out.rounds, rounds);
        assert_eq!(out.finalists.len(), 3);
    }
}
