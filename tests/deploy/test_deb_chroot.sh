#!/usr/bin/env bash
# test_deb_chroot.sh: the .deb on a fresh Debian 12: a minimal bookworm made with
# debootstrap, the package installed there with apt (which fetches its dependencies),
# then `octad perft 9` prints 41899653, `coordinator --perft 8` matches its reference
# and the man pages are in place. Downloads ~50 MB from Debian's mirror; label `slow`.
# usage: test_deb_chroot.sh BUILD_DIR [MIRROR]
# Exit 77 (ctest SKIP) when not root or debootstrap is missing.
set -uo pipefail
BUILD=$(cd "${1:?BUILD_DIR}" && pwd)
MIRROR=${2:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "SKIP: not root"; exit 77; }
command -v debootstrap >/dev/null || { echo "SKIP: no debootstrap (tools/install-deps.sh installs it)"; exit 77; }
tmp=$(mktemp -d /tmp/octad-chroot.XXXXXX)
root=$tmp/root
cleanup() {
    umount "$root/proc" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
die() { echo "FAIL $*"; exit 1; }
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin "$@"; }

cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 \
    || { cat "$tmp/cpack.log"; die "cpack -G DEB"; }
deb=$(ls "$tmp"/pkg/*.deb | head -1)
ok "cpack: $(basename "$deb")"

t0=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$tmp/debootstrap.log" 2>&1 \
    || { tail -20 "$tmp/debootstrap.log"; die "debootstrap bookworm from $MIRROR"; }
ok "debootstrap --variant=minbase bookworm ($(($(date +%s) - t0)) s)"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
mount -t proc proc "$root/proc"
cp "$deb" "$root/tmp/"
in_root apt-get update -qq >"$tmp/apt.log" 2>&1 \
    && in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$deb")" >>"$tmp/apt.log" 2>&1 \
    || { tail -30 "$tmp/apt.log"; die "apt-get install of the .deb in the fresh root"; }
ok "apt-get install ./$(basename "$deb") in the fresh root"

got=$(in_root octad perft 9 --quiet | awk '$1 == "nodes" { print $2 }')
[ "$got" = 41899653 ] && ok "octad perft 9 = $got" || bad "octad perft 9 printed '$got', want 41899653"
out=$(in_root coordinator --perft 8 --quiet 2>&1)
grep -q '^check *matches reference' <<<"$out" && ok "coordinator --perft 8: $(awk '$1 == "nodes" {print $2}' <<<"$out"), matches reference" \
    || bad "coordinator --perft 8: $out"
for p in octad coordinator worker; do
    [ -s "$root/usr/share/man/man1/$p.1" ] || bad "no /usr/share/man/man1/$p.1"
done
[ -s "$root/usr/lib/pkgconfig/octad.pc" ] && grep -q '^prefix=/usr$' "$root/usr/lib/pkgconfig/octad.pc" \
    && ok "man pages and octad.pc (prefix=/usr) installed" || bad "octad.pc missing or not for /usr"
in_root dpkg -r octad-cluster >/dev/null 2>&1 && [ ! -e "$root/usr/bin/octad" ] \
    && ok "dpkg -r removes it" || bad "dpkg -r octad-cluster"
[ "$fails" -eq 0 ] || exit 1
echo "test_deb_chroot: all checks passed"
