#!/usr/bin/env bash
# Installs what Moku needs on Debian 12 (apt-get, as root or through sudo), builds it, and then
#   run   starts pbrain-moku in protocol mode on its embedded defaults;
#   test  runs every test: the Release suite and the suite under AddressSanitizer + UBSan.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
JOBS=$(nproc 2>/dev/null || echo 2)

BUILD_PKGS=(g++ cmake make pkg-config libtomlplusplus-dev libcxxopts-dev liblz4-dev)
TEST_PKGS=(libgtest-dev libbenchmark-dev)

install_missing() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "moku: installing ${missing[*]}" >&2
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >&2
}

# build DIR [cmake options...]: configure and build, all output on stderr.
build() {
    local dir=$1
    shift
    cmake -S . -B "$dir" "$@" >&2
    cmake --build "$dir" -j"$JOBS" >&2
}

case "${1:-}" in
run)
    install_missing "${BUILD_PKGS[@]}"
    build build -DCMAKE_BUILD_TYPE=Release -DMOKU_TESTS=OFF -DMOKU_BENCH=OFF
    exec build/pbrain-moku
    ;;
test)
    install_missing "${BUILD_PKGS[@]}" "${TEST_PKGS[@]}"
    start=$SECONDS
    echo "== Release build and full test suite" >&2
    build build -DCMAKE_BUILD_TYPE=Release
    ctest --test-dir build --output-on-failure -j"$JOBS"
    echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and test suite" >&2
    build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOKU_SANITIZE=ON -DMOKU_BENCH=OFF
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --test-dir build-asan --output-on-failure -j"$JOBS" -LE release_only
    echo "moku: all tests passed in $((SECONDS - start)) s" >&2
    ;;
*)
    echo "usage: scripts/moku.sh run|test" >&2
    exit 2
    ;;
esac
