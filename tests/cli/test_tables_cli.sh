#!/usr/bin/env bash
# test_tables_cli.sh: `octad tables manifest|check` over tables to 4 pieces made here: the
# manifest's SHA-256 and sizes against coreutils (sha256sum, stat), its own checksum, a clean
# check, and every kind of problem named: a changed byte, a truncated file, a missing one, an
# unlisted one, a malformed manifest, no manifest, no directory.
set -u
octad=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../fixtures/check.sh"

"$octad" solve --max-pieces 4 --tables "$tmp/t" --quiet >/dev/null
check "manifest" 0 'wrote .*/MANIFEST: 62 files; SHA-256 of the manifest: [0-9a-f]{64}$' -- "$octad" tables manifest --tables "$tmp/t"
# Independent: every line's SHA-256 and size as coreutils compute them, SUMMARY included.
ok=1
while read -r sha size name; do
    [ "$(sha256sum "$tmp/t/$name" | cut -d' ' -f1)" = "$sha" ] && [ "$(stat -c %s "$tmp/t/$name")" = "$size" ] || ok=0
done < "$tmp/t/MANIFEST"
listed=$(cut -d' ' -f3 "$tmp/t/MANIFEST" | tr '\n' ' ')
onfile=$(cd "$tmp/t" && ls -1 | grep -E '\.otb$|^SUMMARY$' | LC_ALL=C sort | tr '\n' ' ')
if [ "$ok" = 1 ] && [ "$listed" = "$onfile" ]; then passes=$((passes + 1)); else
    echo "FAIL manifest lines differ from sha256sum/stat, or list other files"; fails=$((fails + 1)); fi
self=$(sha256sum "$tmp/t/MANIFEST" | cut -d' ' -f1)
check "manifest's own checksum" 0 "$self" -- "$octad" tables manifest --tables "$tmp/t"
check "coreutils reads it" 0 'OK' -- bash -c "cd '$tmp/t' && awk '{print \$1 \"  \" \$3}' MANIFEST | sha256sum -c --quiet && echo OK"
check "check clean" 0 'all 62 files match the manifest' -- "$octad" tables check --tables "$tmp/t"

cp -r "$tmp/t" "$tmp/b"
printf '\x01' | dd of="$tmp/b/KRvK.otb" bs=1 seek=400 conv=notrunc 2>/dev/null
check "changed byte" 1 'KRvK.otb: SHA-256 [0-9a-f]{64}, the manifest says' -- "$octad" tables check --tables "$tmp/b"
truncate -s -1 "$tmp/b/KQvK.otb"
check "truncated" 1 'KQvK.otb: [0-9]+ bytes, the manifest says [0-9]+' -- "$octad" tables check --tables "$tmp/b"
rm "$tmp/b/KPvK.otb"
check "missing" 1 'KPvK.otb: missing' -- "$octad" tables check --tables "$tmp/b"
cp "$tmp/b/KRvK.otb" "$tmp/b/KQRNvK.otb"  # 5 pieces: no such file here
check "unlisted" 1 'KQRNvK.otb: not in the manifest' -- "$octad" tables check --tables "$tmp/b"
check "problems counted" 1 ': 4 problems \(62 files listed\)' -- "$octad" tables check --tables "$tmp/b"
printf 'nonsense\n' >> "$tmp/b/MANIFEST"
check "malformed manifest" 1 'MANIFEST line 63: not "SHA256 SIZE NAME"' -- "$octad" tables check --tables "$tmp/b"
rm "$tmp/b/MANIFEST"
check "no manifest" 1 'MANIFEST: No such file.*octad tables manifest' -- "$octad" tables check --tables "$tmp/b"
check "no directory" 1 'cannot open the table directory' -- "$octad" tables manifest --tables "$tmp/none"
check "no action" 2 'say manifest or check' -- "$octad" tables --tables "$tmp/t"
check "unknown argument" 2 "unknown argument 'frob'" -- "$octad" tables frob
check "help" 0 'usage: octad tables manifest' -- "$octad" tables --help

echo "test_tables_cli: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
