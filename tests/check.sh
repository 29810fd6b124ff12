# check.sh: the check helper of the shell tests (sourced): runs a command and
# compares its exit status and output with what is expected, counting passes and fails.
fails=0 passes=0

check() { # check NAME EXPECTED_STATUS PATTERN -- command...
    local name=$1 want=$2 pattern=$3
    shift 4
    local out status
    out=$("$@" 2>&1)
    status=$?
    if [ "$status" -ne "$want" ] || ! grep -qE -- "$pattern" <<<"$out"; then
        echo "FAIL $name: status $status (want $want, pattern $pattern), output:"
        echo "$out" | head -8
        fails=$((fails + 1))
    else
        passes=$((passes + 1))
    fi
}
