//! Crash-and-resume tests. Every crash is placed by progress, never by the clock: a named
//! crash point (src/failpoint.rs) kills the worker at the K-th journaled class, the K-th
//! top-split checkpoint, halfway through writing a record, or between writing an output and
//! renaming it; and one test sends a real KILL, TERM, INT or HUP from outside, in turn, to
//! workers paused after a journaled class. Whatever the machine's speed or load, the same crash happens at
//! the same step, and every resumed run must give a `results.csv` byte-identical to an
//! uninterrupted run's, with the same number of candidates checked.
//!
//! The crash points exist only in builds with the `failpoints` feature (`make test`); without
//! it these tests are ignored, with that reason.

use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

mod common;
use common::{SIGKILL, bin, crash, small_wordlist, stdout_ok};

const PARTITION_2: &str = "aeiou bcdfghjklmnpqrstvwxyz";
/// Only turns a hung worker into a clear failure; no test waits for it on a healthy run.
const HANG_LIMIT: Duration = Duration::from_secs(600);

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The test run: 3x3 over a word list of nine letters at S = 440: 102 classes in 2 shards, a
/// few CPU-seconds, a few dozen results.
struct Setup {
    _dir: tempfile::TempDir,
    root: PathBuf,
    list: PathBuf,
    /// The uninterrupted run's results.csv, and the summary's line that counts candidates.
    results: Vec<u8>,
    candidates: String,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().to_path_buf();
        let list = small_wordlist(&root, "aeirstdnl");
        let mut setup = Setup {
            _dir: dir,
            root,
            list,
            results: Vec::new(),
            candidates: String::new(),
        };
        let reference = setup.plan("reference");
        stdout_ok(&["break", s(&reference), "--all", "--quiet"]);
        let summary = stdout_ok(&["merge", s(&reference)]);
        setup.results = std::fs::read(reference.join("results.csv")).expect("results");
        setup.candidates = candidates_line(&summary);
        assert!(
            setup.results.iter().filter(|&&b| b == b'\n').count() > 10,
            "the reference run has results"
        );
        setup
    }

    fn plan_args(&self, out: &Path) -> Vec<String> {
        [
            "plan",
            "--size",
            "3x3",
            "--partition",
            PARTITION_2,
            "--score",
            "440",
            "--shards",
            "2",
            "--wordlist",
            s(&self.list),
            "--out",
            s(out),
        ]
        .map(String::from)
        .to_vec()
    }

    fn plan(&self, name: &str) -> PathBuf {
        let out = self.root.join(name);
        let args = self.plan_args(&out);
        stdout_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
        out
    }

    /// Merges `run` and asserts a complete proof with the reference's results.
    fn assert_same_as_reference(&self, run: &Path) {
        let summary = stdout_ok(&["merge", s(run)]);
        assert!(summary.contains("proof: complete"), "{summary}");
        assert_eq!(
            candidates_line(&summary),
            self.candidates,
            "{}",
            run.display()
        );
        self.assert_results(run);
    }

    fn assert_results(&self, run: &Path) {
        assert!(
            std::fs::read(run.join("results.csv")).expect("results") == self.results,
            "{}: results.csv differs from the uninterrupted run's",
            run.display()
        );
    }
}

/// The summary's `candidates: N` line: every candidate checked once, none lost or doubled.
fn candidates_line(summary: &str) -> String {
    let line = summary.lines().find(|l| l.starts_with("candidates: "));
    line.expect("a candidates line").to_string()
}

