//! `bogglemax estimate`: a proof's cost from a sample of its classes.

use super::common::{DictArgs, Output, parse_size};
use anyhow::{Context, bail};
use bogglemax::board::Size;
use bogglemax::bound::Partition;
use bogglemax::dict::Dictionary;
use bogglemax::pipeline::{
    self, ClassCosts, CostSettings, EstimateSettings, Replay, RunDir, Sample, SampleSize,
};
use bogglemax::solve::Scoring;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Flags of `bogglemax estimate`.
#[derive(Args, Debug)]
#[command(
    after_help = "Prints one `key: value` line each (a `_90` key is the 90 % interval of the \
key before it, low and high; no total is below the sum over the classes sampled):\n  \
classes                  canonical classes of the run\n  \
sampled                  distinct classes measured (samples_pooled: how many for each seed)\n  \
cpu_seconds              CPU seconds of the whole run on one thread (each class's thread \
CPU time, on this machine); cpu_hours the same in hours\n  \
class_seconds_quantiles  one class's CPU seconds: 50 %, 90 %, 99 %, and the largest sampled \
(slowest_sampled: which class)\n  \
tree_nodes               orderly-tree nodes the run creates: the machine-independent measure \
of its work\n  \
candidates               boards whose bound reached S, each checked by scoring it\n  \
results                  boards with Score >= S, each canonical board once (results.csv's \
rows)\n  \
peak_rss_bytes           one worker process (one thread): the dictionary and the largest \
sampled class's trees\n  \
disk_bytes               the run directory\n  \
estimate_wall_seconds    how long this estimate took (from_journal: classes read from \
--journal)\n  \
tasks, task_seconds      with --tasks N: the mean and slowest CPU seconds of one of N tasks, \
and slurm_time and slurm_mem to ask for\n  \
replayed_*               with --replay: the finished run's true totals\n\nClasses are drawn by importance: a cost model fitted to the classes \
broken so far (tree nodes against how well the class's letter sets chain into words) makes \
heavy classes likelier to be drawn, and each is weighted by how likely it was, so the heavy \
tail is sampled and the estimate is unbiased (but for the floor at the sampled classes' \
sum, which only moves a total toward the truth). The same seed and --sample draw the same \
classes on every machine; only the seconds differ.\n\nThe intervals cover the sampling \
only. A class's seconds also vary from one run to the next and from day to day on the same \
machine (by up to 2x between days on a shared one), which cpu_seconds_90 leaves out: add that \
spread, or compare tree_nodes_90, which has none. Candidates and results often lie in a few \
classes (one 3x3 class holds four fifths of the proof's candidates): a sample that misses them \
reports too few, with a narrow interval, so read those two as a guide, not a bound.\n\n\
Several seeds draw independent \
samples and pool them into one estimate (line samples_pooled). The samples can be drawn \
apart, each by its own process or cluster task into its own journal, and pooled afterwards \
from the journals alone, breaking nothing:\n\n  bogglemax estimate ... --seed 1 --sample 8 \
--journal est.1.journal     (and so on for seeds 2-4, anywhere)\n  bogglemax estimate ... \
--seed 1,2,3,4 --sample 8 --journal est.1.journal --journal est.2.journal \\\n      \
--journal est.3.journal --journal est.4.journal"
)]
pub struct EstimateArgs {
    /// Estimate a planned run: its size, partition, score, switchover, scoring and word
    /// list (so none of those flags may be given with it), and (unless --tasks is given)
    /// one task per shard.
    #[arg(long, value_name = "RUN", conflicts_with_all = ["size", "partition", "score", "switchover", "wordlist", "scoring"])]
    pub run: Option<PathBuf>,
    /// Board size, CxR (at most 25 cells). Default: 4x4.
    #[arg(long, value_parser = parse_size, value_name = "CxR")]
    pub size: Option<Size>,
    #[command(flatten)]
    pub dict: DictArgs,
    /// The bucket partition, as `plan` takes it (required unless --run or --replay gives it).
    #[arg(long, value_name = "P", required_unless_present_any = ["run", "replay"])]
    pub partition: Option<String>,
    /// The score S of the proof (required unless --run or --replay gives it).
    #[arg(long, value_name = "S", required_unless_present_any = ["run", "replay"])]
    pub score: Option<u32>,
    /// Switchover, as `plan` takes it. Default: 9/4 × S.
    #[arg(long, value_name = "B")]
    pub switchover: Option<u32>,
    /// Break this many distinct classes (all of them if the run has fewer); with several
    /// seeds, this many for each seed, or one count per seed (`--seed 27,28 --sample 17,9`).
    #[arg(
        long,
        value_name = "N[,N...]",
        value_delimiter = ',',
        conflicts_with = "budget"
    )]
    pub sample: Vec<usize>,
    /// Break classes in batches until this many seconds of wall time have passed (the batch
    /// under way finishes). Default when neither is given: 300.
    #[arg(long, value_name = "SECONDS")]
    pub budget: Option<u64>,
    /// Seed of the draws. Several, distinct (`--seed 1,2,3`): one independent sample each,
    /// pooled into one estimate (with --sample, not --budget).
    #[arg(
        long,
        value_name = "K[,K...]",
        value_delimiter = ',',
        default_value = "1"
    )]
    pub seed: Vec<u64>,
    /// Threads breaking classes. With --sample at most 16 at once (classes are drawn in
    /// fixed batches of 4, 4, 8, 8, then 16; the cost model is refitted each time the
    /// measured classes double); on a --budget one class per thread. Default: all cores.
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = super::common::parse_threads)]
    pub threads: usize,
    /// Also say what one task of a run split into N shards takes (one thread each), and
    /// the Slurm --time and --mem to ask for.
    #[arg(long, value_name = "N")]
    pub tasks: Option<u64>,
    /// Write every class's cost (measured or predicted) to FILE, for `plan --costs`.
    #[arg(long, value_name = "FILE")]
    pub costs_out: Option<PathBuf>,
    /// Validation: draw from a finished run's recorded costs (its directory, or a costs
    /// file from `status --costs`) instead of breaking classes, to see how close an estimate
    /// of this size comes to the run's real total. A run directory, or a costs file that
    /// names its proof (those of `status --costs` and `estimate --costs-out` do), gives the
    /// settings the flags leave out, and must agree with those they give (or with --run's
    /// run); a costs file from before files named their proof needs --size, --partition and
    /// --score, or --run. A costs file's word list is not kept: give it with --wordlist
    /// unless it is the built-in one.
    #[arg(long, value_name = "RUN|FILE", requires = "sample")]
    pub replay: Option<PathBuf>,
    /// Keep every class broken in FILE (created if missing), and take the classes it already
    /// holds from it instead of breaking them again, so a long estimate can run in parts and
    /// one cut off loses only the classes under way. The same --seed and --sample draw the
    /// same classes in the same order (on a --budget, also the same --threads, and how far
    /// it gets depends on time). With --sample N and one thread, classes are broken in the
    /// order drawn: a journal cut off after K classes holds the first K draws, `--sample K`
    /// then reports from it alone, and a larger --sample goes on from it. The journal
    /// belongs to one size, partition, score, switchover, scoring and word list; any other
    /// is refused. Its seconds are those of the machine, day and bogglemax that broke each
    /// class: after a change to the breaker, start a new journal. Give --journal again to
    /// read more journals (other seeds' samples, drawn elsewhere): classes any of them holds
    /// are taken from it, and classes broken now are written to the first only.
    #[arg(long, value_name = "FILE", conflicts_with = "replay")]
    pub journal: Vec<PathBuf>,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `bogglemax estimate`.
