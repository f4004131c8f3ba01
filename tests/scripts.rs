//! The shell drivers in scripts/, run as a user would: from another working directory, with
//! relative paths, which must be taken from that directory, not the repository's.

use std::path::Path;
use std::process::Command;

mod common;
use common::{small_wordlist, stdout_ok};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `script` with `args` in `cwd`, the binary under test as BOGGLEMAX; asserts success.
fn script(cwd: &Path, script: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let out = Command::new(repo().join("scripts").join(script))
        .args(args)
        .current_dir(cwd)
        .env("BOGGLEMAX", env!("CARGO_BIN_EXE_bogglemax"))
        .envs(env.iter().copied())
        .output()
        .expect("script runs");
    assert!(
        out.status.success(),
        "{script} {args:?} in {}: {}{}",
        cwd.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Whether GNU parallel is installed, for the tests of break-parallel.sh. CI installs it and
/// says it must run (BOGGLEMAX_REQUIRE_PARALLEL), so that the script cannot go untested there.
fn has_parallel() -> bool {
    let installed = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && o.stdout.starts_with(b"GNU parallel"));
    assert!(
        installed || std::env::var_os("BOGGLEMAX_REQUIRE_PARALLEL").is_none(),
        "BOGGLEMAX_REQUIRE_PARALLEL is set, and GNU parallel is not installed"
    );
    installed
}

fn plan_here(dir: &Path, name: &str) {
    let list = dir.join("words.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_bogglemax"))
        .args([
            "plan",
            "--size",
            "2x3",
            "--partition",
            "aeiou bcdfghjklmnpqrstvwxyz",
        ])
        .args(["--score", "20", "--shards", "3", "--wordlist", "words.txt"])
        .args(["--out", name])
        .current_dir(dir)
        .output()
        .expect("plan");
    assert!(out.status.success(), "{out:?}");
    assert!(list.exists());
}

#[test]
fn scripts_take_relative_paths_from_the_callers_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    small_wordlist(dir.path(), "aerstdn");

    // break-xargs.sh with a relative RUN.
    plan_here(dir.path(), "run-xargs");
    script(dir.path(), "break-xargs.sh", &["run-xargs", "2"], &[]);
    let run = dir.path().join("run-xargs");
    assert_eq!(
        stdout_ok(&["status", run.to_str().unwrap(), "--pending"]),
        ""
    );

    if has_parallel() {
        plan_here(dir.path(), "run-parallel");
        script(dir.path(), "break-parallel.sh", &["run-parallel", "2"], &[]);
        let run = dir.path().join("run-parallel");
        assert_eq!(
            stdout_ok(&["status", run.to_str().unwrap(), "--pending"]),
            ""
        );
        assert!(run.join("parallel.joblog").exists());
    } else {
        eprintln!("break-parallel.sh not run: GNU parallel is not installed");
    }

    // proof.sh with a relative RUN and WORDLIST: the run is made here, not in the repository.
    let out = script(
        dir.path(),
        "proof.sh",
        &["2x3"],
        &[
            ("RUN", "run-proof"),
            ("WORDLIST", "words.txt"),
            ("SCORE", "20"),
            ("SHARDS", "2"),
            ("PARTITION", "aeiou bcdfghjklmnpqrstvwxyz"),
            ("JOBS", "2"),
        ],
    );
    assert!(out.contains("proof: complete"), "{out}");
    assert!(dir.path().join("run-proof/results.csv").exists());
    // It ends by printing the page that shows the run.
    let last = out.lines().last().unwrap_or_default();
    let page = dir.path().join("run-proof/report.html");
    assert_eq!(
        last,
        format!("report: {} (open it in a browser)", page.display()),
        "{out}"
    );
    assert!(page.exists());
    assert!(!repo().join("run-proof").exists());
}

