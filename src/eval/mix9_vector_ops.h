// The integer mix9svq primitives written once over a vector type. An x86 kernel file defines
// MIX9_NS, includes mix9_kernels_impl.h, then this file, and describes its registers in a
// struct V (below) for VectorOps<V>; only what differs in structure per instruction set (the
// policy sums, whose float order decides bit-exactness) stays in the kernel file.
// No include guard on purpose, as mix9_kernels_impl.h.
//
// struct V {
//     using Reg = ...;                    // the register type
//     static constexpr int BYTES;         // its width
//     load, store, zero, add16, sub16, max16, mulhi16, shl2x16 (each int16 times 4),
//     add32, sub32, orBits, xorBits, isZero, set1x32,
//     widenLo, widenHi                    // int16 lanes of the low / high half as int32
//     dotU8(acc, x, w)                    // acc + sums of 4 (u8 x) * (i8 w) products per int32
//     dotI16(acc, x, w)                   // acc + sums of 2 (i16 x) * (i16 w) products per int32
// };

#ifndef MIX9_NS
#error "define MIX9_NS before including mix9_vector_ops.h"
#endif

namespace moku::eval::MIX9_NS {

inline int32_t load32(const void* p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

#if defined(__AVX2__) && defined(__FMA__)
// The reference order of a policy logit's last sums: r and pw hold outputs 0-7 and 8-15.
inline float policySum(__m256 r0, __m256 r1, __m256 pw0, __m256 pw1) {
    __m256 lane = _mm256_fmadd_ps(r1, pw1, _mm256_mul_ps(r0, pw0));
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(lane), _mm256_extractf128_ps(lane, 1));
    __m128 h = _mm_hadd_ps(s, s);
    return _mm_cvtss_f32(_mm_add_ss(h, _mm_movehdup_ps(h)));
}
#endif

template <class V> struct VectorOps : ScalarOps {
    using R = typename V::Reg;
    static constexpr int L16 = V::BYTES / 2; // int16 lanes
    static constexpr int L32 = V::BYTES / 4; // int32 lanes

    static void rowDelta(int16_t* acc, const int16_t* nw, const int16_t* old) {
        for (int i = 0; i < 64; i += L16)
            V::store(acc + i,
                     V::add16(V::load(acc + i), V::sub16(V::load(nw + i), V::load(old + i))));
    }
    static void relu64(const int16_t* src, int16_t* dst) {
        for (int i = 0; i < 64; i += L16) V::store(dst + i, V::max16(V::load(src + i), V::zero()));
    }
    static void convDelta(const int16_t* w, const int16_t* fOld, const int16_t* fNew, int16_t* d) {
        constexpr int H = 32 / L16;
        R o[H], n[H];
        for (int h = 0; h < H; ++h) {
            o[h] = V::shl2x16(V::load(fOld + L16 * h));
            n[h] = V::shl2x16(V::load(fNew + L16 * h));
        }
        for (int k = 0; k < 9; ++k)
            for (int h = 0; h < H; ++h) {
                R wk = V::load(w + k * 32 + L16 * h);
                V::store(d + k * 32 + L16 * h,
                         V::sub16(V::mulhi16(wk, n[h]), V::mulhi16(wk, o[h])));
            }
    }
    static bool same32(const int16_t* a, const int16_t* b) {
        R x = V::zero();
        for (int i = 0; i < 32; i += L16)
            x = V::orBits(x, V::xorBits(V::load(a + i), V::load(b + i)));
        return V::isZero(x);
    }
    static void add32(int16_t* dst, const int16_t* src) {
        for (int i = 0; i < 32; i += L16)
            V::store(dst + i, V::add16(V::load(dst + i), V::load(src + i)));
    }
    // g[0..L16) += or -= the int16 lanes of v16, widened.
    static void addWidened(int32_t* g, R v16, bool add) {
        R lo = V::widenLo(v16), hi = V::widenHi(v16);
        if (add) {
            V::store(g, V::add32(V::load(g), lo));
            V::store(g + L32, V::add32(V::load(g + L32), hi));
        } else {
            V::store(g, V::sub32(V::load(g), lo));
            V::store(g + L32, V::sub32(V::load(g + L32), hi));
        }
    }
    static void groupDelta32(int32_t* g, const int16_t* nw, const int16_t* old) {
        // Both inputs are ReLU outputs of mapSum (0..2044): the difference fits 16 bits.
        for (int i = 0; i < 32; i += L16)
            addWidened(g + i, V::sub16(V::load(nw + i), V::load(old + i)), true);
    }
    static void groupRelu32(int32_t* g, const int16_t* conv, int sign) {
        for (int i = 0; i < 32; i += L16)
            addWidened(g + i, V::max16(V::load(conv + i), V::zero()), sign > 0);
    }

    // NB registers of outputs [o, o + NB * L32) of y = W x + b.
    template <int NB>
    static void linearU8Block(const uint8_t* x, const int8_t* wt, const int32_t* b, int nIn,
                              int nOut, int o, int32_t* y) {
        R acc[NB];
        for (int j = 0; j < NB; ++j) acc[j] = V::load(b + o + L32 * j);
        for (int q = 0; q < nIn / 4; ++q) {
            R xq = V::set1x32(load32(x + 4 * q));
            const int8_t* wq = wt + (q * nOut + o) * 4;
            for (int j = 0; j < NB; ++j) acc[j] = V::dotU8(acc[j], xq, V::load(wq + V::BYTES * j));
        }
        for (int j = 0; j < NB; ++j) V::store(y + o + L32 * j, acc[j]);
    }
    static void linearU8(const uint8_t* x, const int8_t* wt, const int32_t* b, int nIn, int nOut,
                         int32_t* y) {
        int o = 0;
        for (; o + 8 * L32 <= nOut; o += 8 * L32) linearU8Block<8>(x, wt, b, nIn, nOut, o, y);
        for (; o + 4 * L32 <= nOut; o += 4 * L32) linearU8Block<4>(x, wt, b, nIn, nOut, o, y);
        for (; o + L32 <= nOut; o += L32) linearU8Block<1>(x, wt, b, nIn, nOut, o, y);
        if (o < nOut) ScalarOps::linearU8(x, wt, b, nIn, nOut, y); // not used by mix9 sizes
    }
    template <int NB>
    static void linearI16Block(const int16_t* x, const int16_t* wt, const int32_t* b, int nIn,
                               int nOut, int o, int32_t* y) {
        R acc[NB];
        for (int j = 0; j < NB; ++j) acc[j] = V::load(b + o + L32 * j);
        for (int q = 0; q < nIn / 2; ++q) {
            R xq = V::set1x32(load32(x + 2 * q));
            const int16_t* wq = wt + (q * nOut + o) * 2;
            for (int j = 0; j < NB; ++j) acc[j] = V::dotI16(acc[j], xq, V::load(wq + L16 * j));
        }
        for (int j = 0; j < NB; ++j) V::store(y + o + L32 * j, acc[j]);
    }
    static void linearI16(const int16_t* x, const int16_t* wt, const int32_t* b, int nIn, int nOut,
                          int32_t* y) {
        int o = 0;
        for (; o + 8 * L32 <= nOut; o += 8 * L32) linearI16Block<8>(x, wt, b, nIn, nOut, o, y);
        for (; o + 4 * L32 <= nOut; o += 4 * L32) linearI16Block<4>(x, wt, b, nIn, nOut, o, y);
        for (; o + L32 <= nOut; o += L32) linearI16Block<1>(x, wt, b, nIn, nOut, o, y);
        if (o < nOut) ScalarOps::linearI16(x, wt, b, nIn, nOut, y); // not used by mix9 sizes
    }
};

} // namespace moku::eval::MIX9_NS
