//! End-to-end tests of `bogglemax bound` and `break-class` against the published figures.

mod common;

use bogglemax::board::{Board, Geometry, Size};
use bogglemax::bound::BoardClass;
use bogglemax::dict::Dictionary;
use bogglemax::solve::{Scoring, Solver};
use common::{fails_with, stdout_ok};
use rayon::prelude::*;

/// The 3x3 class.
const CLASS: &str = "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz";
/// The reference implementation's 3x3 cell order: centre, bottom, top, left, right, corners.
const REFERENCE_ORDER: &str = "4,5,3,1,7,0,2,6,8";

fn line<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key} in {out}"))
}

#[test]
fn bound_prints_the_published_2009_bounds_and_the_reference_tree() {
    let out = stdout_ok(&["bound", "--size", "3x3", CLASS]);
    assert_eq!(line(&out, "sum_union="), "106383");
    assert_eq!(line(&out, "max_nomark="), "9359");
    // The default order reaches a different (here looser) bound over the same node count.
    let ours: u32 = line(&out, "orderly=").parse().unwrap();
    assert!(ours > 1231, "{out}");
    let reference = stdout_ok(&[
        "bound",
        "--size",
        "3x3",
        "--cell-order",
        REFERENCE_ORDER,
        CLASS,
    ]);
    assert_eq!(line(&reference, "orderly="), "1231");
    assert_eq!(line(&reference, "nodes="), "332438");
}

/// A class of more word paths than `--max-paths` is refused in one line, with no output,
/// before its tree is built (a large 5x5 class used to abort on a failed allocation of
/// gigabytes); a limit it is under builds the same tree as the default.
#[test]
fn bound_refuses_a_class_past_its_path_limit() {
    let over = ["bound", "--size", "3x3", "--max-paths", "1000", CLASS];
    fails_with(&over, "more than 1000 word paths (--max-paths)");
    assert!(
        common::run(&over).stdout.is_empty(),
        "no bounds printed before the refusal"
    );
    let out = stdout_ok(&["bound", "--size", "3x3", "--max-paths", "10000000", CLASS]);
    let default = stdout_ok(&["bound", "--size", "3x3", CLASS]);
    for key in ["orderly=", "nodes="] {
        assert_eq!(line(&out, key), line(&default, key), "{key}");
    }
}

