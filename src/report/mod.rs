//! `report`: one self-contained HTML page that shows a run at a glance (its state, progress,
//! remaining time, costs and best boards), from a read-only snapshot of the run.
//!
//! The page is written with maud (compile-time checked, escaping templates) and draws its
//! charts as inline SVG; it has no script and fetches nothing, so it opens from a file copied
//! off a cluster onto a machine without network. It aggregates (one bar per shard, or a strip
//! when there are many; a histogram of class costs; the slowest classes), so its size does
//! not grow with the number of classes.

mod figures;
mod known;
mod page;

pub use figures::{
    CostHistogram, RATE_PREFERRED_SHARE, Remaining, RemainingSource, count, duration, quantiles,
    remaining, utc,
};
pub use known::{
    Comparison, KnownList, PublishedCount, compare, known_lists, lists_for, published_counts_for,
};

use crate::board::Geometry;
use crate::pipeline::{MergeReport, PipelineError, RunDir, RunSnapshot, SnapshotOptions, verdict};
use crate::solve::{FoundWord, Solver};
use std::path::Path;

/// Boards drawn as grids with their words; the rest of the boards at or above S are listed
/// as text, up to [`BOARDS_LISTED`].
pub const BOARDS_DRAWN: usize = 16;
/// Boards listed on the page in all.
pub const BOARDS_LISTED: usize = 200;

/// Everything the page shows.
pub struct ReportData {
    /// The run as read.
    pub snapshot: RunSnapshot,
    /// What the run's directory is called (for the title).
    pub run_name: String,
    /// For a run whose shards are all complete: `merge`'s verdict, computed without writing.
    pub verdict: Option<MergeReport>,
    /// The known lists of the run's size, word list and scoring.
    pub known: Vec<KnownList>,
    /// Published results of the run's size, word list and scoring known only by count.
    pub published_counts: Vec<PublishedCount>,
    /// The words of the drawn boards, in the order of `snapshot.results`.
    pub words: Vec<Vec<FoundWord>>,
    /// The version of bogglemax writing the page.
    pub tool_version: String,
}

/// What `report` wrote.
pub struct ReportSummary {
    /// Bytes of the page.
    pub bytes: usize,
    /// Whether the run is a complete proof.
    pub complete: bool,
    /// The shards the page shows as unreadable (a damaged shard file or journal): each
    /// shard's index and why.
    pub unreadable: Vec<(u32, String)>,
}

/// Reads `run` (taking no lock, writing nothing in it but `out`) and writes its page to `out`.
pub fn write_report(
    run: &RunDir,
    out: &Path,
    options: SnapshotOptions,
) -> Result<ReportSummary, PipelineError> {
    let data = gather(run, options)?;
    let html = page::render(&data);
    crate::format::write_atomic(out, html.as_bytes()).map_err(|e| PipelineError::io(out, e))?;
    Ok(ReportSummary {
        bytes: html.len(),
        complete: data.verdict.as_ref().is_some_and(|v| v.complete),
        unreadable: (data.snapshot.unreadable())
            .map(|(k, why)| (k, why.to_string()))
            .collect(),
    })
}

/// Reads everything the page shows.
pub fn gather(run: &RunDir, options: SnapshotOptions) -> Result<ReportData, PipelineError> {
    let snapshot = RunSnapshot::read(run, options)?;
    let m = &snapshot.manifest;
    let verdict = if snapshot.all_shards_complete() {
        Some(verdict(run)?)
    } else {
        None
    };
    let known = lists_for(&m.size, &m.wordlist_sha256, &m.scoring);
    let published_counts = published_counts_for(&m.size, &m.wordlist_sha256, &m.scoring);
    let dict = run.dictionary()?;
    let size = run.size();
    let geometry = Geometry::new(size);
    let mut solver = Solver::new(dict.trie(), &geometry, run.scoring());
    let words = snapshot
        .results
        .iter()
        .take(BOARDS_DRAWN)
        .map(|b| solver.words(&b.board))
        .collect();
    let run_name = run
        .root()
        .canonicalize()
        .unwrap_or_else(|_| run.root().to_path_buf())
        .file_name()
        .map_or_else(|| "run".to_string(), |n| n.to_string_lossy().into_owned());
    Ok(ReportData {
        snapshot,
        run_name,
        verdict,
        known,
        published_counts,
        words,
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
    })
}

/// The page of a snapshot, as HTML.
pub fn render(data: &ReportData) -> String {
    page::render(data)
}
