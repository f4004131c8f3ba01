//! End-to-end tests of the proof pipeline: a complete small proof checked against brute
//! force, torn and corrupted files, locks and mismatched runs. Crash-and-resume runs are in
//! `resume.rs`.

use bogglemax::board::{Board, Geometry, Size, Symmetries};
use bogglemax::dict::Dictionary;
use bogglemax::pipeline::{ClassRecord, RunDir, read_journal};
use bogglemax::solve::{Scoring, Solver};
use std::collections::BTreeMap;
use std::path::Path;

mod common;
use common::{bin, fails_with, forge_journal, hold_lock, run, small_wordlist, stdout_ok};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

const PARTITION_2: &str = "aeiou bcdfghjklmnpqrstvwxyz";

/// Plans a 2x2 run at S = 5 over `PARTITION_2` in `shards` shards (it breaks at once).
fn plan_2x2(shards: &str, out: &Path) -> std::process::Output {
    run(&[
        "plan",
        "--size",
        "2x2",
        "--partition",
        PARTITION_2,
        "--score",
        "5",
        "--shards",
        shards,
        "--out",
        s(out),
    ])
}

#[test]
fn small_proof_equals_brute_force() {
    let dir = tempfile::tempdir().expect("tempdir");
    let live = "aerstdn";
    let list = small_wordlist(dir.path(), live);
    let size: Size = "2x3".parse().expect("size");
    let dict = Dictionary::load(Some(&list)).expect("word list");
    let geometry = Geometry::new(size);
    let symmetries = Symmetries::new(size);
    let mut solver = Solver::new(dict.trie(), &geometry, Scoring::Standard);

    // Letters in no word are interchangeable: brute force over the live letters plus one
    // stand-in dead letter, then expand the stand-in into every dead letter.
    let stand_in = b'x' - b'a';
    let mut alphabet: Vec<u8> = live.bytes().map(|c| c - b'a').collect();
    alphabet.push(stand_in);
    let dead: Vec<u8> = (0..26u8)
        .filter(|&l| !live.as_bytes().contains(&(l + b'a')))
        .collect();
    let cells = size.cells();
    let mut scored: Vec<(u64, Vec<u8>)> = Vec::new();
    let mut letters = vec![0u8; cells];
    for n in 0..alphabet.len().pow(cells as u32) {
        let mut k = n;
        for l in letters.iter_mut() {
            *l = alphabet[k % alphabet.len()];
            k /= alphabet.len();
        }
        let score = solver.score(&Board::from_letters(size, &letters));
        scored.push((score, letters.clone()));
    }
    // S: the score of the 15th best stand-in board, so the proof has a handful of results.
    let mut scores: Vec<u64> = scored.iter().map(|x| x.0).collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    let threshold = scores[14].max(1);
    let mut expected: BTreeMap<String, u64> = BTreeMap::new();
    for (score, letters) in scored.iter().filter(|x| x.0 >= threshold) {
        let mut boards = vec![letters.clone()];
        for cell in 0..cells {
            if letters[cell] == stand_in {
                boards = boards
                    .iter()
                    .flat_map(|b| {
                        dead.iter().map(move |&d| {
                            let mut b = b.clone();
                            b[cell] = d;
                            b
                        })
                    })
                    .collect();
            }
        }
        for b in boards {
            let canon = symmetries.canonical(&Board::from_letters(size, &b));
            expected.insert(canon.to_string(), *score);
        }
    }
    assert!(!expected.is_empty());

    let runp = dir.path().join("run");
    stdout_ok(&[
        "plan",
        "--size",
        "2x3",
        "--partition",
        PARTITION_2,
        "--score",
        &threshold.to_string(),
        "--shards",
        "3",
        "--wordlist",
        s(&list),
        "--out",
        s(&runp),
    ]);
    stdout_ok(&["break", s(&runp), "--all", "--quiet"]);
    let summary = stdout_ok(&["merge", s(&runp)]);
    assert!(summary.contains("\nproof: complete\n"), "{summary}");
    let results = std::fs::read_to_string(runp.join("results.csv")).expect("results");
    let mut lines = results.lines();
    assert_eq!(lines.next(), Some("board,score,words,class_id"));
    let rows: Vec<(String, u64)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[1].parse().expect("score"))
        })
        .collect();
    let got: BTreeMap<String, u64> = rows.iter().cloned().collect();
    assert_eq!(got, expected);
    // The summary ends with the best board drawn as its grid.
    let (best, score) = &rows[0];
    let drawn: String = Board::parse(size, best)
        .expect("a board")
        .grid()
        .lines()
        .map(|row| format!("  {row}\n"))
        .collect();
    let grid = format!("\nbest board, {score} points:\n{drawn}");
    assert!(summary.ends_with(&grid), "{summary}");

    // The summary counts the candidates checked (boards with DeMulti ≥ S: at least the
    // results, never fewer), and `rescore` audits the journals: every result scored again,
    // every class broken again (--audit with more classes than the run has) and compared.
    let count = |key: &str| -> u64 {
        let line = summary.lines().find(|l| l.starts_with(key)).expect(key);
        let first = line[key.len()..].split_whitespace().next().expect(key);
        first.parse().expect("a number")
    };
    let classes = count("classes finished:");
    assert!(count("candidates:") >= expected.len() as u64, "{summary}");
    let audit = stdout_ok(&["rescore", s(&runp), "--audit", "1000000", "--quiet"]);
    assert!(
        audit.contains(&format!(
            "of {classes} finished classes ({} boards up to symmetry, as merge lists them)",
            expected.len()
        )) && audit.contains(&format!("broke {classes} classes again"))
            && audit.ends_with("audit: passed\n"),
        "{audit}"
    );
    // A journal whose results do not hold (a forged score, a lost result, a wrong count,
    // written with valid checksums) fails the audit, naming the class.
    let run_dir = RunDir::open(&runp).expect("run");
    let run_id = run_dir.manifest().run_id();
    let (journal, contents, victim) = (0..3)
        .find_map(|k| {
            let journal = runp.join(format!("shards/{k:05}.journal"));
            let contents = read_journal(&journal, run_id, size).expect("read");
            let victim = contents
                .classes
                .values()
                .find(|r| !r.results.is_empty())?
                .class_id;
            Some((journal, contents, victim))
        })
        .expect("a shard with a result");
    let original = std::fs::read(&journal).expect("journal");
    type Forge = fn(&mut ClassRecord);
    let forgeries: [(Forge, &str); 3] = [
        (|r| r.results[0].score += 1, "the solver scores"),
        (
            |r| {
                r.results.pop();
            },
            "results",
        ),
        (|r| r.demulti_count += 1, "candidates"),
    ];
    for (forge, what) in forgeries {
        forge_journal(&journal, (run_id, size), &contents, victim, forge);
        let out = run(&["rescore", s(&runp), "--audit", "1000000", "--quiet"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{what}: {text}");
        assert!(
            text.contains(&format!("class {victim}")) && text.contains(what),
            "{what}: {text}"
        );
    }
    // Another shard's journal copied over this one (the same run, valid checksums): its
    // classes are not this shard's, and the audit says so.
    let other = (0..3)
        .map(|k| runp.join(format!("shards/{k:05}.journal")))
        .find(|p| *p != journal)
        .expect("another shard");
    std::fs::copy(&other, &journal).expect("copy");
    let out = run(&["rescore", s(&runp), "--quiet"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("is not one of its shard's"), "{text}");
    std::fs::write(&journal, original).expect("restore");
    let stray: Vec<_> = std::fs::read_dir(&runp)
        .expect("run dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

#[test]
fn torn_journal_tail_is_dropped_and_corruption_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let list = small_wordlist(dir.path(), "aerstdn");
    let runp = dir.path().join("run");
    stdout_ok(&[
        "plan",
        "--size",
        "2x3",
        "--partition",
        PARTITION_2,
        "--score",
        "20",
        "--shards",
        "2",
        "--wordlist",
        s(&list),
        "--out",
        s(&runp),
    ]);
    stdout_ok(&["break", s(&runp), "--all", "--quiet"]);
    stdout_ok(&["merge", s(&runp)]);
    let want = std::fs::read(runp.join("results.csv")).expect("results");
    let journal = runp.join("shards/00000.journal");
    let bytes = std::fs::read(&journal).expect("journal");

    // A torn last record (cut mid-record) is dropped; the class is broken again.
    std::fs::write(&journal, &bytes[..bytes.len() - 3]).expect("write");
    let out = stdout_ok(&["break", s(&runp), "--shard", "0", "--quiet"]);
    assert!(out.contains("dropped a torn last record"), "{out}");
    assert!(out.contains("1 now"), "{out}");
    // The re-broken record differs only in its timing, so it has the torn one's length.
    assert_eq!(
        std::fs::metadata(&journal).expect("journal").len(),
        bytes.len() as u64
    );
    stdout_ok(&["merge", s(&runp)]);
    assert_eq!(
        std::fs::read(runp.join("results.csv")).expect("results"),
        want
    );

    // A flipped byte in an early record (not the tail) is corruption, named by file.
    let mut bad = bytes.clone();
    bad[30] ^= 0x10;
    std::fs::write(&journal, &bad).expect("write");
    fails_with(&["break", s(&runp), "--shard", "0"], "00000.journal");
    fails_with(&["merge", s(&runp)], "00000.journal");
    // With a shard's advice, whether the journal is opened to append or only read.
    let advice = "(to go on without it: move the journal aside and break the shard again";
    fails_with(&["break", s(&runp), "--shard", "0"], advice);
    fails_with(&["merge", s(&runp)], advice);
    assert_eq!(
        std::fs::read(&journal).expect("journal"),
        bad,
        "refused, untouched"
    );

    // A damaged length field is corruption too, not a torn tail: the records after it are
    // not dropped (nor re-broken).
    let mut bad = bytes.clone();
    bad[16..20].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
    std::fs::write(&journal, &bad).expect("write");
    fails_with(&["break", s(&runp), "--shard", "0"], "length field");
    fails_with(&["merge", s(&runp)], "length field");
    assert_eq!(std::fs::read(&journal).expect("journal"), bad, "untouched");

    // A journal that lost its records (cut back to a torn header): `merge` finds fewer
    // finished classes than its last summary counted and overwrites neither file.
    let summary = std::fs::read(runp.join("summary.txt")).expect("summary");
    std::fs::write(&journal, &bytes[..10]).expect("write");
    fails_with(&["merge", s(&runp)], "nothing was written");
    assert_eq!(
        std::fs::read(runp.join("results.csv")).expect("results"),
        want
    );
    assert_eq!(
        std::fs::read(runp.join("summary.txt")).expect("summary"),
        summary
    );
    std::fs::write(&journal, &bytes).expect("restore");

    // Shard files, the manifest and the compiled dictionary: truncated or flipped → refused,
    // naming the file.
    // `break` reads all three, and so do `status` and `rescore`.
    for name in ["shards/00001.shard", "manifest.bmx", "dict.bmx"] {
        let file = name.rsplit('/').next().expect("name");
        let path = runp.join(name);
        let orig = std::fs::read(&path).expect("read");
        std::fs::write(&path, &orig[..orig.len() - 7]).expect("truncate");
        fails_with(&["break", s(&runp), "--shard", "1"], file);
        let mut flipped = orig.clone();
        flipped[orig.len() / 2] ^= 1;
        std::fs::write(&path, &flipped).expect("flip");
        fails_with(&["status", s(&runp)], file);
        // Missing: refused with the file's name and the cause, once.
        std::fs::remove_file(&path).expect("remove");
        fails_with(&["break", s(&runp), "--shard", "1"], "No such file");
        fails_with(&["status", s(&runp)], "No such file");
        fails_with(&["rescore", s(&runp)], "No such file");
        std::fs::write(&path, &orig).expect("restore");
    }
    stdout_ok(&["status", s(&runp)]);
}

#[test]
fn locks_mismatches_and_incomplete_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let list = small_wordlist(dir.path(), "aerstdn");
    let runp = dir.path().join("run");
    let plan = |score: &str, wordlist: &Path, out: &Path, reuse: bool| {
        let mut cmd = bin();
        cmd.args([
            "plan",
            "--size",
            "2x3",
            "--partition",
            PARTITION_2,
            "--shards",
            "2",
        ])
        .args(["--score", score, "--wordlist", s(wordlist), "--out", s(out)]);
        if reuse {
            cmd.arg("--reuse");
        }
        cmd.output().expect("bogglemax runs")
    };
    assert!(plan("20", &list, &runp, false).status.success());
    // Planning over an existing run is refused; --reuse with the same settings is fine,
    // with other settings refused.
    let again = plan("20", &list, &runp, false);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    assert!(plan("20", &list, &runp, true).status.success());
    let other = plan("21", &list, &runp, true);
    let err = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("asked score: 21, the run has score: 20"),
        "{err}"
    );
    // The same list under another name is the same list (a second machine's copy); a list
    // of other contents under the same name is not.
    let copy = dir.path().join("copy-of-list.txt");
    std::fs::copy(&list, &copy).expect("copy list");
    let renamed = plan("20", &copy, &runp, true);
    assert!(renamed.status.success());
    let said = String::from_utf8_lossy(&renamed.stdout);
    assert!(said.contains("of the same contents"), "{said}");
    let changed_dir = tempfile::tempdir().expect("tempdir");
    let changed = changed_dir.path().join(list.file_name().expect("a name"));
    std::fs::write(&changed, "dare\nread\n").expect("write");
    let refused = plan("20", &changed, &runp, true);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("sha256"));

    // Merge of an unbroken run: incomplete, exit 1, naming the shards.
    let out = run(&["merge", s(&runp)]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("shard 0 unfinished") && text.contains("proof: incomplete"),
        "{text}"
    );
    assert_eq!(stdout_ok(&["status", s(&runp), "--pending"]), "0\n1\n");
    assert_eq!(stdout_ok(&["status", s(&runp), "--count"]), "2\n");

    // A worker holds shard 0: a second is refused and touches nothing.
    let journal = runp.join("shards/00000.journal");
    let held = hold_lock(&journal);
    fails_with(
        &["break", s(&runp), "--shard", "0"],
        "locked by another process",
    );
    assert_eq!(std::fs::metadata(&journal).expect("meta").len(), 0);
    drop(held);
    stdout_ok(&["break", s(&runp), "--shard", "0", "--quiet"]);
    assert_eq!(stdout_ok(&["status", s(&runp), "--pending"]), "1\n");
    fails_with(
        &["break", s(&runp), "--shard", "2"],
        "shard 2 does not exist",
    );

    // Another word list swapped in behind the manifest, or a journal from another run.
    let other_dir = tempfile::tempdir().expect("tempdir");
    let other_list = small_wordlist(other_dir.path(), "aerstdnl");
    let other = other_dir.path().join("run");
    assert!(plan("20", &other_list, &other, false).status.success());
    stdout_ok(&["break", s(&other), "--all", "--quiet"]);
    std::fs::copy(
        other.join("shards/00001.journal"),
        runp.join("shards/00001.journal"),
    )
    .expect("copy journal");
    fails_with(
        &["break", s(&runp), "--shard", "1"],
        "another run, or its header is damaged (to go on without it: move the journal aside",
    );
    std::fs::remove_file(runp.join("shards/00001.journal")).expect("rm");
    let dict = runp.join("dict.bmx");
    let saved = std::fs::read(&dict).expect("dict");
    std::fs::copy(other.join("dict.bmx"), &dict).expect("swap dict");
    fails_with(&["break", s(&runp), "--shard", "1"], "is not the run's");
    std::fs::write(&dict, saved).expect("restore");
    stdout_ok(&["break", s(&runp), "--shard", "1", "--quiet"]);
    assert!(stdout_ok(&["merge", s(&runp)]).contains("proof: complete"));
}

