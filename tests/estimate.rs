//! `bogglemax estimate` against a finished proof, and `plan --costs`: the estimate of the
//! 3x3 proof (2 buckets, S = 500) from 5 of its 102 classes must land near the full run's
//! figure and cover it, and shards dealt by the run's costs must take about the same time.
//!
//! Tree nodes, not seconds, are compared: they are the same on every machine, so these
//! tests cannot fail because the machine is busy. Seconds are compared in the benchmark
//! (docs/NOTES-estimate.md).

mod common;

use bogglemax::pipeline::RunDir;
use common::{fails_with, stdout_ok};
use std::collections::HashMap;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

const PARTITION: &str = "aeiosuy bcdfghjklmnpqrtvwxz";

/// `estimate` of the 3x3 ENABLE2K words of `words` (S = 300), without progress: the flags
/// every small estimate here starts with.
fn small_estimate(words: &str) -> [&str; 10] {
    [
        "estimate",
        "--size",
        "3x3",
        "--partition",
        PARTITION,
        "--score",
        "300",
        "--wordlist",
        words,
        "--quiet",
    ]
}

/// `command` (plan or estimate) of the 3x3 proof at S = 500, the partition's 102 classes,
/// then `more`.
fn proof_3x3<'a>(command: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let proof = [
        command,
        "--size",
        "3x3",
        "--partition",
        PARTITION,
        "--score",
        "500",
    ];
    [&proof[..], more].concat()
}

/// `estimate --replay FILE --sample 5` (a run directory or a costs file), then `more`.
fn replay_5<'a>(file: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    [&["estimate", "--replay", file, "--sample", "5"][..], more].concat()
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// `key: value` lines of an estimate.
fn keys(report: &str) -> HashMap<String, String> {
    report
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn number(v: &str) -> f64 {
    v.split_whitespace()
        .next()
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("not a number: {v}"))
}

fn interval(v: &str) -> (f64, f64) {
    let mut it = v
        .split_whitespace()
        .map(|x| x.parse::<f64>().expect("number"));
    (it.next().expect("lo"), it.next().expect("hi"))
}

/// Per-class (seconds, nodes) of a costs file.
fn read_costs(path: &Path) -> HashMap<u64, (f64, u64)> {
    std::fs::read_to_string(path)
        .expect("costs file")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("class_id"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].parse().unwrap(),
                (f[1].parse().unwrap(), f[2].parse().unwrap()),
            )
        })
        .collect()
}

/// The largest shard load over the mean, by the given per-class costs (seconds).
fn spread(run: &Path, cost: &HashMap<u64, (f64, u64)>) -> f64 {
    let dir = RunDir::open(run).expect("a planned run");
    let loads: Vec<f64> = (0..dir.manifest().shards)
        .map(|k| {
            let shard = dir.shard(k).expect("shard file");
            shard.ids.iter().map(|id| cost[id].0).sum()
        })
        .collect();
    let mean = loads.iter().sum::<f64>() / loads.len() as f64;
    loads.iter().cloned().fold(0.0, f64::max) / mean
}

