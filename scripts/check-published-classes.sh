#!/usr/bin/env bash
# Breaks the classes of a 4x4 partition that hold published boards and checks that each
# class's results are exactly the published boards it holds: the soundness check a new
# partition needs before it may become a proof's default, without the whole proof.
#
#   scripts/check-published-classes.sh PARTITION [CLASS_ID...]
#
# PARTITION is a partition as `bogglemax plan` takes it. The published boards are the ENABLE2K
# 4x4 boards of 3,500 or more (../shared/refdata/best-boards-4x4.enable2k.txt, or REFDATA).
# Without class ids it breaks every canonical class holding one of them; with ids, only those
# (each must hold one). Each class is broken by `break-class --score 3500` on one core
# (CORE, default 0) and its CPU seconds and peak RSS are printed with the verdict. BOGGLEMAX
# (default target/release/bogglemax) is the binary; logs go to LOGDIR (default a new
# temporary directory, printed). Exit status 0 when every class checked gives exactly its
# published boards, 1 when one does not, 2 on bad input (no binary, no refdata, a wrong id).
{
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: $0 PARTITION [CLASS_ID...]" >&2; exit 2; }
partition=$1
shift
BOGGLEMAX=${BOGGLEMAX:-target/release/bogglemax}
REFDATA=${REFDATA:-../shared/refdata/best-boards-4x4.enable2k.txt}
CORE=${CORE:-0}
[[ -x "$BOGGLEMAX" ]] || { echo "error: no binary at $BOGGLEMAX (make build)" >&2; exit 2; }
[[ -r "$REFDATA" ]] || { echo "error: cannot read the published boards at $REFDATA" >&2; exit 2; }
LOGDIR=${LOGDIR:-$(mktemp -d)}
mkdir -p "$LOGDIR"
echo "logs: $LOGDIR"

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
failed=0
for id in "${ids[@]}"; do
    [[ "$id" =~ ^[0-9]+$ ]] || { echo "error: not a class id: $id" >&2; exit 2; }
    grep -q "^$id " "$published" || { echo "error: class $id holds no published board" >&2; exit 2; }
    class=$("$BOGGLEMAX" class --size 4x4 --partition "$partition" --id "$id" | sed -n 's/^class: //p')
    # shellcheck disable=SC2086 # the class is one letter set a word
    /usr/bin/time -f '%U %S %M' -o "$LOGDIR/$id.time" taskset -c "$CORE" \
        "$BOGGLEMAX" break-class --size 4x4 --score 3500 $class > "$LOGDIR/$id.out"
    # The breaker prints result boards as they lie in the class; compare canonical forms.
    sed -n 's/^result: \([a-z]*\) .*score=\([0-9]*\)$/\1 \2/p' "$LOGDIR/$id.out" > "$LOGDIR/$id.results"
    paste -d' ' <(cut -d' ' -f1 "$LOGDIR/$id.results" | "$BOGGLEMAX" canon --size 4x4 | sed 's/:.*//') \
        <(cut -d' ' -f2 "$LOGDIR/$id.results") | sort > "$LOGDIR/$id.found"
    grep "^$id " "$published" | cut -d' ' -f2,3 | sort > "$LOGDIR/$id.expected"
    read -r user sys rss < "$LOGDIR/$id.time"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
    mib=$((rss / 1024))
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
