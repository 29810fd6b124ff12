#!/usr/bin/env bash
# test_perft_compare.sh: `octad perft --compare` against Stockfish and our own `octad uci`
# (equal on suite positions), against a perftree script around Stockfish, and against
# engines with one deliberate bug each (broken_perft_engine.c): the answer must name the
# position and exactly the broken moves (perft_compare_named.py checks it independently).
# Engines that hang, crash or print garbage: exit status 1, a clear message, no hang.
# usage: test_perft_compare.sh OCTAD BROKEN_ENGINE DATA_DIR
set -u
octad=$1 broken=$2 data=$3
here=$(dirname "$0")
. "$here/../fixtures/check.sh"
sf=/usr/games/stockfish
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# line N of a suite, without its counts
pos() { sed -n "${2}p" "$data/$1" | sed 's/ *;.*//'; }

# ---- equal: Stockfish (chess, Chess960) and octad uci (octad), a few suite positions, small depths
if [ -x "$sf" ]; then
    for n in 1 2 3 4 5 6; do
        check "stockfish cpw line $n" 0 '^result +equal$' -- "$octad" perft --compare "$sf" --variant chess "$(pos chess-cpw.epd $n)" --depth 3
    done
    for n in 3 40 90; do
        check "stockfish standard line $n" 0 '^result +equal$' -- "$octad" perft --compare "$sf" --variant chess "$(pos chess-standard.epd $n)" --depth 3
    done
    for n in 1 500 960; do
        check "stockfish chess960 line $n" 0 '^result +equal$' -- "$octad" perft --compare "$sf" --variant chess960 "$(pos chess960-fischer.epd $n)" --depth 3
    done
    # Chess960 castles as king takes rook, both sides legal at the root
    check "stockfish chess960 castles" 0 '^result +equal$' -- "$octad" perft --compare "$sf" --variant chess960 "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1" --depth 3
    check "stockfish json" 0 '^\{"variant":"chess",.*"equal":true,"ours":8902,"theirs":8902,"path":\[\],"position":null' -- "$octad" perft --compare "$sf" --variant chess --depth 3 --json
    check "stockfish --moves" 0 '^result +equal$' -- "$octad" perft --compare "$sf" --variant chess --moves "e2e4 e7e5" --depth 2
    # castles written king takes rook in standard chess (Stockfish in its Chess960 mode) and
    # promotions in upper case are the same moves as ours
    cat >"$tmp/sf-other-notation" <<SH
#!/bin/sh
{ echo "setoption name UCI_Chess960 value true"; cat; } | $sf | sed -u 's/^\([a-h][1-8][a-h][1-8]\)\([qrbn]\):/\1\U\2:/'
SH
    chmod +x "$tmp/sf-other-notation"
    check "other castle notation" 0 '^result +equal$' -- "$octad" perft --compare "$tmp/sf-other-notation" --variant chess "$(pos chess-cpw.epd 2)" --depth 3
    check "upper-case promotions" 0 '^result +equal$' -- "$octad" perft --compare "$tmp/sf-other-notation" --variant chess "$(pos chess-cpw.epd 6)" --depth 3
    # the perftree convention, by a script around Stockfish as users write them
    cat >"$tmp/sf-perftree" <<SH
#!/bin/sh
# perftree script: DEPTH FEN [MOVES]
printf 'position fen %s moves %s\ngo perft %s\nquit\n' "\$2" "\$3" "\$1" | $sf | sed -n -e '/^[a-h][1-8][a-h][1-8][a-z]*: /s/://p' -e 's/^Nodes searched: \(.*\)/\n\1/p'
SH
    chmod +x "$tmp/sf-perftree"
    check "stockfish perftree equal" 0 '^result +equal$' -- "$octad" perft --compare "$tmp/sf-perftree" --protocol perftree --variant chess "$(pos chess-cpw.epd 2)" --depth 3
else
    echo "note: no $sf: the Stockfish comparisons are skipped (tools/install-deps.sh installs it)"
fi
for n in 1 77 300; do
    check "octad uci standard line $n" 0 '^result +equal$' -- "$octad" perft --compare "$octad uci" "$(pos octad-standard.epd $n)" --depth 4