#[test]
fn the_estimate_of_the_3x3_proof_is_near_the_full_run_and_covers_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    stdout_ok(&proof_3x3("plan", &["--shards", "4", "--out", s(&run)]));
    stdout_ok(&["break", s(&run), "--all", "--quiet"]);
    let costs = dir.path().join("costs.csv");
    stdout_ok(&["status", s(&run), "--costs", s(&costs)]);
    let truth = read_costs(&costs);
    assert_eq!(truth.len(), 102);
    let nodes: f64 = truth.values().map(|c| c.1 as f64).sum();

    // A real estimate from 5 classes (under 5 % of 102).
    let est = keys(&stdout_ok(&proof_3x3(
        "estimate",
        &["--sample", "5", "--seed", "1", "--quiet", "--tasks", "4"],
    )));
    assert_eq!(number(&est["classes"]), 102.0);
    assert_eq!(number(&est["sampled"]), 5.0);
    let point = number(&est["tree_nodes"]);
    let (lo, hi) = interval(&est["tree_nodes_90"]);
    assert!(
        (point / nodes - 1.0).abs() <= 0.25,
        "estimate {point} vs the full run's {nodes}"
    );
    assert!(lo <= nodes && nodes <= hi, "{nodes} outside {lo}..{hi}");
    assert!(number(&est["cpu_seconds"]) > 0.0);
    for key in [
        "cpu_seconds_90",
        "class_seconds_quantiles",
        "peak_rss_bytes",
        "disk_bytes",
    ] {
        assert!(est.contains_key(key), "no {key}: {est:?}");
    }
    assert!(est["slurm_time"].contains(':') && est["slurm_mem"].ends_with('M'));

    // The same draws replayed from the run's recorded costs give the same nodes figure, and
    // over 40 seeds the estimates are mostly within 25 % and their intervals mostly cover.
    let (mut near, mut covered) = (0, 0);
    for seed in 1..=40u64 {
        let r = keys(&stdout_ok(&proof_3x3(
            "estimate",
            &[
                "--sample",
                "5",
                "--seed",
                &seed.to_string(),
                "--replay",
                s(&run),
                "--quiet",
            ],
        )));
        let p = number(&r["tree_nodes"]);
        if seed == 1 {
            assert_eq!(p, point, "a replay draws what the real estimate drew");
        }
        assert_eq!(number(&r["replayed_tree_nodes"]), nodes);
        let (lo, hi) = interval(&r["tree_nodes_90"]);
        near += usize::from((p / nodes - 1.0).abs() <= 0.25);
        covered += usize::from(lo <= nodes && nodes <= hi);
    }
    // A run replayed on its own gives its settings (settings given besides must agree with
    // them, and with --run the two runs' must); a replay prints no candidates or results (a
    // costs file has none).
    let alone = keys(&stdout_ok(&replay_5(s(&run), &["--quiet"])));
    assert_eq!(number(&alone["tree_nodes"]), point);
    assert!(!alone.contains_key("candidates") && !alone.contains_key("results"));
    for (flags, why) in [
        (
            ["--score", "501"],
            "the run's score is 500, this estimate's 501",
        ),
        (
            ["--size", "4x4"],
            "the run's size is 3x3, this estimate's 4x4",
        ),
        (
            ["--scoring", "words"],
            "the run's scoring is standard, this estimate's words",
        ),
    ] {
        fails_with(&replay_5(s(&run), &flags), why);
    }
    let other = dir.path().join("other");
    stdout_ok(&[
        "plan",
        "--size",
        "3x3",
        "--partition",
        PARTITION,
        "--score",
        "501",
        "--shards",
        "1",
        "--out",
        s(&other),
    ]);
    fails_with(
        &[
            "estimate",
            "--run",
            s(&other),
            "--replay",
            s(&run),
            "--sample",
            "5",
        ],
        &format!(
            "the run's score is 500, --run {}'s 501: they are of different proofs",
            s(&other)
        ),
    );
    fails_with(
        &[
            "estimate",
            "--replay",
            s(&dir.path().join("rnu")),
            "--sample",
            "5",
        ],
        "no such run directory or costs file",
    );
    // A costs file names its proof as the run does: replayed alone it draws the same, and
    // settings given besides must agree. One without those lines (an older file) needs the
    // flags.
    let costs_s = s(&costs);
    let from_file = keys(&stdout_ok(&replay_5(costs_s, &["--quiet"])));
    assert_eq!(number(&from_file["tree_nodes"]), point);
    fails_with(
        &replay_5(costs_s, &["--score", "501"]),
        "the costs file's score is 500, this estimate's 501: give the costs file's",
    );
    let words = dir.path().join("words.txt");
    std::fs::write(&words, "cat\ndog\n").unwrap();
    fails_with(
        &replay_5(costs_s, &["--wordlist", s(&words)]),
        "the costs file's word list is enable2k (built-in), this estimate's",
    );
    // A word list of the same name that has changed since (its SHA-256 differs).
    let edited = dir.path().join("edited.csv");
    let text = std::fs::read_to_string(&costs).unwrap();
    let edited_text: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with("# wordlist: ") {
                // A word list is named by its file name.
                "# wordlist: words.txt".to_string()
            } else if l.starts_with("# wordlist sha256: ") {
                format!("# wordlist sha256: {}", "0".repeat(64))
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&edited, edited_text.join("\n") + "\n").unwrap();
    fails_with(
        &replay_5(s(&edited), &["--wordlist", s(&words)]),
        "words.txt has changed since the costs were measured: give the list as it was then",
    );
    // The replayed file is not replaced by the estimate's costs, most of them predicted.
    fails_with(
        &replay_5(costs_s, &["--costs-out", costs_s]),
        "is the file --replay reads",
    );
    assert_eq!(
        std::fs::read_to_string(&costs).unwrap(),
        text,
        "left as it was"
    );
    let older = dir.path().join("older.csv");
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') || l.starts_with("# classes: "))
        .collect();
    assert_eq!(kept.len() + 5, text.lines().count(), "five settings lines");
    std::fs::write(&older, kept.join("\n") + "\n").unwrap();
    fails_with(
        &replay_5(s(&older), &[]),
        "this costs file does not say the proof's settings (a file from an older bogglemax): \
         give --score",
    );
    // Without its classes line too, the flags not given are named.
    let oldest = dir.path().join("oldest.csv");
    let table: Vec<&str> = kept
        .iter()
        .copied()
        .filter(|l| !l.starts_with('#'))
        .collect();
    std::fs::write(&oldest, table.join("\n") + "\n").unwrap();
    fails_with(
        &replay_5(s(&oldest), &["--partition", PARTITION]),
        "give --size and --score (and --switchover unless it was the default)",
    );
    // Its classes are named: --score is all it needs. A costs file written from the replay
    // names the proof.
    let written = dir.path().join("written.csv");
    let older_replay = keys(&stdout_ok(&replay_5(
        s(&older),
        &["--score", "500", "--quiet", "--costs-out", s(&written)],
    )));
    assert_eq!(number(&older_replay["tree_nodes"]), point);
    let written = std::fs::read_to_string(&written).unwrap();
    assert!(
        written.contains("\n# score: 500\n# switchover: 1125\n"),
        "{written}"
    );
    // Settings given besides are compared as they are read: a partition spelt with other
    // spaces is the same partition, --scoring standard is the file's standard.
    let spelt = PARTITION.replace(' ', "  ");
    let agreeing = ["--quiet", "--partition", &spelt, "--scoring", "standard"];
    stdout_ok(&replay_5(costs_s, &agreeing));
    fails_with(
        &replay_5(costs_s, &["--scoring", "words"]),
        "the costs file's scoring is standard, this estimate's words",
    );

    // Measured when written: 34 and 32 of 40 (5 draws are few: on the 3- and 4-bucket runs,
    // with 5 % of their classes, 40 and 40).
    assert!(near >= 32, "{near} of 40 estimates within 25 %");
    assert!(covered >= 30, "{covered} of 40 intervals cover the truth");

    // Shards dealt by the finished run's costs (`--costs RUN`) take about the same time:
    // the largest within 10 % of the mean (102 classes in 8 shards, the largest class 2-3 %
    // of the total), and no worse than the default deal by board counts.
    let mut spreads = Vec::new();
    for (name, by_costs) in [("by-boards", false), ("by-costs", true)] {
        let out = dir.path().join(name);
        let mut args = proof_3x3("plan", &["--shards", "8", "--out", s(&out)]);
        if by_costs {
            args.extend(["--costs", s(&run)]);
        }
        stdout_ok(&args);
        spreads.push(spread(&out, &truth));
    }
    assert!(spreads[1] <= 1.1, "by costs: {spreads:?}");
    assert!(
        spreads[1] <= spreads[0],
        "by costs no worse than by boards: {spreads:?}"
    );
}

