//! Estimate benchmark: how close `bogglemax estimate` comes to a finished run, and how evenly
//! each way of dealing shards spreads that run's measured costs.
//!
//! `cargo bench --bench estimate -- RUN [fraction=0.05] [seeds=20] [shards=64] [pooled=1]`
//!
//! RUN is a finished run directory. For each seed an estimate is replayed from the run's
//! recorded per-class costs (the same draws a real estimate makes, the class's measured
//! seconds standing in for breaking it again), with `fraction` of the classes sampled; the
//! report gives each estimate's error against the run's total CPU seconds and whether its
//! 90 % interval covers it. With `pooled=K`, each estimate pools K independent samples (seeds
//! K·(s−1)+1 to K·s for estimate s) of a K-th of the classes each, as `estimate --seed 1,2,..`
//! pools samples drawn apart. Then the run's classes are dealt into `shards` shards three ways
//! (by board count, the default; by an estimate's predicted costs; by the run's own costs)
//! and each deal's slowest shard is compared with the mean, by the measured seconds. Figures
//! go to standard output; nothing here asserts anything.

use bogglemax::pipeline::{ClassCosts, PlanSettings, Replay, RunDir, Sample, SampleSize, plan};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(run_path) = args.first() else {
        println!(
            "usage: cargo bench --bench estimate -- RUN [fraction=F] [seeds=N] [shards=N] \
             [pooled=K]"
        );
        return;
    };
    let get = |key: &str, default: f64| {
        args.iter()
            .find_map(|a| a.strip_prefix(&format!("{key}=")))
            .map_or(default, |v| v.parse().expect("a number"))
    };
    let (fraction, seeds, shards, pooled) = (
        get("fraction", 0.05),
        get("seeds", 20.0) as u64,
        get("shards", 64.0) as u32,
        (get("pooled", 1.0) as u64).max(1),
    );
    let run = RunDir::open(Path::new(run_path)).expect("a run directory");
    let m = run.manifest().clone();
    let dict = run.dictionary().expect("its dictionary");
    let costs = ClassCosts::from_run(&run).expect("its journals");
    let replay = Replay::new(run.size(), &m.partition, dict.trie(), costs).expect("a finished run");
    let (truth, _) = replay.totals();
    println!("{}", m.describe().trim_end().replace('\n', "; "));
    println!("run: {} classes, {truth:.1} CPU seconds", m.classes);
    let sample = ((m.classes as f64 * fraction).round() as usize).max(1);
    let (mut near, mut covered, mut worst) = (0, 0, 0.0f64);
    let mut first = None;
    for seed in 1..=seeds {
        let each = SampleSize::Classes(sample.div_ceil(pooled as usize));
        let samples: Vec<Sample> = (1..=pooled)
            .map(|k| Sample::new(pooled * (seed - 1) + k, each))
            .collect();
        let e = replay.estimate(&samples).expect("replay");
        let err = e.cpu_seconds.point / truth - 1.0;
        let hit = e.cpu_seconds.lo <= truth && truth <= e.cpu_seconds.hi;
        println!(
            "seed {seed:3}: {sample} classes, estimate {:.1} ({:+.1} %), 90 % {:.1}-{:.1}{}",
            e.cpu_seconds.point,
            err * 100.0,
            e.cpu_seconds.lo,
            e.cpu_seconds.hi,
            if hit { "" } else { "  (misses)" }
        );
        near += usize::from(err.abs() <= 0.25);
        covered += usize::from(hit);
        worst = worst.max(err.abs());
        first.get_or_insert(e);
    }
    println!(
        "estimates within 25 %: {near} of {seeds}; intervals covering the run: {covered} of \
         {seeds}; worst error {:.1} %",
        worst * 100.0
    );

    // Shard spreads by the run's measured seconds.
    let tmp = tempfile::tempdir().expect("temp folder");
    let dir = tmp.path();
    let deals: [(&str, Option<ClassCosts>); 3] = [
        ("by board count (default)", None),
        ("by the seed-1 estimate's costs", first.map(|e| e.costs)),
        ("by the run's own costs", Some(replay.costs().clone())),
    ];
    for (i, (name, by)) in deals.into_iter().enumerate() {
        let out = dir.join(format!("deal{i}"));
        let settings = PlanSettings {
            size: run.size(),
            partition: m.partition.clone(),
            threshold: m.threshold,
            switchover: Some(m.switchover),
            scoring: run.scoring(),
            shards,
            costs: by,
        };
        let planned = plan(&out, &dict, &settings).expect("plan");
        let loads: Vec<f64> = (0..shards)
            .map(|k| {
                let shard = planned.shard(k).expect("shard");
                // Every class of a finished run has a cost (Replay::new checked).
                let cost = |id: &u64| replay.costs().get(*id).expect("measured").seconds;
                shard.ids.iter().map(cost).sum()
            })
            .collect();
        let mean = loads.iter().sum::<f64>() / loads.len() as f64;
        let max = loads.iter().cloned().fold(0.0, f64::max);
        let min = loads.iter().cloned().fold(f64::INFINITY, f64::min);
        println!(
            "{shards} shards {name}: min {min:.1}, mean {mean:.1}, max {max:.1} s ({:.2}x the mean)",
            max / mean
        );
    }
}
