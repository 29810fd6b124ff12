#!/usr/bin/env bash
# test_install.sh: octad-cluster as a user installs it, checked outside the source tree.
# usage: test_install.sh BUILD_DIR USER_PROJECT_DIR [--deb] [--cflags "FLAGS"]
# Default: `cmake --install` of BUILD_DIR with DESTDIR into a temporary folder (prefix
# /usr/local). --deb: `cpack -G DEB` of BUILD_DIR, the .deb installed with `dpkg --root`
# into an empty root (prefix /usr). Then, in the installed tree: the three programs run
# (octad perft 5, or 9 = 41899653 for the package; coordinator --perft 6 with its local
# worker; worker --help), `man -l` renders each page, the documents are there, and
# USER_PROJECT_DIR's perft5.c, built against the installed headers and library through
# `pkg-config octad` (shared and static), prints octad's start perft(5) = 29309.
# Without --deb also: each public header compiles alone, and perft5.c builds and runs
# through find_package(octad) (octad::octad and octad::octad_static).
# --cflags: extra compile and link flags for the user's program (the sanitizer build's).
# Exit 77 (ctest SKIP) with --deb where cpack's DEB generator lacks its tools.
set -uo pipefail
BUILD=$(cd "${1:?BUILD_DIR}" && pwd)
USER_SRC=$(cd "${2:?USER_PROJECT_DIR}" && pwd)
shift 2
DEB=0 CFLAGS=""
while [ $# -gt 0 ]; do
    case $1 in
        --deb) DEB=1 ;;
        --cflags) CFLAGS=$2; shift ;;
        *) echo "test_install.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
    shift
