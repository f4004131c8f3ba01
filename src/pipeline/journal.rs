//! Shard journals: append-only files of checksummed records, one per finished class (and
//! one per finished top-split branch of a long class), synced as they are written.
//!
//! # Format
//! ```text
//! header  16 bytes: b"BMXJRNL2" | run id u64 LE
//! record  len u32 LE | CRC-32 of payload u32 LE | payload (len bytes)
//! payload kind u8 (1 = class finished, 2 = one top-split branch finished) | class id u64 |
//!         letter u8 (branch letter, 255 for kind 1) | root bound u32 | nodes u64 |
//!         peak bytes u64 | seconds f64 | check seconds f64 | DeMulti candidates u64 |
//!         largest DeMulti u32 | cells u8 | results u32 | results × BOARD |
//!         kept u8 (1 if every candidate is kept) | [if kept: zstd length u32 |
//!         zstd frame of the DeMulti candidates × BOARD]
//! BOARD   cells letter bytes | demulti u32 | score u64
//! ```
//! A record holds only the candidates that are results (Score ≥ S), so a class with none
//! costs 72 bytes; `break --keep-candidates` adds the whole candidate list, compressed.
//! Format 1 (`BMXJRNL1`) journaled every candidate unchecked; it is refused by name.
//! A crash can only tear the last record: a record that runs past the end of the file, or
//! fails its checksum as the very last bytes, or a tail of zero bytes (an append whose length
//! a network file system shows before its bytes), is dropped (and cut off when the journal is
//! opened for writing). A bad record followed by more data is corruption and is refused, and
//! so is a length field that runs to or past the end over a whole record of another length
//! whose checksum holds (a damaged length, which would otherwise drop every record after it).

use super::error::PipelineError;
use crate::board::{Board, Size};
use crate::bound::{BreakOutcome, Candidate};
use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a worker given `--wait-lock` tries the lock again.
const POLL_LOCK: Duration = Duration::from_millis(100);

/// A journal's own format: bump its digit (and refuse the old magic by name, as
/// `MAGIC_FORMAT_1` is) when a record's layout changes, and update
/// `scripts/rescale-journals.py`, which reads records too. A change of what a record means
/// within a run (such as which cell a top-split record's letter is on) is the run format's
/// `FORMAT_VERSION` instead (src/pipeline/manifest.rs).
const MAGIC: &[u8; 8] = b"BMXJRNL2";
const MAGIC_FORMAT_1: &[u8; 8] = b"BMXJRNL1";
/// zstd level of kept candidate lists: fast, and boards of one class compress well.
const ZSTD_LEVEL: i32 = 3;
const HEADER_LEN: u64 = 16;
const KIND_CLASS: u8 = 1;
const KIND_PART: u8 = 2;
/// Bytes of a journal record of a whole class without results (framing included); each
/// result adds its board's cells and 12 bytes.
pub const RECORD_BYTES: u64 = 72;

/// What one record says: a finished class, or one finished branch of its top split.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassRecord {
    /// The class id.
    pub class_id: u64,
    /// `Some(letter)` for a top-split branch, `None` for the whole class.
    pub part: Option<u8>,
    /// Root bound of the class's orderly tree (for a class built one tree per top letter,
    /// the largest of those trees' bounds: see `BreakOutcome::root_bound`).
    pub root_bound: u32,
    /// Tree nodes created.
    pub nodes: u64,
    /// Peak tree bytes.
    pub peak_bytes: u64,
    /// CPU seconds of the worker thread that broke it, checking included (a worker breaks
    /// one class at a time, on one thread; summaries add these up as `cpu seconds`).
    /// Journals written before commit 6c94a86 hold the thread's wall seconds instead, the
    /// same on a core the worker had to itself.
    pub seconds: f64,
    /// Wall seconds spent checking candidates: part of the class's work, timed by the wall
    /// clock (a CPU clock's read costs too much at every candidate), so on a loaded core it
    /// can exceed `seconds`.
    pub check_seconds: f64,
    /// Candidates found and checked: boards whose tree bound (their DeMulti, or a bound
    /// between Score and DeMulti in unit trees) is ≥ S, less those the walks' prune by Score
    /// left out unless the run keeps candidates ([`BreakOutcome::demulti_count`]).
    ///
    /// [`BreakOutcome::demulti_count`]: crate::bound::BreakOutcome::demulti_count
    pub demulti_count: u64,
    /// The largest DeMulti among them.
    pub max_demulti: u32,
    /// The results: boards with Score ≥ S.
    pub results: Vec<Candidate>,
    /// Every candidate, if the break kept them (`break --keep-candidates`).
    pub candidates: Option<Vec<Candidate>>,
}

