//! The figures a report derives from a snapshot: the remaining CPU time with its interval,
//! the distribution of class costs, and dates written without a time-zone library.

use crate::pipeline::RunSnapshot;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where a remaining-time figure comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RemainingSource {
    /// Every class is finished.
    Done,
    /// The estimate the run was planned by (`RUN/estimate.txt`), scaled to the classes left.
    Estimate,
    /// The mean cost of the classes finished so far.
    MeasuredRate,
    /// Nothing finished yet and no estimate.
    Unknown,
}

/// The CPU time the unfinished classes will take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Remaining {
    /// Point estimate, CPU seconds.
    pub cpu: f64,
    /// 90 % interval, CPU seconds (`None` when it cannot be computed).
    pub interval: Option<(f64, f64)>,
    /// Where it comes from.
    pub source: RemainingSource,
    /// Classes left.
    pub classes_left: u64,
}

/// The z-value of a two-sided 90 % interval.
const Z90: f64 = 1.645;

/// The measured rate is preferred to the run's estimate once this share of the classes is
/// certified (and at least [`RATE_MIN_CLASSES`]).
pub const RATE_PREFERRED_SHARE: f64 = 0.05;
/// See [`RATE_PREFERRED_SHARE`].
pub const RATE_MIN_CLASSES: usize = 30;

/// The remaining CPU time of a run, and the other figure where there are two.
///
/// Two sources: the estimate the run was planned by (its figures for the whole run, times
/// the share of classes left), and the measured rate (the mean cost of the finished classes
/// times the classes left, with a 90 % prediction interval for that sum; it assumes the
/// classes left cost what the finished ones did, which a heavy tail of costs, or classes
/// broken cheapest first, can make optimistic).
/// The first is preferred until [`RATE_PREFERRED_SHARE`] of the classes are certified.
pub fn remaining(snap: &RunSnapshot) -> (Remaining, Option<Remaining>) {
    let (done, total) = snap.classes_done();
    let left = total.saturating_sub(done);
    if left == 0 {
        let done = Remaining {
            cpu: 0.0,
            interval: Some((0.0, 0.0)),
            source: RemainingSource::Done,
            classes_left: 0,
        };
        return (done, None);
    }
    let estimate = snap
        .estimate
        .filter(|e| e.classes == total && total > 0)
        .map(|e| {
            let share = left as f64 / total as f64;
            Remaining {
                cpu: e.cpu_seconds * share,
                interval: Some((e.cpu_seconds_90.0 * share, e.cpu_seconds_90.1 * share)),
                source: RemainingSource::Estimate,
                classes_left: left,
            }
        });
    let rate = measured_rate(&snap.class_seconds, left);
    let n = snap.class_seconds.len();
    let rate_first = n >= RATE_MIN_CLASSES && n as f64 >= RATE_PREFERRED_SHARE * total as f64;
    match (estimate, rate) {
        (Some(e), Some(r)) if rate_first => (r, Some(e)),
        (Some(e), r) => (e, r),
        (None, Some(r)) => (r, None),
        (None, None) => (
            Remaining {
                cpu: f64::NAN,
                interval: None,
                source: RemainingSource::Unknown,
                classes_left: left,
            },
            None,
        ),
    }
}

/// The remaining CPU time at the mean cost of the finished classes (`None` if there are none).
fn measured_rate(seconds: &[f32], left: u64) -> Option<Remaining> {
    let n = seconds.len();
    if n == 0 {
        return None;
    }
    let mean = seconds.iter().map(|&s| s as f64).sum::<f64>() / n as f64;
    let interval = (n >= 2).then(|| {
        let var = seconds
            .iter()
            .map(|&s| (s as f64 - mean).powi(2))
            .sum::<f64>()
            / (n - 1) as f64;
        // A prediction interval for the sum of `left` more costs: each varies as the finished
        // ones did (left·σ²), and their mean is only known to σ²/n (left²·σ²/n).
        let left = left as f64;
        let half = Z90 * (var * left * (1.0 + left / n as f64)).sqrt();
        ((mean * left - half).max(0.0), mean * left + half)
    });
    Some(Remaining {
        cpu: mean * left as f64,
        interval,
        source: RemainingSource::MeasuredRate,
        classes_left: left,
    })
}

