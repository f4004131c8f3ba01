//! Two things for the build:
//! - Tells the tests whether the workplace's shared word lists (`../shared/wordlists/`, beside
//!   the repository) are present: tests that need them are ignored, with that reason, where
//!   they are not, instead of passing without checking anything.
//! - Embeds the boards of `refdata/` (published proofs) and `results/` (this project's), for
//!   `report` to show the best known board beside a run's: `$OUT_DIR/known_files.rs` lists
//!   every `*.txt` there (and `refdata/README.md`, which gives their thresholds).

use std::fmt::Write as _;
use std::path::Path;

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
    let mut out = String::from(
        "/// Every file of known boards, as (path in the repository, contents).\n\
         pub(crate) const KNOWN_FILES: &[(&str, &str)] = &[\n",
    );
    for f in &files {
        let _ = writeln!(
            out,
            "    ({f:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?}))),",
            format!("/{f}")
        );
    }
    out.push_str("];\n");
    let dest =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("known_files.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
