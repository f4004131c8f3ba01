//! `bogglemax plan`, `break`, `rescore`, `merge`, `status` and `report`: the proof pipeline's
//! stages.

use super::common::{DictArgs, Output, counted, parse_size};
use anyhow::{Context, bail};
use bogglemax::board::Size;
use bogglemax::pipeline::{self, BreakOptions, PipelineError, PlanSettings, RunDir};
use clap::Args;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::Duration;

/// A command finished its work but must exit with this status (e.g. `merge` of an
/// incomplete run exits 1); everything worth saying has been printed.
#[derive(Debug, thiserror::Error)]
#[error("exit status {0}")]
pub struct ExitStatus(pub u8);

/// Flags of `bogglemax plan`.
#[derive(Args, Debug)]
#[command(
    after_help = "Writes RUN/manifest.bmx (the settings), RUN/dict.bmx (the compiled \
word list) and RUN/shards/NNNNN.shard (the canonical class ids of each shard, dealt so that \
shards take similar time). Then break every shard (`bogglemax break RUN --shard K`, in any \
order, on any machines that share RUN), and `bogglemax merge RUN`."
)]
pub struct PlanArgs {
    /// Board size, CxR (at most 25 cells).
    #[arg(long, default_value = "4x4", value_parser = parse_size, value_name = "CxR")]
    pub size: Size,
    #[command(flatten)]
    pub dict: DictArgs,
    /// The bucket partition, e.g. 'aeijou bcdfgmpqvwxz hklnrsty, corner:abcdefghijklmnopqrstuvwxyz' (see `bogglemax class --help`).
    #[arg(long, value_name = "P")]
    pub partition: String,
    /// The score S: the proof finds every board scoring S or more.
    #[arg(long, value_name = "S")]
    pub score: u32,
    /// Number of shard files (the unit of work of one process), 1 to 100000.
    #[arg(long, value_name = "N")]
    pub shards: u32,
    /// Branch while the bound is above B, then OrderlyBound. Default: 9/4 × S.
    #[arg(long, value_name = "B")]
    pub switchover: Option<u32>,
    /// The run directory to create (refused if it exists).
    #[arg(long, value_name = "RUN")]
    pub out: PathBuf,
    /// If RUN exists and was planned with exactly these settings, keep it (to resume);
    /// if its settings differ, refuse. The word list is compared by the SHA-256 of its
    /// file's bytes, not its file name (a copy with other line endings is another list).
    #[arg(long)]
    pub reuse: bool,
    /// Deal classes to shards by these per-class costs (a file from `estimate --costs-out`
    /// or `status --costs`, or a run directory: its finished classes), costliest first onto
    /// the least loaded shard, so that every shard takes about the same time; classes
    /// without a cost count at the mean of the others (said on standard error). Costs of
    /// another class space are refused; costs measured in another proof of the same classes
    /// (another S, switchover, scoring or word list) deal them all the same, with a note
    /// naming what differs. Default: by the number of boards in each class, in a snake order.
    #[arg(long, value_name = "FILE|RUN")]
    pub costs: Option<PathBuf>,
}