/// Both break scripts go on past a worker killed by a signal (an out-of-memory kill) and past
/// a shard another worker holds (a second machine sharing the run), breaking every other
/// shard; they exit 1 naming the killed shard and what is left, and a rerun finishes it. The
/// killed worker is a wrapper that kills itself on shard 0, so nothing races the work.
#[test]
fn break_scripts_go_on_past_a_killed_worker_and_a_held_shard() {
    use common::hold_lock;
    let dir = tempfile::tempdir().expect("tempdir");
    small_wordlist(dir.path(), "aerstdn");
    let killer = dir.path().join("killed-on-shard-0.sh");
    std::fs::write(
        &killer,
        format!(
            "#!/usr/bin/env bash\n[[ $1 == break && $4 == 0 ]] && kill -9 $$\nexec '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_bogglemax")
        ),
    )
    .expect("write wrapper");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&killer, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mut scripts = vec!["break-xargs.sh"];
    if has_parallel() {
        scripts.push("break-parallel.sh");
    }
    for name in scripts {
        let run = format!("run-{name}");
        plan_here(dir.path(), &run);
        let pending = || {
            stdout_ok(&[
                "status",
                dir.path().join(&run).to_str().unwrap(),
                "--pending",
            ])
        };
        let broken = |bin: &Path| {
            Command::new(repo().join("scripts").join(name))
                .args([run.as_str(), "1"])
                .current_dir(dir.path())
                .env("BOGGLEMAX", bin)
                .output()
                .expect("script runs")
        };

        let killed = broken(&killer);
        let err = String::from_utf8_lossy(&killed.stderr);
        assert_eq!(killed.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains("1 shard(s) unfinished"), "{name}: {err}");
        assert!(
            err.contains("shard 0: the worker was killed by signal 9"),
            "{name} names the killed worker: {err}"
        );
        assert_eq!(pending(), "0\n", "{name}: only the killed shard is left");

        let held = hold_lock(&dir.path().join(&run).join("shards/00000.journal"));
        let skipped = broken(Path::new(env!("CARGO_BIN_EXE_bogglemax")));
        let out = String::from_utf8_lossy(&skipped.stdout);
        assert_eq!(skipped.status.code(), Some(1), "{name}: {skipped:?}");
        assert!(
            out.contains("shard 0: skipped, another process holds it"),
            "{name}: {out}"
        );
        assert_eq!(
            pending(),
            "0\n",
            "{name}: the held shard is left to its holder"
        );
        drop(held);

        script(dir.path(), name, &[run.as_str(), "1"], &[]);
        assert_eq!(pending(), "", "{name}: a rerun finishes the run");
    }
}

/// A signal to a break script stops its workers with it (a `kill` of the script, a batch
/// system's TERM): before, xargs or parallel and their workers were left running, starting
/// new shards. So does a TERM to `proof.sh`'s whole process group (Ctrl-C, `timeout`), which
/// reaches break-xargs.sh twice: from the sender, and passed on by proof.sh. The worker is a
/// wrapper that marks its start and then waits, so the test signals once the marker is there
/// and then waits for the worker to be gone (waits on conditions, not races against the
/// work); a script that does not end is killed, with its worker, and the test fails.
#[test]
fn break_scripts_stop_their_workers_when_they_are_stopped() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().expect("tempdir");
    small_wordlist(dir.path(), "aerstdn");
    let worker = dir.path().join("waiting-worker.sh");
    std::fs::write(
        &worker,
        format!(
            "#!/usr/bin/env bash\n\
             if [[ $1 == break ]]; then echo $$ > \"$2.started-$4\"; exec sleep 600; fi\n\
             exec '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_bogglemax")
        ),
    )
    .expect("write wrapper");
    std::fs::set_permissions(&worker, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let kill = |how: &str, target: &str| {
        Command::new("kill")
            .args([how, "--", target])
            .status()
            .is_ok_and(|s| s.success())
    };
    // Whether process `pid` is gone (or a zombie its reaper has yet to collect).
    let gone = |pid: &str| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        state.is_empty() || state.starts_with('Z')
    };
    let within = |done: &mut dyn FnMut() -> bool| {
        let deadline = Instant::now() + Duration::from_secs(120);
        while !done() {
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        true
    };
    let mut cases = vec![("break-xargs.sh", false), ("proof.sh", true)];
    if has_parallel() {
        cases.push(("break-parallel.sh", false));
    }
    for (name, to_group) in cases {
        let run = format!("run-{name}");
        plan_here(dir.path(), &run);
        let stderr = dir.path().join(format!("{run}.stderr"));
        let mut command = Command::new(repo().join("scripts").join(name));
        if name == "proof.sh" {
            // It resumes the run planned above, with that run's partition and shards.
            command.arg("2x3").envs([
                ("RUN", run.as_str()),
                ("WORDLIST", "words.txt"),
                ("SCORE", "20"),
                ("JOBS", "1"),
            ]);
        } else {
            command.args([run.as_str(), "1"]);
        }
        let mut child = command
            .current_dir(dir.path())
            .env("BOGGLEMAX", &worker)
            // Files, not the test's pipes: a worker left running would hold them open.
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(&stderr).expect("stderr file"))
            .process_group(0)
            .spawn()
            .expect("script starts");
        let script = child.id().to_string();
        let started = |shard: u32| dir.path().join(format!("{run}.started-{shard}"));
        let marked =
            within(&mut || std::fs::read_to_string(started(0)).is_ok_and(|s| s.ends_with('\n')));
        if !marked {
            kill("-KILL", &format!("-{script}"));
            panic!("{name}: no worker started");
        }
        let pid = std::fs::read_to_string(started(0)).unwrap();
        let pid = pid.trim().to_string();
        let target = if to_group {
            format!("-{script}")
        } else {
            script.clone()
        };
        assert!(kill("-TERM", &target), "{name}: kill {target}");
        let mut status = None;
        if !within(&mut || {
            status = child.try_wait().expect("try_wait");
            status.is_some()
        }) {
            kill("-KILL", &format!("-{script}"));
            kill("-KILL", &pid);
            panic!("{name}: still running two minutes after TERM");
        }
        let status = status.expect("ended");
        let err = std::fs::read_to_string(&stderr).expect("stderr");
        assert_eq!(status.signal(), Some(15), "{name}: {status:?}: {err}");
        assert!(
            err.contains("stopped by SIGTERM (the workers too)"),
            "{name}: {err}"
        );
        if !within(&mut || gone(&pid)) {
            kill("-KILL", &pid);
            panic!("{name}: worker {pid} still runs");
        }
        for shard in 1..3 {
            assert!(!started(shard).exists(), "{name}: shard {shard} started");
        }
    }
}

