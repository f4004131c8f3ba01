//! Word lists and the compiled dictionary: filtering, the prefix tree, and its rkyv file.
//!
//! A [`Dictionary`] comes from the built-in ENABLE2K list, a word-list text file, or a
//! compiled file (`bogglemax dict build`), which is memory-mapped and validated on open.

mod filter;
mod trie;

pub use filter::{FilteredWords, filter_words, spell};
pub use trie::{NodeId, Trie, TrieBuf, TrieError};

use crate::format::{self, FileBytes, FormatError};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The ENABLE2K word list's text. The binary ships its prefix tree, made by `build.rs`
/// ([`Dictionary::enable2k`]); the text is for building that tree again, as the tests do.
pub const ENABLE2K: &str = include_str!("../../wordlists/enable2k.txt");
/// The name the built-in list reports.
pub const ENABLE2K_NAME: &str = "enable2k (built-in)";
/// SHA-256 of [`ENABLE2K`], as `sha256sum wordlists/enable2k.txt` prints it: hashing the
/// list costs about 100 million instructions, which every start of a short run would pay
/// (the test `enable2k_sha256_is_the_lists` keeps it true).
const ENABLE2K_SHA256: &str = "f1e9b50e535a31d0d8451f7b373bb7966637d225e256a7c485983a0c7545fcd3";

const KIND: &[u8; 4] = b"DICT";
const VERSION: u32 = 1;

/// Why a dictionary could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DictError {
    /// The file could not be read.
    #[error("{path}: {err}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        err: std::io::Error,
    },
    /// A compiled file failed its checks.
    #[error("{path}: {err}")]
    Format {
        /// The file.
        path: PathBuf,
        /// Which check failed.
        err: FormatError,
    },
    /// A text word list that is not UTF-8.
    #[error("{path}: line {line} is not UTF-8 text: save the word list as UTF-8 (or ASCII)")]
    NotText {
        /// The file.
        path: PathBuf,
        /// The first line that is not UTF-8, from 1.
        line: usize,
    },
    /// A word list with no usable word.
    #[error("{path}: no usable words (need a-z words of 3+ letters, one per line)")]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// What a dictionary was built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DictInfo {
    /// The word list's file name (or the built-in name).
    pub source: String,
    /// SHA-256 of the word list's bytes, in hex (as `sha256sum` prints it).
    pub sha256: String,
    /// Words kept by the filter.
    pub words: usize,
    /// Nodes of the prefix tree.
    pub nodes: usize,
    /// Lines of a text word list that the filter refused (not blank, and not a word of 3+
    /// letters a-z with every q followed by u); `None` for a compiled or the built-in one.
    pub skipped_lines: Option<usize>,
    /// Lines of a text word list that spell a word another line kept (the same word in
    /// another case, or again), kept once; `None` for a compiled or the built-in one.
    pub repeated_lines: Option<usize>,
}

/// The serialized form of a compiled dictionary (inside the framing of [`crate::format`]).
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
struct DictArchive {
    source: String,
    sha256: String,
    nodes: Vec<u32>,
    word_len: Vec<u8>,
}

enum Storage {
    /// The built-in ENABLE2K tree, built by `build.rs` and part of the binary.
    BuiltIn,
    Owned(TrieBuf),
    Compiled(FileBytes, std::ops::Range<usize>),
}

/// A loaded dictionary: the prefix tree of a word list plus what it was built from.
pub struct Dictionary {
    info: DictInfo,
    storage: Storage,
}

