//! Simulated annealing with adaptive perturbations (after Chuong Do's dense-board search):
//! single edits plus "change k letters", "swap k adjacent pairs", "swap k pairs", "rotate a
//! row or column" and "shift the whole board", each kind picked with a weight that follows
//! its recent rate of improving the board.
//!
//! One run is one chain: a random start, `steps` proposals under a geometric cooling schedule
//! from `t_start` to `t_end` (a worse board is accepted with probability `exp(Δ/T)`), then a
//! greedy polish by single edits so the result is a local optimum. A run is sequential and
//! draws only from its own [`Rng::stream`], so runs can go in parallel without changing any
//! result.

use super::{RunOutcome, SearchError, SearchSpace, TopBoards};
use crate::board::{Board, Geometry, Symmetries};
use crate::dict::Trie;
use crate::rng::Rng;
use crate::solve::Solver;
use std::time::Instant;

/// Proposals between two progress reports.
const REPORT_EVERY: u64 = 10_000;
/// Proposals between two halvings of the move statistics (so that weights follow recent
/// success rather than the whole history).
const FORGET_EVERY: u64 = 2_000;
/// No kind's weight falls below this, so every kind keeps being tried.
const MIN_WEIGHT: f64 = 0.02;

/// A kind of perturbation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Change `k` random cells to other letters (`k = 1` is a single edit).
    Change(u8),
    /// Swap `k` random pairs of neighbouring cells.
    SwapAdjacent(u8),
    /// Swap `k` random pairs of cells (`k = 1` is a single edit).
    SwapAny(u8),
    /// Rotate one row or one column cyclically by one place, either way.
    RotateLine,
    /// Shift the whole board cyclically by `k1` columns and `k2` rows (not both 0).
    ShiftBoard,
}

/// Every move kind the annealer picks from.
pub const MOVES: [Move; 9] = [
    Move::Change(1),
    Move::Change(2),
    Move::Change(3),
    Move::SwapAdjacent(1),
    Move::SwapAdjacent(2),
    Move::SwapAny(1),
    Move::SwapAny(2),
    Move::RotateLine,
    Move::ShiftBoard,
];

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Move::Change(k) => write!(f, "change{k}"),
            Move::SwapAdjacent(k) => write!(f, "swap-adjacent{k}"),
            Move::SwapAny(k) => write!(f, "swap{k}"),
            Move::RotateLine => f.write_str("rotate-line"),
            Move::ShiftBoard => f.write_str("shift-board"),
        }
    }
}

/// Settings of an anneal.
#[derive(Clone, Debug)]
pub struct AnnealSettings {
    /// Proposals per run (at least 1).
    pub steps: u64,
    /// Starting temperature (> 0), in points.
    pub t_start: f64,
    /// Final temperature (> 0, at most `t_start`).
    pub t_end: f64,
    /// How many of the best boards visited a run reports (at least 1).
    pub keep: usize,
}

impl AnnealSettings {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), SearchError> {
        let bad = |m: &str| Err(SearchError::BadSetting(m.to_string()));
        if self.steps == 0 {
            return bad("--steps must be at least 1");
        }
        if !(self.t_start > 0.0 && self.t_start.is_finite()) {
            return bad("--t-start must be a positive number");
        }
        if !(self.t_end > 0.0 && self.t_end <= self.t_start) {
            return bad("--t-end must be positive and at most --t-start");
        }
        Ok(())
    }
}

/// What a run reports after every 10,000 proposals and after its last.
#[derive(Clone, Copy, Debug)]
pub struct AnnealReport {
    /// The run.
    pub run: usize,
    /// Proposals made so far.
    pub step: u64,
    /// Proposals made since the run's previous report.
    pub since: u64,
    /// Proposals in all.
    pub steps: u64,
    /// Best score seen so far.
    pub best: u64,
    /// Current temperature.
    pub temperature: f64,
}

/// Success statistics of one move kind, decaying over time.
#[derive(Clone, Copy, Debug, Default)]
struct KindStats {
    tries: f64,
    improved: f64,
}

impl KindStats {
    fn weight(&self) -> f64 {
        ((self.improved + 1.0) / (self.tries + 2.0)).max(MIN_WEIGHT)
    }
}

/// An annealer for one search space.
pub struct Annealer<'d> {
    space: SearchSpace,
    trie: Trie<'d>,
    geometry: Geometry,
    symmetries: Symmetries,
    settings: AnnealSettings,
}

