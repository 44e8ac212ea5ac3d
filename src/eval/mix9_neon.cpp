// AArch64 NEON mix9svq kernels; with fused multiply-add the policy sums in exactly the
// reference (AVX2) order. The int8 layers use the portable loops, which the compiler
// vectorises for NEON.
#include <arm_neon.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "mix9_internal.h"

#define MIX9_NS mix9_neon
#include "mix9_kernels_impl.h"

namespace moku::eval::mix9_neon {
namespace {

inline int16x8_t mulhi(int16x8_t a, int16x8_t b) {
    int16x4_t lo = vshrn_n_s32(vmull_s16(vget_low_s16(a), vget_low_s16(b)), 16);
    int16x4_t hi = vshrn_n_s32(vmull_high_s16(a, b), 16);
    return vcombine_s16(lo, hi);
}

struct Ops : ScalarOps {
    static void rowDelta(int16_t* acc, const int16_t* nw, const int16_t* old) {
        for (int i = 0; i < 64; i += 8)
            vst1q_s16(acc + i, vaddq_s16(vld1q_s16(acc + i),
                                         vsubq_s16(vld1q_s16(nw + i), vld1q_s16(old + i))));
    }
    static void relu64(const int16_t* src, int16_t* dst) {
        for (int i = 0; i < 64; i += 8)
            vst1q_s16(dst + i, vmaxq_s16(vld1q_s16(src + i), vdupq_n_s16(0)));
    }
    static void convDelta(const int16_t* w, const int16_t* fOld, const int16_t* fNew, int16_t* d) {
        int16x8_t o[4], n[4];
        for (int h = 0; h < 4; ++h) {
            o[h] = vshlq_n_s16(vld1q_s16(fOld + 8 * h), 2);
            n[h] = vshlq_n_s16(vld1q_s16(fNew + 8 * h), 2);
        }
        for (int k = 0; k < 9; ++k)
            for (int h = 0; h < 4; ++h) {
                int16x8_t wk = vld1q_s16(w + k * 32 + 8 * h);
                vst1q_s16(d + k * 32 + 8 * h, vsubq_s16(mulhi(wk, n[h]), mulhi(wk, o[h])));
            }
    }
    static bool same32(const int16_t* a, const int16_t* b) {
        uint16x8_t x = vdupq_n_u16(0);
        for (int i = 0; i < 32; i += 8)
            x = vorrq_u16(x, vreinterpretq_u16_s16(veorq_s16(vld1q_s16(a + i), vld1q_s16(b + i))));
        return vmaxvq_u16(x) == 0;
    }
    static void add32(int16_t* dst, const int16_t* src) {
        for (int i = 0; i < 32; i += 8)
            vst1q_s16(dst + i, vaddq_s16(vld1q_s16(dst + i), vld1q_s16(src + i)));
    }
    static void addWidened(int32_t* g, int16x8_t v, bool add) {
        int32x4_t lo = vmovl_s16(vget_low_s16(v)), hi = vmovl_high_s16(v);
        if (add) {
            vst1q_s32(g, vaddq_s32(vld1q_s32(g), lo));
            vst1q_s32(g + 4, vaddq_s32(vld1q_s32(g + 4), hi));
        } else {
            vst1q_s32(g, vsubq_s32(vld1q_s32(g), lo));
            vst1q_s32(g + 4, vsubq_s32(vld1q_s32(g + 4), hi));
        }
    }
    static void groupDelta32(int32_t* g, const int16_t* nw, const int16_t* old) {
        for (int i = 0; i < 32; i += 8)
            addWidened(g + i, vsubq_s16(vld1q_s16(nw + i), vld1q_s16(old + i)), true);
    }
    static void groupRelu32(int32_t* g, const int16_t* conv, int sign) {
        for (int i = 0; i < 32; i += 8)
            addWidened(g + i, vmaxq_s16(vld1q_s16(conv + i), vdupq_n_s16(0)), sign > 0);
    }

    static void policyCells(const int16_t* conv, const int* list, int nb, const int16_t* wd,
                            const int32_t* bd, const float* pw, float pb, float* out) {
        float32x4_t pwv[4];
        for (int j = 0; j < 4; ++j) pwv[j] = vld1q_f32(pw + 4 * j);
        for (int i = 0; i < nb; ++i) {
            alignas(16) int16_t v[32];
            const int16_t* cv = conv + list[i] * 32;
            for (int j = 0; j < 32; j += 8)
                vst1q_s16(v + j, vmaxq_s16(vld1q_s16(cv + j), vdupq_n_s16(0)));
            int32x4_t a[4];
            for (int j = 0; j < 4; ++j) a[j] = vld1q_s32(bd + 4 * j);
            for (int cp = 0; cp < 16; ++cp) {
                // even / odd channel weights of outputs 0..7 and 8..15
                int16x8x2_t w0 = vld2q_s16(wd + cp * 32), w1 = vld2q_s16(wd + cp * 32 + 16);
                int16_t e = v[2 * cp], o = v[2 * cp + 1];
                a[0] = vmlal_n_s16(vmlal_n_s16(a[0], vget_low_s16(w0.val[0]), e),
                                   vget_low_s16(w0.val[1]), o);
                a[1] = vmlal_n_s16(vmlal_n_s16(a[1], vget_high_s16(w0.val[0]), e),
                                   vget_high_s16(w0.val[1]), o);
                a[2] = vmlal_n_s16(vmlal_n_s16(a[2], vget_low_s16(w1.val[0]), e),
                                   vget_low_s16(w1.val[1]), o);
                a[3] = vmlal_n_s16(vmlal_n_s16(a[3], vget_high_s16(w1.val[0]), e),
                                   vget_high_s16(w1.val[1]), o);
            }
            float32x4_t r[4];
            for (int j = 0; j < 4; ++j) r[j] = vcvtq_f32_s32(vmaxq_s32(a[j], vdupq_n_s32(0)));
            // lane_i = fma(r[i+8], pw[i+8], r[i] * pw[i]); s_i = lane_i + lane_{i+4}
            float32x4_t l0 = vfmaq_f32(vmulq_f32(r[0], pwv[0]), r[2], pwv[2]);
            float32x4_t l1 = vfmaq_f32(vmulq_f32(r[1], pwv[1]), r[3], pwv[3]);
            float32x4_t s = vaddq_f32(l0, l1);
            float32x4_t h = vpaddq_f32(s, s); // s0+s1, s2+s3, ...
            out[list[i]] = vpadds_f32(vget_low_f32(h)) + pb;
        }
    }
};

} // namespace

constexpr Mix9Kernels KERNELS = makeKernels<Ops>(SimdLevel::NEON);

} // namespace moku::eval::mix9_neon

namespace moku::eval {
const Mix9Kernels* mix9KernelsNeon() { return &mix9_neon::KERNELS; }
} // namespace moku::eval
