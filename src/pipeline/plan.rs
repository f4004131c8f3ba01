//! `plan`: enumerate the canonical classes of a size and partition and spread them over
//! shards of similar cost, then write the run directory.

use super::costs::ClassCosts;
use super::error::PipelineError;
use super::manifest::{Manifest, RunDir};
use crate::board::Size;
use crate::bound::{BreakSettings, ClassSpace, Partition};
use crate::dict::Dictionary;
use crate::solve::Scoring;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::Path;

/// What `plan` needs.
pub struct PlanSettings {
    /// Board size.
    pub size: Size,
    /// Partition text (`SETS[, edge:SETS][, corner:SETS]`).
    pub partition: String,
    /// The score S sought.
    pub threshold: u32,
    /// Switchover bound (default 9/4 × S: [`BreakSettings::with_default_switchover`]).
    pub switchover: Option<u32>,
    /// Scoring.
    pub scoring: Scoring,
    /// Number of shards.
    pub shards: u32,
    /// Per-class costs (an estimate's, or a finished run's): shards are dealt by them so
    /// that they take about the same time. Classes not listed count as the listed mean.
    pub costs: Option<ClassCosts>,
}

/// The most shards a run has: their files are named by five digits, and even a 4x4 proof
/// of a million classes has ten classes a shard at this count (`plan` of a million shards of a
/// 63-class 3x3 proof wrote files for over a minute, saying nothing, until it was stopped).
pub const MAX_SHARDS: u32 = 100_000;

/// Plans a run into `out`, which must not exist yet.
///
/// Hard classes cluster (those with vowel-rich sets next to consonant-rich ones), so ids are
/// not cut into consecutive ranges: they are ranked by an estimate of their cost (the number
/// of boards in the class) and dealt out in a snake order, so every shard gets a similar mix.
pub fn plan(
    out: &Path,
    dict: &Dictionary,
    settings: &PlanSettings,
) -> Result<RunDir, PipelineError> {
    if out.exists() {
        return Err(PipelineError::Exists(out.to_path_buf()));
    }
    let space = class_space(settings.size, &settings.partition)?;
    if settings.shards == 0 || settings.shards > MAX_SHARDS {
        return Err(PipelineError::Usage(format!(
            "--shards must be 1 to {MAX_SHARDS}, not {}",
            settings.shards
        )));
    }
    let ids = space.canonical_ids();
    let shards = match &settings.costs {
        None => deal(&space, &ids, settings.shards as usize),
        Some(costs) => {
            costs
                .check_space(&space)
                .map_err(|e| PipelineError::Usage(format!("--costs: {e}")))?;
            if !ids.iter().any(|&id| costs.get(id).is_some()) {
                return Err(PipelineError::Usage(
                    "--costs: no class of this run has a cost there (a run not yet broken?); \
                     plan without --costs to deal by board counts"
                        .into(),
                ));
            }
            deal_by_costs(&ids, costs, settings.shards as usize)
        }
    };
    let manifest = planned_manifest(dict, settings, ids.len() as u64);
    // Build in a temporary sibling folder and rename it into place, so an interrupted plan
    // leaves no half-made run under the requested name.
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| PipelineError::io(parent, e))?;
    let name = out
        .file_name()
        .ok_or_else(|| PipelineError::Usage(format!("{}: not a folder name", out.display())))?;
    let host = this_host();
    let prefix = format!(
        ".{}.planning-{}-",
        name.to_string_lossy(),
        host.as_deref().unwrap_or("unknown")
    );
    if host.is_some() {
        remove_dead_planning(parent, &prefix);
    }
    let tmp = parent.join(format!("{prefix}{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    // A folder that cannot be made there (no permission, a read-only or special filesystem)
    // is named by the run's name, not the hidden one.
    std::fs::create_dir(&tmp).map_err(|e| match e.kind() {
        // The old one could not be removed (say, an NFS `.nfs` file in it).
        std::io::ErrorKind::AlreadyExists => PipelineError::io(&tmp, e),
        _ => PipelineError::io(out, e),
    })?;
    let made = RunDir::create(&tmp, manifest, &dict.to_compiled(), &shards).and_then(|_| {
        crate::failpoint::point("before-rename");
        std::fs::rename(&tmp, out).map_err(|e| PipelineError::io(out, e))
    });
    if let Err(e) = made {
        // A full disk, say: the half-made folder goes, nothing exists under the name.
        let _ = std::fs::remove_dir_all(&tmp);
        // Or another plan of the same name renamed its folder into place first.
        if RunDir::manifest_path(out).exists() {
            return Err(PipelineError::Exists(out.to_path_buf()));
        }
        return Err(e);
    }
    RunDir::open(out)
}

/// Removes the half-made run folders `prefix` + PID in `parent` whose plan process is gone
/// (killed before its rename: a kill -9, a file size limit), which nothing else would ever
/// remove. `prefix` names this machine ([`this_host`]), so a folder of a plan on another
/// machine sharing the filesystem is never taken; a folder of another user (whose processes
/// /proc may hide) is left too, as is every folder where /proc does not list processes.
fn remove_dead_planning(parent: &Path, prefix: &str) {
    use std::os::unix::fs::MetadataExt;
    let proc = Path::new("/proc");
    let Some(uid) = this_uid() else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(prefix)) else {
            continue;
        };
        let mine = entry.metadata().is_ok_and(|m| m.is_dir() && m.uid() == uid);
        if mine && pid.parse::<u32>().is_ok() && !proc.join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// This machine's name as a folder name may hold it (other characters become `_`), or
/// `None` where the kernel does not say it.
fn this_host() -> Option<String> {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").ok()?;
    let name: String = name
        .trim()
        .chars()
        .map(|c| match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '.' | '-' => c,
            _ => '_',
        })
        .collect();
    (!name.is_empty()).then_some(name)
}

