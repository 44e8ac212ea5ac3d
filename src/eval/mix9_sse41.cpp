// SSE4.1 mix9svq kernels. Without FMA the policy sums are rounded once more than the
// reference (AVX2) order: within 1e-5 relative, not bit-exact.
#include <smmintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "mix9_internal.h"

#define MIX9_NS mix9_sse41
#include "mix9_kernels_impl.h"

namespace moku::eval::mix9_sse41 {
namespace {

inline __m128i load(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
inline void store(void* p, __m128i v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }
inline int32_t load32(const void* p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

struct Ops : ScalarOps {
    static void rowDelta(int16_t* acc, const int16_t* nw, const int16_t* old) {
        for (int i = 0; i < 64; i += 8)
            store(acc + i, _mm_add_epi16(load(acc + i), _mm_sub_epi16(load(nw + i), load(old + i))));
    }
    static void relu64(const int16_t* src, int16_t* dst) {
        const __m128i zero = _mm_setzero_si128();
        for (int i = 0; i < 64; i += 8) store(dst + i, _mm_max_epi16(load(src + i), zero));
    }
    static void convDelta(const int16_t* w, const int16_t* fOld, const int16_t* fNew,
                          int16_t* d) {
        __m128i o[4], n[4];
        for (int h = 0; h < 4; ++h) {
            o[h] = _mm_slli_epi16(load(fOld + 8 * h), 2);
            n[h] = _mm_slli_epi16(load(fNew + 8 * h), 2);
        }
        for (int k = 0; k < 9; ++k)
            for (int h = 0; h < 4; ++h) {
                __m128i wk = load(w + k * 32 + 8 * h);
                store(d + k * 32 + 8 * h,
                      _mm_sub_epi16(_mm_mulhi_epi16(wk, n[h]), _mm_mulhi_epi16(wk, o[h])));
            }
    }
    static bool same32(const int16_t* a, const int16_t* b) {
        __m128i x = _mm_or_si128(_mm_xor_si128(load(a), load(b)),
                                 _mm_xor_si128(load(a + 8), load(b + 8)));
        x = _mm_or_si128(x, _mm_or_si128(_mm_xor_si128(load(a + 16), load(b + 16)),
                                         _mm_xor_si128(load(a + 24), load(b + 24))));
        return _mm_testz_si128(x, x);
    }
    static void add32(int16_t* dst, const int16_t* src) {
        for (int i = 0; i < 32; i += 8) store(dst + i, _mm_add_epi16(load(dst + i), load(src + i)));
    }
    static void addWidened(int32_t* g, __m128i v16, bool add) {
        __m128i lo = _mm_cvtepi16_epi32(v16), hi = _mm_cvtepi16_epi32(_mm_srli_si128(v16, 8));
        if (add) {
            store(g, _mm_add_epi32(load(g), lo));
            store(g + 4, _mm_add_epi32(load(g + 4), hi));
        } else {
            store(g, _mm_sub_epi32(load(g), lo));
            store(g + 4, _mm_sub_epi32(load(g + 4), hi));
        }
    }
    static void groupDelta32(int32_t* g, const int16_t* nw, const int16_t* old) {
        for (int i = 0; i < 32; i += 8)
            addWidened(g + i, _mm_sub_epi16(load(nw + i), load(old + i)), true);
    }
    static void groupRelu32(int32_t* g, const int16_t* conv, int sign) {
        for (int i = 0; i < 32; i += 8)
            addWidened(g + i, _mm_max_epi16(load(conv + i), _mm_setzero_si128()), sign > 0);
    }

    template <int NB>
    static void linearU8Block(const uint8_t* x, const int8_t* wt, const int32_t* b, int nIn,
                              int nOut, int o, int32_t* y) {
        const __m128i ones = _mm_set1_epi16(1);
        __m128i acc[NB];
        for (int j = 0; j < NB; ++j) acc[j] = load(b + o + 4 * j);
        for (int q = 0; q < nIn / 4; ++q) {
            __m128i xq = _mm_set1_epi32(load32(x + 4 * q));
            const int8_t* wq = wt + (q * nOut + o) * 4;
            for (int j = 0; j < NB; ++j)
                acc[j] = _mm_add_epi32(acc[j], _mm_madd_epi16(_mm_maddubs_epi16(xq, load(wq + 16 * j)), ones));
        }
        for (int j = 0; j < NB; ++j) store(y + o + 4 * j, acc[j]);
    }
    static void linearU8(const uint8_t* x, const int8_t* wt, const int32_t* b, int nIn, int nOut,
                         int32_t* y) {
        int o = 0;
        for (; o + 32 <= nOut; o += 32) linearU8Block<8>(x, wt, b, nIn, nOut, o, y);
        for (; o + 4 <= nOut; o += 4) linearU8Block<1>(x, wt, b, nIn, nOut, o, y);
        if (o < nOut) ScalarOps::linearU8(x, wt, b, nIn, nOut, y);  // not used by mix9 sizes
    }
    template <int NB>
    static void linearI16Block(const int16_t* x, const int16_t* wt, const int32_t* b, int nIn,
                               int nOut, int o, int32_t* y) {
        __m128i acc[NB];
        for (int j = 0; j < NB; ++j) acc[j] = load(b + o + 4 * j);
        for (int q = 0; q < nIn / 2; ++q) {
            __m128i xq = _mm_set1_epi32(load32(x + 2 * q));
            const int16_t* wq = wt + (q * nOut + o) * 2;
            for (int j = 0; j < NB; ++j) acc[j] = _mm_add_epi32(acc[j], _mm_madd_epi16(xq, load(wq + 8 * j)));
        }
        for (int j = 0; j < NB; ++j) store(y + o + 4 * j, acc[j]);
    }
    static void linearI16(const int16_t* x, const int16_t* wt, const int32_t* b, int nIn,
                          int nOut, int32_t* y) {
        int o = 0;
        for (; o + 32 <= nOut; o += 32) linearI16Block<8>(x, wt, b, nIn, nOut, o, y);
        for (; o + 4 <= nOut; o += 4) linearI16Block<1>(x, wt, b, nIn, nOut, o, y);
        if (o < nOut) ScalarOps::linearI16(x, wt, b, nIn, nOut, y);  // not used by mix9 sizes
    }

    static void policyCells(const int16_t* conv, const int* list, int nb, const int16_t* wd,
                            const int32_t* bd, const float* pw, float pb, float* out) {
        const __m128i zero = _mm_setzero_si128();
        __m128 pwv[4];
        for (int j = 0; j < 4; ++j) pwv[j] = _mm_loadu_ps(pw + 4 * j);
        alignas(16) int32_t v[16];
        for (int i = 0; i < nb; ++i) {
            const int16_t* cv = conv + list[i] * 32;
            for (int j = 0; j < 4; ++j) store(v + 4 * j, _mm_max_epi16(load(cv + 8 * j), zero));
            __m128i a[4];
            for (int j = 0; j < 4; ++j) a[j] = load(bd + 4 * j);
            for (int cp = 0; cp < 16; ++cp) {
                __m128i x = _mm_set1_epi32(v[cp]);
                for (int j = 0; j < 4; ++j)
                    a[j] = _mm_add_epi32(a[j], _mm_madd_epi16(x, load(wd + cp * 32 + 8 * j)));
            }
            __m128 r[4];
            for (int j = 0; j < 4; ++j) r[j] = _mm_mul_ps(_mm_cvtepi32_ps(_mm_max_epi32(a[j], zero)), pwv[j]);
            // lane_i = r_i + r_{i+8}; s_i = lane_i + lane_{i+4}
            __m128 s = _mm_add_ps(_mm_add_ps(r[2], r[0]), _mm_add_ps(r[3], r[1]));
            __m128 h = _mm_hadd_ps(s, s);
            __m128 t = _mm_add_ss(h, _mm_movehdup_ps(h));
            out[list[i]] = _mm_cvtss_f32(t) + pb;
        }
    }
};

}  // namespace

constexpr Mix9Kernels KERNELS = makeKernels<Ops>(SimdLevel::SSE41);

}  // namespace moku::eval::mix9_sse41

namespace moku::eval {
const Mix9Kernels* mix9KernelsSse41() { return &mix9_sse41::KERNELS; }
}  // namespace moku::eval