#[test]
fn a_sample_as_large_as_the_run_is_a_census() {
    let dir = tempfile::tempdir().unwrap();
    let words = common::small_wordlist(dir.path(), "aerstlnpi");
    let costs = dir.path().join("costs.csv");
    let args = [
        &small_estimate(s(&words))[..],
        &["--costs-out", s(&costs), "--sample"],
    ]
    .concat();
    let out = keys(&stdout_ok(&[&args[..], &["1000"]].concat()));
    assert_eq!(number(&out["sampled"]), 102.0);
    // Its results are the proof's: each canonical board once, as merge lists them (a class
    // that is its own image holds several images of a board: 18,796 when they were counted).
    let run = dir.path().join("run");
    let plan = &small_estimate(s(&words))[1..9];
    stdout_ok(&[&["plan"], plan, &["--shards", "2", "--out", s(&run)]].concat());
    stdout_ok(&["break", s(&run), "--all", "--quiet"]);
    let merged = stdout_ok(&["merge", s(&run)]);
    let proof_results = merged
        .lines()
        .find_map(|l| l.strip_prefix("results (score >= 300): "))
        .unwrap_or_else(|| panic!("no results line in {merged}"));
    assert_eq!(out["results"], proof_results);
    let c = read_costs(&costs);
    assert_eq!(c.len(), 102);
    let nodes: f64 = c.values().map(|v| v.1 as f64).sum();
    // Every class measured once: the figure is exact, the interval has no width.
    assert_eq!(number(&out["tree_nodes"]), nodes.round());
    assert_eq!(
        interval(&out["tree_nodes_90"]),
        (nodes.round(), nodes.round())
    );
    // A smaller sample lists the others as predicted, with positive seconds.
    let out = keys(&stdout_ok(&[&args[..], &["10"]].concat()));
    assert_eq!(number(&out["sampled"]), 10.0);
    assert!(
        read_costs(&costs).values().all(|c| c.0 > 0.0),
        "positive seconds"
    );
    let text = std::fs::read_to_string(&costs).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.ends_with(",measured")).count(),
        10
    );
    assert_eq!(
        text.lines().filter(|l| l.ends_with(",predicted")).count(),
        92
    );
}

