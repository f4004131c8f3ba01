//! Three things for the build:
//! - Tells the tests whether the workplace's shared word lists (`../shared/wordlists/`, beside
//!   the repository) are present: tests that need them are ignored, with that reason, where
//!   they are not, instead of passing without checking anything.
//! - Embeds the boards of `refdata/` (published proofs) and `results/` (this project's), for
//!   `report` to show the best known board beside a run's: `$OUT_DIR/known_files.rs` lists
//!   every `*.txt` there (and `refdata/README.md`, which gives their thresholds).
//! - Builds the prefix tree of the built-in ENABLE2K list with the library's own filter and
//!   builder (the same source files, included below), so that a run with the default word
//!   list opens a ready tree instead of filtering 1.7 MB of text and building 389,000 nodes
//!   at every start: about 60 % of a short `break-class` process's instructions. The test
//!   `built_in_tree_is_the_lists` checks the result against a tree built at run time.

use std::fmt::Write as _;
use std::path::Path;

// The library's word filter, tree builder and line splitter, compiled into this script as
// they are.
#[allow(dead_code)]
#[path = "src/dict/filter.rs"]
mod filter;
#[allow(dead_code)]
#[path = "src/text.rs"]
mod text;
#[allow(dead_code)]
#[path = "src/dict/trie.rs"]
mod trie;
/// What `filter.rs` takes from the library's `board` module.
mod board {
    pub const LETTER_Q: u8 = b'q' - b'a';
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_wordlists)");
    let list = Path::new("../shared/wordlists/naspa2023.txt");
    if list.is_file() {
        println!("cargo::rerun-if-changed=../shared/wordlists/naspa2023.txt");
        println!("cargo::rustc-cfg=shared_wordlists");
    }
    // Watching a missing file would make every build stale: watch this script, and the two
    // folders of known boards.
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=refdata");
    println!("cargo::rerun-if-changed=results");
    let mut files = Vec::new();
    for dir in ["refdata", "results"] {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".txt") || (dir == "refdata" && name == "README.md") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    write_known_files(&files, Path::new(&out_dir));
    write_enable2k_tree(Path::new(&out_dir));
}

/// Writes `$OUT_DIR/known_files.rs`, which embeds each of `files`.
fn write_known_files(files: &[String], out_dir: &Path) {
    let mut out = String::from(
        "/// Every file of known boards, as (path in the repository, contents).\n\
         pub(crate) const KNOWN_FILES: &[(&str, &str)] = &[\n",
    );
    for f in files {
        let _ = writeln!(
            out,
            "    ({f:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?}))),",
            format!("/{f}")
        );
    }
    out.push_str("];\n");
    std::fs::write(out_dir.join("known_files.rs"), out).expect("OUT_DIR is writable");
}

/// Writes the prefix tree of `wordlists/enable2k.txt` as `$OUT_DIR/enable2k.nodes` (the flat
/// node array, little-endian `u32`s) and `$OUT_DIR/enable2k.word_len` (one byte a word).
fn write_enable2k_tree(out_dir: &Path) {
    println!("cargo::rerun-if-changed=wordlists/enable2k.txt");
    println!("cargo::rerun-if-changed=src/dict/filter.rs");
    println!("cargo::rerun-if-changed=src/text.rs");
    println!("cargo::rerun-if-changed=src/dict/trie.rs");
    let text = std::fs::read_to_string("wordlists/enable2k.txt").expect("wordlists/enable2k.txt");
    let tree = trie::TrieBuf::build(&filter::filter_words(&text));
    let nodes: Vec<u8> = tree.nodes.iter().flat_map(|n| n.to_le_bytes()).collect();
    std::fs::write(out_dir.join("enable2k.nodes"), nodes).expect("OUT_DIR is writable");
    std::fs::write(out_dir.join("enable2k.word_len"), &tree.word_len).expect("OUT_DIR is writable");
}