impl<'d> Annealer<'d> {
    /// An annealer for a search space and settings.
    pub fn new(
        trie: Trie<'d>,
        space: SearchSpace,
        settings: AnnealSettings,
    ) -> Result<Annealer<'d>, SearchError> {
        settings.validate()?;
        Ok(Annealer {
            geometry: Geometry::new(space.size),
            symmetries: Symmetries::new(space.size),
            space,
            trie,
            settings,
        })
    }

    /// Two distinct random cells (the same cell twice on a one-cell board).
    fn two_cells(&self, rng: &mut Rng) -> (usize, usize) {
        let n = self.space.size.cells();
        let a = rng.index(n);
        if n < 2 {
            return (a, a);
        }
        let mut b = rng.index(n - 1);
        if b >= a {
            b += 1;
        }
        (a, b)
    }

    /// Applies one perturbation of kind `mv` to `board`.
    pub fn perturb(&self, mv: Move, board: &Board, rng: &mut Rng) -> Board {
        let size = self.space.size;
        let n = size.cells();
        let mut b = *board;
        match mv {
            Move::Change(k) => {
                // k distinct cells (fewer on a board with fewer cells).
                let mut chosen = [usize::MAX; 8];
                let k = (k as usize).min(n).min(chosen.len());
                for i in 0..k {
                    let mut cell = rng.index(n);
                    while chosen[..i].contains(&cell) {
                        cell = rng.index(n);
                    }
                    chosen[i] = cell;
                    let l = self.space.letters.random_other(rng, b.get(cell));
                    b.set(cell, l);
                }
            }
            Move::SwapAdjacent(k) => {
                for _ in 0..k {
                    let cell = rng.index(n);
                    let nb = self.geometry.neighbors(cell);
                    if !nb.is_empty() {
                        b.swap(cell, nb[rng.index(nb.len())] as usize);
                    }
                }
            }
            Move::SwapAny(k) => {
                for _ in 0..k {
                    let (x, y) = self.two_cells(rng);
                    b.swap(x, y);
                }
            }
            Move::RotateLine => {
                let (cols, rows) = (size.cols(), size.rows());
                let line = rng.index(cols + rows);
                let forward = rng.below(2) == 0;
                let cells: Vec<usize> = if line < cols {
                    (0..rows).map(|r| size.cell(line, r)).collect()
                } else {
                    (0..cols).map(|c| size.cell(c, line - cols)).collect()
                };
                let mut letters: Vec<u8> = cells.iter().map(|&c| board.get(c)).collect();
                if forward {
                    letters.rotate_right(1);
                } else {
                    letters.rotate_left(1);
                }
                for (&c, &l) in cells.iter().zip(&letters) {
                    b.set(c, l);
                }
            }
            Move::ShiftBoard => {
                let (cols, rows) = (size.cols(), size.rows());
                if n > 1 {
                    let shift = 1 + rng.index(n - 1);
                    let (dc, dr) = (shift / rows % cols, shift % rows);
                    for cell in 0..n {
                        let (c, r) = size.coords(cell);
                        b.set(size.cell((c + dc) % cols, (r + dr) % rows), board.get(cell));
                    }
                }
            }
        }
        b
    }

    /// Greedy polish: moves to the best single-edit neighbour while that improves.
    /// Returns the local optimum, its score and how many boards were scored.
    fn polish(
        &self,
        solver: &mut Solver<'_>,
        mut board: Board,
        mut score: u64,
    ) -> (Board, u64, u64) {
        let n = self.space.size.cells();
        let mut scored = 0;
        loop {
            let mut best = (score, board);
            let mut consider = |b: Board, solver: &mut Solver<'_>| {
                let s = solver.score(&b);
                scored += 1;
                if s > best.0 || (s == best.0 && s > score && b < best.1) {
                    best = (s, b);
                }
            };
            for cell in 0..n {
                for &l in self.space.letters.allowed() {
                    if l != board.get(cell) {
                        let mut b = board;
                        b.set(cell, l);
                        consider(b, solver);
                    }
                }
            }
            for i in 0..n {
                for j in i + 1..n {
                    if board.get(i) != board.get(j) {
                        let mut b = board;
                        b.swap(i, j);
                        consider(b, solver);
                    }
                }
            }
            if best.0 <= score {
                return (board, score, scored);
            }
            (score, board) = best;
        }
    }

    /// Runs anneal number `run` (generator `Rng::stream(seed, run)`), calling `report` every
    /// 10,000 proposals.
    pub fn run(&self, run: usize, report: &(dyn Fn(&AnnealReport) + Sync)) -> RunOutcome {
        let start = Instant::now();
        let s = &self.settings;
        let mut rng = Rng::stream(self.space.seed, run as u64);
        let mut solver = Solver::new(self.trie, &self.geometry, self.space.scoring);
        let mut top = TopBoards::new(s.keep);
        let mut board = self.space.letters.random_board(self.space.size, &mut rng);
        let mut score = solver.score(&board);
        top.offer(&self.symmetries, &board, score);
        let mut stats = [KindStats::default(); MOVES.len()];
        let ratio = s.t_end / s.t_start;
        for step in 0..s.steps {
            let temperature = s.t_start * ratio.powf(step as f64 / s.steps as f64);
            if step % FORGET_EVERY == 0 {
                for k in &mut stats {
                    k.tries *= 0.5;
                    k.improved *= 0.5;
                }
            }
            let kind = pick_kind(&stats, &mut rng);
            let next = self.perturb(MOVES[kind], &board, &mut rng);
            let next_score = solver.score(&next);
            stats[kind].tries += 1.0;
            if next_score > score {
                stats[kind].improved += 1.0;
            }
            let accept = next_score >= score || {
                let delta = next_score as f64 - score as f64;
                rng.unit() < (delta / temperature).exp()
            };
            if accept {
                board = next;
                score = next_score;
                if top.admits(score) {
                    top.offer(&self.symmetries, &board, score);
                }
            }
            if (step + 1) % REPORT_EVERY == 0 || step + 1 == s.steps {
                report(&AnnealReport {
                    run,
                    step: step + 1,
                    since: (step + 1) - step / REPORT_EVERY * REPORT_EVERY,
                    steps: s.steps,
                    best: top.best_score().unwrap_or(0),
                    temperature,
                });
            }
        }
        // Polish the best board found (not the last one) into a local optimum.
        let best = top.boards()[0];
        let (board, score, polish_steps) = self.polish(&mut solver, best.board, best.score);
        top.offer(&self.symmetries, &board, score);
        RunOutcome {
            run,
            finalists: top.boards().to_vec(),
            rounds: s.steps + polish_steps,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}

/// Picks a move kind with probability proportional to its weight.
fn pick_kind(stats: &[KindStats; MOVES.len()], rng: &mut Rng) -> usize {
    let total: f64 = stats.iter().map(KindStats::weight).sum();
    let mut u = rng.unit() * total;
    for (i, k) in stats.iter().enumerate() {
        u -= k.weight();
        if u < 0.0 {
            return i;
        }
    }
    MOVES.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::dict::Dictionary;
    use crate::search::Letters;
    use crate::solve::Scoring;

    fn annealer<'d>(d: &'d Dictionary, size: &str) -> Annealer<'d> {
        let space = SearchSpace {
            size: size.parse::<Size>().unwrap(),
            scoring: Scoring::Standard,
            letters: Letters::all(),
            seed: 9,
        };
        let settings = AnnealSettings {
            steps: 2000,
            t_start: 5.0,
            t_end: 0.1,
            keep: 2,
        };
        Annealer::new(d.trie(), space, settings).unwrap()
    }

    fn sorted(b: &Board) -> Vec<u8> {
        let mut v = b.letters().to_vec();
        v.sort();
        v
    }

    #[test]
    fn permuting_moves_keep_the_letters() {
        let d = Dictionary::from_text("t", b"cat\n");
        let size: Size = "3x4".parse().unwrap();
        let a = annealer(&d, "3x4");
        let b = Board::parse(size, "abcdefghijkl").unwrap();
        let mut rng = Rng::new(4);
        for mv in MOVES {
            for _ in 0..50 {
                let p = a.perturb(mv, &b, &mut rng);
                match mv {
                    Move::Change(k) => {
                        let diff = (0..12).filter(|&i| p.get(i) != b.get(i)).count();
                        assert_eq!(diff, k as usize, "{mv}: {p}");
                    }
                    _ => {
                        assert_eq!(sorted(&p), sorted(&b), "{mv}");
                        // Two swaps may undo each other; one move never does.
                        if !matches!(mv, Move::SwapAdjacent(2) | Move::SwapAny(2)) {
                            assert_ne!(p, b, "{mv} changed nothing");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn rotate_line_moves_one_line() {
        let d = Dictionary::from_text("t", b"cat\n");
        let size: Size = "3x4".parse().unwrap();
        let a = annealer(&d, "3x4");
        let b = Board::parse(size, "abcdefghijkl").unwrap();
        let mut rng = Rng::new(2);
        for _ in 0..50 {
            let p = a.perturb(Move::RotateLine, &b, &mut rng);
            let changed: Vec<usize> = (0..12).filter(|&i| p.get(i) != b.get(i)).collect();
            let cols: std::collections::HashSet<usize> =
                changed.iter().map(|&c| size.coords(c).0).collect();
            let rows: std::collections::HashSet<usize> =
                changed.iter().map(|&c| size.coords(c).1).collect();
            assert!(cols.len() == 1 || rows.len() == 1, "{p}");
        }
    }

    #[test]
    fn bad_settings_are_refused() {
        let d = Dictionary::from_text("t", b"cat\n");
        let space = annealer(&d, "3x3").space.clone();
        for (steps, t0, t1) in [
            (0, 1.0, 0.5),
            (10, 0.0, 0.0),
            (10, 1.0, 2.0),
            (10, 1.0, -1.0),
        ] {
            let settings = AnnealSettings {
                steps,
                t_start: t0,
                t_end: t1,
                keep: 1,
            };
            assert!(Annealer::new(d.trie(), space.clone(), settings).is_err());
        }
    }

    #[test]
    fn same_run_same_result() {
        let d = Dictionary::from_text("t", b"cat\ntea\neat\nate\nact\n");
        let a = annealer(&d, "3x3");
        let x = a.run(3, &|_| {});
        let y = a.run(3, &|_| {});
        assert_eq!(x.finalists, y.finalists);
        assert!(x.best().score >= 4, "{:?}", x.best());
    }
}
