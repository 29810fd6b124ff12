#!/usr/bin/env bash
# test.sh: installs the dependencies, builds (Release, then ASan+UBSan) and runs the
# quick test suite in both builds, then fuzzes the wire decoder briefly.
# Deep perft tests carry the ctest label `slow`: run them with
#   ctest --test-dir build -L slow
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

echo "== Release build"
bash scripts/build.sh build
echo "== Release tests"
ctest --test-dir build -LE slow --output-on-failure -j2

echo "== ASan+UBSan build"
bash scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOCTAD_SANITIZE=ON
echo "== ASan+UBSan tests"
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan -LE slow --output-on-failure -j2

if [ -f proto/fuzz/run.sh ]; then
    echo "== fuzzing the message decoder (20 s)"
    bash proto/fuzz/run.sh 20 build-fuzz
fi
echo "== all tests passed"
