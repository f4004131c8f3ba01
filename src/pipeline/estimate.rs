//! `estimate`: what a proof will cost (CPU seconds, memory, disk, the time one Slurm task
//! needs) before it is run, from a sample of its classes broken by the same breaker and
//! candidate check as `break`, drawn by importance so that the heavy tail is sampled.
//!
//! The cost model behind the draws (`sampling.rs`) predicts a class's tree nodes from one
//! feature, how well its letter sets chain into words ([`class_features`]). Nodes, not
//! seconds, so the draws (and every figure of a `--sample N` estimate but the seconds) are
//! the same on every machine.

use super::costs::{ClassCost, ClassCosts, CostSettings};
use super::error::PipelineError;
use super::journal::{ClassRecord, ShardJournal};
use super::manifest::fingerprint;
use super::plan::recorded_class_space;
use super::sampling::{
    CostModel, Draw, Interval, Sampler, draw_weights, estimate_total, weighted_quantiles,
};
use crate::board::{Board, Geometry, Size, Symmetries};
use crate::bound::{BreakSettings, ClassBreaker, ClassSpace};
use crate::dict::{Dictionary, NodeId, Trie};
use crate::progress::Progress;
use crate::solve::Scoring;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Classes broken in one batch: 4, 4, 8, 8, then 16 (the cost model is refitted as the
/// measured classes double, and the first fit comes early). Fixed, so a `--sample N` estimate
/// draws the same classes whatever the number of threads.
fn batch_size(measured: usize) -> usize {
    match measured {
        0..8 => 4,
        8..24 => 8,
        _ => 16,
    }
}

/// The cost model's slope before any class is measured: ln(nodes) against the feature of
/// [`class_features`]. Fitted on ENABLE2K: 0.86 (3x3, 2 buckets), 0.37 (3x3, 3 buckets), 0.49
/// (the reference's seconds on 37 4x4 classes). Measured classes soon outweigh it.
const PRIOR_SLOPE: f64 = 0.6;

/// How many classes to break.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SampleSize {
    /// Exactly this many distinct classes (all of them if the run has fewer).
    Classes(usize),
    /// Classes, one a thread at a time, until this much wall time has passed (those under
    /// way finish).
    Budget(Duration),
}

/// One independent sample of an estimate: the seed of its draws and how many classes it
/// draws. Several samples are pooled into one estimate ([`estimate_total`]): each can be
/// drawn by its own process, on its own machine, into its own journal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Seed of the draws.
    pub seed: u64,
    /// How many classes, or for how long.
    pub size: SampleSize,
}

impl Sample {
    /// A sample of `size` drawn with `seed`.
    pub fn new(seed: u64, size: SampleSize) -> Sample {
        Sample { seed, size }
    }
}

/// What to estimate.
#[derive(Clone, Debug)]
pub struct EstimateSettings {
    /// Board size.
    pub size: Size,
    /// Partition text, as `plan` takes it.
    pub partition: String,
    /// The score S.
    pub threshold: u32,
    /// Switchover (default 9/4 × S: [`BreakSettings::with_default_switchover`]).
    pub switchover: Option<u32>,
    /// Scoring.
    pub scoring: Scoring,
    /// The samples, pooled (at least one; a time budget only alone, with distinct seeds).
    pub samples: Vec<Sample>,
    /// Threads breaking sampled classes (0: all cores).
    pub threads: usize,
    /// No progress display.
    pub quiet: bool,
    /// Estimate journals ([`EstimateJournal`]): classes any of them holds are taken from it
    /// instead of broken again, and every class broken is added to the first (the others,
    /// e.g. other processes' samples, must exist and are only read).
    pub journals: Vec<PathBuf>,
}

impl EstimateSettings {
    /// The proof these settings and `dict` estimate, as a costs file names it (the
    /// switchover resolved to its default where none is given).
    pub fn cost_settings(&self, dict: &Dictionary) -> CostSettings {
        CostSettings {
            threshold: self.threshold,
            switchover: BreakSettings::with_switchover(self.threshold, self.switchover).switchover,
            scoring: self.scoring.to_string(),
            wordlist: dict.info().source.clone(),
            wordlist_sha256: dict.info().sha256.clone(),
        }
    }
}

/// The figures of one sampled class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampledClass {
    /// Canonical class id.
    pub class_id: u64,
    /// Seconds to break it (checking included), one thread.
    pub seconds: f64,
    /// Tree nodes created.
    pub nodes: u64,
    /// Peak bytes of its trees.
    pub peak_bytes: u64,
    /// DeMulti candidates found and checked.
    pub candidates: u64,
    /// Boards with Score ≥ S, each canonical board once (a class that is its own image
    /// under a symmetry can hold several images of one board, which the proof lists once).
    pub results: u64,
    /// How many classes of the run it stands for in the estimate (its
    /// [`draw_weights`]; 1 in a census): the weights add up
    /// to about the number of classes.
    pub weight: f64,
}

