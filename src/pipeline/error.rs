//! Errors of the pipeline stages; every one names the file or run it is about.

use crate::format::FormatError;
use std::path::PathBuf;

/// Why a pipeline stage refused to go on.
///
/// The message includes the cause, so causes are fields, not `source()`s: a chain would print
/// the cause twice (`path: cause: cause`).
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// A file could not be read or written.
    #[error("{path}: {err}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        err: std::io::Error,
    },
    /// A framed file failed its header, length or checksum test, or rkyv's validation.
    #[error("{path}: {err}")]
    Format {
        /// The file.
        path: PathBuf,
        /// The cause.
        err: FormatError,
    },
    /// A file is damaged in a way the framing cannot describe (e.g. a journal record).
    #[error("{path}: corrupt: {why}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A file belongs to another run or contradicts the manifest.
    #[error("{path}: {why}")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        why: String,
    },
    /// A journal's header names another run than the one it is read for: it was copied
    /// from another run, or its header is damaged where it names the run (that has no
    /// checksum of its own). `advice` says how to go on without it.
    #[error("{path}: this journal belongs to another run, or its header is damaged{advice}")]
    OtherRun {
        /// The journal.
        path: PathBuf,
        /// How to go on without it, with a leading space (the shard's or the estimate's).
        advice: String,
    },
    /// `plan` was asked to create a run that already exists.
    #[error("{0}: already exists; choose another --out or remove it (nothing was written)")]
    Exists(PathBuf),
    /// Another process is breaking this shard.
    #[error(
        "{0}: shard is locked by another process that is breaking it; nothing was touched \
         (see it with `fuser -v` on the journal or `bogglemax status`; retry once it has \
         exited; pass --skip-locked to leave it to its holder and break the others, or \
         --wait-lock SECONDS to wait for a holder that is dying)"
    )]
    Locked(PathBuf),
    /// A bad argument (shard number out of range, bad settings).
    #[error("{0}")]
    Usage(String),
}

impl PipelineError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, err: std::io::Error) -> PipelineError {
        PipelineError::Io {
            path: path.into(),
            err,
        }
    }
}
