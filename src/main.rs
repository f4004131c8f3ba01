//! The `bogglemax` binary: parse the command line, run it, map errors to exit status 2 (and
//! a verdict of `merge` or `rescore` that fails to 1).
//!
//! The command line ([`cli`]) lives here, not in the library: the library takes typed
//! settings and returns results and errors, as ripgrep keeps argument parsing out of its
//! crates; the tests drive the binary as a user does.

mod cli;

use clap::error::ErrorKind;
use clap::{Command, CommandFactory, FromArgMatches};
use std::process::ExitCode;

fn main() -> ExitCode {
    let parsed = negative_numbers_as_values(cli::Cli::command())
        .try_get_matches()
        .and_then(|m| cli::Cli::from_arg_matches(&m));
    let cli = match parsed {
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

/// `cmd` with every option that takes a value taking a negative number as its value, in
/// every subcommand: `--score -5` is then refused as an invalid value of `--score`, where
/// clap would otherwise call `-5` an unexpected argument, naming no option.
fn negative_numbers_as_values(cmd: Command) -> Command {
    cmd.mut_args(|a| {
        if !a.is_positional() && a.get_action().takes_values() {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    })
    .mut_subcommands(negative_numbers_as_values)
}
