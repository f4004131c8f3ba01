//! A last line on standard error when a long, resumable command is stopped by a signal
//! (TERM from `kill`, Slurm or a batch script; INT from Ctrl-C; HUP from a closed terminal):
//! what its journals keep and how to go on, where a batch log would otherwise just end.
//!
//! The process still dies by the signal, as it would without the note: its exit status and
//! a parent's `wait` see the same signal, and nothing is flushed or cleaned up on the way
//! out, so the journals are exactly what a `kill -9` at that moment would leave.

use std::io::IsTerminal;
use std::sync::OnceLock;

/// The note, set once per process before the handler is installed.
static NOTE: OnceLock<Note> = OnceLock::new();

/// What is written before and after the signal's name. On a terminal the note starts a line
/// of its own, since a progress bar may be half drawn there.
struct Note {
    before: Box<[u8]>,
    after: Box<[u8]>,
}

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
    let before = format!("{line_break}bogglemax: stopped by SIG");
    let after = format!("; {note}\n");
    let note = Note {
        before: before.into_bytes().into(),
        after: after.into_bytes().into(),
    };
    if NOTE.set(note).is_err() {
        return;
    }
    #[cfg(unix)]
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        install(signal);
    }
}

#[cfg(unix)]
fn install(signal: libc::c_int) {
    // SAFETY: `sigaction` is given valid pointers to zeroed (then filled) `sigaction`
    // structs; the handler only makes async-signal-safe calls (see `on_stop`).
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
            || old.sa_sigaction == libc::SIG_IGN
        {
            return;
        }
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // The handler runs once: the default action is back as it starts.
        action.sa_flags = libc::SA_RESETHAND;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(signal, &action, std::ptr::null_mut());
    }
}

/// Writes the note and raises the signal again. The signal stays blocked while the handler
/// runs, and `SA_RESETHAND` has restored its default action, so the raised signal ends the
/// process as the handler returns. Only `write(2)` and `raise(3)` are called, both
/// async-signal-safe (`OnceLock::get` is an atomic load); the note was set before the
/// handler was installed and never changes.
#[cfg(unix)]
extern "C" fn on_stop(signal: libc::c_int) {
    let name: &[u8] = match signal {
        libc::SIGTERM => b"TERM",
        libc::SIGINT => b"INT",
        _ => b"HUP",
    };
    if let Some(note) = NOTE.get() {
        for part in [&note.before[..], name, &note.after[..]] {
            // SAFETY: a valid buffer of `part.len()` bytes. A failed or short write loses
            // only the note; the process ends by the signal all the same.
            unsafe {
                libc::write(2, part.as_ptr().cast(), part.len());
            }
        }
    }
    // SAFETY: raising a signal of this process; see above for why it ends the process.
    unsafe {
        libc::raise(signal);
    }
}
