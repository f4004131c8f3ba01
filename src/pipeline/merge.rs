//! `merge`: the proof's results from the shard journals and the check that every canonical
//! class was broken exactly once; `rescore`: the audit that re-checks what the journals say.
//!
//! `break` checks every candidate where it finds it and journals only the results (boards with
//! Score ≥ S) and counts, so merging reads a few bytes per class (of a run broken with
//! `--keep-candidates`, each record's compressed candidate list is read and unpacked too).

use super::error::PipelineError;
use super::journal::{ClassRecord, read_journal, strays_advice};
use super::manifest::RunDir;
use crate::board::{Board, Geometry, Size, Symmetries};
use crate::bound::{BoardClass, BreakOutcome, BreakSettings, ClassBreaker, TWO_CELL_PATHS};
use crate::dict::Trie;
use crate::progress::Progress;
use crate::rng::Rng;
use crate::solve::{Scoring, Solver};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What `merge` found.
#[derive(Clone, Debug)]
pub struct MergeReport {
    /// The summary text (also written to `RUN/summary.txt`).
    pub summary: String,
    /// Whether every canonical class is covered exactly once and finished.
    pub complete: bool,
    /// Number of result boards.
    pub results: usize,
    /// Classes finished in the journals.
    pub finished: usize,
}

/// The line of `summary.txt` that counts the finished classes.
const FINISHED_LINE: &str = "classes finished: ";

/// A board with Score ≥ S, in canonical form (of `merge`, or of a snapshot so far).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundBoard {
    /// The canonical board.
    pub board: Board,
    /// Its score.
    pub score: u64,
    /// The lowest class id it was found in.
    pub class_id: u64,
}

/// The boards with Score ≥ S of the finished classes read so far, for `merge` and `report`:
/// each canonical board once (a board lies in one canonical class only, but can be found
/// under several symmetric images within it), with the lowest class id it was found in.
pub(crate) struct BestBoards {
    symmetries: Symmetries,
    threshold: u64,
    /// By the canonical board's text, which orders boards of one score.
    boards: BTreeMap<String, FoundBoard>,
}

impl BestBoards {
    /// None yet, for a run of boards of `size` and S `threshold`.
    pub(crate) fn new(size: Size, threshold: u32) -> BestBoards {
        BestBoards {
            symmetries: Symmetries::new(size),
            threshold: threshold as u64,
            boards: BTreeMap::new(),
        }
    }

    /// Adds the results of a finished class.
    pub(crate) fn add(&mut self, record: &ClassRecord) {
        for r in record.results.iter().filter(|r| r.score >= self.threshold) {
            let board = self.symmetries.canonical(&r.board);
            let found = self.boards.entry(board.to_string()).or_insert(FoundBoard {
                board,
                score: r.score,
                class_id: record.class_id,
            });
            found.class_id = found.class_id.min(record.class_id);
        }
    }

    /// The boards, best first: by score descending, then by the board's text (the map's
    /// order, which the stable sort keeps).
    pub(crate) fn into_sorted(self) -> Vec<FoundBoard> {
        let mut boards: Vec<FoundBoard> = self.boards.into_values().collect();
        boards.sort_by_key(|found| std::cmp::Reverse(found.score));
        boards
    }
}

