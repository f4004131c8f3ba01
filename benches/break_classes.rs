//! Class-breaking benchmark: full 3x3 runs and a fixed sample of 4x4 classes, one thread.
//!
//! `cargo bench --bench break_classes -- [3x3] [4x4-sample] [hardest]` (default: 3x3 and
//! 4x4-sample). `order=4,5,3,...` breaks the classes with that cell order instead of each
//! class's own (fewest letters first in each ring); give one size's groups at a time (9
//! cells for 3x3, 16 for the others). Figures go to standard output; nothing here asserts
//! a time.

use bogglemax::board::Size;
use bogglemax::bound::{BreakSettings, CellOrder, ClassBreaker, ClassSpace, Partition};
use bogglemax::dict::Dictionary;
use bogglemax::rng::splitmix64;
use bogglemax::solve::Scoring;
use std::time::Instant;

/// The 4x4 partition of the issue (three buckets, two for corners).
const PARTITION_4X4: &str = "aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz";
/// Seed of the 4x4 sample (SplitMix64 over canonical ids).
const SAMPLE_SEED: u64 = 20261122;
const SAMPLE_SIZE: usize = 100;

fn run(
    dict: &Dictionary,
    size: Size,
    partition: &str,
    threshold: u32,
    ids: &[u64],
    order: Option<&str>,
) {
    let space = ClassSpace::new(size, Partition::parse(partition).expect("valid partition"))
        .expect("a space of u64 ids");
    let breaker = match order {
        None => ClassBreaker::new(dict.trie(), size, Scoring::Standard),
        Some(text) => {
            let order = CellOrder::parse(size.cells(), text).expect("valid cell order");
            ClassBreaker::with_order(dict.trie(), size, Scoring::Standard, order)
        }
    };
    let settings = BreakSettings::with_default_switchover(threshold);
    let start = Instant::now();
    let mut times = Vec::new();
    let (mut candidates, mut results, mut checking) = (0, 0, 0.0);
    for &id in ids {
        let class = space.class(id).expect("id in range");
        let t = Instant::now();
        let out = breaker.break_class(&class, &settings);
        candidates += out.demulti_count;
        results += out.results.len();
        checking += out.check_seconds;
        times.push((
            t.elapsed().as_secs_f64(),
            id,
            out.peak_bytes,
            out.check_seconds,
        ));
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total = start.elapsed().as_secs_f64();
    println!(
        "{size} '{partition}' S={threshold} order {}: {} classes, {total:.2} s ({checking:.2} s \
         checking {candidates} candidates, {:.1} %), {results} results",
        order.unwrap_or("each class's own"),
        ids.len(),
        100.0 * checking / total.max(1e-9)
    );
    for (s, id, bytes, check) in times.iter().take(5) {
        println!(
            "  slow: class {id} {s:.3} s ({check:.3} s checking) peak {:.1} MB",
            *bytes as f64 / 1e6
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let order = args.iter().find_map(|a| a.strip_prefix("order="));
    let args: Vec<&String> = args.iter().filter(|a| !a.starts_with("order=")).collect();
    let want = |name: &str| args.is_empty() || args.iter().any(|a| *a == name);
    let dict = Dictionary::enable2k();
    if want("3x3") {
        let size: Size = "3x3".parse().expect("size");
        for p in [
            "aeiosuy bcdfghjklmnpqrtvwxz",
            "aeijou bcdfgmpqvwxz hklnrsty",
            "bdfgjqvwxz aeiou lnrsy chkmpt",
        ] {
            let space = ClassSpace::new(size, Partition::parse(p).expect("partition"))
                .expect("a space of u64 ids");
            run(&dict, size, p, 500, &space.canonical_ids(), order);
        }
    }
    if want("4x4-sample") {
        let size: Size = "4x4".parse().expect("size");
        let space = ClassSpace::new(size, Partition::parse(PARTITION_4X4).expect("partition"))
            .expect("a space of u64 ids");
        let canon = space.canonical_ids();
        let mut state = SAMPLE_SEED;
        let mut ids: Vec<u64> = (0..SAMPLE_SIZE)
            .map(|_| canon[(splitmix64(&mut state) % canon.len() as u64) as usize])
            .collect();
        ids.sort_unstable();
        println!("4x4 sample ids (seed {SAMPLE_SEED}): {ids:?}");
        run(&dict, size, PARTITION_4X4, 3500, &ids, order);
    }
    if want("hardest") {
        let size: Size = "4x4".parse().expect("size");
        let space = ClassSpace::new(size, Partition::parse(PARTITION_4X4).expect("partition"))
            .expect("a space of u64 ids");
        let board = bogglemax::board::Board::parse(size, "perslatgsineters").expect("board");
        run(
            &dict,
            size,
            PARTITION_4X4,
            3500,
            &[space.id_of_board(&board)],
            order,
        );
    }
}
