// Reads mix9svq weight files and re-lays the parameters out for the kernels. A file is one LZ4
// frame holding, little-endian: a 20-byte header (u32 MAGIC, u32 ARCH_HASH, u32 rule mask with
// 1 freestyle / 2 standard / 4 renju, u32 board-size mask with bit n-1 for size n, u32
// description length), the description text, then exactly PAYLOAD_BYTES (mix9.h) in the order
// parse() reads them: two codebooks of CODEBOOK_ROWS x 64 signed 10-bit values (packed), two
// SHAPE_NB u16 shape-to-codebook maps, the 3x3 depthwise conv (9 x 32 i16 weights, 32 i16
// biases), the policy layers 64->64 and 64->POLICY_L2, per star block (corner, edge, centre,
// quad) the up layers 2 x (64->128) and the down layer 64->64 (widened to i16), the value layers
// VALUE_IN->64, 64->64 and 64->4, then 16 float policy output weights and a float bias. Each
// linear layer is its i8 weights [out][in] followed by its i32 biases [out].
#include <lz4frame.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <vector>

#include "mix9_internal.h"

namespace moku::eval {

static_assert(std::endian::native == std::endian::little, "the loader reads little-endian data");

namespace {

using namespace mix9;

constexpr size_t MAX_DECOMPRESSED = 64u << 20; // refuse anything far larger than a network
constexpr size_t CODEBOOK_BYTES = size_t(CODEBOOK_ROWS) * 64 * 10 / 8;

// Every array of a network, 64-byte aligned, freed together.
class Storage {
public:
    ~Storage() {
        for (void* p : blocks_) ::operator delete(p, std::align_val_t(64));
    }
    template <class T> T* alloc(size_t count) {
        size_t bytes = (count * sizeof(T) + 63) / 64 * 64;
        void* p = ::operator new(bytes, std::align_val_t(64));
        blocks_.push_back(p);
        std::memset(p, 0, bytes);
        return static_cast<T*>(p);
    }

private:
    std::vector<void*> blocks_;
};

// Sequential little-endian reader over the payload; the length was checked up front.
class Reader {
public:
    explicit Reader(const uint8_t* p) : p_(p) {}
    template <class T> T get() {
        T v;
        std::memcpy(&v, p_, sizeof v);
        p_ += sizeof v;
        return v;
    }
    const uint8_t* take(size_t n) {
        const uint8_t* r = p_;
        p_ += n;
        return r;
    }

private:
    const uint8_t* p_;
};

void unpackCodebook(const uint8_t* bits, int16_t* out) {
    for (size_t i = 0; i < size_t(CODEBOOK_ROWS) * 64; ++i) {
        size_t pos = i * 10;
        // 10i mod 8 is even, so the 10 bits always lie within two bytes.
        uint32_t two = uint32_t(bits[pos >> 3]) | uint32_t(bits[(pos >> 3) + 1]) << 8;
        int32_t v = int32_t((two >> (pos & 7)) & 0x3FF);
        out[i] = int16_t((v ^ 0x200) - 0x200);
    }
}

// i8 W[nOut][nIn] + i32 b[nOut] -> quad-interleaved weights and biases.
void readLinearU8(Reader& r, Storage& st, int nIn, int nOut, int8_t*& w, int32_t*& b,
                  int rowOffset = 0, int totalOut = 0) {
    if (totalOut == 0) totalOut = nOut;
    const uint8_t* raw = r.take(size_t(nIn) * nOut);
    if (!w) w = st.alloc<int8_t>(size_t(nIn) * totalOut);
    if (!b) b = st.alloc<int32_t>(totalOut);
    for (int o = 0; o < nOut; ++o)
        for (int i = 0; i < nIn; ++i)
            w[(i / 4) * totalOut * 4 + (o + rowOffset) * 4 + i % 4] = int8_t(raw[o * nIn + i]);
    for (int o = 0; o < nOut; ++o) b[o + rowOffset] = r.get<int32_t>();
}

void readLinearI16(Reader& r, Storage& st, int nIn, int nOut, int16_t*& w, int32_t*& b) {
    const uint8_t* raw = r.take(size_t(nIn) * nOut);
    w = st.alloc<int16_t>(size_t(nIn) * nOut);
    b = st.alloc<int32_t>(nOut);
    for (int o = 0; o < nOut; ++o)
        for (int i = 0; i < nIn; ++i)
            w[(i / 2) * nOut * 2 + o * 2 + i % 2] = int8_t(raw[o * nIn + i]);
    for (int o = 0; o < nOut; ++o) b[o] = r.get<int32_t>();
}

LoadResult fail(std::string msg) { return LoadResult{nullptr, "mix9svq: " + std::move(msg)}; }

std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}

// Decompresses exactly one LZ4 frame covering the whole input.
bool decompress(const uint8_t* src, size_t n, std::vector<uint8_t>& out, std::string& err) {
    static constexpr uint8_t LZ4_MAGIC[4] = {0x04, 0x22, 0x4D, 0x18};
    if (n < 4 || std::memcmp(src, LZ4_MAGIC, 4) != 0) {
        err = "not an LZ4 frame (bad frame magic)";
        return false;
    }
    LZ4F_dctx* ctx = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) {
        err = "cannot create an LZ4 decompression context";
        return false;
    }
    out.resize(20 + PAYLOAD_BYTES + 4096);
    size_t inPos = 0, outPos = 0, hint = 1;
    bool ok = true;
    while (inPos < n && hint != 0) {
        if (out.size() - outPos < 65536) {
            if (out.size() >= MAX_DECOMPRESSED) {
                err = "decompressed data too large (payload too long)";
                ok = false;
                break;
            }
            out.resize(std::min(out.size() * 2, MAX_DECOMPRESSED));
        }
        size_t inSize = n - inPos, outSize = out.size() - outPos;
        hint = LZ4F_decompress(ctx, out.data() + outPos, &outSize, src + inPos, &inSize, nullptr);
        if (LZ4F_isError(hint)) {
            err = std::string("corrupt LZ4 frame: ") + LZ4F_getErrorName(hint);
            ok = false;
            break;
        }
        inPos += inSize;
        outPos += outSize;
    }
    LZ4F_freeDecompressionContext(ctx);
    if (!ok) return false;
    if (hint != 0) {
        err = "truncated LZ4 frame";
        return false;
    }
    if (inPos != n) {
        err = "unexpected bytes after the LZ4 frame";
        return false;
    }
    out.resize(outPos);
    return true;
}

