#!/usr/bin/env bash
# test.sh: installs the dependencies, builds (Release, then ASan+UBSan) and runs the
# quick test suite in both builds (the second one portable), then fuzzes the wire decoder
# and the position parsers briefly (libFuzzer).
# Deep perft tests carry the ctest label `slow`: run them with
#   ctest --test-dir build -L slow
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

echo "== Release build"
bash scripts/build.sh build
echo "== Release tests"
ctest --test-dir build -LE slow --output-on-failure -j2

# The sanitizer build is also the portable one (no -march=native): it tests the
# code paths a CPU without BMI2 takes (octad's multiply-shift slider index, chess magics).
echo "== ASan+UBSan build (portable: no -march=native)"
bash scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOCTAD_SANITIZE=ON -DOCTAD_NATIVE=OFF
echo "== ASan+UBSan tests"
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan -LE slow --output-on-failure -j2

echo "== fuzzing the message decoder (15 s)"
bash proto/fuzz/run.sh 15 build-fuzz
echo "== fuzzing the position parsers (15 s)"
bash core/fuzz/run.sh 15 build-fuzz
echo "== all tests passed"
