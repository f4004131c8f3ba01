//! End-to-end tests of `bogglemax score` and `bogglemax dict`: the published figures, the
//! output formats, and the refusal of bad input (one line on stderr, exit status 2).

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

mod common;
use common::{bin, fails_with, run, stdout_ok};

#[test]
fn published_scores() {
    let cases: &[(&str, &str, &str)] = &[
        ("4x4", "perslatgsineters", "perslatgsineters: 3625"),
        ("3x3", "streaedlp", "streaedlp: 545"),
        ("3x4", "perslatesind", "perslatesind: 1651"),
        ("4x4", "abcdefghijklmnop", "abcdefghijklmnop: 18"),
        (
            "5x5",
            "ligdrmanesietildsracsepes",
            "ligdrmanesietildsracsepes: 10406",
        ),
    ];
    for (size, board, want) in cases {
        assert_eq!(stdout_ok(&["score", "--size", size, board]).trim(), *want);
    }
}

#[test]
fn multi_and_demulti() {
    assert_eq!(
        stdout_ok(&["score", "--multi", "eeesrvrreeesrsrs"]).trim(),
        "eeesrvrreeesrsrs: 189 multi=21953 demulti=13253"
    );
    assert_eq!(
        stdout_ok(&["score", "--size", "3x2", "--multi", "eebfee"]).trim(),
        "eebfee: 3 multi=12 demulti=6"
    );
}

#[test]
fn word_listing() {
    let out = stdout_ok(&["score", "--words", "perslatgsineters"]);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("perslatgsineters: 3625"));
    let words: Vec<(u32, &str)> = lines
        .map(|l| {
            let (p, w) = l.split_once(' ').expect("POINTS WORD");
            (p.parse().expect("points"), w)
        })
        .collect();
    assert_eq!(words.len(), 1045);
    assert_eq!(words.iter().map(|&(p, _)| p).sum::<u32>(), 3625);
    // Sorted by points descending, then alphabetically.
    for pair in words.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        assert!(a.0 > b.0 || (a.0 == b.0 && a.1 < b.1), "order: {a:?} {b:?}");
    }
    let longest = words.iter().map(|&(_, w)| w.len()).max().expect("words");
    let longest: Vec<&str> = words
        .iter()
        .filter(|&&(_, w)| w.len() == longest)
        .map(|&(_, w)| w)
        .collect();
    assert_eq!(longest, ["replastering"]);
}

#[test]
fn qu_is_spelled_out() {
    // q is the Qu face: "quit" on a 2x2 board q,i / t,x spells q-i-t.
    let out = stdout_ok(&["score", "--size", "2x2", "--words", "qtix"]);
    assert!(out.lines().any(|l| l == "1 quit"), "{out}");
}

#[test]
fn many_boards_from_stdin_keep_input_order_on_any_thread_count() {
    let boards = ["abcdefghijklmnop", "perslatgsineters", "eeesrvrreeesrsrs"];
    let mut input = String::new();
    for i in 0..700 {
        input.push_str(boards[i % 3]);
        input.push('\n');
    }
    let want = ["18", "3625", "189"];
    let multi = ["multi=18 demulti=18", "multi=", "multi="];
    for threads in ["0", "1", "3"] {
        let out = run_stdin(&["score", "--threads", threads], input.as_bytes());
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).expect("utf-8");
        for (i, line) in text.lines().enumerate() {
            assert_eq!(line, format!("{}: {}", boards[i % 3], want[i % 3]));
        }
        assert_eq!(text.lines().count(), 700, "--threads {threads}");
        // The other output path (a line a board, built by the workers).
        let out = run_stdin(
            &["score", "--multi", "--threads", threads],
            input.as_bytes(),
        );
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).expect("utf-8");
        for (i, line) in text.lines().enumerate() {
            let head = format!("{}: {} {}", boards[i % 3], want[i % 3], multi[i % 3]);
            assert!(line.starts_with(&head), "--threads {threads}: {line}");
        }
        assert_eq!(text.lines().count(), 700, "--threads {threads} --multi");
    }
}