LoadResult parse(const std::vector<uint8_t>& data) {
    if (data.size() < 20) return fail("file too short for the header");
    Reader h(data.data());
    uint32_t magic = h.get<uint32_t>(), arch = h.get<uint32_t>();
    uint32_t ruleMask = h.get<uint32_t>(), sizeMask = h.get<uint32_t>();
    uint32_t descLen = h.get<uint32_t>();
    if (magic != MAGIC)
        return fail("bad magic " + hex32(magic) + " (expected " + hex32(MAGIC) + ")");
    if (arch != ARCH_HASH)
        return fail("wrong architecture hash " + hex32(arch) + " (expected " + hex32(ARCH_HASH) +
                    " for mix9svq 64f/32p/64v/32d)");
    if (descLen > data.size() - 20) return fail("description longer than the file");
    size_t payload = data.size() - 20 - descLen;
    if (payload < PAYLOAD_BYTES)
        return fail("payload too short: " + std::to_string(payload) + " bytes, expected " +
                    std::to_string(PAYLOAD_BYTES));
    if (payload > PAYLOAD_BYTES)
        return fail("payload too long: " + std::to_string(payload) + " bytes, expected " +
                    std::to_string(PAYLOAD_BYTES));

    auto st = std::make_shared<Storage>();
    auto w = std::make_shared<Mix9Weights>();
    w->ruleMask = ruleMask;
    w->sizeMask = sizeMask;
    w->description.assign(reinterpret_cast<const char*>(data.data()) + 20, descLen);
    Reader r(data.data() + 20 + descLen);
    for (int i = 0; i < 2; ++i) {
        int16_t* cb = st->alloc<int16_t>(size_t(CODEBOOK_ROWS) * 64);
        unpackCodebook(r.take(CODEBOOK_BYTES), cb);
        w->codebook[i] = cb;
    }
    for (int i = 0; i < 2; ++i) {
        uint16_t* m = st->alloc<uint16_t>(SHAPE_NB);
        for (int s = 0; s < SHAPE_NB; ++s) m[s] = r.get<uint16_t>();
        w->mapping[i] = m;
    }
    int16_t* dw = st->alloc<int16_t>(9 * 32);
    for (int i = 0; i < 9 * 32; ++i) dw[i] = r.get<int16_t>();
    int16_t* db = st->alloc<int16_t>(32);
    for (int i = 0; i < 32; ++i) db[i] = r.get<int16_t>();
    w->dwWeight = dw;
    w->dwBias = db;

    auto linU8 = [&](int nIn, int nOut, const int8_t*& wOut, const int32_t*& bOut) {
        int8_t* wm = nullptr;
        int32_t* bm = nullptr;
        readLinearU8(r, *st, nIn, nOut, wm, bm);
        wOut = wm;
        bOut = bm;
    };
    linU8(64, 64, w->policyL1W, w->policyL1B);
    linU8(64, POLICY_L2, w->policyL2W, w->policyL2B);
    for (auto& s : w->star) {
        int8_t* up = nullptr;
        int32_t* upB = nullptr;
        readLinearU8(r, *st, 64, 128, up, upB, 0, STAR_UP);
        readLinearU8(r, *st, 64, 128, up, upB, 128, STAR_UP);
        int16_t* down = nullptr;
        int32_t* downB = nullptr;
        readLinearI16(r, *st, 64, 64, down, downB);
        s.upW = up;
        s.upB = upB;
        s.downW = down;
        s.downB = downB;
    }
    linU8(VALUE_IN, 64, w->valueL1W, w->valueL1B);
    linU8(64, 64, w->valueL2W, w->valueL2B);
    int8_t* l3 = st->alloc<int8_t>(4 * 64);
    std::memcpy(l3, r.take(4 * 64), 4 * 64);
    int32_t* l3b = st->alloc<int32_t>(4);
    for (int i = 0; i < 4; ++i) l3b[i] = r.get<int32_t>();
    w->valueL3W = l3;
    w->valueL3B = l3b;
    for (float& f : w->policyOutW) f = r.get<float>();
    w->policyOutB = r.get<float>();
    w->storage = st;
    return LoadResult{std::move(w), {}};
}

