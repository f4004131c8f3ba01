#!/usr/bin/env bash
# Submits a planned bogglemax run to Slurm: a job array with one task per shard
# (break.sbatch), then a merge job (merge.sbatch) that starts when the array has ended.
#
#   scripts/slurm/submit.sh RUN [--max-running N] [--merge-time T] [--merge-mem M]
#                           [--from-estimate] [sbatch options...]
#
# RUN          run directory from `bogglemax plan`, on a filesystem every node shares.
# --max-running N
#              at most N array tasks at once (--array=0-K%N).
# --merge-time T, --merge-mem M
#              the merge job's limits (default 1:00:00 and 2G: it reads only the journals).
# --from-estimate
#              each task's --time and --mem from RUN/estimate.txt (written by make proof-4x4),
#              or from a new `bogglemax estimate --run RUN` (ESTIMATE_BUDGET seconds, default
#              300, ESTIMATE_THREADS threads, default 1; saved there, after `sbatch --test-only`
#              has accepted your options); a --time or --mem of your own still wins.
# sbatch options (e.g. --time=4:00:00 --mem=8G --partition=X --account=Y) go to every job;
#              the break tasks' --time, --mem and --cpus-per-task are not given to the merge.
# BOGGLEMAX    the binary (default: bogglemax on PATH, else target/release/bogglemax of this
#              repository); it too must be on the shared filesystem.
# Prints the job ids. Logs: RUN/logs/break-JOB_TASK.log and RUN/logs/merge-JOB.log. When
# jobs were cancelled, preempted or timed out, run scripts/slurm/resubmit.sh RUN.
# More shards than the cluster's MaxArraySize (default 1001) become several arrays, with
# --max-running applying to each.
set -euo pipefail
PROG=submit.sh
USAGE_LINES=2,25p
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

parse_args "$@"
need_sbatch
find_binary
# status --count checks that RUN is a valid run directory, and gives the number of shards.
count=$("$BIN" status "$RUN" --count) || die "$RUN: not a run directory that $BIN can read"
[[ "$count" =~ ^[0-9]+$ && "$count" -gt 0 ]] || die "$RUN: unexpected shard count '$count'"
echo "$PROG: $count shard(s) of $RUN with $BIN"
apply_estimate "$count"
# shellcheck disable=SC2046 # the numbers 0..count-1, one word each
submit_shards $(seq 0 $((count - 1)))
