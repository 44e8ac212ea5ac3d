// AVX-512 (BW, VL, VNNI) mix9svq kernels; the policy sums in exactly the reference order.
// GCC 12 reports its own _mm512_undefined_* placeholders inside the intrinsics as
// maybe-uninitialized; the values are fully defined.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "mix9_internal.h"

#define MIX9_NS mix9_avx512
#include "mix9_kernels_impl.h"

namespace moku::eval::mix9_avx512 {
namespace {

inline __m512i load(const void* p) { return _mm512_loadu_si512(p); }
inline void store(void* p, __m512i v) { _mm512_storeu_si512(p, v); }
inline int32_t load32(const void* p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

struct Ops : ScalarOps {
    static void rowDelta(int16_t* acc, const int16_t* nw, const int16_t* old) {
        for (int i = 0; i < 64; i += 32)
            store(acc + i, _mm512_add_epi16(load(acc + i),
                                            _mm512_sub_epi16(load(nw + i), load(old + i))));
    }
    static void relu64(const int16_t* src, int16_t* dst) {
        const __m512i zero = _mm512_setzero_si512();
        store(dst, _mm512_max_epi16(load(src), zero));
        store(dst + 32, _mm512_max_epi16(load(src + 32), zero));
    }
    static void convDelta(const int16_t* w, const int16_t* fOld, const int16_t* fNew,
                          int16_t* d) {
        __m512i o = _mm512_slli_epi16(load(fOld), 2), n = _mm512_slli_epi16(load(fNew), 2);
        for (int k = 0; k < 9; ++k) {
            __m512i wk = load(w + k * 32);
            store(d + k * 32, _mm512_sub_epi16(_mm512_mulhi_epi16(wk, n), _mm512_mulhi_epi16(wk, o)));
        }
    }
    static bool same32(const int16_t* a, const int16_t* b) {
        return _mm512_cmpneq_epi16_mask(load(a), load(b)) == 0;
    }
    static void add32(int16_t* dst, const int16_t* src) {
        store(dst, _mm512_add_epi16(load(dst), load(src)));
    }
    static void groupDelta32(int32_t* g, const int16_t* nw, const int16_t* old) {
        __m512i d = _mm512_sub_epi16(load(nw), load(old));  // ReLU outputs 0..2044: no overflow
        store(g, _mm512_add_epi32(load(g), _mm512_cvtepi16_epi32(_mm512_castsi512_si256(d))));
        store(g + 16,
              _mm512_add_epi32(load(g + 16), _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(d, 1))));
    }
    static void groupRelu32(int32_t* g, const int16_t* conv, int sign) {
        __m512i v = _mm512_max_epi16(load(conv), _mm512_setzero_si512());
        __m512i lo = _mm512_cvtepi16_epi32(_mm512_castsi512_si256(v));
        __m512i hi = _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(v, 1));
        if (sign > 0) {
            store(g, _mm512_add_epi32(load(g), lo));
            store(g + 16, _mm512_add_epi32(load(g + 16), hi));
        } else {
            store(g, _mm512_sub_epi32(load(g), lo));
            store(g + 16, _mm512_sub_epi32(load(g + 16), hi));
        }
    }