#[test]
fn bad_estimate_and_costs_inputs_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    fails_with(
        &[
            "estimate",
            "--size",
            "3x3",
            "--partition",
            "aeiou",
            "--score",
            "500",
            "--sample",
            "3",
        ],
        "misses",
    );
    fails_with(&proof_3x3("estimate", &["--sample", "0"]), "--sample");
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "class_id,seconds\n1,fast\n").unwrap();
    fails_with(
        &proof_3x3(
            "plan",
            &[
                "--shards",
                "2",
                "--costs",
                s(&bad),
                "--out",
                s(&dir.path().join("r")),
            ],
        ),
        "line 2",
    );
    assert!(!dir.path().join("r").exists(), "nothing planned");
    // Costs of another class space number other classes: refused.
    let other = dir.path().join("other.csv");
    std::fs::write(
        &other,
        "# classes: 3x3 aeiou bcdfghjklmnpqrstvwxyz\nclass_id,seconds\n1,2\n",
    )
    .unwrap();
    fails_with(
        &proof_3x3(
            "plan",
            &[
                "--shards",
                "2",
                "--costs",
                s(&other),
                "--out",
                s(&dir.path().join("r")),
            ],
        ),
        "the costs are of 3x3 aeiou",
    );
    // A replay needs every class measured: a run with one shard broken is refused.
    let run = dir.path().join("partial");
    stdout_ok(&proof_3x3("plan", &["--shards", "4", "--out", s(&run)]));
    // Costs from a run not yet broken deal nothing: refused. From a partly broken one: the
    // rest at the mean, said on standard error.
    let fresh = dir.path().join("fresh");
    let by_part = dir.path().join("by-part");
    let replan = |out| proof_3x3("plan", &["--shards", "4", "--costs", s(&run), "--out", out]);
    fails_with(&replan(s(&fresh)), "no class of this run has a cost there");
    assert!(!fresh.exists());
    stdout_ok(&["break", s(&run), "--shard", "0", "--quiet"]);
    let by_part = common::run(&replan(s(&by_part)));
    assert!(by_part.status.success());
    let note = String::from_utf8_lossy(&by_part.stderr);
    assert!(
        note.contains("gives the cost of 25 of the 102 classes"),
        "{note}"
    );
    // Costs measured at another S deal the classes all the same, with a note that says so.
    let other_score = dir.path().join("other-score");
    let mut at_501 = proof_3x3("plan", &["--shards", "4", "--costs", s(&run)]);
    let score = at_501.iter().position(|&a| a == "--score").unwrap() + 1;
    at_501[score] = "501";
    at_501.extend(["--out", s(&other_score)]);
    let planned = common::run(&at_501);
    assert!(planned.status.success());
    let note = String::from_utf8_lossy(&planned.stderr);
    // Both switchovers are their S's default: only the S is named.
    assert!(
        note.contains(
            "were measured in another proof (score 500, not this plan's 501); they still deal"
        ),
        "{note}"
    );
    // A switchover of the user's own is named.
    let own = dir.path().join("own-switchover");
    at_501.truncate(at_501.len() - 2);
    at_501.extend(["--switchover", "2000", "--out", s(&own)]);
    let planned = common::run(&at_501);
    assert!(planned.status.success());
    let note = String::from_utf8_lossy(&planned.stderr);
    assert!(
        note.contains("(score 500, not this plan's 501; switchover 1125, not this plan's 2000)"),
        "{note}"
    );
    let same_score = common::run(&replan(s(&dir.path().join("same-score"))));
    assert!(same_score.status.success());
    let note = String::from_utf8_lossy(&same_score.stderr);
    assert!(!note.contains("another proof"), "{note}");
    fails_with(
        &proof_3x3("estimate", &["--sample", "5", "--replay", s(&run)]),
        "only 25 of the 102 classes have a measured cost",
    );
    // A file that is no journal: refused, left as it is, with an estimate's advice.
    let not_journal = dir.path().join("not.journal");
    std::fs::write(&not_journal, "class_id,seconds\n").unwrap();
    fails_with(
        &proof_3x3(
            "estimate",
            &["--sample", "1", "--quiet", "--journal", s(&not_journal)],
        ),
        "not a bogglemax journal (bad magic) (give another --journal, or move this one aside",
    );
    assert_eq!(
        std::fs::read(&not_journal).unwrap(),
        b"class_id,seconds\n",
        "left as it was"
    );
    // Costs are written over regular files only: a pipe (whose open would block) and a link
    // are refused before any work, and left as they were.
    let pipe = dir.path().join("costs.pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    let link = dir.path().join("costs.link");
    std::os::unix::fs::symlink(&bad, &link).unwrap();
    for target in [&pipe, &link] {
        fails_with(
            &["status", s(&run), "--costs", s(target)],
            "choose another file",
        );
        fails_with(
            &proof_3x3(
                "estimate",
                &["--sample", "1", "--quiet", "--costs-out", s(target)],
            ),
            "choose another file",
        );
    }
    assert!(
        std::fs::symlink_metadata(&pipe)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "class_id,seconds\n1,fast\n"
    );
}

