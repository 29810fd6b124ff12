#!/usr/bin/env bash
# install-deps.sh: installs what octad-cluster needs to build and test, on Debian 12 as root.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps.sh: run as root (it uses apt-get)" >&2
    exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
    build-essential cmake pkg-config ca-certificates \
    libcmocka-dev libmsgpack-dev libzmq3-dev libsodium-dev \
    clang libclang-rt-14-dev \
    python3 iproute2 procps docker-compose \
    stockfish chromium pychess >/dev/null
# chess.js: the independent chess library the PGN tests replay games against
# (with the machine's Node.js and npm; the test skips when they are missing).
if command -v npm >/dev/null; then
    npm install --silent --no-audit --no-fund --prefix /usr/local/lib/octad-node chess.js@1.4.0 >/dev/null
fi
