#!/usr/bin/env bash
# Runs a whole proof on this machine: plan (or resume) a run, break every shard with
# `xargs -P`, merge, and print the result table.
#
#   scripts/proof.sh SIZE            e.g. scripts/proof.sh 3x3
#
# Environment (all optional): SCORE, SHARDS, JOBS (parallel workers, default: cores),
# WORDLIST (default: built-in ENABLE2K), SCORING (default standard), PARTITION, SWITCHOVER
# (default 8 x SCORE for 3x3, 8/3 x SCORE for 3x4, else 9/4 x SCORE), RUN (run directory, default
# shards/proof-SIZE-SCORE, then -LIST for a WORDLIST and -NAME for a SCORING other than
# standard), BOGGLEMAX (binary, default target/release/bogglemax), TOP (rows
# of the table to print, default 50).
# PARTITION defaults to 'aeijou bcdfgmpqvwxz hklnrsty, corner:abcdefghijklmnopqrstuvwxyz';
# a new 4x4 run adds 'edge:aeijou bcdfghklmnpqrstvwxyz' (consonant edges merged: about 0.74
# of the CPU time, up to 3.7 GiB a class) when there are MERGED_EDGES_GIB (default 6) GiB of
# memory a job, and says which it chose.
# Rerunning after an interruption resumes where the run stopped, with the partition, shard
# count and switchover the run was planned with unless PARTITION, SHARDS or SWITCHOVER is
# given; SCORE, WORDLIST and SCORING must be given again as they were (they also name the
# default RUN). A run directory planned with other settings is refused.
# 4x4 (and any size with ESTIMATE=1; ESTIMATE=0 never): a new run is first estimated
# (`bogglemax estimate`, ESTIMATE_BUDGET seconds, default 180) and planned by the estimate's
# costs; a run projected past MAX_HOURS (default 48) of wall time on JOBS cores is planned but
# not started unless FORCE=1 (a run with no shard left to break is merged all the same).
# ESTIMATE_ONLY=1 prints the estimate and stops (`make estimate-4x4`).
set -euo pipefail
# The whole script is one brace group, read before it runs: a proof runs for hours, and bash
# reads a plain script as it goes, so editing this file under a running proof would make it
# run the new text from the old offset.
{
# Paths the caller gives are taken from the caller's directory, before the cd below.
CALLER=$PWD
from_caller() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$CALLER/$1" ;; esac; }
cd "$(dirname "$0")/.."

usage() { sed -n '2,25p' "scripts/${0##*/}" | sed 's/^# \{0,1\}//'; }
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then usage; exit 0; fi
if [[ $# -ne 1 ]]; then usage >&2; exit 2; fi
SIZE=${1/X/x}
# Checked first: the questions below (SCORE) depend on it.
[[ "$SIZE" =~ ^[1-6]x[1-6]$ ]] ||
    { echo "proof.sh: bad size '$SIZE': expected CxR with C and R from 1 to 6, e.g. 4x4 or 3x4" >&2; exit 2; }
# Numbers the caller sets are checked before bash arithmetic or xargs reads them.
need_count() {  # NAME VALUE: a whole number of at least 1
    [[ "$2" =~ ^[1-9][0-9]{0,8}$ ]] ||
        { echo "proof.sh: $1 must be a whole number of at least 1, not '$2'" >&2; exit 2; }
}
[[ -z "${SCORE:-}" ]] || need_count SCORE "$SCORE"
[[ -z "${JOBS:-}" ]] || need_count JOBS "$JOBS"
# TOP=0 prints the table's header alone, as before.
[[ -z "${TOP:-}" || "$TOP" =~ ^[0-9]{1,9}$ ]] ||
    { echo "proof.sh: TOP must be a whole number, not '$TOP'" >&2; exit 2; }
# MAX_HOURS=0 refuses every run the estimate gives a cost.
[[ -z "${MAX_HOURS:-}" || "$MAX_HOURS" =~ ^[0-9]{1,9}([.][0-9]{1,9})?$ ]] ||
    { echo "proof.sh: MAX_HOURS must be a number of hours, not '$MAX_HOURS'" >&2; exit 2; }
case "$SIZE" in
    # The switchover (branch by merging while a tree's bound is above it, then OrderlyBound)
    # is best at 9/4 x S on 4x4, plan's default, but smaller boards merge less at their best
    # (docs/NOTES-bench.md, "The switchover by board size"): on 3x3, 8 x S (4000 at 500,
    # above the bound of every ENABLE2K class of this partition, at most 1,865: each letter
    # of the top cell goes to OrderlyBound unmerged) took 0.74 of the time of 2 x S; on 3x4,
    # 8/3 x S (4000 at 1500) took 0.81 of it on 24 classes drawn by cost.
    # (An empty default_switchover leaves it to plan: 9/4 x S.)
    3x3) : "${SCORE:=500}"; default_switchover=$((SCORE * 8)); default_shards=16 ;;
    3x4) : "${SCORE:=1500}"; default_switchover=$((SCORE * 8 / 3)); default_shards=64 ;;
    4x4) : "${SCORE:=3500}"; default_switchover=; default_shards=1024 ;;
    *) [[ -n "${SCORE:-}" ]] ||
           { echo "proof.sh: set SCORE for size $SIZE (SCORE=N scripts/proof.sh $SIZE)" >&2; exit 2; }
       default_switchover=; default_shards=64 ;;