impl SampledClass {
    /// A class's figures as its journal record holds them (weight 0, set when the sample is
    /// summarised), its results counted as canonical boards under `symmetries`.
    fn of_record(r: &ClassRecord, symmetries: &Symmetries) -> SampledClass {
        let boards: HashSet<Board> = r
            .results
            .iter()
            .map(|c| symmetries.canonical(&c.board))
            .collect();
        SampledClass {
            class_id: r.class_id,
            seconds: r.seconds,
            nodes: r.nodes,
            peak_bytes: r.peak_bytes,
            candidates: r.demulti_count,
            results: boards.len() as u64,
            weight: 0.0,
        }
    }
}

/// A proof's predicted cost.
#[derive(Clone, Debug)]
pub struct Estimate {
    /// Canonical classes in the run.
    pub classes: u64,
    /// Cells of a board.
    pub cells: usize,
    /// The distinct classes broken, in the order they were first drawn.
    pub sampled: Vec<SampledClass>,
    /// The seeds of the samples pooled, and how many classes each drew (a class drawn by
    /// two samples counts in both, and is in `sampled` once).
    pub draws: Vec<(u64, usize)>,
    /// CPU seconds of the whole run, one thread.
    pub cpu_seconds: Interval,
    /// Tree nodes of the whole run.
    pub tree_nodes: Interval,
    /// DeMulti candidates of the whole run.
    pub candidates: Interval,
    /// Boards with Score ≥ S (point estimate).
    pub results: f64,
    /// Seconds of a class: the 50th, 90th and 99th percentiles over the run, and the
    /// largest sampled.
    pub class_seconds: [f64; 4],
    /// Bytes of the process before breaking (dictionary loaded).
    pub base_rss_bytes: u64,
    /// Bytes of the compiled dictionary (a run directory holds a copy).
    pub dict_bytes: u64,
    /// Wall seconds the estimate itself took.
    pub wall_seconds: f64,
    /// Sampled classes whose figures came from the journal (measured by an earlier run)
    /// rather than from breaking them now.
    pub from_journal: usize,
    /// Every class's cost: measured for sampled classes, predicted for the others.
    pub costs: ClassCosts,
}

impl Estimate {
    /// The largest peak tree bytes of a sampled class.
    pub fn peak_tree_bytes(&self) -> u64 {
        self.sampled.iter().map(|s| s.peak_bytes).max().unwrap_or(0)
    }

    /// Predicted peak resident bytes of one worker thread: the process before breaking plus
    /// the largest sampled class's trees.
    pub fn peak_rss_bytes(&self) -> u64 {
        self.base_rss_bytes + self.peak_tree_bytes()
    }

    /// Predicted bytes of the run directory: dictionary, shard files (8 bytes a class),
    /// journals (a record a class, plus each result's board) and results.csv.
    pub fn disk_bytes(&self, shards: u64) -> u64 {
        let journals = self.classes * super::journal::RECORD_BYTES
            + (self.results * (self.cells as f64 + 12.0)) as u64;
        let results_csv = (self.results * (self.cells as f64 + 200.0)) as u64;
        self.dict_bytes + self.classes * 8 + shards * 64 + journals + results_csv
    }