/// `publish.sh --table` rebuilds a results folder's table from its results files only (a
/// notes file beside them is named and left out, where it used to stop the rebuild), and
/// fails with exit 2, naming the cause, for a folder that does not exist and a README
/// without the table's markers; an unknown word list name lists the names there are.
#[test]
fn publish_table_and_list_names_explain_what_they_cannot_do() {
    let dir = tempfile::tempdir().expect("tempdir");
    let results = dir.path().join("res");
    std::fs::create_dir(&results).expect("mkdir");
    let published = "3x3-enable2k-standard-500.txt";
    std::fs::copy(
        repo().join("results").join(published),
        results.join(published),
    )
    .expect("copy a results file");
    std::fs::write(results.join("my-notes.txt"), "notes: not a results file\n").expect("write");
    let publish = |env: &[(&str, &str)], args: &[&str]| {
        Command::new(repo().join("scripts/publish.sh"))
            .args(args)
            .current_dir(dir.path())
            .env("BOGGLEMAX", env!("CARGO_BIN_EXE_bogglemax"))
            .envs(env.iter().copied())
            .output()
            .expect("publish.sh runs")
    };
    let out = publish(&[("RESULTS", "res")], &["--table"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("my-notes.txt has no results header"), "{err}");
    let table = std::fs::read_to_string(results.join("README.md")).expect("README");
    assert!(
        table.contains(&format!("[{published}]({published})")),
        "{table}"
    );
    assert!(!table.contains("my-notes"), "{table}");

    let out = publish(&[("RESULTS", "missing")], &["--table"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no results folder"));

    std::fs::write(results.join("README.md"), "# notes of my own\n").expect("write");
    let out = publish(&[("RESULTS", "res")], &["--table"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("lacks the lines"));

    let lists = dir.path().join("lists");
    std::fs::create_dir(&lists).expect("mkdir");
    std::fs::write(lists.join("mine.txt"), "tea\neat\n").expect("write");
    std::fs::create_dir(dir.path().join("empty")).expect("mkdir");
    for (lists, name, said) in [
        ("lists", "nosuch", "the names there: mine"),
        ("lists", "mine.txt", "give the name without .txt: mine"),
        ("empty", "nosuch", "the names there: none"),
        ("missing", "nosuch", "the names there: none"),
    ] {
        let out = publish(&[("WORDLISTS", lists)], &["3x3", name]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(said), "{name}: {err}");
    }
    // Without WORDLISTS, the lists the repository ships are looked for first.
    let out = publish(&[], &["3x3", "nosuch"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let shipped = repo().join("wordlists");
    let shipped = shipped.canonicalize().expect("wordlists/");
    assert!(
        err.contains(&format!("in {} ", shipped.display())) && err.contains(" yawl"),
        "{err}"
    );
}

/// `proof.sh` estimates a new 4x4-style run first (ESTIMATE=1 here, on a small 2x3 proof)
/// and plans it by the estimate's costs; one projected past MAX_HOURS is planned but not
/// broken (exit 3, the Slurm way shown), again on a rerun, until FORCE=1; ESTIMATE_ONLY=1
/// only prints the estimate.
#[test]
fn proof_script_estimates_first_and_refuses_long_local_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    small_wordlist(dir.path(), "aerstdn");
    let env = |extra: &[(&'static str, &'static str)]| {
        let mut v = vec![
            ("WORDLIST", "words.txt"),
            ("SCORE", "20"),
            ("SHARDS", "3"),
            ("JOBS", "1"),
            ("PARTITION", "aeiou bcdfghjklmnpqrstvwxyz"),
            ("ESTIMATE", "1"),
            ("ESTIMATE_BUDGET", "1"),
        ];
        v.extend_from_slice(extra);
        v
    };
    let run = |extra: &[(&'static str, &'static str)]| {
        Command::new(repo().join("scripts/proof.sh"))
            .arg("2x3")
            .current_dir(dir.path())
            .env("BOGGLEMAX", env!("CARGO_BIN_EXE_bogglemax"))
            .envs(env(extra))
            .output()
            .expect("proof.sh runs")
    };

    let only = run(&[("ESTIMATE_ONLY", "1"), ("RUN", "only")]);
    assert!(only.status.success(), "{only:?}");
    let text = String::from_utf8_lossy(&only.stdout);
    assert!(
        text.contains("cpu_hours: ") && text.contains("slurm_time: "),
        "{text}"
    );
    assert!(
        !dir.path().join("only").exists(),
        "ESTIMATE_ONLY plans nothing"
    );
    // A scoring's name stays a name beside a file of that name (not a scoring table).
    std::fs::write(dir.path().join("words"), "not a scoring table\n").expect("write");
    let named = run(&[
        ("ESTIMATE_ONLY", "1"),
        ("RUN", "named"),
        ("SCORING", "words"),
    ]);
    assert!(named.status.success(), "{named:?}");

    for _ in 0..2 {
        let refused = run(&[("MAX_HOURS", "0"), ("RUN", "long")]);
        assert_eq!(refused.status.code(), Some(3), "{refused:?}");
        let err = String::from_utf8_lossy(&refused.stderr);
        assert!(
            err.contains("FORCE=1") && err.contains("--from-estimate"),
            "{err}"
        );
        assert!(
            dir.path().join("long/estimate.txt").exists(),
            "planned, estimate kept"
        );
        assert!(!dir.path().join("long/results.csv").exists(), "not broken");
    }
    let forced = run(&[("MAX_HOURS", "0"), ("RUN", "long"), ("FORCE", "1")]);
    assert!(forced.status.success(), "{forced:?}");
    assert!(String::from_utf8_lossy(&forced.stdout).contains("proof: complete"));
    // Finished (here, or on a cluster): nothing is left to break, so it merges without FORCE.
    let finished = run(&[("MAX_HOURS", "0"), ("RUN", "long")]);
    assert!(finished.status.success(), "{finished:?}");
    assert!(String::from_utf8_lossy(&finished.stdout).contains("proof: complete"));

    let out = script(
        dir.path(),
        "proof.sh",
        &["2x3"],
        &[&env(&[])[..], &[("RUN", "ok")]].concat(),
    );
    assert!(out.contains("proof: complete"), "{out}");
    let saved = std::fs::read_to_string(dir.path().join("ok/estimate.txt")).expect("estimate kept");
    assert!(saved.contains("tasks: 3"), "{saved}");
}

/// `proof.sh` without PARTITION or SHARDS resumes a run with the partition and shard count it
/// was planned with (a new 4x4 run's partition depends on the machine's memory, and a run may
/// have been planned for a cluster); a rerun that names another partition is refused and
/// leaves the run as it was.
#[test]
fn proof_script_resumes_a_run_with_its_own_partition() {
    let dir = tempfile::tempdir().expect("tempdir");
    small_wordlist(dir.path(), "aerstdn");
    let run = |partition: Option<&str>, shards: Option<&str>| {
        let mut command = Command::new(repo().join("scripts/proof.sh"));
        command
            .arg("2x3")
            .current_dir(dir.path())
            .env("BOGGLEMAX", env!("CARGO_BIN_EXE_bogglemax"))
            .envs([
                ("RUN", "run"),
                ("WORDLIST", "words.txt"),
                ("SCORE", "20"),
                ("JOBS", "1"),
            ])
            .env_remove("PARTITION")
            .env_remove("SHARDS");
        if let Some(p) = partition {
            command.env("PARTITION", p);
        }
        if let Some(n) = shards {
            command.env("SHARDS", n);
        }
        command.output().expect("proof.sh runs")
    };
    let results = dir.path().join("run/results.csv");

    // Two shards, not the 64 a new 2x3 run gets: a rerun keeps them too.
    let first = run(Some("aeiou bcdfghjklmnpqrstvwxyz"), Some("2"));
    assert!(first.status.success(), "{first:?}");
    let planned = std::fs::read_to_string(&results).expect("results.csv");
    assert!(planned.lines().count() > 1, "{planned}");

    let again = run(None, None);
    assert!(again.status.success(), "{again:?}");
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(
        text.contains("(same settings)") && text.contains("proof: complete"),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&results).expect("results"), planned);

    let other = run(
        Some("aeiou bcdfghjklmnpqrstvwxyz, corner:abcdefghijklmnopqrstuvwxyz"),
        None,
    );
    assert!(!other.status.success(), "{other:?}");
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(err.contains("planned with other settings"), "{err}");
    assert_eq!(std::fs::read_to_string(&results).expect("results"), planned);

    // A 3x3 run planned by hand with plan's switchover (9/4 x S), not proof.sh's 8 x S for
    // 3x3: proof.sh keeps the run's. (S = 350 on these words: a few hundred boards, a second.)
    stdout_ok(&[
        "plan",
        "--size",
        "3x3",
        "--partition",
        "aeiou bcdfghjklmnpqrstvwxyz",
        "--score",
        "350",
        "--shards",
        "2",
        "--wordlist",
        dir.path().join("words.txt").to_str().expect("utf-8"),
        "--out",
        dir.path().join("by-hand").to_str().expect("utf-8"),
    ]);
    let out = script(
        dir.path(),
        "proof.sh",
        &["3x3"],
        &[
            ("RUN", "by-hand"),
            ("WORDLIST", "words.txt"),
            ("SCORE", "350"),
            ("JOBS", "1"),
        ],
    );
    assert!(
        out.contains("(same settings)") && out.contains("proof: complete"),
        "{out}"
    );
}

/// `publish.sh` proves a size for a word list and writes its boards in the format of
/// refdata/ (`board: score`, best first) under a header that names the command, the word
/// list's sha256 and the proof's figures, and rebuilds the results table; a rerun of the
/// command in the header reproduces the file's boards.
#[test]
fn publish_writes_a_reproducible_results_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lists = dir.path().join("lists");
    std::fs::create_dir(&lists).expect("mkdir");
    small_wordlist(&lists, "aerstdn");
    let env = [
        ("WORDLISTS", "lists"),
        ("RESULTS", "out"),
        ("RUNS", "runs"),
        ("SHARDS", "2"),
        ("PARTITION", "aeiou bcdfghjklmnpqrstvwxyz"),
        ("JOBS", "2"),
    ];
    let out = script(dir.path(), "publish.sh", &["2x3", "words", "85"], &env);
    assert!(out.contains("wrote"), "{out}");
    let file = dir.path().join("out/2x3-words-standard-85.txt");
    let text = std::fs::read_to_string(&file).expect("results file");
    let header = |key: &str| -> String {
        let prefix = format!("# {key}: ");
        let line = text.lines().find(|l| l.starts_with(&prefix));
        line.unwrap_or_else(|| panic!("no '{key}' in {text}"))[prefix.len()..].to_string()
    };
    let command = header("command");
    assert!(
        command.contains("PARTITION=") && command.ends_with("scripts/publish.sh 2x3 words 85"),
        "{command}"
    );
    let sha = Command::new("sha256sum")
        .arg(lists.join("words.txt"))
        .output()
        .expect("sha256sum");
    let sha = String::from_utf8_lossy(&sha.stdout);
    let sha = sha.split_whitespace().next().expect("a digest");
    assert_eq!(header("wordlist"), format!("words (sha256 {sha})"));
    assert_eq!(header("size"), "2x3");
    assert_eq!(header("score"), "85");
    // The boards are the run's results, best first, as `board: score`.
    let results = std::fs::read_to_string(
        dir.path()
            .join("runs/publish-2x3-words-standard-85/results.csv"),
    )
    .expect("results.csv");
    let want: Vec<String> = results
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{}: {}", f[0], f[1])
        })
        .collect();
    let got: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!want.is_empty());
    assert_eq!(got, want);
    assert_eq!(header("boards"), want.len().to_string());
    let scores: Vec<u64> = got
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse().expect("score"))
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {got:?}"
    );
    // The table names the file, with the best board.
    let table = std::fs::read_to_string(dir.path().join("out/README.md")).expect("README");
    let best = got[0].split(':').next().unwrap();
    assert!(
        table.contains("(2x3-words-standard-85.txt)") && table.contains(best),
        "{table}"
    );
    // The command in the header, run from the repository into fresh folders, gives the
    // same boards.
    let again_dir = dir.path().join("again");
    let out = Command::new("bash")
        .arg("-c")
        .arg(&command)
        .current_dir(repo())
        .env("BOGGLEMAX", env!("CARGO_BIN_EXE_bogglemax"))
        .env("RESULTS", again_dir.join("out"))
        .env("RUNS", again_dir.join("runs"))
        .env("SHARDS", "2")
        .env("JOBS", "2")
        .env_remove("WORDLISTS")
        .env_remove("PARTITION")
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{command}: {out:?}");
    let again = std::fs::read_to_string(again_dir.join("out/2x3-words-standard-85.txt"))
        .expect("results file again");
    let boards = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    assert_eq!(boards(&again), boards(&text));
    assert!(!repo().join("runs").exists() && !repo().join("out").exists());
}

