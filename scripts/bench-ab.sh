#!/usr/bin/env bash
# Old breaker against new, class by class: breaks each class of a table with both binaries
# in turn (A B B A ..., ROUNDS rounds of each), checks that both find the same candidates
# (`break-class --candidates`: every candidate with its bound and Score, and the counts of
# candidates, scored boards and results; not the figures of the work, such as nodes),
# and prints each class's new/old ratio of CPU seconds (user + system, whole process: the
# median over the rounds) and peak RSS, then the geometric mean over all classes.
#
#   scripts/bench-ab.sh OLD NEW [TSV] [CLASS_ID ...]    (default TSV:
#                                   refdata/reference-4x4-classes.tsv, every class)
#
# TSV has '#' comment lines, a header line, then `id <tab> ... <tab> class` lines (the
# class's letter sets last, as the reference table has them). SIZE (default 4x4) and SCORE
# (default 3500) are given to every break-class; BREAK_ARGS adds options; ROUNDS (default 3)
# is the rounds per binary. Pin the script to one core (taskset -c 1 scripts/bench-ab.sh ...) and keep other
# work off it: the two binaries then share the same machine state, whatever the day's speed.
# Exit status: 0 if every class gave the same candidates with both, 1 if one did not, 2 on
# bad arguments.
{
set -euo pipefail
CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "scripts/${0##*/}"; }
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then usage; exit 0; fi
if [[ $# -lt 2 ]]; then usage >&2; exit 2; fi
old=$(from_caller "$1") new=$(from_caller "$2")
shift 2
tsv=refdata/reference-4x4-classes.tsv
if [[ $# -gt 0 && ! "$1" =~ ^[0-9]+$ ]]; then
    tsv=$(from_caller "$1")
    shift
fi
SIZE=${SIZE:-4x4} SCORE=${SCORE:-3500} ROUNDS=${ROUNDS:-3}
read -r -a break_args <<< "${BREAK_ARGS:-}"
for bin in "$old" "$new"; do
    [[ -x "$bin" ]] || { echo "bench-ab: no binary at $bin" >&2; exit 2; }
done
[[ -r "$tsv" ]] || { echo "bench-ab: cannot read $tsv" >&2; exit 2; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "bench-ab: ROUNDS must be a positive number" >&2; exit 2; }
wanted=" $* "
table_ids=" $( { grep -v '^#' "$tsv" || true; } | tail -n +2 | cut -f1 | tr '\n' ' ') "
for id in "$@"; do
    [[ "$table_ids" == *" $id "* ]] || { echo "bench-ab: class $id is not in $tsv" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Breaks class $2 with binary $1 once; appends "cpu_seconds peak_kib" to $3, and leaves the
# output's lines about candidates and results in $3.out. Timed by Python's getrusage of the child (Python
# is on every machine this runs on; GNU time and bc need not be).
run_once() {
    local timing
    # shellcheck disable=SC2086 # the class is its letter sets, one argument each
    timing=$(python3 - "$3.out" "$1" break-class --size "$SIZE" --score "$SCORE" --candidates \
        "${break_args[@]}" $2 <<'PY'
import resource, subprocess, sys
out, cmd = sys.argv[1], sys.argv[2:]
done = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
with open(out, "wb") as f:
    keep = (b"class", b"mirror", b"broken", b"candidates", b"candidate", b"largest_demulti",
            b"scored", b"results")
    f.writelines(l for l in done.stdout.splitlines(True) if l.split(b":")[0] in keep)
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(use.ru_utime + use.ru_stime, use.ru_maxrss)
sys.exit(done.returncode)
PY
    ) || { echo "bench-ab: $1 failed on class: $2" >&2; exit 2; }
    echo "$timing" >> "$3"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-10s %9s %9s %7s %9s %9s %6s %s\n' class old_s new_s ratio old_MiB new_MiB mem output
differ=0
: > "$work/ratios"
# `|| [[ -n $id ]]`: a last line without its newline is a class too.
while IFS=$'\t' read -r id rest || [[ -n "$id" ]]; do
    [[ -z "$id" ]] && continue
    [[ "$wanted" != "  " && "$wanted" != *" $id "* ]] && continue
    class=${rest##*$'\t'}
    : > "$work/a"; : > "$work/b"
    for ((r = 0; r < ROUNDS; r++)); do
        # A B in even rounds, B A in odd ones: neither binary always runs first.
        if ((r % 2 == 0)); then
            run_once "$old" "$class" "$work/a"; run_once "$new" "$class" "$work/b"
        else
            run_once "$new" "$class" "$work/b"; run_once "$old" "$class" "$work/a"
        fi
    done
    a_s=$(cut -d' ' -f1 "$work/a" | median) b_s=$(cut -d' ' -f1 "$work/b" | median)
    a_k=$(cut -d' ' -f2 "$work/a" | median) b_k=$(cut -d' ' -f2 "$work/b" | median)
    same=same
    cmp -s "$work/a.out" "$work/b.out" || { same=DIFFERENT; differ=1; }
    awk -v id="$id" -v a="$a_s" -v b="$b_s" -v ak="$a_k" -v bk="$b_k" -v same="$same" \
        -v ratios="$work/ratios" 'BEGIN {
            printf "%-10s %9.3f %9.3f %7.3f %9.1f %9.1f %6.2f %s\n", id, a, b, b / a,
                ak / 1024, bk / 1024, bk / ak, same
            print b / a >> ratios
        }'
done < <( { grep -v '^#' "$tsv" || true; } | tail -n +2)
[[ -s "$work/ratios" ]] || { echo "bench-ab: no class in $tsv" >&2; exit 2; }
awk '{ s += log($1); n++ } END { printf "geometric mean new/old: %.3f over %d classes\n", exp(s / n), n }' "$work/ratios"
if ((differ)); then
    echo "bench-ab: the two binaries' candidates differ on some class (DIFFERENT above)" >&2
    exit 1
fi
exit 0
}