/// Runs `bogglemax plan`.
pub fn run_plan(args: &PlanArgs, out: &mut Output) -> anyhow::Result<()> {
    let dict = args.dict.load(args.size)?;
    let settings = PlanSettings {
        size: args.size,
        partition: args.partition.clone(),
        threshold: args.score,
        switchover: args.switchover,
        scoring: args.dict.scoring(),
        shards: args.shards,
        costs: None,
    };
    if args.reuse && RunDir::manifest_path(&args.out).exists() {
        return reuse_run(&args.out, &dict, &settings, out);
    }
    let settings = PlanSettings {
        costs: match &args.costs {
            Some(path) => Some(
                pipeline::ClassCosts::load(path)
                    .with_context(|| format!("--costs {}", path.display()))?,
            ),
            None => None,
        },
        ..settings
    };
    let run = match pipeline::plan(&args.out, &dict, &settings) {
        // Another `plan --reuse` of the same run (a second machine) made it meanwhile.
        Err(PipelineError::Exists(_))
            if args.reuse && RunDir::manifest_path(&args.out).exists() =>
        {
            return reuse_run(&args.out, &dict, &settings, out);
        }
        planned => planned?,
    };
    let m = run.manifest();
    if let (Some(costs), Some(path)) = (&settings.costs, &args.costs) {
        // The costs are of this run's classes (plan checked their space).
        let listed = (costs.len() as u64).min(m.classes);
        if listed < m.classes {
            eprintln!(
                "bogglemax: note: --costs {} gives the cost of {listed} of the {} classes; the \
                 others were dealt at the mean cost of those",
                path.display(),
                m.classes
            );
        }
        // Costs of another proof over the same classes deal the shards all the same (they
        // decide only which shard a class goes to), but less evenly: say where they differ.
        // A switchover that is each S's default follows from the S: not said again.
        let here = pipeline::CostSettings::of_manifest(m);
        let default = |s: u32| bogglemax::bound::BreakSettings::with_default_switchover(s);
        let differs: Vec<String> = costs
            .settings()
            .map(|theirs| {
                let both_default = theirs.switchover == default(theirs.threshold).switchover
                    && here.switchover == default(here.threshold).switchover;
                theirs
                    .differences(&here)
                    .into_iter()
                    .filter(|(what, _, _)| !(*what == "switchover" && both_default))
                    .map(|(what, theirs, ours)| format!("{what} {theirs}, not this plan's {ours}"))
                    .collect()
            })
            .unwrap_or_default();
        if !differs.is_empty() {
            eprintln!(
                "bogglemax: note: --costs {} were measured in another proof ({}); they still \
                 deal the classes to the shards, but the shards may finish less evenly",
                path.display(),
                differs.join("; ")
            );
        }
    }
    writeln!(
        out,
        "planned {}: {} of {} in {}",
        args.out.display(),
        counted(m.classes, "canonical class", "canonical classes"),
        m.size,
        counted(m.shards.into(), "shard", "shards")
    )?;
    // Empty shards break in no time and harm nothing, but a job array sized by --shards
    // would spend a job on each: say so while the plan is cheap to redo.
    if u64::from(m.shards) > m.classes {
        eprintln!(
            "plan: note: {} of the {} shards hold no class (only {}); their breaks finish at once",
            u64::from(m.shards) - m.classes,
            m.shards,
            counted(m.classes, "class", "classes")
        );
    }
    Ok(())
}

/// `plan --reuse` of an existing run: refused unless it was planned with `settings`.
fn reuse_run(
    path: &std::path::Path,
    dict: &bogglemax::dict::Dictionary,
    settings: &PlanSettings,
    out: &mut Output,
) -> anyhow::Result<()> {
    let run = RunDir::open(path)?;
    let m = run.manifest();
    let mut want = pipeline::planned_manifest(dict, settings, m.classes);
    // A word list of the same contents (its SHA-256) under another file name or path is the
    // same list: the run keeps the name it was planned with.
    let renamed = want.wordlist != m.wordlist && want.wordlist_sha256 == m.wordlist_sha256;
    if renamed {
        want.wordlist.clone_from(&m.wordlist);
    }
    // The same run: every setting equal (the tool version may differ, as for resuming).
    if m.run_id() != want.run_id() {
        // One line: each setting asked for that differs, beside the run's.
        let (have, asked) = (m.describe(), want.describe());
        let diffs: Vec<String> = asked
            .lines()
            .zip(have.lines())
            .filter(|(a, h)| a != h)
            .map(|(a, h)| format!("asked {a}, the run has {h}"))
            .collect();
        bail!(
            "{}: planned with other settings ({}); remove it or choose another --out",
            path.display(),
            diffs.join("; ")
        );
    }
    if renamed {
        writeln!(
            out,
            "reusing {} (same settings; the run names its word list, of the same contents, {})",
            path.display(),
            m.wordlist
        )?;
    } else {
        writeln!(out, "reusing {} (same settings)", path.display())?;
    }
    Ok(())
}

