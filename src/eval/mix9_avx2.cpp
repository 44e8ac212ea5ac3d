// AVX2 mix9svq kernels; the policy sums in exactly the reference order.
#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "mix9_internal.h"

#define MIX9_NS mix9_avx2
#include "mix9_kernels_impl.h"

namespace moku::eval::mix9_avx2 {
namespace {

inline __m256i load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
inline void store(void* p, __m256i v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
inline int32_t load32(const void* p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

struct Ops : ScalarOps {
    static void rowDelta(int16_t* acc, const int16_t* nw, const int16_t* old) {
        for (int i = 0; i < 64; i += 16)
            store(acc + i, _mm256_add_epi16(load(acc + i),
                                            _mm256_sub_epi16(load(nw + i), load(old + i))));
    }
    static void relu64(const int16_t* src, int16_t* dst) {
        const __m256i zero = _mm256_setzero_si256();
        for (int i = 0; i < 64; i += 16) store(dst + i, _mm256_max_epi16(load(src + i), zero));
    }
    static void convDelta(const int16_t* w, const int16_t* fOld, const int16_t* fNew,
                          int16_t* d) {
        __m256i o0 = _mm256_slli_epi16(load(fOld), 2), o1 = _mm256_slli_epi16(load(fOld + 16), 2);
        __m256i n0 = _mm256_slli_epi16(load(fNew), 2), n1 = _mm256_slli_epi16(load(fNew + 16), 2);
        for (int k = 0; k < 9; ++k) {
            __m256i w0 = load(w + k * 32), w1 = load(w + k * 32 + 16);
            store(d + k * 32,
                  _mm256_sub_epi16(_mm256_mulhi_epi16(w0, n0), _mm256_mulhi_epi16(w0, o0)));
            store(d + k * 32 + 16,
                  _mm256_sub_epi16(_mm256_mulhi_epi16(w1, n1), _mm256_mulhi_epi16(w1, o1)));
        }
    }
    static bool same32(const int16_t* a, const int16_t* b) {
        __m256i x = _mm256_or_si256(_mm256_xor_si256(load(a), load(b)),
                                    _mm256_xor_si256(load(a + 16), load(b + 16)));
        return _mm256_testz_si256(x, x);
    }
    static void add32(int16_t* dst, const int16_t* src) {
        store(dst, _mm256_add_epi16(load(dst), load(src)));
        store(dst + 16, _mm256_add_epi16(load(dst + 16), load(src + 16)));
    }
    static void addWidened(int32_t* g, __m256i v16) {
        __m256i lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(v16));
        __m256i hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256(v16, 1));
        store(g, _mm256_add_epi32(load(g), lo));
        store(g + 8, _mm256_add_epi32(load(g + 8), hi));
    }
    static void subWidened(int32_t* g, __m256i v16) {
        __m256i lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(v16));
        __m256i hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256(v16, 1));
        store(g, _mm256_sub_epi32(load(g), lo));
        store(g + 8, _mm256_sub_epi32(load(g + 8), hi));
    }
    static void groupDelta32(int32_t* g, const int16_t* nw, const int16_t* old) {
        // Both inputs are ReLU outputs of mapSum (0..2044): the difference fits 16 bits.
        addWidened(g, _mm256_sub_epi16(load(nw), load(old)));
        addWidened(g + 16, _mm256_sub_epi16(load(nw + 16), load(old + 16)));
    }
    static void groupRelu32(int32_t* g, const int16_t* conv, int sign) {
        const __m256i zero = _mm256_setzero_si256();
        __m256i v0 = _mm256_max_epi16(load(conv), zero), v1 = _mm256_max_epi16(load(conv + 16), zero);
        if (sign > 0) {
            addWidened(g, v0);
            addWidened(g + 16, v1);
        } else {
            subWidened(g, v0);
            subWidened(g + 16, v1);
        }
    }

