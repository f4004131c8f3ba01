//! `bogglemax class`, `bound` and `break-class`: inspect, bound and break one board class.

use super::common::{DictArgs, Output, parse_size};
use anyhow::{Context, bail};
use bogglemax::board::{Board, Geometry, Size};
use bogglemax::bound::{
    Arena, BoardClass, BreakSettings, CellOrder, ClassBreaker, ClassSpace, MAX_TREE_CELLS,
    Partition, max_nomark, sum_union,
};
use bogglemax::cpu_clock::ThreadCpuClock;
use bogglemax::dict::Dictionary;
use bogglemax::solve::Scoring;
use clap::Args;
use std::io::Write;

/// The class syntax, for the help of every command that takes one (a macro, so that
/// `concat!` can add to it).
macro_rules! class_syntax {
    () => {
        "A class is one letter set per cell, in cell order (column-major), separated by \
         spaces, e.g. for 3x3: 'lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz'. \
         It may be given as one quoted argument or as separate arguments. The Qu die is the \
         letter q, as on boards: a set 'qu' is the two letters q (Qu) and u."
    };
}
/// `break-class`'s output, then the class syntax.
const BREAK_CLASS_HELP: &str = concat!(
    "Prints `class:`, `cell_order:` and `mirror:` first, then, once the class is broken: \
     `root_bound:` (the bound of the class's orderly tree, or the largest of its unit trees'), \
     `broken:` (yes if the bounds alone ruled out every board: no candidate had to be \
     scored), `candidates:` (boards whose bound reached S, each checked) and \
     `largest_demulti:`, a `candidate:` line each with --candidates, a `result:` line for \
     each board with Score >= S and their count `results:`, `seconds:` (CPU seconds), \
     `check_seconds:` (wall seconds spent checking candidates), `scored:` (candidates the \
     solver scored; the others were ruled out by their overcount bound), `peak_bytes:` and \
     `nodes:` of the trees, `eliminated_by_depth:` (DEPTH:COUNT, branches ruled out after \
     fixing DEPTH cells) and `merged_nodes_by_position:`.\n\n",
    class_syntax!()
);

/// `bound`'s output, then the class syntax.
const BOUND_HELP: &str = concat!(
    "Prints `sum_union=` (the 2009 bound on every board's Score: each word's points once if \
     some board of the class holds it), `max_nomark=` (the 2009 bound on every board's Multi: \
     the best letter at each step of each search path, a word counted on every path), \
     `orderly=` (the bound of the class's orderly tree, at least every board's DeMulti, so \
     its Score), and the tree's `nodes=`, `bytes=` and `seconds=` (the CPU seconds of its \
     build). Trees count points in 32 bits: an `orderly=` of 4294967295 (possible with a \
     scoring table of huge points) means that or more, and such a bound never rules a \
     class out.\n\n",
    class_syntax!()
);

/// Flags of `bogglemax class`.
#[derive(Args, Debug)]
// A board or --id, not both: one missing is named as `<BOARD|--id <N>>`.
#[command(group(clap::ArgGroup::new("which").required(true).args(["board", "id"])))]
#[command(
    after_help = "A partition is 'SETS[, edge:SETS][, corner:SETS]': lists of \
space-separated letter sets, each list covering a-z exactly once. The four corner cells use \
the 'corner:' list and the other cells of the border the 'edge:' list, where given; every \
other cell uses the first. A set may be all of a-z (one bucket: the cell is not split). \
`make proof-3x3`, `make proof-3x4` and `make proof-4x4` use 'aeijou bcdfgmpqvwxz hklnrsty, \
corner:abcdefghijklmnopqrstuvwxyz'; a new 4x4 run adds 'edge:aeijou bcdfghklmnpqrstvwxyz' \
(the consonant edges merged) when each job has MERGED_EDGES_GIB (6) GiB of memory. Class \
ids are mixed-radix numbers, cell 0 the least significant digit; the canonical id of a \
class is the smallest id among its symmetry images."
)]
pub struct ClassArgs {
    /// Board size, CxR.
    #[arg(long, default_value = "4x4", value_parser = parse_size, value_name = "CxR")]
    pub size: Size,
    /// The bucket partition, e.g. 'aeijou bcdfgmpqvwxz hklnrsty, corner:abcdefghijklmnopqrstuvwxyz'; the syntax is below.
    #[arg(long, value_name = "P")]
    pub partition: String,
    /// Print class N instead of the class of a board.
    #[arg(long, value_name = "N")]
    pub id: Option<u64>,
    /// The board whose class to print.
    pub board: Option<String>,
}

