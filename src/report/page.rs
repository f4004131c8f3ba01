//! The report page's markup: maud templates for each section, inline SVG for the charts.

use super::figures::{
    BINS_PER_DECADE, CostHistogram, RATE_MIN_CLASSES, RATE_PREFERRED_SHARE, RemainingSource, bytes,
    compact, count, duration, power_label, quantiles, remaining, utc,
};
use super::known::compare;
use super::{BOARDS_DRAWN, BOARDS_LISTED, ReportData};
use crate::board::{Board, letter_char};
use crate::pipeline::{RunSnapshot, ShardSnapshot, ShardState};
use maud::{DOCTYPE, Markup, PreEscaped, html};

/// Shards drawn as one labelled bar each; more are drawn as a strip of small squares.
const SHARD_BARS: usize = 64;
/// Squares in the strip at most; beyond, each square stands for several shards.
const STRIP_CELLS: usize = 2048;

/// The whole page.
pub fn render(d: &ReportData) -> String {
    let s = &d.snapshot;
    let m = &s.manifest;
    let title = format!(
        "{} {} proof at S = {} · {}",
        m.size,
        list_name(&m.wordlist),
        m.threshold,
        d.run_name
    );
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                // What `report` looks for before it replaces a file: keep it in the first lines.
                meta name="generator" content="bogglemax proof report";
                // Nothing may be fetched: the page is read from a file, anywhere.
                meta http-equiv="Content-Security-Policy"
                    content="default-src 'none'; style-src 'unsafe-inline'; img-src data:";
                title { (title) }
                style { (PreEscaped(CSS)) }
            }
            body {
                header {
                    div.kicker { "bogglemax proof report" }
                    h1 {
                        (m.size) " " (list_name(&m.wordlist)) " · "
                        span.scoring { (m.scoring) " scoring" } " · S = " (m.threshold)
                    }
                    (state_line(d))
                    p.meta {
                        "Run " code { (d.run_name) } ", read " (utc(s.taken_at))
                        " by bogglemax " (d.tool_version) ". This page is a snapshot: run "
                        code { "bogglemax report RUN" } " again to refresh it."
                    }
                }
                main {
                    @if d.verdict.is_some() { (verdict_section(d)) }
                    (progress_section(s))
                    (shards_section(s))
                    (costs_section(s))
                    (boards_section(d))
                    (settings_section(d))
                }
            }
        }
    };
    page.into_string()
}

/// The word list's name without its file extension or `(built-in)`.
fn list_name(wordlist: &str) -> String {
    let name = wordlist.split_whitespace().next().unwrap_or(wordlist);
    let name = name.rsplit('/').next().unwrap_or(name);
    name.trim_end_matches(".txt")
        .trim_end_matches(".bmx")
        .to_uppercase()
}

/// The proof's state in words, as a coloured badge and a sentence.
fn state_line(d: &ReportData) -> Markup {
    let s = &d.snapshot;
    let (done, total) = s.classes_done();
    let [_, running, pending, failed, unreadable] = s.shard_counts();
    let shards = s.shards.len();
    match &d.verdict {
        Some(v) if v.complete => html! {
            p.state {
                span #state .badge.complete { "complete" }
                " Every one of the " (count(total)) " canonical classes is certified: the boards below are all the boards scoring "
                (s.manifest.threshold) " or more."
            }
        },
        Some(_) => html! {
            p.state {
                span #state .badge.failed { "incomplete" }
                " Every shard is finished, but merge finds problems: see the verdict below."
            }
        },
        // Nothing started (a shard of no classes counts as complete, so count classes).
        None if done == 0 && running == 0 && failed == 0 && unreadable == 0 => html! {
            p.state {
                span #state .badge.pending { "not started" }
                " " strong { (count(total)) " classes" } " in " (count(shards as u64))
                " shards, none started yet. Break them to begin ("
                code { "scripts/break-xargs.sh RUN" } ", or " code { "scripts/slurm/submit.sh" } ")."
            }
        },
        None if running == 0 => html! {
            p.state {
                span #state .badge.failed { "stalled" }
                " " strong { (count(done)) " of " (count(total)) " classes certified" } ", and no worker is running: "
                span.dot.pending {} (pending) " shards pending, "
                span.dot.failed {} (failed) " failed"
                @if unreadable > 0 { ", " span.dot.unreadable {} (unreadable) " unreadable" }
                ". Break them to go on"
                @if unreadable > 0 { " (an unreadable shard's journal first moved aside, as its warning below says)" }
                "."
            }
        },
        None => html! {
            p.state {
                span #state .badge.running { "in progress" }
                " " strong { (count(done)) " of " (count(total)) " classes certified" } ", "
                (count((shards - s.shard_counts()[0]) as u64)) " of " (count(shards as u64)) " shards open: "
                span.dot.running {} (running) " running, "
                span.dot.pending {} (pending) " pending, "
                span.dot.failed {} (failed) " failed"
                @if unreadable > 0 { ", " span.dot.unreadable {} (unreadable) " unreadable" }
                "."
            }
        },
    }
}

