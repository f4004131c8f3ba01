//! Framing for every binary file this program writes: a fixed header, an rkyv archive, a
//! checksummed footer; and how every file is written (atomically, over regular files only).
//!
//! # Format
//! ```text
//! offset 0   header, 32 bytes: b"BOGGLEMX" | kind (4 ASCII bytes) | version u32 LE | 16 zero bytes
//! offset 32  the rkyv archive, `len` bytes (little-endian, 32-bit relative pointers)
//! end - 16   footer, 16 bytes: len u64 LE | CRC-32 of header, archive and len u32 LE | b"XMGB"
//! ```
//! The header is a multiple of 16 bytes, so an archive read from a page-aligned memory map
//! starts 16-aligned, and the archive ends exactly where the footer begins, as rkyv requires.
//! Opening checks header, length and checksum (a truncated, padded or bit-flipped file is
//! refused before rkyv sees it); rkyv's own validation then checks the archive's structure.

use std::fs::File;
use std::io::{ErrorKind, Write};
use std::path::Path;

/// Bytes of the header.
pub const HEADER_LEN: usize = 32;
/// Bytes of the footer.
pub const FOOTER_LEN: usize = 16;
const MAGIC: &[u8; 8] = b"BOGGLEMX";
const END_MAGIC: &[u8; 4] = b"XMGB";

/// Why a framed file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatError {
    /// Not one of our files at all.
    #[error("not a bogglemax file (bad magic)")]
    BadMagic,
    /// One of our files, but of another kind.
    #[error("is a '{got}' file, expected '{expected}'")]
    WrongKind {
        /// Kind expected.
        expected: String,
        /// Kind found.
        got: String,
    },
    /// Written by an incompatible version of this program.
    #[error("format version {got}, this program reads version {expected}")]
    WrongVersion {
        /// Version this program reads.
        expected: u32,
        /// Version in the file.
        got: u32,
    },
    /// No valid footer: the file was cut short (or is not complete yet).
    #[error("truncated, or bytes added at its end: {got} bytes and no valid footer")]
    Truncated {
        /// Actual size.
        got: u64,
    },
    /// Shorter or longer than its footer says.
    #[error("truncated or padded: {got} bytes, footer says {expected}")]
    BadLength {
        /// Size the footer implies.
        expected: u64,
        /// Actual size.
        got: u64,
    },
    /// The checksum does not match: the bytes were changed.
    #[error("checksum mismatch (corrupted)")]
    BadChecksum,
    /// The archive passed the checksum but not rkyv's validation.
    #[error("invalid archive: {0}")]
    BadArchive(String),
}

/// Frames an archive: header, archive bytes, footer.
pub fn frame(kind: &[u8; 4], version: u32, archive: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + archive.len() + FOOTER_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(kind);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&[0u8; 16]);
    out.extend_from_slice(archive);
    out.extend_from_slice(&(archive.len() as u64).to_le_bytes());
    // The checksum covers the header (reserved bytes included) and the archive.
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(END_MAGIC);
    out
}

