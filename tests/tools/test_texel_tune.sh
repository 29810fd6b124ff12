#!/usr/bin/env bash
# test_texel_tune.sh: the Texel tuner's round trip. On a few self-play games
# (bench_texel_games), zero epochs must print the weights, the mobility and king-danger tables
# and the piece-square values exactly as core/engine/eval_chess_params.h and
# core/engine/eval_chess_pst.h hold them (so a tuned table pasted back is what was
# tuned), and 50 epochs must change them and
# lower the training error, on the results and on results blended with the
# search scores (--lambda), which a file without scores must refuse; and
# tools/bench/texel_apply.py must put a tuned output back into copies of the headers.
# usage: test_texel_tune.sh GAMES_EXE TUNE_EXE ENGINE_DIR
set -u
games=$1 tune=$2 engine=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../fixtures/check.sh"

# The two macro definitions of a header or of the tuner's output, whitespace squeezed.
defs() {
    awk '/^#define EVAL_CHESS_(PARAMS|MOBILITY|KING_DANGER|PST)/ { on = 1 } on { print } on && !/\\$/ { on = 0 }' "$@" | tr -s ' \t' ' '
}

check "games" 0 '' -- "$games" --games 3 --nodes 300 --seed 5 --out "$tmp/data.txt"
check "data" 0 ';' -- head -n 1 "$tmp/data.txt"
"$tune" "$tmp/data.txt" --epochs 0 >"$tmp/zero.txt" 2>"$tmp/zero.log"
defs "$engine/eval_chess_params.h" "$engine/eval_chess_pst.h" >"$tmp/want.txt"
defs "$tmp/zero.txt" >"$tmp/got.txt"
check "four tables in the headers" 0 '^4$' -- grep -c '^#define' "$tmp/want.txt"
check "zero epochs print the headers' values" 0 '' -- diff "$tmp/want.txt" "$tmp/got.txt"
"$tune" "$tmp/data.txt" --epochs 50 --rate 1 --keep last >"$tmp/tuned.txt" 2>"$tmp/tuned.log"
defs "$tmp/tuned.txt" >"$tmp/tuned-defs.txt"
check "50 epochs change the values" 1 '' -- diff -q "$tmp/want.txt" "$tmp/tuned-defs.txt"
mkdir "$tmp/hdr" && cp "$engine/eval_chess_params.h" "$engine/eval_chess_pst.h" "$tmp/hdr/"
check "texel_apply puts the tuned tables in" 0 'replaced' -- python3 "$(dirname "$0")/../../tools/bench/texel_apply.py" "$tmp/tuned.txt" "$tmp/hdr"
defs "$tmp/hdr/eval_chess_params.h" "$tmp/hdr/eval_chess_pst.h" >"$tmp/applied.txt"
check "the headers then hold the tuned values" 0 '' -- diff "$tmp/tuned-defs.txt" "$tmp/applied.txt"
check "the rest of the headers is kept" 0 '' -- diff <(grep -v '^ ' "$engine/eval_chess_params.h" | grep -v '^#define') <(grep -v '^ ' "$tmp/hdr/eval_chess_params.h" | grep -v '^#define')
head -n -1 "$tmp/tuned.txt" | grep -v KING_DANGER >"$tmp/cut.txt"
check "a missing table is refused" 1 'no block' -- python3 "$(dirname "$0")/../../tools/bench/texel_apply.py" "$tmp/cut.txt" "$tmp/hdr"
errs=$(sed -n 's/.*error before \([0-9.]*\) .* after \([0-9.]*\) .*/\1 \2/p' "$tmp/tuned.log")
check "the training error falls ($errs)" 0 '^yes$' -- awk -v e="$errs" 'BEGIN { split(e, v, " "); print (v[2] < v[1] ? "yes" : "no") }'
check "a score on every line" 1 '^0$' -- grep -vcE ';[01](\.5)?;-?[0-9]+$' "$tmp/data.txt"
"$tune" "$tmp/data.txt" --epochs 50 --rate 1 --lambda 0.5 --keep last >/dev/null 2>"$tmp/blend.log"
errs=$(sed -n 's/.*error before \([0-9.]*\) .* after \([0-9.]*\) .*/\1 \2/p' "$tmp/blend.log")
check "blended targets: the training error falls ($errs)" 0 '^yes$' -- awk -v e="$errs" 'BEGIN { split(e, v, " "); print (v[2] < v[1] ? "yes" : "no") }'
cut -d';' -f1,2 "$tmp/data.txt" >"$tmp/noscore.txt"
check "blending needs scores" 2 'needs a search score' -- "$tune" "$tmp/noscore.txt" --epochs 1 --lambda 0.5
"$tune" "$tmp/data.txt" --epochs 50 --rate 1 --lambda 0 --score-k fit --keep last >/dev/null 2>"$tmp/sk.log"
check "--score-k fit reports the scores' own K" 0 "scores' own K [0-9.]+" -- cat "$tmp/sk.log"
errs=$(sed -n 's/.*error before \([0-9.]*\) .* after \([0-9.]*\) .*/\1 \2/p' "$tmp/sk.log")
check "its training error falls ($errs)" 0 '^yes$' -- awk -v e="$errs" 'BEGIN { split(e, v, " "); print (v[2] < v[1] ? "yes" : "no") }'
check "--score-k fit needs scores" 2 'needs a search score' -- "$tune" "$tmp/noscore.txt" --epochs 1 --lambda 0 --score-k fit
check "--score-k takes same or fit" 2 'unknown option' -- "$tune" "$tmp/data.txt" --epochs 1 --score-k other
{ echo '#7k/5Q2/6K1/8/8/8/8/8 w - - 0 1;1;mate'; cat "$tmp/data.txt"; } >"$tmp/comment.txt"
"$tune" "$tmp/comment.txt" --epochs 0 >"$tmp/comment-out.txt" 2>"$tmp/comment.log"
check "a '#' line is skipped without a word" 1 '' -- grep -q 'expected FEN' "$tmp/comment.log"
check "and changes nothing" 0 '' -- diff "$tmp/zero.txt" "$tmp/comment-out.txt"
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