impl std::fmt::Debug for Dictionary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dictionary")
            .field("info", &self.info)
            .finish()
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Dictionary {
    /// The built-in ENABLE2K dictionary.
    pub fn enable2k() -> Dictionary {
        let trie = built_in_trie();
        Dictionary {
            info: DictInfo {
                source: ENABLE2K_NAME.to_string(),
                sha256: ENABLE2K_SHA256.into(),
                words: trie.word_count(),
                nodes: trie.node_count(),
                skipped_lines: None,
                repeated_lines: None,
            },
            storage: Storage::BuiltIn,
        }
    }

    /// Builds a dictionary from word-list text (bytes that are not UTF-8 read as U+FFFD,
    /// which the filter refuses).
    pub fn from_text(source: &str, bytes: &[u8]) -> Dictionary {
        let text = String::from_utf8_lossy(bytes);
        Dictionary::from_text_hashed(source, &text, sha256_hex(bytes))
    }

    /// [`Dictionary::from_text`] with the text's SHA-256 already known.
    fn from_text_hashed(source: &str, text: &str, sha256: String) -> Dictionary {
        // A byte-order mark, as Windows editors write, is not part of the first word: the
        // filter drops it.
        let words = filter_words(text);
        let buf = TrieBuf::build(&words);
        Dictionary {
            info: DictInfo {
                source: source.to_string(),
                sha256,
                words: buf.word_len.len(),
                nodes: buf.nodes.len() / 3,
                skipped_lines: Some(words.skipped_lines()),
                repeated_lines: Some(words.repeated_lines()),
            },
            storage: Storage::Owned(buf),
        }
    }

    /// Loads `--wordlist`: `None` is the built-in ENABLE2K; a path is a compiled dictionary
    /// (recognised by its header) or a text word list, read into memory.
    pub fn load(path: Option<&Path>) -> Result<Dictionary, DictError> {
        match path {
            None => Ok(Dictionary::enable2k()),
            Some(path) => Dictionary::load_bytes(path, FileBytes::read),
        }
    }

    /// Loads a run's compiled dictionary, memory-mapped (shared by every process on the
    /// machine): only for a file bogglemax wrote, which it replaces only by rename.
    pub fn load_mapped(path: &Path) -> Result<Dictionary, DictError> {
        Dictionary::load_bytes(path, FileBytes::map)
    }

    fn load_bytes(
        path: &Path,
        get: fn(&Path) -> std::io::Result<FileBytes>,
    ) -> Result<Dictionary, DictError> {
        let io = |err| DictError::Io {
            path: path.to_path_buf(),
            err,
        };
        let bytes = get(path).map_err(io)?;
        if bytes.as_ref().starts_with(b"BOGGLEMX") {
            return Dictionary::from_compiled(bytes).map_err(|err| DictError::Format {
                path: path.to_path_buf(),
                err,
            });
        }
        let text = std::str::from_utf8(bytes.as_ref()).map_err(|e| DictError::NotText {
            path: path.to_path_buf(),
            line: crate::text::line_at(bytes.as_ref(), e.valid_up_to()),
        })?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        let dict = Dictionary::from_text_hashed(&name, text, sha256_hex(bytes.as_ref()));
        if dict.info.words == 0 {
            return Err(DictError::Empty {
                path: path.to_path_buf(),
            });
        }
        Ok(dict)
    }

    /// Opens compiled bytes: checks the frame, validates the archive with rkyv, then checks
    /// the tree's structure so that no later lookup can go out of bounds.
    pub fn from_compiled(bytes: FileBytes) -> Result<Dictionary, FormatError> {
        let bytes = match bytes {
            // Archives must be 16-aligned; a buffer from elsewhere may not be.
            FileBytes::Owned(v) if !(v.as_ptr() as usize).is_multiple_of(16) => {
                FileBytes::copy_of(&v)
            }
            b => b,
        };
        let range = format::unframe(bytes.as_ref(), KIND, VERSION)?;
        let archive = rkyv::access::<ArchivedDictArchive, rkyv::rancor::Error>(
            &bytes.as_ref()[range.clone()],
        )
        .map_err(|e| FormatError::BadArchive(e.to_string()))?;
        let nodes = le_u32_slice(archive.nodes.as_slice());
        TrieBuf::check(nodes, archive.word_len.as_slice())
            .map_err(|e| FormatError::BadArchive(e.to_string()))?;
        let info = DictInfo {
            source: archive.source.to_string(),
            sha256: archive.sha256.to_string(),
            words: archive.word_len.len(),
            nodes: nodes.len() / 3,
            skipped_lines: None,
            repeated_lines: None,
        };
        Ok(Dictionary {
            info,
            storage: Storage::Compiled(bytes, range),
        })
    }

    /// The compiled file's bytes for this dictionary.
    pub fn to_compiled(&self) -> Vec<u8> {
        let trie = self.trie();
        let archive = DictArchive {
            source: self.info.source.clone(),
            sha256: self.info.sha256.clone(),
            nodes: trie.raw_nodes().to_vec(),
            word_len: trie.raw_word_len().to_vec(),
        };
        let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&archive)
            .expect("serializing plain vectors and strings cannot fail");
        format::frame(KIND, VERSION, &bytes)
    }

    /// What this dictionary was built from.
    pub fn info(&self) -> &DictInfo {
        &self.info
    }

    /// The prefix tree.
    pub fn trie(&self) -> Trie<'_> {
        match &self.storage {
            Storage::BuiltIn => built_in_trie(),
            Storage::Owned(buf) => buf.view(),
            Storage::Compiled(bytes, range) => {
                // SAFETY: `from_compiled` validated exactly these bytes with `rkyv::access`,
                // and they are immutable (a read-only map or an owned buffer we never mutate).
                let archive = unsafe {
                    rkyv::access_unchecked::<ArchivedDictArchive>(&bytes.as_ref()[range.clone()])
                };
                Trie::new(
                    le_u32_slice(archive.nodes.as_slice()),
                    archive.word_len.as_slice(),
                )
            }
        }
    }
}

/// Bytes included with the alignment of a `u32`.
#[repr(C, align(4))]
struct Aligned4<B: ?Sized>(B);

/// The node array of the built-in tree, as `build.rs` wrote it (little-endian `u32`s).
static ENABLE2K_NODES: &Aligned4<[u8]> =
    &Aligned4(*include_bytes!(concat!(env!("OUT_DIR"), "/enable2k.nodes")));
