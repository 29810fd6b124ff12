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
    python3 iproute2 procps docker-compose yamllint >/dev/null
# kubectl for the Kubernetes example's offline test (test_k8s); keep one already installed
command -v kubectl >/dev/null || apt-get install -y -qq --no-install-recommends kubernetes-client >/dev/null
