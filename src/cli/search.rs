//! `bogglemax canon`, `hillclimb`, `anneal` and `iterate`: canonical forms and the local
//! searches.

use super::common::{DictArgs, Output, for_each_board_batch, parse_size};
use bogglemax::board::{Size, Symmetries};
use bogglemax::progress::Progress;
use bogglemax::search::anneal::{AnnealReport, AnnealSettings, Annealer};
use bogglemax::search::hillclimb::{HillClimber, HillclimbSettings, RoundReport};
use bogglemax::search::iterated::{IteratedReport, IteratedSearch, IteratedSettings};
use bogglemax::search::{Letters, RunOutcome, SearchError, SearchSpace, summarize};
use clap::Args;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

/// Flags of `bogglemax canon`.
#[derive(Args, Debug)]
pub struct CanonArgs {
    /// Board size, CxR (C columns, R rows; each 1 to 6).
    #[arg(long, default_value = "4x4", value_parser = parse_size, value_name = "CxR")]
    pub size: Size,
    /// Boards, as letters in column-major order. With none, one board per line is read from
    /// standard input.
    pub boards: Vec<String>,
}

/// Runs `bogglemax canon`: each board's canonical form, one per line.
pub fn run_canon(args: &CanonArgs, out: &mut Output) -> anyhow::Result<()> {
    let sym = Symmetries::new(args.size);
    for_each_board_batch(&args.boards, args.size, |boards| {
        for board in boards {
            writeln!(out, "{}", sym.canonical(board))?;
        }
        Ok(out.flush()?)
    })
}

/// Flags shared by `hillclimb`, `anneal` and `iterate`.
#[derive(Args, Debug)]
pub struct CommonSearchArgs {
    /// Board size, CxR.
    #[arg(long, default_value = "4x4", value_parser = parse_size, value_name = "CxR")]
    pub size: Size,
    #[command(flatten)]
    pub dict: DictArgs,
    /// Independent runs; run R draws its randomness from (seed, R).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub runs: usize,
    /// Seed: the same seed gives the same output, whatever the thread count.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Worker threads (0: one per core). The output does not depend on it.
    #[arg(long, value_name = "T", default_value_t = 0, value_parser = super::common::parse_threads)]
    pub threads: usize,
    /// Letters never placed on the board, e.g. 'qxz'.
    #[arg(long, default_value = "", value_name = "LETTERS")]
    pub exclude_letters: String,
    /// How many distinct boards the final summary lists.
    #[arg(long, default_value_t = 10, value_name = "K")]
    pub top: usize,
    /// No progress on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

impl CommonSearchArgs {
    /// Validates the shared flags into a search space and a thread pool.
    fn settings(&self) -> anyhow::Result<(SearchSpace, rayon::ThreadPool)> {
        if self.runs == 0 {
            return Err(SearchError::NoRuns.into());
        }
        if self.top == 0 {
            anyhow::bail!("--top must be at least 1");
        }
        let letters = Letters::excluding(&self.exclude_letters)?;
        let space = SearchSpace {
            size: self.size,
            scoring: self.dict.scoring(),
            letters,
            seed: self.seed,
        };
        let pool = super::common::worker_pool(self.threads)?;
        Ok((space, pool))
    }
}

/// Flags of `bogglemax hillclimb`.
#[derive(Args, Debug)]
#[command(
    after_help = "Output: one line per run as it ends, `run R: SCORE BOARD rounds=N \
seconds=X.X`, then the top K distinct boards over all runs, `SCORE BOARD FOUND/RUNS`, where \
FOUND counts the runs whose final pool holds the board. Boards are canonical."
)]
pub struct HillclimbArgs {
    #[command(flatten)]
    pub common: CommonSearchArgs,
    /// Pool size P: boards kept from one round to the next.
    #[arg(long, default_value_t = 500, value_name = "P")]
    pub pool: usize,
    /// Stop a run after this many rounds even if it still improves.
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<u64>,
    /// End a run early after this many rounds in a row without a better best board. By
    /// default a run goes on until its pool converges (a round leaves it unchanged).
    #[arg(long, value_name = "N")]
    pub patience: Option<u64>,
}