#[test]
#[cfg_attr(
    not(feature = "failpoints"),
    ignore = "needs the crash points: make test, or cargo test --features failpoints"
)]
fn crash_at_every_journal_point_then_resume() {
    let setup = Setup::new();
    // (point, the K-th pass to die at, extra break flags). `--checkpoint-secs 0` makes every
    // class journal its top-split branches.
    let cases: &[(&str, &[u64], &[&str])] = &[
        ("class-journaled", &[1, 4, 40], &[]),
        ("part-journaled", &[1, 6, 60], &["--checkpoint-secs", "0"]),
        ("journal-torn", &[1, 5, 50], &[]),
        ("journal-torn", &[3], &["--checkpoint-secs", "0"]),
    ];
    for &(point, ks, extra) in cases {
        for &k in ks {
            let run = setup.plan(&format!("{point}-{k}-{}", extra.len()));
            let mut args = vec!["break", s(&run), "--all", "--quiet"];
            args.extend_from_slice(extra);
            crash(&args, &format!("{point}:{k}"));
            let out = stdout_ok(&args);
            if point == "journal-torn" {
                assert!(
                    out.contains("dropped a torn last record"),
                    "{point}:{k}: {out}"
                );
            }
            setup.assert_same_as_reference(&run);
        }
    }
}

#[test]
#[cfg_attr(
    not(feature = "failpoints"),
    ignore = "needs the crash points: make test, or cargo test --features failpoints"
)]
fn repeated_crashes_each_resume_where_the_last_stopped() {
    let setup = Setup::new();
    let run = setup.plan("repeated");
    // Each run dies at its own 7th journaled record (a class or a top-split branch), so each
    // makes progress; the run that finishes without reaching a 7th record exits cleanly.
    let args = [
        "break",
        s(&run),
        "--all",
        "--quiet",
        "--checkpoint-secs",
        "0",
    ];
    let mut crashes = 0;
    loop {
        let out = bin()
            .args(args)
            .env("BOGGLEMAX_FAILPOINT", "part-journaled:7")
            .output()
            .expect("bogglemax runs");
        if out.status.success() {
            break;
        }
        assert_eq!(out.status.signal(), Some(SIGKILL), "{:?}", out);
        crashes += 1;
        assert!(crashes < 1000, "no progress between crashes");
    }
    assert!(crashes >= 3, "only {crashes} crashes");
    setup.assert_same_as_reference(&run);
}

#[test]
#[cfg_attr(
    not(feature = "failpoints"),
    ignore = "needs the crash points: make test, or cargo test --features failpoints"
)]
fn crash_before_each_rename_leaves_no_half_output() {
    let setup = Setup::new();

    // plan: the dictionary, 2 shards, the manifest, then the run folder itself. Killed before
    // any of these renames, no run exists under the name, and planning again works.
    for k in 1..=5 {
        let out = setup.root.join(format!("plan-{k}"));
        let args = setup.plan_args(&out);
        crash(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
            &format!("before-rename:{k}"),
        );
        assert!(!out.exists(), "plan killed before rename {k} left {out:?}");
        setup.plan(&format!("plan-{k}"));
        // The killed plan's half-made folder is gone too: the new plan removed it.
        let half_made: Vec<_> = std::fs::read_dir(&setup.root)
            .expect("read_dir")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with(&format!(".plan-{k}.planning-")))
            .collect();
        assert!(half_made.is_empty(), "left: {half_made:?}");
    }
    let run = setup.root.join("plan-5");
    stdout_ok(&["break", s(&run), "--all", "--quiet"]);

    // merge: results.csv, then summary.txt; a file is either absent or whole, and the
    // merge after the crash gives the same bytes.
    let names = ["results.csv", "summary.txt"];
    for k in 1..=2 {
        crash(&["merge", s(&run)], &format!("before-rename:{k}"));
        for (i, name) in names.iter().enumerate() {
            assert_eq!(
                run.join(name).exists(),
                i + 1 < k,
                "merge killed before rename {k}: {name}"
            );
        }
        if k == 2 {
            setup.assert_results(&run);
        }
        setup.assert_same_as_reference(&run);
        for name in names {
            std::fs::remove_file(run.join(name)).expect("rm");
        }
    }
}

