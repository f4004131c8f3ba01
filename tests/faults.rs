//! Faults a long run meets: a full disk, a second worker while a dying one still holds the
//! lock, a run directory copied to another machine, and the audit of kept candidates.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use bogglemax::board::Size;
use bogglemax::bound::Candidate;
use bogglemax::pipeline::{RunDir, read_journal};

mod common;
use common::{bin, forge_journal, hold_lock, run, small_wordlist, stdout_ok};

const PARTITION_2: &str = "aeiou bcdfghjklmnpqrstvwxyz";

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Plans the test run (2x3 over seven letters, S = 20: a second of work) at `out`.
fn plan(list: &Path, out: &Path) -> std::process::Output {
    bin()
        .args(["plan", "--size", "2x3", "--partition", PARTITION_2])
        .args(["--score", "20", "--shards", "2", "--wordlist", s(list)])
        .args(["--out", s(out)])
        .output()
        .expect("bogglemax runs")
}

/// A finished reference run's results.csv.
fn reference(dir: &Path, list: &Path) -> Vec<u8> {
    let out = dir.join("reference");
    assert!(plan(list, &out).status.success());
    stdout_ok(&["break", s(&out), "--all", "--quiet"]);
    stdout_ok(&["merge", s(&out)]);
    std::fs::read(out.join("results.csv")).expect("results")
}

