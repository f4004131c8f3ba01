#!/usr/bin/env bash
# Breaks every unfinished shard of a run with `xargs -P`: one `bogglemax break` process
# per shard, JOBS at once (default: all cores). Safe to rerun after a crash or kill: each
# shard resumes from its journal, finished shards are skipped.
#
#   scripts/break-xargs.sh RUN [JOBS]
set -euo pipefail
# Paths the caller gives are taken from the caller's directory, before the cd below.
CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."
if [[ $# -lt 1 || "$1" == -h || "$1" == --help ]]; then
    sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
RUN=$(from_caller "$1")
JOBS=${2:-$(nproc)}
if [[ "${BOGGLEMAX:-}" == */* ]]; then BOGGLEMAX=$(from_caller "$BOGGLEMAX"); fi
BOGGLEMAX=${BOGGLEMAX:-target/release/bogglemax}
[[ "$JOBS" =~ ^[1-9][0-9]{0,5}$ ]] || { echo "break-xargs.sh: JOBS must be a whole number of at least 1, not '$JOBS'" >&2; exit 2; }
command -v "$BOGGLEMAX" > /dev/null || { echo "break-xargs.sh: no bogglemax at '$BOGGLEMAX' (make build, or set BOGGLEMAX)" >&2; exit 2; }
pending=$("$BOGGLEMAX" status "$RUN" --pending)
count=$(printf '%s' "$pending" | grep -c . || true)
echo "break-xargs: $count shard(s) to break with $JOBS worker(s)" >&2
[[ $count -eq 0 ]] && exit 0
# One thread per process: the parallelism is across shards. Each writes a progress line
# every 30 s to standard error (classes done, CPU seconds, the classes it is on).
printf '%s\n' "$pending" |
    xargs -P "$JOBS" -I{} "$BOGGLEMAX" break "$RUN" --shard {} --threads 1