/// The built-in tree's word lengths.
static ENABLE2K_WORD_LEN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/enable2k.word_len"));

/// The prefix tree of [`ENABLE2K`], built by `build.rs` with [`TrieBuf::build`] (the test
/// `built_in_tree_is_the_lists` checks that it is the tree built now, and valid).
fn built_in_trie() -> Trie<'static> {
    let bytes = &ENABLE2K_NODES.0;
    // SAFETY: the bytes are 4-aligned (`Aligned4`) and a whole number of `u32`s (`build.rs`
    // writes them one `u32` at a time); any bit pattern is a `u32`, and on this little-endian
    // target (enforced below) the little-endian bytes read as the values written.
    let nodes =
        unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<u32>(), bytes.len() / 4) };
    Trie::new(nodes, ENABLE2K_WORD_LEN)
}

#[cfg(not(target_endian = "little"))]
compile_error!("compiled dictionaries are read zero-copy and need a little-endian target");

/// Views archived little-endian `u32`s as native ones.
fn le_u32_slice(s: &[rkyv::rend::u32_le]) -> &[u32] {
    // SAFETY: `u32_le` is `#[repr(C, align(4))]` around one `u32` holding the little-endian
    // bytes, so it has the size, alignment and (on this little-endian target, enforced above)
    // the value of a `u32`.
    unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<u32>(), s.len()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enable2k_has_published_count() {
        let d = Dictionary::enable2k();
        assert_eq!(d.info().words, 173_402);
    }

    #[test]
    fn built_in_tree_is_the_lists() {
        let built = Dictionary::from_text("enable2k.txt", ENABLE2K.as_bytes());
        let built_in = Dictionary::enable2k();
        assert_eq!(built_in.trie().raw_nodes(), built.trie().raw_nodes());
        assert_eq!(built_in.trie().raw_word_len(), built.trie().raw_word_len());
        assert_eq!(built_in.info().words, built.info().words);
        assert_eq!(built_in.info().nodes, built.info().nodes);
        let trie = built_in.trie();
        assert_eq!(
            TrieBuf::check(trie.raw_nodes(), trie.raw_word_len()),
            Ok(())
        );
    }

    #[test]
    fn enable2k_sha256_is_the_lists() {
        assert_eq!(sha256_hex(ENABLE2K.as_bytes()), ENABLE2K_SHA256);
        assert_eq!(Dictionary::enable2k().info().sha256, ENABLE2K_SHA256);
    }

    #[test]
    fn compiled_round_trip_and_refusals() {
        let d = Dictionary::from_text("t.txt", b"cat\ncats\nqueen\ndog\n");
        let bytes = d.to_compiled();
        let back = Dictionary::from_compiled(FileBytes::copy_of(&bytes)).unwrap();
        // A compiled file does not record the source's skipped lines.
        let info = DictInfo {
            skipped_lines: None,
            repeated_lines: None,
            ..d.info().clone()
        };
        assert_eq!(back.info(), &info);
        assert_eq!(back.trie().raw_nodes(), d.trie().raw_nodes());
        for cut in [1, 8, 20, bytes.len() / 2] {
            assert!(
                Dictionary::from_compiled(FileBytes::copy_of(&bytes[..bytes.len() - cut])).is_err()
            );
        }
        let mut bad = bytes.clone();
        bad[40] ^= 1;
        assert!(Dictionary::from_compiled(FileBytes::copy_of(&bad)).is_err());
    }

    /// `load` reads a user's file into memory: a compiled dictionary that another program
    /// rewrites in place after it was loaded leaves the loaded one as it was. (A map of the
    /// file would show the new bytes: `load_mapped` in place of `load` fails this test.)
    #[test]
    fn a_loaded_file_is_read_not_mapped() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("words.bmx");
        let cats = Dictionary::from_text("a.txt", b"cat\ncats\n").to_compiled();
        let dogs = Dictionary::from_text("b.txt", b"dog\ndogs\n").to_compiled();
        assert_eq!(cats.len(), dogs.len(), "the same shape, so the same length");
        std::fs::write(&path, &cats).unwrap();
        let loaded = Dictionary::load(Some(&path)).unwrap();
        // The same file rewritten in place, not replaced: opened without truncation.
        let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all(&dogs).unwrap();
        file.sync_all().unwrap();
        drop(file);
        let cat = [2, 0, 19];
        let dog = [3, 14, 6];
        assert!(
            loaded
                .trie()
                .walk(&cat)
                .is_some_and(|n| loaded.trie().word(n).is_some())
        );
        assert!(loaded.trie().walk(&dog).is_none());
        assert_eq!(loaded.info().source, "a.txt");
        // The rewritten file reads as the new list, so the rewrite did reach the file.
        let again = Dictionary::load(Some(&path)).unwrap();
        assert!(again.trie().walk(&dog).is_some());
    }
}