/// Flags of `bogglemax break`.
#[derive(Args, Debug)]
#[command(after_help = "Resumable: every finished class is appended to \
RUN/shards/NNNNN.journal as a checksummed, synced record, and a rerun skips it. A class that \
runs longer than --checkpoint-secs also records each finished branch of its top split. Kill \
it at any moment and run the same command again. Two workers on one shard: the second is \
refused (file lock).")]
#[command(group(clap::ArgGroup::new("which").required(true).args(["shard", "all"])))]
pub struct BreakArgs {
    /// The run directory (from `bogglemax plan`).
    pub run: PathBuf,
    /// The shard to break (0-based).
    #[arg(long, value_name = "K")]
    pub shard: Option<u32>,
    /// Break every shard, one after another.
    #[arg(long)]
    pub all: bool,
    /// Classes broken at once (threads). Default: all cores.
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = super::common::parse_threads)]
    pub threads: usize,
    /// Classes running longer than this also checkpoint each top-split branch.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub checkpoint_secs: u64,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
    /// Also journal every candidate (board whose tree bound reaches S: its DeMulti, or in a
    /// class split into unit trees a bound between its Score and DeMulti) with its Score,
    /// zstd-compressed,
    /// not only the results: for `rescore` to audit. Costs disk in heavy classes (a 4x4 class
    /// can have millions), and time: without it the breaker prunes by a bound on Score on
    /// boards of 12 cells or more, and counts only the candidates that survive that.
    #[arg(long)]
    pub keep_candidates: bool,
    /// If another process holds the shard's lock, wait up to this long for it to exit
    /// before refusing (a requeued Slurm task can start while its killed predecessor's
    /// lock is still being released). Default: refuse at once.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    pub wait_lock: u64,
    /// If another process holds a shard's lock (after --wait-lock), skip that shard: say so
    /// and go on, exiting 0, instead of refusing. For workers on several machines that share
    /// the run directory, where a held shard is another worker's (`break --all
    /// --skip-locked` on each machine splits the shards between them); `bogglemax status
    /// RUN --pending` lists what is left.
    #[arg(long)]
    pub skip_locked: bool,
}

/// Runs `bogglemax break`.
pub fn run_break(args: &BreakArgs, out: &mut Output) -> anyhow::Result<()> {
    let run = RunDir::open(&args.run)?;
    let options = BreakOptions {
        threads: args.threads,
        checkpoint_after: Duration::from_secs(args.checkpoint_secs),
        quiet: args.quiet,
        keep_candidates: args.keep_candidates,
        wait_lock: Duration::from_secs(args.wait_lock),
    };
    let shards: Vec<u32> = match args.shard {
        Some(k) => vec![k],
        None => (0..run.manifest().shards).collect(),
    };
    super::stop_note::say_when_stopped(&format!(
        "the classes finished are kept in the journals of {}; `bogglemax break` of it again \
         resumes the rest",
        args.run.display()
    ));
    for k in shards {
        let r = match pipeline::break_shard(&run, k, &options) {
            Err(PipelineError::Locked(_)) if args.skip_locked => {
                writeln!(out, "shard {k}: skipped, another process holds it")?;
                out.flush()?;
                continue;
            }
            broken => broken.with_context(|| format!("breaking shard {k}"))?,
        };
        writeln!(
            out,
            "shard {k}: complete, {} classes ({} done before, {} now){}",
            r.classes,
            r.already_done,
            r.broken_now,
            if r.dropped_torn_record {
                "; dropped a torn last record"
            } else {
                ""
            }
        )?;
        out.flush()?;
    }
    Ok(())
}