/// Runs `bogglemax class`.
pub fn run_class(args: &ClassArgs, out: &mut Output) -> anyhow::Result<()> {
    let space = ClassSpace::new(args.size, Partition::parse(&args.partition)?)?;
    let id = match (&args.board, args.id) {
        // A number is a class id, not a board: say where ids go.
        (Some(b), _) if !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit()) => {
            bail!("'{b}' is a number, not a board: give a class id as --id {b}")
        }
        (Some(b), _) => space.id_of_board(&Board::parse(args.size, b)?),
        (None, Some(id)) => id,
        (None, None) => bail!("give a board or --id"),
    };
    let class = space.class(id)?;
    let canonical = space.canonical_id(id);
    writeln!(out, "class: {class}")?;
    writeln!(out, "id: {id}")?;
    writeln!(
        out,
        "canonical: {}",
        if canonical == id { "yes" } else { "no" }
    )?;
    writeln!(out, "canonical_id: {canonical}")?;
    writeln!(out, "classes: {}", space.count())?;
    out.flush()?;
    Ok(())
}

/// Flags of `bogglemax bound`.
#[derive(Args, Debug)]
#[command(after_help = BOUND_HELP)]
pub struct BoundArgs {
    /// Board size, CxR (at most 25 cells).
    #[arg(long, default_value = "4x4", value_parser = parse_size, value_name = "CxR")]
    pub size: Size,
    #[command(flatten)]
    pub dict: DictArgs,
    /// Cell order of the trees, top first, as cell numbers (column-major), e.g. for 3x3
    /// '4,5,3,1,7,0,2,6,8'. Default: centre cells, then edges, then corners, nearer the
    /// centre first; cells alike in both, fewer letters first (by cell number instead when a
    /// centre or edge cell has 13 to 25 letters). Any order gives sound bounds; it changes
    /// the bound and the work.
    #[arg(long, value_name = "CELLS")]
    pub cell_order: Option<String>,
    /// Refuse a class of more word paths than this: its whole tree takes about 50 bytes a
    /// path (the default, about 5 GB). Large 5x5 and 6x6 classes have billions;
    /// `break-class` splits such a class instead of building its whole tree.
    #[arg(long, default_value_t = 100_000_000, value_name = "N")]
    pub max_paths: usize,
    /// The class: one letter set per cell.
    #[arg(required = true, num_args = 1.., value_name = "CLASS")]
    pub class: Vec<String>,
}

fn parse_class(size: Size, words: &[String]) -> anyhow::Result<BoardClass> {
    if size.cells() > MAX_TREE_CELLS {
        bail!(
            "{size} has {} cells; bounds and proofs support at most {MAX_TREE_CELLS}",
            size.cells()
        );
    }
    Ok(BoardClass::parse(size, &words.join(" "))?)
}

/// A class breaker with each class's own cell order, or the one written in `order` for all.
fn breaker<'d>(
    dict: &'d Dictionary,
    size: Size,
    scoring: Scoring,
    order: Option<&str>,
) -> anyhow::Result<ClassBreaker<'d>> {
    Ok(match order {
        None => ClassBreaker::new(dict.trie(), size, scoring),
        Some(text) => {
            let order = CellOrder::parse(size.cells(), text)?;
            ClassBreaker::with_order(dict.trie(), size, scoring, order)
        }
    })
}

/// Runs `bogglemax bound`.
pub fn run_bound(args: &BoundArgs, out: &mut Output) -> anyhow::Result<()> {
    let class = parse_class(args.size, &args.class)?;
    let dict = args.dict.load(args.size)?;
    let geometry = Geometry::new(args.size);
    let scoring = args.dict.scoring();
    let breaker = breaker(&dict, args.size, scoring, args.cell_order.as_deref())?;
    // The tree first: a class over the path limit prints nothing but its error.
    let start = ThreadCpuClock::start();
    let mut arena = Arena::new();
    let Ok(root) = breaker.build_tree_limited(&class, &mut arena, args.max_paths) else {
        bail!(
            "the class has more than {} word paths (--max-paths), and its whole tree would \
             take over {:.1} GB: raise --max-paths to allow more, or give a smaller class",
            args.max_paths,
            args.max_paths as f64 * 50.0 / 1e9
        );
    };
    let seconds = start.seconds();
    writeln!(
        out,
        "sum_union={}",
        sum_union(dict.trie(), &geometry, &class, scoring)
    )?;
    writeln!(
        out,
        "max_nomark={}",
        max_nomark(dict.trie(), &geometry, &class, scoring)
    )?;
    writeln!(out, "orderly={}", arena.bound(root))?;
    writeln!(out, "nodes={}", arena.created())?;
    writeln!(out, "bytes={}", arena.peak_bytes())?;
    writeln!(out, "seconds={seconds:.3}")?;
    out.flush()?;
    Ok(())
}

