//! Progress of long work (breaking shards, merging, searching), the one display every
//! command uses: a bar on a terminal; in batch logs (standard error not a terminal) a plain
//! line every 30 seconds, whether or not anything finished meanwhile, so a stuck task and a
//! slow one look different, and the messages the work reports (at most one every 5 s unless
//! it insists).

use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often a plain progress line is written when standard error is not a terminal;
/// `BOGGLEMAX_PROGRESS_SECS` overrides it (the tests use 1).
const LINE_EVERY: Duration = Duration::from_secs(30);

/// The most running classes a plain line names (the longest-running ones).
const SHOW_RUNNING: usize = 4;

/// In batch logs, messages ([`Progress::note`]) at most this often, unless insisted on.
const NOTE_EVERY: Duration = Duration::from_secs(5);

/// A counter of finished items shown as a bar or as periodic lines.
pub struct Progress {
    bar: Option<ProgressBar>,
    plain: Option<Arc<Plain>>,
    ticker: Option<JoinHandle<()>>,
    /// When the last message was written in a batch log.
    last_note: Mutex<Option<Instant>>,
}

/// What the plain lines report, shared with the thread that writes them.
struct Plain {
    label: String,
    unit: &'static str,
    total: u64,
    start: Instant,
    state: Mutex<PlainState>,
    wake: Condvar,
}

#[derive(Default)]
struct PlainState {
    done: u64,
    /// Seconds spent on the finished items (CPU seconds of the threads that did them).
    seconds: f64,
    /// Whether any finished item was timed ([`Progress::end`]).
    timed: bool,
    /// Items in progress, by id, with when they started.
    running: BTreeMap<u64, Instant>,
    stopped: bool,
}

impl Plain {
    fn line(&self) -> String {
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let mut line = format!(
            "{}: {}/{} {}, {:.0} s wall",
            self.label,
            s.done,
            self.total,
            self.unit,
            self.start.elapsed().as_secs_f64()
        );
        // Only items timed by `end` (classes) have seconds: boards or runs counted by `inc`
        // have none to show.
        if s.timed {
            // The finished items' CPU time only: a running one's is not known here (its
            // wall time so far, below, counts the time other processes took the core).
            // Tenths while they matter (a light shard's first classes take a fraction).
            let digits = if s.seconds < 100.0 { 1 } else { 0 };
            line += &format!(", {:.digits$} CPU-s finished", s.seconds);
        }
        if !s.running.is_empty() {
            let mut longest: Vec<(u64, f64)> = s
                .running
                .iter()
                .map(|(&id, t)| (id, t.elapsed().as_secs_f64()))
                .collect();
            longest.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            let names: Vec<String> = longest
                .iter()
                .take(SHOW_RUNNING)
                .map(|(id, secs)| format!("class {id} for {secs:.0} s"))
                .collect();
            line += &format!("; running: {}", names.join(", "));
        }
        line
    }
}

impl Progress {
    /// Progress over `total` classes; `quiet` shows nothing.
    pub fn new(label: &str, total: u64, quiet: bool) -> Progress {
        Progress::counting(label, total, "classes", quiet)
    }

    /// Progress over `total` items called `unit` (e.g. "shards"); `quiet` shows nothing.
    pub fn counting(label: &str, total: u64, unit: &'static str, quiet: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{msg}} [{{bar:40}}] {{pos}}/{{len}} {unit}, {{elapsed}} (eta {{eta}})"
                ))
                .expect("a fixed, valid template")
                .progress_chars("=> "),
            );
            bar.set_message(label.to_string());
            bar
        });
        let plain = (!quiet && !terminal).then(|| {
            Arc::new(Plain {
                label: label.to_string(),
                unit,
                total,
                start: Instant::now(),
                state: Mutex::new(PlainState::default()),
                wake: Condvar::new(),
            })
        });
        let ticker = plain.clone().map(|plain| {
            let every = std::env::var("BOGGLEMAX_PROGRESS_SECS")
                .ok()
                .and_then(|s| s.parse().ok())
                .map_or(LINE_EVERY, |s: u64| Duration::from_secs(s.max(1)));
            std::thread::spawn(move || {
                let mut state = plain.state.lock().unwrap_or_else(|e| e.into_inner());
                // `stopped` is checked before every wait: a stop that came before this
                // thread first took the lock is not missed.
                while !state.stopped {
                    let (next, waited) = plain
                        .wake
                        .wait_timeout(state, every)
                        .unwrap_or_else(|e| e.into_inner());
                    state = next;
                    if state.stopped {
                        return;
                    }
                    if !waited.timed_out() {
                        continue; // woken early (spuriously): wait again
                    }
                    drop(state);
                    eprintln!("{}", plain.line());
                    state = plain.state.lock().unwrap_or_else(|e| e.into_inner());
                }
            })
        });
        Progress {
            bar,
            plain,
            ticker,
            last_note: Mutex::new(None),
        }
    }

    /// Shows a message: beside the bar on a terminal; in a batch log as a line, if `always`
    /// or if none was written in the last 5 s.
    pub fn note(&self, msg: &str, always: bool) {
        if let Some(bar) = &self.bar {
            bar.set_message(msg.to_string());
        }
        if self.plain.is_some() {
            let mut last = self.last_note.lock().unwrap_or_else(|e| e.into_inner());
            if always || last.is_none_or(|t| t.elapsed() >= NOTE_EVERY) {
                *last = Some(Instant::now());
                eprintln!("{msg}");
            }
        }
    }

    /// Writes a result line to `out` without tearing the bar.
    pub fn println(&self, line: &str, out: &mut dyn Write) -> std::io::Result<()> {
        match &self.bar {
            Some(bar) => bar.suspend(|| writeln!(out, "{line}").and_then(|_| out.flush())),
            None => writeln!(out, "{line}").and_then(|_| out.flush()),
        }
    }

    /// Counts `n` more finished items.
    pub fn inc_by(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
        self.update(|s| s.done += n);
    }

    fn update(&self, f: impl FnOnce(&mut PlainState)) {
        if let Some(plain) = &self.plain {
            f(&mut plain.state.lock().unwrap_or_else(|e| e.into_inner()));
        }
    }

    /// Notes that item `id` (a class) has started.
    pub fn begin(&self, id: u64) {
        self.update(|s| {
            s.running.insert(id, Instant::now());
        });
    }

    /// Counts item `id` as finished after `seconds` of work.
    pub fn end(&self, id: u64, seconds: f64) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
        self.update(|s| {
            s.running.remove(&id);
            s.done += 1;
            s.seconds += seconds;
            s.timed = true;
        });
    }

    /// Counts one more finished item.
    pub fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
        self.update(|s| s.done += 1);
    }

    /// Ends the display.
    pub fn finish(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        self.update(|s| s.stopped = true);
        if let Some(plain) = &self.plain {
            plain.wake.notify_all();
        }
        if let Some(ticker) = self.ticker.take() {
            let _ = ticker.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // An error on the way: the line-writing thread stops with the display.
        self.finish();
    }
}