#[test]
#[cfg_attr(
    not(shared_wordlists),
    ignore = "../shared/wordlists/naspa2023.txt is not beside the repository (build.rs)"
)]
fn naspa2023_by_path() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/wordlists/naspa2023.txt");
    let path = path.to_str().expect("utf-8 path");
    assert_eq!(
        stdout_ok(&["score", "--wordlist", path, "perslatgsineters"]).trim(),
        "perslatgsineters: 3923"
    );
}

#[test]
fn scoring_words_counts_words() {
    assert_eq!(
        stdout_ok(&["score", "--scoring", "words", "perslatgsineters"]).trim(),
        "perslatgsineters: 1045"
    );
}

/// Fibonacci and Boojum scoring of words worked by hand, through the command line: `quiz`
/// (Qu counts two letters of length) and `strange` on one 3x3 board.
#[test]
fn fibonacci_and_boojum_scoring() {
    let dir = tempfile::tempdir().expect("tempdir");
    let list = dir.path().join("words.txt");
    std::fs::write(&list, "quiz\nstrange\n").expect("write");
    let list = list.to_str().unwrap();
    // 3x4, rows Qu i z / s t r / e g a / x x n: quiz along the top row, strange from s
    // along the second row, down to n and back through g to e (column-major below).
    let board = "qsexitgxzran";
    let score = |scoring: &str| {
        stdout_ok(&[
            "score",
            "--size",
            "3x4",
            "--wordlist",
            list,
            "--scoring",
            scoring,
            board,
        ])
    };
    // quiz 4 letters: fib 1; strange 7 letters: fib 5.
    assert_eq!(score("fibonacci").trim(), format!("{board}: 6"));
    // quiz (10+1+1+10)×1 = 22; strange (1+1+1+1+1+2+1)×4 = 32.
    assert_eq!(score("boojum").trim(), format!("{board}: 54"));
    fails_with(
        &["score", "--scoring", "scrabble", "perslatgsineters"],
        "unknown scoring 'scrabble': expected standard, words, pow2, fibonacci, boojum",
    );
    // A name that looks like a path was meant as a table file.
    fails_with(
        &["score", "--scoring", "./scrabble.txt", "perslatgsineters"],
        "no such scoring table file './scrabble.txt'",
    );
}

/// `dict info` counts the lines a text list loses to the filter; lone-CR line ends and
/// byte-order marks of joined files do not cost a word; a line that is not UTF-8 is named.
#[test]
fn word_list_lines_skipped_counted_and_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let list = dir.path().join("odd.txt");
    std::fs::write(
        &list,
        "\u{feff}cat\rsea\r\nqat\n\u{feff}tea\n\ndon't\nab\n  eat \ncafé\nqueen\nTEA\n",
    )
    .expect("write");
    let list_s = list.to_str().expect("utf-8");
    let info = stdout_ok(&["dict", "info", list_s]);
    assert!(info.contains("words: 5\n"), "{info}");
    assert!(info.contains("skipped: 4 lines"), "{info}");
    assert!(info.contains("repeated: 1 line ("), "{info}");
    // A compiled dictionary does not know its source's skipped lines.
    let dict = dir.path().join("odd.dict");
    let dict_s = dict.to_str().expect("utf-8");
    stdout_ok(&["dict", "build", list_s, "-o", dict_s]);
    let info = stdout_ok(&["dict", "info", dict_s]);
    assert!(
        info.contains("words: 5\n") && !info.contains("skipped") && !info.contains("repeated"),
        "{info}"
    );
    // 2x2 'seat': sea, eat, tea and 'cat' nowhere; the old-Mac CR split 'cat' from 'sea'.
    assert_eq!(
        stdout_ok(&["score", "--size", "2x2", "--wordlist", list_s, "seat"]).trim(),
        "seat: 3"
    );
    // A list none of whose words fits the board is noted (every score is 0), once.
    let long = dir.path().join("long.txt");
    std::fs::write(&long, "abandonment\nquadrillion\n").expect("write");
    let out = run(&[
        "score",
        "--size",
        "3x3",
        "--wordlist",
        long.to_str().expect("utf-8"),
        "streaedlp",
    ]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "streaedlp: 0\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no word of long.txt fits a 3x3 board (the shortest takes 10 dice)"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = run(&[
        "score",
        "--size",
        "3x4",
        "--wordlist",
        long.to_str().expect("utf-8"),
        "abandonxxxxx",
    ]);
    assert!(out.status.success() && out.stderr.is_empty());
    let latin1 = dir.path().join("latin1.txt");
    // Line 3 by any line ends: LF, CRLF, or a lone CR.
    for text in [
        &b"cat\ndog\nna\xefve\n"[..],
        b"cat\r\ndog\r\nna\xefve\r\n",
        b"cat\rdog\rna\xefve\r",
    ] {
        std::fs::write(&latin1, text).expect("write");
        fails_with(
            &["dict", "info", latin1.to_str().expect("utf-8")],
            "line 3 is not UTF-8 text",
        );
    }
}

