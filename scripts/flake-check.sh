#!/usr/bin/env bash
# Runs the test suite N times in a row and counts the runs that fail, to catch tests that
# fail by chance (timing, load, order) rather than by a fault of the code.
#
#   scripts/flake-check.sh N [--load] [--slurm]
#
#   N        how many runs (each is the README's test command, `make test`)
#   --load   keep every core busy with a background load while the tests run (started and
#            stopped by this script), so that tests that only pass on a quiet machine show up
#   --slurm  also run the Slurm self-test (scripts/slurm/selftest.sh) in each run
#
# Prints one line per run and, last, `flake-check: P passed, F failed`, naming every test that
# failed. Each run's log is kept in a temp folder, named on a failure. Everything it starts
# (the load, a running test) is stopped when it ends, on Ctrl-C too. Exits 1 if a run failed.
set -uo pipefail

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }
N=
LOAD=0
SLURM=0
for arg in "$@"; do
    case "$arg" in
        -h | --help) usage; exit 0 ;;
        --load) LOAD=1 ;;
        --slurm) SLURM=1 ;;
        *)
            if [[ "$arg" =~ ^[1-9][0-9]*$ && -z "$N" ]]; then
                N=$arg
            else
                echo "flake-check: unexpected argument '$arg' (see --help)" >&2
                exit 2
            fi
            ;;
    esac
done
[[ -n "$N" ]] || { usage >&2; echo "flake-check: missing N, the number of runs" >&2; exit 2; }

cd "$(dirname "$0")/.." || exit 2
LOGS=$(mktemp -d /tmp/flake-check.XXXXXX)
LOAD_PIDS=()
RUN_PID=

stop_all() {
    local pid
    [[ -n "$RUN_PID" ]] && kill -TERM -- -"$RUN_PID" 2> /dev/null
    # (${a[@]+...}: an empty array under set -u on bash before 4.4)
    for pid in ${LOAD_PIDS[@]+"${LOAD_PIDS[@]}"}; do kill -KILL "$pid" 2> /dev/null; done
    for pid in ${LOAD_PIDS[@]+"${LOAD_PIDS[@]}"} $RUN_PID; do wait "$pid" 2> /dev/null; done
    LOAD_PIDS=()
    RUN_PID=
}
trap 'stop_all' EXIT
trap 'echo "flake-check: interrupted"; stop_all; exit 130' INT TERM

if [[ $LOAD -eq 1 ]]; then
    for _ in $(seq "$(nproc)"); do
        # A busy loop per core, at normal priority: the tests compete with it for every core.
        bash -c 'while :; do :; done' &
        LOAD_PIDS+=($!)
    done
    echo "flake-check: background load on $(nproc) cores (pids ${LOAD_PIDS[*]})"
fi

passed=0
failed=0
failures=()
for i in $(seq "$N"); do
    log=$LOGS/run-$i.log
    start=$SECONDS
    # In its own process group, in the background and waited for, so Ctrl-C stops it now.
    set -m
    {
        make test
        rc=$?
        if [[ $SLURM -eq 1 ]]; then
            scripts/slurm/selftest.sh || rc=1
        fi
        exit "$rc"
    } > "$log" 2>&1 &
    RUN_PID=$!
    set +m
    wait "$RUN_PID"
    rc=$?
    RUN_PID=
    secs=$((SECONDS - start))
    if [[ $rc -eq 0 ]]; then
        passed=$((passed + 1))
        echo "run $i/$N: passed (${secs} s)"
    else
        failed=$((failed + 1))
        # Names of failed cargo tests, FAIL lines of the Slurm self-test.
        names=$( { sed -n 's/^test \(.*\) \.\.\. FAILED$/\1/p' "$log"; grep '^FAIL: ' "$log"; } | sort -u | paste -sd, -)
        [[ -n "$names" ]] || names="(no test named; exit $rc, see the log)"
        failures+=("run $i: $names")
        echo "run $i/$N: FAILED (${secs} s): $names; log: $log"
    fi
done
stop_all
for f in ${failures[@]+"${failures[@]}"}; do echo "flake-check: failed in $f"; done
if [[ $failed -eq 0 ]]; then rm -rf "$LOGS"; else echo "flake-check: logs in $LOGS"; fi
echo "flake-check: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
