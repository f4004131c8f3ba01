#!/usr/bin/env bash
# The 4x4 partition with consonant edges merged, against the default one, class by class at
# the same hours: breaks each merged-edge class given on one core and, at the same time, the
# default-partition classes it stands for (its children: every consonant edge split back
# into `bcdfgmpqvwxz` and `hklnrsty`, each child in its canonical form, each distinct
# canonical class once, as a proof breaks them) on the other core.
#
#   scripts/bench-merged-edges.sh OUTDIR MERGED_ID...
#
# Writes OUTDIR/merged.tsv and OUTDIR/children.tsv, one line a class broken: the merged id,
# the class id, user and system CPU seconds and peak RSS (KiB) of the whole `break-class
# --score 3500` process, its tree nodes and candidates. A line is written when its class
# finishes, so the script can be stopped and run again with the same arguments: classes
# already in the files are not broken again. Give the merged ids in the order an estimate
# journal drew them (its first K), and `scripts/merged-edges-ratio.py` turns the two files
# into the two partitions' estimates over those draws. OUTDIR/children-done lists the merged
# ids whose children are all broken.
#
# BOGGLEMAX (default target/release/bogglemax) is the binary; CORES (default "0 1") the
# merged side's core and the children's. Nothing else should run on those cores.
{
set -euo pipefail
# Paths the caller gives are taken from the caller's directory, before the cd below.
CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."
usage() { sed -n '2,20p' "scripts/${0##*/}" | sed 's/^# \{0,1\}//'; }
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then usage; exit 0; fi
if [[ $# -lt 2 ]]; then usage >&2; exit 2; fi
out=$(from_caller "$1")
shift
if [[ "${BOGGLEMAX:-}" == */* ]]; then BOGGLEMAX=$(from_caller "$BOGGLEMAX"); fi
BOGGLEMAX=${BOGGLEMAX:-target/release/bogglemax}
read -r core_merged core_children <<< "${CORES:-0 1}"
[[ -x "$BOGGLEMAX" ]] || { echo "error: no binary at $BOGGLEMAX (make build)" >&2; exit 1; }
merged_partition="aeijou bcdfgmpqvwxz hklnrsty, edge:aeijou bcdfghklmnpqrstvwxyz, corner:abcdefghijklmnopqrstuvwxyz"
default_partition="aeijou bcdfgmpqvwxz hklnrsty, corner:abcdefghijklmnopqrstuvwxyz"
# Every id checked before any work (bogglemax says what is wrong with one).
for id in "$@"; do
    [[ "$id" =~ ^[0-9]+$ ]] || { echo "error: not a class id: $id" >&2; exit 2; }
    "$BOGGLEMAX" class --size 4x4 --partition "$merged_partition" --id "$id" > /dev/null || exit 2
done
mkdir -p "$out"

# The letter sets of class `$2` of partition `$1`, as `break-class` takes them.
class_of() {
    "$BOGGLEMAX" class --size 4x4 --partition "$1" --id "$2" | sed -n 's/^class: //p'
}

# The distinct canonical ids of the default-partition children of merged class `$1`: a
# board of each child (the first letter of each cell's set, `b` or `h` on a merged edge)
# and its class's canonical id.
children_of() {
    local -a cells boards=("")
    read -r -a cells <<< "$(class_of "$merged_partition" "$1")"
    local set board
    for set in "${cells[@]}"; do
        local -a next=()
        for board in "${boards[@]}"; do
            if [[ "$set" == bcdfghklmnpqrstvwxyz ]]; then
                next+=("${board}b" "${board}h")
            else
                next+=("$board${set:0:1}")
            fi
        done
        boards=("${next[@]}")
    done
    for board in "${boards[@]}"; do
        "$BOGGLEMAX" class --size 4x4 --partition "$default_partition" "$board" |
            sed -n 's/^canonical_id: //p'
    done | sort -nu
}

# Breaks class `$3` of partition `$2` on core `$1` unless file `$4` has it (for merged id `$5`).
break_one() {
    local core=$1 partition=$2 id=$3 file=$4 merged=$5
    grep -q "^$merged	$id	" "$file" 2>/dev/null && return 0
    local cells tmp
    cells=$(class_of "$partition" "$id")
    # Scratch in OUTDIR, not /tmp: a stopped run leaves it where the next one overwrites it.
    tmp=$out/.$(basename "$file" .tsv).part
    # GNU time's %U %S %M: user and system seconds, peak RSS (KiB) of the whole process. In
    # the background and waited for, so that a signal stops the script at once (bash runs a
    # trap only once a foreground command has finished).
    # shellcheck disable=SC2086 # the letter sets are separate arguments
    /usr/bin/time -f '%U	%S	%M' -o "$tmp.time" taskset -c "$core" "$BOGGLEMAX" break-class \
        --size 4x4 --score 3500 $cells > "$tmp" &
    wait $!
    printf '%s\t%s\t%s\t%s\t%s\n' "$merged" "$id" "$(cat "$tmp.time")" \
        "$(sed -n 's/^nodes: //p' "$tmp")" "$(sed -n 's/^candidates: //p' "$tmp")" >> "$file"
    rm -f "$tmp" "$tmp.time"
}

header='merged_id	class_id	user_s	system_s	maxrss_kb	nodes	candidates'
for f in merged children; do
    [[ -s "$out/$f.tsv" ]] || echo "$header" > "$out/$f.tsv"
done
# Stops a process and everything it started (the break-class under way too).
kill_tree() {
    local child
    for child in $(pgrep -P "$1"); do
        kill_tree "$child"
    done
    kill "$1" 2>/dev/null || true
}

# On any exit (an error, a signal to this script alone, or Ctrl-C), everything it started
# stops too: the merged side and the break-class under way on either core.
stop_all() {
    local child
    for child in $(pgrep -P $$); do
        kill_tree "$child"
    done
}
trap stop_all EXIT
trap 'exit 130' INT TERM
(
    for m in "$@"; do
        break_one "$core_merged" "$merged_partition" "$m" "$out/merged.tsv" "$m"
    done
) &
merged_side=$!
for m in "$@"; do
    children=$(children_of "$m") && [[ -n "$children" ]] ||
        { echo "error: cannot list the children of merged class $m" >&2; exit 2; }
    for child in $children; do
        break_one "$core_children" "$default_partition" "$child" "$out/children.tsv" "$m"
    done
    grep -qx "$m" "$out/children-done" 2>/dev/null || echo "$m" >> "$out/children-done"
done
wait "$merged_side"
echo "done: $out/merged.tsv, $out/children.tsv"
}
