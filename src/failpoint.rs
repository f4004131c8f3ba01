//! Named crash points, so that resume tests stop a worker at a chosen step of its work rather
//! than at a moment of the clock.
//!
//! Built with the `failpoints` cargo feature (as `make test` builds), the environment variable
//! `BOGGLEMAX_FAILPOINT=NAME:K` makes the process die at the K-th time it passes the point
//! `NAME`: it sends itself SIGKILL, exactly what `kill -9` does, so no destructor runs, no
//! buffer is flushed, no lock is released by hand, and no core file is written. `BOGGLEMAX_FAILPOINT=NAME:K:pause` instead stops the
//! thread there (printing `failpoint NAME:K:pause paused, pid P` on stderr) until the process is
//! killed from outside. Without the feature every point is an empty inline function: a
//! release build ignores the variable and pays nothing.
//!
//! The points:
//! - `class-journaled`: a class record was appended to a shard (or estimate) journal and synced.
//! - `part-journaled`: a top-split checkpoint record was appended and synced.
//! - `journal-torn`: the record being appended is cut in half (the first half written and
//!   synced), then the process dies: the torn tail a power cut leaves.
//! - `before-rename`: an output (manifest, shard, dictionary, results, summary, costs, report
//!   page, a planned run folder) was written and synced under its temporary name, and is not
//!   renamed yet.

/// Counts a pass through `point`; true on the pass that the environment names.
#[cfg(feature = "failpoints")]
pub fn fires(point: &str) -> bool {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static SPEC: OnceLock<Option<(String, u64, bool)>> = OnceLock::new();
    static PASSES: AtomicU64 = AtomicU64::new(0);
    let spec = SPEC.get_or_init(|| {
        let text = std::env::var("BOGGLEMAX_FAILPOINT").ok()?;
        let parts: Vec<&str> = text.split(':').collect();
        let k = parts.get(1).and_then(|k| k.parse::<u64>().ok());
        match (parts.as_slice(), k) {
            ([name, _], Some(k)) if k > 0 => Some((name.to_string(), k, false)),
            ([name, _, "pause"], Some(k)) if k > 0 => Some((name.to_string(), k, true)),
            _ => {
                eprintln!("BOGGLEMAX_FAILPOINT={text}: expected NAME:K or NAME:K:pause, K ≥ 1");
                std::process::exit(2)
            }
        }
    });
    match spec {
        Some((name, k, _)) if name == point => PASSES.fetch_add(1, Ordering::SeqCst) + 1 == *k,
        _ => false,
    }
}

/// Without the `failpoints` feature no point ever fires.
#[cfg(not(feature = "failpoints"))]
#[inline(always)]
pub fn fires(_point: &str) -> bool {
    false
}

/// Dies at `point` as `kill -9` would, or pauses there until killed, as the environment says.
/// Called only after [`fires`] returned true.
#[cold]
pub fn stop(point: &str) -> ! {
    let spec = std::env::var("BOGGLEMAX_FAILPOINT").unwrap_or_default();
    if spec.ends_with(":pause") {
        eprintln!("failpoint {spec} paused, pid {}", std::process::id());
        loop {
            std::thread::park();
        }
    }
    eprintln!("failpoint {point}: killing this process");
    kill_self()
}

#[cfg(unix)]
fn kill_self() -> ! {
    unsafe extern "C" {
        fn kill(pid: i32, signal: i32) -> i32;
    }
    const SIGKILL: i32 = 9;
    // SAFETY: `kill` is the C library's, linked into every Rust program on unix; it takes
    // two integers and touches no memory of ours.
    unsafe {
        kill(std::process::id() as i32, SIGKILL);
    }
    // SIGKILL cannot be caught or ignored; should delivery lag, abort also ends us at once.
    std::process::abort()
}

#[cfg(not(unix))]
fn kill_self() -> ! {
    std::process::abort()
}

/// Stops here if the environment names this pass through `point`.
#[inline(always)]
pub fn point(point: &str) {
    if fires(point) {
        stop(point)
    }
}