/// Flags of `bogglemax anneal`.
#[derive(Args, Debug)]
#[command(
    after_help = "Output as for hillclimb: one line per run (rounds = boards scored), \
then the top K distinct boards, `SCORE BOARD FOUND/RUNS`, where FOUND counts the runs whose \
K best visited boards include it. Runs go in parallel, one per thread; lines come out in run \
order."
)]
pub struct AnnealArgs {
    #[command(flatten)]
    pub common: CommonSearchArgs,
    /// Proposals per run, over the cooling schedule. After them the run's best board is
    /// polished: moved to its best single-edit neighbour while that scores more, so every
    /// result is a local optimum (`rounds` counts the polish's boards too).
    #[arg(long, default_value_t = 200_000, value_name = "N")]
    pub steps: u64,
    /// Starting temperature, in points (a loss of T points is accepted with probability 1/e).
    #[arg(long, default_value_t = 40.0, value_name = "T")]
    pub t_start: f64,
    /// Final temperature; the schedule is geometric from --t-start to --t-end.
    #[arg(long, default_value_t = 0.5, value_name = "T")]
    pub t_end: f64,
}

/// Flags of `bogglemax iterate`.
#[derive(Args, Debug)]
#[command(
    after_help = "Output as for hillclimb: one line per run (rounds = kicks), then the top K \
distinct boards, `SCORE BOARD FOUND/RUNS`, where FOUND counts the runs whose K best local \
optima include it. Runs go in parallel, one per thread; lines come out in run order."
)]
pub struct IterateArgs {
    #[command(flatten)]
    pub common: CommonSearchArgs,
    /// Kicks per run: each makes a few random edits to the current board and climbs again
    /// (or, when an episode ends, climbs from a new random board).
    /// The defaults are tuned on 5x5 ENABLE2K, where 1,500 kicks take under 3 minutes on one
    /// core.
    #[arg(long, default_value_t = 1500, value_name = "N")]
    pub kicks: u64,
    /// Random single edits (a letter changed, two cells swapped) per kick.
    #[arg(long, default_value_t = 3, value_name = "K")]
    pub strength: usize,
    /// Start afresh from a random board after this many kicks in a row that do not raise the
    /// best score since the last start.
    #[arg(long, default_value_t = 150, value_name = "N")]
    pub patience: u64,
    /// Accept a worse local optimum with probability exp(-loss / T) (0: never).
    #[arg(long, default_value_t = 0.0, value_name = "T")]
    pub temperature: f64,
}

fn print_summary(outcomes: &[RunOutcome], top: usize, out: &mut Output) -> anyhow::Result<()> {
    for f in summarize(outcomes, top) {
        writeln!(
            out,
            "{} {} {}/{}",
            f.scored.score,
            f.scored.board,
            f.runs_found,
            outcomes.len()
        )?;
    }
    out.flush()?;
    Ok(())
}

/// Runs `bogglemax hillclimb`.
pub fn run_hillclimb(args: &HillclimbArgs, out: &mut Output) -> anyhow::Result<()> {
    let c = &args.common;
    let (space, pool) = c.settings()?;
    let settings = HillclimbSettings {
        pool: args.pool,
        keep: c.top,
        max_rounds: args.max_rounds,
        patience: args.patience,
    };
    settings.validate()?;
    let dict = c.dict.load(space.size)?;
    let climber = HillClimber::new(dict.trie(), space, settings)?;
    let mut progress = Progress::counting("hillclimb", c.runs as u64, "runs", c.quiet);
    let start = Instant::now();
    // Grown as runs finish: --runs may be far more than memory holds up front.
    let mut outcomes = Vec::new();
    for run in 0..c.runs {
        let mut report = |r: &RoundReport| {
            progress.note(
                &format!(
                    "hillclimb run {} round {}: best {}, {} candidates ({} new), {:.1} s",
                    r.run,
                    r.round,
                    r.best,
                    r.candidates,
                    r.scored,
                    start.elapsed().as_secs_f64()
                ),
                true,
            );
        };
        let outcome = pool.install(|| climber.run(run, &mut report));
        progress.inc();
        progress.println(&outcome.line(), out)?;
        outcomes.push(outcome);
    }
    progress.finish();
    print_summary(&outcomes, c.top, out)
}

