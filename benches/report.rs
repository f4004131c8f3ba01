//! Report benchmark: the time and size of `bogglemax report`'s page for the 4x4 plan (about
//! a million classes in 1,024 shards) with synthetic journals, in progress and complete.
//!
//! `cargo bench --bench report [-- keep=DIR]`
//!
//! The run is planned for real (ENABLE2K, S = 3500, the README's partition); its journals are
//! made up with a fixed seed: class costs drawn from a heavy-tailed (log-normal) distribution,
//! peak memory and candidates growing with the cost, and the 32 published 4x4 boards as
//! results of a few classes. First 70 % of the shards are finished, a few more half done and
//! the rest not started; then every shard is finished. Each page is written three times and
//! the fastest time is printed, with the page's size. Nothing here asserts anything.

use bogglemax::board::{Board, Size};
use bogglemax::bound::Candidate;
use bogglemax::dict::Dictionary;
use bogglemax::pipeline::{
    ClassRecord, PlanSettings, RunDir, SnapshotOptions, plan, write_journal,
};
use bogglemax::report::write_report;
use bogglemax::rng::Rng;
use bogglemax::solve::Scoring;
use std::path::Path;
use std::time::Instant;

const PARTITION: &str = "aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz";
const PUBLISHED: &str = include_str!("../refdata/best-boards-4x4.enable2k.txt");

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let keep = args.iter().find_map(|a| a.strip_prefix("keep="));
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = keep.map_or_else(|| tmp.path().to_path_buf(), |k| Path::new(k).to_path_buf());
    let run_path = root.join("run-4x4");
    let size: Size = "4x4".parse().expect("size");
    let start = Instant::now();
    let dict = Dictionary::enable2k();
    let run = plan(
        &run_path,
        &dict,
        &PlanSettings {
            size,
            partition: PARTITION.to_string(),
            threshold: 3500,
            switchover: None,
            scoring: Scoring::Standard,
            shards: 1024,
            costs: None,
        },
    )
    .expect("plan the 4x4 run");
    println!(
        "planned {} classes in {} shards ({:.1} s)",
        run.manifest().classes,
        run.manifest().shards,
        start.elapsed().as_secs_f64()
    );
    let boards: Vec<(Board, u64)> = PUBLISHED
        .lines()
        .filter_map(|l| {
            let (b, s) = l.split_once(": ")?;
            Some((Board::parse(size, b).ok()?, s.parse().ok()?))
        })
        .collect();

    let shards = run.manifest().shards;
    let finished = shards * 7 / 10;
    let half_done = shards * 3 / 4;
    let start = Instant::now();
    for k in 0..shards {
        let share = if k < finished {
            1.0
        } else if k < half_done {
            0.5
        } else {
            continue;
        };
        write_shard(&run, k, share, &boards);
    }
    println!(
        "wrote synthetic journals: {} of {} shards finished, {} half done ({:.1} s)",
        finished,
        shards,
        half_done - finished,
        start.elapsed().as_secs_f64()
    );
    time_page(&run, &root.join("in-progress.html"), "in progress");
    for k in finished..shards {
        let _ = std::fs::remove_file(run.journal_path(k));
        write_shard(&run, k, 1.0, &boards);
    }
    time_page(&run, &root.join("complete.html"), "complete");
}

/// Writes the journal of shard `k` with its first `share` of classes finished.
fn write_shard(run: &RunDir, k: u32, share: f64, boards: &[(Board, u64)]) {
    let m = run.manifest();
    let shard = run.shard(k).expect("shard");
    let n = (shard.ids.len() as f64 * share) as usize;
    let mut rng = Rng::stream(2026, k as u64);
    let records: Vec<ClassRecord> = shard.ids[..n]
        .iter()
        .map(|&class_id| {
            // Log-normal seconds: median 3 s, a tail past ten minutes.
            let normal = (-2.0 * rng.unit().max(1e-12).ln()).sqrt()
                * (2.0 * std::f64::consts::PI * rng.unit()).cos();
            let seconds = 3.0 * (1.4 * normal).exp();
            let results = if rng.below(20_000) == 0 {
                let (board, score) = boards[rng.index(boards.len())];
                vec![Candidate {
                    board,
                    demulti: score as u32 + 100,
                    score,
                }]
            } else {
                Vec::new()
            };
            ClassRecord {
                class_id,
                part: None,
                root_bound: 20_000,
                nodes: (seconds * 2e6) as u64,
                peak_bytes: (50e6 + seconds * 8e6) as u64,
                seconds,
                check_seconds: seconds * 0.01,
                demulti_count: (seconds * 1000.0) as u64,
                max_demulti: 3600,
                results,
                candidates: None,
            }
        })
        .collect();
    write_journal(&run.journal_path(k), m.run_id(), run.size(), &records).expect("journal");
}

/// Writes the page three times; prints the fastest time and the size.
fn time_page(run: &RunDir, out: &Path, what: &str) {
    let mut best = f64::INFINITY;
    let mut bytes = 0;
    for _ in 0..3 {
        let start = Instant::now();
        let summary = write_report(run, out, SnapshotOptions::default()).expect("report");
        best = best.min(start.elapsed().as_secs_f64());
        bytes = summary.bytes;
    }
    println!(
        "report, 4x4 plan, {what}: {best:.2} s (fastest of 3), {:.0} kB ({})",
        bytes as f64 / 1e3,
        out.display()
    );
}
