//! The run directory: its manifest (what the run proves, with which word list), its
//! compiled dictionary and its shard files, each checked against the manifest on open.

use super::error::PipelineError;
use crate::board::Size;
use crate::bound::{BreakSettings, ClassSpace, Partition};
use crate::dict::Dictionary;
use crate::format::{self, FileBytes};
use crate::solve::Scoring;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

const MANIFEST_KIND: &[u8; 4] = b"MANI";
const SHARD_KIND: &[u8; 4] = b"SHRD";
const FORMAT_VERSION: u32 = 1;

/// What a run proves and how: everything a later stage needs, fixed at `plan` time.
#[derive(Clone, Debug, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub struct Manifest {
    /// Version of bogglemax that planned the run.
    pub tool_version: String,
    /// Board size, e.g. "4x4".
    pub size: String,
    /// The partition, as given to `plan`.
    pub partition: String,
    /// The score S sought.
    pub threshold: u32,
    /// Branch while the bound is above this, then OrderlyBound.
    pub switchover: u32,
    /// Scoring name (standard, words, pow2).
    pub scoring: String,
    /// Where the word list came from.
    pub wordlist: String,
    /// SHA-256 of the word list's source bytes.
    pub wordlist_sha256: String,
    /// Number of canonical classes, all of which the shards cover exactly once.
    pub classes: u64,
    /// Number of shard files.
    pub shards: u32,
}

impl Manifest {
    /// A fingerprint of the manifest that every other file of the run carries.
    pub fn run_id(&self) -> u64 {
        let text = format!("{self:?}");
        let digest = Sha256::digest(text.as_bytes());
        u64::from_le_bytes(
            digest[..8]
                .try_into()
                .expect("a SHA-256 digest has 32 bytes"),
        )
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
            .parse()
            .expect("validated when the manifest was opened")
    }

    /// The scoring.
    pub fn scoring(&self) -> Scoring {
        self.scoring
            .parse()
            .expect("validated when the manifest was opened")
    }

    /// The class space (size and partition).
    pub fn space(&self) -> ClassSpace {
        let partition = Partition::parse(&self.partition).expect("validated on open");
        ClassSpace::new(self.size(), partition)
    }

    /// The break settings.
    pub fn settings(&self) -> BreakSettings {
        BreakSettings {
            threshold: self.threshold,
            switchover: self.switchover,
        }
    }

    /// The settings as `key: value` lines, for messages and summaries.
    pub fn describe(&self) -> String {
        format!(
            "size: {}\npartition: {}\nscore: {}\nswitchover: {}\nscoring: {}\nwordlist: {} (sha256 {})\nclasses: {}\nshards: {}\nplanned by: bogglemax {}\n",
            self.size,
            self.partition,
            self.threshold,
            self.switchover,
            self.scoring,
            self.wordlist,
            self.wordlist_sha256,
            self.classes,
            self.shards,
            self.tool_version
        )
    }
}

/// The class ids of one shard.
#[derive(Clone, Debug, PartialEq, Eq, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub struct Shard {
    /// The run it belongs to ([`Manifest::run_id`]).
    pub run_id: u64,
    /// Its index.
    pub index: u32,
    /// Canonical class ids, increasing.
    pub ids: Vec<u64>,
}

/// An opened run directory: its manifest, checked.
pub struct RunDir {
    root: PathBuf,
    manifest: Manifest,
}

impl RunDir {
    /// Path of the manifest of a run rooted at `root`.
    pub fn manifest_path(root: &Path) -> PathBuf {
        root.join("manifest.bmx")
    }

    /// Opens a run: reads and validates its manifest.
    pub fn open(root: &Path) -> Result<RunDir, PipelineError> {
        let path = RunDir::manifest_path(root);
        if !root.is_dir() {
            return Err(PipelineError::Usage(format!(
                "{}: no such run directory (create one with `bogglemax plan`)",
                root.display()
            )));
        }
        let manifest: Manifest = read_framed(&path, MANIFEST_KIND)?;
        let bad = |why: String| PipelineError::Corrupt {
            path: path.clone(),
            why,
        };
        manifest
            .size
            .parse::<Size>()
            .map_err(|e| bad(format!("size: {e}")))?;
        manifest
            .scoring
            .parse::<Scoring>()
            .map_err(|e| bad(format!("scoring: {e}")))?;
        Partition::parse(&manifest.partition).map_err(|e| bad(format!("partition: {e}")))?;
        if manifest.shards == 0 {
            return Err(bad("zero shards".into()));
        }
        Ok(RunDir {
            root: root.to_path_buf(),
            manifest,
        })
    }

