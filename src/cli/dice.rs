//! `bogglemax roll` and `rollable`: roll a board with Boggle dice, and decide exactly
//! (bipartite matching) whether boards can be rolled, or estimate how many random ones can.

use super::common::{Output, for_each_board_batch, parse_size, parse_threads, worker_pool};
use bogglemax::board::{Board, Dice, DiceError, Size};
use bogglemax::progress::Progress;
use bogglemax::rng::Rng;
use clap::Args;
use rayon::prelude::*;
use std::io::Write;

/// Random boards per parallel task of `--estimate`; chunk `c` uses `Rng::stream(seed, c)`,
/// so the estimate depends only on the seed.
const ESTIMATE_CHUNK: u64 = 8192;

/// What `--dice` says: `classic`, `new`, or a file of one die a line.
const DICE_HELP: &str = "Dice set: classic, new (the 4x4 sets), or FILE: one die a line, its six \
faces as letters (q for Qu), '#' comments; for example the 25 dice of a 5x5 game";

fn parse_dice(s: &str) -> Result<Dice, String> {
    match Dice::by_name(s) {
        Ok(dice) => Ok(dice),
        Err(DiceError::UnknownSet { .. }) if std::path::Path::new(s).is_dir() => {
            Err(format!("'{s}' is a directory, not a dice file"))
        }
        Err(DiceError::UnknownSet { .. }) if std::path::Path::new(s).exists() => {
            let text = std::fs::read_to_string(s)
                .map_err(|e| format!("cannot read the dice file: {e}"))?;
            Dice::from_text(s, &text).map_err(|e| e.to_string())
        }
        Err(e) => Err(format!("{e}, or an existing dice file")),
    }
}

/// The board size of `--size`, or when it is not given, 4x4 for the named sets and the
/// square the dice fill for a file (25 dice: 5x5); the dice must fill the board.
fn board_size(dice: &Dice, size: Option<Size>) -> anyhow::Result<Size> {
    let size = match size {
        Some(size) => size,
        None => {
            let side = (1..=6).find(|side| side * side == dice.len());
            // 1 to 6 is a valid side, so `Size::new` cannot fail.
            let square = side.map(|side| Size::new(side, side).expect("a side of 1 to 6"));
            square.ok_or_else(|| {
                anyhow::anyhow!(
                    "the {} dice set has {} dice, not a square board's: give --size",
                    dice.name(),
                    dice.len()
                )
            })?
        }
    };
    dice.check_size(size).map_err(|e| {
        anyhow::anyhow!("{e}: give a set of {} dice with --dice FILE", size.cells())
    })?;
    Ok(size)
}

/// Flags of `bogglemax roll`.
#[derive(Args, Debug)]
pub struct RollArgs {
    #[arg(long, default_value = "classic", value_parser = parse_dice, value_name = "SET|FILE", help = DICE_HELP)]
    pub dice: Dice,
    /// Board size, CxR, as many cells as dice (default: 4x4, or the square a dice file
    /// fills).
    #[arg(long, value_parser = parse_size, value_name = "CxR")]
    pub size: Option<Size>,
    /// Seed (default: from the clock, printed on standard error so that the roll can be
    /// made again).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// Runs `bogglemax roll`: one random board rolled with the dice.
pub fn run_roll(args: &RollArgs, out: &mut Output) -> anyhow::Result<()> {
    let size = board_size(&args.dice, args.size)?;
    let seed = args.seed.unwrap_or_else(|| {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("roll: --seed {seed}");
        seed
    });
    let board = args.dice.roll(size, &mut Rng::new(seed))?;
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
    #[arg(long, default_value = "classic", value_parser = parse_dice, value_name = "SET|FILE", help = DICE_HELP)]
    pub dice: Dice,
    /// Board size, CxR, as many cells as dice (default: 4x4, or the square a dice file
    /// fills).
    #[arg(long, value_parser = parse_size, value_name = "CxR")]
    pub size: Option<Size>,
    /// Instead of checking boards, estimate the fraction of N random boards (letters a-z
    /// uniform) that can be rolled.
    #[arg(long, value_name = "N", conflicts_with = "boards")]
    pub estimate: Option<u64>,
    /// Seed for --estimate (default 1).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads for --estimate (0: one per core). The estimate does not depend on it.
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// No progress display for --estimate.
    #[arg(long)]
    pub quiet: bool,
    /// Boards. With none (and no --estimate), one per line from standard input.
    pub boards: Vec<String>,
}

/// Runs `bogglemax rollable`.
pub fn run_rollable(args: &RollableArgs, out: &mut Output) -> anyhow::Result<()> {
    let dice = &args.dice;
    let size = board_size(dice, args.size)?;
    if args.seed.is_some() && args.estimate.is_none() {
        anyhow::bail!("--seed is for --estimate: checking the boards given draws nothing");
    }
    if args.quiet && args.estimate.is_none() {
        anyhow::bail!("--quiet is for --estimate: checking the boards given shows no progress");
    }
    if args.threads.is_some() && args.estimate.is_none() {
        anyhow::bail!("--threads is for --estimate: the boards given are checked on one thread");
    }
    if let Some(n) = args.estimate {
        if n == 0 {
            anyhow::bail!("--estimate must be at least 1");
        }
        let chunks = n.div_ceil(ESTIMATE_CHUNK);
        let mut progress = Progress::counting("rollable", n, "boards", args.quiet);
        let yes: u64 = worker_pool(args.threads.unwrap_or(0))?.install(|| {
            (0..chunks)
                .into_par_iter()
                .map(|c| {
                    let mut rng = Rng::stream(args.seed.unwrap_or(1), c);
                    let count = ESTIMATE_CHUNK.min(n - c * ESTIMATE_CHUNK);
                    let mut letters = vec![0u8; size.cells()];
                    let mut yes = 0;
                    for _ in 0..count {
                        for l in &mut letters {
                            *l = rng.index(26) as u8;
                        }
                        let board = Board::from_letters(size, &letters);
                        // `board_size` checked that the dice fill the board, so this cannot fail.
                        if dice.is_rollable(&board).unwrap_or(false) {
                            yes += 1;
                        }
                    }
                    progress.inc_by(count);
                    yes
                })
                .sum()
        });
        progress.finish();
        let ratio = if yes == 0 {
            "none".to_string()
        } else {
            format!("1 in {:.1}", n as f64 / yes as f64)
        };
        writeln!(out, "rollable: {yes}/{n} ({ratio})")?;
        out.flush()?;
        return Ok(());
    }
    for_each_board_batch(&args.boards, size, |boards| {
        for board in boards {
            match dice.assign(board)? {
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
        Ok(out.flush()?)
    })
}