    /// Seconds of one task when the run is split into `tasks` shards, each broken by one
    /// thread: the mean, and the slowest task of the run, simulated (each task a random
    /// share of the classes, their seconds drawn from the weighted sample; the median over
    /// up to 21 simulated runs). A cost-balanced plan (`plan --costs`) does better than
    /// random shares; no task is faster than the largest sampled class.
    pub fn task_seconds(&self, tasks: u64, seed: u64) -> (f64, f64) {
        let tasks = tasks.max(1);
        let mean = self.cpu_seconds.point / tasks as f64;
        let total: f64 = self.sampled.iter().map(|s| s.weight).sum();
        if self.sampled.is_empty() || total.is_nan() || total <= 0.0 {
            return (mean, mean);
        }
        let mut acc = 0.0;
        let cumulative: Vec<f64> = self
            .sampled
            .iter()
            .map(|s| {
                acc += s.weight / total;
                acc
            })
            .collect();
        let per_task = self.classes.div_ceil(tasks);
        // At most about 20 million simulated classes: big tasks are scaled from a part.
        let drawn = per_task.min((20_000_000 / tasks).max(1000));
        let rounds = (20_000_000 / (tasks * drawn)).clamp(1, 21);
        let mut rng = crate::rng::Rng::new(seed);
        // The simulated tasks are scaled to the estimate's mean task (the weighted sample's
        // own mean can differ from the estimator's), so only their spread comes from the
        // simulation.
        let sample_mean: f64 = self
            .sampled
            .iter()
            .map(|s| s.weight / total * s.seconds)
            .sum::<f64>()
            * per_task as f64;
        let scale = if sample_mean > 0.0 {
            mean / sample_mean
        } else {
            1.0
        };
        let mut slowest: Vec<f64> = (0..rounds)
            .map(|_| {
                (0..tasks)
                    .map(|_| {
                        let sum: f64 = (0..drawn)
                            .map(|_| {
                                let u = rng.unit();
                                let k = cumulative.partition_point(|&c| c < u);
                                self.sampled[k.min(cumulative.len() - 1)].seconds
                            })
                            .sum();
                        sum * per_task as f64 / drawn as f64 * scale
                    })
                    .fold(0.0, f64::max)
            })
            .collect();
        slowest.sort_by(f64::total_cmp);
        let worst = slowest[slowest.len() / 2];
        (mean, worst.max(self.class_seconds[3]).max(mean))
    }

    /// The report `bogglemax estimate` prints: one `key: value` line each.
    pub fn report(&self, shards: u64, tasks: Option<u64>, seed: u64) -> String {
        use std::fmt::Write;
        let mut o = String::new();
        let iv = |i: &Interval| format!("{:.0} {:.0}", i.lo, i.hi);
        // Writing to a String cannot fail.
        let _ = (|| -> std::fmt::Result {
            writeln!(o, "classes: {}", self.classes)?;
            writeln!(o, "sampled: {}", self.sampled.len())?;
            if self.draws.len() > 1 {
                let each: Vec<String> = self
                    .draws
                    .iter()
                    .map(|(seed, k)| format!("{k} (seed {seed})"))
                    .collect();
                writeln!(o, "samples_pooled: {}", each.join(", "))?;
            }
            let c = &self.cpu_seconds;
            writeln!(o, "cpu_seconds: {:.1}", c.point)?;
            writeln!(o, "cpu_seconds_90: {:.1} {:.1}", c.lo, c.hi)?;
            let h = |s: f64| hours(s / 3600.0);
            writeln!(
                o,
                "cpu_hours: {} ({}-{} at 90 %)",
                h(self.cpu_seconds.point),
                h(self.cpu_seconds.lo),
                h(self.cpu_seconds.hi)
            )?;
            let q = &self.class_seconds;
            writeln!(
                o,
                "class_seconds_quantiles: {:.3} {:.3} {:.3} {:.3} (50 %, 90 %, 99 %, largest sampled)",
                q[0], q[1], q[2], q[3]
            )?;
            if let Some(s) = self
                .sampled
                .iter()
                .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
            {
                writeln!(
                    o,
                    "slowest_sampled: class {} {:.2} s",
                    s.class_id, s.seconds
                )?;
            }
            writeln!(o, "tree_nodes: {:.0}", self.tree_nodes.point)?;
            writeln!(o, "tree_nodes_90: {}", iv(&self.tree_nodes))?;
            writeln!(o, "candidates: {:.0}", self.candidates.point)?;
            writeln!(o, "candidates_90: {}", iv(&self.candidates))?;
            writeln!(o, "results: {:.0}", self.results)?;
            writeln!(o, "peak_rss_bytes: {}", self.peak_rss_bytes())?;
            writeln!(o, "disk_bytes: {}", self.disk_bytes(shards))?;
            writeln!(o, "estimate_wall_seconds: {:.1}", self.wall_seconds)?;
            if self.from_journal > 0 {
                writeln!(o, "from_journal: {}", self.from_journal)?;
            }
            if let Some(tasks) = tasks {
                let (mean, worst) = self.task_seconds(tasks, seed);
                writeln!(o, "tasks: {tasks}")?;
                writeln!(o, "task_seconds: {mean:.0} {worst:.0} (mean, slowest)")?;
                writeln!(o, "slurm_time: {}", slurm_time(worst))?;
                writeln!(o, "slurm_mem: {}", slurm_mem(self.peak_rss_bytes()))?;
            }
            Ok(())
        })();
        o
    }
}

/// Hours to three significant figures (0.0123, 1.23, 1230).
fn hours(h: f64) -> String {
    let decimals = if h <= 0.0 {
        0
    } else {
        (2 - h.log10().floor() as i32).max(0) as usize
    };
    format!("{h:.decimals$}")
}

