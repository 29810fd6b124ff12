#!/usr/bin/env bash
# build.sh: configures and builds one build folder: build.sh DIR [cmake options...]
set -euo pipefail
dir=${1:-build}
shift || true
cmake -S "$(dirname "$0")/.." -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
