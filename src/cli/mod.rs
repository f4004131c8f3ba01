//! The command line: clap definitions ("what the user typed") and one `run` per subcommand
//! that validates them into typed settings and calls the library.

mod class;
mod common;
mod dice;
mod dict;
mod estimate;
mod pipeline;
mod score;
mod search;
mod stop_note;

pub use common::Output;
pub use pipeline::ExitStatus;

use clap::{Parser, Subcommand};

/// Finds the highest-scoring Boggle boards and proves them optimal.
#[derive(Parser, Debug)]
#[command(
    name = "bogglemax",
    version,
    about = "Find the highest-scoring Boggle boards and prove them optimal",
    long_about = "Find the highest-scoring Boggle boards and prove them optimal.\n\n\
Boards are written as their letters in column-major cell order (cell i is column i/R, \
row i%R for a CxR board); the letter q stands for the die face Qu. The default word \
list is ENABLE2K, built into the binary; --wordlist takes a text list or a file from \
`bogglemax dict build`.",
    after_help = "Exit status: 0 on success; 1 when `merge` finds the proof incomplete or `rescore` \
finds a problem; 2 on any error (bad input, unreadable or corrupt file)."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Score boards: `BOARD: SCORE` per board, optionally Multi/DeMulti and the words.
    Score(score::ScoreArgs),
    /// Draw boards as grids: rows as rows, the Qu die as `Qu`.
    Show(score::ShowArgs),
    /// Compile a word list into a memory-mappable dictionary, or describe one.
    #[command(subcommand)]
    Dict(dict::DictCommand),
    /// Print the class of a board under a partition, or class N, and its canonical id.
    Class(class::ClassArgs),
    /// Print the 2009 bounds and the orderly-tree bound of one class.
    Bound(class::BoundArgs),
    /// Break one class: every board that might reach a score, with its DeMulti and Score.
    BreakClass(class::BreakClassArgs),
    /// Predict a proof's cost (CPU hours with a 90 % interval, memory, disk, Slurm time)
    /// from a sample of its classes.
    Estimate(estimate::EstimateArgs),
    /// Plan a proof: enumerate the canonical classes into shards of a new run directory.
    Plan(pipeline::PlanArgs),
    /// Break the classes of a shard (or --all), resumably, checking each candidate as it is
    /// found and journaling each finished class with its results.
    Break(pipeline::BreakArgs),
    /// Audit a run: score every journaled result again (and kept candidates), and with
    /// --audit N break N random classes again and compare.
    Rescore(pipeline::RescoreArgs),
    /// Write RUN/results.csv and the summary from the journals; says whether the proof is
    /// complete.
    Merge(pipeline::RunArgs),
    /// Show a run's progress: shards done, CPU time, ETA, slowest classes.
    Status(pipeline::StatusArgs),
    /// Write one self-contained HTML page showing a run (finished or in progress): its
    /// state, progress and time left, class costs, and best boards drawn as grids.
    Report(pipeline::ReportArgs),
    /// Print each board's canonical form (smallest string among its symmetry images).
    Canon(search::CanonArgs),
    /// Search for high-scoring boards by pool hill climbing (the paper's Listing 1).
    Hillclimb(search::HillclimbArgs),
    /// Search for high-scoring boards by simulated annealing with adaptive perturbations.
    Anneal(search::AnnealArgs),
    /// Search for high-scoring boards by iterated local search: climb, kick, climb again.
    Iterate(search::IterateArgs),
    /// Roll a random board with Boggle dice (the 4x4 sets, or dice of your own).
    Roll(dice::RollArgs),
    /// Decide exactly whether boards can be rolled with Boggle dice, or estimate how often.
    Rollable(dice::RollableArgs),
}

/// Runs one parsed command line, writing results to standard output.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    let mut out = Output::stdout();
    let result = run_command(cli.command, &mut out);
    // What is still buffered: a write that fails here (a full disk) is an error, where the
    // buffer's drop would lose it silently and exit 0, or with a verdict's status (merge's
    // "incomplete" is 1), which the failed output outranks.
    let flushed = std::io::Write::flush(&mut out);
    // A closed pipe (piped into `head`) is no failure: the verdict stands.
    match (result, flushed) {
        (Err(e), _) if e.downcast_ref::<ExitStatus>().is_none() => Err(e),
        (_, Err(e)) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        (result, _) => result,
    }
}

/// Runs one subcommand, writing its results to `out`.
fn run_command(command: Command, out: &mut Output) -> anyhow::Result<()> {
    match command {
        Command::Score(args) => score::run(&args, out),
        Command::Show(args) => score::show(&args, out),
        Command::Dict(cmd) => dict::run(&cmd, out),
        Command::Class(args) => class::run_class(&args, out),
        Command::Bound(args) => class::run_bound(&args, out),
        Command::BreakClass(args) => class::run_break_class(&args, out),
        Command::Estimate(args) => estimate::run(&args, out),
        Command::Plan(args) => pipeline::run_plan(&args, out),
        Command::Break(args) => pipeline::run_break(&args, out),
        Command::Rescore(args) => pipeline::run_rescore(&args, out),
        Command::Merge(args) => pipeline::run_merge(&args, out),
        Command::Status(args) => pipeline::run_status(&args, out),
        Command::Report(args) => pipeline::run_report(&args, out),
        Command::Canon(args) => search::run_canon(&args, out),
        Command::Hillclimb(args) => search::run_hillclimb(&args, out),
        Command::Anneal(args) => search::run_anneal(&args, out),
        Command::Iterate(args) => search::run_iterate(&args, out),
        Command::Roll(args) => dice::run_roll(&args, out),
        Command::Rollable(args) => dice::run_rollable(&args, out),
    }
}

/// Whether an error is only a closed standard output (e.g. piped into `head`), which is not
/// a failure of the command.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
