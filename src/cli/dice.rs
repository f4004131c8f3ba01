//! `bogglemax roll` and `rollable`: roll a 4x4 board with Boggle dice, and decide exactly
//! (bipartite matching) whether boards can be rolled, or estimate how many random ones can.

use super::common::{Output, parse_boards, parse_threads, worker_pool};
use bogglemax::board::{Board, Dice, Size};
use bogglemax::rng::Rng;
use clap::Args;
use rayon::prelude::*;
use std::io::Write;

/// Random boards per parallel task of `--estimate`; chunk `c` uses `Rng::stream(seed, c)`,
/// so the estimate depends only on the seed.
const ESTIMATE_CHUNK: u64 = 8192;

fn parse_dice(s: &str) -> Result<Dice, String> {
    Dice::by_name(s).map_err(|e| e.to_string())
}

fn four_by_four() -> Size {
    // 4 is within 1..=6, so this cannot fail.
    Size::new(4, 4).expect("4x4 is a valid size")
}

/// Flags of `bogglemax roll`.
#[derive(Args, Debug)]
pub struct RollArgs {
    /// Dice set: classic or new.
    #[arg(long, default_value = "classic", value_parser = parse_dice, value_name = "SET")]
    pub dice: Dice,
    /// Seed (default: from the clock, printed on standard error so that the roll can be
    /// made again).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// Runs `bogglemax roll`: one random 4x4 board rolled with the dice.
pub fn run_roll(args: &RollArgs, out: &mut Output) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(|| {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("roll: --seed {seed}");
        seed
    });
    let board = args.dice.roll(four_by_four(), &mut Rng::new(seed))?;
    writeln!(out, "{board}")?;
    out.flush()?;
    Ok(())
}

/// Flags of `bogglemax rollable`.
#[derive(Args, Debug)]
#[command(
    after_help = "For each board: `BOARD: yes` followed by one assignment, a \
`LETTER:DIE` pair per cell in cell order (DIE is the die's six faces, q = Qu), or \
`BOARD: no`. With --estimate N: `rollable: K/N (1 in X)` for N uniformly random boards."
)]
pub struct RollableArgs {
    /// Dice set: classic or new.
    #[arg(long, default_value = "classic", value_parser = parse_dice, value_name = "SET")]
    pub dice: Dice,
    /// Instead of checking boards, estimate the fraction of N random boards (letters a-z
    /// uniform) that can be rolled.
    #[arg(long, value_name = "N", conflicts_with = "boards")]
    pub estimate: Option<u64>,
    /// Seed for --estimate.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Worker threads for --estimate (0: one per core). The estimate does not depend on it.
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// 4x4 boards. With none (and no --estimate), one per line from standard input.
    pub boards: Vec<String>,
}

/// Runs `bogglemax rollable`.
pub fn run_rollable(args: &RollableArgs, out: &mut Output) -> anyhow::Result<()> {
    let size = four_by_four();
    let dice = &args.dice;
    if let Some(n) = args.estimate {
        if n == 0 {
            anyhow::bail!("--estimate must be at least 1");
        }
        let chunks = n.div_ceil(ESTIMATE_CHUNK);
        let yes: u64 = worker_pool(args.threads)?.install(|| {
            (0..chunks)
                .into_par_iter()
                .map(|c| {
                    let mut rng = Rng::stream(args.seed, c);
                    let count = ESTIMATE_CHUNK.min(n - c * ESTIMATE_CHUNK);
                    let mut letters = [0u8; 16];
                    let mut yes = 0;
                    for _ in 0..count {
                        for l in &mut letters {
                            *l = rng.index(26) as u8;
                        }
                        let board = Board::from_letters(size, &letters);
                        // The board is 4x4 and the sets have 16 dice, so assign cannot fail.
                        if dice.is_rollable(&board).unwrap_or(false) {
                            yes += 1;
                        }
                    }
                    yes
                })
                .sum()
        });
        let ratio = if yes == 0 {
            "none".to_string()
        } else {
            format!("1 in {:.1}", n as f64 / yes as f64)
        };
        writeln!(out, "rollable: {yes}/{n} ({ratio})")?;
        out.flush()?;
        return Ok(());
    }
    // Every board is read before any is printed, so bad input leaves no partial output.
    for board in parse_boards(&args.boards, size)? {
        match dice.assign(&board)? {
            Some(assignment) => {
                let pairs: Vec<String> = assignment
                    .iter()
                    .enumerate()
                    .map(|(cell, &d)| {
                        format!(
                            "{}:{}",
                            bogglemax::board::letter_char(board.get(cell)),
                            dice.die_text(d)
                        )
                    })
                    .collect();
                writeln!(out, "{board}: yes {}", pairs.join(" "))?;
            }
            None => writeln!(out, "{board}: no")?,
        }
    }
    out.flush()?;
    Ok(())
}
