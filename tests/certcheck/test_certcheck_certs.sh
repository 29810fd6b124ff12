#!/usr/bin/env bash
# test_certcheck_certs.sh: certificates made by `octad certify` from small tables made here
# (5 men, ~10 s) are proved by certcheck, with the claim the tables give (wins and draws, with
# castling rights and e.p.); damaged ones are refused, naming the position and the reason.
# usage: test_certcheck_certs.sh OCTAD CERTCHECK
set -uo pipefail
octad=$1 check=$2 here=$(dirname "$0")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
rc=0
fail() { echo "FAIL: $*"; rc=1; }
"$octad" solve --max-pieces 5 --tables "$work/t" --quiet --threads 2 >/dev/null || { echo "FAIL: solve"; exit 1; }

# position | the claim the tables give (win/loss for the side to move -> who wins)
positions=(
  "k3/4/4/1KP1 w C - 0 1|White wins"          # castling right, KPvK
  "2k1/1p2/4/NKP1 w NC - 40 1|White wins"     # two rights, clock 40
  "1pkn/4/4/1K2 w nc - 0 1|Black wins"        # Black's rights
  "3k/1pP1/4/K3 b - c2 0 1|Black wins"        # e.p. capture available
  "2k1/4/pP2/K3 w - a3 0 1|White wins"        # e.p. for White
  "ppk1/4/4/NK2 w Ncf - 0 1|draw"             # rights on both sides
  "1k2/1pP1/4/3K b - c2 0 1|draw"             # e.p., drawn
  "1k2/4/pP2/3K w - a3 0 1|draw"
)
for line in "${positions[@]}"; do
    pos=${line%%|*} want=${line#*|}
    value=$("$octad" probe --tables "$work/t" "$pos" | sed -n 2p)
    out=$("$octad" certify --tables "$work/t" --ofen "$pos" --out "$work/c") || { fail "certify $pos"; continue; }
    file=${out%%  *}
    got=$("$check" check "$file"); st=$?
    [ "$st" -eq 0 ] && [[ "$got" == "proved: $want for "* ]] || fail "$pos ($value): certcheck said [$got] (exit $st), want proved: $want"
    echo "ok: $pos: $value; $got"
done

win="$work/c/k3-4-4-1KP1_w_C_-_0_1.cert" draw="$work/c/ppk1-4-4-NK2_w_Ncf_-_0_1.cert"
# kind | certificate | what the refusal must say | exit status
cases=(
  "missing-reply|$draw|this reply is missing from the closure|1"
  "illegal-move|$win|the designated move is not legal|1"
  "rank-flat|$win|its node's rank does not fall|1"
  "white-mated|$draw|White is checkmated inside White's closure|1"
  "flip-bit|$draw|damaged|2"
  "flip-record|$win|checksum|2"
  "truncate|$win|truncated|2"
)
for c in "${cases[@]}"; do
    IFS='|' read -r kind file reason want_st <<<"$c"
    named=$(python3 "$here/cert_damage.py" "$file" "$work/bad.cert" "$kind") || { fail "damage $kind"; continue; }
    got=$("$check" check "$work/bad.cert"); st=$?
    [ "$st" -eq "$want_st" ] || fail "$kind: exit $st, want $want_st: $got"
    [[ "$got" == "NOT proved: "*"$reason"* ]] || fail "$kind: [$got] does not say '$reason'"
    [[ "$got" != *"proved: "[A-Z]* && "$got" != proved* ]] || fail "$kind: claimed a proof: $got"
    if [ "$want_st" -eq 1 ]; then  # the position is named as an OFEN, the damaged one when known
        [[ "$got" =~ record\ [0-9]+\ \([pnbrqkPNBRQK1-4/]+\ [wb]\  ]] || fail "$kind: no position named: $got"
        [ -z "$named" ] || [[ "$got" == *"($named "* ]] || fail "$kind: names another position than $named: $got"
    fi
    echo "ok: $kind refused: $got"
done
# 200 random damages of 1-3 flipped bits anywhere: each refused (exit 1 or 2), or, when the
# flips hit bits zstd ignores (the header and the decompressed body unchanged: the same
# certificate), proved; never a proof of changed content.
python3 - "$check" "$win" "$draw" "$work/fz.cert" <<'PY' || fail "random damage"
import random, subprocess, sys
check, files, tmp = sys.argv[1], sys.argv[2:4], sys.argv[4]
random.seed(34)
same = 0
for t in range(200):
    b = bytearray(open(files[t % 2], "rb").read())
    for _ in range(random.randint(1, 3)):
        i = random.randrange(len(b))
        b[i] ^= 1 << random.randrange(8)
    open(tmp, "wb").write(b)
    r = subprocess.run([check, "check", tmp], capture_output=True)
    if r.returncode == 0:
        orig = open(files[t % 2], "rb").read()
        h = orig.index(b"\n", orig.index(b"\nchecksum ") + 1) + 1
        unzip = lambda z: subprocess.run(["zstd", "-d", "-c", "-q"], input=z, capture_output=True).stdout
        if bytes(b[:h]) != orig[:h] or unzip(bytes(b[h:])) != unzip(orig[h:]):
            sys.exit("damage %d: changed content proved: %r" % (t, r.stdout[:200]))
        same += 1
    elif r.returncode not in (1, 2) or r.stderr or not r.stdout.startswith(b"NOT proved: "):
        sys.exit("damage %d: exit %d, %r %r" % (t, r.returncode, r.stdout[:200], r.stderr[:200]))
print("ok: 200 randomly damaged files: %d refused, %d with unchanged content proved" % (200 - same, same))
PY
printf 'not a certificate\n' >"$work/junk.cert"
: >"$work/empty.cert"
for f in junk empty missing; do
    got=$("$check" check "$work/$f.cert"); st=$?
    [ "$st" -eq 2 ] && [[ "$got" == "NOT proved: "* ]] || fail "$f file: exit $st: $got"
    echo "ok: $f file refused: $got"
done
exit "$rc"