/// Overall progress, CPU time spent and the time left.
fn progress_section(s: &RunSnapshot) -> Markup {
    let (done, total) = s.classes_done();
    let share = if total > 0 {
        (done as f64 / total as f64).min(1.0)
    } else {
        1.0
    };
    let (r, other) = remaining(s);
    let running = s.shard_counts()[1];
    let spent = s.cpu_seconds();
    let interval = |(lo, hi): (f64, f64)| format!("{} – {}", duration(lo), duration(hi));
    html! {
        section #progress {
            h2 { "Progress" }
            div.bigbar title=(format!("{:.2} % of classes certified", share * 100.0)) {
                div.fill style=(format!("width: {:.3}%", share * 100.0)) {}
                span { (format!("{:.1} %", share * 100.0)) }
            }
            div.stats {
                div.stat { div.v { (count(done)) } div.k { "of " (count(total)) " classes certified" } }
                div.stat { div.v { (duration(spent)) } div.k { "CPU time spent" } }
                div.stat #remaining {
                    div.v { (if r.source == RemainingSource::Done { "none".to_string() } else { duration(r.cpu) }) }
                    div.k {
                        "CPU time left"
                        @if let Some(i) = r.interval.filter(|_| r.source != RemainingSource::Done) {
                            br; "90 %: " (interval(i))
                        }
                    }
                }
                div.stat #wall {
                    @if r.source == RemainingSource::Done {
                        div.v { "—" } div.k { "wall time left" }
                    } @else if running > 0 {
                        div.v { (duration(r.cpu / running as f64)) }
                        div.k {
                            "wall time left at the " (running) " worker(s) running now"
                            @if let Some((lo, hi)) = r.interval { br; "90 %: " (interval((lo / running as f64, hi / running as f64))) }
                        }
                    } @else {
                        div.v { (duration(r.cpu)) }
                        div.k { "wall time left on one worker (none is running now)" }
                    }
                }
            }
            p.note {
                @match r.source {
                    RemainingSource::Done => { "Every class is finished." }
                    RemainingSource::Estimate => {
                        "Time left from the estimate this run was planned by (RUN/estimate.txt, "
                        code { "bogglemax estimate" } "), for the " (count(r.classes_left)) " classes left; "
                        "the measured rate takes over once " (format!("{:.0} %", RATE_PREFERRED_SHARE * 100.0)) " of the classes, and at least " (RATE_MIN_CLASSES) ", are certified."
                    }
                    RemainingSource::MeasuredRate => {
                        "Time left from the measured rate: the mean CPU time of the " (count(s.class_seconds.len() as u64))
                        " classes certified so far, times the " (count(r.classes_left)) " left (interval: a 90 % prediction interval for their sum). "
                        "Class costs have a heavy tail, so early figures can be low; "
                        code { "bogglemax estimate" } " predicts a run before it starts."
                    }
                    RemainingSource::Unknown => {
                        "No class is finished and the run has no estimate: the time left is unknown. "
                        code { "bogglemax estimate" } " predicts it."
                    }
                }
                " Wall time assumes one thread per worker."
                @if let Some(o) = other {
                    br;
                    @if o.source == RemainingSource::Estimate {
                        "The estimate this run was planned by says "
                    } @else {
                        "At the measured rate so far: "
                    }
                    strong { (duration(o.cpu)) }
                    @if let Some(i) = o.interval { " (90 %: " (interval(i)) ")" }
                    " of CPU for the classes left."
                }
            }
        }
    }
}

