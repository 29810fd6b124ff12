#!/bin/sh
# match.sh: installs the match runner's rules library (chess.js, from npm) once, then
# runs tools/bench/match.mjs with the given arguments (see node tools/bench/match.mjs --help).
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
[ -d "$dir/node_modules/chess.js" ] || (cd "$dir" && npm install --no-audit --no-fund >/dev/null)
exec node "$dir/match.mjs" "$@"
