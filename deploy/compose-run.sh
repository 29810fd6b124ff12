#!/usr/bin/env bash
# deploy/compose-run.sh: runs one job of deploy/compose.yml and gives the coordinator's result
# (its stdout) and exit status, without the races of `up --abort-on-container-exit`.
#
# usage: compose-run.sh [--workers N] [--keep-workers] [--timeout S]
#
# `up --abort-on-container-exit` ends on the first container to exit, whichever it is, and
# stops the rest while the log printer may not have shown their last lines. Here instead:
# `up -d`, then `docker wait` on the coordinator's container alone (its exit status), then
# `docker logs` of that run of the container (its stdout to stdout, its log to stderr), then
# the workers are stopped (--keep-workers leaves them serving for the next job). Volumes,
# keys and journals stay: `docker-compose down -v` removes them.
#
# The job is set as for compose.yml (OCTAD_DEPTH, OCTAD_VARIANT, OCTAD_IMAGE in the
# environment or .env); COMPOSE_FILE and COMPOSE_PROJECT_NAME choose another file or project
# (default: compose.yml next to this script). Uses docker-compose (1.29, Debian 12), else
# `docker compose` (v2). Exit status: the coordinator's (0 the job is done and exact), 2 bad
# usage, 1 when the cluster cannot be started or waited for.
set -euo pipefail

WORKERS=${OCTAD_WORKERS:-2} KEEP=0 TIMEOUT=0
usage() { sed -n '5p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --workers) WORKERS=${2:?}; shift 2 ;;
        --keep-workers) KEEP=1; shift ;;
        --timeout) TIMEOUT=${2:?}; shift 2 ;;
        -h|--help) usage ;;
        *) echo "compose-run: unknown option '$1'" >&2; usage ;;
    esac
done
[[ $WORKERS =~ ^[0-9]+$ ]] || { echo "compose-run: --workers must be a number" >&2; exit 2; }
[[ $TIMEOUT =~ ^[0-9]+$ ]] || { echo "compose-run: --timeout must be a number of seconds" >&2; exit 2; }
export COMPOSE_FILE=${COMPOSE_FILE:-$(cd "$(dirname "$0")" && pwd)/compose.yml}

if command -v docker-compose >/dev/null; then
    compose=(docker-compose)
elif docker compose version >/dev/null 2>&1; then
    compose=(docker compose)
else
    echo "compose-run: neither docker-compose nor 'docker compose' is installed" >&2; exit 1
fi

"${compose[@]}" up -d --scale "worker=$WORKERS" >&2 || { echo "compose-run: up failed" >&2; exit 1; }
cid=$("${compose[@]}" ps -q coordinator)
[ -n "$cid" ] || { echo "compose-run: no coordinator container" >&2; exit 1; }
# `up -d` may restart an existing container: its logs hold every run, so show this one's only
since=$(docker inspect -f '{{.State.StartedAt}}' "$cid")
if [ "$TIMEOUT" -gt 0 ]; then
    rc=$(timeout "$TIMEOUT" docker wait "$cid") || { echo "compose-run: no result within $TIMEOUT s" >&2; exit 1; }
else
    rc=$(docker wait "$cid")
fi
docker logs --since "$since" "$cid"
if [ "$KEEP" = 0 ]; then
    "${compose[@]}" stop worker >&2
fi
exit "$rc"
