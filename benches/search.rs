//! Search benchmark with fixed seeds: hill climbing and annealing on 3x4 and 4x4, and the
//! speed of the exact rollability test.
//!
//! `cargo bench --bench search -- [hillclimb] [anneal] [dice] [4x4]` (default: hillclimb,
//! anneal and dice on small settings; `4x4` adds one 4x4 pool-500 climb, a few minutes).
//! Figures go to standard output; nothing here asserts a time.

use bogglemax::board::{Board, Dice, Size};
use bogglemax::dict::Dictionary;
use bogglemax::rng::Rng;
use bogglemax::search::anneal::{AnnealSettings, Annealer};
use bogglemax::search::hillclimb::{HillClimber, HillclimbSettings};
use bogglemax::search::{Letters, SearchSpace};
use bogglemax::solve::Scoring;
use std::time::Instant;

const SEED: u64 = 20260101;

fn space(size: &str) -> SearchSpace {
    SearchSpace {
        size: size.parse::<Size>().expect("valid size"),
        scoring: Scoring::Standard,
        letters: Letters::all(),
        seed: SEED,
    }
}

fn hillclimb(dict: &Dictionary, size: &str, pool: usize, runs: usize) {
    let settings = HillclimbSettings {
        pool,
        keep: 1,
        max_rounds: None,
        patience: None,
    };
    let climber = HillClimber::new(dict.trie(), space(size), settings).expect("valid settings");
    for run in 0..runs {
        let mut boards = 0;
        let o = climber.run(run, &mut |r| boards += r.candidates);
        println!(
            "hillclimb {size} pool {pool} run {run}: {} {} rounds={} {:.2} s, {:.0} boards/s",
            o.best().score,
            o.best().board,
            o.rounds,
            o.seconds,
            boards as f64 / o.seconds
        );
    }
}

fn anneal(dict: &Dictionary, size: &str, steps: u64, runs: usize) {
    let settings = AnnealSettings {
        steps,
        t_start: 40.0,
        t_end: 0.5,
        keep: 1,
    };
    let annealer = Annealer::new(dict.trie(), space(size), settings).expect("valid settings");
    for run in 0..runs {
        let o = annealer.run(run, &|_| {});
        println!(
            "anneal {size} {steps} steps run {run}: {} {} {:.2} s, {:.0} boards/s",
            o.best().score,
            o.best().board,
            o.seconds,
            o.rounds as f64 / o.seconds
        );
    }
}

fn dice() {
    let size: Size = "4x4".parse().expect("valid size");
    for set in [Dice::classic(), Dice::new_set()] {
        let mut rng = Rng::new(SEED);
        let n = 1_000_000;
        let start = Instant::now();
        let mut yes = 0;
        for _ in 0..n {
            let letters: Vec<u8> = (0..16).map(|_| rng.index(26) as u8).collect();
            if set
                .is_rollable(&Board::from_letters(size, &letters))
                .expect("4x4 board, 16 dice")
            {
                yes += 1;
            }
        }
        let s = start.elapsed().as_secs_f64();
        println!(
            "rollable {}: {yes}/{n} in {s:.2} s ({:.0} boards/s)",
            set.name(),
            n as f64 / s
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let want = |name: &str| args.is_empty() || args.iter().any(|a| a == name);
    let dict = Dictionary::enable2k();
    if want("hillclimb") {
        hillclimb(&dict, "3x4", 50, 2);
    }
    if want("anneal") {
        anneal(&dict, "4x4", 50_000, 2);
    }
    if want("dice") {
        dice();
    }
    if args.iter().any(|a| a == "4x4") {
        hillclimb(&dict, "4x4", 500, 1);
    }
}
