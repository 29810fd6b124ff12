#!/usr/bin/env bash
# test_compose_skip.sh: where no Docker daemon can run, deploy/compose-test.sh skips (exit 77)
# and says why, and leaves nothing running. Runs it with stand-ins for `docker` (no daemon
# answers) and `dockerd` (fails as a daemon does on a host without what it needs), so no
# real daemon is ever asked or started.
set -u
script=${1:?usage: test_compose_skip.sh deploy/compose-test.sh}
command -v docker-compose >/dev/null || { echo "docker-compose not installed: skipped"; exit 77; }
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
cat >"$fake/docker" <<'EOS'
#!/bin/sh
echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock." >&2
exit 1
EOS
cat >"$fake/dockerd" <<'EOS'
#!/bin/sh
echo 'time="2026-01-01T00:00:00Z" level=fatal msg="failed to start daemon: Devices cgroup isn'"'"'t mounted"'
exit 1
EOS
chmod +x "$fake/docker" "$fake/dockerd"
before=$(find /tmp -maxdepth 1 -name "octadtest*" | sort)
out=$(PATH="$fake:$PATH" timeout 60 bash "$script" 2>&1)
rc=$?
echo "$out"
passed=0 fails=0
verdict() { if [ "$2" = 0 ]; then echo "ok: $1"; passed=$((passed + 1)); else echo "FAIL: $1"; fails=$((fails + 1)); fi; }
[ "$rc" = 77 ]; verdict "exit status 77, skip (got $rc)" $?
if [ "$(id -u)" = 0 ]; then
    grep -q "SKIP: dockerd cannot run here: .*Devices cgroup isn't mounted" <<<"$out"
    verdict "the reason is dockerd's own" $?
else
    grep -q "SKIP: no Docker daemon answers and only root can start one" <<<"$out"; verdict "the reason is given" $?
fi
! grep -q "FAIL" <<<"$out"; verdict "no check ran" $?
[ "$(find /tmp -maxdepth 1 -name "octadtest*" | sort)" = "$before" ]; verdict "its temporary folder is gone" $?
echo "$passed passed, $fails failed"
[ "$fails" = 0 ]
