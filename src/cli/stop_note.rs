//! A last line on standard error when a long, resumable command is stopped by a signal
//! (TERM from `kill`, Slurm or a batch script; INT from Ctrl-C; HUP from a closed terminal):
//! what its journals keep and how to go on, where a batch log would otherwise just end.
//!
//! The process still dies by the signal, as it would without the note: its exit status and
//! a parent's `wait` see the same signal, and nothing is flushed or cleaned up on the way
//! out, so the journals are exactly what a `kill -9` at that moment would leave.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};

/// The whole note for each signal, set once per process before the handler is installed:
/// one buffer, so that one `write(2)` puts it out whole even when many workers sharing a log
/// or a terminal are stopped at once. On a terminal it starts a line of its own, since a
/// progress bar may be half drawn there. Null until set; once set, leaked and never changed,
/// so the handler reads it with one atomic load.
static NOTES: AtomicPtr<Notes> = AtomicPtr::new(std::ptr::null_mut());

/// The signals that leave a note: TERM, INT and HUP, in [`Notes`]' order.
#[cfg(unix)]
const SIGNALS: [libc::c_int; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

/// The note each of [`SIGNALS`] writes.
struct Notes([Box<[u8]>; 3]);

/// Bit `i` set: the handler is installed for `SIGNALS[i]` (it was not ignored at the start).
static INSTALLED: AtomicU32 = AtomicU32::new(0);

/// From now on, a TERM, INT or HUP prints `bogglemax: stopped by SIG…; NOTE` on standard
/// error and then ends the process by that signal. A signal the process was started with
/// ignored (HUP under `nohup`, INT in a background job of a script) stays ignored. Only the
/// first call of a process sets the note.
pub fn say_when_stopped(note: &str) {
    let line_break = if std::io::stderr().is_terminal() {
        "\n"
    } else {
        ""
    };
    let text = |name: &str| -> Box<[u8]> {
        format!("{line_break}bogglemax: stopped by SIG{name}; {note}\n")
            .into_bytes()
            .into()
    };
    let notes = Box::into_raw(Box::new(Notes([text("TERM"), text("INT"), text("HUP")])));
    let null = std::ptr::null_mut();
    if NOTES
        .compare_exchange(null, notes, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        // SAFETY: `notes` came from `Box::into_raw` above and was not stored.
        drop(unsafe { Box::from_raw(notes) });
        return;
    }
    #[cfg(unix)]
    for i in 0..SIGNALS.len() {
        install(i);
    }
}

/// Installs the handler for `SIGNALS[i]` unless the signal is ignored.
#[cfg(unix)]
fn install(i: usize) {
    let signal = SIGNALS[i];
    // SAFETY: `sigaction` is given valid pointers to zeroed (then filled) `sigaction`
    // structs; the handler only makes async-signal-safe calls (see `on_stop`).
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
            || old.sa_sigaction == libc::SIG_IGN
        {
            return;
        }
        // Marked first, so that the handler, from its first run, gives it its default back.
        INSTALLED.fetch_or(1 << i, Ordering::SeqCst);
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // The handler runs once: the default action is back as it starts.
        action.sa_flags = libc::SA_RESETHAND;
        // While it runs, the other two wait (an INT then a TERM, as a batch script sends
        // them, give one note; see `on_stop`).
        libc::sigemptyset(&mut action.sa_mask);
        for other in SIGNALS {
            libc::sigaddset(&mut action.sa_mask, other);
        }
        libc::sigaction(signal, &action, std::ptr::null_mut());
    }
}

/// Writes the note, if standard error takes it at once, gives every stop signal it handles
/// its default action back, and raises the signal again: that ends the process as the signal
/// would have without the handler, either at once or as the handler returns. (Another stop
/// signal that came meanwhile waited, blocked, and now has its default action too: one note,
/// whichever of the two the process then dies by.) Only `poll(2)`, `write(2)`, `signal(2)`
/// and `raise(3)` are called, all async-signal-safe, and atomic loads; the notes were set
/// before the handler was installed and never change.
#[cfg(unix)]
extern "C" fn on_stop(signal: libc::c_int) {
    let index = SIGNALS.iter().position(|&s| s == signal).unwrap_or(0);
    let notes = NOTES.load(Ordering::SeqCst);
    if !notes.is_null() {
        // SAFETY: a non-null pointer is the leaked `Notes` of `say_when_stopped`, never
        // freed or changed.
        let note = unsafe { &(*notes).0[index] };
        // A full pipe (a reader that stopped reading) would hold the process in `write`:
        // the note is dropped rather than the stop delayed.
        let mut stderr = libc::pollfd {
            fd: 2,
            events: libc::POLLOUT,
            revents: 0,
        };
        // SAFETY: one valid `pollfd`; a zero timeout returns at once.
        let ready =
            unsafe { libc::poll(&mut stderr, 1, 0) } == 1 && stderr.revents & libc::POLLOUT != 0;
        if ready {
            // SAFETY: a valid buffer of `note.len()` bytes. A failed or short write loses
            // only the note; the process ends by the signal all the same.
            unsafe {
                libc::write(2, note.as_ptr().cast(), note.len());
            }
        }
    }
    let installed = INSTALLED.load(Ordering::SeqCst);
    // SAFETY: default actions for signals this handler was installed for, and a signal of
    // this process raised; see above for why it ends the process.
    unsafe {
        for (i, other) in SIGNALS.into_iter().enumerate() {
            if installed & 1 << i != 0 {
                libc::signal(other, libc::SIG_DFL);
            }
        }
        libc::raise(signal);
    }
}