/// Checks a framed file and returns the range of its archive within `bytes`.
pub fn unframe(
    bytes: &[u8],
    kind: &[u8; 4],
    version: u32,
) -> Result<std::ops::Range<usize>, FormatError> {
    if bytes.len() < HEADER_LEN {
        // A file cut inside its header still begins as one does.
        let n = bytes.len().min(MAGIC.len());
        return Err(if n >= 4 && bytes[..n] == MAGIC[..n] {
            FormatError::Truncated {
                got: bytes.len() as u64,
            }
        } else {
            FormatError::BadMagic
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(FormatError::BadMagic);
    }
    if &bytes[8..12] != kind {
        return Err(FormatError::WrongKind {
            expected: String::from_utf8_lossy(kind).into_owned(),
            got: String::from_utf8_lossy(&bytes[8..12]).into_owned(),
        });
    }
    let got_version = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
    if got_version != version {
        return Err(FormatError::WrongVersion {
            expected: version,
            got: got_version,
        });
    }
    let total = bytes.len() as u64;
    if bytes.len() < HEADER_LEN + FOOTER_LEN || &bytes[bytes.len() - 4..] != END_MAGIC {
        return Err(FormatError::Truncated { got: total });
    }
    let footer = &bytes[bytes.len() - FOOTER_LEN..];
    let len = u64::from_le_bytes(footer[..8].try_into().expect("8 bytes"));
    let expected = len.saturating_add((HEADER_LEN + FOOTER_LEN) as u64);
    if expected != total {
        return Err(FormatError::BadLength {
            expected,
            got: total,
        });
    }
    let range = HEADER_LEN..bytes.len() - FOOTER_LEN;
    let crc = u32::from_le_bytes(footer[8..12].try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[..bytes.len() - FOOTER_LEN + 8]) != crc {
        return Err(FormatError::BadChecksum);
    }
    Ok(range)
}

/// Whether `a` and `b` name one existing file (by device and inode, through links and
/// other spellings of the path).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Refuses a `path` to be written where something other than a regular file is (a folder,
/// a device, a pipe, a symbolic link): writers replace files only. Nothing there is fine.
pub fn check_writable_path(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_file() => Err(std::io::Error::new(
            ErrorKind::AlreadyExists,
            "exists and is not a regular file (a folder, device, pipe or link): nothing was \
             written",
        )),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, synced, then
/// renamed over the target, so readers see the old file or the new one, never a torn one.
/// Only a regular file is replaced ([`check_writable_path`]): a device, pipe or symbolic link
/// at `path` is left as it is, where a rename would have put a file in its place.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    check_writable_path(path)?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = match dir {
        Some(d) => d.join(format!(".{name}.tmp.{}", std::process::id())),
        None => format!(".{name}.tmp.{}", std::process::id()).into(),
    };
    let written = File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written {
        // A full disk, say: the partial temporary file goes, the target is untouched.
        let _ = std::fs::remove_file(&tmp);
        if let Some(d) = dir.filter(|d| e.kind() == ErrorKind::NotFound && !d.exists()) {
            return Err(std::io::Error::new(
                ErrorKind::NotFound,
                format!("there is no folder {} (make it first)", d.display()),
            ));
        }
        return Err(e);
    }
    crate::failpoint::point("before-rename");
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    if let Some(d) = dir {
        // Persist the rename itself; a failure here only weakens durability, not correctness.
        let _ = File::open(d).and_then(|f| f.sync_all());
    }
    Ok(())
}

/// Bytes of a file held either in a read-only memory map or in a 16-aligned buffer.
pub enum FileBytes {
    /// A read-only memory map (page aligned).
    Mapped(memmap2::Mmap),
    /// An owned buffer with rkyv's alignment.
    Owned(rkyv::util::AlignedVec<16>),
}

impl FileBytes {
    /// Reads a whole file into memory: for files the user names, which another program may
    /// rewrite in place while they are read (a map of one would change under us).
    pub fn read(path: &Path) -> std::io::Result<FileBytes> {
        let mut file = FileBytes::open_regular(path)?;
        let len = file.metadata()?.len() as usize;
        let mut bytes = rkyv::util::AlignedVec::<16>::with_capacity(len);
        bytes.extend_from_reader(&mut file)?;
        Ok(FileBytes::Owned(bytes))
    }

    /// Opens a regular file for reading; a directory, pipe or device is refused by name.
    fn open_regular(path: &Path) -> std::io::Result<File> {
        // Asked before opening: opening a FIFO for reading waits for a writer.
        let meta = std::fs::metadata(path)?;
        if meta.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "is a directory, not a file",
            ));
        }
        if !meta.is_file() {
            return Err(std::io::Error::other(
                "not a regular file (a pipe or device cannot be mapped; save it to a file)",
            ));
        }
        File::open(path)
    }

    /// Maps a file read-only: only for files bogglemax wrote itself (see the SAFETY note).
    pub fn map(path: &Path) -> std::io::Result<FileBytes> {
        let file = FileBytes::open_regular(path)?;
        if file.metadata()?.len() == 0 {
            return Ok(FileBytes::Owned(rkyv::util::AlignedVec::new()));
        }
        // SAFETY: the map is read-only, and only files bogglemax writes are mapped (a run's
        // manifest, shards and dictionary), which it only ever replaces by rename
        // (`write_atomic`), never rewrites in place, so the mapped bytes do not change under
        // us. Journals, which are appended to, and files the user names (word lists,
        // compiled dictionaries) are read with `read`, not mapped.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        Ok(FileBytes::Mapped(map))
    }

    /// Copies bytes into an aligned buffer.
    pub fn copy_of(bytes: &[u8]) -> FileBytes {
        let mut v = rkyv::util::AlignedVec::<16>::with_capacity(bytes.len());
        v.extend_from_slice(bytes);
        FileBytes::Owned(v)
    }
}

impl AsRef<[u8]> for FileBytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(m) => m,
            FileBytes::Owned(v) => v,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_file_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        write_atomic(&file, b"one").unwrap();
        write_atomic(&file, b"two").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"two");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let pipe = dir.path().join("pipe");
        let c_pipe = std::ffi::CString::new(pipe.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates the pipe.
        assert_eq!(unsafe { libc::mkfifo(c_pipe.as_ptr(), 0o600) }, 0);
        for other in [&link, &pipe, &dir.path().to_path_buf()] {
            let err = write_atomic(other, b"three").unwrap_err().to_string();
            assert!(err.contains("not a regular file"), "{err}");
        }
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(
            !std::fs::symlink_metadata(&pipe)
                .unwrap()
                .file_type()
                .is_file()
        );
        assert_eq!(
            std::fs::read(&file).unwrap(),
            b"two",
            "the link's target untouched"
        );
    }

    #[test]
    fn frame_round_trip_and_corruptions() {
        let archive = b"0123456789abcdef".repeat(3);
        let f = frame(b"TEST", 1, &archive);
        assert_eq!(&f[unframe(&f, b"TEST", 1).unwrap()], &archive[..]);
        assert!(matches!(
            unframe(&f, b"DICT", 1),
            Err(FormatError::WrongKind { .. })
        ));
        assert!(matches!(
            unframe(&f, b"TEST", 2),
            Err(FormatError::WrongVersion { .. })
        ));
        for cut in [1, 5, 16, 17, f.len() - 1] {
            assert!(
                unframe(&f[..f.len() - cut], b"TEST", 1).is_err(),
                "cut {cut}"
            );
        }
        for i in [HEADER_LEN, HEADER_LEN + 20, f.len() - 10] {
            let mut g = f.clone();
            g[i] ^= 0x40;
            assert!(unframe(&g, b"TEST", 1).is_err(), "flip {i}");
        }
        let mut padded = f.clone();
        padded.extend_from_slice(&[0; 16]);
        assert!(unframe(&padded, b"TEST", 1).is_err());
        // Cut inside the header: truncated if it begins as a header does, else not ours.
        for cut in [4, 8, 13] {
            assert!(
                matches!(
                    unframe(&f[..cut], b"TEST", 1),
                    Err(FormatError::Truncated { .. })
                ),
                "cut to {cut}"
            );
        }
        assert!(matches!(
            unframe(b"BOGUS-FILE", b"TEST", 1),
            Err(FormatError::BadMagic)
        ));
    }
}
