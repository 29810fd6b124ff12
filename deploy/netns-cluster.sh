#!/usr/bin/env bash
# deploy/netns-cluster.sh: runs the compose.yml topology (a coordinator and N workers) as separate hosts in Linux network namespaces.
#
# usage: netns-cluster.sh [--workers N] [--perft D | --solve PIECES [--tables DIR]] [--bin DIR]
#                         [--curve] [--threads T] [--timeout S] [--keep-logs] [--loss PCT] [--rate RATE]
#                         [--partition WHO:START:SECONDS]... [--resets MEAN_S] [-- COORDINATOR-OPTIONS...]
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
#
# A bad network (docs/bad-networks.md; this kernel has no netem, so no delay):
#   --loss PCT      the coordinator's interface drops PCT% of the packets each way, at random
#                   (nftables `numgen random`)
#   --rate RATE     every link capped at RATE each way (tc tbf, e.g. 1mbit)
#   --partition WHO:START:SECONDS  START seconds after the workers start, every packet between
#                   the coordinator and WHO (w1..wN, or `all`) is dropped for SECONDS, then the
#                   link heals (repeatable)
#   --resets MEAN_S the workers connect through tools/reset_proxy.py in the coordinator's
#                   namespace, which cuts each connection with a TCP reset after a random
#                   time of mean MEAN_S seconds
# Each fault is announced on stderr with its time ("netns-cluster: 5.0 s: partition w1").
set -euo pipefail

WORKERS=3 DEPTH=8 BIN="" CURVE=0 THREADS=1 TIMEOUT=600 KEEP_LOGS=0 SOLVE="" TABLES=""
LOSS="" RATE="" RESETS="" PARTITIONS=()
EXTRA=()
usage() { sed -n '4,6p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
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
        --loss) LOSS=${2:?}; shift 2 ;;
        --rate) RATE=${2:?}; shift 2 ;;
        --partition) PARTITIONS+=("${2:?}"); shift 2 ;;
        --resets) RESETS=${2:?}; shift 2 ;;
        --) shift; EXTRA=("$@"); break ;;
        -h|--help) usage ;;
        *) echo "netns-cluster: unknown option '$1'" >&2; usage ;;
    esac
done
[[ $WORKERS =~ ^[0-9]+$ && $WORKERS -ge 1 && $WORKERS -le 200 ]] || { echo "netns-cluster: --workers must be 1..200" >&2; exit 2; }
[[ $DEPTH =~ ^[0-9]+$ ]] || { echo "netns-cluster: --perft must be a number" >&2; exit 2; }
[[ -z $SOLVE || $SOLVE =~ ^[2-8]$ ]] || { echo "netns-cluster: --solve must be 2..8 pieces" >&2; exit 2; }
[[ -z $TABLES || -n $SOLVE ]] || { echo "netns-cluster: --tables goes with --solve" >&2; exit 2; }
[[ -z $LOSS || ( $LOSS =~ ^[0-9]+$ && $LOSS -le 99 ) ]] || { echo "netns-cluster: --loss must be a percentage 0..99" >&2; exit 2; }
[[ -z $RATE || $RATE =~ ^[0-9]+(bit|kbit|mbit|gbit)$ ]] || { echo "netns-cluster: --rate must be like 1mbit (bit, kbit, mbit, gbit)" >&2; exit 2; }
[[ -z $RESETS || $RESETS =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "netns-cluster: --resets must be a mean life in seconds" >&2; exit 2; }
for p in "${PARTITIONS[@]}"; do
    [[ $p =~ ^(all|w([0-9]+)):[0-9]+(\.[0-9]+)?:[0-9]+(\.[0-9]+)?$ ]] \
        || { echo "netns-cluster: --partition '$p': expected WHO:START:SECONDS (WHO: w1..wN or all)" >&2; exit 2; }
    [[ -z ${BASH_REMATCH[2]} || ( ${BASH_REMATCH[2]} -ge 1 && ${BASH_REMATCH[2]} -le $WORKERS ) ]] \
        || { echo "netns-cluster: --partition '$p': no worker ${BASH_REMATCH[1]} (1..$WORKERS)" >&2; exit 2; }
done
BIN=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/bin}
for exe in coordinator worker; do
    [ -x "$BIN/$exe" ] || { echo "netns-cluster: no executable $BIN/$exe (use --bin DIR)" >&2; exit 2; }
done

