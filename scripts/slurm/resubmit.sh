#!/usr/bin/env bash
# Resubmits the unfinished shards of a bogglemax run (after cancelled, failed, preempted or
# timed-out tasks): one job array over `bogglemax status RUN --pending` (e.g. --array=3,7,9)
# and a merge job after it. Finished classes are never redone: each shard resumes from its
# journal. Exits 0 without submitting anything when no shard is pending.
#
#   scripts/slurm/resubmit.sh RUN [--max-running N] [--merge-time T] [--merge-mem M]
#                             [--from-estimate] [sbatch options...]
#
# Options and BOGGLEMAX as for submit.sh. Run it once the earlier jobs have ended: a shard
# that a still-running task holds is refused by its lock (that new task exits 2).
set -euo pipefail
PROG=resubmit.sh
USAGE_LINES=2,11p
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

parse_args "$@"
need_sbatch
find_binary
pending=$("$BIN" status "$RUN" --pending) || die "$RUN: not a run directory that $BIN can read"
if [[ -z "$pending" ]]; then
    echo "$PROG: nothing pending in $RUN: every shard is finished (merge it: $BIN merge $RUN)"
    exit 0
fi
echo "$PROG: $(printf '%s\n' "$pending" | grep -c .) pending shard(s) of $RUN with $BIN:" \
    "$(printf '%s\n' "$pending" | ranges)"
apply_estimate "$("$BIN" status "$RUN" --count)"
# shellcheck disable=SC2086 # one shard number per word
submit_shards $pending