/// Slurm `--time` for a task of `seconds`: half again as long plus ten minutes, in whole
/// minutes (`[D-]HH:MM:00`). A task that still runs out resumes from its journal.
pub fn slurm_time(seconds: f64) -> String {
    let minutes = ((seconds * 1.5 + 600.0) / 60.0).ceil() as u64;
    let (d, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    if d > 0 {
        format!("{d}-{h:02}:{m:02}:00")
    } else {
        format!("{h:02}:{m:02}:00")
    }
}

/// Slurm `--mem` for a task of `bytes` peak: a quarter more, rounded up to 100 MB, in MB.
pub fn slurm_mem(bytes: u64) -> String {
    let mb = (bytes as f64 * 1.25 / 1e6 / 100.0).ceil() as u64 * 100;
    format!("{}M", mb.max(100))
}

/// The cost-model feature of every class of `ids`: how well its cells connect into words.
///
/// For cells `c` and `e`, `B(c, e)` is the share of the word list's letter pairs (bigrams,
/// counted over every word) whose first letter lies in `c`'s set and second in `e`'s; the
/// feature is `Σ_c ln Σ_{e next to c} B(c, e)`. Classes whose sets chain into many words
/// have large trees: over 37 4x4 classes its rank correlation with the reference's seconds
/// is 0.91, over the 3x3 runs' classes with their tree nodes 0.97 (2 buckets) and 0.87 (3);
/// bucket counts alone explain nothing on 3x3 with 2 buckets (R² 0.001).
pub fn class_features(
    space: &ClassSpace,
    trie: Trie<'_>,
    ids: &[u64],
) -> Result<Vec<f32>, PipelineError> {
    let geometry = Geometry::new(space.size());
    let bigrams = bigram_counts(trie);
    let total: f64 = bigrams.iter().flatten().sum::<f64>().max(1.0);
    // B for every pair of buckets that lie next to each other, by bucket sets.
    let mut pair: HashMap<(u32, u32), f64> = HashMap::new();
    let share = |s: u32, t: u32| {
        let mut sum = 0.0;
        for a in (0..26).filter(|a| s >> a & 1 == 1) {
            for b in (0..26).filter(|b| t >> b & 1 == 1) {
                sum += bigrams[a][b];
            }
        }
        sum / total
    };
    let mut rows = Vec::with_capacity(ids.len());
    for &id in ids {
        let class = space
            .class(id)
            .map_err(|e| PipelineError::Usage(format!("class {id}: {e}")))?;
        let sets = class.cells();
        let mut z = 0.0;
        for (c, &s) in sets.iter().enumerate() {
            let out: f64 = geometry
                .neighbors(c)
                .iter()
                .map(|&e| {
                    let t = sets[e as usize];
                    *pair.entry((s, t)).or_insert_with(|| share(s, t))
                })
                .sum();
            z += out.max(1e-9).ln();
        }
        rows.push(z as f32);
    }
    Ok(rows)
}

/// `counts[a][b]`: how many words of the trie have letter `b` right after letter `a`
/// (counting every position; Qu is its q).
fn bigram_counts(trie: Trie<'_>) -> Vec<[f64; 26]> {
    /// Adds the bigrams below `node` (reached by `letter`) and returns its words.
    fn walk(trie: Trie<'_>, node: NodeId, letter: Option<u8>, counts: &mut [[f64; 26]]) -> f64 {
        let mut words = trie.word(node).map_or(0.0, |_| 1.0);
        let mask = trie.child_mask(node);
        for b in (0..26u8).filter(|b| mask >> b & 1 == 1) {
            let below = walk(
                trie,
                trie.child_unchecked_letter(node, mask, b),
                Some(b),
                counts,
            );
            if let Some(a) = letter {
                counts[a as usize][b as usize] += below;
            }
            words += below;
        }
        words
    }
    let mut counts = vec![[0.0; 26]; 26];
    walk(trie, trie.root(), None, &mut counts);
    counts
}

/// Breaks a batch of classes (or looks up their recorded figures), in the order given.
type MeasureBatch<'a> = dyn FnMut(&[u64]) -> Result<Vec<SampledClass>, PipelineError> + 'a;

/// Draws and measures each of `samples` from `ids`, the canonical classes of `space` (their
/// cost-model features in `feature`), calling `measure` on each batch of classes not measured
/// yet (on a budget, `threads` classes a batch), and pools the samples into one estimate.
/// `measure` returns the classes' figures in the order given: it breaks them ([`estimate`])
/// or looks them up ([`Replay`]).
fn estimate_from(
    space: &ClassSpace,
    ids: &[u64],
    feature: &[f32],
    samples: &[Sample],
    threads: usize,
    measure: &mut MeasureBatch<'_>,
) -> Result<Estimate, PipelineError> {
    let start = Instant::now();
    let n = ids.len();
    if n == 0 {
        return Err(PipelineError::Usage(
            "the run has no classes to sample".into(),
        ));
    }
    let Some(first) = samples.first() else {
        return Err(PipelineError::Usage("an estimate needs a sample".into()));
    };
    check_samples(samples)?;
    // Ordered, so every sum over it is the same from run to run, to the last bit.
    let mut measured: BTreeMap<usize, SampledClass> = BTreeMap::new();
    let mut sequences: Vec<Vec<Draw>> = Vec::with_capacity(samples.len());
    for sample in samples {
        let mut sampler = Sampler::new(feature, PRIOR_SLOPE, sample.seed);
        // Invariant: every class this sampler drew is in `measured` and recorded by it.
        loop {
            let drawn = sampler.draws().len();
            let want = match sample.size {
                SampleSize::Classes(k) => batch_size(drawn).min(k.min(n) - drawn),
                // On a budget, one class a thread at a time, so the last batch overruns the
                // budget by one class, not by 16 (a budget's draws depend on time anyway).
                SampleSize::Budget(b) if start.elapsed() < b => threads.max(1).min(n - drawn),
                SampleSize::Budget(_) => 0,
            };
            if want == 0 {
                break;
            }
            let new: Vec<usize> = (0..want).filter_map(|_| sampler.draw()).collect();
            // A class an earlier sample drew is measured already.
            let fresh: Vec<usize> = new
                .iter()
                .copied()
                .filter(|i| !measured.contains_key(i))
                .collect();
            let got = measure(&fresh.iter().map(|&i| ids[i]).collect::<Vec<_>>())?;
            if got.len() != fresh.len() {
                return Err(PipelineError::Usage(format!(
                    "measured {} of a batch of {} classes",
                    got.len(),
                    fresh.len()
                )));
            }
            measured.extend(fresh.into_iter().zip(got));
            for i in new {
                sampler.record(i, measured[&i].nodes as f64 + 1.0);
            }
        }
        sequences.push(sampler.draws().to_vec());
    }
    let seed = first.seed;
    let m = &measured;
    let value = |f: fn(&SampledClass) -> f64| move |i: usize| f(&m[&i]);
    // A census knows its totals exactly (no interval), and each class stands for itself.
    // Any sample knows a floor: the classes it measured are part of the run, and no figure
    // is negative, so no total (nor its interval) is below their sum.
    let census = measured.len() == n;
    let total = |f: fn(&SampledClass) -> f64| {
        let mut t = estimate_total(&sequences, value(f), seed);
        let known: f64 = measured.values().map(f).sum();
        if census {
            (t.point, t.lo, t.hi) = (known, known, known);
        }
        t.point = t.point.max(known);
        t.lo = t.lo.max(known);
        t.hi = t.hi.max(known);
        t
    };
    let cpu_seconds = total(|s| s.seconds);
    let tree_nodes = total(|s| s.nodes as f64);
    let candidates = total(|s| s.candidates as f64);
    let results = total(|s| s.results as f64).point;
    let weights = draw_weights(&sequences);
    // Each distinct class once, in the order first drawn, with the weights of its draws.
    let mut sampled: Vec<SampledClass> = Vec::with_capacity(measured.len());
    let mut slot: HashMap<usize, usize> = HashMap::new();
    for (d, &weight) in sequences.iter().flatten().zip(&weights) {
        let k = *slot.entry(d.item).or_insert_with(|| {
            sampled.push(SampledClass {
                weight: 0.0,
                ..measured[&d.item]
            });
            sampled.len() - 1
        });
        sampled[k].weight = if census {
            1.0
        } else {
            sampled[k].weight + weight
        };
    }
    let q = weighted_quantiles(
        sampled.iter().map(|s| (s.seconds, s.weight)).collect(),
        &[0.5, 0.9, 0.99],
    );
    let largest = sampled.iter().map(|s| s.seconds).fold(0.0, f64::max);
    // The cost model fitted to every class measured, in a fixed order (as a sampler fits).
    let seen: Vec<(usize, f64)> = measured
        .iter()
        .map(|(&i, s)| (i, s.nodes as f64 + 1.0))
        .collect();
    let model =
        CostModel::fit(feature, &seen, PRIOR_SLOPE).unwrap_or(CostModel::prior(PRIOR_SLOPE));
    let draws = samples
        .iter()
        .zip(&sequences)
        .map(|(s, d)| (s.seed, d.len()))
        .collect();
    let costs = predicted_costs(ids, feature, model, &measured);
    Ok(Estimate {
        classes: n as u64,
        cells: space.size().cells(),
        sampled,
        draws,
        cpu_seconds,
        tree_nodes,
        candidates,
        results,
        class_seconds: [q[0], q[1], q[2], largest],
        base_rss_bytes: 0,
        dict_bytes: 0,
        wall_seconds: start.elapsed().as_secs_f64(),
        from_journal: 0,
        costs: costs.of_space(space),
    })
}

/// Refuses samples that cannot be pooled: a time budget beside other samples (a budget's
/// draws depend on time, and so does where another sample would start), or a seed given
/// twice (its two samples would be one sample counted twice, not independent ones).
fn check_samples(samples: &[Sample]) -> Result<(), PipelineError> {
    if samples.len() > 1
        && samples
            .iter()
            .any(|s| matches!(s.size, SampleSize::Budget(_)))
    {
        return Err(PipelineError::Usage(
            "several seeds need a sample size (--sample), not a time budget".into(),
        ));
    }
    for (k, s) in samples.iter().enumerate() {
        if samples[..k].iter().any(|t| t.seed == s.seed) {
            return Err(PipelineError::Usage(format!(
                "seed {} is given twice: pooled samples must be drawn with different seeds",
                s.seed
            )));
        }
    }
    Ok(())
}

/// Every class's cost: measured where sampled; otherwise the cost `model`'s nodes (fitted on
/// every sampled class) times the sample's seconds per predicted node.
fn predicted_costs(
    ids: &[u64],
    feature: &[f32],
    model: CostModel,
    measured: &BTreeMap<usize, SampledClass>,
) -> ClassCosts {
    let predict = |i: usize| model.predict(feature[i]);
    let (secs, pred): (f64, f64) = measured.iter().fold((0.0, 0.0), |(s, p), (&i, m)| {
        (s + m.seconds, p + predict(i))
    });
    let per_unit = if pred > 0.0 { secs / pred } else { 0.0 };
    ClassCosts::new(
        ids.iter()
            .enumerate()
            .map(|(i, &class_id)| match measured.get(&i) {
                Some(s) => ClassCost {
                    class_id,
                    seconds: s.seconds,
                    nodes: s.nodes,
                    measured: true,
                },
                None => ClassCost {
                    class_id,
                    seconds: predict(i) * per_unit,
                    nodes: 0,
                    measured: false,
                },
            })
            .collect(),
    )
}

/// Estimates a proof: enumerates its canonical classes, breaks a sample, summarises.
pub fn estimate(dict: &Dictionary, settings: &EstimateSettings) -> Result<Estimate, PipelineError> {
    // A run's partition as it recorded it; one given as a flag was checked by the caller.
    let space = recorded_class_space(settings.size, &settings.partition)?;
    // Checked before the journals are opened, which creates the first if it is missing
    // (estimate_from checks again, for replays).
    check_samples(&settings.samples)?;
    // Opened first, so that a journal of another proof is refused before any work.
    let mut journals = Vec::with_capacity(settings.journals.len());
    for (k, path) in settings.journals.iter().enumerate() {
        if settings.journals[..k].contains(path) {
            return Err(PipelineError::Usage(format!(
                "--journal {} is given twice",
                path.display()
            )));
        }
        if k > 0 && !path.exists() {
            return Err(PipelineError::Usage(format!(
                "--journal {}: no such file (only the first journal is written; the others \
                 are read)",
                path.display()
            )));
        }
        let j = EstimateJournal::open(path, settings, dict)?;
        if !settings.quiet {
            eprintln!(
                "{}: holds {} classes measured earlier",
                path.display(),
                j.known.len()
            );
        }
        journals.push(j);
    }
    // Classes broken now go to the first journal; the others are only read.
    let journals = Mutex::new(journals);
    let ids = space.canonical_ids();
    let feature = class_features(&space, dict.trie(), &ids)?;
    let base_rss_bytes = resident_bytes().unwrap_or(0);
    let breaker = ClassBreaker::new(dict.trie(), settings.size, settings.scoring);
    let symmetries = Symmetries::new(settings.size);
    let break_settings = BreakSettings::with_switchover(settings.threshold, settings.switchover);
    let from_journal = AtomicUsize::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads)
        .build()
        .map_err(|e| PipelineError::Usage(format!("--threads: {e}")))?;
    // One sample on a budget, or samples of so many classes each (check_samples).
    let budget = settings.samples.iter().find_map(|s| match s.size {
        SampleSize::Budget(b) => Some(b),
        SampleSize::Classes(_) => None,
    });
    let counted = budget.is_none();
    let mut progress = match budget {
        None => {
            let draws = settings.samples.iter().map(|s| match s.size {
                SampleSize::Classes(k) => k.min(ids.len()),
                SampleSize::Budget(_) => 0,
            });
            // At most the distinct classes there are: samples may draw the same class.
            let total = draws.sum::<usize>().min(ids.len());
            Progress::new("estimate", total as u64, settings.quiet)
        }
        Some(b) => Progress::counting(
            "estimate",
            b.as_secs().max(1),
            "s of the budget",
            settings.quiet,
        ),
    };
    let started = Instant::now();
    let mut shown = 0u64;
    let broken = AtomicUsize::new(0);
    let mut measure = |batch: &[u64]| -> Result<Vec<SampledClass>, PipelineError> {
        let out: Vec<SampledClass> = pool.install(|| {
            batch
                .par_iter()
                .map(|&id| {
                    // A class measured before: its figures, as the journal holds them.
                    let known = journals
                        .lock()
                        // Poisoned only if a thread panicked holding it, which has ended the
                        // estimate already.
                        .expect("journal lock")
                        .iter()
                        .find_map(|j| j.measured(id, &symmetries));
                    if let Some(s) = known {
                        from_journal.fetch_add(1, Ordering::Relaxed);
                        if counted {
                            progress.inc();
                        }
                        return Ok(s);
                    }
                    // Ids come from the space's own enumeration.
                    let class = space.class(id).expect("canonical ids are in range");
                    if counted {
                        progress.begin(id);
                    }
                    let o = breaker.break_class(&class, &break_settings);
                    let rec = super::breakrun::record(id, None, &o, false);
                    // As above: the lock is poisoned only once the estimate has failed.
                    if let Some(j) = journals.lock().expect("journal lock").first_mut() {
                        j.append(&rec)?;
                    }
                    let n = broken.fetch_add(1, Ordering::Relaxed) + 1;
                    if counted {
                        progress.end(id, o.seconds);
                    } else {
                        progress.note(
                            &format!(
                                "estimate: {n} classes broken; class {id} took {:.1} s",
                                o.seconds
                            ),
                            false,
                        );
                    }
                    Ok(SampledClass::of_record(&rec, &symmetries))
                })
                .collect::<Result<Vec<_>, PipelineError>>()
        })?;
        if let Some(b) = budget {
            let now = started.elapsed().as_secs().min(b.as_secs());
            progress.inc_by(now - shown);
            shown = now;
        }
        Ok(out)
    };
    let threads = pool.current_num_threads();
    let mut e = estimate_from(
        &space,
        &ids,
        &feature,
        &settings.samples,
        threads,
        &mut measure,
    )?;
    progress.finish();
    e.from_journal = from_journal.into_inner();
    e.base_rss_bytes = base_rss_bytes;
    e.dict_bytes = dict.to_compiled().len() as u64;
    e.costs = std::mem::take(&mut e.costs).measured_in(settings.cost_settings(dict));
    Ok(e)
}

