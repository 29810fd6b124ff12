#!/usr/bin/env bash
# run.sh: installs the dependencies, builds, installs the programs, library and man pages
# (cmake --install, prefix /usr/local: octad, coordinator and worker on the PATH, `man octad`),
# and runs the main job: coordinator --perft 10 (octad's start position, split over a local
# worker with one thread per core, checked against the reference).
# OCTAD_PREFIX=DIR installs elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${OCTAD_PREFIX:-/usr/local}
bash tools/install-deps.sh
bash tools/build.sh build
cmake --install build --prefix "$prefix" >build/install.log
echo "installed octad, coordinator, worker in $prefix/bin, man pages, liboctad (pkg-config octad)"
exec "$prefix/bin/coordinator" --perft 10 "$@"
