//! Named crash points, so that resume tests stop a worker at a chosen step of its work rather
//! than at a moment of the clock.
//!
//! Built with the `failpoints` cargo feature (as `make test` builds), the environment variable
//! `BOGGLEMAX_FAILPOINT=NAME:K` makes the process die at the K-th time it passes the point
//! `NAME`: it sends itself SIGKILL, exactly what `kill -9` does, so no destructor runs, no
//! buffer is flushed, no lock is released by hand, and no core file is written.
//! `BOGGLEMAX_FAILPOINT=NAME:K:pause` instead stops the thread there (printing
//! `failpoint NAME:K:pause paused, pid P` on stderr) until the process is killed from outside.
//! `BOGGLEMAX_FAILPOINT=NAME:K:wait` holds it there (printing `failpoint NAME:K:wait waiting
//! for FILE, pid P`) until the file `BOGGLEMAX_FAILPOINT_GO` names exists, then lets it go on:
//! a test makes two processes race by this, in the order it chooses (`journal-torn` dies in
//! any mode but `pause`). Without the feature
//! every point is an empty inline function: a release build ignores the variables and pays
//! nothing.
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
    static SPEC: OnceLock<Option<(String, u64)>> = OnceLock::new();
    static PASSES: AtomicU64 = AtomicU64::new(0);
    let spec = SPEC.get_or_init(|| {
        let text = std::env::var("BOGGLEMAX_FAILPOINT").ok()?;
        let parts: Vec<&str> = text.split(':').collect();
        let k = parts.get(1).and_then(|k| k.parse::<u64>().ok());
        match (parts.as_slice(), k) {
            ([name, _], Some(k)) if k > 0 => Some((name.to_string(), k)),
            ([name, _, "pause" | "wait"], Some(k)) if k > 0 => Some((name.to_string(), k)),
            _ => {
                eprintln!(
                    "BOGGLEMAX_FAILPOINT={text}: expected NAME:K, NAME:K:pause or NAME:K:wait, \
                     K ≥ 1"
                );
                std::process::exit(2)
            }
        }
    });
    match spec {
        Some((name, k)) if name == point => PASSES.fetch_add(1, Ordering::SeqCst) + 1 == *k,
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

/// Stops here if the environment names this pass through `point` (or, in `wait` mode, holds
/// here until the go file exists).
#[inline(always)]
pub fn point(point: &str) {
    if fires(point) {
        let spec = std::env::var("BOGGLEMAX_FAILPOINT").unwrap_or_default();
        if spec.ends_with(":wait") {
            wait_for_go(&spec);
        } else {
            stop(point)
        }
    }
}

/// Holds the thread until the file `BOGGLEMAX_FAILPOINT_GO` names exists.
#[cold]
fn wait_for_go(spec: &str) {
    let Some(go) = std::env::var_os("BOGGLEMAX_FAILPOINT_GO") else {
        eprintln!("BOGGLEMAX_FAILPOINT={spec}: set BOGGLEMAX_FAILPOINT_GO to the file to wait for");
        std::process::exit(2)
    };
    let go = std::path::PathBuf::from(go);
    eprintln!(
        "failpoint {spec} waiting for {}, pid {}",
        go.display(),
        std::process::id()
    );
    // Polled: the test that creates the file is the only clock here, so the wait's length
    // depends on nothing but when it does.
    while !go.exists() {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
