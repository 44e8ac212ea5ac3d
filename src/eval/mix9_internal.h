// Internal pieces of the mix9svq evaluator shared by the loader, the evaluator and the
// per-instruction-set kernels. Only plain data here: the kernel files are compiled with other
// target flags and must not instantiate shared inline library code.
#pragma once

#include <cstdint>

#include "moku/eval/mix9.h"

namespace moku::eval {

namespace mix9 {
constexpr int POW3[12] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049, 177147};
constexpr int DX[4] = {1, 0, 1, 1};
constexpr int DY[4] = {0, 1, -1, 1};
constexpr int GROUP_NB = 9;

// Line-shape code of the cells beyond the board edge (doc step 2), L / R = on-board steps.
constexpr int borderCode(int l, int r) {
    if (l == 5 && r == 5) return 0;
    if (r == 5) {
        int v = 2 * POW3[11];
        for (int i = 1; i <= (5 - l) - 1; ++i) v += POW3[11 - i];
        return v;
    }
    int ld = 5 - l, rd = 5 - r;
    int rt = ld < rd ? ld : rd;
    int lt = ld < rd - 1 ? ld : rd - 1;
    int v = POW3[11];
    for (int i = 0; i < rt; ++i) v += 2 * POW3[i];
    for (int i = 0; i < lt; ++i) v += 2 * POW3[10 - i];
    for (int i = rt; i <= rd - 2; ++i) v += POW3[i];
    for (int i = lt; i <= ld - 2; ++i) v += POW3[10 - i];
    return v;
}

// Group split bounds (doc step 5): index of coordinate v on a board of size n.
constexpr int groupIndex(int v, int n) {
    int s1 = n / 3 + (n % 3 == 2);
    int s2 = 2 * (n / 3) + (n % 3 > 0);
    return v < s1 ? 0 : v < s2 ? 1 : 2;
}
} // namespace mix9

// One perspective's accumulators, as raw arrays (cells = size * size, row-major).
struct AccView {
    int size = 0;
    int32_t* code = nullptr;          // [4][cells] line-shape codes
    uint16_t* row = nullptr;          // [4][cells] codebook rows of those codes
    int16_t* mapSum = nullptr;        // [cells][64]
    int16_t* conv = nullptr;          // [cells][32], before the ReLU
    int32_t* group = nullptr;         // [9][64] feature sums per board region
    const uint8_t* groupOf = nullptr; // [cells] region index
    uint32_t* stamp = nullptr;        // [cells] scratch for the update
    uint32_t* epoch = nullptr;        // current stamp value
};

constexpr int MAX_TOUCHED = 160; // conv targets of one update: 145 at most

// What one update overwrote, so that taking the move back is a few copies instead of a second
// update (codes are restored by subtracting the stone again).
struct UpdateLog {
    int ply = -1; // applied-move index this entry belongs to; -1 = none
    int rowNb = 0, srcNb = 0, convNb = 0;
    int rowIdx[44];
    uint16_t rowOld[44];
    int srcCell[41];
    int convCell[MAX_TOUCHED];
    alignas(64) int16_t srcOld[41][64];
    alignas(64) int16_t convOld[MAX_TOUCHED][32];
    alignas(64) int32_t group[9 * 64];
};

// Star-block outputs keyed by their 64 inputs (9 regions, then the 4 quadrants).
struct ValueCache {
    bool valid[13] = {};
    alignas(64) uint8_t in[13][64] = {};
    alignas(64) uint8_t out[13][64] = {};
};

// Policy dynamic weights keyed by the 64 global features.
struct PolicyCache {
    bool valid = false;
    alignas(64) uint8_t in[64] = {};
    alignas(64) int16_t wd[16 * 32] = {}; // [channel pair][output][2]
    alignas(64) int32_t bd[16] = {};
};

struct Mix9Kernels {
    SimdLevel level;
    // Adds (digitDelta > 0) or removes (< 0) a stone whose digit is |digitDelta| at `cell`;
    // records the overwritten values in `log` when not null.
    void (*update)(const Mix9Weights& w, const AccView& a, int cell, int digitDelta,
                   UpdateLog* log);
    void (*value)(const Mix9Weights& w, const AccView& a, ValueCache& cache, int32_t out[3]);
    // board: Color per cell; writes out[cell] for the EMPTY cells.
    void (*policy)(const Mix9Weights& w, const AccView& a, PolicyCache& cache, const uint8_t* board,
                   float* out);
};

const Mix9Kernels* mix9KernelsScalar();
const Mix9Kernels* mix9KernelsSse41();
const Mix9Kernels* mix9KernelsAvx2();
const Mix9Kernels* mix9KernelsAvx512();
const Mix9Kernels* mix9KernelsNeon();
const Mix9Kernels* mix9Kernels(SimdLevel level); // null when not compiled in

} // namespace moku::eval
