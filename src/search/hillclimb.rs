//! Pool hill climbing (the paper's Listing 1): keep the P best distinct boards among the pool
//! and every board within one edit of it, until the pool converges (a round leaves it
//! unchanged).
//!
//! An *edit* changes one cell to another allowed letter, or swaps the letters of two cells.
//! Neighbours are generated in parallel, reduced to canonical forms, sorted and deduplicated,
//! and the next pool is the first P of the candidates sorted by (score descending, canonical
//! string ascending). Every step is therefore a function of the pool alone, whatever the
//! number of threads.
//!
//! A parent's neighbours come in families that agree with it off a few cells: the changes
//! of one cell, and the swaps of one cell with the later ones. A board still to score is
//! scored with the others of the first family that holds it, in one walk
//! ([`Solver::score_many`]); the first pool is scored one by one, in fixed-size batches.
//! Each parallel task has its own [`Solver`], sharing the climber's tables
//! ([`Solver::fresh`]); scores are exact, so which family scores a board changes nothing.
//!
//! Scores of the previous round's candidates are kept and reused: a board that stays in the
//! pool has the same neighbours as last round, so late rounds score only the neighbours of
//! the few boards that are new to the pool.

use super::{RunOutcome, Scored, SearchError, SearchSpace};
use crate::board::{Board, Geometry, Symmetries};
use crate::dict::Trie;
use crate::rng::Rng;
use crate::solve::{GROUP_MAX, Solver};
use rayon::prelude::*;
use std::time::Instant;

/// Boards scored one by one in one parallel task.
const CHUNK: usize = 2048;

/// Neighbours of one board that agree with it off a few cells, as made and in canonical
/// form: one cell's one-letter changes (all differ from the parent in that cell), or the
/// swaps of one cell with each later cell. [`Solver::score_many`] scores them in one walk,
/// which follows the paths over the cells where they agree once for all.
#[derive(Default)]
struct Family {
    /// The boards as made from the parent.
    raw: Vec<Board>,
    /// `canonical[i]`: the canonical form of `raw[i]`, which has its score.
    canonical: Vec<Board>,
}

/// Boards scored in one parallel task, and where their scores go.
struct Batch {
    /// The boards to score (raw or canonical: a board scores as its canonical form).
    boards: Vec<Board>,
    /// `at[i]`: the index of `boards[i]`'s canonical form in the round's candidates.
    at: Vec<usize>,
    /// The boards are of one [`Family`]: scored in one walk.
    one_walk: bool,
}

