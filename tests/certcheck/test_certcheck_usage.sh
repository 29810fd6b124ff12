#!/usr/bin/env bash
# test_certcheck_usage.sh: certcheck's command line as a user meets it: --help for the program
# and each command exits 0 on stdout; every bad command line exits 2 with a message that names
# what is wrong, and never runs a check.
# usage: test_certcheck_usage.sh CERTCHECK
set -uo pipefail
cc=${1:?CERTCHECK}
rc=0
fail() { echo "FAIL: $*"; rc=1; }

# expect CODE REGEX ARGS...: certcheck ARGS exits CODE and its output matches REGEX.
expect() {
    local code=$1 re=$2; shift 2
    local out got
    out=$("$cc" "$@" 2>&1); got=$?
    [ "$got" -eq "$code" ] || { fail "certcheck $* exited $got, expected $code: $out"; return; }
    grep -qE -- "$re" <<<"$out" || fail "certcheck $* printed no line matching /$re/: $out"
}

expect 0 '^  check ' --help
expect 0 '^usage: certcheck' -h
for c in check perft stats; do
    expect 0 "^usage: certcheck $c" "$c" --help
done
expect 2 '^usage: certcheck check FILE'
expect 2 "unknown command 'frob'" frob
expect 2 'certcheck check: expected 1 argument, got 0' check
expect 2 'certcheck check: expected 1 argument, got 2' check a b
expect 2 'certcheck perft: expected 2 arguments, got 1' perft x.epd
expect 2 'MAX_DEPTH must be a whole number from 1 to 12' perft x.epd 0
expect 2 'MAX_DEPTH must be a whole number from 1 to 12' perft x.epd 6x
expect 2 'DEPTH must be a whole number from 0 to 12' stats 4/4/4/4 13
expect 2 'NOT proved: /nonexistent/c.cert' check /nonexistent/c.cert
# --help wins over everything else on the line, as in the other programs
expect 0 '^usage: certcheck stats' stats bad --help
[ "$rc" -eq 0 ] && echo "PASS: certcheck's usage: every bad line refused with its reason"
exit "$rc"
