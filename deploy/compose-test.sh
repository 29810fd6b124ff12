#!/usr/bin/env bash
# deploy/compose-test.sh: runs deploy/compose.yml for real, end to end, and removes all it made.
#
# usage: compose-test.sh [--depth D] [--kill-depth D] [--workers N] [--keep-base] [--keep-logs]
#
# As root, on Debian: installs docker.io (and debootstrap, when needed) if missing; starts
# dockerd if none answers (and stops only a dockerd it started, then puts back the iptables
# rules, ip_forward and docker0 bridge it found); makes the debian:12-slim
# base image with `debootstrap --variant=minbase bookworm` + `docker import` when it is
# absent (the mirror is apt's own; no registry); then, in a copy of the source tree with
# stray secrets planted (stray.key, a key in a folder, a journal, build/, .git/):
#   1. builds the image once (docker-compose build: one service builds);
#   2. checks that no planted file is in the build stage's /src or in the image;
#   3. makes the keys (keygen), runs the job at --depth (default 11) with N workers (3) over
#      CURVE on the internal network, and checks the exact total (from `octad perft` of the
#      same image), the coordinator's exit status, that every worker joined and computed,
#      and that no container has an anonymous volume;
#   4. `up` again on the finished journal: result and exit 0, through
#      `up --abort-on-container-exit --exit-code-from coordinator` and deploy/compose-run.sh;
#      then a job whose only worker runs outside the project (host network, its own key pair
#      on the allow-list) and joins through the port compose.public.yml publishes on loopback;
#   5. a job at --kill-depth (12): SIGKILLs the coordinator mid-run, checks that the workers
#      then stop on SIGTERM within the stop timeout with status 0, resumes, and checks the
#      journal was used ("N of M tasks loaded", N > 0) and the exact total;
#   6. `down -v --rmi all`, removes the base image if it made it (unless --keep-base), and
#      checks that no container, volume, network or image of its own is left.
# Exit status 0 all passed, 1 a check failed, 2 bad usage, 77 skipped: no Docker daemon can
# run here (the reason is printed).
set -euo pipefail

DEPTH=11 KILL_DEPTH=12 WORKERS=3 KEEP_BASE=0 KEEP_LOGS=0
usage() { sed -n '4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --depth) DEPTH=${2:?}; shift 2 ;;
        --kill-depth) KILL_DEPTH=${2:?}; shift 2 ;;
        --workers) WORKERS=${2:?}; shift 2 ;;
        --keep-base) KEEP_BASE=1; shift ;;
        --keep-logs) KEEP_LOGS=1; shift ;;
        -h|--help) usage ;;
        *) echo "compose-test: unknown option '$1'" >&2; usage ;;
    esac
done
for v in "$DEPTH" "$KILL_DEPTH" "$WORKERS"; do
    [[ $v =~ ^[0-9]+$ && $v -ge 1 ]] || { echo "compose-test: depths and --workers are positive numbers" >&2; exit 2; }
done
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
RUN="octadtest$$"
TMP=$(mktemp -d "/tmp/$RUN.XXXXXX")
export COMPOSE_PROJECT_NAME=$RUN OCTAD_IMAGE="octad-cluster:$RUN" COMPOSE_FILE=$TMP/ctx/deploy/compose.yml
DOCKERD_PID="" FORWARD_BEFORE="" HAD_DOCKER0=1 MADE_BASE=0 TORN_DOWN=0 PASSED=0 FAILED=0

say() { echo "compose-test: $*"; }
die() { echo "compose-test: FAIL: $1"; [ -f "${2:-}" ] && tail -n 30 "$2"; exit 1; }
skip() { echo "compose-test: SKIP: $*"; exit 77; }
check() { # check WHAT COMMAND...: runs COMMAND, counts and prints the verdict
    local what=$1; shift
    if "$@"; then echo "ok: $what"; PASSED=$((PASSED + 1)); else echo "FAIL: $what"; FAILED=$((FAILED + 1)); fi
}
dc() { "${COMPOSE[@]}" "$@"; }