/// Bad settings of the proof driver and the Slurm scripts get one line and exit 2, before
/// any work (no bash `unbound variable` or arithmetic noise, no `xargs -P 0`): with RUN set
/// to a folder of the test's directory, no run is planned there.
#[test]
fn bad_script_settings_are_one_line_and_exit_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Script, arguments, environment, what its one line says.
    type Case<'a> = (&'a str, &'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 8] = [
        ("proof.sh", &["9x9"], &[], "bad size '9x9'"),
        ("proof.sh", &["3x3"], &[("SCORE", "abc")], "SCORE must be"),
        ("proof.sh", &["3x3"], &[("JOBS", "0")], "JOBS must be"),
        ("proof.sh", &["3x3"], &[("TOP", "x")], "TOP must be"),
        (
            "proof.sh",
            &["3x3"],
            &[("MAX_HOURS", "-1")],
            "MAX_HOURS must be",
        ),
        ("proof.sh", &["5x5"], &[], "set SCORE for size 5x5"),
        (
            "slurm/break.sbatch",
            &["run"],
            &[("SLURM_ARRAY_TASK_ID", "x")],
            "whole numbers",
        ),
        ("slurm/merge.sbatch", &[], &[], "usage: merge.sbatch"),
    ];
    for (name, args, env, needle) in cases {
        let out = Command::new(repo().join("scripts").join(name))
            .args(args)
            .current_dir(dir.path())
            .env("BOGGLEMAX", env!("CARGO_BIN_EXE_bogglemax"))
            .env("RUN", "run")
            .envs(env.iter().copied())
            .output()
            .expect("script runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name} {env:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{name} {env:?}: {err}");
        assert!(err.contains(needle), "{name} {env:?}: {err}");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).expect("dir").count(),
        0,
        "nothing made"
    );
}

