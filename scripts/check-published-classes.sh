#!/usr/bin/env bash
# Breaks the classes of a 4x4 partition that hold published boards and checks that each
# class's results are exactly the published boards it holds: the soundness check a new
# partition needs before it may become a proof's default, without the whole proof.
#
#   scripts/check-published-classes.sh PARTITION [CLASS_ID...]
#
# PARTITION is a partition as `bogglemax plan` takes it. The published boards are the ENABLE2K
# 4x4 boards of 3,500 or more (refdata/best-boards-4x4.enable2k.txt, or REFDATA).
# Without class ids it breaks every canonical class holding one of them; with ids, only those
# (each must hold one). Each class is broken by `break-class --score 3500` on one core
# and its CPU seconds and peak RSS are printed with the verdict. CORES (default CORE, default
# 0) lists the cores to use, e.g. CORES="0 1": one break-class on each at a time, each core
# taking the next class or piece not yet taken, so several go at once. BOGGLEMAX
# (default target/release/bogglemax) is the binary; logs go to LOGDIR (default a new
# temporary directory, printed). Exit status 0 when every class checked gives exactly its
# published boards, 1 when one does not, 2 on bad input (no binary, no refdata, a wrong id).
#
# A class that takes hours can be broken in pieces that a stopped run does not lose:
# SPLIT_CELL=N (a cell number, column-major) breaks each class as one `break-class` per letter
# of cell N, that cell held to the letter. The pieces partition the class, so their results
# together are the class's (a piece is not its own mirror image where the class was, so both
# boards of a pair may come out; their canonical forms are counted once); the CPU seconds
# printed are the pieces' sum and the memory their largest. Splitting the first cell of the
# class's `cell_order:` costs about what its top split does in one run. Every class or piece
# whose log in LOGDIR is complete (written under a temporary name, renamed when it ends) is
# not broken again: run the same command with the same LOGDIR to go on after a stop.
{
set -euo pipefail
# Paths the caller gives are taken from the caller's directory, before the cd below.
CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."
usage() { sed -n '2,27p' "scripts/${0##*/}" | sed 's/^# \{0,1\}//'; }
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then usage; exit 0; fi
if [[ $# -lt 1 ]]; then usage >&2; exit 2; fi
partition=$1
shift
if [[ "${BOGGLEMAX:-}" == */* ]]; then BOGGLEMAX=$(from_caller "$BOGGLEMAX"); fi
BOGGLEMAX=${BOGGLEMAX:-target/release/bogglemax}
if [[ -n "${REFDATA:-}" ]]; then REFDATA=$(from_caller "$REFDATA"); fi
REFDATA=${REFDATA:-refdata/best-boards-4x4.enable2k.txt}
if [[ -n "${LOGDIR:-}" ]]; then LOGDIR=$(from_caller "$LOGDIR"); fi
read -r -a cores <<< "${CORES:-${CORE:-0}}"
for core in "${cores[@]}"; do
    [[ "$core" =~ ^[0-9]+$ ]] || { echo "error: CORES must be core numbers: ${CORES:-$CORE}" >&2; exit 2; }
done
[[ ${#cores[@]} -gt 0 ]] || { echo "error: CORES is empty" >&2; exit 2; }
[[ -x "$BOGGLEMAX" ]] || { echo "error: no binary at $BOGGLEMAX (make build)" >&2; exit 2; }
[[ -r "$REFDATA" ]] || { echo "error: cannot read the published boards at $REFDATA" >&2; exit 2; }
SPLIT_CELL=${SPLIT_CELL:-}
[[ -z "$SPLIT_CELL" || "$SPLIT_CELL" =~ ^([0-9]|1[0-5])$ ]] ||
    { echo "error: SPLIT_CELL must be a cell number of a 4x4 board, 0-15: $SPLIT_CELL" >&2; exit 2; }
# The partition checked before a LOGDIR records it (bogglemax says what is wrong).
"$BOGGLEMAX" class --size 4x4 --partition "$partition" --id 0 > /dev/null || exit 2
LOGDIR=${LOGDIR:-$(mktemp -d)}
mkdir -p "$LOGDIR"
echo "logs: $LOGDIR"
# A LOGDIR goes on only with the partition it was started with: class ids are per partition.
if [[ -e "$LOGDIR/partition" ]]; then
    [[ "$(cat "$LOGDIR/partition")" == "$partition" ]] ||
        { echo "error: $LOGDIR holds the logs of another partition: $(cat "$LOGDIR/partition")" >&2; exit 2; }
else
    echo "$partition" > "$LOGDIR/partition"
fi

# Each published board, canonical, with the canonical id of its class: "ID BOARD SCORE".
published=$LOGDIR/published.txt
: > "$published"
while read -r board score; do
    board=${board%:}
    id=$("$BOGGLEMAX" class --size 4x4 --partition "$partition" "$board" |
        sed -n 's/^canonical_id: //p')
    [[ -n "$id" ]] || { echo "error: no class id for $board" >&2; exit 1; }
    echo "$id $("$BOGGLEMAX" canon --size 4x4 "$board" | sed 's/:.*//') $score" >> "$published"
done < "$REFDATA"

ids=("$@")
if [[ ${#ids[@]} -eq 0 ]]; then
    mapfile -t ids < <(cut -d' ' -f1 "$published" | sort -n -u)
fi

# `break_piece CORE NAME CELL...` breaks one piece (the whole class, or it with the split
# cell held to one letter) on core CORE into LOGDIR/NAME.out and NAME.time, unless an
# earlier run finished it.
break_piece() {
    local core=$1 name=$2
    shift 2
    if [[ -s "$LOGDIR/$name.out" && -s "$LOGDIR/$name.time" ]]; then
        echo "$name: done earlier"
        return 0
    fi
    /usr/bin/time -f '%U %S %M' -o "$LOGDIR/$name.time.part" taskset -c "$core" \
        "$BOGGLEMAX" break-class --size 4x4 --score 3500 "$@" > "$LOGDIR/$name.out.part"
    mv "$LOGDIR/$name.out.part" "$LOGDIR/$name.out"
    mv "$LOGDIR/$name.time.part" "$LOGDIR/$name.time"
    echo "$name: done on core $core ($(cut -d' ' -f1 "$LOGDIR/$name.time") user s)"
}

# Every piece to break, "NAME CELL..." a line, and each class's pieces' names.
declare -A pieces_of=()
jobs=()
for id in "${ids[@]}"; do
    [[ "$id" =~ ^[0-9]+$ ]] || { echo "error: not a class id: $id" >&2; exit 2; }
    grep -q "^$id " "$published" || { echo "error: class $id holds no published board" >&2; exit 2; }
    class=$("$BOGGLEMAX" class --size 4x4 --partition "$partition" --id "$id" | sed -n 's/^class: //p')
    read -r -a cells <<< "$class"
    if [[ -z "$SPLIT_CELL" ]]; then
        jobs+=("$id ${cells[*]}")
        pieces_of[$id]=$id
    else
        letters=${cells[$SPLIT_CELL]}
        pieces_of[$id]=
        for ((k = 0; k < ${#letters}; k++)); do
            piece=("${cells[@]}")
            piece[SPLIT_CELL]=${letters:k:1}
            jobs+=("$id.$SPLIT_CELL${letters:k:1} ${piece[*]}")
            pieces_of[$id]+=" $id.$SPLIT_CELL${letters:k:1}"
        done
    fi
done

# One worker a core; each takes the next piece no worker has claimed (a claim is a
# directory made in this run's own claims folder, so a stopped run leaves none behind). A
# break-class that fails ends its worker; the others go on, and the script then exits 1.
claims=$(mktemp -d)
# Every process a worker started (its break-class under way too), listed before any is
# stopped, so that a worker cannot start its next piece in between.
tree() {
    local child
    echo "$1"
    for child in $(pgrep -P "$1"); do tree "$child"; done
}
stop_workers() {
    local pids=() worker
    # `jobs -p`: the workers still running (a finished one's pid may be another's by now).
    for worker in $(jobs -p); do
        mapfile -t -O "${#pids[@]}" pids < <(tree "$worker")
    done
    [[ ${#pids[@]} -eq 0 ]] || kill "${pids[@]}" 2> /dev/null || true
}
trap 'stop_workers; rm -rf "$claims"' EXIT
trap 'exit 130' INT TERM
workers=()
for core in "${cores[@]}"; do
    (
        for job in "${jobs[@]}"; do
            read -r -a words <<< "$job"
            mkdir "$claims/${words[0]}" 2> /dev/null || continue
            break_piece "$core" "${words[@]}"
        done
    ) &
    workers+=($!)
done
for worker in "${workers[@]}"; do
    wait "$worker" || { echo "error: a break-class failed (its log is in $LOGDIR)" >&2; exit 1; }
done

failed=0
for id in "${ids[@]}"; do
    read -r -a pieces <<< "${pieces_of[$id]}"
    # The breaker prints result boards as they lie in the class; compare canonical forms.
    : > "$LOGDIR/$id.results"
    cpu=0
    rss=0
    for piece in "${pieces[@]}"; do
        sed -n 's/^result: \([a-z]*\) .*score=\([0-9]*\)$/\1 \2/p' "$LOGDIR/$piece.out" >> "$LOGDIR/$id.results"
        read -r user sys kib < "$LOGDIR/$piece.time"
        cpu=$(awk -v c="$cpu" -v u="$user" -v s="$sys" 'BEGIN { print c + u + s }')
        if ((kib > rss)); then rss=$kib; fi
    done
    # A whole class's boards are distinct (a board found twice is a fault to show), pieces'
    # may repeat a mirror pair's canonical form.
    unique=()
    [[ -n "$SPLIT_CELL" ]] && unique=(-u)
    paste -d' ' <(cut -d' ' -f1 "$LOGDIR/$id.results" | "$BOGGLEMAX" canon --size 4x4 | sed 's/:.*//') \
        <(cut -d' ' -f2 "$LOGDIR/$id.results") | sort "${unique[@]}" > "$LOGDIR/$id.found"
    grep "^$id " "$published" | cut -d' ' -f2,3 | sort > "$LOGDIR/$id.expected"
    mib=$((rss / 1024))
    cpu=$(awk -v c="$cpu" 'BEGIN { printf "%.1f", c }')
    if cmp -s "$LOGDIR/$id.found" "$LOGDIR/$id.expected"; then
        echo "class $id: $(wc -l < "$LOGDIR/$id.found") boards, the published ones (${cpu} CPU s, ${mib} MiB)"
    else
        failed=1
        echo "class $id: DIFFERS from the published boards (${cpu} CPU s, ${mib} MiB):"
        diff "$LOGDIR/$id.expected" "$LOGDIR/$id.found" | sed 's/^/    /' || true
    fi
done
exit "$failed"
}
