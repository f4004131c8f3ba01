#!/usr/bin/env bash
# Breaks every unfinished shard of a run with GNU parallel, JOBS at once (default: all
# cores), keeping a job log in RUN/parallel.joblog. Rerun it after a crash: finished shards
# are skipped (--resume-failed reruns only what failed or never ran) and each shard resumes
# from its journal. Add `--sshloginfile FILE` style options through PARALLEL_OPTS to spread
# shards over machines that share RUN.
#
#   scripts/break-parallel.sh RUN [JOBS]
set -euo pipefail
# Paths the caller gives are taken from the caller's directory, before the cd below.
CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."
if [[ $# -lt 1 || "$1" == -h || "$1" == --help ]]; then
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
command -v parallel > /dev/null || { echo "break-parallel.sh: GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
RUN=$(from_caller "$1")
JOBS=${2:-$(nproc)}
if [[ "${BOGGLEMAX:-}" == */* ]]; then BOGGLEMAX=$(from_caller "$BOGGLEMAX"); fi
BOGGLEMAX=${BOGGLEMAX:-target/release/bogglemax}
[[ "$JOBS" =~ ^[1-9][0-9]{0,5}$ ]] || { echo "break-parallel.sh: JOBS must be a whole number of at least 1, not '$JOBS'" >&2; exit 2; }
command -v "$BOGGLEMAX" > /dev/null || { echo "break-parallel.sh: no bogglemax at '$BOGGLEMAX' (make build, or set BOGGLEMAX)" >&2; exit 2; }
count=$("$BOGGLEMAX" status "$RUN" --count)
# --quote: parallel runs the command through a shell, which would split a RUN with spaces.
# shellcheck disable=SC2086
seq 0 $((count - 1)) |
    parallel --will-cite --quote -j "$JOBS" --joblog "$RUN/parallel.joblog" --resume-failed ${PARALLEL_OPTS:-} \
        "$BOGGLEMAX" break "$RUN" --shard {} --threads 1