#[test]
fn break_class_finds_the_same_results_in_any_order() {
    let results = |order: Option<&str>| {
        let mut args = vec!["break-class", "--size", "3x3", "--score", "500"];
        if let Some(o) = order {
            args.extend(["--cell-order", o]);
        }
        args.push(CLASS);
        let out = stdout_ok(&args);
        let mut found: Vec<String> = out
            .lines()
            .filter(|l| l.starts_with("result: "))
            .map(|l| l.split(' ').nth(1).unwrap().to_string())
            .collect();
        found.sort();
        (line(&out, "cell_order: ").to_string(), found)
    };
    let (default_order, default_found) = results(None);
    let (reference_order, reference_found) = results(Some(REFERENCE_ORDER));
    // The class's own order: the centre, then the edges and the corners each fewest
    // letters first (cell 3's chkmpt and cell 8's nine consonants last of their rings).
    assert_eq!(default_order, "4,1,5,7,3,0,6,2,8");
    assert_eq!(reference_order, REFERENCE_ORDER);
    // Every board of the class that reaches 500, by scoring each of its 5,062,500 boards.
    let size: Size = "3x3".parse().unwrap();
    let class = BoardClass::parse(size, CLASS).unwrap();
    let dict = Dictionary::load(None).unwrap();
    let geometry = Geometry::new(size);
    // One part per letter of the last cell, on as many threads as there are.
    let last = class.cells().len() - 1;
    let letters: Vec<u32> = (0..26)
        .filter(|l| class.cells()[last] & 1 << l != 0)
        .collect();
    let mut brute: Vec<String> = letters
        .par_iter()
        .flat_map_iter(|&l| {
            let mut cells = class.cells().to_vec();
            cells[last] = 1 << l;
            let part = BoardClass::new(size, cells).unwrap();
            let mut solver = Solver::new(dict.trie(), &geometry, Scoring::Standard);
            part.boards()
                .filter(|b| solver.score(b) >= 500)
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    brute.sort();
    assert!(
        brute.iter().any(|b| b == "reptalsed"),
        "deslatper (545), as it lies in the class"
    );
    assert_eq!(default_found, brute);
    assert_eq!(reference_found, brute);
}

#[test]
fn bad_cell_orders_are_refused() {
    for (order, why) in [
        ("4,5,3,1,7,0,2,6", "8 cells given, 9 needed"),
        ("4,5,3,1,7,0,2,6,6", "cell 6 appears twice"),
        (
            "4,5,3,1,7,0,2,6,9",
            "cell 9 is not on the board (its cells are 0 to 8)",
        ),
        ("4,5,3,1,7,0,2,6,x", "'x' is not a cell number"),
    ] {
        fails_with(
            &["bound", "--size", "3x3", "--cell-order", order, CLASS],
            why,
        );
        fails_with(
            &[
                "break-class",
                "--size",
                "3x3",
                "--score",
                "500",
                "--cell-order",
                order,
                CLASS,
            ],
            why,
        );
    }
}

/// A class that is its own mirror image (columns 0 and 2 swap) is broken for one board of
/// each pair of images by default, for both with `--every-image`; the canonical forms are
/// the same either way, deslatper (545) among them.
#[test]
fn mirror_classes_report_one_board_of_each_pair() {
    let mirrored = "dp e rs l a t dp e rs";
    let results = |every: bool| {
        let mut args = vec!["break-class", "--size", "3x3", "--score", "400"];
        if every {
            args.push("--every-image");
        }
        args.push(mirrored);
        let out = stdout_ok(&args);
        let found: Vec<String> = out
            .lines()
            .filter(|l| l.starts_with("result: "))
            .map(|l| l.split(' ').nth(1).unwrap().to_string())
            .collect();
        (line(&out, "mirror: ").to_string(), found)
    };
    let (pair, one) = results(false);
    let (_, both) = results(true);
    assert!(
        pair.starts_with("cells 0 6") || pair.starts_with("cells 2 8"),
        "{pair}"
    );
    // Every board of the class at 400 or more, by scoring its 16 boards.
    let size: Size = "3x3".parse().unwrap();
    let dict = Dictionary::load(None).unwrap();
    let mut solver = Solver::new(dict.trie(), &Geometry::new(size), Scoring::Standard);
    let mut brute: Vec<Board> = BoardClass::parse(size, mirrored)
        .unwrap()
        .boards()
        .filter(|b| solver.score(b) >= 400)
        .collect();
    brute.sort();
    let mut sorted = both.clone();
    sorted.sort();
    // No q in the class: a board's string has a letter per cell.
    let names: Vec<String> = brute.iter().map(|b| b.to_string()).collect();
    assert_eq!(sorted, names, "--every-image finds every board");
    // Of the pair of cells the mirror swaps, A takes no letter after B's: one board of
    // each pair of images, both where A and B hold the same letter.
    let cells: Vec<usize> = pair
        .split(' ')
        .skip(1)
        .take(2)
        .map(|c| c.parse().unwrap())
        .collect();
    let want: Vec<String> = names
        .iter()
        .filter(|b| b.as_bytes()[cells[0]] <= b.as_bytes()[cells[1]])
        .cloned()
        .collect();
    assert!(
        want.len() < brute.len(),
        "some boards come in pairs: {brute:?}"
    );
    let mut one_sorted = one.clone();
    one_sorted.sort();
    assert_eq!(one_sorted, want);
    let canon = |boards: &[String]| {
        let mut args = vec!["canon", "--size", "3x3"];
        args.extend(boards.iter().map(String::as_str));
        let mut c: Vec<String> = stdout_ok(&args).lines().map(str::to_string).collect();
        c.sort();
        c.dedup();
        c
    };
    assert_eq!(canon(&one), canon(&both));
    assert!(canon(&one).iter().any(|b| b == "deslatper"), "{one:?}");
    let plain = stdout_ok(&["break-class", "--size", "3x3", "--score", "500", CLASS]);
    assert_eq!(line(&plain, "mirror: "), "none");
}

/// The help of every command with `--switchover` states the default the library uses (the
/// texts are written by hand: a new default must be written into each of them).
#[test]
fn help_texts_state_the_default_switchover() {
    let s = 3500u32;
    let default = bogglemax::bound::BreakSettings::with_default_switchover(s).switchover;
    for command in ["plan", "estimate", "break-class"] {
        let help = stdout_ok(&[command, "--help"]);
        let line = help
            .lines()
            .find(|l| l.contains("--switchover"))
            .unwrap_or_else(|| panic!("{command} --help has no --switchover"));
        let ratio = line
            .split("Default: ")
            .nth(1)
            .and_then(|rest| rest.strip_suffix(" × S"))
            .unwrap_or_else(|| panic!("{command}: no 'Default: N/D × S' in {line:?}"));
        let (num, den) = ratio.split_once('/').expect("N/D");
        let stated = s as u64 * num.parse::<u64>().unwrap() / den.parse::<u64>().unwrap();
        assert_eq!(stated, default as u64, "{command} --help: {line}");
    }
}

/// `class` of a board and `class --id` of its id print the same class, each cell's set
/// holding the board's letter there; the canonical id is the smallest id among the board's
/// eight symmetry images (each asked of `class` in turn), and `canonical:` says whether the
/// id is it. A number given as the board is refused with a pointer to --id.
#[test]
fn class_ids_round_trip_and_canonical_ids_are_the_smallest_image() {
    const P: &str = "aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz";
    let field = |out: &str, key: &str| line(out, key).trim().to_string();
    let board: Vec<u8> = b"abcdefghijklmnop".to_vec();
    let by_board = stdout_ok(&["class", "--partition", P, "abcdefghijklmnop"]);
    let id = field(&by_board, "id:");
    let by_id = stdout_ok(&["class", "--partition", P, "--id", &id]);
    assert_eq!(field(&by_id, "class:"), field(&by_board, "class:"));
    let sets: Vec<String> = field(&by_board, "class:")
        .split(' ')
        .map(str::to_string)
        .collect();
    assert_eq!(sets.len(), 16);
    for (cell, set) in sets.iter().enumerate() {
        assert!(set.as_bytes().contains(&board[cell]), "cell {cell}: {set}");
    }
    // Cell i is column i / 4, row i % 4; the images map (c, r) as the square's symmetries.
    type CellMap = fn(usize, usize) -> (usize, usize);
    let images: [CellMap; 8] = [
        |c, r| (c, r),
        |c, r| (3 - c, r),
        |c, r| (c, 3 - r),
        |c, r| (3 - c, 3 - r),
        |c, r| (r, c),
        |c, r| (3 - r, c),
        |c, r| (r, 3 - c),
        |c, r| (3 - r, 3 - c),
    ];
    let ids: Vec<u64> = images
        .iter()
        .map(|map| {
            let mut image = vec![b'?'; 16];
            for (i, &letter) in board.iter().enumerate() {
                let (c, r) = map(i / 4, i % 4);
                image[c * 4 + r] = letter;
            }
            let image = String::from_utf8(image).unwrap();
            let out = stdout_ok(&["class", "--partition", P, &image]);
            assert_eq!(
                field(&out, "canonical_id:"),
                field(&by_board, "canonical_id:")
            );
            field(&out, "id:").parse().unwrap()
        })
        .collect();
    let smallest = *ids.iter().min().unwrap();
    assert_eq!(field(&by_board, "canonical_id:"), smallest.to_string());
    let canonical = if id == smallest.to_string() {
        "yes"
    } else {
        "no"
    };
    assert_eq!(field(&by_board, "canonical:"), canonical);
    let by_smallest = stdout_ok(&["class", "--partition", P, "--id", &smallest.to_string()]);
    assert_eq!(field(&by_smallest, "canonical:"), "yes");
    fails_with(&["class", "--partition", P, &id], "give a class id as --id");
    // A board or --id: neither given names both choices; both given is refused.
    fails_with(
        &["class", "--partition", P],
        "not provided: <BOARD|--id <N>>",
    );
    fails_with(
        &["class", "--partition", P, "--id", "3", "abcdefghijklmnop"],
        "cannot be used with",
    );
}
