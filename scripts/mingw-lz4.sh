#!/usr/bin/env bash
# Builds liblz4 for 64-bit Windows from Debian's own lz4 source package (Debian ships no mingw
# build of it) into the prefix given as $1, the layout cmake/mingw-w64-x86_64.cmake expects:
# lib/liblz4.a, include/lz4*.h, lib/pkgconfig/liblz4.pc. Needs root for the deb-src entry.
set -euo pipefail
prefix=$(realpath -m "$1")
[ -f "$prefix/lib/pkgconfig/liblz4.pc" ] && exit 0
src_list=/etc/apt/sources.list.d/moku-deb-src.sources
if [ ! -f "$src_list" ]; then
    cat > "$src_list" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -qq
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source -qq --download-only lz4 >/dev/null 2>&1)
tar -xzf "$work"/lz4_*.orig.tar.gz -C "$work"
lib=$(echo "$work"/lz4-*/lib)
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"
for f in lz4 lz4frame lz4hc xxhash; do
    x86_64-w64-mingw32-gcc-posix -O2 -c "$lib/$f.c" -o "$work/$f.o"
done
x86_64-w64-mingw32-ar rcs "$prefix/lib/liblz4.a" "$work"/{lz4,lz4frame,lz4hc,xxhash}.o
cp "$lib"/lz4.h "$lib"/lz4frame.h "$lib"/lz4hc.h "$prefix/include/"
version=$(basename "$work"/lz4-* | sed 's/^lz4-//')
cat > "$prefix/lib/pkgconfig/liblz4.pc" <<PC
prefix=$prefix
Name: lz4
Description: LZ4 (mingw-w64 build of Debian's source package)
Version: $version
Libs: -L\${prefix}/lib -llz4
Cflags: -I\${prefix}/include
PC
