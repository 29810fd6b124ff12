#!/usr/bin/env bash
# deploy/netns-cluster.sh: runs the compose.yml topology (a coordinator and N workers) as separate hosts in Linux network namespaces.
#
# usage: netns-cluster.sh [--workers N] [--perft D | --solve PIECES [--tables DIR]] [--bin DIR]
#                         [--curve] [--threads T] [--timeout S] [--keep-logs] [-- COORDINATOR-OPTIONS...]
#
# One namespace per service plus one "switch" namespace holding a bridge; each
# service namespace gets a veth pair whose other end sits on that bridge.
# Addresses 10.77.0.0/24 exist only inside these namespaces (coordinator
# 10.77.0.1, worker i 10.77.0.(10+i)); nothing is added to the caller's
# namespace, so parallel runs (each with its own bridge) never clash. Each
# service's /etc/hosts (via /etc/netns/NAME/hosts, which `ip netns exec`
# mounts) names the coordinator `coordinator`, so the command lines are the
# ones of compose.yml. Prints the coordinator's stdout; exits with the
# coordinator's status (77 if this host cannot make namespaces: not root, no
# `ip netns`). Everything is torn down on exit, also on failure or Ctrl-C.
# With --solve PIECES the coordinator solves the octad tables up to PIECES
# pieces into --tables DIR (default: a temporary directory), and each worker
# has its own temporary cache: every table travels over the protocol.
set -euo pipefail

WORKERS=3 DEPTH=8 BIN="" CURVE=0 THREADS=1 TIMEOUT=600 KEEP_LOGS=0 SOLVE="" TABLES=""
EXTRA=()
usage() { sed -n '4,5p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --workers) WORKERS=${2:?}; shift 2 ;;
        --perft) DEPTH=${2:?}; shift 2 ;;
        --solve) SOLVE=${2:?}; shift 2 ;;
        --tables) TABLES=${2:?}; shift 2 ;;
        --bin) BIN=${2:?}; shift 2 ;;
        --curve) CURVE=1; shift ;;
        --threads) THREADS=${2:?}; shift 2 ;;
        --timeout) TIMEOUT=${2:?}; shift 2 ;;
        --keep-logs) KEEP_LOGS=1; shift ;;
        --) shift; EXTRA=("$@"); break ;;
        -h|--help) usage ;;
        *) echo "netns-cluster: unknown option '$1'" >&2; usage ;;
    esac
done
[[ $WORKERS =~ ^[0-9]+$ && $WORKERS -ge 1 && $WORKERS -le 200 ]] || { echo "netns-cluster: --workers must be 1..200" >&2; exit 2; }
[[ $DEPTH =~ ^[0-9]+$ ]] || { echo "netns-cluster: --perft must be a number" >&2; exit 2; }
[[ -z $SOLVE || $SOLVE =~ ^[2-8]$ ]] || { echo "netns-cluster: --solve must be 2..8 pieces" >&2; exit 2; }
[[ -z $TABLES || -n $SOLVE ]] || { echo "netns-cluster: --tables goes with --solve" >&2; exit 2; }
BIN=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}
for exe in coordinator worker; do
    [ -x "$BIN/$exe" ] || { echo "netns-cluster: no executable $BIN/$exe (use --bin DIR)" >&2; exit 2; }
done

skip() { echo "netns-cluster: SKIP: $*" >&2; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces)"
command -v ip >/dev/null || skip "no 'ip' command (iproute2)"

RUN="octad-$$-$RANDOM"            # unique per run: namespaces, /etc/netns entries
SWITCH="$RUN-sw"
COORD="$RUN-coord"
WORKER_NS=()
for i in $(seq 1 "$WORKERS"); do WORKER_NS+=("$RUN-w$i"); done
TMP=$(mktemp -d "/tmp/$RUN.XXXXXX")
CREATED=()
COORD_PID=""

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    for ns in "${CREATED[@]}"; do   # stop every process still running in our namespaces
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -TERM 2>/dev/null || true
    done
    sleep 0.2
    for ns in "${CREATED[@]}"; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null || true
        ip netns del "$ns" 2>/dev/null || true
        rm -rf "/etc/netns/$ns"
    done
    if [ "$KEEP_LOGS" = 1 ]; then echo "netns-cluster: logs kept in $TMP" >&2; else rm -rf "$TMP"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Creates namespace $1 with loopback up, and its /etc/hosts.