/// Estimates replayed from a finished run's recorded costs instead of breaking classes: the
/// same draws a real estimate makes, each class's measured figures standing in for breaking
/// it again, to see how close an estimate of some size comes to a run whose total is known.
pub struct Replay {
    space: ClassSpace,
    ids: Vec<u64>,
    feature: Vec<f32>,
    costs: ClassCosts,
}

impl Replay {
    /// A replay of `costs`, which must hold a measured cost for every canonical class of
    /// `size` and `partition` (a finished run's, `status --costs`); `trie` is the run's word
    /// list, for the cost model's feature.
    pub fn new(
        size: Size,
        partition: &str,
        trie: Trie<'_>,
        costs: ClassCosts,
    ) -> Result<Replay, PipelineError> {
        let space = recorded_class_space(size, partition)?;
        costs.check_space(&space).map_err(PipelineError::Usage)?;
        let ids = space.canonical_ids();
        let unmeasured = |id: &u64| costs.get(*id).is_none_or(|c| !c.measured);
        if let Some(missing) = ids.iter().find(|id| unmeasured(id)) {
            let measured = ids.len() - ids.iter().filter(|id| unmeasured(id)).count();
            return Err(PipelineError::Usage(format!(
                "only {measured} of the {} classes have a measured cost (class {missing} has \
                 none); a replay needs a finished run of the same size and partition",
                ids.len()
            )));
        }
        let feature = class_features(&space, trie, &ids)?;
        Ok(Replay {
            space,
            ids,
            feature,
            costs,
        })
    }

