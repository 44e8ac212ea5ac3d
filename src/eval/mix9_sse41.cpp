// SSE4.1 mix9svq kernels. Without FMA the policy sums are rounded once more than the
// reference (AVX2) order: within 1e-5 relative, not bit-exact.
#include <smmintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "mix9_internal.h"

#define MIX9_NS mix9_sse41
#include "mix9_kernels_impl.h"
#include "mix9_vector_ops.h"

namespace moku::eval::mix9_sse41 {
namespace {

struct V {
    using Reg = __m128i;
    static constexpr int BYTES = 16;
    static Reg load(const void* p) { return _mm_loadu_si128(static_cast<const Reg*>(p)); }
    static void store(void* p, Reg v) { _mm_storeu_si128(static_cast<Reg*>(p), v); }
    static Reg zero() { return _mm_setzero_si128(); }
    static Reg add16(Reg a, Reg b) { return _mm_add_epi16(a, b); }
    static Reg sub16(Reg a, Reg b) { return _mm_sub_epi16(a, b); }
    static Reg max16(Reg a, Reg b) { return _mm_max_epi16(a, b); }
    static Reg mulhi16(Reg a, Reg b) { return _mm_mulhi_epi16(a, b); }
    static Reg shl2x16(Reg a) { return _mm_slli_epi16(a, 2); }
    static Reg add32(Reg a, Reg b) { return _mm_add_epi32(a, b); }
    static Reg sub32(Reg a, Reg b) { return _mm_sub_epi32(a, b); }
    static Reg orBits(Reg a, Reg b) { return _mm_or_si128(a, b); }
    static Reg xorBits(Reg a, Reg b) { return _mm_xor_si128(a, b); }
    static bool isZero(Reg a) { return _mm_testz_si128(a, a); }
    static Reg set1x32(int32_t v) { return _mm_set1_epi32(v); }
    static Reg widenLo(Reg a) { return _mm_cvtepi16_epi32(a); }
    static Reg widenHi(Reg a) { return _mm_cvtepi16_epi32(_mm_srli_si128(a, 8)); }
    // Inputs are <= 127, so the pairwise 16-bit sums of maddubs cannot saturate.
    static Reg dotU8(Reg acc, Reg x, Reg w) {
        return _mm_add_epi32(acc, _mm_madd_epi16(_mm_maddubs_epi16(x, w), _mm_set1_epi16(1)));
    }
    static Reg dotI16(Reg acc, Reg x, Reg w) { return _mm_add_epi32(acc, _mm_madd_epi16(x, w)); }
};

struct Ops : VectorOps<V> {
    static void policyCells(const int16_t* conv, const int* list, int nb, const int16_t* wd,
                            const int32_t* bd, const float* pw, float pb, float* out) {
        const __m128i zero = _mm_setzero_si128();
        __m128 pwv[4];
        for (int j = 0; j < 4; ++j) pwv[j] = _mm_loadu_ps(pw + 4 * j);
        alignas(16) int32_t v[16];
        for (int i = 0; i < nb; ++i) {
            const int16_t* cv = conv + list[i] * 32;
            for (int j = 0; j < 4; ++j)
                V::store(v + 4 * j, _mm_max_epi16(V::load(cv + 8 * j), zero));
            __m128i a[4];
            for (int j = 0; j < 4; ++j) a[j] = V::load(bd + 4 * j);
            for (int cp = 0; cp < 16; ++cp) {
                __m128i x = _mm_set1_epi32(v[cp]);
                for (int j = 0; j < 4; ++j)
                    a[j] = _mm_add_epi32(a[j], _mm_madd_epi16(x, V::load(wd + cp * 32 + 8 * j)));
            }
            __m128 r[4];
            for (int j = 0; j < 4; ++j)
                r[j] = _mm_mul_ps(_mm_cvtepi32_ps(_mm_max_epi32(a[j], zero)), pwv[j]);
            // lane_i = r_i + r_{i+8}; s_i = lane_i + lane_{i+4}
            __m128 s = _mm_add_ps(_mm_add_ps(r[2], r[0]), _mm_add_ps(r[3], r[1]));
            __m128 h = _mm_hadd_ps(s, s);
            __m128 t = _mm_add_ss(h, _mm_movehdup_ps(h));
            out[list[i]] = _mm_cvtss_f32(t) + pb;
        }
    }
};

} // namespace

constexpr Mix9Kernels KERNELS = makeKernels<Ops>(SimdLevel::SSE41);

} // namespace moku::eval::mix9_sse41

namespace moku::eval {
const Mix9Kernels* mix9KernelsSse41() { return &mix9_sse41::KERNELS; }
} // namespace moku::eval
