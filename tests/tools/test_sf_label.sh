#!/bin/sh
# test_sf_label.sh: tools/bench/sf_label.py against Debian's Stockfish. Scores come out for
# White (a queen up for either side, either side to move), a mate is left out as a
# '#' line unless --mate-cp is given, a run cut in the middle of a line resumes to the
# same file as one run, shards split the lines, and bad input names its line and field.
# usage: test_sf_label.sh SF_LABEL_PY   (exit 77: no stockfish here, skipped)
set -u
label=$1
sf=$(command -v stockfish || ls /usr/games/stockfish 2>/dev/null) || { echo "no stockfish: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fails=$((fails + 1)); }
run() { python3 "$label" "$@" --stockfish "$sf" --nodes 3000 2>"$tmp/err"; }
cat > "$tmp/in.txt" <<'X'
4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1;500
4k3/8/8/8/8/8/8/3QK3 b - - 0 1;1;500
3qk3/8/8/8/8/8/8/4K3 b - - 0 1;0;-500
3qk3/8/8/8/8/8/8/4K3 w - - 0 1;0;-500
7k/5Q2/6K1/8/8/8/8/8 w - - 0 1;1;900
X
run "$tmp/in.txt" "$tmp/a.txt" && [ "$(wc -l < "$tmp/a.txt")" -eq 5 ] && ok "five lines" || bad "five lines: $(cat "$tmp/err")"
awk -F';' 'NR <= 2 && $3 > 300 { n++ } NR >= 3 && NR <= 4 && $3 < -300 { n++ } END { exit n == 4 ? 0 : 1 }' "$tmp/a.txt" \
    && ok "scores are for White" || bad "scores are for White: $(cat "$tmp/a.txt")"
grep -qx '#7k/5Q2/6K1/8/8/8/8/8 w - - 0 1;1;mate' "$tmp/a.txt" && ok "mate left out" || bad "mate left out"
grep -q '1 mates left out' "$tmp/err" && ok "mate counted" || bad "mate counted: $(cat "$tmp/err")"
run "$tmp/in.txt" "$tmp/m.txt" --mate-cp 2000 && grep -qx '7k/5Q2/6K1/8/8/8/8/8 w - - 0 1;1;2000' "$tmp/m.txt" \
    && ok "--mate-cp" || bad "--mate-cp: $(cat "$tmp/m.txt")"
# an interrupted run: two whole lines and half of the third stay in the journal
head -n 2 "$tmp/a.txt" > "$tmp/b.txt"
sed -n 3p "$tmp/a.txt" | head -c 12 >> "$tmp/b.txt"
run "$tmp/in.txt" "$tmp/b.txt" && cmp -s "$tmp/a.txt" "$tmp/b.txt" && grep -q '(2 from an earlier run)' "$tmp/err" \
    && ok "resume" || bad "resume: $(cat "$tmp/err"; diff "$tmp/a.txt" "$tmp/b.txt")"
run "$tmp/in.txt" "$tmp/s0.txt" --shard 0/2 && run "$tmp/in.txt" "$tmp/s1.txt" --shard 1/2 \
    && cat "$tmp/s0.txt" "$tmp/s1.txt" | sort > "$tmp/s.txt" && sort "$tmp/a.txt" | cmp -s - "$tmp/s.txt" \
    && [ "$(wc -l < "$tmp/s0.txt")" -eq 3 ] && ok "shards" || bad "shards"
printf '4k3/8/8/8/8/8/8/3QK3 w - - 0 1;2;0\n' > "$tmp/r.txt"
run "$tmp/r.txt" "$tmp/x.txt"; [ $? -eq 2 ] && grep -q 'line 1: result' "$tmp/err" && ok "bad result" || bad "bad result: $(cat "$tmp/err")"
printf '\n4k3/8/8 x - - 0 1;1;0\n' > "$tmp/f.txt"
run "$tmp/f.txt" "$tmp/x.txt"; [ $? -eq 2 ] && grep -q 'line 2: FEN' "$tmp/err" && ok "bad FEN" || bad "bad FEN: $(cat "$tmp/err")"
run "$tmp/in.txt" "$tmp/x.txt" --shard 2/2; [ $? -eq 2 ] && grep -q -- '--shard' "$tmp/err" && ok "bad shard" || bad "bad shard"
run "$tmp/in.txt" "$tmp/a.txt" --shard 1/2; [ $? -eq 2 ] && grep -q 'not its journal' "$tmp/err" && ok "foreign journal" || bad "foreign journal: $(cat "$tmp/err")"
[ "$fails" -eq 0 ] && echo "all passed" || { echo "$fails failed"; exit 1; }
