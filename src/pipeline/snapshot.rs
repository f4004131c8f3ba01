//! A read-only snapshot of a run, finished or in progress, for `report`: every shard's state,
//! every finished class's cost, the results so far, and the run's estimate if it has one.
//!
//! Taking it never locks a file nor writes one, so it cannot block or disturb a worker: each
//! journal is read once, and a record a worker is appending at that moment reads as torn and
//! is left out (the snapshot is then the journal as it was before that record). Whether a
//! worker holds a shard is read from the kernel's lock table (`/proc/locks`), which lists the
//! locks of this machine only; a shard on a shared file system broken on another machine
//! counts as running while its journal was written to recently (see [`SnapshotOptions`]).
//!
//! The window applies on a local disk too, though a worker there that died shows as running
//! for its length: the lock table cannot be trusted to list every live worker even there.
//! It hides the locks of processes in other PID namespaces (a worker in a container, the
//! report on the host), and a worker that starts while the snapshot is taken locks its
//! journal after the table was read. (Tried and reverted on 2026-12-06.)

use super::error::PipelineError;
use super::journal::read_journal;
use super::manifest::{Manifest, RunDir};
use super::merge::{BestBoards, FoundBoard};
use crate::board::Size;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// How many of the slowest classes a snapshot keeps.
pub const SLOWEST_KEPT: usize = 20;

/// How a snapshot decides that a shard no worker of this machine locks is still running.
#[derive(Clone, Copy, Debug)]
pub struct SnapshotOptions {
    /// A started shard whose journal was written to this recently counts as running.
    pub active_within: Duration,
}

impl Default for SnapshotOptions {
    fn default() -> SnapshotOptions {
        SnapshotOptions {
            active_within: Duration::from_secs(15 * 60),
        }
    }
}

/// What one shard is doing.
#[derive(Clone, Debug, PartialEq)]
pub enum ShardState {
    /// Every class is finished.
    Complete,
    /// A worker of this machine holds the shard's lock.
    Locked,
    /// No lock seen here, but its journal was written to within the active window: a worker
    /// on another machine, most likely.
    RecentlyWritten,
    /// Never started: no journal.
    Pending,
    /// Started and unfinished, no lock seen, and not written to within the active window:
    /// its worker failed, was killed or hit a time limit. Break it again to resume.
    Stopped,
    /// Its journal or shard file cannot be read; the reason.
    Unreadable(String),
}

impl ShardState {
    /// One word for the state: complete, running, pending, failed or unreadable (also the
    /// report page's CSS class for its colour).
    pub fn word(&self) -> &'static str {
        match self {
            ShardState::Complete => "complete",
            ShardState::Locked | ShardState::RecentlyWritten => "running",
            ShardState::Pending => "pending",
            ShardState::Stopped => "failed",
            ShardState::Unreadable(_) => "unreadable",
        }
    }
}

/// One shard in a snapshot.
#[derive(Clone, Debug)]
pub struct ShardSnapshot {
    /// Shard index.
    pub index: u32,
    /// Classes in the shard (0 if its file is unreadable).
    pub classes: usize,
    /// Classes finished.
    pub done: usize,
    /// CPU seconds of the finished classes.
    pub seconds: f64,
    /// What it is doing.
    pub state: ShardState,
    /// When its journal was last written to, if it has one.
    pub last_write: Option<SystemTime>,
}

/// The figures of one finished class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassFigures {
    /// Canonical class id.
    pub class_id: u64,
    /// The shard that holds it.
    pub shard: u32,
    /// CPU seconds.
    pub seconds: f64,
    /// Peak bytes of its tree.
    pub peak_bytes: u64,
    /// DeMulti candidates found and checked.
    pub candidates: u64,
}

/// A run's estimate (`RUN/estimate.txt`, written by `proof.sh` before planning, or by
/// `scripts/slurm/submit.sh --from-estimate`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannedEstimate {
    /// Classes the estimate was made for.
    pub classes: u64,
    /// Estimated CPU seconds of the whole run.
    pub cpu_seconds: f64,
    /// Its 90 % interval.
    pub cpu_seconds_90: (f64, f64),
}

