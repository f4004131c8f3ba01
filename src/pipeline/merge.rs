//! `rescore` and `merge`: the true score of every candidate, then the proof's results and
//! the check that every canonical class was broken exactly once.

use super::error::PipelineError;
use super::journal::{JournalContents, read_journal};
use super::manifest::RunDir;
use super::progress::Progress;
use crate::board::{Board, Geometry, Symmetries};
use crate::solve::Solver;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

/// One rescored candidate.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rescored {
    board: String,
    class_id: u64,
    demulti: u32,
    score: u64,
}

/// `RUN/candidates.csv` being written: rows go to a temporary file beside it, which takes
/// the name only when every shard is written, so a failed or killed pass leaves the old file.
struct CandidatesFile {
    path: PathBuf,
    tmp: PathBuf,
    /// `None` once `finish` has taken it.
    out: Option<csv::Writer<BufWriter<File>>>,
}

impl CandidatesFile {
    fn create(run: &RunDir) -> Result<CandidatesFile, PipelineError> {
        let path = run.root().join("candidates.csv");
        let tmp = run
            .root()
            .join(format!(".candidates.csv.tmp.{}", std::process::id()));
        let file = File::create(&tmp).map_err(|e| PipelineError::io(&tmp, e))?;
        let mut file = CandidatesFile {
            path,
            tmp,
            out: Some(csv::Writer::from_writer(BufWriter::with_capacity(
                1 << 20,
                file,
            ))),
        };
        file.write_row(["board", "demulti", "score", "class_id"])?;
        Ok(file)
    }

    fn write_row<const N: usize>(&mut self, row: [&str; N]) -> Result<(), PipelineError> {
        let out = self.out.as_mut().expect("rows are written before finish");
        out.write_record(row)
            .map_err(|e| PipelineError::io(&self.tmp, std::io::Error::other(e)))
    }

    fn write(&mut self, rows: &[Rescored]) -> Result<(), PipelineError> {
        for r in rows {
            let (demulti, score, class_id) = (
                r.demulti.to_string(),
                r.score.to_string(),
                r.class_id.to_string(),
            );
            self.write_row([&r.board, &demulti, &score, &class_id])?;
        }
        Ok(())
    }

    /// Syncs the rows and gives the file its name.
    fn finish(mut self) -> Result<(), PipelineError> {
        let io = |e: std::io::Error| PipelineError::io(&self.tmp, e);
        let out = self.out.take().expect("finish runs once");
        let file = out
            .into_inner()
            .map_err(|e| io(std::io::Error::other(e.to_string())))?
            .into_inner()
            .map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        crate::failpoint::point("before-rename");
        std::fs::rename(&self.tmp, &self.path).map_err(io)?;
        if let Some(dir) = self.path.parent() {
            // Persists the rename; a failure only weakens durability, not correctness.
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    }
}

impl Drop for CandidatesFile {
    fn drop(&mut self) {
        // Unfinished (an error on the way), the partial file goes; once renamed, the
        // temporary name no longer exists and this does nothing.
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// Rescores the candidates shard by shard: reads one journal, scores its candidates (in
/// parallel), appends them to `RUN/candidates.csv` (`board,demulti,score,class_id`; boards
/// canonical; shard by shard, and in a shard by class id, then board) and hands the journal
/// and its rows to `visit`. Only one shard's candidates are in memory at a time: a 4x4 run
/// has billions. Returns the number of candidates.
fn rescore_shards(
    run: &RunDir,
    quiet: bool,
    mut visit: impl FnMut(u32, &JournalContents, &[Rescored]),
) -> Result<usize, PipelineError> {
    let m = run.manifest();
    let dict = run.dictionary()?;
    let geometry = Geometry::new(m.size());
    let symmetries = Symmetries::new(m.size());
    let mut file = CandidatesFile::create(run)?;
    let progress = Progress::counting("rescore", m.shards as u64, "shards", quiet);
    let mut total = 0;
    for k in 0..m.shards {
        let journal = read_journal(&run.journal_path(k), m.run_id(), m.size())?;
        let items: Vec<(u64, Board, u32)> = journal
            .classes
            .values()
            .flat_map(|rec| {
                rec.candidates
                    .iter()
                    .map(|c| (rec.class_id, c.board, c.demulti))
            })
            .collect();
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
        file.write(&rows)?;
        total += rows.len();
        visit(k, &journal, &rows);
        progress.inc();
    }
    progress.finish();
    file.finish()?;
    Ok(total)
}

/// Scores every candidate of the finished classes with the solver and writes
/// `RUN/candidates.csv`, showing progress by shard unless `quiet`. Returns the number of
/// candidates.
pub fn rescore(run: &RunDir, quiet: bool) -> Result<usize, PipelineError> {
    rescore_shards(run, quiet, |_, _, _| {})
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
/// `RUN/summary.txt`, and decides whether the run is a complete proof. Shows progress by
/// shard unless `quiet`.
pub fn merge(run: &RunDir, quiet: bool) -> Result<MergeReport, PipelineError> {
    let m = run.manifest();
    // One pass over the journals: rescore each shard's candidates, keep the results (few)
    // and each finished class's figures, never all candidates.
    let mut best: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut covered: Vec<u64> = Vec::new();
    let mut finished = 0usize;
    let mut broken = 0usize;
    let mut seconds = 0f64;
    let mut slowest: Vec<(f64, u64, u64)> = Vec::new();
    let candidates = rescore_shards(run, quiet, |k, journal, rows| {
        // Results: each canonical board once (a board can lie in one canonical class only,
        // but be found under different symmetric images within it), with its lowest class id.
        for r in rows.iter().filter(|r| r.score >= m.threshold as u64) {
            let e = best.entry(r.board.clone()).or_insert((r.score, r.class_id));
            e.1 = e.1.min(r.class_id);
        }
        // Coverage: the shards must hold every canonical class exactly once, and every
        // class must be finished in its shard's journal.
        match run.shard(k) {
            Ok(shard) => {
                let done = shard
                    .ids
                    .iter()
                    .filter(|id| journal.classes.contains_key(id))
                    .count();
                if done < shard.ids.len() {
                    problems.push(format!(
                        "shard {k} unfinished: {done}/{} classes",
                        shard.ids.len()
                    ));
                }
                covered.extend_from_slice(&shard.ids);
            }
            Err(e) => problems.push(format!("shard {k} unreadable: {e}")),
        }
        for rec in journal.classes.values() {
            finished += 1;
            broken += rec.candidates.is_empty() as usize;
            seconds += rec.seconds;
            slowest.push((rec.seconds, rec.class_id, rec.peak_bytes));
        }
    })?;

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
