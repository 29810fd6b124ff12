#!/usr/bin/env bash
# tests/test_netns_cluster.sh: a coordinator and 3 workers in separate network namespaces must count octad perft 8 exactly.
# usage: test_netns_cluster.sh BIN_DIR OCTAD_EXE NETNS_SCRIPT [plain|curve]
# BIN_DIR holds `coordinator` and `worker`; the expected total comes from
# running `octad perft --depth 8 --quiet` of the same build. Exit 77 (ctest
# SKIP) when not root or network namespaces are unavailable.
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
probe="octad-probe-$$-$RANDOM"
ip netns add "$probe" 2>/dev/null || skip "ip netns add is not permitted here"
ip netns del "$probe"

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