    /// An estimate from `samples`, as [`estimate`] would draw them.
    pub fn estimate(&self, samples: &[Sample]) -> Result<Estimate, PipelineError> {
        let mut measure = |batch: &[u64]| {
            Ok(batch
                .iter()
                .map(|&id| {
                    // `new` checked that every class has a measured cost.
                    let c = self.costs.get(id).expect("measured");
                    SampledClass {
                        class_id: id,
                        seconds: c.seconds,
                        nodes: c.nodes,
                        peak_bytes: 0,
                        candidates: 0,
                        results: 0,
                        weight: 0.0,
                    }
                })
                .collect())
        };
        estimate_from(
            &self.space,
            &self.ids,
            &self.feature,
            samples,
            1,
            &mut measure,
        )
    }

    /// The run's true CPU seconds and tree nodes, over the classes of the space.
    pub fn totals(&self) -> (f64, f64) {
        self.ids
            .iter()
            .filter_map(|&id| self.costs.get(id))
            .fold((0.0, 0.0), |(s, n), c| (s + c.seconds, n + c.nodes as f64))
    }

    /// The run's measured costs.
    pub fn costs(&self) -> &ClassCosts {
        &self.costs
    }
}

/// What a damaged estimate journal's error ends with: how to go on without it.
const DAMAGED_ESTIMATE_ADVICE: &str = " (give another --journal, or move this one aside: the \
     classes it held are broken anew)";