/// Starts `break` with a worker that pauses after its `k`-th journaled class, waits (by its
/// progress, not a clock) until it has paused, and stops it with `signal` from outside.
/// Returns what it wrote on standard error.
fn stop_paused_break(run: &Path, k: u64, signal: i32) -> String {
    use std::os::unix::process::CommandExt;
    let mut command = bin();
    command
        .args(["break", s(run), "--all", "--quiet"])
        .env("BOGGLEMAX_FAILPOINT", format!("class-journaled:{k}:pause"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // A test run started in the background of a script has INT ignored (under nohup, HUP
    // too), and the worker would inherit that (and rightly keep it), or a harness may start
    // it with signals blocked: give the worker INT's and HUP's default actions and no
    // blocked signal.
    // SAFETY: between fork and exec only `signal(2)`, `sigemptyset(3)` and
    // `sigprocmask(2)`, all async-signal-safe, on a set on this stack.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGHUP, libc::SIG_DFL);
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
            Ok(())
        });
    }
    let mut child = command.spawn().expect("spawn");
    let stderr = child.stderr.take().expect("piped stderr");
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if line.contains("paused") {
                let _ = tx.send(());
            }
            text += &line;
            text.push('\n');
        }
        text
    });
    let paused = rx.recv_timeout(HANG_LIMIT);
    let still_running = child.try_wait().expect("try_wait").is_none();
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: a signal to our own child, not yet reaped, so `pid` is still its.
    let sent = unsafe { libc::kill(pid, signal) } == 0;
    // Only turns a worker the signal did not end into a clear failure.
    let deadline = std::time::Instant::now() + HANG_LIMIT;
    while sent && child.try_wait().expect("try_wait").is_none() {
        if std::time::Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let status = child.wait().expect("reap");
    let stderr = reader.join().expect("stderr reader");
    assert!(
        paused.is_ok() && still_running && sent,
        "break did not pause after {k} journaled classes, or could not be signalled \
         (exit: {status}): {stderr}"
    );
    assert_eq!(status.signal(), Some(signal), "{stderr}");
    let pending = stdout_ok(&["status", s(run), "--pending"]);
    assert!(!pending.is_empty(), "work was left when it was stopped");
    stderr
}

/// A KILL from outside (the out-of-memory killer's) ends a worker without a word; a TERM
/// (Slurm's at a time limit, a batch script's, `kill`'s) or an INT (Ctrl-C) ends it by that
/// signal too, with a last line saying what is kept and how to go on. Each time the run
/// resumes, and the whole equals an uninterrupted run.
#[test]
#[cfg_attr(
    not(feature = "failpoints"),
    ignore = "needs the crash points: make test, or cargo test --features failpoints"
)]
fn signals_from_outside_then_resume() {
    let setup = Setup::new();
    let run = setup.plan("signals");
    let cases = [
        (1, libc::SIGKILL, None),
        (2, libc::SIGTERM, Some("TERM")),
        (3, libc::SIGKILL, None),
        (5, libc::SIGINT, Some("INT")),
        (2, libc::SIGHUP, Some("HUP")),
        (10, libc::SIGKILL, None),
    ];
    for (k, signal, name) in cases {
        let stderr = stop_paused_break(&run, k, signal);
        let last = stderr.lines().last().unwrap_or("");
        match name {
            Some(name) => assert_eq!(
                last,
                format!(
                    "bogglemax: stopped by SIG{name}; the classes finished are kept in the \
                     journals of {}; `bogglemax break` of it again resumes the rest",
                    run.display()
                ),
                "{stderr}"
            ),
            None => assert!(!stderr.contains("stopped by"), "{stderr}"),
        }
    }
    stdout_ok(&["break", s(&run), "--all", "--quiet"]);
    setup.assert_same_as_reference(&run);
}

