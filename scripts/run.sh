#!/usr/bin/env bash
# run.sh: installs the dependencies, builds, and runs the main job: coordinator --perft 10
# (octad's start position, split over one local worker per core, checked against the reference).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh build
exec ./build/bin/coordinator --perft 10 "$@"
