#!/usr/bin/env bash
# test_compose_config.sh: deploy/compose.yml is a valid Compose file (checked offline
# by docker-compose config), and it keeps the cluster's shape: the coordinator binds,
# workers connect to it, start after its healthcheck and scale. Skips (77) without docker-compose.
set -u
compose=${1:?usage: test_compose_config.sh deploy/compose.yml}
command -v docker-compose >/dev/null || { echo "docker-compose not installed: skipped"; exit 77; }
out=$(docker-compose -f "$compose" config 2>&1) || { echo "FAIL: docker-compose config rejected the file:"; echo "$out"; exit 1; }
fails=0
expect() { grep -qE -- "$2" <<<"$out" && echo "ok: $1" || { echo "FAIL: $1"; fails=$((fails + 1)); }; }
expect "the coordinator binds 0.0.0.0:5555" 'tcp://0.0.0.0:5555'
expect "workers connect to the coordinator" 'tcp://coordinator:5555'
expect "workers wait for a healthy coordinator" 'condition: service_healthy'
expect "the coordinator has a healthcheck" 'healthcheck:'
expect "workers scale with replicas" 'replicas:'
expect "CURVE keys are used" 'curve-secret'
echo "$((6 - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
