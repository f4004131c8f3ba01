//! `status`: how far a run has got, read from its files without disturbing the workers.

use super::error::PipelineError;
use super::journal::read_journal;
use super::manifest::RunDir;
use std::fs::File;

/// The state of one shard.
#[derive(Clone, Debug)]
pub struct ShardStatus {
    /// Shard index.
    pub index: u32,
    /// Classes in the shard.
    pub total: usize,
    /// Classes finished.
    pub done: usize,
    /// Seconds spent on the finished classes.
    pub seconds: f64,
    /// Whether a worker holds the shard's lock right now.
    pub running: bool,
    /// The slowest finished classes: (seconds, class id).
    pub slowest: Vec<(f64, u64)>,
    /// Classes of other shards its journal records (copied or renamed from another shard),
    /// which count for none ([`strays_advice`](super::journal::strays_advice) says what to
    /// do).
    pub strays: usize,
}

impl ShardStatus {
    /// Whether every class of the shard is finished.
    pub fn complete(&self) -> bool {
        self.done == self.total
    }
}

/// Reads the state of every shard.
pub fn status(run: &RunDir) -> Result<Vec<ShardStatus>, PipelineError> {
    let m = run.manifest();
    let mut out = Vec::with_capacity(m.shards as usize);
    for k in 0..m.shards {
        let shard = run.shard(k)?;
        let path = run.journal_path(k);
        let j = read_journal(&path, m.run_id(), run.size())?;
        let running = match File::open(&path) {
            // A worker holds an exclusive lock; a shared one is refused while it does.
            Ok(f) => match f.try_lock_shared() {
                Ok(()) => {
                    let _ = f.unlock();
                    false
                }
                Err(_) => true,
            },
            Err(_) => false,
        };
        let mut finished: Vec<(f64, u64)> = j
            .finished_of(&shard.ids)
            .map(|r| (r.seconds, r.class_id))
            .collect();
        let seconds = finished
            .iter()
            .fold(0.0, |acc, &(seconds, _)| acc + seconds);
        finished.sort_by(|a, b| b.0.total_cmp(&a.0));
        out.push(ShardStatus {
            index: k,
            total: shard.ids.len(),
            done: finished.len(),
            seconds,
            running,
            slowest: finished.into_iter().take(5).collect(),
            strays: j.strays(&shard.ids).count(),
        });
    }
    Ok(out)
}
