//! Tells the tests whether the workplace's shared word lists (`../shared/wordlists/`, beside
//! the repository) are present: tests that need them are ignored, with that reason, where
//! they are not, instead of passing without checking anything.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_wordlists)");
    let list = std::path::Path::new("../shared/wordlists/naspa2023.txt");
    if list.is_file() {
        println!("cargo::rerun-if-changed=../shared/wordlists/naspa2023.txt");
        println!("cargo::rustc-cfg=shared_wordlists");
    } else {
        // Watching a missing file would make every build stale: watch this script only.
        println!("cargo::rerun-if-changed=build.rs");
    }
}
