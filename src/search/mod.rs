//! Local search for high-scoring boards: the pool hill climber of the paper's Listing 1
//! ([`hillclimb`]), simulated annealing with adaptive perturbations ([`anneal`]) and iterated
//! local search ([`iterated`]).
//!
//! All three are organised as independent *runs*: run `r` draws all its randomness from
//! [`Rng::stream`]`(seed, r)`, and any parallel work inside a run is merged in a fixed order,
//! so results depend only on the seed, never on the number of threads. Boards are reported in
//! canonical form ([`Symmetries::canonical`]), and ties between equal scores are broken by the
//! canonical string, smallest first.

pub mod anneal;
pub mod hillclimb;
pub mod iterated;

use crate::board::{ALPHABET, Board, Size, Symmetries};
use crate::rng::Rng;
use crate::solve::Scoring;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// Why search settings were rejected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchError {
    /// `--runs 0`.
    #[error("--runs must be at least 1")]
    NoRuns,
    /// `--pool 0`.
    #[error("--pool must be at least 1")]
    EmptyPool,
    /// `--exclude-letters` holds something other than a letter.
    #[error("--exclude-letters: '{ch}' is not a letter a-z")]
    BadLetter {
        /// The offending character.
        ch: char,
    },
    /// `--exclude-letters` leaves no letter to place.
    #[error("--exclude-letters '{excluded}' leaves no letter to place on the board")]
    NoLetters {
        /// What the user excluded.
        excluded: String,
    },
    /// A settings value out of its range (named by the message).
    #[error("{0}")]
    BadSetting(String),
}

/// The letters a search may place on cells (all of `a`–`z` minus the excluded ones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Letters {
    allowed: Vec<u8>,
}

impl Letters {
    /// Every letter `a`–`z`.
    pub fn all() -> Letters {
        Letters {
            allowed: (0..ALPHABET as u8).collect(),
        }
    }

    /// All letters but those in `excluded` (case-insensitive; spaces and commas ignored).
    pub fn excluding(excluded: &str) -> Result<Letters, SearchError> {
        let mut keep = [true; ALPHABET];
        for ch in excluded.chars() {
            if ch == ' ' || ch == ',' {
                continue;
            }
            let lower = ch.to_ascii_lowercase();
            if !lower.is_ascii_lowercase() {
                return Err(SearchError::BadLetter { ch });
            }
            keep[(lower as u8 - b'a') as usize] = false;
        }
        let allowed: Vec<u8> = (0..ALPHABET as u8).filter(|&l| keep[l as usize]).collect();
        if allowed.is_empty() {
            return Err(SearchError::NoLetters {
                excluded: excluded.to_string(),
            });
        }
        Ok(Letters { allowed })
    }

    /// The allowed letter indices, ascending.
    pub fn allowed(&self) -> &[u8] {
        &self.allowed
    }

    /// A uniformly random allowed letter.
    pub fn random(&self, rng: &mut Rng) -> u8 {
        self.allowed[rng.index(self.allowed.len())]
    }

    /// A uniformly random allowed letter other than `not` (or `not` itself when it is the
    /// only letter allowed).
    pub fn random_other(&self, rng: &mut Rng, not: u8) -> u8 {
        match self.allowed.iter().position(|&l| l == not) {
            Some(pos) if self.allowed.len() > 1 => {
                let i = rng.index(self.allowed.len() - 1);
                self.allowed[if i >= pos { i + 1 } else { i }]
            }
            Some(_) => not,
            None => self.random(rng),
        }
    }

    /// A board of uniformly random allowed letters.
    pub fn random_board(&self, size: Size, rng: &mut Rng) -> Board {
        let letters: Vec<u8> = (0..size.cells()).map(|_| self.random(rng)).collect();
        Board::from_letters(size, &letters)
    }
}

/// What every search needs: the board size, the scoring, the letters and the seed.
#[derive(Clone, Debug)]
pub struct SearchSpace {
    /// Board size.
    pub size: Size,
    /// Points per word length.
    pub scoring: Scoring,
    /// Letters allowed on cells.
    pub letters: Letters,
    /// The seed every run derives its generator from.
    pub seed: u64,
}

/// A board (canonical) with its score, ordered best first: higher score, then smaller string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scored {
    /// Score(B) under the search's scoring.
    pub score: u64,
    /// The board, in canonical form.
    pub board: Board,
}

impl Ord for Scored {
    fn cmp(&self, other: &Scored) -> Ordering {
        other
            .score
            .cmp(&self.score)
            .then_with(|| self.board.cmp(&other.board))
    }
}

impl PartialOrd for Scored {
    fn partial_cmp(&self, other: &Scored) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// What one run produced.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// Run number, from 0.
    pub run: usize,
    /// The best distinct boards this run ended with (best first, at least one): the final
    /// pool of a hill climb, the best boards an anneal visited, the best local optima of an
    /// iterated search.
    pub finalists: Vec<Scored>,
    /// Rounds of a hill climb, steps of an anneal, kicks of an iterated search.
    pub rounds: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl RunOutcome {
    /// The run's best board.
    pub fn best(&self) -> Scored {
        self.finalists[0]
    }

    /// The line a run prints when it ends: `run R: SCORE BOARD rounds=N seconds=X.X`.
    pub fn line(&self) -> String {
        let best = self.best();
        format!(
            "run {}: {} {} rounds={} seconds={:.1}",
            self.run, best.score, best.board, self.rounds, self.seconds
        )
    }
}

/// One line of the final summary: a board, its score, and in how many runs it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The board and score.
    pub scored: Scored,
    /// Runs whose finalists include this board.
    pub runs_found: usize,
}

