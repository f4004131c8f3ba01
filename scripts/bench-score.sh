#!/usr/bin/env bash
# Whole-process speed of `bogglemax score` on one thread, for the solver figures of
# docs/NOTES-search.md: boards read from standard input, scored, printed.
#
#   scripts/bench-score.sh [BINARY ...]
#
# Two fixed inputs, made once with Python's random.Random(20261123) and kept in
# target/bench-inputs/: 400,000 random 4x4 boards (each letter uniform), and the 400
# one-letter changes of perslatgsineters (a cell's 25 in a row) 100 times over. Each
# binary (default: $BOGGLEMAX, else target/release/bogglemax) scores each file RUNS times
# (default 5), the binaries taking turns, so that old and new see the same machine; the
# script prints the median CPU seconds (user + sys) and boards per second of each. Pin it
# to one core and keep the other quiet: taskset -c 1 scripts/bench-score.sh OLD NEW
set -euo pipefail
export LC_ALL=C # `time` prints 1.234, not 1,234

CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
    sed -n '2,13p' "scripts/${0##*/}" | sed 's/^# \{0,1\}//'
    exit 0
fi
runs=${RUNS:-5}
[[ "$runs" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "bench-score.sh: RUNS must be a whole number of at least 1, not '$runs'" >&2; exit 2; }
bins=()
for b in "$@"; do bins+=("$(from_caller "$b")"); done
if [[ ${#bins[@]} -eq 0 ]]; then
    case "${BOGGLEMAX:-}" in
        "") bins=("$PWD/target/release/bogglemax") ;;
        */*) bins=("$(from_caller "$BOGGLEMAX")") ;;
        *) bins=("$(command -v "$BOGGLEMAX" || printf '%s' "$BOGGLEMAX")") ;;
    esac
fi
for b in "${bins[@]}"; do
    [[ -f "$b" && -x "$b" ]] || { echo "bench-score.sh: $b is not an executable (make build first?)" >&2; exit 2; }
done

dir=target/bench-inputs
mkdir -p "$dir"
random="$dir/random-4x4-400000.txt"
changes="$dir/perslatgsineters-changes-40000.txt"
# Each input is written to a temporary name and renamed: a run cut short leaves none half made.
if [[ ! -s "$random" ]]; then
    python3 - "$random.tmp" <<'EOF'
import random, string, sys
r = random.Random(20261123)
with open(sys.argv[1], "w") as f:
    for _ in range(400000):
        f.write("".join(r.choice(string.ascii_lowercase) for _ in range(16)) + "\n")
EOF
    mv "$random.tmp" "$random"
fi
if [[ ! -s "$changes" ]]; then
    python3 - "$changes.tmp" <<'EOF'
import sys
board = "perslatgsineters"
changes = [board[:c] + l + board[c + 1:]
           for c in range(16) for l in "abcdefghijklmnopqrstuvwxyz" if l != board[c]]
with open(sys.argv[1], "w") as f:
    f.write("".join(b + "\n" for b in changes) * 100)
EOF
    mv "$changes.tmp" "$changes"
fi

# One timed run of binary $1 on file $2: prints "USER SYS" CPU seconds; fails if it does.
cpu_of() {
    local TIMEFORMAT='%U %S'
    { time RAYON_NUM_THREADS=1 "$1" score < "$2" > /dev/null 2> /dev/null; } 2>&1
}

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for file in "$random" "$changes"; do
    # Every binary must print the same scores: one that scores differently is no faster.
    first=""
    for b in "${bins[@]}"; do
        sum=$(RAYON_NUM_THREADS=1 "$b" score < "$file" | md5sum)
        [[ -n "$first" ]] || first=$sum
        [[ "$sum" == "$first" ]] || { echo "bench-score.sh: $b scores $file differently" >&2; exit 1; }
    done
    for ((i = 0; i < runs; i++)); do
        for b in "${bins[@]}"; do
            cpu=$(cpu_of "$b" "$file") || { echo "bench-score.sh: $b failed on $file" >&2; exit 1; }
            printf '%s\t%s\t%s\n' "$b" "$file" "$cpu" >> "$results"
        done
    done
done

python3 - "$results" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    b, f, cpu = line.rstrip("\n").split("\t")
    user, system = cpu.split()
    runs.setdefault((f, b), []).append(float(user) + float(system))
boards = {}
for (f, b), cpu in runs.items():
    if f not in boards:
        boards[f] = sum(1 for _ in open(f))
    m = statistics.median(cpu)
    print(f"{f.rsplit('/', 1)[-1]}  {b}: median {m:.3f} CPU s over {len(cpu)} runs "
          f"({min(cpu):.3f}-{max(cpu):.3f}), {boards[f] / m:,.0f} boards/s")
EOF