# shellcheck disable=SC2317  # called by the EXIT trap
teardown() {
    [ "$TORN_DOWN" = 1 ] && return 0
    TORN_DOWN=1
    if [ -n "${COMPOSE[*]:-}" ] && [ -f "$COMPOSE_FILE" ]; then
        # with compose.public.yml too: `down` removes only the networks of the files it is given
        COMPOSE_FILE="$COMPOSE_FILE:$TMP/ctx/deploy/compose.public.yml" \
            dc --profile setup down -v --rmi all --remove-orphans -t 10 >"$TMP/down.log" 2>&1 || cat "$TMP/down.log"
    fi
    docker rm -f "${RUN}_remote" >/dev/null 2>&1 || true
    docker volume rm "${RUN}_remote" >/dev/null 2>&1 || true
    docker rmi -f "$OCTAD_IMAGE-build" >/dev/null 2>&1 || true
    if [ "$MADE_BASE" = 1 ] && [ "$KEEP_BASE" = 0 ]; then
        docker rmi debian:12-slim >/dev/null 2>&1 || true
    fi
}
# shellcheck disable=SC2317
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    teardown || true
    if [ -n "$DOCKERD_PID" ]; then   # only the daemon this script started, and what it changed
        kill -TERM "$DOCKERD_PID" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.2; done
        if [ -s "$TMP/iptables.before" ]; then iptables-restore <"$TMP/iptables.before" 2>/dev/null || true; fi
        if [ -n "$FORWARD_BEFORE" ]; then echo "$FORWARD_BEFORE" >/proc/sys/net/ipv4/ip_forward 2>/dev/null || true; fi
        if [ "$HAD_DOCKER0" = 0 ]; then ip link del docker0 2>/dev/null || true; fi
    fi
    if [ "$KEEP_LOGS" = 1 ]; then echo "compose-test: logs kept in $TMP"; else rm -rf "$TMP"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'echo "compose-test: line $LINENO failed: $BASH_COMMAND" >&2' ERR

# ---- the tools and the daemon
apt_install() {
    [ "$(id -u)" -eq 0 ] || skip "$1 is missing and only root can install it (apt-get install $*)"
    say "installing $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >"$TMP/apt.log" 2>&1 ||
        skip "apt-get install $* failed: $(tail -n 3 "$TMP/apt.log" | tr '\n' ' ')"
}
if ! command -v docker >/dev/null || ! command -v dockerd >/dev/null; then apt_install docker.io; fi
if command -v docker-compose >/dev/null; then
    COMPOSE=(docker-compose)
elif docker compose version >/dev/null 2>&1; then
    COMPOSE=(docker compose)
else
    apt_install docker-compose
    COMPOSE=(docker-compose)
fi
if ! docker info >/dev/null 2>&1; then
    [ "$(id -u)" -eq 0 ] || skip "no Docker daemon answers and only root can start one"
    say "starting dockerd (log: $TMP/dockerd.log)"
    # dockerd leaves its bridge, iptables rules and ip_forward behind when it stops: note them
    iptables-save >"$TMP/iptables.before" 2>/dev/null || true
    if ! grep -q '^\*' "$TMP/iptables.before" 2>/dev/null; then   # no table yet: the empty, open one
        printf '*filter\n:INPUT ACCEPT\n:FORWARD ACCEPT\n:OUTPUT ACCEPT\nCOMMIT\n*nat\n:PREROUTING ACCEPT\n:INPUT ACCEPT\n:OUTPUT ACCEPT\n:POSTROUTING ACCEPT\nCOMMIT\n' \
            >"$TMP/iptables.before"
    fi
    FORWARD_BEFORE=$(cat /proc/sys/net/ipv4/ip_forward 2>/dev/null || true)
    if ip link show docker0 >/dev/null 2>&1; then HAD_DOCKER0=1; else HAD_DOCKER0=0; fi
    dockerd >"$TMP/dockerd.log" 2>&1 &
    DOCKERD_PID=$!
    for _ in $(seq 1 150); do
        docker info >/dev/null 2>&1 && break
        kill -0 "$DOCKERD_PID" 2>/dev/null || break
        sleep 0.2
    done
    if ! docker info >/dev/null 2>&1; then
        why=$(grep -E 'level=(fatal|error)|failed' "$TMP/dockerd.log" | tail -n 3 | sed 's/^time="[^"]*" //' | tr '\n' ' ')
        skip "dockerd cannot run here: ${why:-no answer within 30 s}"
    fi
