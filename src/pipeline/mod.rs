//! The proof pipeline on disk: estimate a proof's cost, plan a run, break its shards
//! resumably (checking every candidate as it is found), merge the results, audit them, and
//! show a run's state (`status`, and the snapshot `report` draws).
//!
//! A run directory is self-describing (DESIGN.md, "Stages and their files"):
//! ```text
//! RUN/manifest.bmx        settings, word-list hash, class and shard counts (framed rkyv)
//! RUN/dict.bmx            the compiled dictionary the run uses (framed rkyv, mapped)
//! RUN/shards/NNNNN.shard  the canonical class ids of shard N (framed rkyv, mapped)
//! RUN/shards/NNNNN.journal  append-only, checksummed records of finished classes: their
//!                         figures and results (and, if kept, every candidate, compressed)
//! RUN/estimate.txt        the run's estimate (written by proof.sh before planning, or by
//!                         slurm/submit.sh --from-estimate; optional)
//! RUN/results.csv, RUN/summary.txt   the proof's result (merge)
//! RUN/report.html         a page showing the run at a glance (report; read-only otherwise)
//! ```
//! Shard files and journals carry the run's fingerprint (the manifest's), and the dictionary
//! is checked against the manifest's word-list SHA-256, so a shard or journal copied in from
//! another run, or a dictionary swapped behind the manifest's back, is refused.

mod breakrun;
mod costs;
mod error;
mod estimate;
mod journal;
mod manifest;
mod merge;
mod plan;
mod sampling;
mod snapshot;
mod status;

pub use breakrun::{BreakOptions, BreakReport, break_shard};
pub use costs::{ClassCost, ClassCosts, CostSettings};
pub use error::PipelineError;
pub use estimate::{
    Estimate, EstimateJournal, EstimateSettings, Replay, Sample, SampleSize, SampledClass,
    estimate, slurm_mem, slurm_time,
};
pub use journal::{
    ClassRecord, JournalContents, ShardJournal, read_journal, strays_advice, write_journal,
};
pub use manifest::{Manifest, RunDir, Shard};
pub use merge::{AuditReport, FoundBoard, MergeReport, merge, rescore, verdict};
pub use plan::{PlanSettings, class_space, plan, planned_manifest};
pub use sampling::Interval;
pub use snapshot::{
    ClassFigures, PlannedEstimate, RunSnapshot, SLOWEST_KEPT, ShardSnapshot, ShardState,
    SnapshotOptions,
};
pub use status::{ShardStatus, status};
