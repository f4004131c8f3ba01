//! `bogglemax dict build|info`: compile a word list, describe a compiled dictionary.

use super::common::{Output, counted};
use anyhow::Context;
use bogglemax::dict::Dictionary;
use bogglemax::format::write_atomic;
use clap::Subcommand;
use std::io::Write;
use std::path::PathBuf;

/// The `dict` subcommands.
#[derive(Subcommand, Debug)]
pub enum DictCommand {
    /// Filter a word list and compile it into a memory-mappable file (rkyv, checksummed)
    /// that every --wordlist flag accepts.
    Build {
        /// The word list (one word per line). Default: the built-in ENABLE2K.
        wordlist: Option<PathBuf>,
        /// Where to write the compiled dictionary (refused if it exists, unless --force).
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Print what a compiled dictionary (or word list) holds: source, SHA-256, word count.
    Info {
        /// A compiled dictionary or a text word list.
        file: PathBuf,
    },
}

/// Runs a `dict` subcommand.
pub fn run(cmd: &DictCommand, out: &mut Output) -> anyhow::Result<()> {
    match cmd {
        DictCommand::Build {
            wordlist,
            output,
            force,
        } => {
            if output.is_dir() {
                anyhow::bail!(
                    "{}: is a directory; give a file name with -o (nothing was written)",
                    output.display()
                );
            }
            // --force replaces a file, not a device, pipe or link (checked before the work,
            // and before --force is asked for: it would not help).
            if let Err(e) = bogglemax::format::check_writable_path(output) {
                anyhow::bail!("{}: {e} (give another -o)", output.display());
            }
            if output.exists() && !force {
                anyhow::bail!(
                    "{}: already exists; nothing was written (--force replaces it)",
                    output.display()
                );
            }
            if let Some(source) = wordlist
                && bogglemax::format::same_file(source, output)
            {
                anyhow::bail!(
                    "{}: is the word list being compiled; nothing was written (give another -o)",
                    output.display()
                );
            }
            let dict = Dictionary::load(wordlist.as_deref())?;
            write_atomic(output, &dict.to_compiled())
                .with_context(|| format!("{}: cannot write", output.display()))?;
            print_info(&dict, out)?;
        }
        DictCommand::Info { file } => {
            let dict = Dictionary::load(Some(file))?;
            print_info(&dict, out)?;
        }
    }
    out.flush()?;
    Ok(())
}

fn print_info(dict: &Dictionary, out: &mut Output) -> anyhow::Result<()> {
    let info = dict.info();
    writeln!(out, "source: {}", info.source)?;
    writeln!(out, "sha256: {}", info.sha256)?;
    writeln!(out, "words: {}", info.words)?;
    writeln!(out, "nodes: {}", info.nodes)?;
    let lines = |n: usize| counted(n as u64, "line", "lines");
    if let Some(skipped) = info.skipped_lines {
        writeln!(
            out,
            "skipped: {} (not blank, and not a word of 3+ letters a-z with every q followed by u)",
            lines(skipped)
        )?;
    }
    if let Some(repeated) = info.repeated_lines.filter(|&n| n > 0) {
        writeln!(
            out,
            "repeated: {} (a word another line spells, in any case; kept once)",
            lines(repeated)
        )?;
    }
    Ok(())
}