/// The `top` best distinct boards over all runs, each with the number of runs whose
/// finalists include it, best first (ties by canonical string).
pub fn summarize(outcomes: &[RunOutcome], top: usize) -> Vec<Found> {
    let mut found: BTreeMap<Scored, usize> = BTreeMap::new();
    for o in outcomes {
        let mut seen: Vec<Scored> = o.finalists.clone();
        seen.sort();
        seen.dedup();
        for s in seen {
            *found.entry(s).or_insert(0) += 1;
        }
    }
    found
        .into_iter()
        .take(top)
        .map(|(scored, runs_found)| Found { scored, runs_found })
        .collect()
}

/// Keeps the `capacity` best distinct boards seen (by canonical form), best first.
#[derive(Clone, Debug)]
pub struct TopBoards {
    capacity: usize,
    best: Vec<Scored>,
}

impl TopBoards {
    /// An empty list holding at most `capacity` (at least 1) boards.
    pub fn new(capacity: usize) -> TopBoards {
        TopBoards {
            capacity: capacity.max(1),
            best: Vec::new(),
        }
    }

    /// Whether a board of this score could enter the list (an equal score to the last may,
    /// if its board string is smaller).
    pub fn admits(&self, score: u64) -> bool {
        self.best.len() < self.capacity || self.best.last().is_some_and(|w| score >= w.score)
    }

    /// Offers a board (canonicalised here); returns whether the list changed.
    pub fn offer(&mut self, symmetries: &Symmetries, board: &Board, score: u64) -> bool {
        if !self.admits(score) {
            return false;
        }
        let s = Scored {
            score,
            board: symmetries.canonical(board),
        };
        match self.best.binary_search(&s) {
            Ok(_) => false,
            Err(pos) if pos < self.capacity => {
                self.best.insert(pos, s);
                self.best.truncate(self.capacity);
                true
            }
            Err(_) => false,
        }
    }

    /// The boards kept, best first.
    pub fn boards(&self) -> &[Scored] {
        &self.best
    }

    /// The best score kept, if any.
    pub fn best_score(&self) -> Option<u64> {
        self.best.first().map(|s| s.score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excluding_letters() {
        let l = Letters::excluding("QxZ").unwrap();
        assert_eq!(l.allowed().len(), 23);
        assert!(!l.allowed().contains(&(b'q' - b'a')));
        assert_eq!(
            Letters::excluding("abcdefghijklmnopqrstuvwxyz"),
            Err(SearchError::NoLetters {
                excluded: "abcdefghijklmnopqrstuvwxyz".into()
            })
        );
        assert_eq!(
            Letters::excluding("a1"),
            Err(SearchError::BadLetter { ch: '1' })
        );
        let one = Letters::excluding("abcdefghijklmnopqrstuvwxy").unwrap();
        let mut rng = Rng::new(1);
        assert_eq!(one.random_other(&mut rng, 25), 25);
    }

    #[test]
    fn random_other_never_repeats() {
        let l = Letters::excluding("xyz").unwrap();
        let mut rng = Rng::new(5);
        for _ in 0..1000 {
            let not = l.random(&mut rng);
            let o = l.random_other(&mut rng, not);
            assert_ne!(o, not);
            assert!(l.allowed().contains(&o));
        }
    }

    #[test]
    fn scored_order_and_summary() {
        let size: Size = "2x2".parse().unwrap();
        let b = |s: &str| Board::parse(size, s).unwrap();
        let x = Scored {
            score: 5,
            board: b("abcd"),
        };
        let y = Scored {
            score: 5,
            board: b("abce"),
        };
        let z = Scored {
            score: 7,
            board: b("zzzz"),
        };
        let mut v = vec![y, x, z];
        v.sort();
        assert_eq!(v, [z, x, y]);
        let runs = [
            RunOutcome {
                run: 0,
                finalists: vec![z, x],
                rounds: 1,
                seconds: 0.0,
            },
            RunOutcome {
                run: 1,
                finalists: vec![z],
                rounds: 1,
                seconds: 0.0,
            },
        ];
        let s = summarize(&runs, 10);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].scored, s[0].runs_found), (z, 2));
        assert_eq!((s[1].scored, s[1].runs_found), (x, 1));
        assert_eq!(summarize(&runs, 1).len(), 1);
    }

    #[test]
    fn top_boards_keeps_distinct_best() {
        let size: Size = "2x2".parse().unwrap();
        let sym = Symmetries::new(size);
        let b = |s: &str| Board::parse(size, s).unwrap();
        let mut t = TopBoards::new(2);
        assert!(t.offer(&sym, &b("dcba"), 3));
        // An image of the same board is the same canonical board.
        assert!(!t.offer(&sym, &b("abcd"), 3));
        assert!(t.offer(&sym, &b("zzzz"), 1));
        assert!(t.offer(&sym, &b("yyyy"), 9));
        assert_eq!(t.boards().len(), 2);
        assert_eq!(t.best_score(), Some(9));
        assert_eq!(t.boards()[1].board.to_string(), "abcd");
    }
}