done
check "octad uci deploy line 9" 0 '^result +equal$' -- "$octad" perft --compare "$octad uci" --variant octad "$(pos octad-deploy.epd 9)" --depth 4
check "reference engine equal" 0 '^result +equal$' -- "$octad" perft --compare "$broken none" --variant chess "$(pos chess-cpw.epd 4)" --depth 3

# ---- broken engines: exactly the broken moves and the position, every time
named() { # named NAME VARIANT BUG PROTOCOL POSITION DEPTH
    local out status
    out=$("$octad" perft --compare "$broken $3" --protocol "$4" --variant "$2" "$5" --depth "$6" --json 2>&1)
    status=$?
    if [ "$status" -ne 3 ]; then
        echo "FAIL $1: status $status (want 3): $out"
        fails=$((fails + 1))
    elif ! python3 "$here/perft_compare_named.py" "$octad" "$2" "$3" <<<"$out" >"$tmp/named" 2>&1; then
        echo "FAIL $1: $(cat "$tmp/named")"
        echo "$out"
        fails=$((fails + 1))
    else
        passes=$((passes + 1))
    fi
}
kiwi=$(pos chess-cpw.epd 2) p3=$(pos chess-cpw.epd 3) p4=$(pos chess-cpw.epd 4) p4m=$(pos chess-cpw.epd 5) p5=$(pos chess-cpw.epd 6)
for proto in uci perftree; do
    named "ep root $proto" chess ep $proto "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3" 1
    named "ep kiwipete $proto" chess ep $proto "$kiwi" 3
    named "ep position 3 $proto" chess ep $proto "$p3" 4
    named "underpromotion position 4 $proto" chess underpromotion $proto "$p4" 3
    named "underpromotion position 4 mirrored $proto" chess underpromotion $proto "$p4m" 3
    named "underpromotion position 5 $proto" chess underpromotion $proto "$p5" 2
    named "castle through check root $proto" chess castle-through-check $proto "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1" 1
    named "castle through check kiwipete $proto" chess castle-through-check $proto "$kiwi" 3
    named "castle through check black $proto" chess castle-through-check $proto "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1" 3
    named "castle through check black root $proto" chess castle-through-check $proto "r3k2r/8/8/8/8/8/8/4KR2 b kq - 0 1" 3
done
named "octad ep" octad ep uci "1N1k/4/pP1n/2K1 w - a3 0 6" 3
named "octad ep perftree" octad ep perftree "1N1k/4/pP1n/2K1 w - a3 0 6" 3
named "octad ep deeper" octad ep uci "$(pos octad-standard.epd 1)" 5
# the exact answer for one case, in text: the smallest differing move first (e2d1), then c7c5
check "ep kiwipete text" 3 '^path +e2d1 c7c5$' -- "$octad" perft --compare "$broken ep" --variant chess "$kiwi" --depth 3
check "ep kiwipete missing" 3 '^missing +d5c6$' -- "$octad" perft --compare "$broken ep" --variant chess "$kiwi" --depth 3
check "ep kiwipete position" 3 '^position +r3k2r/p2pqpb1/bn2pnp1/2pPN3/1p2P3/2N2Q1p/PPPB1PPP/R2BK2R w KQkq c6 0 2$' -- "$octad" perft --compare "$broken ep" --variant chess "$kiwi" --depth 3

# a count that differs at depth 1 (the first move of every divide counted once more), and a
# divide that does not add up to the total printed
# plus-one miscounts exactly the first move of each of its divides: the descent must follow
# that move at every ply and name it at depth 1; the engine itself says which move is first.
first_move() { printf 'uci\nposition fen %s moves %s\ngo perft 1\nquit\n' "$1" "$2" | "$broken" none | sed -n 's/^\([a-h][1-8][a-h][1-8][a-z]*\): 1$/\1/p' | head -1; }
start="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
m1=$(first_move "$start" "") m2=$(first_move "$start" "$m1")
m3=$(first_move "$start" "$m1 $m2")
check "plus-one path" 3 "^path +$m1 $m2\$" -- "$octad" perft --compare "$broken plus-one" --variant chess --depth 3
check "plus-one json" 3 "\"path\":\\[\"$m1\",\"$m2\"\\],.*\"missing\":\\[\\],\"extra\":\\[\\],\"move\":\"$m3\",\"move_ours\":1,\"move_theirs\":2," -- "$octad" perft --compare "$broken plus-one" --variant chess --depth 3 --json
check "root-plus-one inconsistent" 3 "^why +the engine counted 401 after move $m1 one ply up, but its divide here sums to 400\$" -- "$octad" perft --compare "$broken root-plus-one" --variant chess --depth 3
check "bad total" 3 "^why +the engine's divide sums to 8902 but it printed the total 8903$" -- "$octad" perft --compare "$broken bad-total" --variant chess --depth 3