/// Asserts exit status 2 and one line on stderr containing `needle`.
fn refused(out: &std::process::Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "{needle:?} not in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A small tmpfs, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts a tmpfs of `kib` KiB, or says why it cannot (not root, no mount).
    fn mount(kib: u64) -> Result<SmallDisk, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={kib}k"),
                "tmpfs",
                s(dir.path()),
            ])
            .output()
            .map_err(|e| format!("mount: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "mount -t tmpfs failed (needs root): {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(SmallDisk { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills the disk up to its last byte with a filler file, which `free` removes.
    fn fill(&self) {
        let mut f = std::fs::File::create(self.filler()).expect("filler");
        let chunk = vec![0u8; 4096];
        while f.write_all(&chunk).is_ok() {}
        while f.write_all(&[0u8]).is_ok() {}
        let _ = f.sync_all();
    }

    fn free(&self) {
        std::fs::remove_file(self.filler()).expect("remove filler");
    }

    fn filler(&self) -> PathBuf {
        self.path().join("filler")
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

/// Names of the files and folders under `dir`, recursively, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let p = e.path();
        names.push(p.display().to_string());
        if p.is_dir() {
            names.extend(tree(&p));
        }
    }
    names.sort();
    names
}

#[test]
fn a_full_disk_is_refused_cleanly_and_resumed_after_freeing_space() {
    let home = tempfile::tempdir().expect("tempdir");
    let list = small_wordlist(home.path(), "aerstdn");
    let want = reference(home.path(), &list);
    // Where a tmpfs cannot be mounted the test says SKIPPED; where `.ci/run` found that it
    // can (BOGGLEMAX_REQUIRE_TMPFS), it must run.
    let disk = match SmallDisk::mount(4096) {
        Ok(d) => d,
        Err(why) if std::env::var_os("BOGGLEMAX_REQUIRE_TMPFS").is_some() => {
            panic!("BOGGLEMAX_REQUIRE_TMPFS is set, and {why}")
        }
        Err(why) => {
            eprintln!("SKIPPED a_full_disk_is_refused_cleanly_and_resumed: {why}");
            return;
        }
    };
    let runp = disk.path().join("run");

    // plan on a full disk: one line, and no run (nor a half-made folder) is left.
    disk.fill();
    refused(&plan(&list, &runp), "No space left on device");
    assert_eq!(tree(disk.path()), vec![disk.filler().display().to_string()]);
    disk.free();
    assert!(plan(&list, &runp).status.success());

    // break on a full disk: refused naming the journal; after freeing space it resumes.
    stdout_ok(&["break", s(&runp), "--shard", "0", "--quiet"]);
    disk.fill();
    refused(
        &run(&["break", s(&runp), "--shard", "1", "--quiet"]),
        "00001.journal",
    );
    disk.free();
    stdout_ok(&["break", s(&runp), "--shard", "1", "--quiet"]);

    // merge on a full disk: refused naming the file, no results.csv or summary.txt, nothing
    // temporary left; after freeing space, the same bytes as the reference.
    let before = tree(&runp);
    disk.fill();
    let out = run(&["merge", s(&runp), "--quiet"]);
    refused(&out, "No space left on device");
    assert_eq!(tree(&runp), before, "merge on a full disk left files");
    // The audit only reads: it works on a full disk.
    stdout_ok(&["rescore", s(&runp), "--quiet"]);
    disk.free();
    assert!(stdout_ok(&["merge", s(&runp), "--quiet"]).contains("proof: complete"));
    assert!(std::fs::read(runp.join("results.csv")).expect("results") == want);
}

#[test]
fn wait_lock_waits_for_a_dying_holder() {
    let home = tempfile::tempdir().expect("tempdir");
    let list = small_wordlist(home.path(), "aerstdn");
    let runp = home.path().join("run");
    assert!(plan(&list, &runp).status.success());
    let journal = runp.join("shards/00000.journal");
    let held = hold_lock(&journal);
    // Without --wait-lock: refused at once, saying how to check and what to do.
    refused(
        &run(&["break", s(&runp), "--shard", "0"]),
        "--wait-lock SECONDS",
    );
    // With it: the worker says it waits; once the holder lets go it takes the shard. The
    // test lets go only after reading that line, so no clock decides the outcome.
    let mut child = bin()
        .args([
            "break",
            s(&runp),
            "--shard",
            "0",
            "--quiet",
            "--wait-lock",
            "600",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut err = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    err.read_line(&mut line).expect("read");
    assert!(line.contains("waiting up to 600 s"), "{line}");
    drop(held);
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("shard 0: complete"));
}

/// Copies a folder recursively.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copy");
        }
    }
}

#[test]
fn a_half_broken_run_copied_elsewhere_finishes_there() {
    let home = tempfile::tempdir().expect("tempdir");
    let list = small_wordlist(home.path(), "aerstdn");
    let want = reference(home.path(), &list);
    let runp = home.path().join("run");
    assert!(plan(&list, &runp).status.success());
    stdout_ok(&["break", s(&runp), "--shard", "0", "--quiet"]);
    // Another machine: another folder, the word list no longer where it was planned.
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let copy = elsewhere.path().join("copied-run");
    copy_dir(&runp, &copy);
    std::fs::remove_dir_all(&runp).expect("rm the original");
    std::fs::remove_file(&list).expect("rm the word list");
    assert_eq!(stdout_ok(&["status", s(&copy), "--pending"]), "1\n");
    stdout_ok(&["break", s(&copy), "--all", "--quiet"]);
    assert!(stdout_ok(&["merge", s(&copy), "--quiet"]).contains("proof: complete"));
    assert!(std::fs::read(copy.join("results.csv")).expect("results") == want);
}

#[test]
fn kept_candidates_are_audited() {
    let home = tempfile::tempdir().expect("tempdir");
    let list = small_wordlist(home.path(), "aerstdn");
    let (plain, kept) = (home.path().join("plain"), home.path().join("kept"));
    for (runp, extra) in [(&plain, None), (&kept, Some("--keep-candidates"))] {
        assert!(plan(&list, runp).status.success());
        let mut args = vec!["break", s(runp), "--all", "--quiet"];
        args.extend(extra);
        stdout_ok(&args);
    }
    let summary = stdout_ok(&["merge", s(&kept), "--quiet"]);
    let candidates = summary
        .lines()
        .find_map(|l| l.strip_prefix("candidates: "))
        .expect("candidates line");
    assert!(candidates.parse::<u64>().expect("count") > 0);
    // The same results either way (a plain run prunes by Score, so it counts fewer
    // candidates); the kept list is audited candidate by candidate.
    let plain_summary = stdout_ok(&["merge", s(&plain), "--quiet"]);
    let plain_candidates = plain_summary
        .lines()
        .find_map(|l| l.strip_prefix("candidates: "))
        .expect("candidates line");
    assert!(plain_candidates.parse::<u64>().expect("count") <= candidates.parse().expect("count"));
    assert_eq!(
        std::fs::read(plain.join("results.csv")).expect("results"),
        std::fs::read(kept.join("results.csv")).expect("results")
    );
    let audit = stdout_ok(&["rescore", s(&kept), "--quiet"]);
    assert!(
        audit.contains(&format!("rescored {candidates} kept candidates")),
        "{audit}"
    );
    assert!(audit.ends_with("audit: passed\n"), "{audit}");
    let plain_audit = stdout_ok(&["rescore", s(&plain), "--quiet"]);
    assert!(!plain_audit.contains("kept candidates"), "{plain_audit}");

    // Kept lists that do not hold (written with valid checksums): a candidate's score forged,
    // its DeMulti forged above the largest the record counts. (A lost candidate is refused as
    // corrupt when the journal is read: the list's length is checked there.) Each fails the
    // audit, naming the class; the results are left as they were, so only the kept list can
    // tell.
    let size: Size = "2x3".parse().expect("size");
    let run_id = RunDir::open(&kept).expect("run").manifest().run_id();
    let (journal, contents, victim, board) = (0..2)
        .find_map(|k| {
            let journal = kept.join(format!("shards/{k:05}.journal"));
            let contents = read_journal(&journal, run_id, size).expect("read");
            let (victim, board) = contents.classes.values().find_map(|r| {
                let kept = r.candidates.as_ref()?;
                let c = kept.iter().find(|c| !r.results.contains(c))?;
                Some((r.class_id, c.board))
            })?;
            Some((journal, contents, victim, board))
        })
        .expect("a class with a kept candidate that is not a result");
    type Forge = fn(&mut Candidate);
    let forgeries: [(Forge, String); 2] = [
        (
            |c| c.score += 1,
            format!("candidate {board} journaled with score"),
        ),
        (
            |c| c.demulti = u32::MAX,
            "kept candidates (largest DeMulti".to_string(),
        ),
    ];
    for (forge, what) in forgeries {
        forge_journal(&journal, (run_id, size), &contents, victim, |rec| {
            let kept = rec.candidates.as_mut().expect("kept");
            forge(kept.iter_mut().find(|c| c.board == board).expect("there"))
        });
        let out = run(&["rescore", s(&kept), "--quiet"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{what}: {text} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains(&format!("class {victim}: ")) && text.contains(&what),
            "{what}: {text}"
        );
    }
}
