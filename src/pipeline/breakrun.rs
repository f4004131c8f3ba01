//! `break`: break every class of a shard that its journal does not hold yet, appending one
//! synced record per finished class, so that a killed worker loses at most the classes it
//! was in the middle of (and of a long class, only its unfinished top-split branches).

use super::error::PipelineError;
use super::journal::{ClassRecord, ShardJournal, read_journal, strays_advice};
use super::manifest::RunDir;
use crate::bound::{BreakOutcome, ClassBreaker, TopSplitHooks};
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How to break a shard.
#[derive(Clone, Debug)]
pub struct BreakOptions {
    /// Classes broken at once (rayon threads); 0 = all cores.
    pub threads: usize,
    /// A class running longer than this also records each finished top-split branch.
    pub checkpoint_after: Duration,
    /// Show no progress.
    pub quiet: bool,
    /// Journal every candidate (compressed), not only the results, for audits.
    pub keep_candidates: bool,
    /// How long to wait for another holder of the shard's lock before refusing.
    pub wait_lock: Duration,
}

/// What one `break` of a shard did.
#[derive(Clone, Debug, Default)]
pub struct BreakReport {
    /// Classes of the shard.
    pub classes: usize,
    /// Classes already finished before this run.
    pub already_done: usize,
    /// Classes finished by this run.
    pub broken_now: usize,
    /// Whether a torn last record was dropped.
    pub dropped_torn_record: bool,
}

/// Breaks shard `k` of `run`.
pub fn break_shard(
    run: &RunDir,
    k: u32,
    options: &BreakOptions,
) -> Result<BreakReport, PipelineError> {
    let manifest = run.manifest();
    let shard = run.shard(k)?;
    let dict = run.dictionary()?;
    let size = run.size();
    let path = run.journal_path(k);
    let (journal, contents) =
        match ShardJournal::open_waiting(&path, manifest.run_id(), size, options.wait_lock) {
            // A journal this user may not write (a run read-only, or another user's): a
            // complete shard has nothing to write, and says so; any other still fails.
            Err(PipelineError::Io { err, .. })
                if err.kind() == std::io::ErrorKind::PermissionDenied
                    && read_journal(&path, manifest.run_id(), size).is_ok_and(|read| {
                        read.strays(&shard.ids).next().is_none()
                            && read.finished_of(&shard.ids).count() == shard.ids.len()
                    }) =>
            {
                return Ok(BreakReport {
                    classes: shard.ids.len(),
                    already_done: shard.ids.len(),
                    broken_now: 0,
                    dropped_torn_record: false,
                });
            }
            opened => opened?,
        };
    let strays = contents.strays(&shard.ids).count();
    if strays > 0 {
        return Err(PipelineError::Usage(strays_advice(&path, k, strays)));
    }
    let pending: Vec<u64> = shard
        .ids
        .iter()
        .copied()
        .filter(|id| !contents.classes.contains_key(id))
        .collect();
    let report = BreakReport {
        classes: shard.ids.len(),
        already_done: shard.ids.len() - pending.len(),
        broken_now: pending.len(),
        dropped_torn_record: contents.torn,
    };
    if pending.is_empty() {
        return Ok(report);
    }
    let space = run.space();
    let settings = manifest.settings();
    let breaker = ClassBreaker::new(dict.trie(), size, run.scoring())
        .keep_candidates(options.keep_candidates);
    let keep = options.keep_candidates;
    let journal = Mutex::new(journal);
    // A resumed shard's lines count this run's classes: the label says how many were done.
    let label = match report.already_done {
        0 => format!("shard {k}"),
        done => format!(
            "shard {k} (resumed, {done} of {} done before)",
            report.classes
        ),
    };
    let mut progress = Progress::new(&label, pending.len() as u64, options.quiet);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| PipelineError::Usage(format!("--threads: {e}")))?;
    let append = |rec: &ClassRecord| -> Result<(), PipelineError> {
        journal
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .append(rec)
    };
    pool.install(|| {
        pending
            .par_iter()
            .try_for_each(|&id| -> Result<(), PipelineError> {
                let class = space.class(id).map_err(|e| PipelineError::Corrupt {
                    path: run.shard_path(k),
                    why: format!("class id {id}: {e}"),
                })?;
                let earlier = contents.parts.get(&id).map(Vec::as_slice).unwrap_or(&[]);
                progress.begin(id);
                let start = Instant::now();
                let mut failure = None;
                let skip = |l: u8| earlier.iter().any(|p| p.part == Some(l));
                let mut done = |l: u8, part: &BreakOutcome| {
                    if start.elapsed() >= options.checkpoint_after
                        && failure.is_none()
                        && let Err(e) = append(&record(id, Some(l), part, keep))
                    {
                        failure = Some(e);
                    }
                };
                let hooks = TopSplitHooks {
                    skip: &skip,
                    done: &mut done,
                };
                let mut outcome = breaker.break_class_with(&class, &settings, Some(hooks));
                if let Some(e) = failure {
                    return Err(e);
                }
                // Branches journaled by an earlier run count as if this run broke them; the
                // whole list of candidates is kept only if every branch kept it.
                let mut keep_all = keep;
                for p in earlier {
                    keep_all &= p.candidates.is_some();
                    outcome.absorb(&p.outcome());
                }
                append(&record(id, None, &outcome, keep_all))?;
                progress.end(id, outcome.seconds);
                Ok(())
            })
    })?;
    progress.finish();
    Ok(report)
}

/// The journal record of a class (or of one top-split `part`) broken with outcome `o`, its
/// candidates kept if `keep`.
pub(super) fn record(class_id: u64, part: Option<u8>, o: &BreakOutcome, keep: bool) -> ClassRecord {
    ClassRecord {
        class_id,
        part,
        root_bound: o.root_bound,
        nodes: o.nodes,
        peak_bytes: o.peak_bytes,
        seconds: o.seconds,
        check_seconds: o.check_seconds,
        demulti_count: o.demulti_count,
        max_demulti: o.max_demulti,
        results: o.results.clone(),
        candidates: keep.then(|| o.candidates.clone()),
    }
}