/// A run records a scoring table by its contents, not its path: the same table under another
/// name reuses the run, a different one is refused, and the run breaks under its own table.
#[test]
fn runs_record_scoring_tables_by_contents() {
    let dir = tempfile::tempdir().expect("tempdir");
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).expect("write");
        p
    };
    let a = write("a.txt", "3 1\n4 1\n5 2\n6 3\n7 5\n8+ 11\n");
    let copy = write("copy.txt", "# the same\n3 1\n4 1\n5 2\n6 3\n7 5\n8+ 11\n");
    let other = write("other.txt", "3 1\n4 1\n5 2\n6 3\n7 5\n8+ 12\n");
    let runp = dir.path().join("run");
    let plan = |table: &Path| -> Vec<String> {
        [
            "plan",
            "--reuse",
            "--size",
            "2x3",
            "--partition",
            PARTITION_2,
            "--score",
            "30",
            "--shards",
            "2",
            "--scoring",
            s(table),
            "--out",
            s(&runp),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect()
    };
    fn args(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    stdout_ok(&args(&plan(&a)));
    assert!(stdout_ok(&args(&plan(&copy))).contains("same settings"));
    fails_with(&args(&plan(&other)), "8+=12");
    stdout_ok(&["break", s(&runp), "--all", "--quiet"]);
    let summary = stdout_ok(&["merge", s(&runp)]);
    assert!(
        summary.contains("scoring: table:3=1,4=1,5=2,6=3,7=5,8+=11\n")
            && summary.contains("\nproof: complete\n"),
        "{summary}"
    );
}

/// More shards than classes: `plan` says how many are empty, and the proof over them is the
/// same as over a plan with one shard.
#[test]
fn more_shards_than_classes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut results = Vec::new();
    for shards in ["40", "1"] {
        let out = dir.path().join(format!("run{shards}"));
        let planned = plan_2x2(shards, &out);
        assert!(planned.status.success(), "plan with {shards} shards");
        let said = String::from_utf8_lossy(&planned.stderr).into_owned();
        let classes: u64 = String::from_utf8_lossy(&planned.stdout)
            .split_whitespace()
            .nth(2)
            .and_then(|n| n.parse().ok())
            .expect("planned RUN: N canonical classes ...");
        assert!(
            classes < 40,
            "the test needs fewer classes than shards: {classes}"
        );
        if shards == "40" {
            assert!(
                said.contains(&format!(
                    "plan: note: {} of the 40 shards hold no class",
                    40 - classes
                )),
                "the empty shards are counted: {said}"
            );
        } else {
            assert!(!said.contains("note"), "no note for one shard: {said}");
        }
        stdout_ok(&["break", s(&out), "--all", "--threads", "1", "--quiet"]);
        let merged = stdout_ok(&["merge", s(&out), "--quiet"]);
        assert!(merged.contains("proof: complete"), "{merged}");
        results.push(std::fs::read_to_string(out.join("results.csv")).expect("results"));
    }
    assert!(results[0].lines().count() > 100, "boards found");
    assert_eq!(results[0], results[1], "the same results either way");
    // No shards, or more than shard files are numbered for, are refused: nothing planned.
    for shards in ["0", "100001"] {
        let out = dir.path().join(format!("run{shards}"));
        let planned = plan_2x2(shards, &out);
        assert_eq!(planned.status.code(), Some(2), "--shards {shards}");
        let said = String::from_utf8_lossy(&planned.stderr);
        assert!(
            said.contains(&format!("--shards must be 1 to 100000, not {shards}")),
            "{said}"
        );
        assert!(!out.exists(), "nothing planned");
    }
}

