//! `rescore` and `merge`: the true score of every candidate, then the proof's results and
//! the check that every canonical class was broken exactly once.

use super::error::PipelineError;
use super::journal::{JournalContents, read_journal};
use super::manifest::RunDir;
use crate::board::{Board, Geometry, Symmetries};
use crate::solve::Solver;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One rescored candidate.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rescored {
    board: String,
    class_id: u64,
    demulti: u32,
    score: u64,
}

/// Reads every shard's journal (unlocked; missing journals read as empty).
fn journals(run: &RunDir) -> Result<Vec<JournalContents>, PipelineError> {
    let m = run.manifest();
    (0..m.shards)
        .map(|k| read_journal(&run.journal_path(k), m.run_id(), m.size()))
        .collect()
}

/// Scores every candidate of the finished classes with the solver and writes
/// `RUN/candidates.csv` (`board,demulti,score,class_id`; boards canonical; sorted by class
/// id, then board). Returns the number of candidates.
pub fn rescore(run: &RunDir) -> Result<usize, PipelineError> {
    let rows = rescored(run, &journals(run)?)?;
    write_candidates(run, &rows)?;
    Ok(rows.len())
}

/// Writes `RUN/candidates.csv` from rescored rows.
fn write_candidates(run: &RunDir, rows: &[Rescored]) -> Result<(), PipelineError> {
    let mut out = csv::Writer::from_writer(Vec::new());
    let path = run.root().join("candidates.csv");
    let csv_err = |e: csv::Error| PipelineError::io(&path, std::io::Error::other(e));
    out.write_record(["board", "demulti", "score", "class_id"])
        .map_err(csv_err)?;
    for r in rows {
        out.write_record([
            r.board.clone(),
            r.demulti.to_string(),
            r.score.to_string(),
            r.class_id.to_string(),
        ])
        .map_err(csv_err)?;
    }
    let bytes = out
        .into_inner()
        .map_err(|e| PipelineError::io(&path, std::io::Error::other(e.to_string())))?;
    crate::format::write_atomic(&path, &bytes).map_err(|e| PipelineError::io(&path, e))
}

fn rescored(run: &RunDir, journals: &[JournalContents]) -> Result<Vec<Rescored>, PipelineError> {
    let m = run.manifest();
    let dict = run.dictionary()?;
    let geometry = Geometry::new(m.size());
    let symmetries = Symmetries::new(m.size());
    let mut items: Vec<(u64, Board, u32)> = Vec::new();
    for j in journals {
        for rec in j.classes.values() {
            items.extend(
                rec.candidates
                    .iter()
                    .map(|c| (rec.class_id, c.board, c.demulti)),
            );
        }
    }
    let mut rows: Vec<Rescored> = items
        .par_iter()
        .map_init(
            || Solver::new(dict.trie(), &geometry, m.scoring()),
            |solver, &(class_id, board, demulti)| Rescored {
                board: symmetries.canonical(&board).to_string(),
                class_id,
                demulti,
                score: solver.score(&board),
            },
        )
        .collect();
    rows.sort_by(|a, b| (a.class_id, &a.board).cmp(&(b.class_id, &b.board)));
    Ok(rows)
}

/// What `merge` found.
#[derive(Clone, Debug)]
pub struct MergeReport {
    /// The summary text (also written to `RUN/summary.txt`).
    pub summary: String,
    /// Whether every canonical class is covered exactly once and finished.
    pub complete: bool,
    /// Number of result boards.
    pub results: usize,
}

