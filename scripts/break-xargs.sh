#!/usr/bin/env bash
# Breaks every unfinished shard of a run with `xargs -P`: one `bogglemax break` process
# per shard, JOBS at once (default: all cores). Safe to rerun after a crash or kill: each
# shard resumes from its journal, finished shards are skipped. A shard another worker holds
# (this script on another machine sharing RUN) is left to it; a worker that fails or is
# killed (out of memory) does not stop the others. Exits 0 once every shard is finished,
# 1 if some are not (held by other workers, or failed: the reason is above).
#
#   scripts/break-xargs.sh RUN [JOBS]
set -euo pipefail
# Paths the caller gives are taken from the caller's directory, before the cd below.
CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."
usage() { sed -n '2,9p' "scripts/${0##*/}" | sed 's/^# \{0,1\}//'; }
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then usage; exit 0; fi
if [[ $# -lt 1 ]]; then usage >&2; exit 2; fi
RUN=$(from_caller "$1")
JOBS=${2:-$(nproc)}
if [[ "${BOGGLEMAX:-}" == */* ]]; then BOGGLEMAX=$(from_caller "$BOGGLEMAX"); fi
BOGGLEMAX=${BOGGLEMAX:-target/release/bogglemax}
[[ "$JOBS" =~ ^[1-9][0-9]{0,5}$ ]] || { echo "break-xargs.sh: JOBS must be a whole number of at least 1, not '$JOBS'" >&2; exit 2; }
command -v "$BOGGLEMAX" > /dev/null || { echo "break-xargs.sh: no bogglemax at '$BOGGLEMAX' (make build, or set BOGGLEMAX)" >&2; exit 2; }
# The unfinished shards, one number a line (exits here, with status's error, if a run file
# cannot be read).
pending=$("$BOGGLEMAX" status "$RUN" --pending)
lines() { printf '%s' "$1" | grep -c . || true; }
count=$(lines "$pending")
echo "break-xargs: $count shard(s) to break with $JOBS worker(s)" >&2
[[ $count -eq 0 ]] && exit 0
# One thread per process: the parallelism is across shards. Each writes a progress line
# every 30 s to standard error (classes done, CPU seconds, the classes it is on). xargs
# starts no more commands once one is killed by a signal, so a worker's death becomes a
# failure of its shard alone here (xargs then goes on, and exits 123 at the end).
# xargs and its workers run as a process group of their own (job control, `set -m`), so
# that a signal to this script (TERM from `kill` or a batch system, INT, HUP, QUIT) stops
# them all too: otherwise xargs would go on starting shards after this script is gone.
# Their journals keep what they finished; a rerun resumes. The traps are set before xargs
# starts, and while they stop the workers they ignore further signals (one sent to a whole
# process group reaches this script twice: from the sender, and from proof.sh).
workers=
stop() {
    trap '' TERM INT HUP QUIT
    [[ -n "$workers" ]] || workers=$(jobs -p | tail -n 1)
    if [[ -n "$workers" ]]; then
        kill -TERM -- "-$workers" 2> /dev/null || true
        wait "$workers" 2> /dev/null || true
    fi
    echo "break-xargs: stopped by SIG$1 (the workers too); rerun to resume" >&2
    trap - "$1"
    kill -s "$1" $$
}
for signal in TERM INT HUP QUIT; do
    # shellcheck disable=SC2064
    trap "stop $signal" "$signal"
done
set -m
# shellcheck disable=SC2016
xargs -P "$JOBS" -I{} bash -c '"$1" break "$2" --shard "$3" --threads 1 --skip-locked
        rc=$?
        if (( rc > 128 )); then
            echo "break-xargs: shard $3: the worker was killed by signal $((rc - 128))$( ((rc == 137)) && echo " (out of memory?)")" >&2
            exit 1
        fi
        exit "$rc"' break-xargs "$BOGGLEMAX" "$RUN" {} < <(printf '%s\n' "$pending") &
workers=$!
set +m
wait "$workers" || true
trap - TERM INT HUP QUIT
pending=$("$BOGGLEMAX" status "$RUN" --pending)
left=$(lines "$pending")
if [[ $left -gt 0 ]]; then
    echo "break-xargs: $left shard(s) unfinished: held by another worker, or failed (see above); rerun to resume them" >&2
    exit 1
fi
