#!/usr/bin/env bash
# Pipeline benchmark: the wall time of a fresh `make proof-3x3` on this machine, then a fixed
# sample of 4x4 classes (S = 3500, the published corner split) through plan, break and status.
#
#   scripts/bench-proof.sh [3x3] [4x4]      (default: both)
#
# The 4x4 sample is shard 0 of a 4x4 plan with SHARDS_4X4 shards (default 40000, about 27
# canonical classes each): `plan` deals classes to shards deterministically, so the sample
# is the same on every machine. JOBS (default: cores) threads break it. Runs go to a temporary
# directory that is removed at the end; nothing under shards/ is touched.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
    sed -n '2,10p' "scripts/${0##*/}" | sed 's/^# \{0,1\}//'
    exit 0
fi
parts=("$@")
[[ ${#parts[@]} -eq 0 ]] && parts=(3x3 4x4)
# Checked before the build, not after it.
for part in "${parts[@]}"; do
    [[ "$part" == 3x3 || "$part" == 4x4 ]] ||
        { echo "bench-proof.sh: unknown part '$part' (3x3 or 4x4)" >&2; exit 2; }
done
JOBS=${JOBS:-$(nproc)}
SHARDS_4X4=${SHARDS_4X4:-40000}
BOGGLEMAX=target/release/bogglemax
make -s build
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for part in "${parts[@]}"; do
    case "$part" in
    3x3)
        start=$(date +%s%N)
        RUN="$tmp/proof-3x3" JOBS="$JOBS" scripts/proof.sh 3x3 > "$tmp/proof-3x3.log"
        end=$(date +%s%N)
        grep -E '^(proof|cpu seconds)' "$tmp/proof-3x3.log"
        echo "make proof-3x3 (fresh run, $JOBS jobs): $(( (end - start) / 1000000 )) ms wall"
        ;;
    4x4)
        run="$tmp/proof-4x4"
        "$BOGGLEMAX" plan --size 4x4 --score 3500 --shards "$SHARDS_4X4" \
            --partition "aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz" \
            --out "$run" > /dev/null
        start=$(date +%s%N)
        "$BOGGLEMAX" break "$run" --shard 0 --threads "$JOBS" --quiet
        end=$(date +%s%N)
        "$BOGGLEMAX" status "$run" | grep -vE '^ *shard +[1-9]|^ *[0-9]{5} '
        echo "4x4 sample (shard 0 of $SHARDS_4X4, $JOBS threads): $(( (end - start) / 1000000 )) ms wall"
        "$BOGGLEMAX" merge "$run" --quiet | grep -E '^(candidates|checking seconds|cpu seconds)' || true
        bytes=$(stat -c %s "$run/shards/00000.journal")
        classes=$("$BOGGLEMAX" status "$run" | sed -n 's/^shard *0: \([0-9]*\)\/.*/\1/p')
        echo "journal of shard 0: $bytes bytes, $((bytes / classes)) bytes a class ($classes classes)"
        ;;
    *)
        echo "bench-proof.sh: unknown part '$part' (3x3 or 4x4)" >&2
        exit 2
        ;;
    esac
done