/// Flags of `bogglemax merge`.
#[derive(Args, Debug)]
#[command(
    after_help = "Writes RUN/results.csv (board,score,words,class_id: every board of Score S or \
more found, canonical, each once, best first) and RUN/summary.txt, and prints the summary: the \
run's settings; classes finished of all; classes broken outright (no candidate); candidates \
checked; the largest DeMulti seen; results and the best board; CPU and checking seconds; the \
slowest classes; then `proof: complete`, or a `problem:` line for each shard unfinished or \
whose shard file is unreadable and `proof: incomplete`. A damaged journal is an error instead \
(nothing is written; the message names it and how to go on without it). Safe while workers \
run: it reads the finished classes of each journal, and never replaces the files by a merge of \
fewer finished classes. Exits 0 for a complete proof, 1 for an incomplete one (the files then \
hold the boards found so far), 2 on an error."
)]
pub struct RunArgs {
    /// The run directory.
    pub run: PathBuf,
    /// No progress display (shown on standard error, shard by shard).
    #[arg(long)]
    pub quiet: bool,
}

/// Flags of `bogglemax rescore`.
#[derive(Args, Debug)]
#[command(
    after_help = "Exits 0 when everything agrees, 1 with one line per disagreement \
otherwise. Safe while workers run: it reads the finished classes of each journal."
)]
pub struct RescoreArgs {
    /// The run directory.
    pub run: PathBuf,
    /// Also break N finished classes again from scratch, drawn at random, and check that
    /// their journal records say the same (results, candidate count, largest DeMulti).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub audit: usize,
    /// Seed of the random draw of --audit (the same seed draws the same classes).
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub seed: u64,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `bogglemax rescore`.
pub fn run_rescore(args: &RescoreArgs, out: &mut Output) -> anyhow::Result<()> {
    let run = RunDir::open(&args.run)?;
    let r = pipeline::rescore(&run, args.audit, args.seed, args.quiet)?;
    writeln!(
        out,
        "rescored {} results of {} finished classes ({} boards up to symmetry, as merge lists \
         them): the solver agrees with {}",
        r.results,
        r.classes,
        r.distinct_results,
        if r.problems.is_empty() {
            "all"
        } else {
            "not all"
        }
    )?;
    if r.kept_classes > 0 {
        writeln!(
            out,
            "rescored {} kept candidates of {} classes",
            r.kept_candidates, r.kept_classes
        )?;
    }
    if !r.rebroken.is_empty() {
        writeln!(
            out,
            "broke {} classes again (seed {}): {}",
            r.rebroken.len(),
            args.seed,
            r.rebroken
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        )?;
    }
    for p in &r.problems {
        writeln!(out, "problem: {p}")?;
    }
    writeln!(
        out,
        "audit: {}",
        if r.problems.is_empty() {
            "passed".to_string()
        } else {
            format!("FAILED ({} problems)", r.problems.len())
        }
    )?;
    out.flush()?;
    if !r.problems.is_empty() {
        return Err(ExitStatus(1).into());
    }
    Ok(())
}

/// Runs `bogglemax merge`.
pub fn run_merge(args: &RunArgs, out: &mut Output) -> anyhow::Result<()> {
    let run = RunDir::open(&args.run)?;
    let report = pipeline::merge(&run, args.quiet)?;
    write!(out, "{}", report.summary)?;
    out.flush()?;
    if !report.complete {
        return Err(ExitStatus(1).into());
    }
    Ok(())
}

/// Flags of `bogglemax status`.
#[derive(Args, Debug)]
#[command(
    after_help = "Prints the run's settings, then one line per shard (classes finished of its \
classes, CPU seconds, and `complete`, or `running` while a worker of this machine holds it), \
the shards complete, the spread of complete shards' CPU seconds, the classes done, the CPU \
seconds so far, an ETA in CPU seconds at the mean rate so far (divide by the workers), and \
the slowest classes with their CPU seconds. Safe while workers run: it takes no lock and \
reads the finished classes of each journal. Exits 0 whether or not the run is finished \
(`merge` gives the verdict), 2 on an error."
)]
pub struct StatusArgs {
    /// The run directory.
    pub run: PathBuf,
    /// Print only the number of shards.
    #[arg(long, conflicts_with = "pending")]
    pub count: bool,
    /// Print only the shards that are not complete, one index per line.
    #[arg(long)]
    pub pending: bool,
    /// Also write the measured cost of every finished class to FILE (CSV
    /// `class_id,seconds,nodes,source` after `#` lines naming the classes and the proof),
    /// for `plan --costs`, `estimate --replay` or a look at the heavy tail.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "pending"])]
    pub costs: Option<PathBuf>,
}

