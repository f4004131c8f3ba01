//! Progress of long stages: a bar on a terminal, a plain line every so often otherwise
//! (batch logs), both on standard error.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a plain progress line is written when standard error is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(30);

/// A counter of finished items shown as a bar or as periodic lines.
pub struct Progress {
    label: String,
    unit: &'static str,
    total: u64,
    bar: Option<ProgressBar>,
    plain: Option<Mutex<(u64, Instant)>>,
    start: Instant,
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
        let plain = (!quiet && !terminal).then(|| Mutex::new((0, Instant::now())));
        Progress {
            label: label.to_string(),
            unit,
            total,
            bar,
            plain,
            start: Instant::now(),
        }
    }

    /// Counts one more finished item.
    pub fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
        if let Some(plain) = &self.plain {
            let mut state = plain.lock().unwrap_or_else(|e| e.into_inner());
            state.0 += 1;
            if state.1.elapsed() >= LINE_EVERY {
                state.1 = Instant::now();
                eprintln!(
                    "{}: {}/{} {}, {:.0} s",
                    self.label,
                    state.0,
                    self.total,
                    self.unit,
                    self.start.elapsed().as_secs_f64()
                );
            }
        }
    }

    /// Ends the display.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
