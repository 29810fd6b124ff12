#!/usr/bin/env bash
# test_man.sh: a program's man page (man/NAME.1) says what its --help says.
# usage: test_man.sh PROGRAM PAGE
# Checks: the page renders without warnings (man -l); every option (--word) of the
# program's --help, and of each subcommand's --help when the help lists subcommands
# (lines "  name   what it does"), is described in the page, and the page names no
# option the program does not have; each subcommand has its own .SS section.
set -uo pipefail
prog=${1:?PROGRAM}
page=${2:?PAGE}
name=$(basename "$page" .1)
rc=0
fail() { echo "FAIL: $*"; rc=1; }
[ -f "$page" ] || { echo "FAIL: no man page $page for $name (write one: docs/man/$name.1)"; exit 1; }

if command -v man >/dev/null; then
    err=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    [ -z "$err" ] || fail "man -l $page warns: $err"
else
    echo "note: no man command here (install man-db): the page is not rendered"
fi

help=$("$prog" --help) || { echo "FAIL: $prog --help exited $?"; exit 1; }
subs=$(awk '/^  [a-z][a-z0-9-]+  +[a-z]/ { print $1 }' <<<"$help")
all=$help
for s in $subs; do
    sub=$("$prog" "$s" --help) || fail "$name $s --help exited $?"
    all+=$'\n'"$sub"
    grep -qE "^\.SS \"?($name )?$s\"?$" "$page" || fail "$page has no section '.SS $s' for '$name $s'"
done

opts() { grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u; }
in_help=$(opts <<<"$all")
# The page's text with roff's \- and font escapes undone.
in_page=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$page" | opts)
missing=$(comm -23 <(echo "$in_help") <(echo "$in_page"))
extra=$(comm -13 <(echo "$in_help") <(echo "$in_page"))
[ -z "$missing" ] || fail "$page does not describe: $(echo $missing) (from $name's --help)"
[ -z "$extra" ] || fail "$page names options $name's --help does not have: $(echo $extra)"
[ "$rc" -eq 0 ] && echo "PASS: $page: $(wc -l <<<"$in_help") options${subs:+, subcommands $(echo $subs)}"
exit "$rc"