make_ns() {
    ip netns add "$1" 2>"$TMP/netns.err" || skip "ip netns add failed: $(cat "$TMP/netns.err")"
    CREATED+=("$1")
    ip -n "$1" link set lo up
    mkdir -p "/etc/netns/$1"
    printf '127.0.0.1 localhost\n10.77.0.1 coordinator\n' >"/etc/netns/$1/hosts"
}

# Plugs namespace $1 into the switch with address $2 (interface eth0 inside, $3 on the bridge).
plug() {
    ip link add "$3" netns "$SWITCH" type veth peer name eth0 netns "$1"
    ip -n "$SWITCH" link set "$3" master br0 up
    ip -n "$1" addr add "$2/24" dev eth0
    ip -n "$1" link set eth0 up
}

make_ns "$SWITCH"
ip -n "$SWITCH" link add br0 type bridge
ip -n "$SWITCH" link set br0 up
make_ns "$COORD"
plug "$COORD" 10.77.0.1 v-coord
for i in $(seq 1 "$WORKERS"); do
    make_ns "${WORKER_NS[i-1]}"
    plug "${WORKER_NS[i-1]}" "10.77.0.$((10 + i))" "v-w$i"
done
# the cluster's addresses must not leak into the caller's namespace
if ip -o addr show | grep -q ' 10\.77\.0\.'; then
    echo "netns-cluster: 10.77.0.x appeared outside the namespaces" >&2; exit 1
fi

# Security: CURVE keys made for this run (coordinator + one pair per worker), or plain TCP.
COORD_SEC=(--insecure)
declare -A WORKER_SEC
if [ "$CURVE" = 1 ]; then
    "$BIN/coordinator" keygen "$TMP/coordinator" >/dev/null
    : >"$TMP/allow.txt"
    for i in $(seq 1 "$WORKERS"); do
        "$BIN/coordinator" keygen "$TMP/worker$i" >/dev/null
        cat "$TMP/worker$i.pub" >>"$TMP/allow.txt"
        WORKER_SEC[$i]="--server-key $TMP/coordinator.pub --secret $TMP/worker$i.key"
    done
    COORD_SEC=(--curve-secret "$TMP/coordinator.key" --allow "$TMP/allow.txt")
fi

# The same command lines as compose.yml (a solve job instead of the perft with --solve).
JOB=(--perft "$DEPTH")
[ -n "$SOLVE" ] && JOB=(--solve --max-pieces "$SOLVE" --tables "${TABLES:-$TMP/tables}")
ip netns exec "$COORD" timeout --signal=TERM "$TIMEOUT" "$BIN/coordinator" "${JOB[@]}" \
    --bind tcp://0.0.0.0:5555 --local-workers 0 "${COORD_SEC[@]}" "${EXTRA[@]}" \
    >"$TMP/coordinator.out" 2>"$TMP/coordinator.err" &
COORD_PID=$!

# Health gate, as compose's healthcheck: the port accepts TCP from a worker's namespace.
ready=0
for _ in $(seq 1 150); do
    if ip netns exec "${WORKER_NS[0]}" bash -c 'exec 3<>/dev/tcp/coordinator/5555' 2>/dev/null; then
        ready=1; break
    fi
    kill -0 "$COORD_PID" 2>/dev/null || break
    sleep 0.2
done
if [ "$ready" != 1 ]; then
    echo "netns-cluster: the coordinator did not come up; its stderr:" >&2
    cat "$TMP/coordinator.err" >&2
    exit 1
fi

for i in $(seq 1 "$WORKERS"); do
    # shellcheck disable=SC2086  # WORKER_SEC holds separate words
    ip netns exec "${WORKER_NS[i-1]}" "$BIN/worker" --connect tcp://coordinator:5555 \
        ${WORKER_SEC[$i]:-} --once --threads "$THREADS" --name "w$i" \
        >"$TMP/worker$i.out" 2>"$TMP/worker$i.err" &
done

rc=0
wait "$COORD_PID" || rc=$?
cat "$TMP/coordinator.out"
if [ "$rc" != 0 ]; then
    echo "netns-cluster: coordinator exited with status $rc; its stderr:" >&2
    tail -n 30 "$TMP/coordinator.err" >&2
    for i in $(seq 1 "$WORKERS"); do
        echo "--- worker $i stderr:" >&2
        tail -n 5 "$TMP/worker$i.err" >&2
    done
fi
exit "$rc"
