//! Solver benchmark: random 4x4 boards and the neighbours of `perslatgsineters`, scored on one
//! thread (one by one, then a cell's changes in one walk as hill climbing does), then the same
//! random boards through `bogglemax score` on standard input (all cores).
//!
//! `cargo bench --bench solver`. Fixed seed and inputs; figures go to standard output, nothing
//! here asserts a time.

use bogglemax::board::{Board, Geometry, Size};
use bogglemax::dict::Dictionary;
use bogglemax::rng::splitmix64;
use bogglemax::solve::{Scoring, Solver};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Seed of the random boards (SplitMix64; letters uniform over a–z).
const SEED: u64 = 20261123;
const RANDOM_BOARDS: usize = 400_000;

/// Scores every board `rounds` times on one thread; prints and returns boards per second.
fn rate(name: &str, solver: &mut Solver, boards: &[Board], rounds: usize) -> f64 {
    let mut checksum = 0u64;
    let start = Instant::now();
    for _ in 0..rounds {
        for b in boards {
            checksum = checksum.wrapping_add(solver.score(b));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let per_sec = (boards.len() * rounds) as f64 / secs;
    println!(
        "{name}: {} boards in {secs:.2} s = {per_sec:.0} boards/s (one thread; score sum {checksum})",
        boards.len() * rounds
    );
    per_sec
}

fn main() {
    let size = Size::new(4, 4).expect("4x4");
    let dict = Dictionary::enable2k();
    let geometry = Geometry::new(size);
    let mut solver = Solver::new(dict.trie(), &geometry, Scoring::Standard);

    let mut state = SEED;
    let random: Vec<Board> = (0..RANDOM_BOARDS)
        .map(|_| {
            let letters: Vec<u8> = (0..16)
                .map(|_| (splitmix64(&mut state) % 26) as u8)
                .collect();
            Board::from_letters(size, &letters)
        })
        .collect();
    // Warm up caches and the CPU's clock before timing.
    rate("warm-up", &mut solver, &random[..50_000], 1);
    rate("random 4x4", &mut solver, &random, 1);

    let best = Board::parse(size, "perslatgsineters").expect("board");
    let mut neighbours = Vec::new();
    for cell in 0..16 {
        for l in 0..26u8 {
            if l != best.get(cell) {
                let mut b = best;
                b.set(cell, l);
                neighbours.push(b);
            }
        }
    }
    rate(
        "perslatgsineters one-letter changes",
        &mut solver,
        &neighbours,
        50,
    );
    // The same boards as hill climbing scores them: each cell's 25 changes in one walk.
    let rounds = 50;
    let mut checksum = 0u64;
    let mut out = vec![0u64; 25];
    let start = Instant::now();
    for _ in 0..rounds {
        for cell_changes in neighbours.chunks(25) {
            solver.score_many(cell_changes, &mut out);
            checksum = checksum.wrapping_add(out.iter().sum::<u64>());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perslatgsineters one-letter changes, a cell's 25 in one walk: {} boards in {secs:.2} s = {:.0} boards/s (one thread; score sum {checksum})",
        neighbours.len() * rounds,
        (neighbours.len() * rounds) as f64 / secs
    );

    // All cores, through the command line as a user would run it.
    let exe = std::env::var("BOGGLEMAX").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/bogglemax").to_string()
    });
    let text: String = random.iter().map(|b| format!("{b}\n")).collect();
    let start = Instant::now();
    let child = Command::new(&exe)
        .args(["score", "--size", "4x4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        println!("stdin rate: skipped ({exe} not found; run `make build` or set BOGGLEMAX)");
        return;
    };
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().expect("bogglemax score runs");
    writer.join().expect("writer").expect("write boards");
    let secs = start.elapsed().as_secs_f64();
    let lines = out.stdout.iter().filter(|&&c| c == b'\n').count();
    assert_eq!(lines, random.len(), "one line per board");
    println!(
        "random 4x4 via `bogglemax score` stdin: {lines} boards in {secs:.2} s = {:.0} boards/s ({} threads)",
        lines as f64 / secs,
        rayon::current_num_threads()
    );
}