fi
say "docker $(docker version -f '{{.Server.Version}}' 2>/dev/null), ${COMPOSE[*]} $(dc version --short 2>/dev/null || true)"
images_before=$(docker images -aq --no-trunc | sort -u)
volumes_before=$(docker volume ls -q | sort -u)

# ---- the base image, without a registry
if ! docker image inspect debian:12-slim >/dev/null 2>&1; then
    command -v debootstrap >/dev/null || apt_install debootstrap
    mirror=$(grep -hsoE '^URIs: *[^ ]+' /etc/apt/sources.list.d/*.sources | head -n 1 | awk '{print $2}')
    [ -n "$mirror" ] || mirror=$(grep -hsoE '^deb +[^ ]+' /etc/apt/sources.list | head -n 1 | awk '{print $2}')
    [ -n "$mirror" ] || { echo "compose-test: FAIL: no Debian mirror in apt's sources"; exit 1; }
    say "making debian:12-slim: debootstrap --variant=minbase bookworm from apt's mirror"
    debootstrap --variant=minbase bookworm "$TMP/rootfs" "$mirror" >"$TMP/debootstrap.log" 2>&1 ||
        { echo "compose-test: FAIL: debootstrap failed:"; tail -n 5 "$TMP/debootstrap.log"; exit 1; }
    rm -rf "$TMP"/rootfs/var/cache/apt/archives/*.deb "$TMP"/rootfs/var/lib/apt/lists/*
    tar -C "$TMP/rootfs" -c . | docker import - debian:12-slim >/dev/null
    MADE_BASE=1
    rm -rf "$TMP/rootfs"
fi

# ---- a copy of the tree with stray secrets planted
mkdir -p "$TMP/ctx"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$ROOT" ls-files -z -co --exclude-standard | (cd "$ROOT" && tar -c --null -T -) | tar -x -C "$TMP/ctx"
else
    tar -C "$ROOT" -c --exclude='./build*' --exclude=./.git . | tar -x -C "$TMP/ctx"
fi
STRAYS=(stray.key tests/stray.key deploy/stray.key stray.journal build/stray-build .git/stray-git)
for p in "${STRAYS[@]}"; do mkdir -p "$TMP/ctx/$(dirname "$p")"; echo "stray secret" >"$TMP/ctx/$p"; done

# ---- 1. build once
say "building the image $OCTAD_IMAGE"
t0=$(date +%s)
dc build >"$TMP/build.log" 2>&1 || die "the image build failed" "$TMP/build.log"
say "built in $(($(date +%s) - t0)) s"
builds=$(grep -E '^Building [a-z0-9_-]+$' "$TMP/build.log" | tr '\n' ' ')
check "one image build for all services (${builds% })" test "$builds" = "Building coordinator "

# ---- 2. no stray file in any stage
docker build -q --target build -t "$OCTAD_IMAGE-build" -f "$TMP/ctx/deploy/Dockerfile" "$TMP/ctx" \
    >"$TMP/build-stage.log" 2>&1 || die "the build stage cannot be tagged" "$TMP/build-stage.log"
found=$(docker run --rm --network none "$OCTAD_IMAGE-build" \
    find /src \( -name 'stray*' -o -name '*.key' -o -name .git -o -name build \) -print)
check "no planted file in the build stage's /src${found:+: $found}" test -z "$found"
found=$(docker run --rm --network none "$OCTAD_IMAGE" \
    sh -c 'find / -xdev \( -name "stray*" -o -name "*.key" \) -print 2>/dev/null' || true)
check "no planted file or key in the image${found:+: $found}" test -z "$found"

# ---- 3. keys, and the job with N workers
dc --profile setup run --rm keygen >"$TMP/keygen.log" 2>&1 || die "keygen failed" "$TMP/keygen.log"
check "keygen made the keys" grep -q 'worker.pub' "$TMP/keygen.log"
reference() { docker run --rm --network none "$OCTAD_IMAGE" octad perft "$1" --quiet | awk '$1=="nodes"{print $2}'; }
REF=$(reference "$DEPTH")
say "reference: octad perft $DEPTH = $REF (one process, same image)"

# Waits for the coordinator's container; leaves its exit status in $TMP/$1.rc, stdout in .out, stderr in .err.
wait_coordinator() {
    local cid since
    cid=$(dc ps -q coordinator)
    since=$(docker inspect -f '{{.State.StartedAt}}' "$cid")
    timeout 600 docker wait "$cid" >"$TMP/$1.rc" || echo timeout >"$TMP/$1.rc"
    docker logs --since "$since" "$cid" >"$TMP/$1.out" 2>"$TMP/$1.err"
}
nodes_of() { awk '$1=="nodes"{print $2}' "$TMP/$1.out"; }

say "job 1: octad perft $DEPTH, $WORKERS workers"
OCTAD_DEPTH=$DEPTH dc up -d --scale "worker=$WORKERS" >"$TMP/up1.log" 2>&1 || die "up failed" "$TMP/up1.log"
wait_coordinator job1
check "the coordinator exits 0 (status $(cat "$TMP/job1.rc"))" test "$(cat "$TMP/job1.rc")" = 0
check "the exact total ($(nodes_of job1), reference $REF)" test "$(nodes_of job1)" = "$REF"
check "the coordinator counts $WORKERS workers" grep -qE "^workers +$WORKERS\b" "$TMP/job1.out"
# The workers share one key pair (/keys/worker.key), and the coordinator names a principal (a
# key) by the first name it saw under it: the join lines carry one name, so count the lines.
joined=$(grep -cE 'worker .* joined' "$TMP/job1.err" || true)
check "every worker joined ($joined join lines)" test "$joined" = "$WORKERS"
computed=0
for cid in $(dc ps -q worker); do   # CPU time of each worker process (on the host, from docker top)
    pid=$(docker top "$cid" -eo pid,comm | awk '$2=="worker"{print $1}')
    ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
    say "worker container ${cid:0:12}: ${ticks} CPU ticks"
    [ "$ticks" -gt 10 ] && computed=$((computed + 1))
done
check "every worker computed (more than 0.1 s of CPU: $computed of $WORKERS)" test "$computed" = "$WORKERS"
anon=0
for cid in $(dc ps -q); do
    for v in $(docker inspect -f '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}' "$cid"); do
        case "$v" in "${RUN}_keys"|"${RUN}_data") ;; *) anon=$((anon + 1)); say "container ${cid:0:12} mounts volume $v" ;; esac
    done
done
check "no container has an anonymous volume" test "$anon" = 0

# ---- 4. up on the finished journal: the result, exit 0
say "job 1 again, its journal complete: up --abort-on-container-exit --exit-code-from coordinator"
rc=0
OCTAD_DEPTH=$DEPTH timeout 300 "${COMPOSE[@]}" up --scale "worker=$WORKERS" --abort-on-container-exit \
    --exit-code-from coordinator >"$TMP/up2.log" 2>&1 || rc=$?
check "up on a finished job exits 0 (status $rc)" test "$rc" = 0
# `up` replays the container's earlier runs too: only this run's result has every task from the journal
check "up on a finished job prints its result" grep -qE "tasks +([0-9]+) \(\1 from the journal" "$TMP/up2.log"
check "up on a finished job prints the exact total" grep -qE "nodes +$REF\b" "$TMP/up2.log"
rc=0
OCTAD_DEPTH=$DEPTH timeout 300 bash "$TMP/ctx/deploy/compose-run.sh" --workers "$WORKERS" \
    >"$TMP/run3.out" 2>"$TMP/run3.err" || rc=$?
check "compose-run.sh on a finished job exits 0 (status $rc)" test "$rc" = 0
check "compose-run.sh prints the result, every task from the journal" \
    grep -qE "^tasks +([0-9]+) \(\1 from the journal" "$TMP/run3.out"
check "compose-run.sh prints the exact total" grep -qE "^nodes +$REF$" "$TMP/run3.out"

# ---- 4b. a worker from outside the project ("another host") through the published port, over CURVE
RDEPTH=10
RREF=$(reference "$RDEPTH")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
say "job 2: octad perft $RDEPTH (reference $RREF), no compose worker, one outside worker on 127.0.0.1:$port"
docker volume create "${RUN}_remote" >/dev/null
# its own key pair; its public key joins the allow-list, the coordinator's public key goes to it
docker run --rm --network none -v "${RUN}_remote:/keys" "$OCTAD_IMAGE" coordinator keygen /keys/remote >/dev/null
docker run --rm --network none -u 0 -v "${RUN}_remote:/remote" -v "${RUN}_keys:/keys" "$OCTAD_IMAGE" \
    sh -c 'cat /remote/remote.pub >>/keys/worker.pub && cp /keys/coordinator.pub /remote/ && chown 10001 /remote/*'
docker run -d --name "${RUN}_remote" --network host --init -v "${RUN}_remote:/keys:ro" "$OCTAD_IMAGE" \
    worker --connect "tcp://127.0.0.1:$port" --server-key /keys/coordinator.pub --secret /keys/remote.key \
    --name remote >/dev/null
rc=0
OCTAD_DEPTH=$RDEPTH OCTAD_PUBLISH="127.0.0.1:$port" COMPOSE_FILE="$COMPOSE_FILE:$TMP/ctx/deploy/compose.public.yml" \
    timeout 300 bash "$TMP/ctx/deploy/compose-run.sh" --workers 0 >"$TMP/job3.out" 2>"$TMP/job3.err" || rc=$?
docker stop -t 10 "${RUN}_remote" >/dev/null
check "the job with only the outside worker exits 0 (status $rc)" test "$rc" = 0
check "the outside worker joined over the published port" \
    grep -qE 'worker remote (\[key [0-9a-f]+\] )?joined' "$TMP/job3.err"   # the log names the key too
check "its total is exact ($(nodes_of job3), reference $RREF)" test "$(nodes_of job3)" = "$RREF"
docker rm "${RUN}_remote" >/dev/null

# ---- 5. kill the coordinator mid-run; workers stop in time; resume from the journal
KREF=$(reference "$KILL_DEPTH")
say "job 3: octad perft $KILL_DEPTH (reference $KREF); the coordinator is killed mid-run"
OCTAD_DEPTH=$KILL_DEPTH dc up -d --scale "worker=$WORKERS" >"$TMP/up4.log" 2>&1 || die "up failed" "$TMP/up4.log"
cid=$(dc ps -q coordinator)
journal=/data/perft-octad-$KILL_DEPTH.journal
# read on the host where it can (docker exec is slow on a busy machine), else in the container
host_journal=$(docker volume inspect -f '{{.Mountpoint}}' "${RUN}_data")/$(basename "$journal")
lines=0
for _ in $(seq 1 1200); do   # until a fifth of the tasks (of 544 or so) are in the journal
    if [ -r "$host_journal" ]; then
        lines=$(wc -l <"$host_journal")
    else
        lines=$(docker exec "$cid" sh -c "wc -l < $journal" 2>/dev/null || echo 0)
    fi
    [ "$lines" -ge 110 ] && break
    [ "$(docker inspect -f '{{.State.Running}}' "$cid")" = true ] || break
    sleep 0.1
done
docker kill "$cid" >/dev/null
check "the coordinator was killed mid-run ($lines journal lines)" \
    test "$(docker inspect -f '{{.State.ExitCode}}' "$cid")" = 137
sleep 5   # past the workers' 3 s liveness: they reconnect, and look its vanished name up again
t0=$(date +%s%N)
dc stop -t 10 worker >"$TMP/stop.log" 2>&1
say "docker-compose stop took $((($(date +%s%N) - t0) / 1000000)) ms"
slowest=0
for w in $(dc ps -q worker); do   # from the SIGTERM (the worker logs it at once) to the container's end
    sigterm=$(docker logs -t "$w" 2>&1 | grep 'stopping: handing back' | tail -n 1 | cut -d' ' -f1)
    [ -n "$sigterm" ] || { slowest=999999; say "worker ${w:0:12} never logged its stop"; continue; }
    ms=$((($(date -d "$(docker inspect -f '{{.State.FinishedAt}}' "$w")" +%s%N) - $(date -d "$sigterm" +%s%N)) / 1000000))
    say "worker ${w:0:12}: SIGTERM to exit in $ms ms"
    [ "$ms" -gt "$slowest" ] && slowest=$ms
done
check "workers exit within 5 s of SIGTERM without the coordinator (slowest $slowest ms; compose kills at 10 s)" \
    test "$slowest" -lt 5000
codes=$(for w in $(dc ps -q worker); do docker inspect -f '{{.State.ExitCode}}' "$w"; done | sort -u | tr '\n' ' ')
check "workers exit 0 on SIGTERM (statuses: $codes)" test "$codes" = "0 "
say "resuming"
OCTAD_DEPTH=$KILL_DEPTH dc up -d --scale "worker=$WORKERS" >"$TMP/up5.log" 2>&1 || die "up failed" "$TMP/up5.log"
wait_coordinator job2
loaded=$(grep -oE 'journal [^ ]+: [0-9]+ of [0-9]+ tasks loaded' "$TMP/job2.err" | tail -n 1 || true)
say "${loaded:-no journal line}"
check "the resumed coordinator exits 0 (status $(cat "$TMP/job2.rc"))" test "$(cat "$TMP/job2.rc")" = 0
check "the resume loaded tasks from the journal" grep -qE ': [1-9][0-9]* of [0-9]+ tasks loaded' "$TMP/job2.err"
check "the resumed total is exact ($(nodes_of job2), reference $KREF)" test "$(nodes_of job2)" = "$KREF"

# ---- 6. remove everything, and check that nothing of ours is left
teardown
left=$(docker ps -aq --filter "label=com.docker.compose.project=$RUN" | wc -l)
check "no container left ($left)" test "$left" = 0
left=$(docker network ls -q --filter "label=com.docker.compose.project=$RUN" | wc -l)
check "no network left ($left)" test "$left" = 0
left=$(comm -13 <(echo "$volumes_before") <(docker volume ls -q | sort -u) | wc -l)
check "no volume left ($left new)" test "$left" = 0
left=$(comm -13 <(echo "$images_before") <(docker images -aq --no-trunc | sort -u) | grep -c . || true)
[ "$MADE_BASE" = 1 ] && [ "$KEEP_BASE" = 1 ] && left=$((left - 1))
check "no image left ($left new)" test "$left" = 0

echo "$PASSED passed, $FAILED failed"
if [ "$FAILED" != 0 ]; then exit 1; fi