esac
JOBS=${JOBS:-$(nproc)}
# RUN and WORDLIST given by the caller are relative to the caller; the default RUN
# is under the repository.
# A SCORING that names a table file is a path too; a scoring's name stays a name even beside
# a file of that name (bogglemax's own rule: Scoring::NAMED).
named_scorings=" standard words pow2 fibonacci boojum "
if [[ -n "${SCORING:-}" && "$named_scorings" != *" $SCORING "* && -f "$(from_caller "$SCORING")" ]]; then
    SCORING=$(from_caller "$SCORING")
fi
# The default RUN names a word list and a scoring other than the defaults, so that a proof
# of another one does not find the default's run and refuse it.
tag() { local b; b=$(basename -- "$1"); printf -- '-%s' "$(tr -c 'A-Za-z0-9._+\n-' _ <<< "${b%.*}")"; }
scoring_tag=""
[[ "${SCORING:-standard}" == standard ]] || scoring_tag=$(tag "$SCORING")
[[ -z "${WORDLIST:-}" ]] || scoring_tag=$(tag "$WORDLIST")$scoring_tag
if [[ -n "${RUN:-}" ]]; then RUN=$(from_caller "$RUN"); else RUN=shards/proof-$SIZE-$SCORE$scoring_tag; fi
if [[ -n "${WORDLIST:-}" ]]; then WORDLIST=$(from_caller "$WORDLIST"); fi
if [[ "${BOGGLEMAX:-}" == */* ]]; then BOGGLEMAX=$(from_caller "$BOGGLEMAX"); fi
BOGGLEMAX=${BOGGLEMAX:-target/release/bogglemax}
TOP=${TOP:-50}
# A bare name is looked up on PATH, as the other scripts do.
command -v "$BOGGLEMAX" > /dev/null || { echo "proof.sh: $BOGGLEMAX not found; run 'make build'" >&2; exit 2; }

# Without PARTITION, SHARDS or SWITCHOVER, a run being resumed keeps those it was planned
# with (a run planned elsewhere, e.g. for a cluster, may have other ones).
if [[ -e "$RUN/manifest.bmx" && ( -z "${PARTITION:-}" || -z "${SHARDS:-}" || -z "${SWITCHOVER:-}" ) ]]; then
    planned=$("$BOGGLEMAX" status "$RUN")
    : "${PARTITION:=$(sed -n 's/^partition: //p' <<< "$planned")}"
    : "${SHARDS:=$(sed -n 's/^shards: //p' <<< "$planned")}"
    : "${SWITCHOVER:=$(sed -n 's/^switchover: //p' <<< "$planned")}"
    [[ -n "$PARTITION" && -n "$SHARDS" && -n "$SWITCHOVER" ]] ||
        { echo "proof.sh: cannot read the partition, shards and switchover of $RUN" >&2; exit 2; }
fi
: "${SHARDS:=$default_shards}" "${SWITCHOVER:=$default_switchover}"
# The default partition: three buckets (vowels, two consonant sets), corners whole.
# Corners take any letter (one bucket): a class then holds 16 classes of the corner split
# 'aeiosuy bcdfghjklmnpqrtvwxz', and one tree, branched on the corners last, costs 0.46-0.64
# of their sum on 4x4 (0.53 over eight classes) and 0.4-0.6 on 3x4 (docs/NOTES-bench.md,
# "Corners in one bucket" and "Pairs counted again"). On 3x3 the same partition takes 0.65 of
# the time of two buckets on every cell.
default_partition="aeijou bcdfgmpqvwxz hklnrsty, corner:abcdefghijklmnopqrstuvwxyz"
# A new 4x4 run merges the consonant edges too (2,757 classes, 0.722 of the default's CPU
# time over 34 classes drawn at random, but up to 3.7 GiB a class where the default's stay
# under 1.1; its five classes of the 32 published boards give exactly those:
# docs/NOTES-bench.md)
# when the machine (or its cgroup) has MERGED_EDGES_GIB (default 6) GiB of memory or more
# for each of the JOBS workers.
if [[ -z "${PARTITION:-}" && "$SIZE" == 4x4 ]]; then
    [[ "${MERGED_EDGES_GIB:-6}" =~ ^[0-9]+([.][0-9]+)?$ ]] ||
        { echo "proof.sh: MERGED_EDGES_GIB must be a number of GiB, not '$MERGED_EDGES_GIB'" >&2; exit 2; }
    mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2> /dev/null || true)
    cgroup_max=$(cat /sys/fs/cgroup/memory.max 2> /dev/null || true)
    if [[ "$cgroup_max" =~ ^[0-9]+$ ]] && { [[ -z "$mem_kib" ]] || (( cgroup_max / 1024 < mem_kib )); }; then
        mem_kib=$((cgroup_max / 1024))
    fi
    gib_a_job=$(awk -v k="${mem_kib:-0}" -v j="$JOBS" 'BEGIN { printf "%.1f", k / 1048576 / j }')
    if awk -v g="$gib_a_job" -v m="${MERGED_EDGES_GIB:-6}" 'BEGIN { exit !(g >= m) }'; then
        PARTITION="aeijou bcdfgmpqvwxz hklnrsty, edge:aeijou bcdfghklmnpqrstvwxyz, corner:abcdefghijklmnopqrstuvwxyz"
        echo "partition: consonant edges merged ($gib_a_job GiB of memory a job, MERGED_EDGES_GIB=${MERGED_EDGES_GIB:-6} or more)"
    else
        PARTITION=$default_partition
        echo "partition: the default ($gib_a_job GiB of memory a job, under MERGED_EDGES_GIB=${MERGED_EDGES_GIB:-6} for consonant edges merged)"
    fi
fi
: "${PARTITION:=$default_partition}"

dict_flags=()
[[ -n "${WORDLIST:-}" ]] && dict_flags=(--wordlist "$WORDLIST")
[[ -n "${SCORING:-}" ]] && dict_flags+=(--scoring "$SCORING")
# The switchover, where a size sets one (plan's default otherwise).
switch_flags=()
[[ -n "${SWITCHOVER:-}" ]] && switch_flags=(--switchover "$SWITCHOVER")

# Compares results.csv with the boards of the published exhaustive searches (refdata/), for
# the boards at or above both thresholds; prints what it compared, fails on a difference.
check_published() {
    # The published searches scored boards the standard way.
    [[ "${SCORING:-standard}" == standard ]] || return 0
    local list=${WORDLIST:-enable2k}
    list=$(basename "${list%.*}" | tr '[:upper:]' '[:lower:]')
    local ref="refdata/best-boards-$SIZE.$list.txt" threshold
    case "$SIZE.$list" in
        3x3.enable2k)
            # Published: 42 boards score 500 or more, deslatper (545) first.
            if [[ $SCORE -eq 500 ]]; then
                local n top
                n=$(($(wc -l < "$RUN/results.csv") - 1))
                top=$(sed -n 2p "$RUN/results.csv" | cut -d, -f1,2)
                if [[ $n -eq 42 && $top == deslatper,545 ]]; then
                    echo "published: 42 boards, deslatper 545 first: same"
                else
                    echo "published: 42 boards, deslatper 545 first; this run: $n boards, $top first" >&2
                    return 1
                fi
            fi
            return 0 ;;
        3x4.enable2k) threshold=1500 ;;
        4x4.enable2k) threshold=3500 ;;
        4x4.ospd5) threshold=3600 ;;
        4x4.naspa2023) threshold=3700 ;;
        *) return 0 ;;
    esac
    local t=$(( SCORE > threshold ? SCORE : threshold ))
    local want got
    # Compared as sorted lists: the published file and results.csv order ties differently.
    want=$(awk -F': ' -v t="$t" '$2 >= t { print $1 ": " $2 }' "$ref" | sort)
    got=$(tail -n +2 "$RUN/results.csv" | awk -F, -v t="$t" '$2 >= t { print $1 ": " $2 }' | sort)
    if [[ "$want" == "$got" ]]; then
        echo "published ($ref, score >= $t): $(printf '%s\n' "$want" | grep -c .) boards: same"
    else
        echo "published ($ref, score >= $t) differs from this run:" >&2
        diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") >&2 || true
        return 1
    fi
}

start=$(date +%s)
# A new 4x4 run (or any, with ESTIMATE=1; ESTIMATE=0 skips it) is estimated first and
# planned by the estimate's costs; RUN/estimate.txt keeps the estimate.
costs=()
new_run=0
[[ -e "$RUN/manifest.bmx" ]] || new_run=1
if [[ "${ESTIMATE_ONLY:-0}" == 1 || ( $new_run == 1 && "${ESTIMATE:-}" != 0 && ( "$SIZE" == 4x4 || "${ESTIMATE:-0}" == 1 ) ) ]]; then
    # What will it cost? A sample of classes, broken for ESTIMATE_BUDGET seconds.
    est_dir=$(mktemp -d)
    trap 'rm -rf "$est_dir"' EXIT
    echo "estimating the $SIZE proof at S = $SCORE (${ESTIMATE_BUDGET:-180} s, $JOBS thread(s))..."
    "$BOGGLEMAX" estimate --size "$SIZE" --partition "$PARTITION" --score "$SCORE" \
        ${dict_flags[@]+"${dict_flags[@]}"} ${switch_flags[@]+"${switch_flags[@]}"} --budget "${ESTIMATE_BUDGET:-180}" --threads "$JOBS" \
        --tasks "$SHARDS" --costs-out "$est_dir/costs.csv" > "$est_dir/estimate.txt"
    grep -E '^(classes|sampled|cpu_hours|class_seconds_quantiles|peak_rss_bytes|disk_bytes|task_seconds|slurm_)' \
        "$est_dir/estimate.txt"
    [[ "${ESTIMATE_ONLY:-0}" == 1 ]] && exit 0
    costs=(--costs "$est_dir/costs.csv")
fi
if ! "$BOGGLEMAX" plan --reuse --size "$SIZE" --partition "$PARTITION" --score "$SCORE" \
    --shards "$SHARDS" ${dict_flags[@]+"${dict_flags[@]}"} ${switch_flags[@]+"${switch_flags[@]}"} \
    ${costs[@]+"${costs[@]}"} --out "$RUN"; then
    # plan's own advice names --out, which this script sets from RUN.
    [[ -e "$RUN/manifest.bmx" ]] &&
        echo "proof.sh: to resume $RUN, give SCORE, WORDLIST and SCORING as it was planned with (\`bogglemax status $RUN\` shows them), or set another RUN" >&2
    exit 2
fi
if [[ ${#costs[@]} -gt 0 ]]; then
    cp "$est_dir/estimate.txt" "$RUN/estimate.txt"
fi
# A run whose estimate projects more than MAX_HOURS of wall time on JOBS cores is planned
# but not broken here (every time proof.sh is run on it), unless FORCE=1 or nothing is left
# to break (a run finished elsewhere, e.g. on a Slurm cluster, is merged here).
pending=$("$BOGGLEMAX" status "$RUN" --pending)
if [[ -f "$RUN/estimate.txt" && -n "$pending" ]]; then
    # cpu_hours carries three significant digits at any size (cpu_seconds one decimal, which
    # reads 0.0 for a tiny run): the comparison with MAX_HOURS reads it.
    read -r cpu hi cpu_hours slurm_time slurm_mem < <(awk '
        /^cpu_seconds:/ { c = $2 } /^cpu_seconds_90:/ { h = $3 } /^cpu_hours:/ { ch = $2 }
        /^slurm_time:/ { t = $2 } /^slurm_mem:/ { m = $2 }
        END { print c, h, ch, t, m }' "$RUN/estimate.txt")
    hours() { awk -v c="$1" -v j="$JOBS" 'BEGIN { if (c ~ /inf/) print "unknown"; else printf "%.1f", c / j / 3600 }'; }
    echo "projected wall time on $JOBS core(s): $(hours "$cpu") hours (up to $(hours "$hi") at 90 %; $RUN/estimate.txt)"
    # An unknown cost (inf, nan) counts as too long.
    if awk -v c="$cpu_hours" -v j="$JOBS" -v m="${MAX_HOURS:-48}" \
        'BEGIN { exit !(c ~ /inf|nan/ || c / j > m) }' \
        && [[ "${FORCE:-0}" != 1 ]]; then
        {
            echo "proof.sh: $RUN is planned but not started here: projected at $(hours "$cpu") hours on $JOBS core(s), more than MAX_HOURS=${MAX_HOURS:-48} (FORCE=1 starts it anyway)."
            echo "On a Slurm cluster: $SHARDS array tasks (one per shard), each with the time and memory this estimate suggests (--time=$slurm_time --mem=$slurm_mem):"
            echo "  scripts/slurm/submit.sh $RUN --from-estimate"
        } >&2
        exit 3
    fi
fi
# In the background so that a signal to this script reaches the breaking too: break-xargs.sh
# stops its workers on TERM (a background job of a script ignores INT, so TERM is what is
# passed on), and this script then ends by the signal it got. Further signals wait meanwhile.
breaker=
stop_breaking() {
    trap '' TERM INT HUP QUIT
    [[ -n "$breaker" ]] || breaker=$(jobs -p | tail -n 1)
    if [[ -n "$breaker" ]]; then
        kill -TERM "$breaker" 2> /dev/null || true
        wait "$breaker" || true
    fi
    trap - "$1"
    kill -s "$1" $$
}
for signal in TERM INT HUP QUIT; do
    # shellcheck disable=SC2064
    trap "stop_breaking $signal" "$signal"
done
scripts/break-xargs.sh "$RUN" "$JOBS" &
breaker=$!
wait "$breaker"
trap - TERM INT HUP QUIT
status=0
"$BOGGLEMAX" merge "$RUN" > /dev/null || status=$?
echo
echo "best boards (score >= $SCORE) of $RUN/results.csv:"
column -s, -t < <(head -n "$((TOP + 1))" "$RUN/results.csv") 2>/dev/null || head -n "$((TOP + 1))" "$RUN/results.csv"
echo
if [[ -f "$RUN/summary.txt" ]]; then
    grep -E '^(classes finished|results|best:|cpu seconds|proof)' "$RUN/summary.txt" || true
    sed -n '/^best board/,$p' "$RUN/summary.txt"
fi
echo "wall seconds: $(( $(date +%s) - start ))"
[[ $status -eq 0 ]] && { check_published || status=$?; }
# The page that shows the run at a glance (a failure to write it does not fail the proof).
if page=$("$BOGGLEMAX" report "$RUN" 2> /dev/null); then
    echo "report: $page (open it in a browser)"
else
    echo "proof.sh: could not write the report page (bogglemax report $RUN says why)" >&2
fi
exit "$status"
}
