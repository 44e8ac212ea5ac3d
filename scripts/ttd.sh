#!/usr/bin/env bash
# Time to depth of Lazy SMP: runs `pbrain-moku bench` with 1 and N threads alternately, R
# rounds, and prints per position the summed wall time to depth (time_ms) and the main
# thread's CPU time (main_cpu_ms: the time to depth with a core per thread, on a busy machine),
# with the ratios N/1, then the totals and geometric means.
# usage: scripts/ttd.sh [ENGINE] [N] [R]
set -eu
engine=${1:-build/pbrain-moku}
n=${2:-2}
rounds=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$rounds"); do
    "$engine" bench --threads 1 | sed 's/^/1 /' >>"$tmp/out"
    "$engine" bench --threads "$n" | sed 's/^/n /' >>"$tmp/out"
done
awk -v n="$n" '
    $2 != "bench:" {
        for (i = 3; i <= NF; i++) {
            split($i, kv, "=")
            if (kv[1] == "time_ms") wall[$1, $2] += kv[2]
            if (kv[1] == "main_cpu_ms") cpu[$1, $2] += kv[2]
        }
        names[$2] = 1
    }
    END {
        printf "%-16s %9s %9s %6s %9s %9s %6s\n", "position", "wall 1", "wall " n, "ratio",
               "cpu 1", "cpu " n, "ratio"
        for (k in names) {
            w1 = wall["1", k]; wn = wall["n", k]; c1 = cpu["1", k]; cn = cpu["n", k]
            printf "%-16s %9d %9d %6.2f %9d %9d %6.2f\n", k, w1, wn, wn / w1, c1, cn, cn / c1
            sw1 += w1; swn += wn; sc1 += c1; scn += cn; c++
            lw += log(wn / w1); lc += log(cn / c1)
        }
        printf "total wall ratio %.3f (geometric mean %.3f); main-thread cpu ratio %.3f (%.3f)\n",
               swn / sw1, exp(lw / c), scn / sc1, exp(lc / c)
    }' "$tmp/out"