pub fn run(args: &EstimateArgs, out: &mut Output) -> anyhow::Result<()> {
    let samples = samples(args)?;
    if args.tasks == Some(0) {
        bail!("--tasks must be at least 1");
    }
    if let Some(path) = &args.costs_out {
        // Before the work, not after it.
        pipeline::ClassCosts::check_replaceable(path)?;
        if let Some(replay) = &args.replay
            && bogglemax::format::same_file(path, replay)
        {
            bail!(
                "--costs-out {} is the file --replay reads: its measured costs would be replaced \
                 by this estimate's, most of them predicted (choose another file)",
                path.display()
            );
        }
    }
    if let Some(journal) = args.journal.first() {
        super::stop_note::say_when_stopped(&format!(
            "the classes broken so far are kept in {}; the same command goes on from them",
            journal.display()
        ));
    } else if args.replay.is_none() {
        super::stop_note::say_when_stopped(
            "no class broken so far is kept (--journal FILE keeps them for the next estimate)",
        );
    }
    // What is replayed: a run directory (opened once: its manifest, its check and its costs
    // all come from this one RunDir) or a costs file.
    let replayed = match &args.replay {
        Some(path) => Some(Replayed::open(path)?),
        None => None,
    };
    // The settings and dictionary: a planned run's, or the flags' (those of a replayed run
    // or costs file where the flags leave them out).
    let recorded = replayed.as_ref().and_then(|r| r.proof.as_ref());
    let recorded_space = replayed.as_ref().and_then(|r| r.space.as_ref());
    let (dict, settings, run_shards) = match (&args.run, recorded.zip(recorded_space)) {
        (Some(path), _) => {
            let run = RunDir::open(path)?;
            let m = run.manifest();
            let settings = EstimateSettings {
                size: run.size(),
                partition: m.partition.clone(),
                threshold: m.threshold,
                switchover: Some(m.switchover),
                scoring: run.scoring(),
                samples,
                threads: args.threads,
                quiet: args.quiet,
                journals: args.journal.clone(),
            };
            (run.dictionary()?, settings, Some(m.shards as u64))
        }
        (None, Some((proof, (recorded_size, recorded_partition)))) => {
            let size = args.size.unwrap_or(*recorded_size);
            let scoring = args.dict.scoring.unwrap_or(proof.scoring);
            let run = replayed.as_ref().and_then(|r| r.run.as_ref());
            let dict = match (&args.dict.wordlist, run) {
                (None, Some(run)) => run.dictionary()?,
                _ => args.dict.load_scored(size, scoring)?,
            };
            let settings = EstimateSettings {
                size,
                partition: args.partition.clone().unwrap_or(recorded_partition.clone()),
                threshold: args.score.unwrap_or(proof.settings.threshold),
                switchover: args.switchover.or(Some(proof.settings.switchover)),
                scoring,
                samples,
                threads: args.threads,
                quiet: args.quiet,
                journals: args.journal.clone(),
            };
            (dict, settings, run.map(|r| r.manifest().shards as u64))
        }
        (None, None) => {
            // Given by the flags, or by a costs file from before costs files named their
            // proof (which names its classes at most).
            let partition = args
                .partition
                .clone()
                .or(recorded_space.map(|(_, p)| p.clone()));
            let (Some(partition), Some(threshold)) = (&partition, args.score) else {
                // Required by clap unless --run or --replay is given: here --replay FILE. The
                // size has a default, but not necessarily the file's.
                let missing = [
                    (recorded_space.is_none() && args.size.is_none(), "--size"),
                    (partition.is_none(), "--partition"),
                    (args.score.is_none(), "--score"),
                ]
                .into_iter()
                .filter_map(|(missing, flag)| missing.then_some(flag))
                .collect::<Vec<_>>();
                let give = match missing.split_last() {
                    Some((last, [])) => last.to_string(),
                    Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                    // Not reached: partition or score is missing.
                    None => "the proof's settings".to_string(),
                };
                let give = if args.switchover.is_none() {
                    format!("{give} (and --switchover unless it was the default)")
                } else {
                    give
                };
                bail!(
                    "--replay {}: this costs file does not say the proof's settings (a file \
                     from an older bogglemax): give {give}, or --run RUN",
                    args.replay.as_deref().unwrap_or(Path::new("")).display()
                );
            };
            // Checked as `plan` would (the library reads a partition as runs recorded it).
            let size = args
                .size
                .or(recorded_space.map(|(size, _)| *size))
                .unwrap_or_else(default_size);
            pipeline::class_space(size, partition)?;
            let settings = EstimateSettings {
                size,
                partition: partition.clone(),
                threshold,
                switchover: args.switchover,
                scoring: args.dict.scoring(),
                samples,
                threads: args.threads,
                quiet: args.quiet,
                journals: args.journal.clone(),
            };
            (args.dict.load(size)?, settings, None)
        }
    };
    if let Some(r) = &replayed {
        r.check(&settings, &dict, args.run.as_deref())?;
    }
    let tasks = args.tasks.or(run_shards);
    let (estimate, replayed) = match replayed {
        None => (pipeline::estimate(&dict, &settings)?, None),
        Some(r) => {
            let (mut e, truth) = replay(&settings, &dict, &r.path, r.costs)?;
            // The replayed proof is the estimate's (checked above, or taken on the flags'
            // word for an older costs file).
            e.costs = std::mem::take(&mut e.costs).measured_in(settings.cost_settings(&dict));
            (e, Some(truth))
        }
    };
    let shards = tasks.unwrap_or(1);
    // clap gives at least the default seed.
    let report = estimate.report(shards, tasks, args.seed[0]);
    match replayed {
        None => write!(out, "{report}")?,
        Some((seconds, nodes)) => {
            // A replay knows only seconds and tree nodes: the lines of memory, candidates and
            // results would only show zeros.
            let unknown = [
                "peak_rss_bytes:",
                "slurm_mem:",
                "disk_bytes:",
                "candidates:",
                "candidates_90:",
                "results:",
            ];
            for line in report
                .lines()
                .filter(|l| !unknown.iter().any(|k| l.starts_with(k)))
            {
                writeln!(out, "{line}")?;
            }
            writeln!(out, "replayed_cpu_seconds: {seconds:.1}")?;
            writeln!(out, "replayed_tree_nodes: {nodes:.0}")?;
        }
    }
    out.flush()?;
    // After the report: a file that cannot be written now (a full disk, or something put at
    // the path since it was checked) fails the command without losing the estimate.
    if let Some(path) = &args.costs_out {
        estimate
            .costs
            .write(path)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The samples the flags ask for: one per seed, each of --sample's one count or of its
/// count for that seed, or else on the --budget (300 s by default).
fn samples(args: &EstimateArgs) -> anyhow::Result<Vec<Sample>> {
    if args.sample.contains(&0) {
        bail!("--sample must be at least 1");
    }
    let seeds = &args.seed;
    let sizes: Vec<SampleSize> = match (args.sample.as_slice(), args.budget) {
        ([], Some(0)) => bail!("--budget must be at least 1 second"),
        // Several seeds on a budget are refused by the estimate itself (check_samples).
        ([], budget) => {
            vec![SampleSize::Budget(Duration::from_secs(budget.unwrap_or(300))); seeds.len()]
        }
        (&[n], _) => vec![SampleSize::Classes(n); seeds.len()],
        (counts, _) if counts.len() == seeds.len() => {
            counts.iter().map(|&n| SampleSize::Classes(n)).collect()
        }
        (counts, _) => bail!(
            "--sample gives {} counts for {} seeds: give one count, or one per seed",
            counts.len(),
            seeds.len()
        ),
    };
    Ok(seeds
        .iter()
        .zip(sizes)
        .map(|(&seed, size)| Sample::new(seed, size))
        .collect())
}

/// The board size of `estimate` without --size: 4x4.
fn default_size() -> Size {
    // 4 is a valid side.
    Size::new(4, 4).expect("4x4 is a size")
}

/// The settings of the proof a replay draws from, as a run directory or a costs file
/// records them.
struct RecordedProof {
    scoring: Scoring,
    settings: CostSettings,
}

/// What `--replay` names: a finished run or a costs file, its costs, its classes and its
/// proof where known (a costs file from before costs files named their proof names its
/// classes at most).
struct Replayed {
    path: PathBuf,
    /// The run, when a run directory was given (its word list is taken when no --wordlist
    /// is).
    run: Option<RunDir>,
    /// The size and partition.
    space: Option<(Size, String)>,
    proof: Option<RecordedProof>,
    costs: ClassCosts,
}

impl Replayed {
    /// Opens a run directory or reads a costs file.
    fn open(path: &Path) -> anyhow::Result<Replayed> {
        if path.is_dir() {
            let run = RunDir::open(path)?;
            let m = run.manifest();
            let proof = RecordedProof {
                scoring: run.scoring(),
                settings: CostSettings::of_manifest(m),
            };
            return Ok(Replayed {
                path: path.to_path_buf(),
                costs: ClassCosts::from_run(&run)?,
                space: Some((run.size(), m.partition.clone())),
                proof: Some(proof),
                run: Some(run),
            });
        }
        if !path.exists() {
            bail!(
                "--replay {}: no such run directory or costs file",
                path.display()
            );
        }
        // Its errors name the file.
        let costs = ClassCosts::load(path)?;
        let bad = |what: &str, why: String| {
            anyhow::anyhow!("--replay {}: its {what}: {why}", path.display())
        };
        let space = match costs.space() {
            Some((size, partition)) => Some((
                parse_size(size).map_err(|e| bad("size", e))?,
                partition.to_string(),
            )),
            None => None,
        };
        let proof = match costs.settings() {
            Some(settings) => Some(RecordedProof {
                scoring: settings
                    .scoring
                    .parse()
                    .map_err(|e: String| bad("scoring", e))?,
                settings: settings.clone(),
            }),
            None => None,
        };
        Ok(Replayed {
            path: path.to_path_buf(),
            run: None,
            space,
            proof,
            costs,
        })
    }

    /// Refuses to replay the recorded proof as an estimate of other settings (those of the
    /// run `--run` names, or the flags'): its size, partition, S, switchover, scoring and
    /// word list must be the estimate's. A costs file that records none is taken at the
    /// flags' word.
    fn check(
        &self,
        settings: &EstimateSettings,
        dict: &Dictionary,
        run_flag: Option<&Path>,
    ) -> anyhow::Result<()> {
        let (Some(proof), Some((size, partition))) = (&self.proof, &self.space) else {
            return Ok(());
        };
        // A partition and a scoring compared as they are read, not as they are spelt.
        let partition_label = |p: &str| match Partition::parse_recorded(p) {
            Ok(p) => p.to_string(),
            Err(_) => p.to_string(),
        };
        let recorded = CostSettings {
            scoring: proof.scoring.to_string(),
            ..proof.settings.clone()
        };
        let space = [
            ("size", size.to_string(), settings.size.to_string()),
            (
                "partition",
                partition_label(partition),
                partition_label(&settings.partition),
            ),
        ];
        let estimated = settings.cost_settings(dict);
        let differs = space
            .into_iter()
            .chain(recorded.differences(&estimated))
            .find(|(_, theirs, ours)| theirs != ours);
        let Some((what, theirs, ours)) = differs else {
            return Ok(());
        };
        let whose = if self.run.is_some() {
            "run"
        } else {
            "costs file"
        };
        if let Some(run) = run_flag {
            bail!(
                "--replay {}: the {whose}'s {what} is {theirs}, --run {}'s {ours}: they are of \
                 different proofs",
                self.path.display(),
                run.display()
            );
        }
        // A run keeps its word list; a costs file only names it.
        let advice = match (what, &self.run) {
            ("word list", None) if recorded.wordlist == estimated.wordlist => format!(
                "{} has changed since the costs were measured: give the list as it was then \
                 with --wordlist",
                estimated.wordlist
            ),
            ("word list", None) => "give that list with --wordlist".to_string(),
            _ => format!("give the {whose}'s (or leave it out: the {whose}'s is taken)"),
        };
        bail!(
            "--replay {}: the {whose}'s {what} is {theirs}, this estimate's {ours}: {advice}",
            self.path.display()
        );
    }
}

/// An estimate replayed from a finished run's recorded `costs` (read from `path`), and that
/// run's true CPU seconds and tree nodes.
fn replay(
    settings: &EstimateSettings,
    dict: &Dictionary,
    path: &std::path::Path,
    costs: ClassCosts,
) -> anyhow::Result<(pipeline::Estimate, (f64, f64))> {
    let replay = Replay::new(settings.size, &settings.partition, dict.trie(), costs)
        .with_context(|| format!("--replay {}", path.display()))?;
    Ok((replay.estimate(&settings.samples)?, replay.totals()))
}