/// A journal copied over another shard's (same run, so it reads) finishes none of that
/// shard's classes: `status` and `merge` count each class in its own shard only, so the
/// copied records are neither counted twice nor their seconds given to the wrong shard; both
/// name the journal and say to move it aside, and `break` refuses the shard saying so.
#[test]
fn a_journal_copied_to_another_shard_counts_for_none_of_its_classes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let runp = dir.path().join("run");
    assert!(plan_2x2("2", &runp).status.success());
    stdout_ok(&["break", s(&runp), "--all", "--threads", "1", "--quiet"]);
    let shard_classes = |k: u32| {
        RunDir::open(&runp)
            .expect("run")
            .shard(k)
            .expect("shard")
            .ids
            .len()
    };
    let (n0, n1) = (shard_classes(0), shard_classes(1));
    std::fs::copy(
        runp.join("shards/00000.journal"),
        runp.join("shards/00001.journal"),
    )
    .expect("copy journal");

    let advice = format!(
        "{}: records {n0} classes of other shards",
        runp.join("shards/00001.journal").display()
    );
    let said = run(&["status", s(&runp), "--pending"]);
    assert_eq!(String::from_utf8_lossy(&said.stdout), "1\n");
    let warned = String::from_utf8_lossy(&said.stderr);
    assert!(
        warned.contains(&advice) && warned.contains("move it aside"),
        "{warned}"
    );
    fails_with(&["break", s(&runp), "--shard", "1"], &advice);
    let status = stdout_ok(&["status", s(&runp)]);
    let line = status
        .lines()
        .find(|l| l.starts_with("shard     1:"))
        .expect("shard 1's line");
    assert!(
        line.starts_with(&format!("shard     1: 0/{n1} classes, 0.0 s")),
        "{line}"
    );
    assert!(
        status.contains(&format!("classes done: {n0} of {}", n0 + n1)),
        "{status}"
    );
    let slow: Vec<&str> = status
        .lines()
        .filter_map(|l| l.strip_prefix("slow class: ")?.split(' ').next())
        .collect();
    let mut distinct = slow.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(
        !slow.is_empty() && distinct.len() == slow.len(),
        "each slow class once: {status}"
    );

    let out = run(&["merge", s(&runp), "--quiet"]);
    assert_eq!(out.status.code(), Some(1), "an incomplete proof");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("classes finished: {n0} of {}", n0 + n1))
            && text.contains(&format!("shard 1 unfinished: 0/{n1} classes"))
            && text.contains(&advice),
        "{text}"
    );
}