/// A histogram of class costs on a log axis: bins a quarter of a decade wide.
#[derive(Clone, Debug, PartialEq)]
pub struct CostHistogram {
    /// Lower edge of each bin, seconds.
    pub edges: Vec<f64>,
    /// Classes in each bin.
    pub counts: Vec<u64>,
    /// CPU seconds in each bin.
    pub seconds: Vec<f64>,
}

/// Bins per decade of the cost histogram.
pub const BINS_PER_DECADE: i32 = 4;
/// Costs below this (seconds) share the first bin.
const SMALLEST: f64 = 1e-4;

impl CostHistogram {
    /// The histogram of `seconds` (empty if there are none).
    pub fn of(seconds: &[f32]) -> CostHistogram {
        let bin = |s: f64| (s.max(SMALLEST).log10() * BINS_PER_DECADE as f64).floor() as i32;
        let (lo, hi) = seconds.iter().fold((i32::MAX, i32::MIN), |(lo, hi), &s| {
            let b = bin(s as f64);
            (lo.min(b), hi.max(b))
        });
        if lo > hi {
            return CostHistogram {
                edges: Vec::new(),
                counts: Vec::new(),
                seconds: Vec::new(),
            };
        }
        let n = (hi - lo + 1) as usize;
        let mut h = CostHistogram {
            edges: (lo..=hi)
                .map(|b| 10f64.powf(b as f64 / BINS_PER_DECADE as f64))
                .collect(),
            counts: vec![0; n],
            seconds: vec![0.0; n],
        };
        for &s in seconds {
            let i = (bin(s as f64) - lo) as usize;
            h.counts[i] += 1;
            h.seconds[i] += s as f64;
        }
        h
    }
}

/// The costs at these quantiles (nearest rank), e.g. `[0.5, 0.9, 0.99, 1.0]`.
pub fn quantiles(seconds: &[f32], at: &[f64]) -> Vec<f64> {
    if seconds.is_empty() {
        return vec![f64::NAN; at.len()];
    }
    let mut sorted = seconds.to_vec();
    sorted.sort_by(f32::total_cmp);
    at.iter()
        .map(|&q| {
            let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
            sorted[rank - 1] as f64
        })
        .collect()
}

/// A duration in the unit that reads best: `42 s`, `12.5 min`, `3.2 h`, `4.1 days`.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() {
        return "unknown".to_string();
    }
    if seconds < 0.001 {
        format!("{:.1} ms", seconds * 1e3)
    } else if seconds < 1.0 {
        format!("{:.0} ms", seconds * 1e3)
    } else if seconds < 10.0 {
        format!("{seconds:.1} s")
    } else if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.1} min", seconds / 60.0)
    } else if seconds < 3.0 * 86400.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else {
        format!("{:.1} days", seconds / 86400.0)
    }
}

/// A count with thin separators: 1068363 → `1,068,363`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A large count in words: `6.17 billion`, `1.86 million`, else with separators.
pub fn compact(n: u64) -> String {
    match n {
        1_000_000_000.. => format!("{:.2} billion", n as f64 / 1e9),
        10_000_000.. => format!("{:.1} million", n as f64 / 1e6),
        _ => count(n),
    }
}

/// Bytes in MB or GB: `376 MB`, `14.9 GB`.
pub fn bytes(n: u64) -> String {
    if n >= 1_000_000_000 {
        format!("{:.2} GB", n as f64 / 1e9)
    } else {
        format!("{:.0} MB", n as f64 / 1e6)
    }
}

/// An axis label for a power of ten: `1`, `10`, `100`, `1k`, …, `1M`, `1G`.
pub fn power_label(exp: u32) -> String {
    let unit = ["", "k", "M", "G", "T"][(exp / 3).min(4) as usize];
    format!("{}{unit}", 10u64.pow(exp - 3 * (exp / 3).min(4)))
}

