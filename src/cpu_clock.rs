//! The CPU time of the calling thread: what a class's recorded `seconds` measure, so that
//! the CPU figures of journals, `status`, `merge`, `estimate` and `report` stay CPU time on
//! a loaded machine, where a wall clock counts the time other processes take the core.

/// A stopwatch of the calling thread's CPU time (user and system), started by
/// [`ThreadCpuClock::start`]. Read it on the thread that started it. A read costs a system
/// call (about half a microsecond here), so it times whole classes and units, not inner
/// loops. Where the thread's CPU clock cannot be read, it falls back to the wall clock.
#[derive(Clone, Copy, Debug)]
pub struct ThreadCpuClock {
    start: f64,
}

impl ThreadCpuClock {
    /// Starts the stopwatch now.
    pub fn start() -> ThreadCpuClock {
        ThreadCpuClock {
            start: thread_cpu_seconds(),
        }
    }

    /// CPU seconds the calling thread has spent since [`ThreadCpuClock::start`].
    pub fn seconds(&self) -> f64 {
        (thread_cpu_seconds() - self.start).max(0.0)
    }
}

/// The calling thread's CPU seconds so far.
#[cfg(unix)]
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the call writes only into it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc == 0 {
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    } else {
        wall_seconds()
    }
}

/// The calling thread's CPU seconds so far: here, the wall clock's seconds.
#[cfg(not(unix))]
fn thread_cpu_seconds() -> f64 {
    wall_seconds()
}

/// Seconds of a monotonic wall clock, from a fixed point of this process.
fn wall_seconds() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sleeping thread spends no CPU time; a working one does. (No figure here depends on
    /// the machine's speed or load: a sleep takes microseconds of CPU however busy it is.)
    #[test]
    fn a_sleeping_thread_spends_no_cpu_time() {
        let clock = ThreadCpuClock::start();
        std::thread::sleep(std::time::Duration::from_millis(300));
        let slept = clock.seconds();
        assert!(slept < 0.1, "{slept} CPU seconds while asleep for 0.3 s");
        // Work the optimiser cannot remove shows on the clock.
        let clock = ThreadCpuClock::start();
        let mut x = 1u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
        }
        assert!(
            clock.seconds() > 0.0,
            "no CPU time for 20 million steps ({x})"
        );
    }
}