skip() { echo "netns-cluster: SKIP: $*" >&2; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces)"
command -v ip >/dev/null || skip "no 'ip' command (iproute2)"
[[ -z $LOSS && ${#PARTITIONS[@]} -eq 0 ]] || command -v nft >/dev/null || skip "no 'nft' command (nftables)"
[ -z "$RATE" ] || command -v tc >/dev/null || skip "no 'tc' command (iproute2)"
[ -z "$RESETS" ] || command -v python3 >/dev/null || skip "no python3 (the reset proxy)"
PROXY=$(cd "$(dirname "$0")/.." && pwd)/tools/reset_proxy.py

RUN="octad-$$-$RANDOM"            # unique per run: namespaces, /etc/netns entries
SWITCH="$RUN-sw"
COORD="$RUN-coord"
WORKER_NS=()
for i in $(seq 1 "$WORKERS"); do WORKER_NS+=("$RUN-w$i"); done
TMP=$(mktemp -d "/tmp/$RUN.XXXXXX")
CREATED=()
COORD_PID=""
FAULTS_PID=""

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    [ -z "$FAULTS_PID" ] || kill "$FAULTS_PID" 2>/dev/null || true
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

# The bad network. Loss and partitions are nftables rules in the coordinator's namespace, on
# its eth0 only (the reset proxy's own hop to the coordinator is on loopback).
T0=$EPOCHREALTIME
bc_sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
say() { printf 'netns-cluster: %.1f s: %s\n' "$(bc_sub "$EPOCHREALTIME" "$T0")" "$*" >&2; }
if [ -n "$LOSS" ] && [ "$LOSS" -gt 0 ]; then
    ip netns exec "$COORD" nft -f - <<EOF || skip "nft: cannot add rules in a namespace"
table inet octad_loss {
    chain in { type filter hook input priority 0; iifname "eth0" numgen random mod 100 < $LOSS drop; }
    chain out { type filter hook output priority 0; oifname "eth0" numgen random mod 100 < $LOSS drop; }
}
EOF
    say "the coordinator's link drops $LOSS% of the packets each way"
fi
if [ -n "$RATE" ]; then
    for ns in "$COORD" "${WORKER_NS[@]}"; do
        ip netns exec "$ns" tc qdisc add dev eth0 root tbf rate "$RATE" burst 32kbit latency 400ms \
            || skip "tc: cannot add a tbf qdisc"
    done
    say "every link capped at $RATE each way"
fi
# Copies stdin to stdout, each line after its time in seconds since T0 ("[12.345] ...").
stamp() {
    local line
    while IFS= read -r line; do printf '[%s] %s\n' "$(bc_sub "$EPOCHREALTIME" "$T0")" "$line"; done
}
# partition K WHO / heal K: drop everything between the coordinator and WHO (or everyone).
partition() {
    local in out
    case "$2" in
        all) in='iifname "eth0" drop'; out='oifname "eth0" drop' ;;
        *) in="ip saddr 10.77.0.$((10 + ${2#w})) drop"; out="ip daddr 10.77.0.$((10 + ${2#w})) drop" ;;
    esac
    ip netns exec "$COORD" nft -f - <<EOF
table inet octad_part$1 {
    chain in { type filter hook input priority -10; $in; }
    chain out { type filter hook output priority -10; $out; }
}
EOF
}
heal() { ip netns exec "$COORD" nft delete table inet "octad_part$1"; }
# Runs the partitions on their schedule (in the background, from when the workers start).
faults() {
    local events=() k=0 t0=$EPOCHREALTIME who start len at what wait
    for p in "${PARTITIONS[@]}"; do
        IFS=: read -r who start len <<<"$p"
        events+=("$start cut $k $who" "$(bc_sub "$start" "-$len") heal $k $who")
        k=$((k + 1))
    done
    while read -r at what k who; do
        wait=$(awk -v a="$at" -v n="$EPOCHREALTIME" -v t="$t0" 'BEGIN { w = a - (n - t); printf "%.3f", (w > 0 ? w : 0) }')
        sleep "$wait"
        if [ "$what" = cut ]; then partition "$k" "$who"; say "partition $who from the coordinator"
        else heal "$k"; say "healed $who"; echo "$(bc_sub "$EPOCHREALTIME" "$T0") $who" >>"$TMP/heals"; fi
    done < <(printf '%s\n' "${events[@]}" | sort -g)
}

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
    >"$TMP/coordinator.out" 2> >(stamp >"$TMP/coordinator.err") &
COORD_PID=$!
PORT=5555
if [ -n "$RESETS" ]; then   # the workers' way in goes through the proxy that cuts connections
    PORT=5556
    ip netns exec "$COORD" python3 "$PROXY" --listen 10.77.0.1:5556 --to 127.0.0.1:5555 --mean-life "$RESETS" \
        2>"$TMP/proxy.err" &
    say "workers connect through a proxy that resets each connection after ~$RESETS s on average"
fi

# Health gate, as compose's healthcheck: the port accepts TCP from a worker's namespace.
ready=0
for _ in $(seq 1 150); do
    if ip netns exec "${WORKER_NS[0]}" bash -c "exec 3<>/dev/tcp/coordinator/$PORT" 2>/dev/null; then
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
    ip netns exec "${WORKER_NS[i-1]}" "$BIN/worker" --connect "tcp://coordinator:$PORT" \
        ${WORKER_SEC[$i]:-} --once --threads "$THREADS" --name "w$i" \
        >"$TMP/worker$i.out" 2>"$TMP/worker$i.err" &
done

if [ ${#PARTITIONS[@]} -gt 0 ]; then
    faults &
    FAULTS_PID=$!
fi

rc=0
wait "$COORD_PID" || rc=$?
sleep 0.1 # the stamping of the coordinator's last lines
# After each heal, when each worker it cut off took a task again ("joined": its first CREDIT).
if [ -f "$TMP/heals" ]; then
    while read -r at who; do
        if [ "$who" = all ]; then list=$(seq 1 "$WORKERS"); else list=${who#w}; fi
        for i in $list; do
            back=$(awk -v at="$at" -v w="worker w$i joined" 'index($0, w) { t = substr($1, 2) + 0; if (t >= at) { printf "%.1f", t - at; exit } }' "$TMP/coordinator.err")
            echo "netns-cluster: w$i working again ${back:-never} ${back:+s }after the heal at $(printf '%.1f' "$at") s" >&2
        done
    done <"$TMP/heals"
fi
[ -z "$RESETS" ] || echo "netns-cluster: the proxy reset $(grep -c 'cut connection' "$TMP/proxy.err") connections" >&2
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