impl ClassRecord {
    /// The record's payload, or why it cannot be written (a count beyond 32 bits).
    fn encode(&self, cells: usize) -> Result<Vec<u8>, String> {
        let mut out = Vec::with_capacity(72 + self.results.len() * (cells + 12));
        out.push(if self.part.is_some() {
            KIND_PART
        } else {
            KIND_CLASS
        });
        out.extend_from_slice(&self.class_id.to_le_bytes());
        out.push(self.part.unwrap_or(255));
        out.extend_from_slice(&self.root_bound.to_le_bytes());
        out.extend_from_slice(&self.nodes.to_le_bytes());
        out.extend_from_slice(&self.peak_bytes.to_le_bytes());
        out.extend_from_slice(&self.seconds.to_le_bytes());
        out.extend_from_slice(&self.check_seconds.to_le_bytes());
        out.extend_from_slice(&self.demulti_count.to_le_bytes());
        out.extend_from_slice(&self.max_demulti.to_le_bytes());
        out.push(cells as u8);
        out.extend_from_slice(&count_u32(self.results.len(), "results")?.to_le_bytes());
        encode_boards(&mut out, &self.results);
        match &self.candidates {
            None => out.push(0),
            Some(all) => {
                out.push(1);
                let mut raw = Vec::with_capacity(all.len() * (cells + 12));
                encode_boards(&mut raw, all);
                let packed = zstd::bulk::compress(&raw, ZSTD_LEVEL)
                    .map_err(|e| format!("compressing the kept candidates: {e}"))?;
                let len = count_u32(packed.len(), "bytes of kept candidates")?;
                out.extend_from_slice(&len.to_le_bytes());
                out.extend_from_slice(&packed);
            }
        }
        Ok(out)
    }

    fn decode(bytes: &[u8], size: Size) -> Result<ClassRecord, String> {
        let mut r = Reader { bytes, at: 0 };
        let kind = r.u8()?;
        let class_id = r.u64()?;
        let letter = r.u8()?;
        let part = match kind {
            KIND_CLASS if letter == 255 => None,
            KIND_PART if letter < 26 => Some(letter),
            _ => return Err(format!("bad record kind {kind} / letter {letter}")),
        };
        let root_bound = r.u32()?;
        let nodes = r.u64()?;
        let peak_bytes = r.u64()?;
        let seconds = f64::from_bits(r.u64()?);
        let check_seconds = f64::from_bits(r.u64()?);
        let demulti_count = r.u64()?;
        let max_demulti = r.u32()?;
        let cells = r.u8()? as usize;
        if cells != size.cells() {
            return Err(format!("record for {cells} cells in a {size} run"));
        }
        let count = r.u32()? as usize;
        let results = decode_boards(&mut r, size, count)?;
        let candidates = match r.u8()? {
            0 => None,
            1 => {
                let len = r.u32()? as usize;
                let packed = r.take(len)?;
                // A kept list is at most every candidate counted, each board's bytes.
                let limit = (demulti_count as usize).saturating_mul(cells + 12);
                let raw = zstd::bulk::decompress(packed, limit)
                    .map_err(|e| format!("kept candidates: {e}"))?;
                let n = raw.len() / (cells + 12);
                if n as u64 != demulti_count || raw.len() % (cells + 12) != 0 {
                    return Err("kept candidates do not match their count".into());
                }
                Some(decode_boards(&mut Reader { bytes: &raw, at: 0 }, size, n)?)
            }
            k => return Err(format!("bad kept-candidates flag {k}")),
        };
        if r.at != bytes.len() {
            return Err("trailing bytes".into());
        }
        Ok(ClassRecord {
            class_id,
            part,
            root_bound,
            nodes,
            peak_bytes,
            seconds,
            check_seconds,
            demulti_count,
            max_demulti,
            results,
            candidates,
        })
    }
}