# ---- engines that fail: exit status 1, a clear message, no hang, nothing left running
for proto in uci perftree; do
    start=$(date +%s)
    check "hang $proto" 1 'no answer within 2.0 s' -- "$octad" perft --compare "$broken hang" --protocol $proto --variant chess --depth 2 --timeout 2
    took=$(($(date +%s) - start))
    if [ "$took" -gt 8 ]; then
        echo "FAIL hang $proto took $took s with --timeout 2"
        fails=$((fails + 1))
    fi
    if pgrep -f "$broken hang" >/dev/null; then
        echo "FAIL hang $proto: the engine still runs after octad exited"
        fails=$((fails + 1))
    fi
    check "crash $proto" 1 'signal 11.*\(asked: perft 2 of rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\)' -- "$octad" perft --compare "$broken crash" --protocol $proto --variant chess --depth 2
    check "garbage $proto" 1 "cannot read its line 'Segmentation fault in movegen at ply 2'" -- "$octad" perft --compare "$broken garbage" --protocol $proto --variant chess --depth 2
done
check "engine not found" 1 "stopped \(exited with status 127\)" -- "$octad" perft --compare "$tmp/no-such-engine" --variant chess --depth 2
check "engine never says uciok" 1 "no answer within 1.0 s while waiting for 'uciok'" -- "$octad" perft --compare "sleep 30" --timeout 1 --variant chess --depth 2
check "perftree no total" 1 'printed no total' -- "$octad" perft --compare "printf 'e2e4 1\n'; true" --protocol perftree --variant chess --depth 1

# ---- bad usage: exit status 2, the option named
check "compare needs a command" 2 '--compare needs a value' -- "$octad" perft --compare
check "compare empty command" 2 "--compare: expected a non-empty value" -- "$octad" perft --compare ""
check "bad protocol" 2 "--protocol: unknown protocol 'xboard'" -- "$octad" perft --compare x --protocol xboard
check "bad depth" 2 '--depth: expected an integer in 1..40, got .0.' -- "$octad" perft --compare x --depth 0
check "bad timeout" 2 '--timeout: expected an integer in 1..86400, got .0.' -- "$octad" perft --compare x --timeout 0
check "bad position" 2 'FEN' -- "$octad" perft --compare x --variant chess "8/8/8 w - - 0 1"
check "two positions" 2 'one position only' -- "$octad" perft --compare x --variant chess "8/8/8/8/8/8/8/K1k5 w - - 0 1" "8/8/8/8/8/8/8/K1k5 b - - 0 1"
check "compare help" 0 'usage: octad perft --compare' -- "$octad" perft --compare x --help
check "compare --help alone" 0 'usage: octad perft --compare' -- "$octad" perft --compare --help

# ---- --check-engine: a whole suite
if [ -x "$sf" ]; then
    check "check-engine stockfish cpw" 0 '^passed 7, failed 0, engine errors 0, not run 0$' -- "$octad" perft --check-engine "$sf" --variant chess --suite "$data/chess-cpw.epd" --max-depth 3
    head -5 "$data/chess960-fischer.epd" >"$tmp/mine.epd"
    check "check-engine stockfish user suite 960" 0 '^passed 5, failed 0' -- "$octad" perft --check-engine "$sf" --variant chess960 --suite "$tmp/mine.epd" --max-depth 3
    check "check-engine stockfish progress" 0 '^\[7/7\] line 7 depth 2: pass$' -- "$octad" perft --check-engine "$sf" --variant chess --suite "$data/chess-cpw.epd" --max-depth 2