/// Rescores the candidates, writes `RUN/results.csv` (`board,score,words,class_id`:
/// canonical boards with Score ≥ S, each once, by score descending then board) and
/// `RUN/summary.txt`, and decides whether the run is a complete proof.
pub fn merge(run: &RunDir) -> Result<MergeReport, PipelineError> {
    let m = run.manifest();
    let journals = journals(run)?;
    // Candidates are scored once, for candidates.csv and the results alike.
    let rows = rescored(run, &journals)?;
    write_candidates(run, &rows)?;

    // Results: each canonical board once (a board can lie in one canonical class only, but
    // be found under different symmetric images within it), with its lowest class id.
    let mut best: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.score >= m.threshold as u64) {
        let e = best.entry(r.board.clone()).or_insert((r.score, r.class_id));
        e.1 = e.1.min(r.class_id);
    }
    let dict = run.dictionary()?;
    let size = m.size();
    let geometry = Geometry::new(size);
    let mut solver = Solver::new(dict.trie(), &geometry, m.scoring());
    let mut results: Vec<(u64, String, usize, u64)> = best
        .into_iter()
        .map(|(board, (score, class_id))| {
            let b = Board::parse(size, &board).expect("canonical boards we printed parse");
            let words = solver.words(&b).len();
            (score, board, words, class_id)
        })
        .collect();
    results.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let path = run.root().join("results.csv");
    let mut out = csv::Writer::from_writer(Vec::new());
    let csv_err = |e: csv::Error| PipelineError::io(&path, std::io::Error::other(e));
    out.write_record(["board", "score", "words", "class_id"])
        .map_err(csv_err)?;
    for (score, board, words, class_id) in &results {
        out.write_record([
            board.clone(),
            score.to_string(),
            words.to_string(),
            class_id.to_string(),
        ])
        .map_err(csv_err)?;
    }
    let bytes = out
        .into_inner()
        .map_err(|e| PipelineError::io(&path, std::io::Error::other(e.to_string())))?;
    crate::format::write_atomic(&path, &bytes).map_err(|e| PipelineError::io(&path, e))?;

    // Coverage: the shards must hold every canonical class exactly once, and every class
    // must be finished in its shard's journal.
    let mut problems = Vec::new();
    let mut covered: Vec<u64> = Vec::new();
    let mut finished = 0usize;
    let mut broken = 0usize;
    let mut candidates = 0usize;
    let mut seconds = 0f64;
    let mut slowest: Vec<(f64, u64, u64)> = Vec::new();
    for k in 0..m.shards {
        let shard = match run.shard(k) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("shard {k} unreadable: {e}"));
                continue;
            }
        };
        let j = &journals[k as usize];
        let done = shard
            .ids
            .iter()
            .filter(|id| j.classes.contains_key(id))
            .count();
        if done < shard.ids.len() {
            problems.push(format!(
                "shard {k} unfinished: {done}/{} classes",
                shard.ids.len()
            ));
        }
        for rec in j.classes.values() {
            finished += 1;
            broken += rec.candidates.is_empty() as usize;
            candidates += rec.candidates.len();
            seconds += rec.seconds;
            slowest.push((rec.seconds, rec.class_id, rec.peak_bytes));
        }
        covered.extend_from_slice(&shard.ids);
    }
    covered.sort_unstable();
    let expected = m.space().canonical_ids();
    if covered != expected {
        let dup = covered.windows(2).filter(|w| w[0] == w[1]).count();
        let missing = expected
            .iter()
            .filter(|id| covered.binary_search(id).is_err())
            .count();
        problems.push(format!(
            "shards cover {} class ids, {dup} twice, {missing} canonical classes missing",
            covered.len()
        ));
    }
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let complete = problems.is_empty();
    let mut s = String::new();
    let _ = write!(s, "{}", m.describe());
    let _ = writeln!(s, "classes finished: {finished} of {}", m.classes);
    let _ = writeln!(s, "classes broken outright: {broken}");
    let _ = writeln!(s, "candidates: {candidates}");
    let _ = writeln!(s, "results (score >= {}): {}", m.threshold, results.len());
    if let Some((score, board, _, _)) = results.first() {
        let _ = writeln!(s, "best: {board} {score}");
    }
    let _ = writeln!(s, "cpu seconds: {seconds:.1}");
    for (secs, id, bytes) in slowest.iter().take(5) {
        let _ = writeln!(
            s,
            "slow class: {id} {secs:.2} s, peak {:.1} MB",
            *bytes as f64 / 1e6
        );
    }
    for p in &problems {
        let _ = writeln!(s, "problem: {p}");
    }
    if complete {
        let _ = writeln!(s, "proof: complete");
    } else {
        let _ = writeln!(s, "proof: incomplete ({} problem(s) above)", problems.len());
    }
    let path = run.root().join("summary.txt");
    crate::format::write_atomic(&path, s.as_bytes()).map_err(|e| PipelineError::io(&path, e))?;
    Ok(MergeReport {
        summary: s,
        complete,
        results: results.len(),
    })
}