#[test]
fn compiled_dictionary_round_trip_and_corruption() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dict = dir.path().join("enable2k.dict");
    let dict_s = dict.to_str().expect("utf-8");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("wordlists/enable2k.txt");
    stdout_ok(&["dict", "build", src.to_str().expect("utf-8"), "-o", dict_s]);
    let info = stdout_ok(&["dict", "info", dict_s]);
    assert!(info.contains("173402"), "{info}");
    // An existing file is not overwritten without --force.
    let before = std::fs::read(&dict).expect("read");
    fails_with(&["dict", "build", "-o", dict_s], "already exists");
    assert_eq!(std::fs::read(&dict).expect("read"), before);
    // A directory is named as one, with or without --force.
    let dir_s = dir.path().to_str().expect("utf-8");
    for force in [&[][..], &["--force"][..]] {
        let args = [&["dict", "build", "-o", dir_s][..], force].concat();
        fails_with(&args, "is a directory; give a file name with -o");
    }
    // Nor over a link or a pipe: they stay as they are.
    let link = dir.path().join("link.dict");
    std::os::unix::fs::symlink(&dict, &link).expect("symlink");
    let pipe = dir.path().join("pipe.dict");
    let c_pipe = std::ffi::CString::new(pipe.to_str().expect("utf-8")).expect("no NUL");
    // SAFETY: a valid NUL-terminated path; mkfifo only creates the pipe.
    assert_eq!(unsafe { libc::mkfifo(c_pipe.as_ptr(), 0o600) }, 0);
    for other in [&link, &pipe] {
        for force in [&[][..], &["--force"][..]] {
            let args = [
                &["dict", "build", "-o", other.to_str().expect("utf-8")][..],
                force,
            ];
            fails_with(&args.concat(), "exists and is not a regular file");
        }
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    assert!(
        !std::fs::symlink_metadata(&pipe)
            .expect("pipe")
            .file_type()
            .is_file()
    );
    // Not even with --force over the word list it compiles, by any spelling of its path.
    let list = dir.path().join("list.txt");
    std::fs::write(&list, "tea\neat\n").expect("write");
    let list_s = list.to_str().expect("utf-8");
    let other_spelling = dir.path().join(".").join("list.txt");
    fails_with(
        &[
            "dict",
            "build",
            list_s,
            "-o",
            other_spelling.to_str().expect("utf-8"),
            "--force",
        ],
        "is the word list being compiled",
    );
    assert_eq!(std::fs::read_to_string(&list).expect("read"), "tea\neat\n");
    stdout_ok(&[
        "dict",
        "build",
        src.to_str().expect("utf-8"),
        "-o",
        dict_s,
        "--force",
    ]);
    assert_eq!(
        stdout_ok(&["score", "--wordlist", dict_s, "perslatgsineters"]).trim(),
        "perslatgsineters: 3625"
    );

    let bytes = std::fs::read(&dict).expect("read");
    // Truncated at several points, and with one flipped byte in several places.
    for cut in [0, 10, 40, bytes.len() / 2, bytes.len() - 1] {
        let bad = dir.path().join(format!("cut{cut}.dict"));
        std::fs::write(&bad, &bytes[..cut]).expect("write");
        let bad_s = bad.to_str().expect("utf-8");
        fails_with(&["score", "--wordlist", bad_s, "perslatgsineters"], bad_s);
        fails_with(&["dict", "info", bad_s], bad_s);
    }
    for at in [3, 20, 100, bytes.len() / 3, bytes.len() - 5] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x40;
        let bad = dir.path().join(format!("flip{at}.dict"));
        std::fs::write(&bad, &flipped).expect("write");
        let bad_s = bad.to_str().expect("utf-8");
        fails_with(&["score", "--wordlist", bad_s, "perslatgsineters"], bad_s);
    }
}

