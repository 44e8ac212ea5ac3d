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
#include "mix9_vector_ops.h"

namespace moku::eval::mix9_avx512 {
namespace {

struct V {
    using Reg = __m512i;
    static constexpr int BYTES = 64;
    static Reg load(const void* p) { return _mm512_loadu_si512(p); }
    static void store(void* p, Reg v) { _mm512_storeu_si512(p, v); }
    static Reg zero() { return _mm512_setzero_si512(); }
    static Reg add16(Reg a, Reg b) { return _mm512_add_epi16(a, b); }
    static Reg sub16(Reg a, Reg b) { return _mm512_sub_epi16(a, b); }
    static Reg max16(Reg a, Reg b) { return _mm512_max_epi16(a, b); }
    static Reg mulhi16(Reg a, Reg b) { return _mm512_mulhi_epi16(a, b); }
    static Reg shl2x16(Reg a) { return _mm512_slli_epi16(a, 2); }
    static Reg add32(Reg a, Reg b) { return _mm512_add_epi32(a, b); }
    static Reg sub32(Reg a, Reg b) { return _mm512_sub_epi32(a, b); }
    static Reg orBits(Reg a, Reg b) { return _mm512_or_si512(a, b); }
    static Reg xorBits(Reg a, Reg b) { return _mm512_xor_si512(a, b); }
    static bool isZero(Reg a) { return _mm512_test_epi64_mask(a, a) == 0; }
    static Reg set1x32(int32_t v) { return _mm512_set1_epi32(v); }
    static Reg widenLo(Reg a) { return _mm512_cvtepi16_epi32(_mm512_castsi512_si256(a)); }
    static Reg widenHi(Reg a) { return _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(a, 1)); }
    static Reg dotU8(Reg acc, Reg x, Reg w) { return _mm512_dpbusd_epi32(acc, x, w); }
    static Reg dotI16(Reg acc, Reg x, Reg w) { return _mm512_dpwssd_epi32(acc, x, w); }
};

struct Ops : VectorOps<V> {
    static void policyCells(const int16_t* conv, const int* list, int nb, const int16_t* wd,
                            const int32_t* bd, const float* pw, float pb, float* out) {
        const __m512i bdv = V::load(bd);
        const __m256 pw0 = _mm256_loadu_ps(pw), pw1 = _mm256_loadu_ps(pw + 8);
        __m512i w[16];
        for (int i = 0; i < 16; ++i) w[i] = V::load(wd + 32 * i);
        alignas(64) int32_t v[16];
        for (int i = 0; i < nb; ++i) {
            V::store(v, _mm512_max_epi16(V::load(conv + list[i] * 32), _mm512_setzero_si512()));
            __m512i a = bdv;
            for (int cp = 0; cp < 16; ++cp)
                a = _mm512_dpwssd_epi32(a, _mm512_set1_epi32(v[cp]), w[cp]);
            __m512 r = _mm512_cvtepi32_ps(_mm512_max_epi32(a, _mm512_setzero_si512()));
            __m256 r0 = _mm512_castps512_ps256(r);
            __m256 r1 = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(r), 1));
            out[list[i]] = policySum(r0, r1, pw0, pw1) + pb;
        }
    }
};

} // namespace

constexpr Mix9Kernels KERNELS = makeKernels<Ops>(SimdLevel::AVX512);

} // namespace moku::eval::mix9_avx512

namespace moku::eval {
const Mix9Kernels* mix9KernelsAvx512() { return &mix9_avx512::KERNELS; }
} // namespace moku::eval