#[test]
#[cfg_attr(
    not(feature = "failpoints"),
    ignore = "needs the crash points: make test, or cargo test --features failpoints"
)]
fn batch_logs_name_the_class_a_stuck_worker_is_on() {
    let setup = Setup::new();
    let run = setup.plan("stuck");
    // A worker stuck after its 2nd journaled class (paused there), its standard error a pipe
    // as in a batch log, a progress line every second: the lines go on while nothing
    // finishes, and name the class it is stuck on.
    let mut child = bin()
        .args(["break", s(&run), "--all", "--threads", "1"])
        .env("BOGGLEMAX_FAILPOINT", "class-journaled:2:pause")
        .env("BOGGLEMAX_PROGRESS_SECS", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let stderr = child.stderr.take().expect("piped stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut paused = false;
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            paused |= line.contains("paused");
            // The first progress line after the pause, with the paused class running.
            if paused && line.contains("running: class") {
                let _ = tx.send(line);
                break;
            }
        }
    });
    let line = rx.recv_timeout(HANG_LIMIT);
    child.kill().expect("SIGKILL");
    child.wait().expect("reap");
    let line = line.expect("a progress line naming the running class");
    assert!(
        line.starts_with("shard 0: 1/") && line.contains(" classes, ") && line.contains(" CPU-s"),
        "{line}"
    );
    assert!(line.contains("; running: class "), "{line}");
}

/// Two `plan --reuse` of one run (two machines starting a job array at once) race: the first
/// is held as it writes its folder (under a temporary name), the second plans the run whole,
/// then the first goes on. It must find the run made when it renames its folder into place,
/// reuse it (same settings) or refuse it (other settings), and leave neither its own
/// half-made folder nor a change to the run.
#[test]
#[cfg_attr(
    not(feature = "failpoints"),
    ignore = "needs the crash points: make test, or cargo test --features failpoints"
)]
fn two_plans_of_one_run_race_and_the_later_one_reuses_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let list = small_wordlist(dir.path(), "aeirstdnl");
    let plan_args = |score: &str, run: &Path| {
        let args = [
            "plan",
            "--reuse",
            "--size",
            "3x3",
            "--partition",
            PARTITION_2,
            "--shards",
            "2",
            "--score",
            score,
            "--wordlist",
            s(&list),
            "--out",
            s(run),
        ];
        args.map(String::from)
    };
    for (score, outcome) in [("440", "reusing"), ("441", "planned with other settings")] {
        let run = dir.path().join(format!("run-{score}"));
        let go = dir.path().join(format!("go-{score}"));
        // Killed if an assertion fails first: it would wait for its go file for ever.
        let mut held = KillOnDrop(Some(
            bin()
                .args(plan_args(score, &run))
                .env("BOGGLEMAX_FAILPOINT", "before-rename:1:wait")
                .env("BOGGLEMAX_FAILPOINT_GO", &go)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn"),
        ));
        let stderr = held
            .0
            .as_mut()
            .and_then(|c| c.stderr.take())
            .expect("piped stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = Vec::new();
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if line.contains("waiting for") {
                    let _ = tx.send(String::new());
                }
                lines.push(line);
            }
            let _ = tx.send(lines.join("\n"));
        });
        let first = rx.recv_timeout(HANG_LIMIT);
        assert!(
            first.as_deref() == Ok(""),
            "the first plan never reached its rename: {first:?}"
        );
        // The second plan makes the run (at S = 440) while the first waits.
        let second = plan_args("440", &run);
        let said = stdout_ok(&second.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(said.starts_with("planned "), "{said}");
        let manifest = std::fs::read(run.join("manifest.bmx")).expect("manifest");
        std::fs::write(&go, b"").expect("go");
        let out = held
            .0
            .take()
            .expect("held")
            .wait_with_output()
            .expect("wait");
        let err = rx.recv_timeout(HANG_LIMIT).expect("stderr");
        let said = format!("{}{err}", String::from_utf8_lossy(&out.stdout));
        assert!(said.contains(outcome), "{score}: {said}");
        assert_eq!(out.status.success(), score == "440", "{score}: {said}");
        assert_eq!(
            std::fs::read(run.join("manifest.bmx")).expect("manifest"),
            manifest,
            "the run is as the winner planned it"
        );
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .expect("read_dir")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.contains("planning"))
            .collect();
        assert!(left.is_empty(), "half-made folders left: {left:?}");
    }
}

/// A child process that is killed (and reaped) when dropped, unless taken out first.
struct KillOnDrop(Option<std::process::Child>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