/// The scripts keep a scoring's name a name even beside a file of that name; their list of
/// names must be bogglemax's own.
#[test]
fn scripts_know_every_named_scoring() {
    let names: Vec<String> = bogglemax::solve::Scoring::NAMED
        .iter()
        .map(|s| s.name().to_string())
        .collect();
    let want = format!("named_scorings=\" {} \"", names.join(" "));
    for name in ["proof.sh", "publish.sh"] {
        let text = std::fs::read_to_string(repo().join("scripts").join(name)).expect("read");
        assert!(text.contains(&want), "scripts/{name} lacks {want}");
    }
}

/// bench-ab.sh breaks each class with both binaries, prints a ratio a class, and fails when
/// their candidates differ (here: a "new" binary that prints one line more).
#[test]
fn bench_ab_compares_two_binaries_and_their_candidates() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tsv = dir.path().join("classes.tsv");
    // As the reference table: comment lines before the header. The last line without its
    // newline is a class all the same.
    std::fs::write(
        &tsv,
        "# classes\n# of 3x3\nid\tclass\n\
         1\tlnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz\n\
         2\taeiou lnrsy aeiou lnrsy aeiou lnrsy aeiou lnrsy aeiou",
    )
    .expect("write");
    let bin = env!("CARGO_BIN_EXE_bogglemax");
    let env = [("SIZE", "3x3"), ("SCORE", "200"), ("ROUNDS", "2")];
    let tsv_s = tsv.to_str().expect("utf-8");
    let out = script(dir.path(), "bench-ab.sh", &[bin, bin, tsv_s], &env);
    let rows: Vec<&str> = out.lines().filter(|l| l.ends_with(" same")).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(out.contains("geometric mean new/old:"), "{out}");
    // Only the class asked for.
    let out = script(dir.path(), "bench-ab.sh", &[bin, bin, tsv_s, "2"], &env);
    assert!(out.lines().any(|l| l.starts_with("2 ")) && !out.lines().any(|l| l.starts_with("1 ")));
    // A class id the table lacks is refused before any work.
    let out = Command::new(repo().join("scripts/bench-ab.sh"))
        .args([bin, bin, tsv_s, "3"])
        .envs(env)
        .output()
        .expect("script runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("class 3 is not in"));
    // A binary whose work differs but whose candidates do not is the same.
    let other = dir.path().join("other.sh");
    std::fs::write(
        &other,
        format!("#!/bin/sh\n'{bin}' \"$@\" && echo nodes: 1\n"),
    )
    .expect("write");
    std::fs::set_permissions(&other, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let out = script(
        dir.path(),
        "bench-ab.sh",
        &[bin, other.to_str().expect("utf-8"), tsv_s],
        &env,
    );
    assert_eq!(
        out.lines().filter(|l| l.ends_with(" same")).count(),
        2,
        "{out}"
    );
    // One whose candidates differ is not.
    let other = dir.path().join("other2.sh");
    std::fs::write(
        &other,
        format!("#!/bin/sh\n'{bin}' \"$@\" && echo candidate: aaaaaaaaa\n"),
    )
    .expect("write");
    std::fs::set_permissions(&other, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let out = Command::new(repo().join("scripts/bench-ab.sh"))
        .args([bin, other.to_str().expect("utf-8"), tsv_s])
        .envs(env)
        .output()
        .expect("script runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("DIFFERENT"));
}

/// Every script (the Slurm ones too; not lib.sh, which is sourced) answers `--help` as a
/// user expects, called from another directory by a relative path: its description on
/// stdout and exit status 0, before any work (a build, a run, a submission). bench-proof.sh
/// used to start a release build first and then refuse `--help` as an unknown part.
#[test]
fn every_script_answers_help_with_its_description() {
    let cwd = tempfile::tempdir().unwrap();
    let mut scripts = Vec::new();
    for dir in ["scripts", "scripts/slurm"] {
        for entry in std::fs::read_dir(repo().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if [".sh", ".py", ".sbatch"].iter().any(|x| name.ends_with(x)) && name != "lib.sh" {
                scripts.push(path);
            }
        }
    }
    assert!(scripts.len() >= 15, "{scripts:?}");
    // Each is called by a path relative to the caller's directory, as `../scripts/X.sh`
    // would be: a script that changes directory must still find its own text.
    let up = "../".repeat(cwd.path().canonicalize().unwrap().components().count() - 1);
    for path in scripts {
        let relative = format!("{up}{}", path.strip_prefix("/").unwrap().display());
        let out = Command::new("bash")
            .args(["-c", "\"$0\" --help", &relative])
            .current_dir(cwd.path())
            // No binary: a script that went on past --help would fail on it.
            .env("BOGGLEMAX", cwd.path().join("no-such-bogglemax"))
            .output()
            .expect("script runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.lines().count() >= 3,
            "{} --help: status {}, stdout {stdout:?}, stderr {:?}",
            path.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(
        std::fs::read_dir(cwd.path()).unwrap().count(),
        0,
        "--help wrote nothing"
    );
}