    /// Creates the files of a new run (the caller made sure `root` did not exist).
    pub(crate) fn create(
        root: &Path,
        manifest: Manifest,
        dict_bytes: &[u8],
        shards: &[Vec<u64>],
    ) -> Result<RunDir, PipelineError> {
        let shard_dir = root.join("shards");
        std::fs::create_dir_all(&shard_dir).map_err(|e| PipelineError::io(&shard_dir, e))?;
        let run = RunDir {
            root: root.to_path_buf(),
            manifest,
        };
        let dict_path = run.dict_path();
        format::write_atomic(&dict_path, dict_bytes)
            .map_err(|e| PipelineError::io(&dict_path, e))?;
        let run_id = run.manifest.run_id();
        for (index, ids) in shards.iter().enumerate() {
            let shard = Shard {
                run_id,
                index: index as u32,
                ids: ids.clone(),
            };
            let path = run.shard_path(index as u32);
            write_framed(&path, SHARD_KIND, &shard)?;
        }
        // The manifest goes last: a run without one is visibly unfinished.
        write_framed(&RunDir::manifest_path(root), MANIFEST_KIND, &run.manifest)?;
        Ok(run)
    }

    /// The run's root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Path of the compiled dictionary.
    pub fn dict_path(&self) -> PathBuf {
        self.root.join("dict.bmx")
    }

    /// Path of shard `k`'s class list.
    pub fn shard_path(&self, k: u32) -> PathBuf {
        self.root.join("shards").join(format!("{k:05}.shard"))
    }

    /// Path of shard `k`'s journal.
    pub fn journal_path(&self, k: u32) -> PathBuf {
        self.root.join("shards").join(format!("{k:05}.journal"))
    }

    /// Loads the run's dictionary and checks it is the word list the manifest names.
    pub fn dictionary(&self) -> Result<Dictionary, PipelineError> {
        let path = self.dict_path();
        let dict = Dictionary::load(Some(&path)).map_err(|e| PipelineError::Corrupt {
            path: path.clone(),
            why: e.to_string(),
        })?;
        if dict.info().sha256 != self.manifest.wordlist_sha256 {
            return Err(PipelineError::Mismatch {
                path,
                why: format!(
                    "word list {} (sha256 {}) is not the run's {} (sha256 {})",
                    dict.info().source,
                    dict.info().sha256,
                    self.manifest.wordlist,
                    self.manifest.wordlist_sha256
                ),
            });
        }
        Ok(dict)
    }

    /// Reads shard `k`, checking that it belongs to this run.
    pub fn shard(&self, k: u32) -> Result<Shard, PipelineError> {
        if k >= self.manifest.shards {
            return Err(PipelineError::Usage(format!(
                "shard {k} does not exist: the run has shards 0 to {}",
                self.manifest.shards - 1
            )));
        }
        let path = self.shard_path(k);
        let shard: Shard = read_framed(&path, SHARD_KIND)?;
        if shard.run_id != self.manifest.run_id() || shard.index != k {
            return Err(PipelineError::Mismatch {
                path,
                why: "this shard file belongs to another run or shard".into(),
            });
        }
        if !shard.ids.windows(2).all(|w| w[0] < w[1]) {
            return Err(PipelineError::Corrupt {
                path,
                why: "class ids are not increasing".into(),
            });
        }
        Ok(shard)
    }
}

fn write_framed<T>(path: &Path, kind: &[u8; 4], value: &T) -> Result<(), PipelineError>
where
    T: for<'a> rkyv::Serialize<
            rkyv::api::high::HighSerializer<
                rkyv::util::AlignedVec,
                rkyv::ser::allocator::ArenaHandle<'a>,
                rkyv::rancor::Error,
            >,
        >,
{
    let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(value)
        .expect("serializing plain strings, numbers and vectors cannot fail");
    let framed = format::frame(kind, FORMAT_VERSION, &bytes);
    format::write_atomic(path, &framed).map_err(|e| PipelineError::io(path, e))
}

fn read_framed<T>(path: &Path, kind: &[u8; 4]) -> Result<T, PipelineError>
where
    T: rkyv::Archive,
    T::Archived: for<'a> rkyv::bytecheck::CheckBytes<rkyv::api::high::HighValidator<'a, rkyv::rancor::Error>>
        + rkyv::Deserialize<T, rkyv::api::high::HighDeserializer<rkyv::rancor::Error>>,
{
    let bytes = FileBytes::map(path).map_err(|e| PipelineError::io(path, e))?;
    let bytes = match bytes {
        FileBytes::Owned(v) => FileBytes::copy_of(&v),
        b => b,
    };
    let range = format::unframe(bytes.as_ref(), kind, FORMAT_VERSION).map_err(|err| {
        PipelineError::Format {
            path: path.to_path_buf(),
            err,
        }
    })?;
    rkyv::from_bytes::<T, rkyv::rancor::Error>(&bytes.as_ref()[range]).map_err(|e| {
        PipelineError::Corrupt {
            path: path.to_path_buf(),
            why: format!("archive does not validate: {e}"),
        }
    })
}