    template <int NB>
    static void linearU8Block(const uint8_t* x, const int8_t* wt, const int32_t* b, int nIn,
                              int nOut, int o, int32_t* y) {
        __m512i acc[NB];
        for (int j = 0; j < NB; ++j) acc[j] = load(b + o + 16 * j);
        for (int q = 0; q < nIn / 4; ++q) {
            __m512i xq = _mm512_set1_epi32(load32(x + 4 * q));
            const int8_t* wq = wt + (q * nOut + o) * 4;
            for (int j = 0; j < NB; ++j) acc[j] = _mm512_dpbusd_epi32(acc[j], xq, load(wq + 64 * j));
        }
        for (int j = 0; j < NB; ++j) store(y + o + 16 * j, acc[j]);
    }
    static void linearU8(const uint8_t* x, const int8_t* wt, const int32_t* b, int nIn, int nOut,
                         int32_t* y) {
        int o = 0;
        for (; o + 128 <= nOut; o += 128) linearU8Block<8>(x, wt, b, nIn, nOut, o, y);
        for (; o + 64 <= nOut; o += 64) linearU8Block<4>(x, wt, b, nIn, nOut, o, y);
        for (; o + 16 <= nOut; o += 16) linearU8Block<1>(x, wt, b, nIn, nOut, o, y);
        if (o < nOut) ScalarOps::linearU8(x, wt, b, nIn, nOut, y);  // not used by mix9 sizes
    }
    template <int NB>
    static void linearI16Block(const int16_t* x, const int16_t* wt, const int32_t* b, int nIn,
                               int nOut, int o, int32_t* y) {
        __m512i acc[NB];
        for (int j = 0; j < NB; ++j) acc[j] = load(b + o + 16 * j);
        for (int q = 0; q < nIn / 2; ++q) {
            __m512i xq = _mm512_set1_epi32(load32(x + 2 * q));
            const int16_t* wq = wt + (q * nOut + o) * 2;
            for (int j = 0; j < NB; ++j) acc[j] = _mm512_dpwssd_epi32(acc[j], xq, load(wq + 32 * j));
        }
        for (int j = 0; j < NB; ++j) store(y + o + 16 * j, acc[j]);
    }
    static void linearI16(const int16_t* x, const int16_t* wt, const int32_t* b, int nIn,
                          int nOut, int32_t* y) {
        int o = 0;
        for (; o + 64 <= nOut; o += 64) linearI16Block<4>(x, wt, b, nIn, nOut, o, y);
        for (; o + 16 <= nOut; o += 16) linearI16Block<1>(x, wt, b, nIn, nOut, o, y);
        if (o < nOut) ScalarOps::linearI16(x, wt, b, nIn, nOut, y);  // not used by mix9 sizes
    }

    static void policyCells(const int16_t* conv, const int* list, int nb, const int16_t* wd,
                            const int32_t* bd, const float* pw, float pb, float* out) {
        const __m512i bdv = load(bd);
        const __m256 pw0 = _mm256_loadu_ps(pw), pw1 = _mm256_loadu_ps(pw + 8);
        __m512i w[16];
        for (int i = 0; i < 16; ++i) w[i] = load(wd + 32 * i);
        alignas(64) int32_t v[16];
        for (int i = 0; i < nb; ++i) {
            store(v, _mm512_max_epi16(load(conv + list[i] * 32), _mm512_setzero_si512()));
            __m512i a = bdv;
            for (int cp = 0; cp < 16; ++cp) a = _mm512_dpwssd_epi32(a, _mm512_set1_epi32(v[cp]), w[cp]);
            __m512 r = _mm512_cvtepi32_ps(_mm512_max_epi32(a, _mm512_setzero_si512()));
            __m256 r0 = _mm512_castps512_ps256(r);
            __m256 r1 = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(r), 1));
            __m256 lane = _mm256_fmadd_ps(r1, pw1, _mm256_mul_ps(r0, pw0));
            __m128 s = _mm_add_ps(_mm256_castps256_ps128(lane), _mm256_extractf128_ps(lane, 1));
            __m128 h = _mm_hadd_ps(s, s);
            __m128 t = _mm_add_ss(h, _mm_movehdup_ps(h));
            out[list[i]] = _mm_cvtss_f32(t) + pb;
        }
    }
};

}  // namespace

constexpr Mix9Kernels KERNELS = makeKernels<Ops>(SimdLevel::AVX512);

}  // namespace moku::eval::mix9_avx512

namespace moku::eval {
const Mix9Kernels* mix9KernelsAvx512() { return &mix9_avx512::KERNELS; }
}  // namespace moku::eval