fi
head -20 "$data/octad-standard.epd" >"$tmp/octad20.epd"
check "check-engine octad uci" 0 '^passed 20, failed 0' -- "$octad" perft --check-engine "$octad uci" --suite "$tmp/octad20.epd" --max-depth 4
check "check-engine ep text" 3 '^passed 3, failed 4, engine errors 0, not run 0$' -- "$octad" perft --check-engine "$broken ep" --variant chess --suite "$data/chess-cpw.epd"
check "check-engine ep table" 3 '^2 +3 +97862 +97766 +FAIL$' -- "$octad" perft --check-engine "$broken ep" --variant chess --suite "$data/chess-cpw.epd"
# every failure of the JSON answer names exactly the broken moves (the same checker as above)
for bug in ep underpromotion castle-through-check; do
    "$octad" perft --check-engine "$broken $bug" --variant chess --suite "$data/chess-cpw.epd" --max-depth 3 --json >"$tmp/$bug.json" 2>/dev/null
    status=$?
    nfail=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["failed"])' "$tmp/$bug.json" 2>&1)
    if [ "$status" -ne 3 ] || [ "$nfail" = 0 ]; then
        echo "FAIL check-engine $bug: status $status, failed '$nfail' (want 3 and some)"
        fails=$((fails + 1))
        continue
    fi
    for i in $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(" ".join(str(i) for i,p in enumerate(r["positions"]) if p["status"]=="fail"))' "$tmp/$bug.json"); do
        python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["positions"][int(sys.argv[2])]))' "$tmp/$bug.json" "$i" >"$tmp/one.json"
        if python3 "$here/perft_compare_named.py" "$octad" chess "$bug" <"$tmp/one.json" >"$tmp/named" 2>&1; then
            passes=$((passes + 1))
        else
            echo "FAIL check-engine $bug position $i: $(cat "$tmp/named")"
            fails=$((fails + 1))
        fi
    done
done
check "check-engine json" 3 '^\{"engine":".*","protocol":"uci","suite":".*chess-cpw.epd","variant":"chess","max_depth":3,"passed":3,"failed":4,"errors":0,"not_run":0,"positions":\[\{"line":1,"root":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","depth":3,"suite_count":8902,"status":"pass","equal":true' -- "$octad" perft --check-engine "$broken ep" --variant chess --suite "$data/chess-cpw.epd" --json
check "check-engine crash" 1 'stopped, 4 not run' -- "$octad" perft --check-engine "$broken crash" --variant chess --suite "$data/chess-cpw.epd"
check "check-engine hang" 1 'no answer within 1.0 s' -- "$octad" perft --check-engine "$broken hang" --variant chess --suite "$data/chess-cpw.epd" --timeout 1
check "check-engine needs suite" 2 'needs --suite FILE' -- "$octad" perft --check-engine x
check "check-engine no such suite" 2 "--suite: cannot open" -- "$octad" perft --check-engine x --suite "$tmp/none.epd"
printf '# a comment\n8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3\nnot a position ;D1 3\n' >"$tmp/bad.epd"
check "check-engine bad suite line" 2 'line 3: ' -- "$octad" perft --check-engine x --variant chess --suite "$tmp/bad.epd"
check "check-engine wrong variant" 2 'line 1: .*--variant' -- "$octad" perft --check-engine x --suite "$data/chess-cpw.epd"
check "check-engine no position options" 2 "unknown option '--fen'" -- "$octad" perft --check-engine x --suite "$tmp/bad.epd" --fen "8/8/8/8/8/8/8/K1k5 w - - 0 1"
check "check-engine bad max depth" 2 '--max-depth: expected an integer in 1..16, got .0.' -- "$octad" perft --check-engine x --suite "$tmp/bad.epd" --max-depth 0
check "check-engine help" 0 'usage: octad perft --check-engine' -- "$octad" perft --check-engine x --help
check "check-engine --help alone" 0 'usage: octad perft --check-engine' -- "$octad" perft --check-engine --help

echo "test_perft_compare: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