/// The length of the record payload that `bytes` begins with, read off the payload's own
/// counts as [`ClassRecord::decode`] reads them (not off its frame's length field); `None`
/// if `bytes` ends before it does. Not `decode` itself: these bytes are not yet checked
/// against a checksum, and `decode` would size a decompression buffer by a count in them.
/// (The round-trip test holds the two to the same layout.)
fn payload_len(bytes: &[u8], size: Size) -> Option<usize> {
    let mut r = Reader { bytes, at: 0 };
    // Kind, class id, letter, root bound, five u64 figures, largest DeMulti, cells.
    r.take(1 + 8 + 1 + 4 + 5 * 8 + 4 + 1).ok()?;
    let results = r.u32().ok()? as usize;
    r.take(results.checked_mul(size.cells() + 12)?).ok()?;
    if r.u8().ok()? == 1 {
        let packed = r.u32().ok()? as usize;
        r.take(packed).ok()?;
    }
    Some(r.at)
}

/// A count that the format stores in 32 bits: refused, not truncated, beyond that.
fn count_u32(n: usize, what: &str) -> Result<u32, String> {
    u32::try_from(n).map_err(|_| format!("{n} {what} do not fit a journal record"))
}

fn encode_boards(out: &mut Vec<u8>, boards: &[Candidate]) {
    for c in boards {
        out.extend_from_slice(c.board.letters());
        out.extend_from_slice(&c.demulti.to_le_bytes());
        out.extend_from_slice(&c.score.to_le_bytes());
    }
}

fn decode_boards(r: &mut Reader<'_>, size: Size, count: usize) -> Result<Vec<Candidate>, String> {
    let cells = size.cells();
    if count > r.bytes.len().saturating_sub(r.at) / (cells + 12) {
        return Err("board list length".into());
    }
    let mut boards = Vec::with_capacity(count);
    for _ in 0..count {
        let letters = r.take(cells)?;
        if letters.iter().any(|&l| l >= 26) {
            return Err("board letter out of range".into());
        }
        let board = Board::from_letters(size, letters);
        let demulti = r.u32()?;
        let score = r.u64()?;
        boards.push(Candidate {
            board,
            demulti,
            score,
        });
    }
    Ok(boards)
}

impl ClassRecord {
    /// What the record says, as the breaker reports it (for adding journaled top-split
    /// branches to the rest of their class).
    pub fn outcome(&self) -> BreakOutcome {
        BreakOutcome {
            root_bound: self.root_bound,
            results: self.results.clone(),
            demulti_count: self.demulti_count,
            max_demulti: self.max_demulti,
            scored: 0,
            check_seconds: self.check_seconds,
            candidates: self.candidates.clone().unwrap_or_default(),
            nodes: self.nodes,
            peak_bytes: self.peak_bytes,
            seconds: self.seconds,
            eliminated: Vec::new(),
            merged: Vec::new(),
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| "record too short".to_string())?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
}

/// Everything a journal holds.
#[derive(Debug, Default)]
pub struct JournalContents {
    /// Finished classes by id.
    pub classes: BTreeMap<u64, ClassRecord>,
    /// Finished top-split branches of classes not yet finished, by class id.
    pub parts: HashMap<u64, Vec<ClassRecord>>,
    /// Bytes of valid records (with the header); a torn tail lies beyond.
    pub valid_len: u64,
    /// Whether a torn last record was found (and ignored).
    pub torn: bool,
}

impl JournalContents {
    /// The finished classes among `ids` (a shard's, increasing), in that order. A record of
    /// a class outside the shard (a journal copied in from another shard of the run) is not
    /// the shard's work, so every reader counts only these.
    pub fn finished_of<'a>(&'a self, ids: &'a [u64]) -> impl Iterator<Item = &'a ClassRecord> {
        ids.iter().filter_map(|id| self.classes.get(id))
    }