/// Flags of `bogglemax break-class`.
#[derive(Args, Debug)]
#[command(after_help = BREAK_CLASS_HELP)]
pub struct BreakClassArgs {
    /// Board size, CxR (at most 25 cells).
    #[arg(long, default_value = "4x4", value_parser = parse_size, value_name = "CxR")]
    pub size: Size,
    #[command(flatten)]
    pub dict: DictArgs,
    /// The score S sought: report every board of the class that might score S or more.
    #[arg(long, value_name = "S")]
    pub score: u32,
    /// Branch by merging trees while the bound is above B, then switch to OrderlyBound (also
    /// for a branch whose unmerged trees' bounds add up to at most B). Default: 9/4 × S.
    #[arg(long, value_name = "B")]
    pub switchover: Option<u32>,
    /// Cell order of the trees, top first, as cell numbers (column-major), e.g. for 3x3
    /// '4,5,3,1,7,0,2,6,8'. Default: centre cells, then edges, then corners, nearer the
    /// centre first; cells alike in both, fewer letters first (by cell number instead when a
    /// centre or edge cell has 13 to 25 letters; the `cell_order:` line prints it). Any order
    /// gives sound bounds; it changes the bound and the work.
    #[arg(long, value_name = "CELLS")]
    pub cell_order: Option<String>,
    /// Also list every candidate (board whose tree bound reaches S) with its Score, not
    /// only the results. The bound printed as `demulti=` is the board's DeMulti, except in
    /// classes of over 16.8 million word paths, broken a top letter (the heaviest, a pair of
    /// letters of the top two cells) at a time without the paths those forced letters make
    /// redundant: there it lies between Score and DeMulti, and the boards listed are those it
    /// lifts to S. A `demulti=` of 4294967295 means that or more (trees count points in 32
    /// bits; such a board is always scored). Heavy 4x4 classes have millions. Without it the
    /// breaker prunes by a bound on Score on boards of 12 cells or more, and the
    /// `candidates:` line counts only the boards that survive that.
    #[arg(long)]
    pub candidates: bool,
    /// Report both boards of every mirror pair. A class that is its own image under a flip
    /// or the half turn holds every board together with its image, which scores the same;
    /// by default the breaker, as a proof does, looks only for the board of each pair whose
    /// letter on the first cell of the `mirror:` line is not after the letter on the second
    /// (the proof's results are canonical boards, the same for both). With this flag no
    /// pair is folded, so the `mirror:` line says `none`.
    #[arg(long)]
    pub every_image: bool,
    /// The class: one letter set per cell.
    #[arg(required = true, num_args = 1.., value_name = "CLASS")]
    pub class: Vec<String>,
}

/// Runs `bogglemax break-class`.
pub fn run_break_class(args: &BreakClassArgs, out: &mut Output) -> anyhow::Result<()> {
    let class = parse_class(args.size, &args.class)?;
    let dict = args.dict.load(args.size)?;
    let mut settings = BreakSettings::with_default_switchover(args.score);
    if let Some(b) = args.switchover {
        settings.switchover = b;
    }
    let breaker = breaker(
        &dict,
        args.size,
        args.dict.scoring(),
        args.cell_order.as_deref(),
    )?
    .keep_candidates(args.candidates)
    .every_mirror_image(args.every_image);
    // The class and how it is broken first, so that a long break shows what it is doing.
    writeln!(out, "class: {class}")?;
    let order = breaker.order_for(&class);
    writeln!(out, "cell_order: {order}")?;
    match breaker.mirror_pair(&class) {
        // `early` is a cell, `late` a position in the order.
        Some(m) => writeln!(
            out,
            "mirror: cells {} {} (one board of each mirror pair; --every-image for both)",
            m.early_cell,
            order.cell(m.late_pos)
        )?,
        None => writeln!(out, "mirror: none")?,
    }
    out.flush()?;
    let outcome = breaker.break_class(&class, &settings);
    writeln!(out, "root_bound: {}", outcome.root_bound)?;
    writeln!(
        out,
        "broken: {}",
        if outcome.is_broken() { "yes" } else { "no" }
    )?;
    writeln!(out, "candidates: {}", outcome.demulti_count)?;
    writeln!(out, "largest_demulti: {}", outcome.max_demulti)?;
    for c in &outcome.candidates {
        writeln!(
            out,
            "candidate: {} demulti={} score={}",
            c.board, c.demulti, c.score
        )?;
    }
    for c in &outcome.results {
        writeln!(
            out,
            "result: {} demulti={} score={}",
            c.board, c.demulti, c.score
        )?;
    }
    writeln!(out, "results: {}", outcome.results.len())?;
    writeln!(out, "seconds: {:.3}", outcome.seconds)?;
    writeln!(out, "check_seconds: {:.3}", outcome.check_seconds)?;
    writeln!(out, "scored: {}", outcome.scored)?;
    writeln!(out, "peak_bytes: {}", outcome.peak_bytes)?;
    writeln!(out, "nodes: {}", outcome.nodes)?;
    writeln!(out, "eliminated_by_depth: {}", nonzero(&outcome.eliminated))?;
    writeln!(
        out,
        "merged_nodes_by_position: {}",
        nonzero(&outcome.merged)
    )
    .context("writing output")?;
    out.flush()?;
    Ok(())
}

/// The nonzero counts of a list by index, as `INDEX:COUNT` separated by spaces.
fn nonzero(counts: &[u64]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(i, n)| format!("{i}:{n}"))
        .collect();
    parts.join(" ")
}