LoadResult checkCoverage(LoadResult res, Rule rule, int boardSize) {
    if (!res) return res;
    if (!res.weights->supportsRule(rule))
        return fail("the network does not cover rule " + std::string(ruleName(rule)) +
                    " (rule mask " + std::to_string(res.weights->ruleMask) + ")");
    if (!res.weights->supportsSize(boardSize))
        return fail("the network does not cover board size " + std::to_string(boardSize) +
                    " (size mask " + hex32(res.weights->sizeMask) + ")");
    return res;
}

} // namespace

bool Mix9Weights::supportsRule(Rule r) const {
    switch (r) {
    case Rule::FREESTYLE:
        return ruleMask & 1;
    case Rule::STANDARD:
        return ruleMask & 2;
    case Rule::RENJU:
        return ruleMask & 4;
    default:
        return false;
    }
}

LoadResult loadMix9FromMemory(const void* data, size_t bytes) {
    std::vector<uint8_t> raw;
    std::string err;
    if (!decompress(static_cast<const uint8_t*>(data), bytes, raw, err)) return fail(err);
    return parse(raw);
}

LoadResult loadMix9(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail("cannot open " + path);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return fail("cannot read " + path);
    LoadResult r = loadMix9FromMemory(bytes.data(), bytes.size());
    if (!r) r.error += " (" + path + ")";
    return r;
}

LoadResult loadMix9FromMemory(const void* data, size_t bytes, Rule rule, int boardSize) {
    if (isCaro(rule)) return fail("no network for caro");
    return checkCoverage(loadMix9FromMemory(data, bytes), rule, boardSize);
}

LoadResult loadMix9(const std::string& path, Rule rule, int boardSize) {
    if (isCaro(rule)) return fail("no network for caro");
    return checkCoverage(loadMix9(path), rule, boardSize);
}

} // namespace moku::eval
