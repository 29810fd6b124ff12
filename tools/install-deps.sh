#!/usr/bin/env bash
# install-deps.sh: installs what octad-cluster needs to build and test, on Debian 12 as root.
# llvm: llvm-symbolizer, so sanitizer and fuzzer reports name functions; man-db, less: `man`
# (and the man page tests); file: cpack's DEB generator reads the programs' dependencies;
# debootstrap: the slow test of the .deb on a fresh Debian (tests/deploy/test_deb_chroot.sh).
# libmicrohttpd-dev, libjansson-dev: `octad serve`, the oracle's HTTP server and its JSON
# (docs/oracle.md says why these two); wrk: its load measurement (BENCHMARKS.md); chromium-driver:
# the explorer page's browser test drives headless Chromium through it (tests/serve/test_explorer.py).
# prometheus: promtool and a real Prometheus scrape `coordinator --status`'s /metrics
# (tests/coordinator/test_status.py, docs/status.md). nftables, iproute2 (tc): the bad networks between
# network namespaces (deploy/netns-cluster.sh --loss/--partition/--rate, docs/bad-networks.md).
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps.sh: run as root (it uses apt-get)" >&2
    exit 2
fi
export DEBIAN_FRONTEND=noninteractive
# Wait for a dpkg lock held by another apt run instead of failing at once.
apt_get() { apt-get -o DPkg::Lock::Timeout=300 "$@"; }
apt_get update -qq
apt_get install -y -qq --no-install-recommends \
    build-essential cmake pkg-config ca-certificates \
    libcmocka-dev libmsgpack-dev libzmq3-dev libsodium-dev libzstd-dev \
    libmicrohttpd-dev libjansson-dev wrk prometheus \
    clang libclang-rt-14-dev llvm \
    python3 zstd iproute2 nftables procps strace util-linux docker-compose yamllint \
    man-db less file debootstrap \
    stockfish fairymax polyglot chromium chromium-driver pychess >/dev/null
# chess.js: the independent chess library the PGN tests replay games against;
# chessops: the Chess960 oracle of the engine's self-play games (chess.js has no
# Chess960). With the machine's Node.js and npm; the tests skip when they are missing.
if command -v npm >/dev/null; then
    npm install --silent --no-audit --no-fund --prefix /usr/local/lib/octad-node \
        chess.js@1.4.0 chessops@0.15.1 >/dev/null
fi
# kubectl for the Kubernetes example's offline test (test_k8s); keep one already installed
command -v kubectl >/dev/null || apt_get install -y -qq --no-install-recommends kubernetes-client >/dev/null