/// The figures of an estimate that do not depend on the machine's speed: everything but
/// seconds, memory and wall time.
fn machine_free(report: &str) -> Vec<(String, String)> {
    let timed = [
        "cpu_seconds",
        "cpu_seconds_90",
        "cpu_hours",
        "class_seconds_quantiles",
        "slowest_sampled",
        "peak_rss_bytes",
        "estimate_wall_seconds",
        "from_journal",
    ];
    let mut kept: Vec<(String, String)> = keys(report)
        .into_iter()
        .filter(|(k, _)| !timed.contains(&k.as_str()))
        .collect();
    kept.sort();
    kept
}

#[test]
#[cfg_attr(
    not(feature = "failpoints"),
    ignore = "needs the crash points: make test, or cargo test --features failpoints"
)]
fn an_estimate_killed_and_resumed_from_its_journal_equals_one_run_whole() {
    let dir = tempfile::tempdir().unwrap();
    let words = common::small_wordlist(dir.path(), "aerstlnpi");
    let journal = dir.path().join("estimate.journal");
    let costs = dir.path().join("costs.csv");
    let args = |score: &str, sample: &str| -> Vec<String> {
        [
            "estimate",
            "--size",
            "3x3",
            "--partition",
            PARTITION,
            "--score",
            score,
            "--wordlist",
            s(&words),
            "--threads",
            "1",
            "--seed",
            "5",
            "--quiet",
            "--costs-out",
            s(&costs),
            "--sample",
            sample,
        ]
        .map(String::from)
        .to_vec()
    };
    let with_journal = |mut a: Vec<String>| {
        a.extend(["--journal".to_string(), s(&journal).to_string()]);
        a
    };
    // The measured classes of the costs file, with their tree nodes.
    fn strs(a: &[String]) -> Vec<&str> {
        a.iter().map(String::as_str).collect()
    }
    let measured = || -> Vec<(u64, u64)> {
        let text = std::fs::read_to_string(&costs).expect("costs file");
        let mut m: Vec<(u64, u64)> = text
            .lines()
            .filter(|l| l.ends_with(",measured"))
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                (f[0].parse().unwrap(), f[2].parse().unwrap())
            })
            .collect();
        m.sort();
        m
    };

    // Uninterrupted, without a journal.
    let whole = stdout_ok(&strs(&args("300", "24")));
    let whole_classes = measured();
    assert_eq!(whole_classes.len(), 24);

    let mut resumed = String::new();
    // Killed after 7 classes were journaled, then once more with its 10th record torn in
    // half: each rerun breaks only what the journal lacks and ends on the same figures.
    for (point, k, kept) in [("class-journaled", 7, 7), ("journal-torn", 10, 9)] {
        std::fs::remove_file(&journal).ok();
        common::crash(
            &strs(&with_journal(args("300", "24"))),
            &format!("{point}:{k}"),
        );
        // One thread breaks the classes in the order drawn: the journal holds the first
        // draws, and a sample of that many is taken from it alone (none broken).
        let first = stdout_ok(&strs(&with_journal(args("300", &kept.to_string()))));
        assert_eq!(keys(&first)["from_journal"], kept.to_string(), "{point}");
        resumed = stdout_ok(&strs(&with_journal(args("300", "24"))));
        assert_eq!(keys(&resumed)["from_journal"], kept.to_string(), "{point}");
        assert_eq!(machine_free(&resumed), machine_free(&whole), "{point}");
        assert_eq!(measured(), whole_classes, "{point}: the same classes");
    }

    // Every class is in the journal now: a third run breaks none; a larger sample goes on
    // from there and draws what a larger sample draws without a journal.
    let again = stdout_ok(&strs(&with_journal(args("300", "24"))));
    assert_eq!(keys(&again)["from_journal"], "24");
    assert_eq!(machine_free(&again), machine_free(&whole));
    // The journal keeps each class's seconds as measured (to the bit: the journal's round
    // trip test), so the figures made from them come out the same.
    for key in ["cpu_seconds", "cpu_seconds_90", "class_seconds_quantiles"] {
        assert_eq!(keys(&again)[key], keys(&resumed)[key], "{key}");
    }
    let more = stdout_ok(&strs(&with_journal(args("300", "40"))));
    assert_eq!(keys(&more)["from_journal"], "24");
    // The classes of 40 draws, from the journal and broken; then without the journal.
    let more_classes = measured();
    assert_eq!(
        machine_free(&more),
        machine_free(&stdout_ok(&strs(&args("300", "40"))))
    );
    assert_eq!(measured(), more_classes);

    // A journal of another proof (here another S) is refused, naming this estimate's
    // settings, and left as it was; so is a damaged one.
    let bytes = std::fs::read(&journal).unwrap();
    fails_with(
        &strs(&with_journal(args("301", "24"))),
        "written for another size, partition, score",
    );
    fails_with(
        &strs(&with_journal(args("301", "24"))),
        "S 301, switchover ",
    );
    fails_with(
        &strs(&with_journal(args("301", "24"))),
        "or its header is damaged (give another --journal, or move this one aside",
    );
    assert_eq!(std::fs::read(&journal).unwrap(), bytes, "left as it was");
    let mut damaged = bytes.clone();
    damaged[40] ^= 0xff;
    std::fs::write(&journal, &damaged).unwrap();
    fails_with(&strs(&with_journal(args("300", "24"))), "checksum");
    assert_eq!(std::fs::read(&journal).unwrap(), damaged, "left as it was");
    // A short file that is not a journal (a mistyped path) is not written over.
    std::fs::write(&journal, "notes\n").unwrap();
    fails_with(
        &strs(&with_journal(args("300", "24"))),
        "not a bogglemax journal",
    );
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        b"notes\n",
        "left as it was"
    );
}