/// A moment as `YYYY-MM-DD HH:MM UTC`.
pub fn utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm, proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_and_counts_read() {
        let t = UNIX_EPOCH + Duration::from_secs(1_795_628_400 + 7 * 60);
        assert_eq!(utc(t), "2026-11-25 17:47 UTC");
        assert_eq!(utc(UNIX_EPOCH), "1970-01-01 00:00 UTC");
        assert_eq!(
            utc(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29 00:00 UTC"
        );
        assert_eq!(count(1_068_363), "1,068,363");
        assert_eq!(count(999), "999");
        assert_eq!(compact(6_172_346_522), "6.17 billion");
        assert_eq!(compact(12_260), "12,260");
        assert_eq!(bytes(14_945_200_000), "14.95 GB");
        assert_eq!(bytes(185_000_000), "185 MB");
        let labels: Vec<String> = (0..7).map(power_label).collect();
        assert_eq!(labels, ["1", "10", "100", "1k", "10k", "100k", "1M"]);
        assert_eq!(duration(90.0), "90 s");
        assert_eq!(duration(2.54), "2.5 s");
        assert_eq!(duration(0.0001), "0.1 ms");
        assert_eq!(duration(0.25), "250 ms");
        assert_eq!(duration(4.0 * 86400.0), "4.0 days");
    }

    #[test]
    fn histogram_bins_every_class_once() {
        let secs = [0.00001f32, 0.5, 0.6, 3.0, 3.1, 3.2, 150.0];
        let h = CostHistogram::of(&secs);
        assert_eq!(h.counts.iter().sum::<u64>(), secs.len() as u64);
        assert!((h.seconds.iter().sum::<f64>() - 160.40001).abs() < 1e-3);
        for (i, w) in h.edges.windows(2).enumerate() {
            assert!(w[0] < w[1], "edges rise at {i}");
        }
        // 150 s lies in the last bin: [10^(8/4), 10^(9/4)) = [100, 177.8).
        assert_eq!(*h.counts.last().unwrap(), 1);
        assert!((h.edges.last().unwrap() - 100.0).abs() < 1e-9);
        assert!(CostHistogram::of(&[]).counts.is_empty());
    }

    /// The estimate leads until 5 % of the classes are certified, then the measured rate;
    /// the interval of the rate is a 90 % prediction interval for the sum of the classes left.
    #[test]
    fn remaining_time_comes_from_the_estimate_then_the_rate() {
        use crate::pipeline::{PlannedEstimate, RunSnapshot};
        let snapshot = |done: usize| {
            let mut snap = RunSnapshot::synthetic(1000, done);
            snap.estimate = Some(PlannedEstimate {
                classes: 1000,
                cpu_seconds: 4000.0,
                cpu_seconds_90: (3000.0, 5000.0),
            });
            snap
        };
        let (first, other) = remaining(&snapshot(10));
        assert_eq!(first.source, RemainingSource::Estimate);
        assert_eq!(first.cpu, 4000.0 * 0.99);
        assert_eq!(first.interval, Some((3000.0 * 0.99, 5000.0 * 0.99)));
        assert_eq!(other.map(|o| o.source), Some(RemainingSource::MeasuredRate));
        // 100 classes of 1 s and 3 s alternating: mean 2, variance 100/99, 900 left.
        let (first, other) = remaining(&snapshot(100));
        assert_eq!(first.source, RemainingSource::MeasuredRate);
        assert!((first.cpu - 1800.0).abs() < 1e-9);
        let (lo, hi) = first.interval.unwrap();
        let half = 1.645 * (100.0f64 / 99.0 * 900.0 * (1.0 + 9.0)).sqrt();
        assert!((lo - (1800.0 - half)).abs() < 1e-6 && (hi - (1800.0 + half)).abs() < 1e-6);
        assert_eq!(other.map(|o| o.source), Some(RemainingSource::Estimate));
        let (done, _) = remaining(&RunSnapshot::synthetic(1000, 1000));
        assert_eq!((done.source, done.cpu), (RemainingSource::Done, 0.0));
        let (none, _) = remaining(&RunSnapshot::synthetic(1000, 0));
        assert_eq!(none.source, RemainingSource::Unknown);
    }

    #[test]
    fn quantiles_are_nearest_rank() {
        let secs: Vec<f32> = (1..=100).map(|i| i as f32).collect();
        assert_eq!(
            quantiles(&secs, &[0.5, 0.9, 0.99, 1.0]),
            vec![50.0, 90.0, 99.0, 100.0]
        );
    }
}
