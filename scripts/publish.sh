#!/usr/bin/env bash
# Proves a board size for one word list and publishes the result in results/: one file in
# the format of refdata/ (`board: score`, canonical, best first) headed by comment lines
# that make it reproducible, and the table of results/README.md rebuilt from every file.
#
#   scripts/publish.sh SIZE LIST [SCORE]
#
# LIST is enable2k (built in) or the NAME of NAME.txt in wordlists/ (yawl ships there) or else
# in ../shared/wordlists/ (lists that may not be copied into the repository: naspa2023, ospd5,
# sowpods, twl06), or in WORDLISTS=DIR alone. SCORE defaults as in proof.sh for standard
# scoring (3x3: 500, 3x4: 1500). SCORING=words (or fibonacci, boojum, pow2, a table FILE)
# proves another scoring; give SCORE then (for words it is a number of words). JOBS as in
# proof.sh. The run directory is shards/publish-SIZE-LIST-SCORING-SCORE: rerunning resumes
# it. The file is
# results/SIZE-LIST-SCORING-SCORE.txt (a table FILE is named table-BASENAME).
#
#   scripts/publish.sh --table     only rebuilds the tables of results/README.md and README.md
#
# RESULTS= another folder for the files and their README (then README.md is left alone);
# RUNS= another folder for the run directories (default shards/), or RUN= the run directory
# itself (e.g. one broken on a cluster: a finished run is merged and published as it is).
# PARTITION and SHARDS pass through to proof.sh.
set -euo pipefail
# One brace group, read whole before it runs: the proof below runs for hours, and an edit of
# this file meanwhile must not change what the rest of this run does.
{
# Paths the caller gives are taken from the caller's directory, before the cd below.
CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."
usage() { sed -n '2,22p' "scripts/${0##*/}" | sed 's/^# \{0,1\}//'; }
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then usage; exit 0; fi
if [[ -n "${RESULTS:-}" ]]; then RESULTS=$(from_caller "$RESULTS"); else RESULTS=results; fi
if [[ -n "${RUNS:-}" ]]; then RUNS=$(from_caller "$RUNS"); else RUNS=shards; fi
if [[ -n "${WORDLISTS:-}" ]]; then WORDLISTS=$(from_caller "$WORDLISTS"); fi
if [[ "${BOGGLEMAX:-}" == */* ]]; then BOGGLEMAX=$(from_caller "$BOGGLEMAX"); fi
BOGGLEMAX=${BOGGLEMAX:-target/release/bogglemax}
# A bare name is looked up on PATH, as the other scripts do.
command -v "$BOGGLEMAX" > /dev/null || { echo "publish.sh: $BOGGLEMAX not found; run 'make build'" >&2; exit 2; }

# Rebuilds the table between the `<!-- results table -->` markers of results/README.md and of
# README.md (when RESULTS is the repository's results/) from the headers of the results
# files; sets table_failed (and rebuilds the others) if a README lacks the markers. Called
# plainly, not in a condition, so that `set -e` stops it at any other failure.
table_failed=0
write_table() {
    local rows="" f
    for f in "$RESULTS"/*-*.txt; do
        [[ -e "$f" ]] || continue
        local size list scoring score boards cpu best best_score grid
        field() { sed -n "s/^# $1: //p" "$f" | head -n 1; }
        size=$(field size)
        if [[ -z "$size" ]]; then
            echo "publish.sh: $f has no results header (# size: ...); left out of the table" >&2
            continue
        fi
        scoring=$(field scoring); score=$(field score)
        list=$(field wordlist | cut -d' ' -f1); boards=$(field boards); cpu=$(field "cpu seconds")
        best=$(sed -n '/^[^#]/{s/:.*//p;q}' "$f")
        best_score=$(sed -n '/^[^#]/{s/.*: //p;q}' "$f")
        # The best board, its grid and its score; "none" and two empty cells for a proof
        # that found no board.
        local board_cells="none | | |"
        if [[ -n "$best" ]]; then
            grid=$("$BOGGLEMAX" show --size "$size" "$best" | sed 's/ /\&nbsp;/g' | paste -sd'|' | sed 's/|/<br>/g')
            board_cells="\`$best\` | <code>$grid</code> | $best_score |"
        fi
        rows+="| $size | $list | $scoring | $score | $boards | $board_cells $cpu | [$(basename "$f")](@DIR@$(basename "$f")) |"$'\n'
    done
    local table
    table="| size | word list | scoring | S | boards ≥ S | best board | as a grid | its score | CPU seconds | file |"$'\n'
    table+="| --- | --- | --- | ---: | ---: | --- | --- | ---: | ---: | --- |"$'\n'
    table+="$rows"
    local readme dir readmes=("$RESULTS/README.md")
    # The repository's own results/, however RESULTS names it, also fills README.md's table.
    [[ "$(cd "$RESULTS" && pwd -P)" == "$(cd results 2> /dev/null && pwd -P)" ]] && readmes+=(README.md)
    if [[ ! -e "$RESULTS/README.md" ]]; then
        printf '# Results\n\n<!-- results table -->\n<!-- /results table -->\n' > "$RESULTS/README.md"
    fi
    for readme in "${readmes[@]}"; do
        dir=results/
        [[ "$readme" == "$RESULTS/README.md" ]] && dir=
        if ! grep -qx '<!-- results table -->' "$readme" || ! grep -qx '<!-- /results table -->' "$readme"; then
            echo "publish.sh: $readme lacks the lines <!-- results table --> and <!-- /results table -->; its table is not rebuilt" >&2
            table_failed=1
            continue
        fi
        # The table goes through the environment: awk -v would read its backslashes.
        TABLE=${table//@DIR@/$dir} awk '
            /^<!-- results table -->$/ { print; printf "%s", ENVIRON["TABLE"]; skip = 1; next }
            /^<!-- \/results table -->$/ { skip = 0 }
            !skip { print }' "$readme" > "$readme.tmp"
        mv "$readme.tmp" "$readme"
        echo "rebuilt the results table of $readme"
    done
}

if [[ "${1:-}" == --table ]]; then
    [[ -d "$RESULTS" ]] || { echo "publish.sh: no results folder $RESULTS (RESULTS= names it)" >&2; exit 2; }
    write_table
    [[ $table_failed == 0 ]] || exit 2
    exit 0
fi
if [[ $# -lt 2 || $# -gt 3 ]]; then usage >&2; exit 2; fi
SIZE=$1 LIST=$2
SCORING=${SCORING:-standard}
[[ "$LIST" =~ ^[A-Za-z0-9._+-]+$ ]] || { echo "publish.sh: '$LIST' is not a word list name (letters, digits, . _ + -; for DIR/NAME.txt give NAME and WORDLISTS=DIR)" >&2; exit 2; }
# A scoring table file is named by the caller's path; the files are named by its base name.
scoring_name=$SCORING
# A scoring's name stays a name even beside a file of that name (Scoring::NAMED).
named_scorings=" standard words pow2 fibonacci boojum "
if [[ "$named_scorings" != *" $SCORING "* && -f "$(from_caller "$SCORING")" ]]; then
    SCORING=$(from_caller "$SCORING")
    scoring_name=table-$(basename "${SCORING%.*}" | tr -c 'A-Za-z0-9._+\n-' _)
fi
case "$SCORING:$SIZE" in
    standard:3x3) SCORE=${3:-500} ;;
    standard:3x4) SCORE=${3:-1500} ;;
    *) [[ -n "${3:-}" ]] ||
           { echo "publish.sh: give S for size $SIZE and scoring $scoring_name (the third argument)" >&2; exit 2; }
       SCORE=$3 ;;
esac
# The folders a list is looked for in, in turn.
if [[ -n "${WORDLISTS:-}" ]]; then folders=("$WORDLISTS"); else folders=(wordlists ../shared/wordlists); fi
lists=${folders[0]}
for folder in "${folders[@]}"; do
    if [[ -f "$folder/$LIST.txt" ]]; then lists=$folder; break; fi
done
if [[ "$LIST" == enable2k ]]; then
    unset WORDLIST
    [[ ! -e "$lists/enable2k.txt" || -z "${WORDLISTS:-}" ]] ||
        echo "publish.sh: enable2k is the built-in list; $lists/enable2k.txt is not read (publish a list of your own under another name)" >&2
else
    WORDLIST=$lists/$LIST.txt
    if [[ ! -f "$WORDLIST" ]]; then
        names=$(for folder in "${folders[@]}"; do for l in "$folder"/*.txt; do
                    if [[ -f "$l" ]]; then basename "$l" .txt; fi; done; done | sort -u | paste -sd' ')
        hint=
        [[ "$LIST" == *.txt ]] && hint=" (give the name without .txt: ${LIST%.txt})"
        where=$(for folder in "${folders[@]}"; do realpath -m "$folder" 2> /dev/null || printf '%s\n' "$folder"; done | paste -sd' ')
        echo "publish.sh: no word list $LIST.txt in $where$hint; the names there: ${names:-none} (WORDLISTS= names another folder; enable2k is built in)" >&2
        exit 2
    fi
    export WORDLIST
fi
if [[ -n "${RUN:-}" ]]; then RUN=$(from_caller "$RUN"); else RUN=$RUNS/publish-$SIZE-$LIST-$scoring_name-$SCORE; fi
OUT=$RESULTS/$SIZE-$LIST-$scoring_name-$SCORE.txt
# The command that reproduces the file, run from the repository (paths in it are absolute
# where the caller gave them).
command="scripts/publish.sh $SIZE $LIST $SCORE"
[[ "$SCORING" == standard ]] || command="SCORING=$(printf %q "$SCORING") $command"
[[ -z "${PARTITION:-}" ]] || command="PARTITION=$(printf %q "$PARTITION") $command"
[[ -z "${SHARDS:-}" ]] || command="SHARDS=$(printf %q "$SHARDS") $command"
[[ -z "${WORDLISTS:-}" ]] || command="WORDLISTS=$(printf %q "$WORDLISTS") $command"
version=$("$BOGGLEMAX" --version | cut -d' ' -f2)

RUN=$RUN SCORE=$SCORE SCORING=$SCORING TOP=10 BOGGLEMAX=$BOGGLEMAX scripts/proof.sh "$SIZE"

summary=$RUN/summary.txt
grep -qx 'proof: complete' "$summary" || { echo "publish.sh: $RUN is not a complete proof" >&2; exit 1; }
get() { sed -n "s/^$1: //p" "$summary" | head -n 1; }
sha=$(get wordlist | sed -n 's/.*(sha256 \([0-9a-f]*\)).*/\1/p')
[[ "$sha" =~ ^[0-9a-f]{64}$ ]] || { echo "publish.sh: no word list sha256 in $summary" >&2; exit 1; }
# The commit checked out when the file is written: build the binary from it first
# (`make build`).
commit=$(git rev-parse --short=12 HEAD 2> /dev/null || echo unknown)
# The binary's own sources: a change to a script or a document does not change a proof.
[[ -z "$(git status --porcelain --untracked-files=no -- src Cargo.toml Cargo.lock build.rs 2> /dev/null)" ]] ||
    commit+="+changes"
boards=$(($(wc -l < "$RUN/results.csv") - 1))
mkdir -p "$RESULTS"
{
    echo "# Every $SIZE board with $scoring_name score $SCORE or more, proven by bogglemax: canonical, best first."
    echo "# command: $command"
    echo "# size: $SIZE"
    echo "# partition: $(get partition)"
    echo "# score: $SCORE"
    echo "# scoring: $(get scoring)"
    echo "# wordlist: $LIST (sha256 $sha)"
    echo "# bogglemax: $version, commit $commit"
    echo "# classes: $(get classes)"
    echo "# cpu seconds: $(get 'cpu seconds')"
    echo "# date: $(date -u +%Y-%m-%d)"
    echo "# boards: $boards"
    tail -n +2 "$RUN/results.csv" | awk -F, '{ print $1 ": " $2 }'
} > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "wrote $OUT ($boards board$( ((boards == 1)) || echo s))"
write_table
[[ $table_failed == 0 ]] || exit 2
exit 0
}