/// Runs `bogglemax anneal`: runs in parallel, their lines printed in run order.
pub fn run_anneal(args: &AnnealArgs, out: &mut Output) -> anyhow::Result<()> {
    let c = &args.common;
    let (space, pool) = c.settings()?;
    let settings = AnnealSettings {
        steps: args.steps,
        t_start: args.t_start,
        t_end: args.t_end,
        keep: c.top,
    };
    settings.validate()?;
    let dict = c.dict.load(space.size)?;
    let annealer = Annealer::new(dict.trie(), space, settings)?;
    let mut progress = Progress::counting("anneal", c.runs as u64 * args.steps, "steps", c.quiet);
    let start = Instant::now();
    let report = |r: &AnnealReport| {
        progress.inc_by(r.since);
        progress.note(
            &format!(
                "anneal run {} step {}/{}: best {}, T {:.2}, {:.1} s",
                r.run,
                r.step,
                r.steps,
                r.best,
                r.temperature,
                start.elapsed().as_secs_f64()
            ),
            false,
        );
    };
    let outcomes = in_parallel(&pool, c.runs, &progress, out, |run| {
        annealer.run(run, &report)
    })?;
    progress.finish();
    print_summary(&outcomes, c.top, out)
}

/// Runs `bogglemax iterate`: runs in parallel, their lines printed in run order.
pub fn run_iterate(args: &IterateArgs, out: &mut Output) -> anyhow::Result<()> {
    let c = &args.common;
    let (space, pool) = c.settings()?;
    let settings = IteratedSettings {
        kicks: args.kicks,
        strength: args.strength,
        patience: args.patience,
        temperature: args.temperature,
        keep: c.top,
    };
    settings.validate()?;
    let dict = c.dict.load(space.size)?;
    let search = IteratedSearch::new(dict.trie(), space, settings)?;
    let mut progress = Progress::counting("iterate", c.runs as u64 * args.kicks, "kicks", c.quiet);
    let start = Instant::now();
    let report = |r: &IteratedReport| {
        progress.inc_by(r.since);
        progress.note(
            &format!(
                "iterate run {} kick {}/{}: best {}, {:.1} s",
                r.run,
                r.kick,
                r.kicks,
                r.best,
                start.elapsed().as_secs_f64()
            ),
            false,
        );
    };
    let outcomes = in_parallel(&pool, c.runs, &progress, out, |run| {
        search.run(run, &report)
    })?;
    progress.finish();
    print_summary(&outcomes, c.top, out)
}

/// Runs `runs` independent runs on `pool`, printing each run's line as soon as every earlier
/// run's line is out; returns the outcomes in run order.
fn in_parallel(
    pool: &rayon::ThreadPool,
    runs: usize,
    progress: &Progress,
    out: &mut Output,
    run_one: impl Fn(usize) -> RunOutcome + Sync,
) -> anyhow::Result<Vec<RunOutcome>> {
    // Finished runs wait here until every earlier run has been printed.
    struct Printer<'o> {
        out: &'o mut Output,
        next: usize,
        waiting: BTreeMap<usize, RunOutcome>,
        done: Vec<RunOutcome>,
        error: Option<std::io::Error>,
    }
    let printer = Mutex::new(Printer {
        out,
        next: 0,
        waiting: BTreeMap::new(),
        done: Vec::new(),
        error: None,
    });
    pool.install(|| {
        (0..runs).into_par_iter().for_each(|run| {
            let outcome = run_one(run);
            let mut p = printer.lock().unwrap_or_else(|e| e.into_inner());
            p.waiting.insert(run, outcome);
            loop {
                let next = p.next;
                let Some(o) = p.waiting.remove(&next) else {
                    break;
                };
                if p.error.is_none()
                    && let Err(e) = progress.println(&o.line(), p.out)
                {
                    p.error = Some(e);
                }
                p.done.push(o);
                p.next += 1;
            }
        })
    });
    let p = printer.into_inner().unwrap_or_else(|e| e.into_inner());
    match p.error {
        Some(e) => Err(e.into()),
        None => Ok(p.done),
    }
}