    template <int NB>
    static void linearU8Block(const uint8_t* x, const int8_t* wt, const int32_t* b, int nIn,
                              int nOut, int o, int32_t* y) {
        const __m256i ones = _mm256_set1_epi16(1);
        __m256i acc[NB];
        for (int j = 0; j < NB; ++j) acc[j] = load(b + o + 8 * j);
        for (int q = 0; q < nIn / 4; ++q) {
            __m256i xq = _mm256_set1_epi32(load32(x + 4 * q));
            const int8_t* wq = wt + (q * nOut + o) * 4;
            for (int j = 0; j < NB; ++j)
                acc[j] = _mm256_add_epi32(
                    acc[j], _mm256_madd_epi16(_mm256_maddubs_epi16(xq, load(wq + 32 * j)), ones));
        }
        for (int j = 0; j < NB; ++j) store(y + o + 8 * j, acc[j]);
    }
    // Inputs are <= 127, so the pairwise 16-bit sums of maddubs cannot saturate.
    static void linearU8(const uint8_t* x, const int8_t* wt, const int32_t* b, int nIn, int nOut,
                         int32_t* y) {
        int o = 0;
        for (; o + 64 <= nOut; o += 64) linearU8Block<8>(x, wt, b, nIn, nOut, o, y);
        for (; o + 8 <= nOut; o += 8) linearU8Block<1>(x, wt, b, nIn, nOut, o, y);
        if (o < nOut) ScalarOps::linearU8(x, wt, b, nIn, nOut, y);  // not used by mix9 sizes
    }
    template <int NB>
    static void linearI16Block(const int16_t* x, const int16_t* wt, const int32_t* b, int nIn,
                               int nOut, int o, int32_t* y) {
        __m256i acc[NB];
        for (int j = 0; j < NB; ++j) acc[j] = load(b + o + 8 * j);
        for (int q = 0; q < nIn / 2; ++q) {
            __m256i xq = _mm256_set1_epi32(load32(x + 2 * q));
            const int16_t* wq = wt + (q * nOut + o) * 2;
            for (int j = 0; j < NB; ++j)
                acc[j] = _mm256_add_epi32(acc[j], _mm256_madd_epi16(xq, load(wq + 16 * j)));
        }
        for (int j = 0; j < NB; ++j) store(y + o + 8 * j, acc[j]);
    }
    static void linearI16(const int16_t* x, const int16_t* wt, const int32_t* b, int nIn,
                          int nOut, int32_t* y) {
        int o = 0;
        for (; o + 64 <= nOut; o += 64) linearI16Block<8>(x, wt, b, nIn, nOut, o, y);
        for (; o + 8 <= nOut; o += 8) linearI16Block<1>(x, wt, b, nIn, nOut, o, y);
        if (o < nOut) ScalarOps::linearI16(x, wt, b, nIn, nOut, y);  // not used by mix9 sizes
    }

    static void policyCells(const int16_t* conv, const int* list, int nb, const int16_t* wd,
                            const int32_t* bd, const float* pw, float pb, float* out) {
        const __m256i zero = _mm256_setzero_si256();
        const __m256i bd0 = load(bd), bd1 = load(bd + 8);
        const __m256 pw0 = _mm256_loadu_ps(pw), pw1 = _mm256_loadu_ps(pw + 8);
        __m256i w[32];
        for (int i = 0; i < 32; ++i) w[i] = load(wd + 16 * i);
        alignas(32) int32_t v[16];
        for (int i = 0; i < nb; ++i) {
            const int16_t* cv = conv + list[i] * 32;
            store(v, _mm256_max_epi16(load(cv), zero));
            store(v + 8, _mm256_max_epi16(load(cv + 16), zero));
            __m256i a0 = bd0, a1 = bd1;
            for (int cp = 0; cp < 16; ++cp) {
                __m256i x = _mm256_set1_epi32(v[cp]);
                a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(x, w[2 * cp]));
                a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(x, w[2 * cp + 1]));
            }
            __m256 r0 = _mm256_cvtepi32_ps(_mm256_max_epi32(a0, zero));
            __m256 r1 = _mm256_cvtepi32_ps(_mm256_max_epi32(a1, zero));
            __m256 lane = _mm256_fmadd_ps(r1, pw1, _mm256_mul_ps(r0, pw0));
            __m128 s = _mm_add_ps(_mm256_castps256_ps128(lane), _mm256_extractf128_ps(lane, 1));
            __m128 h = _mm_hadd_ps(s, s);
            __m128 t = _mm_add_ss(h, _mm_movehdup_ps(h));
            out[list[i]] = _mm_cvtss_f32(t) + pb;
        }
    }
};

}  // namespace

constexpr Mix9Kernels KERNELS = makeKernels<Ops>(SimdLevel::AVX2);

}  // namespace moku::eval::mix9_avx2

namespace moku::eval {
const Mix9Kernels* mix9KernelsAvx2() { return &mix9_avx2::KERNELS; }
}  // namespace moku::eval