/// One bar per shard, or a strip of squares when there are many.
fn shards_section(s: &RunSnapshot) -> Markup {
    let failed: Vec<&ShardSnapshot> = s
        .shards
        .iter()
        .filter(|x| matches!(x.state, ShardState::Stopped))
        .collect();
    let unreadable: Vec<(u32, &str)> = s.unreadable().collect();
    let finished: Vec<f64> = s
        .shards
        .iter()
        .filter(|x| x.state == ShardState::Complete && x.classes > 0)
        .map(|x| x.seconds)
        .collect();
    html! {
        section #shards {
            h2 { "Shards" }
            p.legend {
                span.dot.complete {} "complete " span.dot.running {} "running " span.dot.pending {} "pending "
                span.dot.failed {} "failed (started, no worker now) "
                @if !unreadable.is_empty() { span.dot.unreadable {} "unreadable" }
            }
            @if s.shards.len() <= SHARD_BARS { (shard_bars(s)) } @else { (shard_strip(s)) }
            @if !finished.is_empty() {
                @let mean = finished.iter().sum::<f64>() / finished.len() as f64;
                @let max = finished.iter().cloned().fold(0.0, f64::max);
                p.note {
                    "Finished shards took " (duration(finished.iter().cloned().fold(f64::INFINITY, f64::min)))
                    " to " (duration(max)) " of CPU (mean " (duration(mean)) "). "
                    @if mean > 0.0 && max > 2.0 * mean {
                        "The slowest took " (format!("{:.1}", max / mean)) "x the mean: replanning with "
                        code { "plan --costs" } " deals shards more evenly."
                    }
                }
            }
            @if !failed.is_empty() {
                p.warn {
                    (failed.len()) " shard(s) started and stopped without finishing (their worker failed, was killed or hit a time limit; no lock is held and the journal has not been written to lately): "
                    @for (i, x) in failed.iter().take(40).enumerate() {
                        @if i > 0 { ", " } (x.index)
                    }
                    @if failed.len() > 40 { ", …" }
                    ". Break them again to resume (" code { "bogglemax break RUN --shard N" } ", or "
                    code { "scripts/slurm/resubmit.sh" } ")."
                }
            }
            @for (k, why) in &unreadable {
                p.warn { "Shard " (k) " cannot be read: " (why) }
            }
            @let minutes = s.options.active_within.as_secs() / 60;
            p.note {
                @if minutes > 0 {
                    "Running means a worker of this machine holds the shard's lock, or (for workers on other machines) its journal was written to in the last "
                    (minutes) " minute" @if minutes > 1 { "s" } ". A worker killed on this machine counts as running that long too; with every worker on this machine, "
                    code { "report --active-within 0" } " marks its shard failed at once."
                } @else {
                    "Running means a worker of this machine holds the shard's lock (" code { "--active-within 0" } ": a recent write does not count)."
                }
            }
        }
    }
}

/// The label of a shard's state with its evidence.
fn shard_title(x: &ShardSnapshot, now: std::time::SystemTime) -> String {
    let ago = x
        .last_write
        .and_then(|t| now.duration_since(t).ok())
        .map(|d| format!(", last written {} ago", duration(d.as_secs_f64())))
        .unwrap_or_default();
    let how = match &x.state {
        ShardState::Locked => " (lock held on this machine)",
        ShardState::RecentlyWritten => " (written to recently)",
        _ => "",
    };
    format!(
        "shard {}: {}/{} classes, {} CPU, {}{how}{ago}",
        x.index,
        x.done,
        x.classes,
        duration(x.seconds),
        x.state.word()
    )
}

