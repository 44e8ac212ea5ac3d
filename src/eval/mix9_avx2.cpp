// AVX2 mix9svq kernels; the policy sums in exactly the reference order.
#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "mix9_internal.h"

#define MIX9_NS mix9_avx2
#include "mix9_kernels_impl.h"
#include "mix9_vector_ops.h"

namespace moku::eval::mix9_avx2 {
namespace {

struct V {
    using Reg = __m256i;
    static constexpr int BYTES = 32;
    static Reg load(const void* p) { return _mm256_loadu_si256(static_cast<const Reg*>(p)); }
    static void store(void* p, Reg v) { _mm256_storeu_si256(static_cast<Reg*>(p), v); }
    static Reg zero() { return _mm256_setzero_si256(); }
    static Reg add16(Reg a, Reg b) { return _mm256_add_epi16(a, b); }
    static Reg sub16(Reg a, Reg b) { return _mm256_sub_epi16(a, b); }
    static Reg max16(Reg a, Reg b) { return _mm256_max_epi16(a, b); }
    static Reg mulhi16(Reg a, Reg b) { return _mm256_mulhi_epi16(a, b); }
    static Reg shl2x16(Reg a) { return _mm256_slli_epi16(a, 2); }
    static Reg add32(Reg a, Reg b) { return _mm256_add_epi32(a, b); }
    static Reg sub32(Reg a, Reg b) { return _mm256_sub_epi32(a, b); }
    static Reg orBits(Reg a, Reg b) { return _mm256_or_si256(a, b); }
    static Reg xorBits(Reg a, Reg b) { return _mm256_xor_si256(a, b); }
    static bool isZero(Reg a) { return _mm256_testz_si256(a, a); }
    static Reg set1x32(int32_t v) { return _mm256_set1_epi32(v); }
    static Reg widenLo(Reg a) { return _mm256_cvtepi16_epi32(_mm256_castsi256_si128(a)); }
    static Reg widenHi(Reg a) { return _mm256_cvtepi16_epi32(_mm256_extracti128_si256(a, 1)); }
    // Inputs are <= 127, so the pairwise 16-bit sums of maddubs cannot saturate.
    static Reg dotU8(Reg acc, Reg x, Reg w) {
        return _mm256_add_epi32(
            acc, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)));
    }
    static Reg dotI16(Reg acc, Reg x, Reg w) {
        return _mm256_add_epi32(acc, _mm256_madd_epi16(x, w));
    }
};

struct Ops : VectorOps<V> {
    static void policyCells(const int16_t* conv, const int* list, int nb, const int16_t* wd,
                            const int32_t* bd, const float* pw, float pb, float* out) {
        const __m256i zero = _mm256_setzero_si256();
        const __m256i bd0 = V::load(bd), bd1 = V::load(bd + 8);
        const __m256 pw0 = _mm256_loadu_ps(pw), pw1 = _mm256_loadu_ps(pw + 8);
        __m256i w[32];
        for (int i = 0; i < 32; ++i) w[i] = V::load(wd + 16 * i);
        alignas(32) int32_t v[16];
        for (int i = 0; i < nb; ++i) {
            const int16_t* cv = conv + list[i] * 32;
            V::store(v, _mm256_max_epi16(V::load(cv), zero));
            V::store(v + 8, _mm256_max_epi16(V::load(cv + 16), zero));
            __m256i a0 = bd0, a1 = bd1;
            for (int cp = 0; cp < 16; ++cp) {
                __m256i x = _mm256_set1_epi32(v[cp]);
                a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(x, w[2 * cp]));
                a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(x, w[2 * cp + 1]));
            }
            __m256 r0 = _mm256_cvtepi32_ps(_mm256_max_epi32(a0, zero));
            __m256 r1 = _mm256_cvtepi32_ps(_mm256_max_epi32(a1, zero));
            out[list[i]] = policySum(r0, r1, pw0, pw1) + pb;
        }
    }
};

} // namespace

constexpr Mix9Kernels KERNELS = makeKernels<Ops>(SimdLevel::AVX2);

} // namespace moku::eval::mix9_avx2

namespace moku::eval {
const Mix9Kernels* mix9KernelsAvx2() { return &mix9_avx2::KERNELS; }
} // namespace moku::eval
