//! The run directory: its manifest (what the run proves, with which word list), its
//! compiled dictionary and its shard files, each checked against the manifest on open.

use super::error::PipelineError;
use crate::board::Size;
use crate::bound::{BreakSettings, ClassSpace, Partition};
use crate::dict::{DictError, Dictionary};
use crate::format::{self, FileBytes};
use crate::solve::Scoring;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

const MANIFEST_KIND: &[u8; 4] = b"MANI";
const SHARD_KIND: &[u8; 4] = b"SHRD";
/// Version of the run format: the manifest and shard files, and what a run's journal
/// records mean (a journal's byte layout has its own magic, in journal.rs). A run planned
/// under another version is refused by name. 2: journals hold checked results, not
/// candidates (2026-11-25). 3: each class gets its own cell order, so a journaled top-split
/// unit (a letter of the class's top cell) may name another cell than under 2 (2026-11-28);
/// the test `the_top_cell_rule_is_part_of_the_run_format` fails when the top cells change.
const FORMAT_VERSION: u32 = 3;

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
    /// The scoring as [`Scoring`]'s `Display` writes it: standard, words, pow2, fibonacci,
    /// boojum, or a table of the user's own in its one-line `table:` form.
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
    /// A fingerprint of what the run proves, which every other file of the run carries: the
    /// SHA-256 of a fixed encoding of every setting (the label `bogglemax run`, then each
    /// field in declaration order, each of the label and the fields as its length, u64 LE,
    /// then its bytes; the hash's first 8 bytes as u64 LE), without the tool version, so
    /// that a compatible version of bogglemax resumes a run that another planned.
    pub fn run_id(&self) -> u64 {
        fingerprint(&[
            b"bogglemax run",
            self.size.as_bytes(),
            self.partition.as_bytes(),
            &self.threshold.to_le_bytes(),
            &self.switchover.to_le_bytes(),
            self.scoring.as_bytes(),
            self.wordlist.as_bytes(),
            self.wordlist_sha256.as_bytes(),
            &self.classes.to_le_bytes(),
            &self.shards.to_le_bytes(),
        ])
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

/// The first 8 bytes, as u64 LE, of the SHA-256 of `fields` in order, each as its length (u64
/// LE) then its bytes: the id a file carries of the settings it belongs to.
pub(super) fn fingerprint(fields: &[&[u8]]) -> u64 {
    let mut hash = Sha256::new();
    for field in fields {
        hash.update((field.len() as u64).to_le_bytes());
        hash.update(field);
    }
    let digest = hash.finalize();
    u64::from_le_bytes(
        digest[..8]
            .try_into()
            .expect("a SHA-256 digest has 32 bytes"),
    )
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

/// An opened run directory: its manifest, checked, and the settings parsed from it.
pub struct RunDir {
    root: PathBuf,
    manifest: Manifest,
    /// The manifest's size and partition.
    space: ClassSpace,
    /// The manifest's scoring.
    scoring: Scoring,
}

impl RunDir {
    /// Path of the manifest of a run rooted at `root`.
    pub fn manifest_path(root: &Path) -> PathBuf {
        root.join("manifest.bmx")
    }

    /// Opens a run: reads and validates its manifest.
    pub fn open(root: &Path) -> Result<RunDir, PipelineError> {
        let path = RunDir::manifest_path(root);
        if root.exists() && !root.is_dir() {
            return Err(PipelineError::Usage(format!(
                "{}: not a run directory (give the folder that holds manifest.bmx)",
                root.display()
            )));
        }
        if !root.is_dir() {
            return Err(PipelineError::Usage(format!(
                "{}: no such run directory (create one with `bogglemax plan`)",
                root.display()
            )));
        }
        let looks_planned = root.join("shards").is_dir() || root.join("dict.bmx").exists();
        // Only a manifest known to be absent: one that cannot be looked at (permissions) is
        // named by the error of reading it, below, as is a run that lost its manifest.
        let absent = matches!(path.try_exists(), Ok(false));
        if absent && !looks_planned {
            // A folder inside a run (its shards/) or beside one, most likely.
            let parent = match root.parent() {
                Some(p) if p.as_os_str().is_empty() => Some(Path::new(".")),
                p => p,
            };
            let parent = parent.filter(|p| RunDir::manifest_path(p).is_file());
            return Err(PipelineError::Usage(match parent {
                Some(p) => format!(
                    "{}: not a run directory (no manifest.bmx); the run is {}",
                    root.display(),
                    p.display()
                ),
                None => format!(
                    "{}: not a run directory (no manifest.bmx; give the folder `bogglemax \
                     plan --out` made)",
                    root.display()
                ),
            }));
        }
        let manifest: Manifest = read_framed(&path, MANIFEST_KIND).map_err(|e| match e {
            PipelineError::Format {
                path,
                err: format::FormatError::WrongVersion { got, expected },
            } => PipelineError::Mismatch {
                path,
                why: format!(
                    "planned by a bogglemax of run format {got}; this one reads run format \
                     {expected}: finish the run with the version that planned it, or plan it again"
                ),
            },
            e => e,
        })?;
        RunDir::checked(root, manifest).map_err(|why| PipelineError::Corrupt { path, why })
    }

    /// A run at `root` with `manifest`, once its recorded settings parse: the size, scoring
    /// and partition as the run recorded them (an older run's partition may name a letter
    /// twice in a bucket, which `plan` now refuses), and at least one shard.
    fn checked(root: &Path, manifest: Manifest) -> Result<RunDir, String> {
        let size = manifest
            .size
            .parse::<Size>()
            .map_err(|e| format!("size: {e}"))?;
        let scoring =
            Scoring::from_recorded(&manifest.scoring).map_err(|e| format!("scoring: {e}"))?;
        let partition = Partition::parse_recorded(&manifest.partition)
            .map_err(|e| format!("partition: {e}"))?;
        let space = ClassSpace::new(size, partition).map_err(|e| format!("partition: {e}"))?;
        if manifest.shards == 0 {
            return Err("zero shards".into());
        }
        Ok(RunDir {
            root: root.to_path_buf(),
            manifest,
            space,
            scoring,
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
        let run = RunDir::checked(root, manifest).map_err(|why| {
            PipelineError::Usage(format!("cannot plan a run with these settings: {why}"))
        })?;
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

    /// The board size.
    pub fn size(&self) -> Size {
        self.space.size()
    }

    /// The scoring.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The class space (size and partition).
    pub fn space(&self) -> &ClassSpace {
        &self.space
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
        // The dictionary's own errors name the path: keep only their cause.
        let dict = Dictionary::load_mapped(&path).map_err(|e| match e {
            DictError::Io { err, .. } => PipelineError::io(&path, err),
            DictError::Format { err, .. } => PipelineError::Format {
                path: path.clone(),
                err,
            },
            DictError::NotText { .. } | DictError::Empty { .. } => PipelineError::Corrupt {
                path: path.clone(),
                why: "not a compiled dictionary".into(),
            },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{PlanSettings, plan};

    /// A journaled top-split record names a letter of the class's top cell, not the cell: a
    /// run resumed under a breaker that puts another cell on top would take the record for a
    /// letter of that cell and skip boards it never broke. So which cell goes on top is part
    /// of the run format: when this digest of the top cells of classes of every size and
    /// partition kind changes, FORMAT_VERSION must change with it (runs of the old rule are
    /// then refused by name), and the pair below be updated.
    #[test]
    fn the_top_cell_rule_is_part_of_the_run_format() {
        const TOP_CELLS_OF_FORMAT: (u32, u64) = (3, 0xab56_bd4b_5914_9483);
        let dict = Dictionary::enable2k();
        let default = "aeijou bcdfgmpqvwxz hklnrsty, corner:abcdefghijklmnopqrstuvwxyz";
        let merged = "aeijou bcdfgmpqvwxz hklnrsty, edge:aeijou bcdfghklmnpqrstvwxyz, \
                      corner:abcdefghijklmnopqrstuvwxyz";
        let mut tops = Vec::new();
        for (size, partition) in [
            ("3x3", default),
            ("3x4", default),
            ("4x4", default),
            ("4x4", merged),
            ("4x4", "aeiosuy bcdfghjklmnpqrtvwxz"),
            ("5x5", default),
        ] {
            let size: Size = size.parse().unwrap();
            let space = ClassSpace::new(size, Partition::parse(partition).unwrap()).unwrap();
            let breaker =
                crate::bound::ClassBreaker::new(dict.trie(), size, crate::solve::Scoring::Standard);
            // 400 ids spread over the space, the first and last among them.
            let step = (space.count() / 400).max(1);
            for id in (0..space.count()).step_by(step as usize) {
                let class = space.class(id).unwrap();
                tops.push(breaker.order_for(&class).cell(0) as u8);
            }
        }
        // The rule picks among several cells, so the digest is a fingerprint of a choice.
        let mut distinct = tops.clone();
        distinct.sort();
        distinct.dedup();
        assert!(distinct.len() >= 4, "top cells {distinct:?}");
        let digest = fingerprint(&[&tops]);
        assert_eq!(
            (FORMAT_VERSION, digest),
            TOP_CELLS_OF_FORMAT,
            "the breaker's top cells changed: bump FORMAT_VERSION and set this pair to \
             (FORMAT_VERSION, {digest:#x})"
        );
    }

    fn manifest() -> Manifest {
        Manifest {
            tool_version: "0.1.0".into(),
            size: "3x3".into(),
            partition: "aeiou bcdfghjklmnpqrstvwxyz".into(),
            threshold: 500,
            switchover: 1000,
            scoring: "standard".into(),
            wordlist: "enable2k (built-in)".into(),
            wordlist_sha256: "f1e9".into(),
            classes: 102,
            shards: 16,
        }
    }

    /// The run id is a fixed encoding's hash: pinned, so that a change of encoding (which
    /// would orphan every journal of every run) cannot pass unnoticed; the tool version is
    /// not part of it, every setting is. The pinned value was computed apart from this code,
    /// from the encoding [`Manifest::run_id`] documents, with Python's `hashlib`:
    /// `sha256(b"".join(struct.pack("<Q", len(f)) + f for f in fields)).digest()[:8]` read
    /// as u64 LE, the u32 and u64 fields packed LE.
    #[test]
    fn run_id_is_stable_and_ignores_the_tool_version() {
        let m = manifest();
        assert_eq!(m.run_id(), 0x8312_0ae2_2c8a_e6a3, "{:#x}", m.run_id());
        let newer = Manifest {
            tool_version: "0.2.0".into(),
            ..m.clone()
        };
        assert_eq!(newer.run_id(), m.run_id());
        for other in [
            Manifest {
                threshold: 501,
                ..m.clone()
            },
            Manifest {
                partition: "aeiou bcdfghjklmnpqrstvwxy z".into(),
                ..m.clone()
            },
            Manifest {
                shards: 17,
                ..m.clone()
            },
        ] {
            assert_ne!(other.run_id(), m.run_id());
        }
    }

    /// A run planned by another version of bogglemax with the same run format resumes; one
    /// of another run format is refused, saying so.
    #[test]
    fn compatible_versions_resume_and_other_run_formats_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let dict = Dictionary::from_text("words", b"tea\neat\nate\nrate\ntear\n");
        let settings = PlanSettings {
            size: "2x2".parse().unwrap(),
            partition: "aeiou bcdfghjklmnpqrstvwxyz".into(),
            threshold: 2,
            switchover: None,
            scoring: Scoring::Standard,
            shards: 2,
            costs: None,
        };
        let root = dir.path().join("run");
        let run = plan(&root, &dict, &settings).unwrap();
        let run_id = run.manifest().run_id();
        let path = RunDir::manifest_path(&root);

        let older = Manifest {
            tool_version: "0.0.9".into(),
            ..run.manifest().clone()
        };
        write_framed(&path, MANIFEST_KIND, &older).unwrap();
        let reopened = RunDir::open(&root).unwrap();
        assert_eq!(reopened.manifest().tool_version, "0.0.9");
        assert_eq!(reopened.manifest().run_id(), run_id);
        reopened.shard(0).unwrap();

        let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&older).unwrap();
        std::fs::write(&path, format::frame(MANIFEST_KIND, 1, &bytes)).unwrap();
        let err = RunDir::open(&root).err().expect("refused").to_string();
        assert!(
            err.contains("run format 1") && err.contains("plan it again"),
            "{err}"
        );
    }
}
