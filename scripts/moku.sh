#!/usr/bin/env bash
# Installs what Moku needs on Debian 12 (apt-get, as root or through sudo), builds it, and then
#   run   starts pbrain-moku in protocol mode on its embedded defaults;
#   test  runs every test: the C++ formatting check (.clang-format), the Release suite, the
#         protocol stress games, the suite under AddressSanitizer + UBSan, the Lazy SMP tests
#         under ThreadSanitizer, and the Windows x64 cross build (with a protocol session under
#         wine when wine is installed).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
JOBS=$(nproc 2>/dev/null || echo 2)

BUILD_PKGS=(g++ cmake make pkg-config libtomlplusplus-dev libcxxopts-dev liblz4-dev)
# python3-*: the trainer's tests (training/tests, CTest Training.python)
TEST_PKGS=(libgtest-dev libbenchmark-dev g++-mingw-w64-x86-64-posix clang-format
    python3-torch python3-numpy python3-lz4 python3-matplotlib)

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

# Tests that time the engine run one at a time, after the others have run in parallel, so that
# a parallel neighbour on a 2-core machine cannot push them over their limits.
TIMED='SearchTime|ProtocolStress|ProtocolBinary|ProtocolPipe|ProtocolTranscript|NnueSearch|EngineThink|Smp|Memory'

# suite DIR [ctest options...]: the untimed tests in parallel, then the timed ones serially.
# A selection that finds no test is an error (a build without the tests must not pass).
suite() {
    local dir=$1
    shift
    ctest --test-dir "$dir" --output-on-failure --no-tests=error -j"$JOBS" -E "$TIMED" "$@"
    ctest --test-dir "$dir" --output-on-failure --no-tests=error -R "$TIMED" "$@"
}

# build DIR [cmake options...]: configure and build, all output on stderr. Callers set
# MOKU_TESTS and MOKU_BENCH explicitly: a build folder's cache keeps the last values given.
build() {
    local dir=$1
    shift
    cmake -S . -B "$dir" "$@" >&2
    cmake --build "$dir" -j"$JOBS" >&2
}

# Fails when a C++ file of the project differs from what clang-format (Debian 12's, version 14)
# makes of it with .clang-format, naming the file and line.
format_check() {
    find src include tests bench -type f \( -name '*.cpp' -o -name '*.h' \) -print0 |
        xargs -0 clang-format --dry-run --Werror
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
    echo "== C++ formatting (clang-format --dry-run --Werror)" >&2
    format_check
    echo "== Release build and full test suite" >&2
    build build -DCMAKE_BUILD_TYPE=Release -DMOKU_TESTS=ON -DMOKU_BENCH=ON
    suite build -LE stress
    echo "== 200 fast games through the protocol, and 100 with two search threads" >&2
    ctest --test-dir build --output-on-failure --no-tests=error -L stress
    echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and test suite" >&2
    build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOKU_SANITIZE=ON -DMOKU_TESTS=ON \
        -DMOKU_BENCH=OFF
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        suite build-asan -LE release_only
    echo "== ThreadSanitizer build: the Lazy SMP tests" >&2
    build build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOKU_TSAN=ON -DMOKU_TESTS=ON \
        -DMOKU_BENCH=OFF
    build-tsan/moku_tests --gtest_filter='Smp*'
    echo "== Windows x64 cross build" >&2
    scripts/mingw-lz4.sh build-win-deps
    build build-win -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
        -DMOKU_MINGW_PREFIX="$ROOT/build-win-deps" -DMOKU_TESTS=OFF -DMOKU_BENCH=OFF
    ls -l build-win/pbrain-moku.exe >&2
    command -v wine >/dev/null 2>&1 || install_missing wine wine64 || true
    if command -v wine >/dev/null 2>&1; then
        echo "== A protocol session with pbrain-moku.exe under wine" >&2
        scripts/wine-session.sh build-win/pbrain-moku.exe
    else
        echo "(wine is not installed: no session with the .exe)" >&2
    fi
    echo "moku: all tests passed in $((SECONDS - start)) s" >&2
    ;;
*)
    echo "usage: scripts/moku.sh run|test" >&2
    exit 2
    ;;
esac
