//! Flags shared by many subcommands, and the output sink commands write to.

use anyhow::Context;
use bogglemax::board::{Board, Size};
use bogglemax::dict::Dictionary;
use bogglemax::solve::Scoring;
use clap::Args;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

/// `--wordlist` and `--scoring`.
#[derive(Args, Debug, Clone)]
pub struct DictArgs {
    /// Word list: a text file (one word per line; lines other than 3+ letters a-z with every
    /// q followed by u are skipped, `dict info` counts them) or a compiled dictionary from
    /// `bogglemax dict build`. Default: ENABLE2K, built in.
    #[arg(long, value_name = "PATH")]
    pub wordlist: Option<PathBuf>,
    /// Points per word: standard (3,4→1 5→2 6→3 7→5 8+→11), words (all 1), pow2 (3→1 4→2
    /// 5→4 …), fibonacci (3,4→1 5→2 6→3 7→5 8→8 9→13 …, no cap), boojum (Boojum's letter
    /// values, a e i o u l n r s t 1, d g 2, b c m p 3, f h v w y 4, k 5, j x 8, q z 10, Qu
    /// 11, summed and multiplied by 1 for 3-4 letters, 2 for 5, 3 for 6, 4 for 7, 5 for 8, 6
    /// for 9+; Boojum's bonus tiles are not modelled), or FILE, a table of your own: lines
    /// 'LENGTH POINTS' from 3 up, the last 'LENGTH+ POINTS' (e.g. '3 1', '4 1', '5 2', '6+ 3'),
    /// and optionally 'letter L VALUE' for all 26 letters (a word then scores the sum of its
    /// letters' values times its length's points; Qu is q's value plus u's); '#' starts a
    /// comment. A word's length counts Qu as 2. A run records a table by its contents, in
    /// the one-line form `table:3=1,4=1,5=2,6+=3[;letters=V,...]` that --scoring also
    /// takes. A name wins over a file of that name: write `./words` for the file. Default:
    /// standard (or, where a run or a costs file is read, the scoring it records).
    #[arg(long, value_name = "NAME|FILE")]
    pub scoring: Option<Scoring>,
}

impl DictArgs {
    /// The scoring given, or the standard one.
    pub fn scoring(&self) -> Scoring {
        self.scoring.unwrap_or(Scoring::Standard)
    }

    /// Loads the dictionary these flags name for boards of `size`, refusing a scoring that
    /// would give one of its words more points than a word's 32 bits hold, and noting on
    /// standard error when no word of the list fits such a board (every score is then 0).
    pub fn load(&self, size: Size) -> anyhow::Result<Dictionary> {
        self.load_scored(size, self.scoring())
    }

    /// As [`DictArgs::load`], for `scoring` (one a run or a costs file records, where
    /// --scoring is not given) in place of the flag's.
    pub fn load_scored(&self, size: Size, scoring: Scoring) -> anyhow::Result<Dictionary> {
        let dict = Dictionary::load(self.wordlist.as_deref())?;
        if let Some(fewest) = dict.trie().fewest_dice()
            && fewest > size.cells()
        {
            eprintln!(
                "bogglemax: note: no word of {} fits a {size} board (the shortest takes {fewest} \
                 dice): every board scores 0",
                dict.info().source
            );
        }
        if let Some(word) = scoring.word_beyond_u32(dict.trie()) {
            let remedy = match scoring {
                Scoring::Table(_) => "use smaller values",
                _ => "leave the word out of the list or choose another scoring",
            };
            anyhow::bail!(
                "--scoring: the word '{word}' would score more than {} points, and a \
                 word's points are kept in 32 bits (a board's score in 64): {remedy}",
                u32::MAX
            );
        }
        Ok(dict)
    }
}

/// Parses `--size` values.
pub fn parse_size(s: &str) -> Result<Size, String> {
    s.parse::<Size>().map_err(|e| e.to_string())
}

/// The most threads a command starts: more is a typo, not a machine (`--threads 100000`
/// would start that many).
pub const MAX_THREADS: usize = 1024;

/// Parses `--threads` values (0, where a command takes it, means all cores).
pub fn parse_threads(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|e| format!("{e}"))?;
    if n > MAX_THREADS {
        return Err(format!("at most {MAX_THREADS}"));
    }
    Ok(n)
}

/// A pool of `threads` worker threads (0: one per core) for a command's parallel work.
pub fn worker_pool(threads: usize) -> anyhow::Result<rayon::ThreadPool> {
    use anyhow::Context;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting worker threads")
}

