#!/usr/bin/env bash
# tests/deploy/test_netns_cluster.sh: a coordinator and 3 workers in separate network namespaces must count octad perft 8 exactly;
# in mode solve, a coordinator and 2 workers must solve the octad tables up to 4 pieces exactly as `octad solve` does.
# usage: test_netns_cluster.sh BIN_DIR OCTAD_EXE NETNS_SCRIPT [plain|curve|solve]
# BIN_DIR holds `coordinator` and `worker`; the expected total comes from
# running `octad perft --depth 8 --quiet` of the same build. Exit 77 (ctest
# SKIP) when not root or network namespaces cannot really be used (no /etc/hosts,
# `ip netns exec` fails).
set -euo pipefail
BIN=${1:?BIN_DIR}
OCTAD=${2:?OCTAD_EXE}
SCRIPT=${3:?NETNS_SCRIPT}
MODE=${4:-plain}
DEPTH=8

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || skip "not root"
command -v ip >/dev/null || skip "no ip command (iproute2)"
[ -f /etc/hosts ] || skip "no /etc/hosts (ip netns exec bind-mounts each namespace's hosts file over it)"
# A namespace must really be usable: created, entered, and given its own /etc/hosts,
# as netns-cluster.sh does; else skip now rather than fail after the cluster's timeouts.
probe="octad-probe-$$-$RANDOM"
ip netns add "$probe" 2>/dev/null || skip "ip netns add is not permitted here"
probe_ok=0
if mkdir -p "/etc/netns/$probe" 2>/dev/null \
   && echo "10.77.0.1 octad-probe-host" 2>/dev/null >"/etc/netns/$probe/hosts"; then
    ip netns exec "$probe" grep -q octad-probe-host /etc/hosts 2>/dev/null && probe_ok=1
fi
ip netns del "$probe" 2>/dev/null
rm -rf "/etc/netns/$probe" 2>/dev/null || true
[ "$probe_ok" = 1 ] || skip "ip netns exec does not work here (cannot enter a namespace with its own /etc/hosts)"

if [ "$MODE" = solve ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    "$OCTAD" solve --max-pieces 4 --tables "$work/ref" --quiet >/dev/null || fail "octad solve --max-pieces 4"
    rc=0
    out=$(bash "$SCRIPT" --workers 2 --solve 4 --tables "$work/coord" --bin "$BIN" -- --json) || rc=$?
    echo "$out"
    [ "$rc" -ne 77 ] || skip "netns-cluster.sh skipped"
    [ "$rc" -eq 0 ] || fail "netns-cluster.sh --solve 4 exited with status $rc"
    cmp "$work/ref/SUMMARY" "$work/coord/SUMMARY" || fail "SUMMARY differs from octad solve's"
    grep -q '"workers":2,' <<<"$out" || fail "not both workers in their namespaces took part"
    grep -q '"solved":33,' <<<"$out" || fail "not all 33 pairs solved"
    echo "PASS: 2 workers in namespaces solved the 33 pairs up to 4 pieces; SUMMARY identical to octad solve"
    exit 0
fi

expected=$("$OCTAD" perft --depth "$DEPTH" --quiet | awk '$1 == "nodes" { print $2 }')
[[ $expected =~ ^[0-9]+$ ]] || fail "octad perft --depth $DEPTH printed no node count"
echo "octad perft $DEPTH (single process): $expected"

args=(--workers 3 --perft "$DEPTH" --bin "$BIN")
[ "$MODE" = curve ] && args+=(--curve)
rc=0
out=$(bash "$SCRIPT" "${args[@]}" -- --expect "$expected") || rc=$?
echo "$out"
[ "$rc" -ne 77 ] || skip "netns-cluster.sh skipped"
[ "$rc" -eq 0 ] || fail "netns-cluster.sh exited with status $rc"
grep -qw -- "$expected" <<<"$out" || fail "the coordinator did not print the total $expected"
grep -qE '^workers +3$' <<<"$out" || fail "not all 3 workers in their namespaces took part"
grep -q 'matches --expect' <<<"$out" || fail "the coordinator did not confirm the expected total"
echo "PASS: 3 workers in namespaces ($MODE) counted $expected"