done
CC=${CC:-cc}
tmp=$(mktemp -d /tmp/octad-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
die() { echo "FAIL $*"; exit 1; }

root=$tmp/root
if [ "$DEB" = 1 ]; then
    for tool in file dpkg-shlibdeps; do # cpack's DEB generator reads the programs' dependencies
        command -v "$tool" >/dev/null || { echo "SKIP: no $tool (tools/install-deps.sh installs it)"; exit 77; }
    done
    cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 \
        || { cat "$tmp/cpack.log"; die "cpack -G DEB"; }
    deb=$(ls "$tmp"/pkg/*.deb 2>/dev/null | head -1)
    [ -n "$deb" ] || die "cpack made no .deb"
    ok "cpack -G DEB: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
    depends=$(dpkg-deb -f "$deb" Depends)
    for lib in libc6 libmsgpackc2 libzmq5; do
        grep -q "$lib" <<<"$depends" && ok "Depends names $lib" || bad "Depends lacks $lib: $depends"
    done
    mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/log"
    : >"$root/var/lib/dpkg/status"
    # The empty root has no libc etc.: the dependencies are the host's, so don't check them here.
    dpkg --root="$root" --force-depends --force-script-chrootless -i "$deb" >"$tmp/dpkg.log" 2>&1 \
        || { cat "$tmp/dpkg.log"; die "dpkg --root -i"; }
    status=$(dpkg --root="$root" -s octad-cluster 2>/dev/null | awk '/^Status:/ {print $2, $3, $4}')
    [ "$status" = "install ok installed" ] && ok "dpkg: octad-cluster $status" || bad "dpkg status '$status'"
    prefix=$root/usr
else
    DESTDIR=$root cmake --install "$BUILD" --prefix /usr/local >"$tmp/install.log" 2>&1 \
        || { cat "$tmp/install.log"; die "cmake --install"; }
    ok "cmake --install (DESTDIR, prefix /usr/local): $(grep -c Installing "$tmp/install.log") files"
    prefix=$root/usr/local
fi
libdir=$(dirname "$(find "$prefix" -name octad.pc | head -1)")
libdir=${libdir%/pkgconfig}

# The programs, run from the installed bin/ (the coordinator starts its worker from there).
nodes() { awk '$1 == "nodes" { print $2 }'; }
depth=5 want=29309
want5=$("$prefix/bin/octad" perft 5 --quiet | nodes)
[ "$DEB" = 1 ] && depth=9 want=41899653
got=$("$prefix/bin/octad" perft "$depth" --quiet | nodes)
[ "$got" = "$want" ] && ok "octad perft $depth = $got" || bad "octad perft $depth printed '$got', want $want"
out=$("$prefix/bin/coordinator" --perft 6 --quiet 2>&1)
grep -q '^check *matches reference' <<<"$out" && grep -qw 183931 <<<"$out" \
    && ok "coordinator --perft 6 with its local worker = 183931" || bad "coordinator --perft 6: $out"
"$prefix/bin/worker" --help >/dev/null && ok "worker --help" || bad "worker --help"
# The certificate checker from the installed bin/: its own move generator counts the start's
# tree to depth 5 as octad's does.
got=$("$prefix/bin/certcheck" stats 'ppkn/4/4/NKPP w NCFncf - 0 1' 5 2>&1 | nodes)
[ "$got" = "$want5" ] && ok "certcheck stats (start) 5 = $got" || bad "certcheck stats 5 printed '$got', want $want5"

# Man pages and documents.
for p in octad coordinator worker certcheck; do
    page=$(ls "$prefix/share/man/man1/$p.1"* 2>/dev/null | head -1)
    [ -n "$page" ] || { bad "no man page $p.1"; continue; }
    command -v man >/dev/null || { ok "$p.1 installed (no man command here to render it)"; continue; }
    text=$(MANWIDTH=80 man --warnings -l "$page" 2>"$tmp/man.err")
    if grep -q "^NAME" <<<"$text" && ! [ -s "$tmp/man.err" ]; then
        ok "man -l $p.1 ($(wc -l <<<"$text") lines)"
    else
        bad "man -l $p.1: $(head -3 "$tmp/man.err")"
    fi
done
for d in README.md deploy.md octad-design.md PROTOCOL.md; do
    [ -s "$prefix/share/doc/octad-cluster/$d" ] || bad "share/doc/octad-cluster/$d missing"
done
ok "documents in share/doc/octad-cluster: $(ls "$prefix/share/doc/octad-cluster" | wc -l) files"

# Every public header on its own, as a user includes it (the package holds the same
# files as the DESTDIR install, so --deb skips this and the find_package build).
nh=0
[ "$DEB" = 1 ] || while IFS= read -r h; do
    nh=$((nh + 1))
    rel=${h#"$prefix/include/"}
    printf '#include <%s>\n' "$rel" | $CC -std=c11 -Wall -Wextra -Werror -fsyntax-only \
        -I"$prefix/include" -x c - 2>"$tmp/h.err" || bad "<$rel> does not compile alone: $(head -2 "$tmp/h.err")"
done < <(find "$prefix/include/octad" -name '*.h' | sort)
if [ "$DEB" = 1 ]; then
    grep -q '^prefix=/usr$' "$libdir/pkgconfig/octad.pc" && ok "octad.pc: prefix=/usr" \
        || bad "octad.pc's prefix is not /usr: $(grep '^prefix=' "$libdir/pkgconfig/octad.pc")"
else
    [ "$nh" -gt 0 ] && ok "$nh public headers compile alone" || bad "no headers in include/octad"
fi

# A user's program through pkg-config: shared, then liboctad.a.
check_run() { # NAME EXE [env...]
    local name=$1 exe=$2 out
    shift 2
    out=$(env "$@" "$exe" 2>&1)
    [ "$out" = "perft(5) = 29309" ] && ok "$name prints '$out'" || bad "$name printed '$out'"
}
# octad.pc names the real prefix; the sysroot maps it into the temporary root.
export PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
if pc=$(pkg-config --cflags --libs octad); then
    ok "pkg-config octad $(pkg-config --modversion octad): $pc"
    # shellcheck disable=SC2086
    $CC -std=c11 -Wall -Wextra -Werror $CFLAGS "$USER_SRC/perft5.c" $pc -o "$tmp/perft5_pc" \
        && [[ $(LD_LIBRARY_PATH=$libdir ldd "$tmp/perft5_pc") == *"liboctad.so.0 => $libdir/"* ]] \
        && check_run "pkg-config, liboctad.so:" "$tmp/perft5_pc" LD_LIBRARY_PATH="$libdir" \
        || bad "building against pkg-config octad (shared)"
    # shellcheck disable=SC2086
    $CC -std=c11 $CFLAGS "$USER_SRC/perft5.c" $(pkg-config --cflags octad) \
        "$(pkg-config --variable=libdir octad)/liboctad.a" -pthread -o "$tmp/perft5_a" \
        && [[ $(ldd "$tmp/perft5_a") != *liboctad* ]] \
        && check_run "pkg-config, liboctad.a:" "$tmp/perft5_a" \
        || bad "building against liboctad.a"
else
    bad "pkg-config finds no octad in $PKG_CONFIG_PATH"
fi

# The same through CMake's find_package(octad) (the project in USER_PROJECT_DIR).
if [ "$DEB" = 1 ]; then
    :
elif cmake -S "$USER_SRC" -B "$tmp/user" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_C_FLAGS="$CFLAGS" >"$tmp/user.log" 2>&1 \
   && cmake --build "$tmp/user" >>"$tmp/user.log" 2>&1; then
    check_run "find_package(octad), octad::octad:" "$tmp/user/perft5" LD_LIBRARY_PATH="$libdir"
    check_run "find_package(octad), octad::octad_static:" "$tmp/user/perft5_static"
else
    cat "$tmp/user.log"
    bad "find_package(octad) project did not build"
fi

[ "$fails" -eq 0 ] || { echo "test_install: $fails check(s) failed"; exit 1; }
echo "test_install: all checks passed"
