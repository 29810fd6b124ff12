#!/usr/bin/env bash
# test.sh: installs the dependencies, builds (Release, then ASan+UBSan) and runs the
# quick test suite in both builds (the second one portable), then fuzzes the wire decoder
# and the position parsers briefly (libFuzzer).
# Prints one summary line per stage and ends with one verdict line; each stage's full
# output goes to build-logs/STAGE.log and is printed only when that stage fails.
# Deep perft tests carry the ctest label `slow`: run them with
#   ctest --test-dir build -L slow
set -uo pipefail
cd "$(dirname "$0")/.."
# The sanitizer build's quick suite leaves out the tests whose time goes to computation, a
# browser or other programs (Stockfish, chessops, CMake, netns), not to memory handling the
# rest of the suite does not reach: the Release build runs each in full, and beside each is
# the sanitized test of the same code (or "none"). Run them sanitized with
#   ctest --test-dir build-asan -R "$(bash tools/test.sh --asan-skipped)"
ASAN_SKIP=(
    test_perft_compare          # none: --compare and --check-engine (about 100 s sanitized)
    test_perft_stats test_perft_stats_960  # --stats: test_game_cli, test_certcheck_perft_deploy
    test_certcheck_certs        # certcheck's reader: test_certcheck_start, test_certcheck_rules, the fuzzers
    test_ep_exact               # the e.p. dtz: test_solve, test_verify_forward
    test_solve_count            # the counts: test_solve
    test_straggler_copies test_straggler_verify  # copies: test_kinds, test_lease_rules
    test_late_answer_perft test_resets_perft     # the same rules: their analyse and solve cases
    test_bad_network_quick      # the cluster's paths: test_faults_*, test_resets_analyse, _solve
    test_status_page test_explorer test_status_worker  # chromium; the servers: test_status_http, test_serve
    test_oracle                 # the oracle's answers: test_serve, the query fuzzer
    test_configure_missing      # CMake alone
)
if [ "${1:-}" = "--asan-skipped" ]; then # the list as a ctest regular expression
    (IFS='|'; echo "^(${ASAN_SKIP[*]})\$")
    exit 0
fi

LOGS=build-logs
FUZZ_SECONDS=${FUZZ_SECONDS:-10}
mkdir -p "$LOGS"
rm -f "$LOGS"/*.log
t_start=$(date +%s)
failed=()

# stage NAME LOG COMMAND...: runs COMMAND with its output in LOG; sets $secs; status of COMMAND.
stage() {
    local name=$1 log=$LOGS/$2.log t0 rc
    shift 2
    t0=$(date +%s)
    "$@" >"$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - t0))
    if [ "$rc" -ne 0 ]; then
        failed+=("$name")
        echo "---- $name failed (exit $rc); its log, $log:"
        cat "$log"
        echo "---- end of $log"
    fi
    return "$rc"
}

# tests NAME LOG BUILD_DIR [ctest options...] [-- env...]: the quick suite; one line: passed, failed, skipped.
tests() {
    local name=$1 log=$2 dir=$3 rc opts=()
    shift 3
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    stage "$name" "$log" env "$@" ctest --test-dir "$dir" -LE slow "${opts[@]}" --output-on-failure -j2
    rc=$?
    local summary skipped broken
    summary=$(grep -E '^[0-9]+% tests passed' "$LOGS/$log.log" | tail -1)
    skipped=$(grep -E '^\s+[0-9]+ - .*\((Skipped|Not Run|Disabled)\)' "$LOGS/$log.log" | awk '{print $3}' | paste -sd' ')
    broken=$(grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess aborted|Exception|Child aborted)' \
             "$LOGS/$log.log" | awk '{print $3}' | paste -sd' ')
    printf '%-28s %s%s%s (%d s)\n' "$name" "${summary:-no ctest summary}" "${broken:+; FAILED: $broken}" \
           "${skipped:+; skipped: $skipped}" "$secs"
    return "$rc"
}

# fuzz NAME LOG SCRIPT BUILD_DIR: libFuzzer for FUZZ_SECONDS; one line: runs, coverage, crashes.
fuzz() {
    local name=$1 log=$2 script=$3 dir=$4 stamp=$LOGS/.$2.stamp rc
    touch "$stamp"
    stage "$name" "$log" bash "$script" "$FUZZ_SECONDS" "$dir"
    rc=$?
    local runs cov crashes
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOGS/$log.log" | tail -1)
    cov=$(grep -oE '(DONE|INITED) +cov: [0-9]+ ft: [0-9]+' "$LOGS/$log.log" | tail -1 | awk '{print $3 " edges, " $5 " features"}')
    crashes=$(find "$dir" -maxdepth 1 -name 'crash-*' -newer "$stamp" 2>/dev/null | wc -l)
    printf '%-28s %s runs, coverage %s, %d crash(es) (%d s)\n' "$name" "${runs:-?}" "${cov:-?}" "$crashes" "$secs"
    rm -f "$stamp"
    return "$rc"
}

# build NAME LOG DIR [cmake options...]
build() {
    local name=$1 log=$2
    shift 2
    stage "$name" "$log" bash tools/build.sh "$@"
    local rc=$?
    printf '%-28s %s (%d s)\n' "$name" "$([ "$rc" -eq 0 ] && echo ok || echo FAILED)" "$secs"
    return "$rc"
}

stage "dependencies" deps bash tools/install-deps.sh
printf '%-28s %s (%d s)\n' "dependencies (apt)" "$([ ${#failed[@]} -eq 0 ] && echo ok || echo FAILED)" "$secs"

# The tests start python3 some hundreds of times. Where python3 in PATH is a version manager's
# shim (pyenv's costs about 0.8 s per start, the interpreter itself 0.05 s), that alone adds
# minutes: the interpreter the shim resolves to goes first in PATH, through a directory that
# holds only it, for the build (CMake's Python3) and every test.
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$py" ] && [ -x "$py" ]; then
    mkdir -p "$LOGS/python"
    ln -sf "$py" "$LOGS/python/python3"
    export PATH="$PWD/$LOGS/python:$PATH"
fi

if build "Release build" build-release build; then
    tests "Release tests" tests-release build
fi
# The sanitizer build is also the portable one (no -march=native): it tests the
# code paths a CPU without BMI2 takes (octad's multiply-shift slider index, chess magics).
if build "ASan+UBSan build (portable)" build-asan build-asan \
         -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOCTAD_SANITIZE=ON -DOCTAD_NATIVE=OFF; then
    tests "ASan+UBSan tests" tests-asan build-asan -E "$(IFS='|'; echo "^(${ASAN_SKIP[*]})\$")" -- ASAN_OPTIONS=detect_leaks=1
fi
fuzz "fuzzing the message decoder" fuzz-msg-decode proto/fuzz/run.sh build-fuzz
fuzz "fuzzing the position parsers" fuzz-parse core/fuzz/run.sh build-fuzz
fuzz "fuzzing the oracle's queries" fuzz-query serve/fuzz/run.sh build-fuzz

total=$(($(date +%s) - t_start))
elapsed="$((total / 60)) min $((total % 60)) s"
if [ ${#failed[@]} -eq 0 ]; then
    echo "test.sh: PASSED: every stage (build, Release and ASan+UBSan tests, fuzzing) in $elapsed; logs in $LOGS/"
else
    echo "test.sh: FAILED: $(printf '%s, ' "${failed[@]}" | sed 's/, $//') ($elapsed; logs in $LOGS/)"
    exit 1
fi