/// `score` answers each board of standard input before the next arrives (as behind a
/// program that writes boards one at a time): the test writes a board, reads its score,
/// and only then writes the next (once with the start of the next already written). Nothing is timed: a `score` that waited for the end of
/// its input would never answer, and the wait is bounded only so that such a one fails.
#[test]
fn boards_from_a_pipe_are_answered_as_they_arrive() {
    use std::io::{BufRead, BufReader};
    let mut child = bin()
        .args(["score", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (lines_tx, lines) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in stdout.lines() {
            if lines_tx.send(line.expect("utf-8")).is_err() {
                break;
            }
        }
    });
    let bound = std::time::Duration::from_secs(300);
    // The second write ends with the start of the next board, as a writer may send it.
    for (written, answer) in [
        ("perslatgsineters\n", "perslatgsineters: 3625"),
        ("abcdefghijklmnop\nperslat", "abcdefghijklmnop: 18"),
        ("gsineters\n", "perslatgsineters: 3625"),
    ] {
        stdin.write_all(written.as_bytes()).expect("write");
        stdin.flush().expect("flush");
        let line = lines.recv_timeout(bound);
        assert_eq!(
            line.as_deref(),
            Ok(answer),
            "no answer to {written:?} while standard input stays open"
        );
    }
    drop(stdin);
    assert!(child.wait().expect("wait").success());
    reader.join().expect("reader");
}

/// Runs `bogglemax score` with `input` on standard input.
fn score_stdin(input: &[u8]) -> std::process::Output {
    run_stdin(&["score"], input)
}

/// Runs `bogglemax ARGS` with `input` on standard input.
fn run_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write");
    child.wait_with_output().expect("wait")
}

#[test]
fn stdin_lines_are_trimmed_and_a_bad_one_is_named() {
    // Blank lines skipped, CRLF endings, spaces and upper case: as the arguments would be.
    let out = score_stdin(b"\n  PERSLATGSINETERS \r\n\n\tabcdefghijklmnop\n\n");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).expect("utf-8"),
        "perslatgsineters: 3625\nabcdefghijklmnop: 18\n"
    );
    // A bad board is refused by its line number (blank lines count), in one line, after the
    // good ones before it are printed: standard input is read and scored as it arrives.
    for (input, needle) in [
        (&b"abcdefghijklmnop\n\nabc\n"[..], "stdin line 3"),
        (&b"abcdefghijklmnop\nabcdefghijklmno1\n"[..], "stdin line 2"),
        (
            &b"abcdefghijklmnop\n\xff\xfe\n"[..],
            "standard input, line 2",
        ),
    ] {
        let out = score_stdin(input);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{needle}: {err}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "abcdefghijklmnop: 18\n"
        );
    }
}

