//! Helpers shared by the end-to-end tests: run the `bogglemax` binary, require success, or
//! require the one-line, exit-status-2 refusal every bad input gets.
#![allow(dead_code)] // each test crate uses its own subset

use bogglemax::board::Size;
use bogglemax::pipeline::{ClassRecord, JournalContents, ShardJournal};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The signal a crash point dies by.
pub const SIGKILL: i32 = 9;

/// The binary under test, with no crash point armed from the caller's environment.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bogglemax"));
    cmd.env_remove("BOGGLEMAX_FAILPOINT");
    cmd
}

/// Runs it with `args` and collects its output.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("bogglemax runs")
}

/// Runs it, asserts success, returns standard output.
pub fn stdout_ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "bogglemax {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Asserts the command fails with status 2 and exactly one line on stderr, mentioning
/// `needle`, without a panic.
pub fn fails_with(args: &[&str], needle: &str) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "bogglemax {args:?} should exit 2; stderr: {err}"
    );
    assert_eq!(
        err.lines().count(),
        1,
        "one stderr line for {args:?}, got: {err}"
    );
    assert!(
        err.contains(needle),
        "stderr of {args:?} lacks {needle:?}: {err}"
    );
    assert!(!err.contains("panicked"), "panic for {args:?}: {err}");
    let parts: Vec<&str> = err.trim_end().split(": ").collect();
    assert!(
        parts.windows(2).all(|w| w[0] != w[1]),
        "a cause is repeated in the message of {args:?}: {err}"
    );
}

/// The ENABLE2K words spelled only with `letters`, written to `dir/words.txt`.
pub fn small_wordlist(dir: &Path, letters: &str) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("wordlists/enable2k.txt"),
    )
    .expect("enable2k");
    let words: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|w| !w.is_empty() && w.chars().all(|c| letters.contains(c)))
        .collect();
    let path = dir.join("words.txt");
    std::fs::write(&path, words.join("\n")).expect("write word list");
    path
}

/// Opens `path` (creating it) and takes its exclusive lock, as a worker breaking the shard
/// would; the lock is held until the returned file is dropped.
pub fn hold_lock(path: &Path) -> std::fs::File {
    let held = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .expect("open");
    held.lock().expect("lock");
    held
}

/// Runs bogglemax with `args` and the crash point `spec`; asserts that it died there.
pub fn crash(args: &[&str], spec: &str) -> Output {
    let out = bin()
        .args(args)
        .env("BOGGLEMAX_FAILPOINT", spec)
        .output()
        .expect("bogglemax runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.signal(),
        Some(SIGKILL),
        "bogglemax {args:?} with BOGGLEMAX_FAILPOINT={spec} should have crashed there \
         ({}); stderr: {err}",
        out.status
    );
    assert!(err.contains("failpoint"), "{err}");
    out
}

/// Writes `journal` anew from `contents`, with `forge` applied to the record of class
/// `victim`: valid checksums, so only an audit of what the records say can tell.
pub fn forge_journal(
    journal: &Path,
    (run_id, size): (u64, Size),
    contents: &JournalContents,
    victim: u64,
    forge: impl Fn(&mut ClassRecord),
) {
    std::fs::remove_file(journal).expect("rm");
    let (mut writer, _) = ShardJournal::open(journal, run_id, size).expect("open");
    for rec in contents.classes.values() {
        let mut rec = rec.clone();
        if rec.class_id == victim {
            forge(&mut rec);
        }
        writer.append(&rec).expect("append");
    }
}