    /// The recorded classes that are not among `ids` (a shard's, increasing): another
    /// shard's, in a journal copied or renamed from it.
    pub fn strays<'a>(&'a self, ids: &'a [u64]) -> impl Iterator<Item = u64> + 'a {
        self.classes
            .keys()
            .copied()
            .filter(|id| ids.binary_search(id).is_err())
    }
}

/// What to do about a journal at `path` (shard `k`'s) that records `strays` classes of other
/// shards: they count for none, and `break` refuses the shard until the journal is gone.
pub fn strays_advice(path: &Path, k: u32, strays: usize) -> String {
    format!(
        "{}: records {strays} classes of other shards (a journal copied or renamed from \
         another shard?), which count for none: move it aside (mv {0} {0}.bad) and break \
         shard {k} again",
        path.display()
    )
}

/// Reads a journal without locking it (safe while a worker appends: a half-written last
/// record reads as torn). A missing journal reads as empty.
pub fn read_journal(
    path: &Path,
    run_id: u64,
    size: Size,
) -> Result<JournalContents, PipelineError> {
    let mut bytes = Vec::new();
    match File::open(path) {
        Ok(mut f) => {
            f.read_to_end(&mut bytes)
                .map_err(|e| PipelineError::io(path, e))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(JournalContents::default()),
        Err(e) => return Err(PipelineError::io(path, e)),
    }
    parse(path, &bytes, run_id, size, DAMAGED_SHARD_ADVICE)
}

/// What a damaged shard journal's error ends with: how to go on without it. An estimate
/// journal's error says its own ([`ShardJournal::open_advising`]).
const DAMAGED_SHARD_ADVICE: &str = " (to go on without it: move the journal aside and break the \
     shard again; its classes are broken anew)";

/// The journal's contents; a damaged journal's error ends with `damaged_advice`.
fn parse(
    path: &Path,
    bytes: &[u8],
    run_id: u64,
    size: Size,
    damaged_advice: &str,
) -> Result<JournalContents, PipelineError> {
    let corrupt = |why: String| PipelineError::Corrupt {
        path: path.to_path_buf(),
        why: format!("{why}{damaged_advice}"),
    };
    let mut out = JournalContents::default();
    if bytes.is_empty() {
        return Ok(out);
    }
    if bytes.len() < HEADER_LEN as usize {
        // A header is written and synced before any record: a short one is a torn creation,
        // but only if it begins as a header does (or is zeros, as an append can show before
        // its bytes); any other short file is not a journal, and is not written over.
        let n = bytes.len().min(MAGIC.len());
        if bytes[..n] != MAGIC[..n] && bytes.iter().any(|&b| b != 0) {
            return Err(corrupt("not a bogglemax journal (bad magic)".into()));
        }
        out.torn = true;
        return Ok(out);
    }
    if &bytes[..8] == MAGIC_FORMAT_1 {
        return Err(PipelineError::Mismatch {
            path: path.to_path_buf(),
            why: "journal format 1, written by an older bogglemax that kept every candidate \
                  unchecked; finish this run with that version, or plan a new one"
                .into(),
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(corrupt("not a bogglemax journal (bad magic)".into()));
    }
    let id = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    if id != run_id {
        return Err(PipelineError::OtherRun {
            path: path.to_path_buf(),
            advice: damaged_advice.to_string(),
        });
    }
    let mut at = HEADER_LEN as usize;
    out.valid_len = HEADER_LEN;
    while at < bytes.len() {
        if bytes.len() - at < 8 {
            out.torn = true;
            break;
        }
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        let crc = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().expect("4 bytes"));
        let end = at + 8 + len;
        // A record that runs to or past the end and fails its checksum reads as a torn
        // append, unless a whole record of another length lies there, checksum and all:
        // then its length field is damaged, and the records after it must not be dropped.
        let damaged_length = || {
            let rest = &bytes[at + 8..];
            payload_len(rest, size)
                .filter(|&n| n != len && crc32fast::hash(&rest[..n]) == crc)
                .map(|n| {
                    corrupt(format!(
                        "record at byte {at}: its length field says {len} bytes, but a whole \
                         record of {n} bytes is there (a damaged length, not a torn append)"
                    ))
                })
        };
        if end > bytes.len() {
            if let Some(e) = damaged_length() {
                return Err(e);
            }
            out.torn = true;
            break;
        }
        let payload = &bytes[at + 8..end];
        // A file system can show an append's new length before its bytes (zeros, on some
        // network file systems): a tail of zeros is a record still being written, not damage.
        let zero_tail = || bytes[at..].iter().all(|&b| b == 0);
        if crc32fast::hash(payload) != crc {
            if zero_tail() {
                out.torn = true;
                break;
            }
            if end == bytes.len() {
                if let Some(e) = damaged_length() {
                    return Err(e);
                }
                out.torn = true;
                break;
            }
            return Err(corrupt(format!("record at byte {at} fails its checksum")));
        }
        let rec = match ClassRecord::decode(payload, size) {
            Ok(rec) => rec,
            Err(_) if zero_tail() => {
                out.torn = true;
                break;
            }
            Err(why) => return Err(corrupt(format!("record at byte {at}: {why}"))),
        };
        match rec.part {
            None => {
                let class_id = rec.class_id;
                if out.classes.insert(class_id, rec).is_some() {
                    return Err(corrupt(format!("class {class_id} is recorded twice")));
                }
                out.parts.remove(&class_id);
            }
            Some(_) => out.parts.entry(rec.class_id).or_default().push(rec),
        }
        at = end;
        out.valid_len = end as u64;
    }
    Ok(out)
}

/// Writes a new journal whole (atomically, synced once): for tools and benchmarks that make
/// journals. Refuses if `path` exists, so it never replaces a journal a worker may be
/// appending to. Workers append with [`ShardJournal`] instead, a synced record at a time.
pub fn write_journal(
    path: &Path,
    run_id: u64,
    size: Size,
    records: &[ClassRecord],
) -> Result<(), PipelineError> {
    if path.exists() {
        return Err(PipelineError::Usage(format!(
            "{}: a journal exists here; nothing was written",
            path.display()
        )));
    }
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&run_id.to_le_bytes());
    for rec in records {
        let payload = rec
            .encode(size.cells())
            .map_err(|why| PipelineError::Usage(format!("{}: {why}", path.display())))?;
        let len = count_u32(payload.len(), "payload bytes")
            .map_err(|why| PipelineError::Usage(format!("{}: {why}", path.display())))?;
        bytes.extend_from_slice(&len.to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
    }
    crate::format::write_atomic(path, &bytes).map_err(|e| PipelineError::io(path, e))
}

/// A shard's journal, opened for appending under an exclusive lock.
pub struct ShardJournal {
    path: PathBuf,
    file: File,
    cells: usize,
}

impl ShardJournal {
    /// Opens (or creates) the journal, locks it, and cuts off a torn last record.
    /// Returns the journal and what it already holds. Refuses at once if another process
    /// holds the lock.
    pub fn open(
        path: &Path,
        run_id: u64,
        size: Size,
    ) -> Result<(ShardJournal, JournalContents), PipelineError> {
        ShardJournal::open_waiting(path, run_id, size, Duration::ZERO)
    }

    /// As [`ShardJournal::open`], but waits up to `wait` for another holder of the lock to let
    /// go (a killed worker's lock can outlive its parent's return for a moment), saying once
    /// on standard error that it waits.
    pub fn open_waiting(
        path: &Path,
        run_id: u64,
        size: Size,
        wait: Duration,
    ) -> Result<(ShardJournal, JournalContents), PipelineError> {
        ShardJournal::open_advising(path, run_id, size, wait, DAMAGED_SHARD_ADVICE)
    }

    /// As [`ShardJournal::open_waiting`], a damaged journal's error ending with
    /// `damaged_advice` (how to go on without it) instead of a shard's.
    pub(super) fn open_advising(
        path: &Path,
        run_id: u64,
        size: Size,
        wait: Duration,
        damaged_advice: &str,
    ) -> Result<(ShardJournal, JournalContents), PipelineError> {
        let io = |e| PipelineError::io(path, e);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        let start = Instant::now();
        let mut said = false;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < wait => {
                    if !std::mem::replace(&mut said, true) {
                        eprintln!(
                            "{}: locked by another process; waiting up to {} s for it to exit",
                            path.display(),
                            wait.as_secs()
                        );
                    }
                    std::thread::sleep(POLL_LOCK);
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(PipelineError::Locked(path.to_path_buf()));
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
            }
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let contents = parse(path, &bytes, run_id, size, damaged_advice)?;
        if bytes.len() < HEADER_LEN as usize {
            file.set_len(0).map_err(io)?;
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            let mut header = MAGIC.to_vec();
            header.extend_from_slice(&run_id.to_le_bytes());
            file.write_all(&header).map_err(io)?;
            file.sync_all().map_err(io)?;
        } else if contents.torn {
            file.set_len(contents.valid_len).map_err(io)?;
            file.sync_all().map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok((
            ShardJournal {
                path: path.to_path_buf(),
                file,
                cells: size.cells(),
            },
            contents,
        ))
    }

    /// Appends one record and syncs it to disk.
    pub fn append(&mut self, rec: &ClassRecord) -> Result<(), PipelineError> {
        let refuse = |why: String| {
            PipelineError::Usage(format!(
                "{}: class {}: {why}; nothing was written",
                self.path.display(),
                rec.class_id
            ))
        };
        let payload = rec.encode(self.cells).map_err(refuse)?;
        let len = count_u32(payload.len(), "payload bytes").map_err(refuse)?;
        let mut buf = Vec::with_capacity(payload.len() + 8);
        buf.extend_from_slice(&len.to_le_bytes());
        buf.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        buf.extend_from_slice(&payload);
        let io = |e| PipelineError::io(&self.path, e);
        if crate::failpoint::fires("journal-torn") {
            self.file.write_all(&buf[..buf.len() / 2]).map_err(io)?;
            self.file.sync_data().map_err(io)?;
            crate::failpoint::stop("journal-torn");
        }
        self.file.write_all(&buf).map_err(io)?;
        self.file.sync_data().map_err(io)?;
        crate::failpoint::point(if rec.part.is_some() {
            "part-journaled"
        } else {
            "class-journaled"
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(size: Size, text: &str, demulti: u32, score: u64) -> Candidate {
        Candidate {
            board: Board::parse(size, text).unwrap(),
            demulti,
            score,
        }
    }

    /// A record with results and kept candidates decodes to itself; a count that does not
    /// fit 32 bits is refused rather than cut.
    #[test]
    fn records_round_trip_and_oversized_counts_are_refused() {
        let size: Size = "2x2".parse().unwrap();
        let kept = vec![
            candidate(size, "abcd", 40, 12),
            candidate(size, "tear", 44, 30),
        ];
        let rec = ClassRecord {
            class_id: 7,
            part: Some(3),
            root_bound: 99,
            nodes: 1234,
            peak_bytes: 5678,
            // Seconds no narrower float or rounding keeps: a record's seconds are kept to
            // the bit, so that a resumed estimate equals one run whole.
            seconds: 1.0 / 3.0,
            check_seconds: 0.1 + 1e-12,
            demulti_count: 2,
            max_demulti: 44,
            results: vec![kept[1]],
            candidates: Some(kept),
        };
        let bytes = rec.encode(4).unwrap();
        assert_eq!(ClassRecord::decode(&bytes, size).unwrap(), rec);
        assert_eq!(payload_len(&bytes, size), Some(bytes.len()));
        let plain = ClassRecord {
            candidates: None,
            ..rec.clone()
        };
        let bytes = plain.encode(4).unwrap();
        assert_eq!(payload_len(&bytes, size), Some(bytes.len()));
        assert_eq!(payload_len(&bytes[..bytes.len() - 1], size), None);
        assert_eq!(
            bytes.len(),
            64 + 16,
            "64 bytes of payload (72 framed), plus one result"
        );
        // What `estimate` projects a journal from.
        assert_eq!(bytes.len() as u64 + 8, RECORD_BYTES + (4 + 12));
        assert_eq!(ClassRecord::decode(&bytes, size).unwrap(), plain);
        // A kept list whose count disagrees with the record is refused.
        let lying = ClassRecord {
            demulti_count: 3,
            ..rec
        };
        let bytes = lying.encode(4).unwrap();
        assert!(ClassRecord::decode(&bytes, size).is_err());
        assert!(count_u32(u32::MAX as usize + 1, "results").is_err());
        // A journal written at once reads back record for record.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let whole = ClassRecord {
            part: None,
            ..plain.clone()
        };
        write_journal(&path, 42, size, std::slice::from_ref(&whole)).unwrap();
        let back = read_journal(&path, 42, size).unwrap();
        assert_eq!(back.classes.get(&7), Some(&whole));
        assert!(!back.torn);
        assert!(
            write_journal(&path, 42, size, &[]).is_err(),
            "never replaces one"
        );
        // Zeros after the last record read as a torn tail; a zeroed record before data is not.
        let mut bytes = std::fs::read(&path).unwrap();
        let good = bytes.len();
        bytes.extend_from_slice(&[0; 40]);
        std::fs::write(&path, &bytes).unwrap();
        let back = read_journal(&path, 42, size).unwrap();
        assert!(back.torn && back.valid_len == good as u64 && back.classes.len() == 1);
        bytes.extend_from_within(16..good);
        std::fs::write(&path, &bytes).unwrap();
        assert!(read_journal(&path, 42, size).is_err());
        assert_eq!(count_u32(u32::MAX as usize, "results"), Ok(u32::MAX));
    }

    /// A damaged length field is corruption, not a torn append, so the records after it are
    /// never dropped; a record cut short at the end is still a torn append.
    #[test]
    fn a_damaged_length_is_refused_and_a_cut_record_is_torn() {
        let size: Size = "2x2".parse().unwrap();
        let record = |class_id: u64, candidates: Option<Vec<Candidate>>| ClassRecord {
            class_id,
            part: None,
            root_bound: 99,
            nodes: 1234,
            peak_bytes: 5678,
            seconds: 1.5,
            check_seconds: 0.25,
            demulti_count: candidates.as_ref().map_or(1, |c| c.len() as u64),
            max_demulti: 44,
            results: vec![candidate(size, "tear", 44, 30)],
            candidates,
        };
        let kept = Some(vec![
            candidate(size, "abcd", 40, 12),
            candidate(size, "tear", 44, 30),
        ]);
        let records = [record(1, None), record(2, kept), record(3, None)];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        write_journal(&path, 42, size, &records).unwrap();
        let good = std::fs::read(&path).unwrap();
        let second = HEADER_LEN as usize + 8 + records[0].encode(4).unwrap().len();
        let third = second + 8 + records[1].encode(4).unwrap().len();
        assert_eq!(good.len(), third + 8 + records[2].encode(4).unwrap().len());
        for (at, len) in [
            (HEADER_LEN as usize, 0x7fff_ffffu32),
            (second, 0x7fff_ffff),
            (third, 0x7fff_ffff),
            (second, (good.len() - second - 8) as u32),
            (third, 1000),
        ] {
            let mut bytes = good.clone();
            bytes[at..at + 4].copy_from_slice(&len.to_le_bytes());
            std::fs::write(&path, &bytes).unwrap();
            let err = read_journal(&path, 42, size).unwrap_err().to_string();
            assert!(err.contains("length field"), "length {len} at {at}: {err}");
        }
        // The last record cut anywhere, its length field whole: a torn append.
        for cut in [third + 3, third + 8, third + 20, good.len() - 1] {
            std::fs::write(&path, &good[..cut]).unwrap();
            let back = read_journal(&path, 42, size).unwrap();
            assert!(back.torn && back.valid_len == third as u64, "cut at {cut}");
            assert_eq!(back.classes.len(), 2);
        }
    }
}
