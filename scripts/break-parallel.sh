#!/usr/bin/env bash
# Breaks every unfinished shard of a run with GNU parallel, JOBS at once (default: all
# cores), appending to a job log in RUN/parallel.joblog. Rerun it after a crash: the shards
# still unfinished by their journals (`bogglemax status RUN --pending`) are broken, each
# resuming from its journal. Add `--sshloginfile FILE` style options through PARALLEL_OPTS
# to spread shards over machines that share RUN (at the same path; BOGGLEMAX, made absolute
# here, must be there too). A shard another worker holds is left to it. Exits 0 once every
# shard is finished, 1 if some are not (held by other workers, or failed: see the job log).
#
#   scripts/break-parallel.sh RUN [JOBS]
set -euo pipefail
# Paths the caller gives are taken from the caller's directory, before the cd below.
CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."
usage() { sed -n '2,10p' "scripts/${0##*/}" | sed 's/^# \{0,1\}//'; }
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then usage; exit 0; fi
if [[ $# -lt 1 ]]; then usage >&2; exit 2; fi
command -v parallel > /dev/null || { echo "break-parallel.sh: GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
RUN=$(from_caller "$1")
JOBS=${2:-$(nproc)}
if [[ "${BOGGLEMAX:-}" == */* ]]; then BOGGLEMAX=$(from_caller "$BOGGLEMAX"); fi
# Absolute, for workers that start elsewhere (a remote shell starts in its home directory).
BOGGLEMAX=${BOGGLEMAX:-$PWD/target/release/bogglemax}
[[ "$JOBS" =~ ^[1-9][0-9]{0,5}$ ]] || { echo "break-parallel.sh: JOBS must be a whole number of at least 1, not '$JOBS'" >&2; exit 2; }
command -v "$BOGGLEMAX" > /dev/null || { echo "break-parallel.sh: no bogglemax at '$BOGGLEMAX' (make build, or set BOGGLEMAX)" >&2; exit 2; }
# The unfinished shards, one number a line (exits here, with status's error, if a run file
# cannot be read).
pending=$("$BOGGLEMAX" status "$RUN" --pending)
lines() { printf '%s' "$1" | grep -c . || true; }
count=$(lines "$pending")
echo "break-parallel: $count shard(s) to break with $JOBS worker(s)" >&2
[[ $count -eq 0 ]] && exit 0
# --quote: parallel runs the command through a shell, which would split a RUN with spaces.
# --line-buffer: each worker's progress lines pass as they come (parallel's default holds a
# job's output until it ends, hours for a 4x4 shard). It goes on past a failed or killed
# worker, and exits with the number that failed. A new job log gets parallel's header line;
# a rerun appends to it (`+`, no header; its Seq numbers start again at 1).
joblog=$RUN/parallel.joblog
logged=0
if [[ -e "$joblog" ]]; then
    logged=$(wc -l < "$joblog")
    joblog=+$joblog
fi
# parallel runs as a process group of its own (job control, `set -m`), and each of its jobs
# in one of their own, so that a signal to this script (TERM from `kill` or a batch system,
# INT, HUP, QUIT) stops parallel and then every job's group: parallel alone would, by its
# version, kill its jobs or wait for them to end (hours). Their journals keep what they
# finished; a rerun resumes. The traps are set before parallel starts, and while they stop
# the workers they ignore further signals (one sent to a whole process group arrives twice).
# parallel ignores TERM until its first job starts, and INT kills its jobs in every version:
# it gets both. Should it still be there a minute later, it and its jobs are killed.
workers=
jobs_of() { pgrep -P "$1" 2> /dev/null || true; }
signal_all() {  # SIGNAL: parallel's group and each of its jobs' groups
    local job
    kill "-$1" -- "-$workers" 2> /dev/null || true
    for job in $(jobs_of "$workers"); do
        kill "-$1" -- "-$job" 2> /dev/null || kill "-$1" "$job" 2> /dev/null || true
    done
}
stop() {
    trap '' TERM INT HUP QUIT
    [[ -n "$workers" ]] || workers=$(jobs -p | tail -n 1)
    if [[ -n "$workers" ]]; then
        signal_all INT
        signal_all TERM
        # bash reaps an ended child at once, so `kill -0` tells whether parallel still runs.
        local tenths=0
        while kill -0 "$workers" 2> /dev/null && ((tenths++ < 600)); do sleep 0.1; done
        kill -0 "$workers" 2> /dev/null && signal_all KILL
        wait "$workers" 2> /dev/null || true
    fi
    echo "break-parallel: stopped by SIG$1 (the workers too); rerun to resume" >&2
    trap - "$1"
    kill -s "$1" $$
}
for signal in TERM INT HUP QUIT; do
    # shellcheck disable=SC2064
    trap "stop $signal" "$signal"
done
set -m
# shellcheck disable=SC2086
parallel --will-cite --quote --line-buffer -j "$JOBS" --joblog "$joblog" ${PARALLEL_OPTS:-} \
    "$BOGGLEMAX" break "$RUN" --shard {} --threads 1 --skip-locked < <(printf '%s\n' "$pending") &
workers=$!
set +m
wait "$workers" || true
trap - TERM INT HUP QUIT
# A worker killed by a signal says at most that it was stopped (nothing at all after a KILL,
# the out-of-memory killer's): its job log line (this run's lines, after the $logged before
# it) names the signal, in the Signal column (tab-separated, the eighth).
[[ -f "$RUN/parallel.joblog" ]] && tail -n "+$((logged + 1))" "$RUN/parallel.joblog" | awk -F'\t' '
    $1 != "Seq" && $8 != 0 && match($9, /--shard [0-9]+/) {
        printf "break-parallel: shard %s: the worker was killed by signal %s%s\n",
            substr($9, RSTART + 8, RLENGTH - 8), $8, $8 == 9 ? " (out of memory?)" : ""
    }' >&2
pending=$("$BOGGLEMAX" status "$RUN" --pending)
left=$(lines "$pending")
if [[ $left -gt 0 ]]; then
    echo "break-parallel: $left shard(s) unfinished: held by another worker, or failed (see above and $RUN/parallel.joblog); rerun to resume them" >&2
    exit 1
fi