impl PlannedEstimate {
    /// Reads the `key: value` lines of `bogglemax estimate`; `None` if a figure is missing.
    pub fn parse(text: &str) -> Option<PlannedEstimate> {
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(": "))
                .map(str::trim)
        };
        let classes = field("classes")?.parse().ok()?;
        let cpu_seconds: f64 = field("cpu_seconds")?.parse().ok()?;
        let mut interval = field("cpu_seconds_90")?.split_whitespace();
        let lo: f64 = interval.next()?.parse().ok()?;
        let hi: f64 = interval.next()?.parse().ok()?;
        (cpu_seconds.is_finite() && lo.is_finite() && hi.is_finite()).then_some(PlannedEstimate {
            classes,
            cpu_seconds,
            cpu_seconds_90: (lo, hi),
        })
    }
}

/// Everything `report` shows, read from a run at one moment.
#[derive(Clone, Debug)]
pub struct RunSnapshot {
    /// The run's settings.
    pub manifest: Manifest,
    /// The run's board size (from its manifest).
    pub size: Size,
    /// How the shards' states were decided.
    pub options: SnapshotOptions,
    /// Every shard, by index.
    pub shards: Vec<ShardSnapshot>,
    /// CPU seconds of every finished class (for the distribution of costs).
    pub class_seconds: Vec<f32>,
    /// The slowest finished classes, slowest first (at most [`SLOWEST_KEPT`]).
    pub slowest: Vec<ClassFigures>,
    /// The boards with Score ≥ S found so far: canonical, each once, best first.
    pub results: Vec<FoundBoard>,
    /// DeMulti candidates checked so far.
    pub candidates: u64,
    /// Wall seconds spent checking them ([`super::ClassRecord::check_seconds`]).
    pub check_seconds: f64,
    /// The largest peak tree bytes of any finished class.
    pub peak_bytes: u64,
    /// The estimate the run was planned by, if `RUN/estimate.txt` exists and reads.
    pub estimate: Option<PlannedEstimate>,
    /// When the snapshot was taken.
    pub taken_at: SystemTime,
}

impl RunSnapshot {
    /// Reads a snapshot of `run`, taking no lock and writing nothing.
    pub fn read(run: &RunDir, options: SnapshotOptions) -> Result<RunSnapshot, PipelineError> {
        let m = run.manifest().clone();
        let taken_at = SystemTime::now();
        let locked = locked_inodes();
        let mut best = BestBoards::new(run.size(), m.threshold);
        let mut snapshot = RunSnapshot {
            shards: Vec::with_capacity(m.shards as usize),
            class_seconds: Vec::new(),
            slowest: Vec::new(),
            results: Vec::new(),
            candidates: 0,
            check_seconds: 0.0,
            peak_bytes: 0,
            estimate: std::fs::read_to_string(run.root().join("estimate.txt"))
                .ok()
                .and_then(|t| PlannedEstimate::parse(&t)),
            taken_at,
            manifest: m,
            size: run.size(),
            options,
        };
        let m = &snapshot.manifest;
        for k in 0..m.shards {
            let path = run.journal_path(k);
            let last_write = std::fs::metadata(&path).and_then(|md| md.modified()).ok();
            let mut shard = ShardSnapshot {
                index: k,
                classes: 0,
                done: 0,
                seconds: 0.0,
                state: ShardState::Pending,
                last_write,
            };
            let read = run.shard(k).and_then(|ids| {
                let journal = read_journal(&path, m.run_id(), snapshot.size)?;
                Ok((ids, journal))
            });
            let (ids, journal) = match read {
                Ok(both) => both,
                Err(e) => {
                    shard.state = ShardState::Unreadable(e.to_string());
                    snapshot.shards.push(shard);
                    continue;
                }
            };
            shard.classes = ids.ids.len();
            for rec in journal.finished_of(&ids.ids) {
                shard.done += 1;
                shard.seconds += rec.seconds;
                snapshot.class_seconds.push(rec.seconds as f32);
                snapshot.candidates += rec.demulti_count;
                snapshot.check_seconds += rec.check_seconds;
                snapshot.peak_bytes = snapshot.peak_bytes.max(rec.peak_bytes);
                keep_slowest(
                    &mut snapshot.slowest,
                    ClassFigures {
                        class_id: rec.class_id,
                        shard: k,
                        seconds: rec.seconds,
                        peak_bytes: rec.peak_bytes,
                        candidates: rec.demulti_count,
                    },
                );
                best.add(rec);
            }
            let started = last_write.is_some();
            let is_locked = locked_inode_of(&path).is_some_and(|key| locked.contains(&key));
            let recent = last_write.is_some_and(|t| {
                taken_at
                    .duration_since(t)
                    .map_or(true, |age| age <= options.active_within)
            });
            shard.state = if shard.done == shard.classes {
                ShardState::Complete
            } else if is_locked {
                ShardState::Locked
            } else if !started {
                ShardState::Pending
            } else if recent {
                ShardState::RecentlyWritten
            } else {
                ShardState::Stopped
            };
            snapshot.shards.push(shard);
        }
        snapshot.results = best.into_sorted();
        Ok(snapshot)
    }

