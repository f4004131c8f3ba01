#!/usr/bin/env bash
# Self-test of the Slurm scripts on a REAL one-node Slurm cluster that it brings up here.
#
#   scripts/slurm/selftest.sh            (as root, on Debian/Ubuntu; .ci/run calls it)
#
# Installs slurm-wlm and munge with apt if needed, starts munged, slurmctld and slurmd by hand
# (no systemd) on private ports, sockets and files in a temp dir, then:
#   A: submit.sh a small proof; its results.csv must equal a local run's (L) byte for byte.
#   B: submit.sh, scancel one array task while it runs, check the run is incomplete,
#      resubmit.sh the pending shards, then B's results.csv must equal L's too.
#   R: `scontrol requeue` a task while it runs: Slurm restarts it, it resumes its journal,
#      and R's results.csv equals L's.
#   T: tasks held at a crash point (BOGGLEMAX_FAILPOINT=...:pause) until their time limit
#      kills them (TIMEOUT; each log ends with the worker's stop note); resubmit.sh finishes
#      the run, equal to L's.
# The test cluster has MaxArraySize=6 so that B's 8 shards need two arrays (offset path).
# Prints PASS/FAIL lines; exits 1 on any failure. Every daemon it started is killed by pid
# on exit, whatever happens. Not root or no apt-get: prints "slurm selftest SKIPPED" and
# exits 0. Environment: BOGGLEMAX (binary; default target/failpoints/release/bogglemax,
# built with the crash points), SLURM_SELFTEST=skip (skip), SELFTEST_TIMEOUT (seconds per wait, default 300),
# KEEP=1 (keep the temp dir; it is always kept on failure).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
TIMEOUT=${SELFTEST_TIMEOUT:-300}
START=$(date +%s)

skip() {
    # Said loudly: a CI log must not read a skipped self-test as a passed one.
    echo "=================================================================="
    echo "slurm selftest SKIPPED (NOT RUN, nothing was checked): $*"
    echo "=================================================================="
    exit 0
}
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0
fi
[[ "${SLURM_SELFTEST:-}" == skip ]] && skip "SLURM_SELFTEST=skip"
[[ $(id -u) -eq 0 ]] || skip "needs root (installs packages, runs slurmctld/slurmd/munged as root)"
command -v apt-get > /dev/null || skip "apt-get not found (needs Debian or Ubuntu)"

FAILED=0
say() { echo "selftest [$(($(date +%s) - START))s]: $*"; }
pass() { echo "PASS: $*"; }
fail() {
    echo "FAIL: $*"
    FAILED=1
}
# expect WHAT COMMAND...: PASS when the command succeeds, FAIL otherwise.
expect() {
    local what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}