#[test]
fn samples_drawn_apart_into_their_own_journals_pool_into_one_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let words = common::small_wordlist(dir.path(), "aerstlnpi");
    let (a, b) = (dir.path().join("a.journal"), dir.path().join("b.journal"));
    let base = small_estimate(s(&words));
    // One thread: classes are broken in the order drawn.
    let run = |extra: &[&str]| stdout_ok(&[&base[..], &["--threads", "1"], extra].concat());
    // Two samples, each by its own process into its own journal, as cluster tasks would.
    let one = keys(&run(&["--seed", "5", "--sample", "8", "--journal", s(&a)]));
    let two = keys(&run(&["--seed", "6", "--sample", "6", "--journal", s(&b)]));
    // Pooled from the journals alone: nothing is broken again.
    let pooled_text = run(&[
        "--seed",
        "5,6",
        "--sample",
        "8,6",
        "--journal",
        s(&a),
        "--journal",
        s(&b),
    ]);
    let pooled = keys(&pooled_text);
    assert_eq!(pooled["samples_pooled"], "8 (seed 5), 6 (seed 6)");
    assert_eq!(pooled["from_journal"], pooled["sampled"]);
    let sampled = number(&pooled["sampled"]);
    assert!(
        (8.0..=14.0).contains(&sampled),
        "{sampled} distinct classes"
    );
    // The pooled total is the draw-weighted mean of the two samples' (figures printed
    // rounded to a unit).
    let mean = (8.0 * number(&one["tree_nodes"]) + 6.0 * number(&two["tree_nodes"])) / 14.0;
    assert!(
        (number(&pooled["tree_nodes"]) - mean).abs() <= 1.0,
        "pooled {} against {mean}",
        pooled["tree_nodes"]
    );
    // The same figures as the two samples drawn and broken in one process, no journal.
    let fresh = run(&["--seed", "5,6", "--sample", "8,6"]);
    assert_eq!(machine_free(&pooled_text), machine_free(&fresh));
    // Only the first journal is written: a larger sample of seed 6 breaks its new classes
    // into a.journal and leaves b.journal as it was.
    let b_bytes = std::fs::read(&b).unwrap();
    let a_len = std::fs::metadata(&a).unwrap().len();
    let more = keys(&run(&[
        "--seed",
        "5,6",
        "--sample",
        "8,10",
        "--journal",
        s(&a),
        "--journal",
        s(&b),
    ]));
    assert!(number(&more["sampled"]) > sampled);
    assert_eq!(std::fs::read(&b).unwrap(), b_bytes, "read only");
    assert!(
        std::fs::metadata(&a).unwrap().len() > a_len,
        "new classes go to the first"
    );

    // Samples that cannot be pooled, in one line each; nothing is created.
    let missing = dir.path().join("missing.journal");
    for (extra, why) in [
        (
            vec!["--seed", "5,6", "--sample", "1,2,3"],
            "3 counts for 2 seeds",
        ),
        (
            vec!["--seed", "5,6", "--budget", "10"],
            "several seeds need a sample size",
        ),
        (
            vec!["--seed", "5,5", "--sample", "3"],
            "seed 5 is given twice",
        ),
        (
            vec![
                "--sample",
                "3",
                "--journal",
                s(&a),
                "--journal",
                s(&missing),
            ],
            "no such file",
        ),
        (
            vec!["--sample", "3", "--journal", s(&a), "--journal", s(&a)],
            "is given twice",
        ),
    ] {
        fails_with(&[&base[..], &extra[..]].concat(), why);
    }
    assert!(
        !missing.exists(),
        "a journal that is only read is not created"
    );
}
