//! Flags shared by many subcommands, and the output sink commands write to.

use crate::board::Size;
use crate::dict::Dictionary;
use crate::solve::Scoring;
use anyhow::Context;
use clap::Args;
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// `--wordlist` and `--scoring`.
#[derive(Args, Debug, Clone)]
pub struct DictArgs {
    /// Word list: a text file (one word per line) or a compiled dictionary from
    /// `bogglemax dict build`. Default: ENABLE2K, built in.
    #[arg(long, value_name = "PATH")]
    pub wordlist: Option<PathBuf>,
    /// Points per word length: standard (3,4→1 5→2 6→3 7→5 8+→11), words (all 1), pow2
    /// (3→1 4→2 5→4 …).
    #[arg(long, default_value = "standard", value_name = "NAME")]
    pub scoring: Scoring,
}

impl DictArgs {
    /// Loads the dictionary these flags name.
    pub fn load(&self) -> anyhow::Result<Dictionary> {
        Ok(Dictionary::load(self.wordlist.as_deref())?)
    }
}

/// Parses `--size` values.
pub fn parse_size(s: &str) -> Result<Size, String> {
    s.parse::<Size>().map_err(|e| e.to_string())
}

/// Reads boards from the arguments or, when there are none, from standard input (one per
/// line, blank lines skipped), each paired with where it came from for error messages.
pub fn board_inputs(args: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    if !args.is_empty() {
        return Ok(args
            .iter()
            .enumerate()
            .map(|(i, a)| (format!("argument {}", i + 1), a.clone()))
            .collect());
    }
    let mut out = Vec::new();
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.context("reading standard input")?;
        let t = line.trim();
        if !t.is_empty() {
            out.push((format!("stdin line {}", i + 1), t.to_string()));
        }
    }
    Ok(out)
}

/// Where a command's results go: standard output, or a buffer in tests.
pub enum Output {
    /// Buffered standard output.
    Stdout(std::io::BufWriter<std::io::Stdout>),
    /// Collected text (for tests).
    Buffer(Vec<u8>),
}

impl Output {
    /// Standard output, buffered.
    pub fn stdout() -> Output {
        Output::Stdout(std::io::BufWriter::new(std::io::stdout()))
    }

    /// An in-memory sink.
    pub fn buffer() -> Output {
        Output::Buffer(Vec::new())
    }

    /// The text written to an in-memory sink.
    pub fn text(&self) -> String {
        match self {
            Output::Buffer(b) => String::from_utf8_lossy(b).into_owned(),
            Output::Stdout(_) => String::new(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::Buffer(b) => b.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::Buffer(_) => Ok(()),
        }
    }
}