/// Reads the journals, writes `RUN/results.csv` (`board,score,words,class_id`:
/// canonical boards with Score ≥ S, each once, by score descending then board) and
/// `RUN/summary.txt`, and decides whether the run is a complete proof. Shows progress by
/// shard unless `quiet`.
///
/// Refuses, writing nothing, when the journals hold fewer finished classes of their shards
/// than the last merge's `summary.txt` counted: a journal lost records or was replaced, or a
/// shard file cannot be read, and the results of the last merge must not be overwritten by
/// fewer.
pub fn merge(run: &RunDir, quiet: bool) -> Result<MergeReport, PipelineError> {
    let (report, csv) = merge_contents(run, quiet)?;
    let path = run.root().join("summary.txt");
    let last = match std::fs::read_to_string(&path) {
        Ok(text) => text
            .lines()
            .find_map(|l| l.strip_prefix(FINISHED_LINE))
            .and_then(|rest| rest.split(' ').next()?.parse::<usize>().ok()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(PipelineError::io(&path, e)),
    };
    if let Some(last) = last.filter(|&last| report.finished < last) {
        return Err(PipelineError::Mismatch {
            path,
            why: format!(
                "the last merge counted {last} finished classes and the journals now hold {} of \
                 their shards' classes: a journal lost records or was replaced, or a shard file \
                 cannot be read (see `bogglemax status`); nothing was written (move summary.txt \
                 away to merge what is left)",
                report.finished
            ),
        });
    }
    let path = run.root().join("results.csv");
    crate::format::write_atomic(&path, &csv).map_err(|e| PipelineError::io(&path, e))?;
    let path = run.root().join("summary.txt");
    crate::format::write_atomic(&path, report.summary.as_bytes())
        .map_err(|e| PipelineError::io(&path, e))?;
    Ok(report)
}

/// What `merge` would print and whether the proof is complete, without writing anything
/// (for `report`, which must leave a run as it found it).
pub fn verdict(run: &RunDir) -> Result<MergeReport, PipelineError> {
    merge_contents(run, true).map(|(report, _)| report)
}

/// The summary and the bytes of `results.csv`.
fn merge_contents(run: &RunDir, quiet: bool) -> Result<(MergeReport, Vec<u8>), PipelineError> {
    let m = run.manifest();
    // One pass over the journals: keep the results (few) and each finished class's figures.
    let mut best = BestBoards::new(run.size(), m.threshold);
    let mut problems = Vec::new();
    let mut covered: Vec<u64> = Vec::new();
    let mut finished = 0usize;
    let mut broken = 0usize;
    let mut candidates = 0u64;
    let mut max_demulti = 0u32;
    let mut seconds = 0f64;
    let mut check_seconds = 0f64;
    let mut slowest: Vec<(f64, u64, u64)> = Vec::new();
    let mut progress = Progress::counting("merge", m.shards as u64, "shards", quiet);
    for k in 0..m.shards {
        let journal = read_journal(&run.journal_path(k), m.run_id(), run.size())?;
        // Coverage: the shards must hold every canonical class exactly once, and every
        // class must be finished in its shard's journal.
        let shard = match run.shard(k) {
            Ok(shard) => shard,
            Err(e) => {
                problems.push(format!("shard {k} unreadable: {e}"));
                progress.inc();
                continue;
            }
        };
        let mut done = 0;
        for rec in journal.finished_of(&shard.ids) {
            done += 1;
            best.add(rec);
            broken += (rec.demulti_count == 0) as usize;
            candidates += rec.demulti_count;
            max_demulti = max_demulti.max(rec.max_demulti);
            seconds += rec.seconds;
            check_seconds += rec.check_seconds;
            slowest.push((rec.seconds, rec.class_id, rec.peak_bytes));
        }
        if done < shard.ids.len() {
            problems.push(format!(
                "shard {k} unfinished: {done}/{} classes",
                shard.ids.len()
            ));
        }
        let strays = journal.strays(&shard.ids).count();
        if strays > 0 {
            problems.push(strays_advice(&run.journal_path(k), k, strays));
        }
        finished += done;
        covered.extend_from_slice(&shard.ids);
        progress.inc();
    }
    progress.finish();

    let dict = run.dictionary()?;
    let geometry = Geometry::new(run.size());
    let mut solver = Solver::new(dict.trie(), &geometry, run.scoring());
    let results: Vec<(FoundBoard, usize)> = best
        .into_sorted()
        .into_iter()
        .map(|found| {
            let words = solver.words(&found.board).len();
            (found, words)
        })
        .collect();
    let path = run.root().join("results.csv");
    let mut out = csv::Writer::from_writer(Vec::new());
    let csv_err = |e: csv::Error| PipelineError::io(&path, std::io::Error::other(e));
    out.write_record(["board", "score", "words", "class_id"])
        .map_err(csv_err)?;
    for (found, words) in &results {
        out.write_record([
            found.board.to_string(),
            found.score.to_string(),
            words.to_string(),
            found.class_id.to_string(),
        ])
        .map_err(csv_err)?;
    }
    let csv = out
        .into_inner()
        .map_err(|e| PipelineError::io(&path, std::io::Error::other(e.to_string())))?;

    covered.sort_unstable();
    let expected = run.space().canonical_ids();
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
    let _ = writeln!(s, "{FINISHED_LINE}{finished} of {}", m.classes);
    let _ = writeln!(s, "classes broken outright: {broken}");
    let _ = writeln!(s, "candidates: {candidates}");
    let _ = writeln!(s, "largest demulti: {max_demulti}");
    let _ = writeln!(s, "results (score >= {}): {}", m.threshold, results.len());
    if let Some((best, _)) = results.first() {
        let _ = writeln!(s, "best: {} {}", best.board, best.score);
    }
    let _ = writeln!(s, "cpu seconds: {seconds:.1}");
    let _ = writeln!(s, "checking seconds: {check_seconds:.1} (wall)");
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
    if let Some((best, _)) = results.first() {
        let _ = writeln!(s, "\nbest board, {} points:", best.score);
        for row in best.board.grid().lines() {
            let _ = writeln!(s, "  {row}");
        }
    }
    let report = MergeReport {
        summary: s,
        complete,
        results: results.len(),
        finished,
    };
    Ok((report, csv))
}

/// What `rescore` found.
#[derive(Clone, Debug, Default)]
pub struct AuditReport {
    /// Finished classes read.
    pub classes: usize,
    /// Journaled results scored again with the solver: every board a class record holds,
    /// so a board and its symmetry images, which a class that is its own image can hold
    /// together, count once each.
    pub results: usize,
    /// The distinct boards among them up to symmetry: what `merge` lists.
    pub distinct_results: usize,
    /// Classes whose whole candidate list was kept, and their candidates scored again.
    pub kept_classes: usize,
    /// Candidates of those classes.
    pub kept_candidates: u64,
    /// Classes broken again from scratch and compared with their records.
    pub rebroken: Vec<u64>,
    /// Every disagreement found, one line each.
    pub problems: Vec<String>,
}

/// Audits a run: scores every journaled result again with the solver (and, for classes whose
/// candidates were kept, every candidate, checking the counts and results against them), then
/// breaks `sample` finished classes again from scratch, drawn with `seed`, and checks that
/// their records say the same (results, number and largest DeMulti of the candidates).
pub fn rescore(
    run: &RunDir,
    sample: usize,
    seed: u64,
    quiet: bool,
) -> Result<AuditReport, PipelineError> {
    let m = run.manifest();
    let dict = run.dictionary()?;
    let size = run.size();
    let geometry = Geometry::new(size);
    let threshold = m.threshold as u64;
    let mut report = AuditReport::default();
    let mut finished: Vec<(u32, u64)> = Vec::new();
    let first = Solver::new(dict.trie(), &geometry, run.scoring());
    let mut distinct = BestBoards::new(size, m.threshold);
    let mut progress = Progress::counting("rescore", m.shards as u64, "shards", quiet);
    for k in 0..m.shards {
        // The shard file too: a run that lost its shards has nothing to audit against.
        let shard = run.shard(k)?;
        let path = run.journal_path(k);
        let journal = read_journal(&path, m.run_id(), size)?;
        let recs: Vec<&ClassRecord> = journal.classes.values().collect();
        report.problems.extend(
            recs.iter()
                .filter(|rec| shard.ids.binary_search(&rec.class_id).is_err())
                .map(|rec| {
                    format!(
                        "{}: class {} is not one of its shard's",
                        path.display(),
                        rec.class_id
                    )
                }),
        );
        let problems: Vec<String> = recs
            .par_iter()
            .map_init(
                || first.fresh(),
                |solver, rec| audit_record(solver, rec, threshold),
            )
            .flatten()
            .map(|p| format!("{}: {p}", path.display()))
            .collect();
        report.problems.extend(problems);
        for rec in &recs {
            report.classes += 1;
            report.results += rec.results.len();
            distinct.add(rec);
            if let Some(kept) = &rec.candidates {
                report.kept_classes += 1;
                report.kept_candidates += kept.len() as u64;
            }
            finished.push((k, rec.class_id));
        }
        progress.inc();
    }
    progress.finish();
    report.distinct_results = distinct.into_sorted().len();
    if sample == 0 || finished.is_empty() {
        return Ok(report);
    }
    let mut rng = Rng::new(seed);
    rng.shuffle(&mut finished);
    finished.truncate(sample);
    finished.sort_unstable();
    let space = run.space();
    let settings = m.settings();
    let breakers = Rebreakers::new(dict.trie(), size, run.scoring());
    let mut progress = Progress::new("re-break", finished.len() as u64, quiet);
    let mut by_shard: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    for &(k, id) in &finished {
        by_shard.entry(k).or_default().push(id);
    }
    for (k, ids) in by_shard {
        let path = run.journal_path(k);
        let journal = read_journal(&path, m.run_id(), size)?;
        let problems: Vec<String> = ids
            .par_iter()
            .map(|&id| {
                let rec = &journal.classes[&id];
                let class = space.class(id).map_err(|e| PipelineError::Corrupt {
                    path: run.shard_path(k),
                    why: format!("class id {id}: {e}"),
                })?;
                let problems = breakers.audit(id, &class, &settings, rec);
                progress.inc();
                Ok(problems)
            })
            .collect::<Result<Vec<_>, PipelineError>>()?
            .into_iter()
            .flatten()
            .map(|p| format!("{}: {p}", path.display()))
            .collect();
        report.problems.extend(problems);
    }
    progress.finish();
    report.rebroken = finished.into_iter().map(|(_, id)| id).collect();
    Ok(report)
}

/// The breakers that the re-break audit compares a record with.
struct Rebreakers<'d> {
    /// The breaker as `break` runs it now.
    breaker: ClassBreaker<'d>,
    /// One whose walks prune by their bound alone, which counts every board whose bound
    /// reaches S: as records of every candidate do (`break --keep-candidates`), and records
    /// journaled before the walks pruned by Score.
    unpruned: ClassBreaker<'d>,
    /// `one_cell`'s unpruned breaker, finding both boards of each mirror pair, as older runs
    /// did.
    every_image: ClassBreaker<'d>,
    /// `breaker` and `unpruned` as runs broke the heaviest classes before their units forced
    /// the top two cells ([`TWO_CELL_PATHS`]), and classes
    /// under that limit before those of few pairs of top letters took two cells too
    /// ([`TWO_CELL_FEW_PAIRS`](crate::bound::TWO_CELL_FEW_PAIRS)), and classes of more
    /// pairs before the largest of them took two cells too
    /// ([`TWO_CELL_MANY_PAIRS`](crate::bound::TWO_CELL_MANY_PAIRS)): a tree per letter of
    /// the top cell only.
    one_cell: [ClassBreaker<'d>; 2],
    /// `breaker` as runs broke the heaviest classes before the two-cell units were limited
    /// to top cells of few letters ([`TWO_CELL_PAIRS`](crate::bound::TWO_CELL_PAIRS)): two
    /// cells at a time whatever their letters, from [`TWO_CELL_PATHS`] word paths, and one
    /// tree for a class of up to [`WHOLE_TREE_PATHS_BEFORE`].
    any_pairs: ClassBreaker<'d>,
    /// `breaker` and `unpruned` as runs broke classes of 16.8 to 21.0 million word paths
    /// before those were built a top letter at a time
    /// ([`WHOLE_TREE_PATHS`](crate::bound::WHOLE_TREE_PATHS)): one tree for the class.
    whole_as_before: [ClassBreaker<'d>; 2],
}

/// The most word paths of a class built as one tree until 2026-11-30.
const WHOLE_TREE_PATHS_BEFORE: usize = 5 << 22;

impl<'d> Rebreakers<'d> {
    /// The breakers for boards of `size` scored by `scoring`.
    fn new(trie: Trie<'d>, size: Size, scoring: Scoring) -> Rebreakers<'d> {
        Rebreakers {
            breaker: ClassBreaker::new(trie, size, scoring),
            unpruned: ClassBreaker::new(trie, size, scoring).prune_by_score(false),
            every_image: ClassBreaker::new(trie, size, scoring)
                .prune_by_score(false)
                .every_mirror_image(true)
                .two_cell_paths(usize::MAX),
            one_cell: [true, false].map(|prune| {
                ClassBreaker::new(trie, size, scoring)
                    .prune_by_score(prune)
                    .two_cell_paths(usize::MAX)
            }),
            any_pairs: ClassBreaker::new(trie, size, scoring)
                .max_two_cell_pairs(u32::MAX)
                .two_cell_paths(TWO_CELL_PATHS)
                .whole_tree_paths(WHOLE_TREE_PATHS_BEFORE),
            whole_as_before: [true, false].map(|prune| {
                ClassBreaker::new(trie, size, scoring)
                    .prune_by_score(prune)
                    .whole_tree_paths(WHOLE_TREE_PATHS_BEFORE)
            }),
        }
    }

    /// What is wrong with `rec`, the record of class `id`, broken again: nothing if one of
    /// the breakers gives what it says.
    fn audit(
        &self,
        id: u64,
        class: &BoardClass,
        settings: &BreakSettings,
        rec: &ClassRecord,
    ) -> Vec<String> {
        let fresh = self.breaker.break_class(class, settings);
        if agrees(&fresh, rec)
            || agrees(&self.unpruned.break_class(class, settings), rec)
            || (self.one_cell.iter()).any(|b| agrees(&b.break_class(class, settings), rec))
            || agrees(&self.any_pairs.break_class(class, settings), rec)
            || (self.whole_as_before.iter()).any(|b| agrees(&b.break_class(class, settings), rec))
        {
            return Vec::new();
        }
        if self.breaker.mirror_pair(class).is_none() {
            return rebreak_problems(id, &fresh, rec);
        }
        // A class that is its own image, journaled (wholly, or in part for a class resumed
        // across versions) by a breaker that found both boards of each mirror pair.
        let every = self.every_image.break_class(class, settings);
        mirror_problems(id, &fresh, &every, rec)
    }
}

/// Whether a class broken again says what its record says: the same results, the same number
/// and largest DeMulti of candidates.
fn agrees(fresh: &BreakOutcome, rec: &ClassRecord) -> bool {
    fresh.results == rec.results
        && (fresh.demulti_count, fresh.max_demulti) == (rec.demulti_count, rec.max_demulti)
}

/// How a class broken again disagrees with its record.
fn rebreak_problems(id: u64, fresh: &BreakOutcome, rec: &ClassRecord) -> Vec<String> {
    let mut problems = Vec::new();
    if fresh.results != rec.results {
        problems.push(format!(
            "class {id}: broken again, {} results; the journal has {}",
            fresh.results.len(),
            rec.results.len()
        ));
    }
    if (fresh.demulti_count, fresh.max_demulti) != (rec.demulti_count, rec.max_demulti) {
        problems.push(format!(
            "class {id}: broken again, {} candidates (largest DeMulti {}); the journal has {} \
             ({})",
            fresh.demulti_count, fresh.max_demulti, rec.demulti_count, rec.max_demulti
        ));
    }
    problems
}

/// How a class that is its own mirror image, broken again for one board of each pair
/// (`fresh`) and for every board (`every`), disagrees with its record: none if the record is
/// either break's (an older breaker journaled every board). A record between the two (its
/// results all of `fresh`'s and only boards of `every`'s, its counts between theirs) is what
/// a class resumed across that change journals, unit by unit, but the audit cannot tell it
/// from a lost record: one line says so.
fn mirror_problems(
    id: u64,
    fresh: &BreakOutcome,
    every: &BreakOutcome,
    rec: &ClassRecord,
) -> Vec<String> {
    if agrees(fresh, rec) || agrees(every, rec) {
        return Vec::new();
    }
    let between = fresh.results.iter().all(|c| rec.results.contains(c))
        && rec.results.iter().all(|c| every.results.contains(c))
        && (fresh.demulti_count..=every.demulti_count).contains(&rec.demulti_count)
        && (fresh.max_demulti..=every.max_demulti).contains(&rec.max_demulti);
    if !between {
        return rebreak_problems(id, fresh, rec);
    }
    vec![format!(
        "class {id}: a mirror class whose results and candidates ({} results, {} candidates) \
         lie between those of one board of each pair ({}, {}) and of every board ({}, {}), as \
         for a class resumed across versions; break it again to be sure",
        rec.results.len(),
        rec.demulti_count,
        fresh.results.len(),
        fresh.demulti_count,
        every.results.len(),
        every.demulti_count
    )]
}

/// What is wrong with one record's results (and kept candidates), scored again.
fn audit_record(solver: &mut Solver<'_>, rec: &ClassRecord, threshold: u64) -> Vec<String> {
    let id = rec.class_id;
    let mut problems = Vec::new();
    for r in &rec.results {
        let score = solver.score(&r.board);
        if score != r.score || score < threshold || score > r.demulti as u64 {
            problems.push(format!(
                "class {id}: result {} journaled with score {} (DeMulti {}), the solver \
                 scores {score}",
                r.board, r.score, r.demulti
            ));
        }
    }
    if let Some(kept) = &rec.candidates {
        let mut results = Vec::new();
        for c in kept {
            let score = solver.score(&c.board);
            if score != c.score {
                problems.push(format!(
                    "class {id}: candidate {} journaled with score {}, the solver scores {score}",
                    c.board, c.score
                ));
            }
            if score >= threshold {
                results.push(*c);
            }
        }
        let max = kept.iter().map(|c| c.demulti).max().unwrap_or(0);
        if kept.len() as u64 != rec.demulti_count || max != rec.max_demulti {
            problems.push(format!(
                "class {id}: {} kept candidates (largest DeMulti {max}), the record counts {} ({})",
                kept.len(),
                rec.demulti_count,
                rec.max_demulti
            ));
        }
        if results != rec.results {
            problems.push(format!(
                "class {id}: the kept candidates hold {} results, the record {}",
                results.len(),
                rec.results.len()
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dict::Dictionary;

    fn record(outcome: &BreakOutcome) -> ClassRecord {
        crate::pipeline::breakrun::record(7, None, outcome, false)
    }

    /// Asserts that the audit of `class` accepts a record of each of `outcomes`, and refuses
    /// a record of the first with one candidate more than it counted.
    fn assert_audit_accepts(
        breakers: &Rebreakers,
        class: &BoardClass,
        settings: &BreakSettings,
        outcomes: [&BreakOutcome; 2],
    ) {
        let audit = |rec: &ClassRecord| breakers.audit(7, class, settings, rec);
        for outcome in outcomes {
            assert!(audit(&record(outcome)).is_empty());
        }
        let mut forged = record(outcomes[0]);
        forged.demulti_count += 1;
        assert!(audit(&forged).iter().any(|p| p.contains("candidates")));
    }

    /// The re-break audit accepts a record whose walks pruned by Score and one that counts
    /// every board whose bound reaches S (kept candidates, or a run made before the walks
    /// pruned), and refuses a count that neither gives.
    #[test]
    fn audits_accept_records_with_and_without_pruning_by_score() {
        let dict = Dictionary::enable2k();
        let size = "3x4".parse().unwrap();
        let class = BoardClass::parse(size, "st e rs e at e st e rs e at s").unwrap();
        let settings = BreakSettings::with_default_switchover(600);
        let breakers = Rebreakers::new(dict.trie(), size, Scoring::Standard);
        let pruned = breakers.breaker.break_class(&class, &settings);
        let every = breakers.unpruned.break_class(&class, &settings);
        assert!(
            pruned.demulti_count < every.demulti_count,
            "the test must bite: {} and {} candidates",
            pruned.demulti_count,
            every.demulti_count
        );
        assert_eq!(pruned.results, every.results);
        assert_audit_accepts(&breakers, &class, &settings, [&pruned, &every]);
    }

    /// The audit accepts a record of a class broken a top letter at a time, one tree per
    /// letter, as runs made before the heaviest classes' units forced the top two cells
    /// journaled it; a record of one broken two cells at a time where the breaker now takes
    /// one (its top cells have too many pairs of letters), as runs made before that limit
    /// journaled it; and still refuses a count that no way gives. (Classes that small are
    /// broken so only with the limits lowered, as here.)
    #[test]
    fn audits_accept_records_of_one_cell_units() {
        let dict = Dictionary::enable2k();
        let size = "3x4".parse().unwrap();
        let class = BoardClass::parse(size, "st e rs e at e st e rs e at s").unwrap();
        let settings = BreakSettings::with_default_switchover(600);
        let units = |two: usize, pairs: u32| {
            ClassBreaker::new(dict.trie(), size, Scoring::Standard)
                .whole_tree_paths(0)
                .two_cell_paths(two)
                .max_two_cell_pairs(pairs)
        };
        // `pairs`: the limit on the pairs of letters the breaker builds two cells at a time.
        let rebreakers = |pairs: u32| Rebreakers {
            breaker: units(0, pairs),
            unpruned: units(0, pairs).prune_by_score(false),
            every_image: units(usize::MAX, pairs)
                .prune_by_score(false)
                .every_mirror_image(true),
            one_cell: [true, false].map(|prune| units(usize::MAX, pairs).prune_by_score(prune)),
            any_pairs: units(0, u32::MAX),
            // Stand-ins: whole trees are another test's subject.
            whole_as_before: [true, false].map(|prune| units(0, pairs).prune_by_score(prune)),
        };
        let breakers = rebreakers(u32::MAX);
        let two = breakers.breaker.break_class(&class, &settings);
        let one = breakers.one_cell[0].break_class(&class, &settings);
        assert_ne!(
            (two.demulti_count, two.max_demulti),
            (one.demulti_count, one.max_demulti),
            "the test must bite"
        );
        assert_eq!(two.results, one.results);
        // A breaker that takes two cells only for fewer pairs of letters takes one here.
        let few_pairs = units(0, 0).break_class(&class, &settings);
        assert_eq!(few_pairs.demulti_count, one.demulti_count);
        for breakers in [breakers, rebreakers(0)] {
            assert_audit_accepts(&breakers, &class, &settings, [&one, &two]);
        }
    }

    /// The audit accepts a record of a class broken as one tree where the breaker now takes a
    /// top letter at a time, as runs made before the whole-tree limit came down journaled
    /// it, and still refuses a count that neither gives. (A class that small is broken a
    /// letter at a time only with the limit lowered, as here.)
    #[test]
    fn audits_accept_records_of_whole_trees_now_built_by_letter() {
        let dict = Dictionary::enable2k();
        let size = "3x4".parse().unwrap();
        let class = BoardClass::parse(size, "st e rs e at e st e rs e at s").unwrap();
        let settings = BreakSettings::with_default_switchover(600);
        let whole = || ClassBreaker::new(dict.trie(), size, Scoring::Standard);
        let by_letter = || whole().whole_tree_paths(0);
        let breakers = Rebreakers {
            breaker: by_letter(),
            unpruned: by_letter().prune_by_score(false),
            every_image: by_letter().prune_by_score(false).every_mirror_image(true),
            one_cell: [true, false].map(|prune| by_letter().prune_by_score(prune)),
            any_pairs: by_letter(),
            whole_as_before: [true, false].map(|prune| whole().prune_by_score(prune)),
        };
        let units = breakers.breaker.break_class(&class, &settings);
        let one_tree = whole().break_class(&class, &settings);
        assert_ne!(
            (units.demulti_count, units.max_demulti),
            (one_tree.demulti_count, one_tree.max_demulti),
            "the test must bite"
        );
        assert_eq!(units.results, one_tree.results);
        assert_audit_accepts(&breakers, &class, &settings, [&one_tree, &units]);
    }

    /// An audit of a mirror class accepts a record of either breaker (one board of each
    /// pair, or every board, as older runs journaled); one between them (a class resumed
    /// across versions) is one line; anything else is the usual disagreement.
    #[test]
    fn mirror_audits_accept_either_breaker_and_nothing_else() {
        let dict = Dictionary::enable2k();
        let size = "3x3".parse().unwrap();
        let class = BoardClass::parse(size, "dp e rs l a t dp e rs").unwrap();
        let settings = BreakSettings::with_default_switchover(400);
        let breaker = ClassBreaker::new(dict.trie(), size, Scoring::Standard);
        assert!(breaker.mirror_pair(&class).is_some());
        let fresh = breaker.break_class(&class, &settings);
        let every = ClassBreaker::new(dict.trie(), size, Scoring::Standard)
            .every_mirror_image(true)
            .break_class(&class, &settings);
        assert!(fresh.results.len() < every.results.len());
        let check = |rec: &ClassRecord| mirror_problems(7, &fresh, &every, rec);
        assert!(check(&record(&every)).is_empty());
        assert!(check(&record(&fresh)).is_empty());
        // Some pairs with both boards, some with one; or a count forged within the range.
        let mut mixed = record(&fresh);
        let extra = every
            .results
            .iter()
            .find(|c| !fresh.results.contains(c))
            .unwrap();
        mixed.results.push(*extra);
        mixed.results.sort();
        mixed.demulti_count += 1;
        let between = check(&mixed);
        assert!(
            between.len() == 1 && between[0].contains("between"),
            "{between:?}"
        );
        let mut counted = record(&fresh);
        counted.demulti_count += 1;
        assert_eq!(check(&counted).len(), 1);
        // A result of the breaker's lost, a board it does not find, candidates out of range.
        let mut lost = record(&every);
        lost.results.retain(|c| c != &fresh.results[0]);
        assert!(check(&lost).iter().any(|p| p.contains("results")));
        let mut foreign = record(&fresh);
        foreign.results[0].score += 1;
        assert!(check(&foreign).iter().any(|p| p.contains("results")));
        let mut over = record(&every);
        over.demulti_count += 1;
        assert!(check(&over).iter().any(|p| p.contains("candidates")));
    }
}