/// The largest pool a climb takes: 200 times the paper's 500, whose runs take about a
/// minute on a 4x4 board; a round of this pool holds some 40 million neighbours in memory.
pub const MAX_POOL: usize = 100_000;

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
        if self.pool > MAX_POOL {
            return Err(SearchError::BadSetting(format!(
                "--pool must be at most {MAX_POOL} (a round scores every neighbour of the \
                 pool's boards, about 25 per cell of each)"
            )));
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

/// One hill climber: a solver (the word tree and geometry) and the symmetries of one search
/// space.
pub struct HillClimber<'d> {
    space: SearchSpace,
    /// The solver whose tables every task's solver shares ([`Solver::fresh`]).
    solver: Solver<'d>,
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
            solver: Solver::new(trie, &Geometry::new(space.size), space.scoring),
            symmetries: Symmetries::new(space.size),
            space,
            settings,
        })
    }

    /// The neighbours of `board`, in families: per cell its one-letter changes, then per
    /// cell its swaps with the later cells (of a different letter).
    fn edits(&self, board: &Board) -> Vec<Family> {
        let n = self.space.size.cells();
        let letters = self.space.letters.allowed();
        let mut families = Vec::with_capacity(2 * n);
        let add = |family: &mut Family, b: Board| {
            family.canonical.push(self.symmetries.canonical(&b));
            family.raw.push(b);
        };
        for cell in 0..n {
            let old = board.get(cell);
            let mut changes = Family::default();
            for &l in letters {
                if l != old {
                    let mut b = *board;
                    b.set(cell, l);
                    add(&mut changes, b);
                }
            }
            families.push(changes);
        }
        for i in 0..n {
            let mut swaps = Family::default();
            for j in i + 1..n {
                if board.get(i) != board.get(j) {
                    let mut b = *board;
                    b.swap(i, j);
                    add(&mut swaps, b);
                }
            }
            families.push(swaps);
        }
        families
    }

    /// The canonical forms of every board within one edit of `board`.
    #[cfg(test)]
    pub fn neighbours(&self, board: &Board) -> Vec<Board> {
        self.edits(board)
            .into_iter()
            .flat_map(|f| f.canonical)
            .collect()
    }

    /// Scores `boards` (sorted, distinct), taking the score of every board that `known`
    /// (sorted by board) already holds. Returns all of them in board order, and how many
    /// were scored now.
    ///
    /// A board to score that is in one of the `families` is scored together with the others
    /// of the first family that holds it and need it, in one walk ([`Solver::score_many`]);
    /// the rest one by one. Every score is exact either way, so the result does not depend
    /// on which family scores a board.
    fn score_with(
        &self,
        boards: Vec<Board>,
        known: &[Scored],
        families: &[Family],
    ) -> (Vec<Scored>, usize) {
        // Merge join: both lists are sorted by board, so one pass finds the known scores.
        let mut out = Vec::with_capacity(boards.len());
        let mut pending = Vec::with_capacity(boards.len());
        let mut k = 0;
        for b in boards {
            while k < known.len() && known[k].board < b {
                k += 1;
            }
            let found = k < known.len() && known[k].board == b;
            out.push(if found {
                known[k]
            } else {
                Scored { score: 0, board: b }
            });
            pending.push(!found);
        }
        let fresh = pending.iter().filter(|&&p| p).count();
        // Each board to score goes to the first family that holds it.
        let mut batches: Vec<Batch> = Vec::new();
        for family in families {
            let mut batch = Batch {
                boards: Vec::new(),
                at: Vec::new(),
                one_walk: true,
            };
            for (raw, canonical) in family.raw.iter().zip(&family.canonical) {
                if let Ok(i) = out.binary_search_by(|s| s.board.cmp(canonical))
                    && std::mem::take(&mut pending[i])
                {
                    batch.boards.push(*raw);
                    batch.at.push(i);
                }
            }
            if !batch.at.is_empty() {
                batches.push(batch);
            }
        }
        let singles: Vec<usize> = (0..out.len()).filter(|&i| pending[i]).collect();
        for chunk in singles.chunks(CHUNK) {
            batches.push(Batch {
                boards: chunk.iter().map(|&i| out[i].board).collect(),
                at: chunk.to_vec(),
                one_walk: false,
            });
        }
        let scores: Vec<Vec<u64>> = batches
            .par_iter()
            .map_init(
                || self.solver.fresh(),
                |solver, batch| {
                    let mut scores = vec![0; batch.boards.len()];
                    if batch.one_walk && batch.boards.len() > 1 {
                        // One walk scores at most GROUP_MAX boards.
                        for (boards, out) in batch
                            .boards
                            .chunks(GROUP_MAX)
                            .zip(scores.chunks_mut(GROUP_MAX))
                        {
                            solver.score_many(boards, out);
                        }
                    } else {
                        for (b, out) in batch.boards.iter().zip(&mut scores) {
                            *out = solver.score(b);
                        }
                    }
                    scores
                },
            )
            .collect();
        for (batch, scores) in batches.iter().zip(scores) {
            for (&i, score) in batch.at.iter().zip(scores) {
                out[i].score = score;
            }
        }
        (out, fresh)
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
        let (mut known, _) = self.score_with(initial, &[], &[]);
        let mut pool = self.best_of(&known);
        let mut rounds = 0;
        let mut best = pool[0].score;
        let mut stale = 0;
        // Invariant: `pool` is the best P of `known` in (score, board) order, so each round's
        // pool is at least as good, board for board, as the last; equality means converged.
        loop {
            let families: Vec<Family> = pool
                .par_iter()
                .flat_map_iter(|s| self.edits(&s.board))
                .collect();
            let mut candidates: Vec<Board> = families
                .iter()
                .flat_map(|f| &f.canonical)
                .copied()
                .collect();
            candidates.extend(pool.iter().map(|s| s.board));
            candidates.par_sort_unstable();
            candidates.dedup();
            let count = candidates.len();
            let (next_known, scored) = self.score_with(candidates, &known, &families);
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

    /// Scoring a round's candidates a family at a time (a cell's changes, a cell's swaps: one
    /// walk each) gives every board the score it gets alone, whatever the known scores and
    /// the overlap between parents' neighbourhoods.
    #[test]
    fn grouped_scoring_equals_scoring_each_board() {
        let d = Dictionary::enable2k();
        let settings = HillclimbSettings {
            pool: 4,
            keep: 1,
            max_rounds: None,
            patience: None,
        };
        let hc = HillClimber::new(d.trie(), space("3x4", Letters::all()), settings).unwrap();
        let size: Size = "3x4".parse().unwrap();
        // Two parents one edit apart, so their neighbourhoods overlap.
        let parents = [
            Board::parse(size, "dnisetalsrep").unwrap(),
            Board::parse(size, "dnisetalsret").unwrap(),
        ];
        let families: Vec<Family> = parents.iter().flat_map(|p| hc.edits(p)).collect();
        let mut candidates: Vec<Board> = families
            .iter()
            .flat_map(|f| &f.canonical)
            .copied()
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        // Every third candidate already known, with its true score.
        let mut solver = Solver::new(d.trie(), &Geometry::new(size), Scoring::Standard);
        let known: Vec<Scored> = candidates
            .iter()
            .step_by(3)
            .map(|b| Scored {
                score: solver.score(b),
                board: *b,
            })
            .collect();
        let (grouped, fresh) = hc.score_with(candidates.clone(), &known, &families);
        assert_eq!(fresh, candidates.len() - known.len());
        assert_eq!(grouped.len(), candidates.len());
        for (s, b) in grouped.iter().zip(&candidates) {
            assert_eq!(s.board, *b);
            assert_eq!(s.score, solver.score(b), "{b}");
        }
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