/// The classes an estimate has broken, kept on disk so that a later estimate of the same proof
/// takes them from there instead of breaking them again: a long estimate can then be run in
/// parts (a budget a session), and one cut off loses only the classes under way.
///
/// It is a shard journal ([`ShardJournal`]: checksummed records synced one at a time, a torn
/// last record dropped, locked while open) whose id is a fingerprint of what decides a class's
/// figures: size, partition, S, switchover, scoring and the word list's SHA-256. The seed is
/// not part of it: a class's figures do not depend on how it was drawn, so estimates with other
/// seeds share the journal. Seconds are those of the machine, day and bogglemax that broke the
/// class: after a change to the breaker, start a new journal.
pub struct EstimateJournal {
    journal: ShardJournal,
    known: BTreeMap<u64, ClassRecord>,
}

impl EstimateJournal {
    /// Opens (or creates) the journal for `settings` and `dict`, locked; refuses one written
    /// for other settings or another word list.
    pub fn open(
        path: &Path,
        settings: &EstimateSettings,
        dict: &Dictionary,
    ) -> Result<EstimateJournal, PipelineError> {
        if path.is_dir() {
            return Err(PipelineError::Usage(format!(
                "--journal {}: is a directory, not a file",
                path.display()
            )));
        }
        let switchover =
            BreakSettings::with_switchover(settings.threshold, settings.switchover).switchover;
        let id = fingerprint(&[
            b"bogglemax estimate",
            settings.size.to_string().as_bytes(),
            settings.partition.as_bytes(),
            &settings.threshold.to_le_bytes(),
            &switchover.to_le_bytes(),
            settings.scoring.to_string().as_bytes(),
            dict.info().sha256.as_bytes(),
        ]);
        let opened = ShardJournal::open_advising(
            path,
            id,
            settings.size,
            Duration::ZERO,
            DAMAGED_ESTIMATE_ADVICE,
        );
        let (journal, contents) = match opened {
            // The journal keeps only a fingerprint of its settings: say this estimate's, for
            // the user to compare with the command that wrote it.
            Err(PipelineError::OtherRun { path, advice }) => {
                return Err(PipelineError::Mismatch {
                    path,
                    why: format!(
                        "this estimate journal was written for another size, partition, score, \
                         switchover, scoring or word list than this estimate's ({} '{}', S {}, \
                         switchover {switchover}, {}, {}), or its header is damaged{advice}",
                        settings.size,
                        settings.partition,
                        settings.threshold,
                        settings.scoring,
                        dict.info().source
                    ),
                });
            }
            opened => opened?,
        };
        Ok(EstimateJournal {
            journal,
            known: contents.classes,
        })
    }

    /// The figures of class `id`, if the journal holds it.
    fn measured(&self, id: u64, symmetries: &Symmetries) -> Option<SampledClass> {
        self.known
            .get(&id)
            .map(|r| SampledClass::of_record(r, symmetries))
    }

    /// Adds a broken class's record, synced before it returns.
    fn append(&mut self, rec: &ClassRecord) -> Result<(), PipelineError> {
        self.journal.append(rec)?;
        self.known.insert(rec.class_id, rec.clone());
        Ok(())
    }
}

/// This process's resident bytes now (Linux: /proc/self/status), if known.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