/// Runs `bogglemax status`.
pub fn run_status(args: &StatusArgs, out: &mut Output) -> anyhow::Result<()> {
    let run = RunDir::open(&args.run)?;
    if args.count {
        writeln!(out, "{}", run.manifest().shards)?;
        return Ok(());
    }
    // Every stage that breaks or merges reads the compiled dictionary: a damaged or swapped
    // one is reported here too, not first by the next break.
    run.dictionary()?;
    if let Some(path) = &args.costs {
        let costs = pipeline::ClassCosts::from_run(&run)?;
        costs.write(path)?;
        eprintln!(
            "wrote the costs of {} to {}",
            counted(costs.len() as u64, "finished class", "finished classes"),
            path.display()
        );
    }
    let shards = pipeline::status(&run)?;
    // On standard error, so that the lines a script reads keep their form.
    for s in shards.iter().filter(|s| s.strays > 0) {
        eprintln!(
            "bogglemax: warning: {}",
            pipeline::strays_advice(&run.journal_path(s.index), s.index, s.strays)
        );
    }
    if args.pending {
        for s in shards.iter().filter(|s| !s.complete()) {
            writeln!(out, "{}", s.index)?;
        }
        return Ok(());
    }
    let m = run.manifest();
    write!(out, "{}", m.describe())?;
    let total: usize = shards.iter().map(|s| s.total).sum();
    let done: usize = shards.iter().map(|s| s.done).sum();
    let seconds = shards.iter().fold(0.0, |acc, s| acc + s.seconds);
    for s in &shards {
        writeln!(
            out,
            "shard {:5}: {}/{} classes, {:.1} s{}",
            s.index,
            s.done,
            s.total,
            s.seconds,
            if s.complete() {
                " complete"
            } else if s.running {
                " running"
            } else {
                ""
            }
        )?;
    }
    let complete = shards.iter().filter(|s| s.complete()).count();
    writeln!(out, "shards complete: {complete} of {}", shards.len())?;
    // The spread of finished shards' CPU times: a slowest shard far above the mean holds
    // the whole run back (replan with `plan --costs`).
    let finished: Vec<f64> = shards
        .iter()
        .filter(|s| s.complete())
        .map(|s| s.seconds)
        .collect();
    if !finished.is_empty() {
        let mean = finished.iter().sum::<f64>() / finished.len() as f64;
        let min = finished.iter().cloned().fold(f64::INFINITY, f64::min);
        let max = finished.iter().cloned().fold(0.0, f64::max);
        writeln!(
            out,
            "shard cpu seconds: min {min:.1}, mean {mean:.1}, max {max:.1} ({:.2}x the mean, \
             {})",
            if mean > 0.0 { max / mean } else { 1.0 },
            counted(finished.len() as u64, "complete shard", "complete shards")
        )?;
    }
    writeln!(out, "classes done: {done} of {total}")?;
    writeln!(out, "cpu seconds: {seconds:.1}")?;
    if done > 0 && done < total {
        let eta = seconds / done as f64 * (total - done) as f64;
        writeln!(
            out,
            "eta: {eta:.0} cpu seconds at the mean rate so far (divide by workers)"
        )?;
    }
    let mut slowest: Vec<(f64, u64)> = shards.iter().flat_map(|s| s.slowest.clone()).collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (secs, id) in slowest.iter().take(5) {
        writeln!(out, "slow class: {id} {secs:.2} s")?;
    }
    Ok(())
}

