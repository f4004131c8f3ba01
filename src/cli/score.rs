//! `bogglemax score`: score boards given as arguments or on standard input.

use super::common::{DictArgs, Output, board_inputs, parse_size};
use anyhow::Context;
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
    /// Boards, as letters in column-major order. With none, one board per line is read from
    /// standard input and scored on all cores, printed in input order. Consecutive boards
    /// that differ from the first of them in one and the same cell (a board's one-letter
    /// changes, a cell at a time) are scored together in one walk, about twice as fast.
    pub boards: Vec<String>,
}

/// Flags of `bogglemax show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Board size, CxR (C columns, R rows; each 1 to 6).
    #[arg(long, default_value = "4x4", value_parser = parse_size, value_name = "CxR")]
    pub size: Size,
    /// Boards, as letters in column-major order. With none, one board per line is read from
    /// standard input.
    pub boards: Vec<String>,
}

/// Runs `bogglemax show`: each board's grid, a blank line between boards.
pub fn show(args: &ShowArgs, out: &mut Output) -> anyhow::Result<()> {
    let boards = board_inputs(&args.boards)?
        .into_iter()
        .map(|(origin, text)| Board::parse(args.size, &text).with_context(|| origin))
        .collect::<anyhow::Result<Vec<Board>>>()?;
    for (i, board) in boards.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        write!(out, "{}", board.grid())?;
    }
    out.flush()?;
    Ok(())
}

/// Runs `bogglemax score`.
pub fn run(args: &ScoreArgs, out: &mut Output) -> anyhow::Result<()> {
    let dict = args.dict.load()?;
    let boards = board_inputs(&args.boards)?
        .into_iter()
        .map(|(origin, text)| Board::parse(args.size, &text).with_context(|| origin))
        .collect::<anyhow::Result<Vec<Board>>>()?;
    let geometry = Geometry::new(args.size);
    let trie = dict.trie();
    let first = Solver::new(trie, &geometry, args.dict.scoring);
    let make = || first.fresh();
    if !(args.grid || args.multi || args.words) {
        // The common case, scores only: no line is built in memory.
        // Chunks in input order, so that runs of similar boards (one board's changes)
        // stay together and are scored in one walk each.
        let mut scores = vec![0u64; boards.len()];
        boards
            .par_chunks(SCORE_CHUNK)
            .zip(scores.par_chunks_mut(SCORE_CHUNK))
            .for_each_init(make, |solver, (boards, out)| solver.score_each(boards, out));
        for (board, score) in boards.iter().zip(scores) {
            writeln!(out, "{board}: {score}")?;
        }
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
