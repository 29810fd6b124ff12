#!/usr/bin/env bash
# certify.sh: certificate sizes and check times (BENCHMARKS.md, issue 34). For each position:
# `octad certify` with the small-certificate preferences and with --plain, side by side, then
# `certcheck check` on both, each check timed RUNS times (median).
# usage: certify.sh BUILD_DIR TABLES_DIR [RUNS] < positions (one OFEN a line)
# PLAIN=0 skips the --plain columns (they can be 40 times larger and slower).
set -euo pipefail
bin=$1/bin tables=$2 runs=${3:-3}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '| position | claim | records | bytes | make s | check s (median of %d) | --plain records | --plain bytes | --plain check s |\n' "$runs"
printf '|---|---|---|---|---|---|---|---|---|\n'
while IFS= read -r pos; do
    [ -n "$pos" ] || continue
    row="| \`$pos\` |"
    modes=(pref); [ "${PLAIN:-1}" = 0 ] || modes+=(plain)
    for mode in "${modes[@]}"; do
        flag=(); [ "$mode" = plain ] && flag=(--plain)
        line=$("$bin/octad" certify --tables "$tables" --ofen "$pos" --out "$work/$mode" "${flag[@]}")
        file=${line%%  *}
        claim=$(awk '{print $2}' <<<"$line")
        records=$(grep -oE '(white|black|nodes) [0-9]+' <<<"$line" | awk '{s+=$2; t=t (t?"+":"") $2} END {print t}')
        bytes=$(grep -oE '[0-9]+ bytes' <<<"$line" | cut -d' ' -f1)
        make=$(grep -oE '[0-9.]+ s$' <<<"$line" | cut -d' ' -f1)
        check=$(for _ in $(seq "$runs"); do
                    s=$(date +%s.%N); "$bin/certcheck" check "$file" >/dev/null; e=$(date +%s.%N)
                    echo "$e - $s" | bc; done | median | xargs printf "%.3f")
        if [ "$mode" = pref ]; then row+=" $claim | $records | $bytes | $make | $check |"
        else row+=" $records | $bytes | $check |"; fi
    done
    echo "$row"
done
