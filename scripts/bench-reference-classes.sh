#!/usr/bin/env bash
# Per-class ratios against the reference implementation: breaks every 4x4 class of
# refdata/reference-4x4-classes.tsv (S = 3500, the published corner split) with
# `bogglemax break-class`, one process a class on one thread, and prints our CPU seconds
# and peak RSS beside the reference's, with the ratios, then the medians and the extremes.
#
#   scripts/bench-reference-classes.sh [TSV] [CLASS_ID ...]     (default: every class of the
#                                                               refdata table)
#
# BOGGLEMAX (default target/release/bogglemax) is the binary; pin it with taskset to keep
# other work off its core. BREAK_ARGS adds options to every `break-class` (e.g. the fixed
# centre-first order of earlier sessions, to compare orders:
# BREAK_ARGS='--cell-order 5,6,9,10,1,2,4,7,8,11,13,14,0,3,12,15'). The reference's figures
# were measured on other days (the file says which), and this machine drifts by up to 2x
# from day to day: quote the ratios as a range over many classes, not one class's figure.
# Classes marked `cap` in the file were stopped at a 180 s cap, so their reference figures
# (and ratios) are lower bounds.
{
set -euo pipefail
# Paths the caller gives are taken from the caller's directory, before the cd below.
CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
    sed -n '2,17p' "scripts/${0##*/}" | sed 's/^# \{0,1\}//'
    exit 0
fi
tsv=refdata/reference-4x4-classes.tsv
# A first argument that is not a class id names the table.
if [[ $# -gt 0 && ! "$1" =~ ^[0-9]+$ ]]; then
    tsv=$(from_caller "$1")
    shift
fi
if [[ "${BOGGLEMAX:-}" == */* ]]; then BOGGLEMAX=$(from_caller "$BOGGLEMAX"); fi
BOGGLEMAX=${BOGGLEMAX:-target/release/bogglemax}
read -r -a break_args <<< "${BREAK_ARGS:-}"
[[ -r "$tsv" ]] || { echo "error: cannot read $tsv" >&2; exit 1; }
[[ -x "$BOGGLEMAX" ]] || { echo "error: no binary at $BOGGLEMAX (make build)" >&2; exit 1; }
wanted=" $* "
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

printf '%-8s %9s %9s %7s %9s %9s %6s %s\n' class ref_s our_s speed ref_MiB our_MiB mem status
grep -v '^#' "$tsv" | tail -n +2 | while IFS=$'\t' read -r id ref_s ref_kb status _ class; do
    [[ $# -gt 0 && "$wanted" != *" $id "* ]] && continue
    # GNU time's %U and %M: user seconds and peak RSS (KiB) of the whole process.
    out=$( { /usr/bin/time -f 'TIME %U %S %M' "$BOGGLEMAX" break-class --size 4x4 \
        --score 3500 "${break_args[@]}" $class > /dev/null; } 2>&1) ||
        { echo "error: class $id: $(grep -v '^TIME\|^Command exited' <<< "$out" | head -1)" >&2; exit 2; }
    out=$(grep '^TIME' <<< "$out")
    read -r _ user sys kb <<< "$out"
    ours=$(echo "$user + $sys" | bc -l)
    speed=$(echo "$ref_s / $ours" | bc -l)
    mem=$(echo "$kb / $ref_kb" | bc -l)
    printf '%-8s %9.2f %9.2f %6.2fx %9.0f %9.0f %6.2f %s\n' "$id" "$ref_s" "$ours" "$speed" \
        "$(echo "$ref_kb / 1024" | bc -l)" "$(echo "$kb / 1024" | bc -l)" "$mem" "$status"
    echo "$speed $mem $ref_s $ours" >> "$tmp"
done

python3 - "$tmp" <<'EOF'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
if not rows:
    sys.exit("no class ran")
speed = sorted(r[0] for r in rows)
mem = sorted(r[1] for r in rows)
ref = sum(r[2] for r in rows)
ours = sum(r[3] for r in rows)
print(f"{len(rows)} classes: speed-up median {statistics.median(speed):.2f}x "
      f"(range {speed[0]:.2f}-{speed[-1]:.2f}), all together {ref / ours:.2f}x "
      f"({ref:.1f} s against {ours:.1f} s); peak RSS ratio median {statistics.median(mem):.2f} "
      f"(range {mem[0]:.2f}-{mem[-1]:.2f})")
EOF
exit
}
