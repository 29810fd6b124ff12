#!/usr/bin/env bash
# test_compose_config.sh: deploy/compose.yml is a valid Compose file (checked offline
# by docker-compose config), and it keeps the cluster's shape (and compose.oracle.yml, the
# oracle on its own, its shape): the coordinator binds,
# workers connect to it and scale, one image is built once and shared by every service,
# the network is internal. Skips (77) without docker-compose.
set -u
compose=${1:?usage: test_compose_config.sh deploy/compose.yml}
command -v docker-compose >/dev/null || { echo "docker-compose not installed: skipped"; exit 77; }
out=$(docker-compose -f "$compose" config 2>&1) || { echo "FAIL: docker-compose config rejected the file:"; echo "$out"; exit 1; }
passed=0 fails=0
verdict() { if [ "$2" = 0 ]; then echo "ok: $1"; passed=$((passed + 1)); else echo "FAIL: $1"; fails=$((fails + 1)); fi; }
expect() { grep -qE -- "$2" <<<"$out"; verdict "$1" $?; }
refuse() { ! grep -qE -- "$2" <<<"$out"; verdict "$1" $?; }
expect "the coordinator binds 0.0.0.0:5555" 'tcp://0.0.0.0:5555'
expect "workers connect to the coordinator" 'tcp://coordinator:5555'
expect "the coordinator has a healthcheck" 'healthcheck:'
expect "workers scale with replicas" 'replicas:'
expect "CURVE keys are used" 'curve-secret'
# a coordinator whose journal is complete exits 0 at once and is never healthy: nothing may wait for that
expect "workers start once the coordinator has started" 'condition: service_started'
refuse "nothing waits for the coordinator to be healthy" 'service_healthy'
# workers that exit at the job's end race the coordinator under --abort-on-container-exit
refuse "workers do not exit on their own (no --once)" '^ *- --once'
builds=$(grep -cE '^    build:' <<<"$out")
[ "$builds" = 1 ]; verdict "one service builds the image (found $builds build sections)" $?
images=$(grep -E '^    image:' <<<"$out" | sort -u | wc -l)
services=$(grep -cE '^    image:' <<<"$out")
[ "$images" = 1 ] && [ "$services" = 3 ]; verdict "all $services services run one image ($images distinct)" $?
expect "the cluster's network is internal" 'internal: true'
# compose.public.yml (workers on other hosts): the coordinator also joins a network it publishes through
public=${compose%/*}/compose.public.yml
merged=$(OCTAD_PUBLISH=127.0.0.1:6000 docker-compose -f "$compose" -f "$public" config 2>&1)
verdict "compose.public.yml merges with compose.yml" $?
grep -qE -- '- 127.0.0.1:6000:5555' <<<"$merged"
verdict "it publishes the coordinator's port at OCTAD_PUBLISH" $?
grep -qE '^  public: \{\}' <<<"$merged" && grep -qE 'internal: true' <<<"$merged"
verdict "through a second network; the cluster network stays internal" $?
# compose.oracle.yml: the oracle alone, stateless, over a read-only tables folder
oracle=$(docker-compose -f "${compose%/*}/compose.oracle.yml" config 2>&1)
verdict "compose.oracle.yml is a valid Compose file" $?
grep -qE -- '- octad$' <<<"$oracle" && grep -qE -- '- serve$' <<<"$oracle" && grep -qE -- '- 0.0.0.0:8080$' <<<"$oracle"
verdict "the oracle runs octad serve on every interface of its container" $?
grep -qE -- ':/tables:ro$' <<<"$oracle"
verdict "its tables are mounted read-only" $?
grep -qE -- '- 127.0.0.1:8080:8080' <<<"$oracle"
verdict "it is published on this machine only by default" $?
grep -qE 'GET /health' <<<"$oracle"
verdict "its healthcheck asks /health" $?
! grep -qE '^volumes:' <<<"$oracle"
verdict "it keeps no volume of its own (stateless)" $?
echo "$passed passed, $fails failed"
[ "$fails" -eq 0 ]