    /// Classes finished, and classes in all.
    pub fn classes_done(&self) -> (u64, u64) {
        let done = self.shards.iter().map(|s| s.done as u64).sum();
        (done, self.manifest.classes)
    }

    /// CPU seconds of the finished classes.
    pub fn cpu_seconds(&self) -> f64 {
        self.shards.iter().map(|s| s.seconds).sum()
    }

    /// Whether every shard is complete (the proof may still fail `merge`'s coverage check).
    pub fn all_shards_complete(&self) -> bool {
        self.shards.iter().all(|s| s.state == ShardState::Complete)
    }

    /// The shards whose files could not be read: each one's index and why.
    pub fn unreadable(&self) -> impl Iterator<Item = (u32, &str)> {
        self.shards.iter().filter_map(|x| match &x.state {
            ShardState::Unreadable(why) => Some((x.index, why.as_str())),
            _ => None,
        })
    }

    /// Shards in each state word: (complete, running, pending, failed, unreadable).
    pub fn shard_counts(&self) -> [usize; 5] {
        let mut n = [0; 5];
        for s in &self.shards {
            let i = match s.state {
                ShardState::Complete => 0,
                ShardState::Locked | ShardState::RecentlyWritten => 1,
                ShardState::Pending => 2,
                ShardState::Stopped => 3,
                ShardState::Unreadable(_) => 4,
            };
            n[i] += 1;
        }
        n
    }
}

#[cfg(test)]
impl RunSnapshot {
    /// A snapshot of a one-shard run of `classes` classes, `done` of them finished, costing
    /// 1 s and 3 s in turn.
    pub(crate) fn synthetic(classes: u64, done: usize) -> RunSnapshot {
        let class_seconds: Vec<f32> = (0..done).map(|i| [1.0, 3.0][i % 2]).collect();
        RunSnapshot {
            manifest: Manifest {
                tool_version: "test".into(),
                size: "3x3".into(),
                partition: "aeiosuy bcdfghjklmnpqrtvwxz".into(),
                threshold: 500,
                switchover: 1000,
                scoring: "standard".into(),
                wordlist: "enable2k".into(),
                wordlist_sha256: String::new(),
                classes,
                shards: 1,
            },
            size: Size::new(3, 3).expect("3x3 is a size"),
            options: SnapshotOptions::default(),
            shards: vec![ShardSnapshot {
                index: 0,
                classes: classes as usize,
                done,
                seconds: class_seconds.iter().map(|&s| s as f64).sum(),
                state: ShardState::Locked,
                last_write: None,
            }],
            class_seconds,
            slowest: Vec::new(),
            results: Vec::new(),
            candidates: 0,
            check_seconds: 0.0,
            peak_bytes: 0,
            estimate: None,
            taken_at: SystemTime::UNIX_EPOCH,
        }
    }
}

/// Keeps `slowest` the [`SLOWEST_KEPT`] slowest classes seen, slowest first (ties by id).
fn keep_slowest(slowest: &mut Vec<ClassFigures>, c: ClassFigures) {
    let before = |a: &ClassFigures, b: &ClassFigures| {
        b.seconds
            .total_cmp(&a.seconds)
            .then(a.class_id.cmp(&b.class_id))
    };
    if slowest.len() == SLOWEST_KEPT
        && before(&c, slowest.last().expect("SLOWEST_KEPT > 0")).is_ge()
    {
        return;
    }
    let at = slowest.partition_point(|x| before(x, &c).is_lt());
    slowest.insert(at, c);
    slowest.truncate(SLOWEST_KEPT);
}

