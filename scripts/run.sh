#!/usr/bin/env bash
# run.sh: installs the dependencies, builds, and runs the main job: perft 10 of octad's start.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh build
./build/cli/octad perft --depth 10 "$@"