/// Where a board given to a command came from, for its error message.
#[derive(Clone, Copy, Debug)]
pub enum BoardOrigin {
    /// The n-th board argument, from 1.
    Argument(usize),
    /// Line n of standard input, from 1.
    StdinLine(usize),
}

impl std::fmt::Display for BoardOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardOrigin::Argument(n) => write!(f, "argument {n}"),
            BoardOrigin::StdinLine(n) => write!(f, "stdin line {n}"),
        }
    }
}

/// The most boards a batch of standard input holds ([`for_each_board_batch`]).
const MAX_BATCH: usize = 64 * 1024;

/// Bytes of standard input read at a time.
const STDIN_BUFFER: usize = 64 * 1024;

/// Hands the boards of the arguments or, when there are none, of standard input (one per
/// line, blank lines skipped) to `each`, in order; an error names the argument or line.
/// Arguments are all parsed first, so a bad one leaves no output. Standard input is read as
/// it arrives: a batch is handed on once the whole lines that have arrived are used up (or it
/// holds [`MAX_BATCH`] boards), so that results follow the input of a program that writes
/// boards one at a time, and memory does not grow with the input; a bad line stops the
/// reading there, after the boards before it have been handed on.
pub fn for_each_board_batch(
    args: &[String],
    size: Size,
    mut each: impl FnMut(&[Board]) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if !args.is_empty() {
        let boards = args
            .iter()
            .enumerate()
            .map(|(i, a)| Board::parse(size, a).with_context(|| BoardOrigin::Argument(i + 1)))
            .collect::<anyhow::Result<Vec<Board>>>()?;
        return each(&boards);
    }
    let mut input = BufReader::with_capacity(STDIN_BUFFER, std::io::stdin().lock());
    let mut line = String::new();
    let mut batch: Vec<Board> = Vec::new();
    let mut number = 0;
    // Invariant: `batch` holds the boards of the lines read since the last batch handed on.
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                each(&batch)?;
                let at = format!("reading standard input, line {}", number + 1);
                return Err(anyhow::Error::new(e).context(at));
            }
        }
        number += 1;
        let mut text = line.strip_suffix('\n').unwrap_or(&line);
        text = text.strip_suffix('\r').unwrap_or(text);
        if number == 1 {
            text = text.trim_start_matches('\u{feff}');
        }
        if !text.trim().is_empty() {
            match Board::parse(size, text) {
                Ok(board) => batch.push(board),
                Err(e) => {
                    each(&batch)?;
                    return Err(anyhow::Error::new(e).context(BoardOrigin::StdinLine(number)));
                }
            }
        }
        // No whole line buffered: the next line may wait for the writer, so answer what
        // came (the search stops at the next line's end, a line's length away).
        if !batch.is_empty() && (batch.len() >= MAX_BATCH || !input.buffer().contains(&b'\n')) {
            each(&batch)?;
            batch.clear();
        }
    }
    if batch.is_empty() {
        Ok(())
    } else {
        each(&batch)
    }
}

/// Where a command's results go: standard output, buffered.
pub struct Output(std::io::BufWriter<std::io::Stdout>);

impl Output {
    /// Standard output, buffered.
    pub fn stdout() -> Output {
        Output(std::io::BufWriter::new(std::io::stdout()))
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(on_stdout)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(on_stdout)
    }
}

/// `err` saying that it was standard output that failed (a full disk under `> FILE` says
/// only "No space left on device"), of the same kind, so that a closed pipe is still told
/// from a failure.
fn on_stdout(err: std::io::Error) -> std::io::Error {
    std::io::Error::new(err.kind(), format!("writing standard output: {err}"))
}

/// `n` and its noun, singular for one: `1 shard`, `16 shards`.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--threads T` gives a pool of T threads (the tests of `score` and `rollable` show
    /// that their output does not depend on T); 0 is one per core, as rayon counts them.
    #[test]
    fn a_worker_pool_has_the_threads_asked_for() {
        for threads in [1, 3] {
            let pool = worker_pool(threads).unwrap();
            assert_eq!(pool.current_num_threads(), threads);
            assert_eq!(pool.install(rayon::current_num_threads), threads);
        }
        // One per core, unless the environment tells rayon otherwise.
        let all = std::env::var("RAYON_NUM_THREADS")
            .ok()
            .and_then(|n| n.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        assert_eq!(worker_pool(0).unwrap().current_num_threads(), all);
    }
}