/// Text as Windows editors write it: a byte-order mark before a word list's first word, or
/// before the first board on standard input, is not part of it. A board written with spaces,
/// or with Qu spelled out, is refused by what is wrong with it, not only by its length.
/// `canon` and `rollable`, like `score`, print the boards before a bad line, then stop.
#[test]
fn byte_order_marks_spaces_qu_and_output_up_to_a_bad_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let list = dir.path().join("bom.txt");
    std::fs::write(&list, b"\xef\xbb\xbftea\r\neat\r\n").expect("write");
    let list = list.to_str().unwrap();
    assert_eq!(
        stdout_ok(&[
            "score",
            "--size",
            "2x2",
            "--words",
            "--wordlist",
            list,
            "teas"
        ]),
        "teas: 2\n1 eat\n1 tea\n"
    );
    assert!(stdout_ok(&["dict", "info", list]).contains("words: 2"));
    let out = run_stdin(&["score", "--size", "3x3"], b"\xef\xbb\xbfstreaedlp\r\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "streaedlp: 545\n");
    let out = run_stdin(&["canon", "--size", "3x3"], b"\xef\xbb\xbfstreaedlp\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "deslatper\n");

    fails_with(
        &["score", "--size", "3x3", "s t r e a e d l p"],
        "has ' ', which is not a letter",
    );
    fails_with(
        &["score", "--size", "3x3", "quaeinrstl"],
        "has 10 letters, but a 3x3 board needs 9 (the Qu die is written q)",
    );
    fails_with(&["score", "--size", "3x3", "a"], "has 1 letter, but");

    for args in [&["canon", "--size", "3x3"][..], &["rollable"][..]] {
        let good = if args[0] == "canon" {
            "streaedlp"
        } else {
            "perslatgsineters"
        };
        let out = run_stdin(args, format!("{good}\nbad\n").as_bytes());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("stdin line 2"), "{args:?}: {err}");
        let printed = String::from_utf8_lossy(&out.stdout);
        assert_eq!(printed.lines().count(), 1, "{args:?}: {printed}");
        assert!(
            printed.starts_with(if args[0] == "canon" {
                "deslatper"
            } else {
                good
            }),
            "{args:?}: {printed}"
        );
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    // A missing option is named, on the one line.
    fails_with(&["break-class", "aeiou"], "not provided: --score <S>");
    fails_with(&["hillclimb", "--threads", "100000"], "at most 1024");
    // A negative number is an invalid value of the option it was given to, named.
    fails_with(
        &["plan", "--size", "3x3", "--partition", "a", "--score", "-5"],
        "invalid value '-5' for '--score <S>'",
    );
    fails_with(
        &["hillclimb", "--seed", "-3"],
        "invalid value '-3' for '--seed",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().expect("utf-8 path");
    fails_with(
        &["score", "--wordlist", d, "abcdefghijklmnop"],
        "is a directory",
    );
    fails_with(&["score", "abc"], "needs 16");
    fails_with(&["score", "abcdefghijklmno1"], "not a letter");
    fails_with(&["score", "--size", "7x1", "abcdefg"], "7x1");
    fails_with(&["score", "--size", "0x3", "abc"], "0x3");
    fails_with(&["score", "--size", "banana", "abc"], "banana");
    fails_with(
        &[
            "score",
            "--wordlist",
            "/no/such/list.txt",
            "abcdefghijklmnop",
        ],
        "/no/such/list.txt",
    );
    fails_with(
        &["score", "--scoring", "fancy", "abcdefghijklmnop"],
        "fancy",
    );
    fails_with(
        &["dict", "info", "/no/such/file.dict"],
        "/no/such/file.dict",
    );
    fails_with(&["no-such-command"], "no-such-command");
}

/// `show` draws boards as grids (rows as rows, Qu as one cell) and `score --grid` draws the
/// board before its score; a malformed board is refused in one line.
#[test]
fn boards_drawn_as_grids() {
    assert_eq!(
        stdout_ok(&["show", "--size", "3x4", "perslatesind"]),
        "P L S\nE A I\nR T N\nS E D\n"
    );
    assert_eq!(
        stdout_ok(&["show", "--size", "2x2", "qiet", "abcd"]),
        "Qu E\nI  T\n\nA C\nB D\n"
    );
    assert_eq!(
        stdout_ok(&["score", "--size", "3x3", "--grid", "streaedlp"]),
        "S E D\nT A L\nR E P\nstreaedlp: 545\n"
    );
    fails_with(&["show", "--size", "3x3", "desl"], "needs 9");
}

/// `--scoring FILE`: a table of one's own scores as the built-in scoring it copies, and a
/// malformed table is refused in one line that names the line.
#[test]
fn scoring_tables_of_ones_own() {
    let dir = tempfile::tempdir().expect("tempdir");
    let table = dir.path().join("standard.txt");
    std::fs::write(
        &table,
        "# the standard table\n3 1\n4 1\n5 2\n6 3\n7 5\n8+ 11\n",
    )
    .expect("write");
    let table = table.to_str().unwrap();
    assert_eq!(
        stdout_ok(&["score", "--scoring", table, "perslatgsineters"]).trim(),
        "perslatgsineters: 3625"
    );
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "3 1\n4 one\n5+ 2\n").expect("write");
    fails_with(
        &[
            "score",
            "--scoring",
            bad.to_str().unwrap(),
            "perslatgsineters",
        ],
        "line 2: 'one' is not a whole number",
    );
}

/// A table whose points for a word of the list do not fit a word's 32 bits is refused in
/// one line naming the word, where it used to cap the word's points silently and print a
/// score too low; a table of a tenth the values, whose words fit, scores a board in full,
/// past 2^32.
#[test]
fn a_table_beyond_32_bit_word_points_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let letters = |v: u32| -> String {
        (b'a'..=b'z')
            .map(|l| format!("letter {} {v}\n", l as char))
            .collect()
    };
    let big = dir.path().join("big.txt");
    std::fs::write(&big, format!("3+ 100000\n{}", letters(100_000))).expect("write");
    fails_with(
        &[
            "score",
            "--scoring",
            big.to_str().unwrap(),
            "--size",
            "3x3",
            "streaedlp",
        ],
        "would score more than 4294967295 points",
    );
    // A named scoring has no values to make smaller: pow2 gives a 35-letter word 2^32.
    let long = dir.path().join("long.txt");
    std::fs::write(&long, format!("cat\n{}\n", "ab".repeat(17) + "c")).expect("write");
    fails_with(
        &[
            "score",
            "--scoring",
            "pow2",
            "--wordlist",
            long.to_str().unwrap(),
            "streaedlp",
        ],
        "leave the word out of the list or choose another scoring",
    );
    let fits = dir.path().join("fits.txt");
    // Every word scores 10^4 × 10^4 × its letters (Qu two): ENABLE2K's longest word, 28
    // letters, 2.8 × 10^9 points; the board's 267 words 10^8 times their letters.
    std::fs::write(&fits, format!("3+ 10000\n{}", letters(10_000))).expect("write");
    let words = stdout_ok(&[
        "score",
        "--scoring",
        "words",
        "--size",
        "3x3",
        "--words",
        "streaedlp",
    ]);
    let letters_sum: u64 = words
        .lines()
        .skip(1)
        .map(|w| w.split_whitespace().nth(1).unwrap_or("").len() as u64)
        .sum();
    assert!(
        letters_sum * 100_000_000 > u32::MAX as u64,
        "{letters_sum} letters"
    );
    assert_eq!(
        stdout_ok(&[
            "score",
            "--scoring",
            fits.to_str().unwrap(),
            "--size",
            "3x3",
            "streaedlp"
        ])
        .trim(),
        format!("streaedlp: {}", letters_sum * 100_000_000)
    );
}