fn shard_bars(s: &RunSnapshot) -> Markup {
    html! {
        div.shardbars {
            @for x in &s.shards {
                @let share = if x.classes > 0 { x.done as f64 / x.classes as f64 } else { 1.0 };
                div.shardrow title=(shard_title(x, s.taken_at)) {
                    span.k { (x.index) }
                    div.bar { div class=(format!("fill {}", x.state.word())) style=(format!("width: {:.2}%", share * 100.0)) {} }
                    span.v { (x.done) "/" (x.classes) " · " (if x.done > 0 { duration(x.seconds) } else { "—".to_string() }) " · " span class=(format!("word {}", x.state.word())) { (x.state.word()) } }
                }
            }
        }
    }
}

fn shard_strip(s: &RunSnapshot) -> Markup {
    let per = s.shards.len().div_ceil(STRIP_CELLS);
    let groups: Vec<&[ShardSnapshot]> = s.shards.chunks(per).collect();
    let cols = 64usize;
    let cell = 11usize;
    let rows = groups.len().div_ceil(cols);
    html! {
        @if per > 1 { p.note { "Each square is " (per) " shards: coloured by the least finished of them." } }
        svg.strip viewBox=(format!("0 0 {} {}", cols * cell, rows * cell)) width=(cols * cell) height=(rows * cell) role="img" {
            @for (i, g) in groups.iter().enumerate() {
                // A group shows its least finished shard: failures and pending work stand out.
                @let worst = g.iter().min_by(|a, b| rank(&a.state).cmp(&rank(&b.state))).expect("chunks are not empty");
                @let done: usize = g.iter().map(|x| x.done).sum();
                @let classes: usize = g.iter().map(|x| x.classes).sum();
                @let share = if classes > 0 { done as f64 / classes as f64 } else { 1.0 };
                rect class=(worst.state.word()) x=((i % cols) * cell) y=((i / cols) * cell)
                    width=(cell - 2) height=(cell - 2) rx="2"
                    fill-opacity=(if worst.state == ShardState::Complete || worst.state == ShardState::Pending { 1.0 } else { 0.35 + 0.65 * share }) {
                    title { (if per == 1 { shard_title(worst, s.taken_at) } else { format!("shards {}-{}: {done}/{classes} classes", g[0].index, g[g.len() - 1].index) }) }
                }
            }
        }
    }
}

/// Order of attention: unreadable, failed, pending, running, complete.
fn rank(state: &ShardState) -> u8 {
    match state {
        ShardState::Unreadable(_) => 0,
        ShardState::Stopped => 1,
        ShardState::Pending => 2,
        ShardState::Locked | ShardState::RecentlyWritten => 3,
        ShardState::Complete => 4,
    }
}

