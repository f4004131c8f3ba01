//! The `bogglemax` binary: parse the command line, run it, map errors to exit status 2.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = bogglemax::cli::Cli::parse();
    match bogglemax::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if bogglemax::cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bogglemax: {e:#}");
            ExitCode::from(2)
        }
    }
}
