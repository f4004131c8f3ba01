//! The CPU time of the calling thread: what a class's recorded `seconds` measure, so that
//! the CPU figures of journals, `status`, `merge`, `estimate` and `report` stay CPU time on
//! a loaded machine, where a wall clock counts the time other processes take the core.

use std::marker::PhantomData;
use std::time::Instant;

/// A stopwatch of the calling thread's CPU time (user and system), started by
/// [`ThreadCpuClock::start`] and read on the same thread (it cannot be sent to another). A
/// read costs a system call (about half a microsecond here), so it times whole classes and
/// units, not inner loops. Where the thread's CPU clock cannot be read when it starts, it
/// is a wall clock throughout.
#[derive(Clone, Copy, Debug)]
pub struct ThreadCpuClock {
    start: Start,
    /// Not `Send`: another thread's CPU clock is another clock.
    _thread: PhantomData<*const ()>,
}

#[derive(Clone, Copy, Debug)]
enum Start {
    /// The thread's CPU seconds at the start.
    Cpu(f64),
    /// The wall clock at the start, where the CPU clock could not be read.
    Wall(Instant),
}

impl ThreadCpuClock {
    /// Starts the stopwatch now.
    pub fn start() -> ThreadCpuClock {
        let start = match thread_cpu_seconds() {
            Some(seconds) => Start::Cpu(seconds),
            None => Start::Wall(Instant::now()),
        };
        ThreadCpuClock {
            start,
            _thread: PhantomData,
        }
    }

    /// Seconds the calling thread has spent since [`ThreadCpuClock::start`].
    pub fn seconds(&self) -> f64 {
        match self.start {
            // The clock read at the start reads again (0 if it should not).
            Start::Cpu(start) => thread_cpu_seconds().map_or(0.0, |now| (now - start).max(0.0)),
            Start::Wall(start) => start.elapsed().as_secs_f64(),
        }
    }
}

/// The calling thread's CPU seconds so far, if the system gives them.
#[cfg(unix)]
fn thread_cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the call writes only into it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0).then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// The calling thread's CPU seconds so far: not known here.
#[cfg(not(unix))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sleeping thread spends no CPU time; a working one does. (No figure here depends on
    /// the machine's speed or load: a sleep takes microseconds of CPU however busy it is.)
    #[cfg(unix)]
    #[test]
    fn a_sleeping_thread_spends_no_cpu_time() {
        assert!(
            thread_cpu_seconds().is_some(),
            "the thread's CPU clock reads"
        );
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
