//! The `bogglemax` binary: parse the command line, run it, map errors to exit status 2.
//!
//! The command line ([`cli`]) lives here, not in the library: the library takes typed
//! settings and returns results and errors, as ripgrep keeps argument parsing out of its
//! crates; the tests drive the binary as a user does.

mod cli;

use clap::Parser;
use clap::error::ErrorKind;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version (asked for, or shown because nothing was given) print in full.
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            e.exit()
        }
        Err(e) => {
            // A usage error is one line: clap's first paragraph (which lists the missing
            // arguments on lines of their own), without its "error: " prefix.
            let text = e.to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let first = match first.join(" ") {
                line if line.is_empty() => "bad command line".to_string(),
                line => line,
            };
            let first = first.strip_prefix("error: ").unwrap_or(&first);
            eprintln!("bogglemax: {first} (see --help)");
            return ExitCode::from(2);
        }
    };
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<cli::ExitStatus>().is_some() => {
            let status = e.downcast_ref::<cli::ExitStatus>().map_or(1, |s| s.0);
            ExitCode::from(status)
        }
        Err(e) => {
            eprintln!("bogglemax: {e:#}");
            ExitCode::from(2)
        }
    }
}