/// A command whose standard output cannot be written (a full disk under `> FILE`) fails
/// with exit 2 and says it was standard output, whether it wrote as it went (`merge`) or
/// left all to the last flush (`status`, whose `--pending` list a script reads: an empty
/// list with exit 0 would read as "nothing left").
#[test]
fn a_failed_standard_output_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let runp = dir.path().join("run");
    assert!(plan_2x2("2", &runp).status.success());
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    for args in [
        vec!["status", s(&runp), "--pending"],
        vec!["status", s(&runp)],
        vec!["merge", s(&runp), "--quiet"],
        vec!["score", "--size", "2x2", "abcd"],
    ] {
        let out = bin().args(&args).stdout(full()).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("writing standard output"), "{args:?}: {err}");
    }
}

/// An output file in a folder that does not exist names the missing folder (it said "No
/// such file or directory" of the file), and a folder given for the estimate journal file
/// is named as one.
#[test]
fn outputs_in_missing_folders_and_a_folder_for_a_journal_are_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let runp = dir.path().join("run");
    assert!(plan_2x2("1", &runp).status.success());
    let missing = dir.path().join("nodir");
    let page = missing.join("x.html");
    fails_with(
        &["report", s(&runp), "--out", s(&page)],
        &format!("there is no folder {} (make it first)", s(&missing)),
    );
    let costs = missing.join("c.csv");
    fails_with(
        &["status", s(&runp), "--costs", s(&costs)],
        &format!("there is no folder {} (make it first)", s(&missing)),
    );
    assert!(!missing.exists(), "nothing made");
    fails_with(
        &[
            "estimate",
            "--size",
            "2x2",
            "--partition",
            PARTITION_2,
            "--score",
            "5",
            "--sample",
            "1",
            "--quiet",
            "--journal",
            s(dir.path()),
        ],
        &format!("--journal {}: is a directory, not a file", s(dir.path())),
    );
}

