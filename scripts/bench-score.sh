#!/usr/bin/env bash
# Whole-process speed of `bogglemax score` on one thread, for the solver figures of
# docs/NOTES-search.md: boards read from standard input, scored, printed.
#
#   scripts/bench-score.sh [BINARY ...]
#
# Two fixed inputs, made once with Python's random.Random(20261123) and kept in
# target/bench-inputs/: 400,000 random 4x4 boards (each letter uniform), and the 400
# one-letter changes of perslatgsineters (a cell's 25 in a row) 100 times over. Each
# binary (default: target/release/bogglemax) scores each file RUNS times (default 5),
# the binaries taking turns, so that old and new see the same machine; the script prints
# the median CPU seconds (user + sys) and boards per second of each. Pin it to one core
# and keep the other quiet: taskset -c 1 scripts/bench-score.sh OLD NEW
set -euo pipefail

runs=${RUNS:-5}
dir=target/bench-inputs
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(target/release/bogglemax)
for b in "${bins[@]}"; do
    [ -x "$b" ] || { echo "bench-score: $b is not an executable (make build first?)" >&2; exit 2; }
done

mkdir -p "$dir"
random="$dir/random-4x4-400000.txt"
changes="$dir/perslatgsineters-changes-40000.txt"
[ -s "$random" ] || python3 - "$random" <<'EOF'
import random, string, sys
r = random.Random(20261123)
with open(sys.argv[1], "w") as f:
    for _ in range(400000):
        f.write("".join(r.choice(string.ascii_lowercase) for _ in range(16)) + "\n")
EOF
[ -s "$changes" ] || python3 - "$changes" <<'EOF'
import sys
board = "perslatgsineters"
changes = [board[:c] + l + board[c + 1:]
           for c in range(16) for l in "abcdefghijklmnopqrstuvwxyz" if l != board[c]]
with open(sys.argv[1], "w") as f:
    f.write("".join(b + "\n" for b in changes) * 100)
EOF

# One timed run: prints "user sys" CPU seconds.
cpu_of() {
    local TIMEFORMAT='%U %S'
    { time RAYON_NUM_THREADS=1 "$1" score < "$2" > /dev/null; } 2>&1
}

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for file in "$random" "$changes"; do
    # Every output must be the same: a faster binary that scores differently is no faster.
    first=""
    for b in "${bins[@]}"; do
        sum=$(RAYON_NUM_THREADS=1 "$b" score < "$file" | md5sum)
        [ -z "$first" ] && first=$sum
        [ "$sum" = "$first" ] || { echo "bench-score: $b scores $file differently" >&2; exit 1; }
    done
    for ((i = 0; i < runs; i++)); do
        for b in "${bins[@]}"; do
            echo "$b $file $(cpu_of "$b" "$file")" >> "$results"
        done
    done
done

python3 - "$results" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    b, f, user, sys_ = line.split()
    runs.setdefault((f, b), []).append(float(user) + float(sys_))
boards = {}
for (f, b), cpu in runs.items():
    if f not in boards:
        boards[f] = sum(1 for _ in open(f))
    m = statistics.median(cpu)
    print(f"{f.rsplit('/', 1)[-1]}  {b}: median {m:.3f} CPU s over {len(cpu)} runs "
          f"({min(cpu):.3f}-{max(cpu):.3f}), {boards[f] / m:,.0f} boards/s")
EOF