/// This process's effective user id, from /proc (`None` where /proc does not say).
fn this_uid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("Uid:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The class space of a size and partition (the partition text as `plan` takes it), refused
/// with a usage error if the partition is malformed or the board too big to break.
pub fn class_space(size: Size, partition: &str) -> Result<ClassSpace, PipelineError> {
    class_space_with(size, partition, Partition::parse)
}

/// [`class_space`] of a partition as a run or the user recorded it earlier
/// ([`Partition::parse_recorded`]: a bucket may name a letter twice, as old runs' do).
pub(crate) fn recorded_class_space(
    size: Size,
    partition: &str,
) -> Result<ClassSpace, PipelineError> {
    class_space_with(size, partition, Partition::parse_recorded)
}

fn class_space_with(
    size: Size,
    partition: &str,
    parse: fn(&str) -> Result<Partition, crate::bound::ClassError>,
) -> Result<ClassSpace, PipelineError> {
    if size.cells() > crate::bound::MAX_TREE_CELLS {
        return Err(PipelineError::Usage(format!(
            "size {size}: class breaking handles at most {} cells",
            crate::bound::MAX_TREE_CELLS
        )));
    }
    let partition =
        parse(partition).map_err(|e| PipelineError::Usage(format!("--partition: {e}")))?;
    let space = ClassSpace::new(size, partition)
        .map_err(|e| PipelineError::Usage(format!("--partition: {e}")))?;
    if space.count() > MAX_CLASS_IDS {
        return Err(PipelineError::Usage(format!(
            "--partition: a {size} board has {} class ids under it, more than the {} that \
             plan and estimate go through; use fewer buckets",
            space.count(),
            MAX_CLASS_IDS
        )));
    }
    Ok(space)
}

/// The most class ids (canonical or not) of a space that `plan` and `estimate` take: they
/// visit every id to find the canonical ones, so a space far beyond any proof would keep
/// them busy for days (the 4x4 default partition has 531,441 ids, a 5x5 one of two buckets
/// 33.6 million).
pub const MAX_CLASS_IDS: u64 = 1 << 32;

/// The manifest `plan` writes for these settings and word list.
pub fn planned_manifest(dict: &Dictionary, settings: &PlanSettings, classes: u64) -> Manifest {
    Manifest {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        size: settings.size.to_string(),
        partition: settings.partition.clone(),
        threshold: settings.threshold,
        switchover: BreakSettings::with_switchover(settings.threshold, settings.switchover)
            .switchover,
        scoring: settings.scoring.to_string(),
        wordlist: dict.info().source.clone(),
        wordlist_sha256: dict.info().sha256.clone(),
        classes,
        shards: settings.shards,
    }
}

/// Deals `ids` into `n` shards: ranked by estimated cost, snake order, each shard sorted.
fn deal(space: &ClassSpace, ids: &[u64], n: usize) -> Vec<Vec<u64>> {
    let mut ranked: Vec<(u128, u64)> = ids
        .iter()
        .map(|&id| {
            let cost = space.class(id).map(|c| c.board_count()).unwrap_or(0);
            (cost, id)
        })
        .collect();
    ranked.sort_unstable_by(|a, b| b.cmp(a));
    let mut shards = vec![Vec::new(); n];
    for (i, &(_, id)) in ranked.iter().enumerate() {
        let round = i / n;
        let k = if round.is_multiple_of(2) {
            i % n
        } else {
            n - 1 - i % n
        };
        shards[k].push(id);
    }
    for s in &mut shards {
        s.sort_unstable();
    }
    shards
}

/// Deals `ids` into `n` shards by cost: the costliest class first, each onto the shard with
/// the least cost so far (longest processing time first; the slowest shard is within 4/3 of
/// the best possible). Each shard sorted.
fn deal_by_costs(ids: &[u64], costs: &ClassCosts, n: usize) -> Vec<Vec<u64>> {
    let listed: Vec<f64> = ids
        .iter()
        .filter_map(|&id| costs.get(id).map(|c| c.seconds))
        .collect();
    let fallback = if listed.is_empty() {
        1.0
    } else {
        listed.iter().sum::<f64>() / listed.len() as f64
    };
    let mut ranked: Vec<(f64, u64)> = ids
        .iter()
        .map(|&id| (costs.get(id).map_or(fallback, |c| c.seconds), id))
        .collect();
    ranked.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    // Loads in microseconds (at least 1 a class), so the heap orders integers; among equal
    // loads the shard with fewer classes comes first, then the lower index.
    let mut heap: BinaryHeap<Reverse<(u64, usize, usize)>> =
        (0..n).map(|k| Reverse((0, 0, k))).collect();
    let mut shards = vec![Vec::new(); n];
    for (cost, id) in ranked {
        // The heap holds all n shards at every step (one popped, one pushed).
        let Reverse((load, count, k)) = heap.pop().expect("n > 0 shards");
        shards[k].push(id);
        heap.push(Reverse((load + ((cost * 1e6) as u64).max(1), count + 1, k)));
    }
    for s in &mut shards {
        s.sort_unstable();
    }
    shards
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::ClassCost;

    /// A space too big to go through is refused before any work.
    #[test]
    fn spaces_too_big_to_enumerate_are_refused() {
        let size: Size = "5x5".parse().unwrap();
        assert!(class_space(size, "aeiosuy bcdfghjklmnpqrtvwxz").is_ok());
        // A bucket naming a letter twice: refused as a flag, read as an old run recorded it.
        assert!(class_space(size, "aaeiosuy bcdfghjklmnpqrtvwxz").is_err());
        assert_eq!(
            recorded_class_space(size, "aaeiosuy bcdfghjklmnpqrtvwxz")
                .unwrap()
                .count(),
            class_space(size, "aeiosuy bcdfghjklmnpqrtvwxz")
                .unwrap()
                .count()
        );
        let err = class_space(size, "aeijou bcdfgmpqvwxz hklnrsty")
            .unwrap_err()
            .to_string();
        assert!(err.contains("847288609443 class ids"), "{err}");
        let err = class_space(size, "aei ou bcdfg hjklm npqrs tvwxyz")
            .unwrap_err()
            .to_string();
        assert!(err.contains("more than 2^64"), "{err}");
    }

    #[test]
    fn dealing_by_costs_balances_a_heavy_tail() {
        // 1,000 classes: most cost 1, every 50th costs 100.
        let ids: Vec<u64> = (0..1000).collect();
        let costs = ClassCosts::new(
            ids.iter()
                .map(|&id| ClassCost {
                    class_id: id,
                    seconds: if id % 50 == 0 { 100.0 } else { 1.0 },
                    nodes: 0,
                    measured: true,
                })
                .collect(),
        );
        let shards = deal_by_costs(&ids, &costs, 10);
        // Classes of no measurable cost are spread too, not piled onto one shard.
        let free = ClassCosts::new(
            ids.iter()
                .map(|&id| ClassCost {
                    class_id: id,
                    seconds: 0.0,
                    nodes: 0,
                    measured: true,
                })
                .collect(),
        );
        let spread = deal_by_costs(&ids, &free, 10);
        assert!(spread.iter().all(|s| s.len() == 100), "even counts");
        let loads: Vec<f64> = shards
            .iter()
            .map(|s| s.iter().map(|&id| costs.get(id).unwrap().seconds).sum())
            .collect();
        let mean = loads.iter().sum::<f64>() / 10.0;
        let max = loads.iter().cloned().fold(0.0, f64::max);
        assert!(max / mean < 1.02, "{loads:?}");
        let mut all: Vec<u64> = shards.concat();
        all.sort_unstable();
        assert_eq!(all, ids, "every class exactly once");
    }
}
