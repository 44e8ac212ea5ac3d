// The instruction-set independent part of the mix9svq kernels. Each kernel file defines
// MIX9_NS and a struct Ops (usually deriving from ScalarOps) and then includes this file, so
// every function here is compiled once per instruction set, in its own namespace.
// No include guard on purpose; no standard-library templates inside (see mix9_internal.h).

#include <cstring>

#ifndef MIX9_NS
#error "define MIX9_NS before including mix9_kernels_impl.h"
#endif

namespace moku::eval::MIX9_NS {

using namespace moku::eval::mix9;

inline int32_t sat16(int32_t x) { return x < -32768 ? -32768 : x > 32767 ? 32767 : x; }
inline int32_t crelu(int32_t x, int s) {
    int32_t v = sat16(x) >> s;
    return v < 0 ? 0 : v > 127 ? 127 : v;
}
inline int32_t screlu(int32_t x, int s) {
    int32_t v = sat16(x) >> s;
    return v < -128 ? -128 : v > 127 ? 127 : v;
}
inline int32_t wrapAdd(int32_t a, int32_t b) { return int32_t(uint32_t(a) + uint32_t(b)); }

// Portable versions of every primitive; kernel files override the hot ones.
struct ScalarOps {
    // acc += newRow - oldRow, 64 int16.
    static void rowDelta(int16_t* acc, const int16_t* nw, const int16_t* old) {
        for (int i = 0; i < 64; ++i) acc[i] = int16_t(acc[i] + nw[i] - old[i]);
    }
    static void relu64(const int16_t* src, int16_t* dst) {
        for (int i = 0; i < 64; ++i) dst[i] = src[i] > 0 ? src[i] : 0;
    }
    // d[k][c] = conv term of the new input minus that of the old one, for the 9 taps.
    static void convDelta(const int16_t* w, const int16_t* fOld, const int16_t* fNew, int16_t* d) {
        for (int k = 0; k < 9; ++k)
            for (int c = 0; c < 32; ++c) {
                int32_t wk = w[k * 32 + c];
                d[k * 32 + c] =
                    int16_t(((wk * (4 * fNew[c])) >> 16) - ((wk * (4 * fOld[c])) >> 16));
            }
    }
    static void add32(int16_t* dst, const int16_t* src) {
        for (int i = 0; i < 32; ++i) dst[i] = int16_t(dst[i] + src[i]);
    }
    static bool same32(const int16_t* a, const int16_t* b) {
        bool same = true;
        for (int i = 0; i < 32; ++i) same &= a[i] == b[i];
        return same;
    }
    // g[0..31] += nw - old
    static void groupDelta32(int32_t* g, const int16_t* nw, const int16_t* old) {
        for (int i = 0; i < 32; ++i) g[i] += int32_t(nw[i]) - old[i];
    }
    // g[0..31] += sign * max(conv, 0)
    static void groupRelu32(int32_t* g, const int16_t* conv, int sign) {
        for (int i = 0; i < 32; ++i) g[i] += sign * (conv[i] > 0 ? conv[i] : 0);
    }
    // y = W x + b, x unsigned 8-bit (<= 127), W quad-interleaved; int32 wrap-around.
    static void linearU8(const uint8_t* x, const int8_t* wt, const int32_t* b, int nIn, int nOut,
                         int32_t* y) {
        for (int o = 0; o < nOut; ++o) y[o] = b[o];
        for (int q = 0; q < nIn / 4; ++q) {
            const int8_t* wq = wt + q * nOut * 4;
            const uint8_t* xq = x + q * 4;
            for (int o = 0; o < nOut; ++o) {
                int32_t s = xq[0] * wq[o * 4] + xq[1] * wq[o * 4 + 1] + xq[2] * wq[o * 4 + 2] +
                            xq[3] * wq[o * 4 + 3];
                y[o] = wrapAdd(y[o], s);
            }
        }
    }
    // Policy logits of the listed cells, summed in the reference (AVX2) order.
    static void policyCells(const int16_t* conv, const int* list, int nb, const int16_t* wd,
                            const int32_t* bd, const float* pw, float pb, float* out) {
        for (int i = 0; i < nb; ++i) {
            const int16_t* cv = conv + list[i] * 32;
            uint32_t acc[16];
            for (int o = 0; o < 16; ++o) acc[o] = uint32_t(bd[o]);
            for (int cp = 0; cp < 16; ++cp) {
                int32_t v0 = cv[2 * cp] > 0 ? cv[2 * cp] : 0;
                int32_t v1 = cv[2 * cp + 1] > 0 ? cv[2 * cp + 1] : 0;
                const int16_t* wp = wd + cp * 32;
                for (int o = 0; o < 16; ++o)
                    acc[o] += uint32_t(wp[2 * o] * v0) + uint32_t(wp[2 * o + 1] * v1);
            }
            float r[16];
            for (int o = 0; o < 16; ++o) {
                int32_t s = int32_t(acc[o]);
                r[o] = float(s > 0 ? s : 0);
            }
            float lane[8], s4[4];
            for (int j = 0; j < 8; ++j) lane[j] = std::fma(r[j + 8], pw[j + 8], r[j] * pw[j]);
            for (int j = 0; j < 4; ++j) s4[j] = lane[j] + lane[j + 4];
            out[list[i]] = ((s4[0] + s4[1]) + (s4[2] + s4[3])) + pb;
        }
    }
    // y = W x + b, x signed 16-bit, W pair-interleaved 16-bit.
    static void linearI16(const int16_t* x, const int16_t* wt, const int32_t* b, int nIn, int nOut,
                          int32_t* y) {
        for (int o = 0; o < nOut; ++o) y[o] = b[o];
        for (int q = 0; q < nIn / 2; ++q) {
            const int16_t* wq = wt + q * nOut * 2;
            for (int o = 0; o < nOut; ++o)
                y[o] = wrapAdd(y[o], x[2 * q] * wq[o * 2] + x[2 * q + 1] * wq[o * 2 + 1]);
        }
    }
};

// ---- Incremental update (doc step 11) -------------------------------------------------------

template <class Ops>
void updateImpl(const Mix9Weights& w, const AccView& a, int cell, int digitDelta, UpdateLog* log) {
    const int n = a.size, cells = n * n;
    const int px = cell % n, py = cell / n;
    alignas(64) int16_t fOld[64], fNew[64], delta[9 * 32];
    int touched[MAX_TOUCHED];
    int touchedNb = 0;
    uint32_t ep = ++*a.epoch;
    if (ep == 0) { // wrapped: forget every old stamp
        for (int i = 0; i < cells; ++i) a.stamp[i] = 0;
        ep = *a.epoch = 1;
    }
    if (log) {
        log->rowNb = log->srcNb = log->convNb = 0;
        std::memcpy(log->group, a.group, sizeof log->group);
    }

    // Propagates a changed mapSum of cell s (old ReLU in fOld, new one in fNew).
    auto propagate = [&](int s) {
        int32_t* gs = a.group + a.groupOf[s] * 64;
        Ops::groupDelta32(gs + 32, fNew + 32, fOld + 32);
        if (Ops::same32(fOld, fNew)) return;
        Ops::convDelta(w.dwWeight, fOld, fNew, delta);
        const int sx = s % n, sy = s / n;
        for (int ky = 0; ky < 3; ++ky) {
            int ty = sy - (ky - 1);
            if (ty < 0 || ty >= n) continue;
            for (int kx = 0; kx < 3; ++kx) {
                int tx = sx - (kx - 1);
                if (tx < 0 || tx >= n) continue;
                int t = ty * n + tx;
                int16_t* ct = a.conv + t * 32;
                if (a.stamp[t] != ep) {
                    a.stamp[t] = ep;
                    if (log) {
                        log->convCell[log->convNb] = t;
                        std::memcpy(log->convOld[log->convNb++], ct, 32 * sizeof(int16_t));
                    }
                    touched[touchedNb++] = t;
                    Ops::groupRelu32(a.group + a.groupOf[t] * 64, ct, -1);
                }
                Ops::add32(ct, delta + (ky * 3 + kx) * 32);
            }
        }
    };

    // Phase 1: new codes and codebook rows of the (up to 44) cells on the four lines, the
    // stone's own cell first. The row loads are prefetched: they usually miss the cache.
    struct Change {
        int cell, dir, oldRow, newRow;
    };
    Change changes[44];
    int changeNb = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (int d = 0; d < 4; ++d) {
            const int16_t* cb = w.codebook[d >> 1];
            const uint16_t* map = w.mapping[d >> 1];
            for (int k = pass ? -5 : 0; k <= (pass ? 5 : 0); ++k) {
                if (pass && k == 0) continue;
                int cx = px + k * DX[d], cy = py + k * DY[d];
                if (cx < 0 || cx >= n || cy < 0 || cy >= n) continue;
                int c = cy * n + cx, idx = d * cells + c;
                a.code[idx] += digitDelta * POW3[k + 5];
                int nr = map[a.code[idx]], orow = a.row[idx];
                if (nr == orow) continue;
                a.row[idx] = uint16_t(nr);
                if (log) {
                    log->rowIdx[log->rowNb] = idx;
                    log->rowOld[log->rowNb++] = uint16_t(orow);
                }
                __builtin_prefetch(cb + nr * 64);
                __builtin_prefetch(cb + nr * 64 + 32);
                changes[changeNb++] = {c, d, orow, nr};
            }
        }
    // Phase 2: mapSum, then the conv of the 3x3 neighbourhood and the region sums.
    for (int i = 0; i < changeNb;) {
        const int c = changes[i].cell;
        int16_t* ms = a.mapSum + c * 64;
        if (log) {
            log->srcCell[log->srcNb] = c;
            std::memcpy(log->srcOld[log->srcNb++], ms, 64 * sizeof(int16_t));
        }
        Ops::relu64(ms, fOld);
        for (; i < changeNb && changes[i].cell == c; ++i) {
            const int16_t* cb = w.codebook[changes[i].dir >> 1];
            Ops::rowDelta(ms, cb + changes[i].newRow * 64, cb + changes[i].oldRow * 64);
        }
        Ops::relu64(ms, fNew);
        propagate(c);
    }
    for (int i = 0; i < touchedNb; ++i) {
        int t = touched[i];
        Ops::groupRelu32(a.group + a.groupOf[t] * 64, a.conv + t * 32, 1);
    }
}

// ---- Value head (doc steps 6-9) -------------------------------------------------------------

template <class Ops> void starBlock(const Mix9Weights::Star& s, const uint8_t* x, uint8_t* out) {
    alignas(64) int32_t up[STAR_UP];
    alignas(64) int16_t p[64];
    alignas(64) int32_t down[64];
    Ops::linearU8(x, s.upW, s.upB, 64, STAR_UP, up);
    for (int j = 0; j < 64; ++j) {
        int32_t a0 = crelu(up[2 * j], 7), a1 = crelu(up[2 * j + 1], 7);
        int32_t b0 = screlu(up[128 + 2 * j], 7), b1 = screlu(up[128 + 2 * j + 1], 7);
        int32_t v = (a0 * b0 + a1 * b1) >> 7;
        p[j] = int16_t(v < -128 ? -128 : v > 127 ? 127 : v);
    }
    Ops::linearI16(p, s.downW, s.downB, 64, 64, down);
    for (int i = 0; i < 64; ++i) out[i] = uint8_t(crelu(down[i], 7));
}

// The 64 global features: min(sat16(sum) >> 8, 127) (sums are never negative).
inline void globalFeatures(const AccView& a, uint8_t* l0) {
    int32_t global[64];
    for (int i = 0; i < 64; ++i) global[i] = 0;
    for (int g = 0; g < GROUP_NB; ++g)
        for (int i = 0; i < 64; ++i) global[i] = wrapAdd(global[i], a.group[g * 64 + i]);
    for (int i = 0; i < 64; ++i) {
        int32_t v = sat16(global[i]) >> 8;
        l0[i] = uint8_t(v < 0 ? 0 : v > 127 ? 127 : v);
    }
}

template <class Ops>
const uint8_t* cachedStar(const Mix9Weights::Star& s, ValueCache& cache, int slot,
                          const uint8_t* in) {
    bool hit = cache.valid[slot];
    for (int i = 0; i < 64 && hit; ++i) hit = cache.in[slot][i] == in[i];
    if (!hit) {
        for (int i = 0; i < 64; ++i) cache.in[slot][i] = in[i];
        starBlock<Ops>(s, in, cache.out[slot]);
        cache.valid[slot] = true;
    }
    return cache.out[slot];
}

template <class Ops>
void valueImpl(const Mix9Weights& w, const AccView& a, ValueCache& cache, int32_t out[3]) {
    alignas(64) uint8_t l0[VALUE_IN];
    alignas(64) uint8_t g0[64];
    const uint8_t* g1[9];
    globalFeatures(a, l0);
    // 0 corner, 1 edge, 2 center, by region
    static constexpr int STAR_OF[9] = {0, 1, 0, 1, 2, 1, 0, 1, 0};
    for (int g = 0; g < GROUP_NB; ++g) {
        for (int i = 0; i < 64; ++i) {
            int32_t v = sat16(a.group[g * 64 + i]) >> 5;
            g0[i] = uint8_t(v < 0 ? 0 : v > 127 ? 127 : v);
        }
        g1[g] = cachedStar<Ops>(w.star[STAR_OF[g]], cache, g, g0);
    }
    for (int qi = 0; qi < 2; ++qi)
        for (int qj = 0; qj < 2; ++qj) {
            const uint8_t* a0 = g1[qi * 3 + qj];
            const uint8_t* a1 = g1[qi * 3 + qj + 1];
            const uint8_t* b0 = g1[(qi + 1) * 3 + qj];
            const uint8_t* b1 = g1[(qi + 1) * 3 + qj + 1];
            for (int i = 0; i < 64; ++i) {
                int top = (a0[i] + a1[i] + 1) >> 1, bottom = (b0[i] + b1[i] + 1) >> 1;
                g0[i] = uint8_t((top + bottom + 1) >> 1);
            }
            int q = qi * 2 + qj;
            const uint8_t* r = cachedStar<Ops>(w.star[3], cache, 9 + q, g0);
            for (int i = 0; i < 64; ++i) l0[64 + q * 64 + i] = r[i];
        }
    alignas(64) int32_t h[64];
    alignas(64) uint8_t l1[64], l2[64];
    Ops::linearU8(l0, w.valueL1W, w.valueL1B, VALUE_IN, 64, h);
    for (int i = 0; i < 64; ++i) l1[i] = uint8_t(crelu(h[i], 7));
    Ops::linearU8(l1, w.valueL2W, w.valueL2B, 64, 64, h);
    for (int i = 0; i < 64; ++i) l2[i] = uint8_t(crelu(h[i], 7));
    for (int o = 0; o < 3; ++o) {
        uint32_t s = uint32_t(w.valueL3B[o]);
        for (int i = 0; i < 64; ++i) s += uint32_t(int32_t(w.valueL3W[o * 64 + i]) * l2[i]);
        out[o] = int32_t(s);
    }
}

// ---- Policy head (doc step 10) --------------------------------------------------------------

template <class Ops>
void policyImpl(const Mix9Weights& w, const AccView& a, PolicyCache& cache, const uint8_t* board,
                float* out) {
    alignas(64) uint8_t l0[64];
    globalFeatures(a, l0);
    bool hit = cache.valid;
    for (int i = 0; i < 64 && hit; ++i) hit = cache.in[i] == l0[i];
    if (!hit) {
        alignas(64) int32_t h[POLICY_L2];
        alignas(64) uint8_t h1[64];
        Ops::linearU8(l0, w.policyL1W, w.policyL1B, 64, 64, h);
        for (int i = 0; i < 64; ++i) h1[i] = uint8_t(crelu(h[i], 7));
        Ops::linearU8(h1, w.policyL2W, w.policyL2B, 64, POLICY_L2, h);
        for (int o = 0; o < 16; ++o) {
            for (int c = 0; c < 32; ++c)
                cache.wd[(c >> 1) * 32 + o * 2 + (c & 1)] = int16_t(sat16(h[o * 32 + c]));
            cache.bd[o] = int32_t(uint32_t(h[512 + o]) << 7);
        }
        for (int i = 0; i < 64; ++i) cache.in[i] = l0[i];
        cache.valid = true;
    }
    const int cells = a.size * a.size;
    int list[MAX_SIZE * MAX_SIZE];
    int nb = 0;
    for (int c = 0; c < cells; ++c)
        if (board[c] == EMPTY) list[nb++] = c;
    Ops::policyCells(a.conv, list, nb, cache.wd, cache.bd, w.policyOutW, w.policyOutB, out);
}

template <class Ops> constexpr Mix9Kernels makeKernels(SimdLevel level) {
    return {level, &updateImpl<Ops>, &valueImpl<Ops>, &policyImpl<Ops>};
}

} // namespace moku::eval::MIX9_NS