/// Flags of `bogglemax report`.
#[derive(Args, Debug)]
#[command(
    after_help = "Safe on a run in progress: it takes no lock and writes nothing in the run \
but the page, reading each journal once (a record being appended is left out). A shard counts \
as running while a worker on this machine holds its lock, or (a worker on another machine) while \
its journal was written to in the last --active-within minutes. On a Slurm cluster: run it on the \
login node, copy the page back (scp), and open it in a browser; it fetches nothing."
)]
pub struct ReportArgs {
    /// The run directory.
    pub run: PathBuf,
    /// Where to write the page (default RUN/report.html). An existing file is replaced only
    /// if it is an earlier report.
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// A started shard whose journal was written to within this many minutes, and whose lock
    /// no process of this machine holds, counts as running (not failed).
    #[arg(long, value_name = "MINUTES", default_value_t = 15)]
    pub active_within: u64,
}

/// Runs `bogglemax report`.
pub fn run_report(args: &ReportArgs, out: &mut Output) -> anyhow::Result<()> {
    let run = RunDir::open(&args.run)?;
    let path = args
        .out
        .clone()
        .unwrap_or_else(|| args.run.join("report.html"));
    // Only a missing file or an earlier report may be replaced: anything else, or a file that
    // cannot be read to tell, is left alone.
    match std::fs::File::open(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => bail!(
            "{}: {e}; choose another --out (nothing was written)",
            path.display()
        ),
        Ok(f) => {
            let mut head = Vec::new();
            f.take(4096)
                .read_to_end(&mut head)
                .with_context(|| format!("reading {}", path.display()))?;
            let earlier_report = head.starts_with(b"<!DOCTYPE html>")
                && head.windows(REPORT_MARK.len()).any(|w| w == REPORT_MARK);
            if !earlier_report {
                bail!(
                    "{}: exists and is not a bogglemax report; choose another --out (nothing was written)",
                    path.display()
                );
            }
        }
    }
    let options = pipeline::SnapshotOptions {
        active_within: Duration::from_secs(args.active_within.saturating_mul(60)),
    };
    let summary = match bogglemax::report::write_report(&run, &path, options) {
        // A run directory the user may not write (another user's, read-only): elsewhere.
        Err(pipeline::PipelineError::Io { path, err })
            if err.kind() == std::io::ErrorKind::PermissionDenied =>
        {
            bail!(
                "writing the report of {}: {}: {err}; write it elsewhere with --out FILE",
                args.run.display(),
                path.display()
            )
        }
        written => {
            written.with_context(|| format!("writing the report of {}", args.run.display()))?
        }
    };
    eprintln!(
        "report: {} ({:.0} kB{})",
        path.display(),
        summary.bytes as f64 / 1e3,
        if summary.complete {
            ", proof complete"
        } else {
            ""
        }
    );
    // The page shows them, but a report made by a cron job or a script is seldom read at
    // once: damage is said where the caller looks too. The page was written, so exit 0.
    if let Some((k, why)) = summary.unreadable.first() {
        let more = summary.unreadable.len() - 1;
        eprintln!(
            "report: warning: shard {k} unreadable ({why}){}",
            if more > 0 {
                format!(" and {more} more: see the page")
            } else {
                String::new()
            }
        );
    }
    writeln!(out, "{}", path.display())?;
    Ok(())
}

/// What marks a file as a page `report` wrote (its `generator` meta tag, in its first lines).
const REPORT_MARK: &[u8] = b"bogglemax proof report";
