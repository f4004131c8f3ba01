//! `bogglemax score`: score boards given as arguments or on standard input.

use super::common::{
    DictArgs, Output, for_each_board_batch, parse_size, parse_threads, worker_pool,
};
use bogglemax::board::{Board, Geometry, Size};
use bogglemax::solve::Solver;
use clap::Args;
use rayon::prelude::*;
use std::io::Write;

/// Boards a worker scores at a time: big enough to keep runs of similar boards together,
/// small enough to spread a file over every core.
const SCORE_CHUNK: usize = 256;

/// Flags of `bogglemax score`.
#[derive(Args, Debug)]
pub struct ScoreArgs {
    /// Board size, CxR (C columns, R rows; each 1 to 6).
    #[arg(long, default_value = "4x4", value_parser = parse_size, value_name = "CxR")]
    pub size: Size,
    #[command(flatten)]
    pub dict: DictArgs,
    /// Also print the Multi-Boggle score (every path counts) and DeMulti (every distinct
    /// cell set counts): `BOARD: SCORE multi=M demulti=D`.
    #[arg(long)]
    pub multi: bool,
    /// After each board, list its words as `POINTS WORD`, best first, then alphabetically.
    #[arg(long)]
    pub words: bool,
    /// Draw each board as its grid (rows as rows, Qu as one cell) before its score line.
    #[arg(long)]
    pub grid: bool,
    /// Worker threads scoring the boards (0: one per core). The output does not depend on it.
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Boards, as letters in column-major order. With none, one board per line is read from
    /// standard input as it arrives, scored on --threads cores and printed in input order
    /// (a bad line ends the output there, with the boards before it printed). Consecutive
    /// boards that differ from the first of them in one and the same cell (a board's
    /// one-letter changes, a cell at a time) are scored together in one walk, about twice as
    /// fast.
    pub boards: Vec<String>,
}

/// Flags of `bogglemax show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Board size, CxR (C columns, R rows; each 1 to 6).
    #[arg(long, default_value = "4x4", value_parser = parse_size, value_name = "CxR")]
    pub size: Size,
    /// Boards, as letters in column-major order. With none, one board per line is read from
    /// standard input as it arrives.
    pub boards: Vec<String>,
}

/// Runs `bogglemax show`: each board's grid, a blank line between boards.
pub fn show(args: &ShowArgs, out: &mut Output) -> anyhow::Result<()> {
    let mut first = true;
    for_each_board_batch(&args.boards, args.size, |boards| {
        for board in boards {
            if !first {
                writeln!(out)?;
            }
            first = false;
            write!(out, "{}", board.grid())?;
        }
        Ok(out.flush()?)
    })
}

/// Runs `bogglemax score`.
pub fn run(args: &ScoreArgs, out: &mut Output) -> anyhow::Result<()> {
    let dict = args.dict.load(args.size)?;
    let geometry = Geometry::new(args.size);
    let first = Solver::new(dict.trie(), &geometry, args.dict.scoring());
    worker_pool(args.threads)?.install(|| {
        for_each_board_batch(&args.boards, args.size, |boards| {
            score_boards(args, &first, boards, out)
        })
    })
}

/// Scores `boards` with copies of `first` on the current thread pool, and prints them.
fn score_boards(
    args: &ScoreArgs,
    first: &Solver<'_>,
    boards: &[Board],
    out: &mut Output,
) -> anyhow::Result<()> {
    let make = || first.fresh();
    if !(args.grid || args.multi || args.words) {
        // The common case, scores only: the output is written from the scores, no `String`
        // a line.
        // Chunks in input order, so that runs of similar boards (one board's changes)
        // stay together and are scored in one walk each.
        let mut scores = vec![0u64; boards.len()];
        boards
            .par_chunks(SCORE_CHUNK)
            .zip(scores.par_chunks_mut(SCORE_CHUNK))
            .for_each_init(make, |solver, (boards, out)| solver.score_each(boards, out));
        // `BOARD: SCORE` lines, as `{board}: {score}` would print them, built by hand: on
        // random boards the formatting machinery and the lines read as `String`s were about
        // 2 % of the whole run.
        let mut text = Vec::with_capacity(64 * 1024);
        for (board, score) in boards.iter().zip(scores) {
            text.extend(board.letters().iter().map(|&l| b'a' + l));
            text.extend_from_slice(b": ");
            push_decimal(&mut text, score);
            text.push(b'\n');
            if text.len() >= 60 * 1024 {
                out.write_all(&text)?;
                text.clear();
            }
        }
        out.write_all(&text)?;
        out.flush()?;
        return Ok(());
    }
    let lines: Vec<String> = boards
        .par_iter()
        .with_min_len(64)
        .map_init(make, |solver, board| {
            let mut line = if args.grid {
                board.grid()
            } else {
                String::new()
            };
            line += &(if args.multi {
                let s = solver.scores(board);
                format!(
                    "{board}: {} multi={} demulti={}",
                    s.score, s.multi, s.demulti
                )
            } else {
                format!("{board}: {}", solver.score(board))
            });
            if args.words {
                for w in solver.words(board) {
                    line.push_str(&format!("\n{} {}", w.points, w.word));
                }
            }
            line
        })
        .collect();
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}

/// Appends `value` in decimal.
fn push_decimal(text: &mut Vec<u8>, mut value: u64) {
    // u64::MAX has 20 digits.
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    // Invariant: `digits[start..]` are the low digits of the number, most significant first.
    loop {
        start -= 1;
        digits[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    text.extend_from_slice(&digits[start..]);
}

#[cfg(test)]
mod tests {
    use super::push_decimal;

    #[test]
    fn push_decimal_prints_as_display_does() {
        for v in [0, 1, 9, 10, 99, 100, 3625, 10_406, u64::MAX] {
            let mut text = b"x".to_vec();
            push_decimal(&mut text, v);
            assert_eq!(text, format!("x{v}").into_bytes());
        }
    }
}