# ---- cleanup: runs on every exit; kills only what this script started, by pid ----------
T=
PIDS=()          # munged, slurmctld, slurmd, in start order
POLICY_RC_D=     # set when we created /usr/sbin/policy-rc.d for the install
LOCAL_PID=       # the local `bogglemax break` while it runs
cleanup() {
    local rc=$? pid i
    trap - EXIT INT TERM
    set +e
    if [[ -n "$LOCAL_PID" ]]; then
        kill -TERM "$LOCAL_PID" 2> /dev/null
        wait "$LOCAL_PID" 2> /dev/null
    fi
    # Cancel our jobs first and let their slurmstepd end, while slurmd is still there.
    if [[ -n "${SLURM_CONF:-}" && ${#PIDS[@]} -ge 3 ]] && kill -0 "${PIDS[1]}" 2> /dev/null; then
        scancel --user="$(id -un)" 2> /dev/null
        for ((i = 0; i < 30; i++)); do
            [[ -z "$(squeue -h -o %i 2> /dev/null)" ]] && break
            sleep 0.5
        done
    fi
    # Newest first: slurmd, slurmctld, munged.
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        pid=${PIDS[i]}
        kill -TERM "$pid" 2> /dev/null || continue
        for _ in $(seq 50); do
            kill -0 "$pid" 2> /dev/null || break
            sleep 0.2
        done
        kill -KILL "$pid" 2> /dev/null && echo "selftest: had to kill -9 pid $pid"
        wait "$pid" 2> /dev/null
    done
    # A slurmstepd of ours that outlived its job (it inherited SLURM_CONF from our slurmd).
    if [[ -n "$T" ]]; then
        for pid in $(pgrep -x slurmstepd); do
            # (the process may end meanwhile: then there is nothing to read or kill)
            if { tr '\0' '\n' < "/proc/$pid/environ"; } 2> /dev/null | grep -qx "SLURM_CONF=$T/slurm.conf"; then
                echo "selftest: killing leftover slurmstepd $pid"
                kill -KILL "$pid"
            fi
        done
    fi
    [[ -n "$POLICY_RC_D" ]] && rm -f "$POLICY_RC_D"
    if [[ -n "$T" && -d "$T" ]]; then
        if [[ $rc -eq 0 && $FAILED -eq 0 && "${KEEP:-}" != 1 ]]; then
            rm -rf "$T"
        else
            echo "selftest: kept $T (slurm logs in $T/log, job logs in $T/*/logs)"
        fi
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the binary under test -----------------------------------------------------------
BIN=${BOGGLEMAX:-$REPO/target/failpoints/release/bogglemax}
if [[ -z "${BOGGLEMAX:-}" ]]; then
    # With the crash points (scenario T holds tasks at one), in the tests' own target folder
    # (`make test` builds it there), never over target/release.
    say "building $BIN (--features failpoints)"
    (cd "$REPO" && CARGO_TARGET_DIR=target/failpoints cargo build --release --quiet --features failpoints)
fi
[[ -x "$BIN" ]] || { echo "selftest: BOGGLEMAX=$BIN is not executable" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
export BOGGLEMAX=$BIN # what submit.sh/resubmit.sh hand to the jobs

# ---- install Slurm and MUNGE ----------------------------------------------------------
tools=(munged mungekey munge unmunge slurmctld slurmd sbatch squeue sinfo scancel scontrol)
missing=()
for t in "${tools[@]}"; do command -v "$t" > /dev/null || missing+=("$t"); done
if [[ ${#missing[@]} -gt 0 ]]; then
    say "installing slurm-wlm munge (missing: ${missing[*]})"
    # Keep apt from starting the packaged daemons: we could not stop them by pid afterwards,
    # and they would hold the default ports and /run/munge.
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        POLICY_RC_D=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' > "$POLICY_RC_D"
        chmod 755 "$POLICY_RC_D"
    fi
    export DEBIAN_FRONTEND=noninteractive
    if ! { apt-get update -q && apt-get install -y -q --no-install-recommends slurm-wlm munge; } > /dev/null; then
        fail "could not install slurm-wlm munge with apt-get (SLURM_SELFTEST=skip skips this test)"
        exit 1
    fi
    [[ -n "$POLICY_RC_D" ]] && rm -f "$POLICY_RC_D" && POLICY_RC_D=
    say "installed: $(slurmctld -V), $(munged -V 2>&1 | head -1)"
else
    say "slurm already installed: $(slurmctld -V)"
fi

# ---- a private cluster in a temp dir ----------------------------------------------------
T=$(mktemp -d /tmp/bogglemax-slurm.XXXXXX)
# mktemp gives 700; clients and munged's own checks need to traverse the path.
chmod 755 "$T"
# The jobs run a copy of the binary in the test's own folder (as on a cluster's shared
# filesystem), so a rebuild of target/ while the test runs cannot swap it underneath them.
mkdir -p "$T/bin"
cp "$BIN" "$T/bin/bogglemax"
BIN=$T/bin/bogglemax
export BOGGLEMAX=$BIN
mkdir -p "$T/munge" "$T/log" "$T/state" "$T/spool/slurmd" "$T/run"
# Pitfall: munged refuses a socket directory that others can write, and clients need to
# reach it: mode 755.
chmod 755 "$T/munge"
SOCKET=$T/munge/munge.socket.2
mungekey --create --keyfile="$T/munge/munge.key" --bits=1024
chmod 600 "$T/munge/munge.key"
munged --foreground --socket="$SOCKET" --key-file="$T/munge/munge.key" \
    --pid-file="$T/run/munged.pid" --log-file="$T/log/munged.log" \
    --seed-file="$T/munge/munged.seed" > "$T/log/munged.out" 2>&1 &
PIDS+=($!)
# Waits below poll for a state (a socket, a node state, a job state, a journal record) and
# are bounded by $TIMEOUT only to turn a hang into a clear failure: none assumes a speed.
t0=$SECONDS
until [[ -S "$SOCKET" ]] || ((SECONDS - t0 > TIMEOUT)); do
    sleep 0.2
done
if munge -n -S "$SOCKET" | unmunge -S "$SOCKET" > /dev/null; then
    pass "munged is up (pid ${PIDS[0]}, socket $SOCKET)"
else
    fail "munged did not come up: $(tail -3 "$T/log/munged.log" "$T/log/munged.out" 2> /dev/null)"
    exit 1
fi

NODE=$(hostname -s 2> /dev/null || uname -n)
CPUS=$(nproc)
MEM=$(free -m | awk '/^Mem:/ {print $2}')
# Private ports so that a real Slurm on this host (6817/6818) is left alone: below the
# kernel's ephemeral range (32768 and up), and free (nothing answers a connection).
port_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
for _ in $(seq 100); do
    PORT=$((20000 + RANDOM % 12000))
    port_free "$PORT" && port_free $((PORT + 1)) && break
done
cat > "$T/slurm.conf" << EOF
# bogglemax selftest cluster, generated by $0
ClusterName=bogglemaxtest
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool/slurmd
SlurmctldPidFile=$T/run/slurmctld.pid
SlurmdPidFile=$T/run/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$T/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
# Finished jobs stay visible to scontrol for the checks.
MinJobAge=900
KillWait=5
MailProg=/bin/true
# Small on purpose: run B's 8 shards then need two arrays (submit.sh's offset path).
MaxArraySize=6
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
: > "$T/plugstack.conf"
# Pitfall: without SLURM_CONF the clients read /etc/slurm/slurm.conf, or look for the
# controller in DNS SRV records when there is none.
export SLURM_CONF=$T/slurm.conf

slurmctld -D -f "$SLURM_CONF" > "$T/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N "$NODE" > "$T/log/slurmd.out" 2>&1 &
PIDS+=($!)
say "slurmctld pid ${PIDS[1]}, slurmd pid ${PIDS[2]}, node $NODE ($CPUS cpus, $MEM MB), port $PORT"

state=
t0=$SECONDS
while ((SECONDS - t0 <= TIMEOUT)); do
    for i in 1 2; do
        if ! kill -0 "${PIDS[i]}" 2> /dev/null; then
            fail "a Slurm daemon died at start; last log lines:"
            tail -n 5 "$T"/log/slurm*.log "$T"/log/slurm*.out 2> /dev/null
            exit 1
        fi
    done
    state=$(sinfo -h -n "$NODE" -o %T 2> /dev/null || true)
    [[ "$state" == idle ]] && break
    sleep 0.5
done
if [[ "$state" == idle ]]; then
    pass "node $NODE is idle in sinfo"
else
    fail "node $NODE not idle after $TIMEOUT s (state '$state'): $(sinfo -R 2> /dev/null | tail -n +2)"
    exit 1
fi

# ---- helpers -----------------------------------------------------------------------
# wait_queue_empty WHAT: waits (bounded) until no job is pending or running.
wait_queue_empty() {
    local t0=$SECONDS ids
    while :; do
        ids=$(squeue -h -o %i) || {
            fail "$1: squeue failed"
            return 1
        }
        [[ -z "$ids" ]] && break
        if ((SECONDS - t0 > TIMEOUT)); then
            fail "$1: jobs still queued after $TIMEOUT s:"
            squeue
            return 1
        fi
        sleep 1
    done
    say "$1: all jobs ended after $((SECONDS - t0)) s"
}
job_state() { scontrol show job "$1" 2> /dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2; }
# shard_mid RUN K: true while shard K's journal holds some but not all of its classes.
shard_mid() {
    local counts
    counts=$("$BIN" status "$1" | sed -n "s|^shard *$2: \([0-9]*\)/\([0-9]*\) .*|\1 \2|p")
    [[ -n "$counts" ]] && ((${counts% *} >= 1 && ${counts% *} < ${counts#* }))
}
# submit WHAT N SCRIPT ARGS...: runs submit.sh or resubmit.sh; sets OUT (its output), ARRAYS
# and MERGE (the job ids it printed); PASS when it printed N array jobs and a merge job.
submit() {
    local what=$1 want=$2
    shift 2
    OUT=$("$@") || {
        fail "$what: $* failed"
        exit 1
    }
    echo "$OUT"
    mapfile -t ARRAYS < <(sed -n 's/^break array job \([0-9]*\):.*/\1/p' <<< "$OUT")
    MERGE=$(sed -n 's/^merge job \([0-9]*\):.*/\1/p' <<< "$OUT")
    local script a
    for a in "$@"; do [[ "$a" == env || "$a" == *=* ]] || { script=$(basename "$a"); break; }; done
    expect "$what: $script printed $want array job(s) (${ARRAYS[*]}) and a merge job ($MERGE)" \
        test "${#ARRAYS[@]}" -eq "$want" -a -n "$MERGE"
}
same_results() { # RUN WHAT
    if cmp -s "$1/results.csv" "$L/results.csv"; then
        pass "$2: results.csv equals the local run's ($(($(wc -l < "$L/results.csv") - 1)) boards)"
    else
        fail "$2: results.csv differs from the local run's"
        diff "$1/results.csv" "$L/results.csv" | head -5
    fi
}
proof_complete() { # RUN WHAT
    if grep -qx 'proof: complete' "$1/summary.txt" 2> /dev/null; then
        pass "$2: summary.txt says proof: complete"
    else
        fail "$2: summary.txt does not say proof: complete"
    fi
}

# ---- the proofs ----------------------------------------------------------------------
# 3x3 at 500: 102 classes, ~30 CPU-seconds in all, ~4.5 s per 8th shard, 42 boards in
# results.csv. A shard must run for a few seconds, so that B can cancel one while it runs
# (4x2 at 250, used before, ran 0.7 s a shard once OrderlyBound got faster).
plan() { # RUN SHARDS
    "$BIN" plan --size 3x3 --partition "aeiosuy bcdfghjklmnpqrtvwxz" --score 500 \
        --shards "$2" --out "$1" > /dev/null
}
A=$T/A B=$T/B L=$T/L
plan "$A" 6
plan "$L" 8
t0=$SECONDS
# In the background and waited for, so that a signal stops the test now, not when the
# break ends (bash runs traps only between foreground commands); cleanup kills it.
"$BIN" break "$L" --all --quiet > /dev/null &
LOCAL_PID=$!
wait "$LOCAL_PID"
LOCAL_PID=
"$BIN" merge "$L" > /dev/null
say "local run L: broken and merged in $((SECONDS - t0)) s"
if [[ $(wc -l < "$L/results.csv") -gt 1 ]]; then
    pass "local run L: $(($(wc -l < "$L/results.csv") - 1)) boards in results.csv"
else
    fail "local run L: results.csv is empty"
fi

# ---- usage errors (cheap, before the cluster runs) ---------------------------------------
check_error() { # WHAT EXPECTED-STATUS PATTERN COMMAND...
    local what=$1 want=$2 pattern=$3 out rc=0
    shift 3
    out=$("$@" 2>&1) || rc=$?
    if [[ $rc -eq $want ]] && grep -q -- "$pattern" <<< "$out"; then
        pass "$what (exit $rc)"
    else
        fail "$what: exit $rc, output: $out"
    fi
}
check_error "submit.sh without RUN is refused" 2 "missing RUN" "$HERE/submit.sh"
check_error "submit.sh --help" 0 "max-running" "$HERE/submit.sh" --help
check_error "resubmit.sh --help" 0 "pending" "$HERE/resubmit.sh" --help
check_error "submit.sh with a missing RUN directory" 2 "no such run directory" \
    "$HERE/submit.sh" "$T/nonexistent"
check_error "submit.sh on a directory that is not a run" 2 "not a run directory" \
    "$HERE/submit.sh" "$T/log"
mkdir -p "$T/nosbatch"
ln -s "$(command -v dirname)" "$T/nosbatch/dirname"
check_error "submit.sh without sbatch on PATH" 2 "sbatch not found" \
    env PATH="$T/nosbatch" "$BASH" "$HERE/submit.sh" "$A"
check_error "submit.sh --from-estimate with a partition sbatch refuses stops before estimating" 2 \
    "test-only failed" env ESTIMATE_BUDGET=2 "$HERE/submit.sh" "$A" --from-estimate --partition=nosuch
expect "submit.sh with a refused partition estimated nothing" test ! -e "$A/estimate.txt"

# ---- A: submit a whole run, compare with the local run --------------------------------
say "A: submit.sh $A --from-estimate (memory from a 2-second estimate, our own --time)"
submit "A" 1 env ESTIMATE_BUDGET=2 "$HERE/submit.sh" "$A" --from-estimate --max-running 2 \
    --time=20:00 --merge-time 7:00
want_mem=$(awk '/^slurm_mem:/ { print $2 }' "$A/estimate.txt" 2> /dev/null)
expect "A: the estimate is kept in RUN/estimate.txt (slurm_mem: $want_mem)" test -n "$want_mem"
mem=$(scontrol show job "${ARRAYS[0]:-x}" 2> /dev/null | grep -o 'MinMemoryNode=[0-9A-Z]*' | head -1)
expect "A: the break tasks ask for the estimate's memory ($mem)" test "$mem" = "MinMemoryNode=$want_mem"
# The merge job has its own limits, not the break tasks'.
tl=$(scontrol show job "$MERGE" 2> /dev/null | grep -o 'TimeLimit=[0-9:-]*' | head -1)
expect "A: the merge job has its own time limit ($tl), not the tasks' 20 min" test "$tl" = TimeLimit=00:07:00
tl=$(scontrol show job "${ARRAYS[0]:-x}" 2> /dev/null | grep -o 'TimeLimit=[0-9:-]*' | head -1)
expect "A: the break tasks have theirs ($tl)" test "$tl" = TimeLimit=00:20:00
t0=$SECONDS
wait_queue_empty "A" || true
say "A: cluster run took $((SECONDS - t0)) s"
st=$(job_state "$MERGE")
expect "A: merge job $MERGE is COMPLETED ($st)" test "$st" = COMPLETED
n=$(find "$A/logs" -name "break-${ARRAYS[0]:-x}_*.log" | wc -l)
expect "A: one log per array task ($n of 6)" test "$n" -eq 6
proof_complete "$A" "A"
same_results "$A" "A"
check_error "A: resubmit.sh of a finished run submits nothing" 0 "nothing pending" \
    "$HERE/resubmit.sh" "$A"

# ---- B: cancel a task midway, resubmit -------------------------------------------------
plan "$B" 8
say "B: submit.sh $B (8 shards, MaxArraySize 6: two arrays)"
# One task at a time per array, so that the task to cancel is still to come.
submit "B" 2 "$HERE/submit.sh" "$B" --max-running 1
victim=${ARRAYS[0]:-0}_3 # array task 3 of the first array: shard 3
t0=$SECONDS
cancelled=
# Cancel the victim once it runs and its journal holds a class (so the resubmitted task
# resumes mid-shard): both are states we can see, polled, never a sleep that assumes a speed.
# A shard takes seconds, so the victim is nearly always caught; if it finishes first anyway,
# that is noted and the other branch below is checked instead.
while ((SECONDS - t0 < TIMEOUT)); do
    st=$(job_state "$victim")
    if [[ "$st" == RUNNING ]] && shard_mid "$B" 3; then
        scancel "$victim" || true
        break
    elif [[ -n "$st" && "$st" != PENDING && "$st" != RUNNING ]]; then
        break # over before we saw it run with a record
    fi
    sleep 0.2
done
# The state the task ended in says whether the cancel took it while running.
while ((SECONDS - t0 < TIMEOUT)); do
    st=$(job_state "$victim")
    [[ "$st" != PENDING && "$st" != RUNNING && "$st" != COMPLETING ]] && break
    sleep 0.2
done
if [[ "$st" == CANCELLED ]] && shard_mid "$B" 3; then
    cancelled=running
    pass "B: cancelled task $victim while it was running"
else
    say "B: NOTE task $victim ended $st before it could be cancelled"
fi
wait_queue_empty "B" || true
pending=$("$BIN" status "$B" --pending | paste -sd, -)
if [[ -n "$cancelled" ]]; then
    expect "B: only shard 3 is pending after the cancel (pending: '$pending')" test "$pending" = 3
    st=$(job_state "$victim")
    expect "B: task $victim is CANCELLED ($st)" test "$st" = CANCELLED
    expect "B: the merge after the cancel says proof: incomplete" \
        grep -q '^proof: incomplete' "$B/summary.txt"
    st=$(job_state "$MERGE")
    expect "B: that merge job $MERGE exited non-zero, so FAILED ($st)" test "$st" = FAILED
    say "B: $("$BIN" status "$B" | grep '^shard *3:')"
fi
say "B: resubmit.sh $B"
if [[ -n "$cancelled" ]]; then
    submit "B" 1 "$HERE/resubmit.sh" "$B" --max-running 2
    expect "B: resubmit.sh submitted only shard 3" grep -q '^break array job [0-9]*: shards 3 ' <<< "$OUT"
    wait_queue_empty "B resubmitted" || true
    log=$(find "$B/logs" -name "break-${ARRAYS[0]:-x}_3.log" | head -1)
    resumed=$(grep -o 'shard 3: complete.*' "$log" 2> /dev/null || true)
    expect "B: the resubmitted task finished shard 3: ${resumed:-no completion line in its log}" \
        test -n "$resumed"
else
    check_error "B: resubmit.sh with nothing pending submits nothing" 0 "nothing pending" \
        "$HERE/resubmit.sh" "$B"
fi
proof_complete "$B" "B"
same_results "$B" "B"

# ---- R: requeue a running task -----------------------------------------------------------
R=$T/R
plan "$R" 4
say "R: submit.sh $R, then scontrol requeue a task while it runs"
submit "R" 1 "$HERE/submit.sh" "$R" --max-running 1
victim=${ARRAYS[0]:-0}_1
t0=$SECONDS
requeued=
while ((SECONDS - t0 < TIMEOUT)); do
    st=$(job_state "$victim")
    if [[ "$st" == RUNNING ]] && shard_mid "$R" 1; then
        scontrol requeue "$victim" && requeued=yes
        break
    elif [[ -n "$st" && "$st" != PENDING && "$st" != RUNNING ]]; then
        break
    fi
    sleep 0.2
done
wait_queue_empty "R" || true
if [[ -n "$requeued" ]]; then
    log=$(find "$R/logs" -name "break-${ARRAYS[0]:-x}_1.log" | head -1)
    starts=$(grep -c '^bogglemax break: shard 1 of ' "$log" 2> /dev/null || true)
    expect "R: task $victim was requeued and started twice (log: $starts starts)" test "$starts" -ge 2
    expect "R: the restarted task resumed its journal" \
        grep -q 'shard 1: complete, [0-9]* classes ([1-9][0-9]* done before' "$log"
    "$BIN" merge "$R" > /dev/null 2>&1 || true
    proof_complete "$R" "R"
    same_results "$R" "R"
else
    say "R: NOTE task $victim ended before it could be requeued (state $st)"
    fail "R: no running task with a journaled class was seen to requeue"
fi

# ---- T: tasks killed by their time limit -------------------------------------------------
P=$T/P
plan "$P" 2
say "T: submit.sh $P --time=1 with tasks held at a crash point until Slurm kills them"
submit "T" 1 env BOGGLEMAX_FAILPOINT=class-journaled:3:pause "$HERE/submit.sh" "$P" --time=1
wait_queue_empty "T" || true
for task in 0 1; do
    st=$(job_state "${ARRAYS[0]:-x}_$task")
    expect "T: task ${ARRAYS[0]:-x}_$task ended by its time limit ($st)" test "$st" = TIMEOUT
    # Slurm's TERM at the time limit: the worker's last words say what is kept.
    log=$(find "$P/logs" -name "break-${ARRAYS[0]:-x}_$task.log" | head -1)
    expect "T: task ${ARRAYS[0]:-x}_$task's log has the worker's stop note" \
        grep -q '^bogglemax: stopped by SIGTERM; the classes finished are kept' "${log:-/dev/null}"
done
pending=$("$BIN" status "$P" --pending | paste -sd, -)
expect "T: both shards are pending after the timeouts (pending: '$pending')" test "$pending" = 0,1
submit "T" 1 "$HERE/resubmit.sh" "$P"
wait_queue_empty "T resubmitted" || true
proof_complete "$P" "T"
same_results "$P" "T"

say "done in $(($(date +%s) - START)) s"
if [[ $FAILED -ne 0 ]]; then
    echo "slurm selftest FAILED"
    exit 1
fi
echo "slurm selftest PASSED"
