#!/usr/bin/env bash
# Runs a whole proof on this machine: plan (or resume) a run, break every shard with
# `xargs -P`, merge, and print the result table.
#
#   scripts/proof.sh SIZE            e.g. scripts/proof.sh 3x3
#
# Environment (all optional): SCORE, SHARDS, JOBS (parallel workers, default: cores),
# WORDLIST (default: built-in ENABLE2K), PARTITION, RUN (run directory, default
# shards/proof-SIZE-SCORE), BOGGLEMAX (binary, default target/release/bogglemax), TOP (rows
# of the table to print, default 50).
# Rerunning after an interruption resumes where the run stopped; a run directory planned
# with other settings is refused.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -ne 1 || "$1" == -h || "$1" == --help ]]; then
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
SIZE=$1
case "$SIZE" in
    3x3) : "${SCORE:=500}" "${SHARDS:=16}" "${PARTITION:=aeiosuy bcdfghjklmnpqrtvwxz}" ;;
    3x4) : "${SCORE:=1500}" "${SHARDS:=64}" "${PARTITION:=aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz}" ;;
    4x4) : "${SCORE:=3500}" "${SHARDS:=1024}" "${PARTITION:=aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz}" ;;
    *) : "${SCORE:?set SCORE for size $SIZE}" "${SHARDS:=64}" "${PARTITION:=aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz}" ;;
esac
JOBS=${JOBS:-$(nproc)}
RUN=${RUN:-shards/proof-$SIZE-$SCORE}
BOGGLEMAX=${BOGGLEMAX:-target/release/bogglemax}
TOP=${TOP:-50}
[[ -x "$BOGGLEMAX" ]] || { echo "proof.sh: $BOGGLEMAX not found; run 'make build'" >&2; exit 2; }

wordlist=()
[[ -n "${WORDLIST:-}" ]] && wordlist=(--wordlist "$WORDLIST")

start=$(date +%s)
"$BOGGLEMAX" plan --reuse --size "$SIZE" --partition "$PARTITION" --score "$SCORE" \
    --shards "$SHARDS" "${wordlist[@]}" --out "$RUN"
scripts/break-xargs.sh "$RUN" "$JOBS"
status=0
"$BOGGLEMAX" merge "$RUN" > /dev/null || status=$?
echo
echo "best boards (score >= $SCORE) of $RUN/results.csv:"
column -s, -t < <(head -n "$((TOP + 1))" "$RUN/results.csv") 2>/dev/null || head -n "$((TOP + 1))" "$RUN/results.csv"
echo
grep -E '^(classes finished|results|best|cpu seconds|proof)' "$RUN/summary.txt"
echo "wall seconds: $(( $(date +%s) - start ))"
exit "$status"
