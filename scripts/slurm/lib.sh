# shellcheck shell=bash
# Shared by submit.sh and resubmit.sh (sourced, not run): argument parsing, finding the
# binary, and submitting a set of shards as job array(s) plus a merge job that waits for them.
# Callers set PROG (their name, for messages) and USAGE_LINES (the line range of their
# header comment that --help prints) before sourcing.

SLURM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SLURM_DIR/../.." && pwd)

die() {
    echo "$PROG: $*" >&2
    exit 2
}

usage() {
    sed -n "$USAGE_LINES" "$0" | sed 's/^# \{0,1\}//'
}

# parse_args "$@": sets RUN (absolute), MAX_RUNNING (may be empty), EXTRA (sbatch options
# passed through to every sbatch call, e.g. --time, --mem, --partition, --account) and
# MERGE_TIME, MERGE_MEM (the merge job's own limits: it reads only the journals, a few bytes
# a class, so it needs neither the break tasks' time nor their memory).
parse_args() {
    if [[ $# -eq 0 ]]; then
        usage >&2
        die "missing RUN (the run directory made by 'bogglemax plan')"
    fi
    if [[ "$1" == -h || "$1" == --help ]]; then
        usage
        exit 0
    fi
    [[ "$1" == -* ]] && die "the first argument must be RUN (the run directory), not '$1'; see --help"
    local run=$1
    shift
    MAX_RUNNING=
    MERGE_TIME=1:00:00
    MERGE_MEM=2G
    FROM_ESTIMATE=0
    EXTRA=()
    while [[ $# -gt 0 ]]; do
        case "$1" in
            -h | --help) usage; exit 0 ;;
            --max-running) [[ $# -ge 2 ]] || die "--max-running needs a number"
                MAX_RUNNING=$2; shift 2 ;;
            --max-running=*) MAX_RUNNING=${1#*=}; shift ;;
            --merge-time) [[ $# -ge 2 ]] || die "--merge-time needs a Slurm time, e.g. 1:00:00"
                MERGE_TIME=$2; shift 2 ;;
            --merge-time=*) MERGE_TIME=${1#*=}; shift ;;
            --merge-mem) [[ $# -ge 2 ]] || die "--merge-mem needs a size, e.g. 2G"
                MERGE_MEM=$2; shift 2 ;;
            --merge-mem=*) MERGE_MEM=${1#*=}; shift ;;
            --from-estimate) FROM_ESTIMATE=1; shift ;;
            *) EXTRA+=("$1"); shift ;;
        esac
    done
    if [[ -n "$MAX_RUNNING" && ! "$MAX_RUNNING" =~ ^[1-9][0-9]*$ ]]; then
        die "--max-running wants a positive whole number, got '$MAX_RUNNING'"
    fi
    [[ -d "$run" ]] || die "$run: no such run directory (make it with 'bogglemax plan ... --out $run')"
    # Jobs start in another directory (and maybe on another machine): absolute paths only.
    RUN=$(cd "$run" && pwd)
}

# find_binary: sets BIN to an absolute path. $BOGGLEMAX wins, then `bogglemax` on PATH, then
# this repository's target/release/bogglemax. It must be on a filesystem the nodes share.
find_binary() {
    local b
    if [[ -n "${BOGGLEMAX:-}" ]]; then
        b=$BOGGLEMAX
        [[ "$b" == */* ]] || b=$(command -v "$b") || die "BOGGLEMAX=$BOGGLEMAX: not found on PATH"
    elif b=$(command -v bogglemax); then
        :
    elif [[ -x "$REPO/target/release/bogglemax" ]]; then
        b=$REPO/target/release/bogglemax
    else
        die "no bogglemax binary: set BOGGLEMAX, put bogglemax on PATH, or run 'make build' in $REPO"
    fi
    [[ -f "$b" && -x "$b" ]] || die "$b: not an executable file"
    BIN=$(cd "$(dirname "$b")" && pwd)/$(basename "$b")
}

need_sbatch() {
    command -v sbatch > /dev/null ||
        die "sbatch not found on PATH: run this on a Slurm submit (login) node"
}

# max_array_size: the cluster's MaxArraySize (array task ids must be below it); Slurm's
# default 1001 if scontrol cannot tell. 1024 shards do not fit in one default-sized array.
max_array_size() {
    local m
    m=$(scontrol show config 2> /dev/null | awk -F= '/^MaxArraySize/ {gsub(/ /, "", $2); print $2}')
    [[ "$m" =~ ^[0-9]+$ && "$m" -gt 0 ]] || m=1001
    echo "$m"
}

# ranges N...: compresses sorted numbers to a Slurm array list, "0-4,7,9-10".
ranges() {
    awk 'BEGIN { ORS = "" }
         { if (NR == 1) { s = p = $1; next }
           if ($1 == p + 1) { p = $1; next }
           print sep (s == p ? s : s "-" p); sep = ","; s = p = $1 }
         END { if (NR) print sep (s == p ? s : s "-" p); print "\n" }'
}

# sbatch_id ARGS...: runs sbatch --parsable and prints the job id alone.
sbatch_id() {
    local out
    out=$(sbatch --parsable "$@") || die "sbatch failed (its message is above)"
    echo "${out%%;*}" # --parsable prints "id" or "id;cluster"
}

# merge_options: sets MERGE_EXTRA, the sbatch options of the merge job: EXTRA without the
# break tasks' time, memory and CPU options, plus --time=MERGE_TIME --mem=MERGE_MEM.
merge_options() {
    local a skip=0
    MERGE_EXTRA=()
    # (${a[@]+...}: an empty array under set -u on bash before 4.4, as on older login nodes)
    for a in ${EXTRA[@]+"${EXTRA[@]}"}; do
        if ((skip)); then
            skip=0
            continue
        fi
        case "$a" in
            --time | --time-min | --mem | --mem-per-cpu | --mem-per-gpu | --cpus-per-task | -t | -c) skip=1 ;;
            --time=* | --time-min=* | --mem=* | --mem-per-cpu=* | --mem-per-gpu=* | --cpus-per-task=* | -t* | -c*) ;;
            *) MERGE_EXTRA+=("$a") ;;
        esac
    done
    MERGE_EXTRA+=(--time="$MERGE_TIME" --mem="$MERGE_MEM")
}

# submit_shards SHARD...: submits the shards as job array(s) of break.sbatch, then merge.sbatch
# after all of them (afterany: it runs even when tasks fail, and says what is missing).
# Array task ids must stay below MaxArraySize, so shards are cut into blocks of that size;
# each block is one array whose task t breaks shard OFFSET + t.
submit_shards() {
    local limit block offset list job throttle=
    local jobs=()
    mkdir -p "$RUN/logs" || die "$RUN/logs: cannot create the log directory"
    limit=$(max_array_size)
    [[ -n "$MAX_RUNNING" ]] && throttle=%$MAX_RUNNING
    # Blocks in increasing order: shard s belongs to block floor(s / limit).
    for block in $(printf '%s\n' "$@" | awk -v l="$limit" '{print int($1 / l)}' | sort -nu); do
        offset=$((block * limit))
        list=$(printf '%s\n' "$@" |
            awk -v l="$limit" -v b="$block" -v o="$offset" 'int($1 / l) == b {print $1 - o}' |
            sort -n | ranges)
        job=$(sbatch_id --array="$list$throttle" --job-name=bogglemax-break \
            --output="$RUN/logs/break-%A_%a.log" ${EXTRA[@]+"${EXTRA[@]}"} \
            "$SLURM_DIR/break.sbatch" "$RUN" "$BIN" "$offset")
        jobs+=("$job")
        if [[ $offset -eq 0 ]]; then
            echo "break array job $job: shards $list${throttle:+ (at most $MAX_RUNNING running)}, logs $RUN/logs/break-${job}_<shard>.log"
        else
            echo "break array job $job: shards $offset + ($list)${throttle:+ (at most $MAX_RUNNING running)}, logs $RUN/logs/break-${job}_<shard-$offset>.log"
        fi
    done
    local dep
    dep=afterany:$(IFS=:; echo "${jobs[*]}")
    merge_options
    job=$(sbatch_id --dependency="$dep" --job-name=bogglemax-merge \
        --output="$RUN/logs/merge-%j.log" "${MERGE_EXTRA[@]}" \
        "$SLURM_DIR/merge.sbatch" "$RUN" "$BIN")
    echo "merge job $job: after ${jobs[*]} end, log $RUN/logs/merge-$job.log"
}

# apply_estimate COUNT: with --from-estimate, puts each task's --time and --mem from
# RUN/estimate.txt (made here by `bogglemax estimate --run RUN` if it is missing or was made
# for another number of tasks) in front of EXTRA, unless the caller gave their own.
apply_estimate() {
    [[ "$FROM_ESTIMATE" == 1 ]] || return 0
    local count=$1 est="$RUN/estimate.txt"
    if ! grep -qx "tasks: $count" "$est" 2>/dev/null; then
        # The estimate takes minutes: first let sbatch refuse what it will refuse anyway (a
        # wrong partition or account, or no controller to reach), without submitting
        # anything.
        local refused
        refused=$(sbatch --test-only --job-name=bogglemax-check ${EXTRA[@]+"${EXTRA[@]}"} \
            --output=/dev/null --wrap=true 2>&1) ||
            die "sbatch --test-only failed, so nothing was estimated or submitted (check the options and that this node reaches the Slurm controller): $(tr '\n' ' ' <<< "$refused")"
        echo "$PROG: estimating $RUN (${ESTIMATE_BUDGET:-300} s, ${ESTIMATE_THREADS:-1} thread(s); saved to $est)"
        if ! "$BIN" estimate --run "$RUN" --budget "${ESTIMATE_BUDGET:-300}" \
            --threads "${ESTIMATE_THREADS:-1}" --tasks "$count" --quiet > "$est.tmp"; then
            rm -f "$est.tmp"
            die "bogglemax estimate --run $RUN failed"
        fi
        mv "$est.tmp" "$est"
    fi
    local slurm_time slurm_mem given_time=0 given_mem=0 a
    slurm_time=$(awk '/^slurm_time:/ { print $2 }' "$est")
    slurm_mem=$(awk '/^slurm_mem:/ { print $2 }' "$est")
    [[ -n "$slurm_time" && -n "$slurm_mem" ]] || die "$est: no slurm_time/slurm_mem lines"
    for a in ${EXTRA[@]+"${EXTRA[@]}"}; do
        case "$a" in
            --time | --time=* | -t | -t*) given_time=1 ;;
            --mem | --mem=* | --mem-per-cpu* | --mem-per-gpu*) given_mem=1 ;;
            --cpus-per-task* | -c*)
                echo "$PROG: note: the estimate's memory is for one thread a task; with more, give --mem yourself" >&2 ;;
        esac
    done
    echo "$PROG: from $est: $(grep -E '^(cpu_hours|task_seconds)' "$est" | tr '\n' ' ')"
    local add=()
    [[ $given_time == 1 ]] || add+=(--time="$slurm_time")
    [[ $given_mem == 1 ]] || add+=(--mem="$slurm_mem")
    echo "$PROG: each task asks for ${add[*]:-what you gave}"
    EXTRA=(${add[@]+"${add[@]}"} ${EXTRA[@]+"${EXTRA[@]}"})
}