/// The distribution of class costs and the slowest classes.
fn costs_section(s: &RunSnapshot) -> Markup {
    let h = CostHistogram::of(&s.class_seconds);
    let q = quantiles(&s.class_seconds, &[0.5, 0.9, 0.99, 1.0]);
    let total = s.cpu_seconds();
    html! {
        section #costs {
            h2 { "Where the time goes" }
            @if h.counts.is_empty() {
                p.note { "No class is finished yet." }
            } @else {
                div.stats {
                    div.stat { div.v { (duration(q[0])) } div.k { "median class" } }
                    div.stat { div.v { (duration(q[1])) } div.k { "90th percentile" } }
                    div.stat { div.v { (duration(q[2])) } div.k { "99th percentile" } }
                    div.stat { div.v { (duration(q[3])) } div.k { "slowest class" } }
                    div.stat { div.v { (bytes(s.peak_bytes)) } div.k { "largest tree (peak)" } }
                    div.stat { div.v { (compact(s.candidates)) } div.k { "candidates checked (" (duration(s.check_seconds)) " wall)" } }
                }
                (histogram(&h, total))
                p.note {
                    "Bars: classes per cost bin (log scale). Line: each bin's share of the CPU time. "
                    "The slowest class and the largest tree tell the time and memory a Slurm task needs."
                }
                h3 { "Slowest classes" }
                table.slowest {
                    thead { tr { th { "class" } th { "shard" } th.num { "CPU" } th.num { "peak tree" } th.num { "candidates" } } }
                    tbody {
                        @for c in &s.slowest {
                            tr {
                                td { code { (c.class_id) } }
                                td { (c.shard) }
                                td.num { (format!("{:.2} s", c.seconds)) }
                                td.num { (bytes(c.peak_bytes)) }
                                td.num { (count(c.candidates)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The histogram as SVG: bars of class counts on a log scale, a line of CPU-time shares.
fn histogram(h: &CostHistogram, total_seconds: f64) -> Markup {
    let (w, ht, left, bottom, top) = (720.0, 240.0, 40.0, 36.0, 14.0);
    let n = h.counts.len();
    let bw = (w - left - 8.0) / n as f64;
    let max_count = *h.counts.iter().max().unwrap_or(&1) as f64;
    let decades = (max_count.log10().ceil()).max(1.0);
    let plot = ht - bottom - top;
    // A single class still shows as a sliver.
    let y_count = |c: f64| ht - bottom - (plot * c.log10() / decades).max(3.0);
    let shares: Vec<f64> = h
        .seconds
        .iter()
        .map(|&s| {
            if total_seconds > 0.0 {
                s / total_seconds
            } else {
                0.0
            }
        })
        .collect();
    let max_share = shares.iter().cloned().fold(0.0, f64::max).max(1e-9);
    let y_share = |f: f64| ht - bottom - plot * f / max_share;
    let line: String = shares
        .iter()
        .enumerate()
        .map(|(i, &f)| format!("{:.1},{:.1}", left + bw * (i as f64 + 0.5), y_share(f)))
        .collect::<Vec<_>>()
        .join(" ");
    html! {
        svg.hist viewBox=(format!("0 0 {w} {ht}")) role="img" {
            title { "Classes per cost bin, and each bin's share of the CPU time" }
            // Count grid lines: one per decade.
            @for dcd in 0..=(decades as u32) {
                @let y = ht - bottom - plot * dcd as f64 / decades;
                line.grid x1=(left) x2=(w - 8.0) y1=(y) y2=(y) {}
                text.axis x=(left - 6.0) y=(y + 4.0) text-anchor="end" { (power_label(dcd)) }
            }
            @for (i, &c) in h.counts.iter().enumerate() {
                @let x = left + bw * i as f64;
                @if c > 0 {
                    @let y = y_count(c as f64);
                    rect.bin x=(format!("{:.1}", x + 1.0)) y=(format!("{y:.1}")) width=(format!("{:.1}", (bw - 2.0).max(1.0)))
                        height=(format!("{:.1}", ht - bottom - y)) {
                        title { (count(c)) " classes of " (duration(h.edges[i])) " to " (duration(h.edges[i] * 10f64.powf(1.0 / BINS_PER_DECADE as f64))) ", " (format!("{:.1}", shares[i] * 100.0)) " % of the CPU time" }
                    }
                }
                // A label at each whole decade.
                @let decade = (h.edges[i].log10() * BINS_PER_DECADE as f64).round() as i64;
                @if decade.rem_euclid(BINS_PER_DECADE as i64) == 0 {
                    text.axis x=(format!("{x:.1}")) y=(ht - bottom + 16.0) text-anchor="middle" { (duration(h.edges[i])) }
                    line.tick x1=(format!("{x:.1}")) x2=(format!("{x:.1}")) y1=(ht - bottom) y2=(ht - bottom + 5.0) {}
                }
            }
            polyline.share points=(line) {}
            text.axis x=(w / 2.0) y=(ht - 4.0) text-anchor="middle" { "CPU seconds per class (log scale)" }
            text.axis.sharelabel x=(w - 10.0) y=(top) text-anchor="end" { "line: share of CPU time (peak " (format!("{:.0} %", max_share * 100.0)) ")" }
        }
    }
}

/// One board as a grid of dice.
fn board_grid(board: &Board, id: &str) -> Markup {
    let size = board.size();
    let (cols, rows) = (size.cols(), size.rows());
    html! {
        div.board data-board=(id) style=(format!("grid-template-columns: repeat({cols}, 1fr)")) {
            @for r in 0..rows {
                @for c in 0..cols {
                    @let l = letter_char(board.get(c * rows + r));
                    div.cell { @if l == 'q' { "Qu" } @else { (l.to_ascii_uppercase()) } }
                }
            }
        }
    }
}

/// The boards at or above S, drawn, with the best known board beside them.
fn boards_section(d: &ReportData) -> Markup {
    let s = &d.snapshot;
    let m = &s.manifest;
    let size = s.size;
    let known_best = d
        .known
        .iter()
        .filter_map(|k| k.boards.first().map(|b| (b, k)))
        .max_by(|a, b| a.0.1.cmp(&b.0.1).then(a.1.published.cmp(&b.1.published)));
    let unit = if m.scoring == "words" {
        "words"
    } else {
        "points"
    };
    html! {
        section #boards {
            h2 { "Boards scoring " (m.threshold) " or more" }
            p.note {
                (count(s.results.len() as u64)) " found"
                @if d.verdict.as_ref().is_none_or(|v| !v.complete) { " so far (more may come from the classes left)" }
                ", canonical, best first."
                @if s.results.len() > BOARDS_DRAWN { " The first " (BOARDS_DRAWN) " are drawn; open one to see its words." }
            }
            div.boardrow {
                div.found {
                    @for (i, b) in s.results.iter().take(BOARDS_DRAWN).enumerate() {
                        @let text = b.board.to_string();
                        div.result {
                            (board_grid(&b.board, &text))
                            div.score { span.points { (b.score) } " " (unit) }
                            code.string { (text) }
                            @if let Some(words) = d.words.get(i) {
                                details {
                                    summary { (words.len()) " words" }
                                    div.words {
                                        // The words come sorted by points, then alphabetically.
                                        @for group in words.chunk_by(|a, b| a.points == b.points) {
                                            p { b { (group[0].points) ": " } (group.iter().map(|w| w.word.as_str()).collect::<Vec<_>>().join(" ")) }
                                        }
                                    }
                                }
                            }
                            div.classid { "class " (b.class_id) }
                        }
                    }
                    @if s.results.is_empty() { p.note { "None yet." } }
                }
                @if let Some(((board, score), k)) = known_best {
                    @if let Ok(b) = Board::parse(size, board) {
                        aside.known {
                            div.kicker { "best known" }
                            (board_grid(&b, board))
                            div.score { span.points { (score) } " " (unit) }
                            code.string { (board) }
                            p.note {
                                @if k.published { "Published exhaustive search, " } @else { "Proven by bogglemax, " }
                                code { (k.source) } "."
                            }
                        }
                    }
                }
            }
            @if s.results.len() > BOARDS_DRAWN {
                h3 { "The rest" }
                ol.more start=(BOARDS_DRAWN + 1) {
                    @for b in s.results.iter().skip(BOARDS_DRAWN).take(BOARDS_LISTED - BOARDS_DRAWN) {
                        li title=(format!("class {}", b.class_id)) { code { (b.board) } " " b { (b.score) } }
                    }
                }
                @if s.results.len() > BOARDS_LISTED {
                    p.note { "And " (count((s.results.len() - BOARDS_LISTED) as u64)) " more: every one is in RUN/results.csv after " code { "bogglemax merge RUN" } "." }
                }
            }
        }
    }
}

/// For a run whose shards are all finished: merge's verdict and the comparison with what is
/// known.
fn verdict_section(d: &ReportData) -> Markup {
    let Some(v) = &d.verdict else {
        return html! {};
    };
    let s = &d.snapshot;
    let mine: Vec<(String, u64)> = s
        .results
        .iter()
        .map(|b| (b.board.to_string(), b.score))
        .collect();
    html! {
        section #verdict {
            h2 { "Verdict" }
            @for k in &d.known {
                @let c = compare(s.manifest.threshold as u64, &mine, k);
                @let who = if k.published { "the published exhaustive search" } else { "bogglemax's published proof" };
                @if c.equal() {
                    p.agree {
                        "✓ Equal to " (who) " (" code { (k.source) } "): the same " (c.same) " boards at " (c.at) " or more."
                    }
                } @else {
                    p.warn {
                        "✗ Differs from " (who) " (" code { (k.source) } ") at " (c.at) " or more: "
                        (c.missing.len()) " of its boards missing here, " (c.extra.len()) " boards here it does not list."
                        @for (what, list) in [("missing", &c.missing), ("not listed", &c.extra)] {
                            @if !list.is_empty() {
                                br; (what) ": "
                                @for (i, (b, sc)) in list.iter().take(8).enumerate() {
                                    @if i > 0 { ", " } code { (b) } " " (sc)
                                }
                                @if list.len() > 8 { ", …" }
                            }
                        }
                    }
                }
            }
            @for p in &d.published_counts {
                @let at = (s.manifest.threshold as u64).max(p.threshold);
                @let n = mine.iter().filter(|b| b.1 >= p.threshold).count();
                @let best = mine.first().map(|b| (b.0.as_str(), b.1));
                @if at == p.threshold && n == p.boards && best == Some(p.best) {
                    p.agree {
                        "✓ Equal to the published exhaustive search (" code { (p.source) } "): " (p.boards)
                        " boards at " (p.threshold) " or more, " code { (p.best.0) } " (" (p.best.1) ") first."
                    }
                } @else if at == p.threshold {
                    p.warn {
                        "✗ The published exhaustive search (" code { (p.source) } ") finds " (p.boards) " boards at "
                        (p.threshold) " or more, " (p.best.0) " (" (p.best.1) ") first; this run: " (n) "."
                    }
                }
            }
            p.note { "What " code { "bogglemax merge RUN" } " prints (computed here without writing anything):" }
            pre #summary { (v.summary) }
        }
    }
}

/// The settings that define the run.
fn settings_section(d: &ReportData) -> Markup {
    let m = &d.snapshot.manifest;
    html! {
        section #settings {
            h2 { "Settings" }
            table.settings {
                tr { th { "size" } td { (m.size) } }
                tr { th { "word list" } td { (m.wordlist) br; code.sha { "sha256 " (m.wordlist_sha256) } } }
                tr { th { "scoring" } td { (m.scoring) } }
                tr { th { "S (score sought)" } td { (m.threshold) } }
                tr { th { "switchover" } td { (m.switchover) } }
                tr { th { "partition" } td { code { (m.partition) } } }
                tr { th { "classes" } td { (count(m.classes)) } }
                tr { th { "shards" } td { (count(m.shards as u64)) } }
                tr { th { "planned by" } td { "bogglemax " (m.tool_version) } }
            }
        }
    }
}

/// The page's style, inlined (src/report/page.css).
const CSS: &str = include_str!("page.css");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{FoundBoard, Manifest, SnapshotOptions};
    use crate::solve::FoundWord;
    use std::time::{Duration, SystemTime};

    /// A run of `shards` shards of `per_shard` classes each, `done` of each finished; shard
    /// states as given (cycled), `results` boards of `size` with a Qu on the first.
    fn data(
        shards: usize,
        per_shard: usize,
        done: usize,
        states: &[ShardState],
        size: &str,
        scoring: &str,
        results: usize,
    ) -> ReportData {
        let board_size = size.parse::<crate::board::Size>().unwrap();
        let cells = board_size.cells();
        let class_seconds: Vec<f32> = (0..shards * done)
            .map(|i| ((i * 7919) % 100_000) as f32 / 1000.0)
            .collect();
        let snapshot = RunSnapshot {
            manifest: Manifest {
                tool_version: "test".into(),
                size: size.into(),
                partition: "aeiosuy bcdfghjklmnpqrtvwxz".into(),
                threshold: 100,
                switchover: 200,
                scoring: scoring.into(),
                wordlist: "list.txt".into(),
                wordlist_sha256: "00".into(),
                classes: (shards * per_shard) as u64,
                shards: shards as u32,
            },
            size: board_size,
            options: SnapshotOptions::default(),
            shards: (0..shards)
                .map(|k| ShardSnapshot {
                    index: k as u32,
                    classes: per_shard,
                    done,
                    seconds: done as f64,
                    state: states[k % states.len()].clone(),
                    last_write: Some(SystemTime::UNIX_EPOCH),
                })
                .collect(),
            class_seconds,
            slowest: Vec::new(),
            results: (0..results)
                .map(|i| FoundBoard {
                    board: Board::parse(
                        board_size,
                        &(0..cells)
                            .map(|c| {
                                if i == 0 && c == 0 {
                                    'q'
                                } else {
                                    (b'a' + ((i + c) % 26) as u8) as char
                                }
                            })
                            .collect::<String>(),
                    )
                    .unwrap(),
                    score: 1000 - i as u64,
                    class_id: i as u64,
                })
                .collect(),
            candidates: 12_345_678_901,
            check_seconds: 1.0,
            peak_bytes: 3_400_000_000,
            estimate: None,
            taken_at: SystemTime::UNIX_EPOCH + Duration::from_secs(86_400),
        };
        let words = (0..results.min(BOARDS_DRAWN))
            .map(|_| {
                (0..1500)
                    .map(|w| FoundWord {
                        word: format!("word{w:05}"),
                        points: [11, 5, 3, 2, 1][w % 5],
                    })
                    .collect()
            })
            .collect();
        ReportData {
            snapshot,
            run_name: "test-run".into(),
            verdict: None,
            known: Vec::new(),
            published_counts: Vec::new(),
            words,
            tool_version: "test".into(),
        }
    }

    /// The 4x4 plan's scale (a million classes, 1,024 shards, hundreds of boards with long
    /// word lists) gives a page well under 2 MB: it aggregates.
    #[test]
    fn a_page_of_the_4x4_plan_stays_small() {
        let states = [
            ShardState::Complete,
            ShardState::Locked,
            ShardState::Pending,
        ];
        let d = data(1024, 1043, 700, &states, "4x4", "standard", 300);
        let html = render(&d);
        assert!(html.len() < 2_000_000, "{} bytes", html.len());
        assert!(
            html.contains(r#"<svg class="strip""#),
            "a strip, not 1,024 bars"
        );
        assert!(html.contains("And 100 more"));
        assert!(html.contains("12.35 billion") && html.contains("3.40 GB"));
        for bad in ["NaN", "inf"] {
            assert!(!html.contains(bad), "{bad} on the page");
        }
    }

    /// Nothing finished, an unreadable shard, an empty one, a non-square board with a Qu,
    /// another scoring: all drawn, no NaN, the time left unknown.
    #[test]
    fn edge_cases_render() {
        let states = [
            ShardState::Pending,
            ShardState::Unreadable("shards/00001.journal: corrupt: bad magic".into()),
            ShardState::Stopped,
        ];
        let d = data(3, 5, 0, &states, "4x5", "words", 2);
        let html = render(&d);
        assert!(html.contains(r#"id="state">stalled<"#), "no worker runs");
        assert!(html.contains("bad magic"));
        assert!(html.contains("unknown"), "no rate and no estimate");
        assert!(html.contains(r#"<div class="cell">Qu</div>"#));
        let first = &html[html.find("data-board=").unwrap()..];
        let board = &first[..first.find("</div></div>").unwrap()];
        assert_eq!(
            board.matches(r#"class="cell""#).count(),
            20,
            "4x5 is 20 cells"
        );
        assert!(html.contains("1000</span> words"));
        for bad in ["NaN", "inf"] {
            assert!(!html.contains(bad), "{bad} on the page");
        }
        // A run planned and never started is not stalled, nor with a shard of no classes.
        let mut d = data(3, 5, 0, &[ShardState::Pending], "3x3", "standard", 0);
        let html = render(&d);
        assert!(
            html.contains(r#"id="state">not started<"#),
            "nothing started"
        );
        d.snapshot.shards[2].classes = 0;
        d.snapshot.shards[2].state = ShardState::Complete;
        let html = render(&d);
        assert!(
            html.contains(r#"id="state">not started<"#),
            "an empty shard"
        );
        assert!(
            html.contains("written to in the last 15 minutes"),
            "the default window"
        );
        // An empty shard is complete and does not count as the quickest finished one.
        let mut d = data(2, 5, 5, &[ShardState::Complete], "3x3", "standard", 0);
        d.snapshot.shards[1].classes = 0;
        d.snapshot.shards[1].done = 0;
        d.snapshot.shards[1].seconds = 0.0;
        let html = render(&d);
        assert!(
            html.contains("Finished shards took 5.0 s to 5.0 s"),
            "the empty shard is left out of the spread"
        );
    }
}