/// A run's manifest given for the run is named as not a run directory (it said "no such
/// run directory" of a file that exists), and so is a folder without a manifest (it said
/// "manifest.bmx: No such file"); `break` without a shard names both ways to give one.
#[test]
fn a_file_for_a_run_and_break_without_a_shard_are_explained() {
    let dir = tempfile::tempdir().expect("tempdir");
    let runp = dir.path().join("run");
    assert!(plan_2x2("2", &runp).status.success());
    let manifest = runp.join("manifest.bmx");
    fails_with(
        &["status", s(&manifest)],
        "not a run directory (give the folder that holds manifest.bmx)",
    );
    // A folder that is not a run: the run's own shards/ names its run.
    fails_with(
        &["status", s(&runp.join("shards"))],
        &format!(
            "not a run directory (no manifest.bmx); the run is {}",
            s(&runp)
        ),
    );
    fails_with(
        &["merge", s(dir.path())],
        "not a run directory (no manifest.bmx; give the folder `bogglemax plan --out` made)",
    );
    // Given relative to the run itself, the run is `.`.
    let out = bin()
        .args(["status", "shards"])
        .current_dir(&runp)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("shards: not a run directory (no manifest.bmx); the run is .\n"),
        "{err}"
    );
    fails_with(&["break", s(&runp)], "<--shard <K>|--all>");
    fails_with(
        &["break", s(&runp), "--all", "--shard", "0"],
        "cannot be used with",
    );
}