/// A file's key in the kernel's lock table: its inode number.
///
/// `/proc/locks` names a file by the device of its file system and its inode, but that
/// device is not always the one `stat` reports (btrfs subvolumes, overlayfs), so only the
/// inode is compared: a lock on another file system's file of the same inode number could
/// make an idle shard look running, never a running one look idle.
type LockKey = u64;

/// The key of `path` in `/proc/locks`, where it can have one.
#[cfg(unix)]
fn locked_inode_of(path: &Path) -> Option<LockKey> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|md| md.ino())
}

#[cfg(not(unix))]
fn locked_inode_of(_path: &Path) -> Option<LockKey> {
    None
}

/// The files that processes of this machine hold exclusive locks on, read from `/proc/locks`
/// (empty where there is none). Reading it takes no lock.
fn locked_inodes() -> Vec<LockKey> {
    std::fs::read_to_string("/proc/locks")
        .map(|t| parse_proc_locks(&t))
        .unwrap_or_default()
}

/// The inode of each exclusive (`WRITE`) lock held in `/proc/locks`, e.g.
/// `1: FLOCK  ADVISORY  WRITE 19433 fe:00:5374046 0 EOF`. Shared (`READ`) locks, such as the
/// one `status` takes for an instant, are no worker's; a blocked waiter's line (marked `->`)
/// holds nothing.
fn parse_proc_locks(text: &str) -> Vec<LockKey> {
    text.lines()
        .filter(|line| !line.contains("->"))
        .filter(|line| line.split_whitespace().any(|w| w == "WRITE"))
        .filter_map(|line| {
            let id = line
                .split_whitespace()
                .find(|w| w.matches(':').count() == 2)?;
            id.rsplit(':').next()?.parse().ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_locks_lines_name_their_files() {
        let text = "1: FLOCK  ADVISORY  WRITE 19433 fe:00:5374046 0 EOF\n\
                    1: -> FLOCK  ADVISORY  WRITE 19500 fe:00:5374047 0 EOF\n\
                    2: POSIX  ADVISORY  READ 812 00:1a:77 0 EOF\n\
                    3: FLOCK  ADVISORY  WRITE 901 00:2b:88 0 EOF\n";
        assert_eq!(parse_proc_locks(text), vec![5374046, 88]);
    }

    /// A file this process locks is found in the lock table; unlocked, it is gone.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_held_lock_is_seen_without_taking_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let f = std::fs::File::create(&path).unwrap();
        let key = locked_inode_of(&path).unwrap();
        assert!(!locked_inodes().contains(&key));
        f.lock().unwrap();
        assert!(locked_inodes().contains(&key));
        f.unlock().unwrap();
        assert!(!locked_inodes().contains(&key));
    }

    #[test]
    fn slowest_classes_stay_sorted_and_bounded() {
        let mut slowest = Vec::new();
        for id in 0..100u64 {
            let seconds = ((id * 37) % 100) as f64;
            keep_slowest(
                &mut slowest,
                ClassFigures {
                    class_id: id,
                    shard: 0,
                    seconds,
                    peak_bytes: 0,
                    candidates: 0,
                },
            );
        }
        let got: Vec<f64> = slowest.iter().map(|c| c.seconds).collect();
        let want: Vec<f64> = (80..100).rev().map(|s| s as f64).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn estimates_read_from_their_report() {
        let text = "classes: 1068363\nsampled: 43\ncpu_seconds: 4097983.0\n\
                    cpu_seconds_90: 3434456.0 4789019.7\ncpu_hours: 1138\n";
        let e = PlannedEstimate::parse(text).unwrap();
        assert_eq!(e.classes, 1068363);
        assert_eq!(e.cpu_seconds_90, (3434456.0, 4789019.7));
        assert_eq!(PlannedEstimate::parse("classes: 3\n"), None);
        assert_eq!(
            PlannedEstimate::parse("classes: 3\ncpu_seconds: inf\ncpu_seconds_90: 1 inf\n"),
            None
        );
    }
}
