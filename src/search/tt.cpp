#include "moku/search/tt.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <new>

namespace moku::search {

namespace {

// Data word layout: move 16 | value 16 | eval 16 | depth 8 | bound 2, pv 1, generation 5.
// Depth is kept in half plies, offset so that quiescence depths (negative) fit.
constexpr int DEPTH_OFFSET = 20;

uint64_t pack(Pos move, Value value, Value eval, Depth depth, Bound bound, bool pv, uint8_t gen) {
    int d = std::clamp(int(std::floor(depth * 2)) + DEPTH_OFFSET, 0, 255);
    return uint64_t(uint16_t(move.idx)) | uint64_t(uint16_t(int16_t(value))) << 16 |
           uint64_t(uint16_t(int16_t(eval))) << 32 | uint64_t(d) << 48 | uint64_t(bound) << 56 |
           uint64_t(pv) << 58 | uint64_t(gen) << 59;
}

TTData unpack(uint64_t w) {
    TTData t;
    t.move = Pos(int(int16_t(w & 0xFFFF)));
    t.value = int16_t((w >> 16) & 0xFFFF);
    t.eval = int16_t((w >> 32) & 0xFFFF);
    t.depth = Depth(int((w >> 48) & 0xFF) - DEPTH_OFFSET) / 2;
    t.bound = Bound((w >> 56) & 3);
    t.pv = (w >> 58) & 1;
    return t;
}

uint8_t genOf(uint64_t w) { return uint8_t(w >> 59); }
uint64_t loadWord(const uint64_t& w) {
    return std::atomic_ref<uint64_t>(const_cast<uint64_t&>(w)).load(std::memory_order_relaxed);
}
void storeWord(uint64_t& w, uint64_t v) {
    std::atomic_ref<uint64_t>(w).store(v, std::memory_order_relaxed);
}
int depthOf(uint64_t w) { return int((w >> 48) & 0xFF); }

} // namespace

size_t TranspositionTable::resize(size_t bytes) {
    memory_.reset();
    buckets_ = nullptr;
    bucketCount_ = bucketMask_ = 0;
    size_t n = std::max<size_t>(bytes / BUCKET_BYTES, 1);
    for (;; n /= 2) {
        // calloc: fresh pages are already zero, so nothing is touched here. 63 spare bytes
        // align the buckets to cache lines. (Not on transparent huge pages: madvise
        // MADV_HUGEPAGE made searches about 6 % faster, but in a fresh process a fault can
        // wait on the kernel's compaction: a 200 ms first turn took 295 ms.)
        void* p = std::calloc(n * BUCKET_BYTES + 63, 1);
        if (p) {
            memory_.reset(p);
            auto at = (reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t(63);
            buckets_ = reinterpret_cast<Bucket*>(at);
            bucketCount_ = n;
            bucketMask_ = (n & (n - 1)) == 0 ? n - 1 : 0;
            break;
        }
        if (n == 1) throw std::bad_alloc();
    }
    generation_ = 0;
    residentBytes_ = 0;
    return sizeBytes();
}

void TranspositionTable::clear() {
    std::memset(static_cast<void*>(buckets_), 0, bucketCount_ * BUCKET_BYTES);
    generation_ = 0;
    residentBytes_ = sizeBytes();
}

bool TranspositionTable::makeResident(const std::function<bool()>& interrupt) {
    constexpr size_t PAGE_BYTES = 4096; // the smallest page of the systems Moku runs on
    constexpr size_t SLICE_BYTES = size_t(1) << 20;
    auto* bytes = reinterpret_cast<volatile char*>(buckets_);
    while (residentBytes_ < sizeBytes()) {
        if (interrupt && interrupt()) return false;
        size_t end = std::min(sizeBytes(), residentBytes_ + SLICE_BYTES);
        // Each page's first byte written back as it is: the table is unchanged (no search runs
        // now, though one may have stored entries before), and the volatile access is kept.
        for (size_t i = residentBytes_; i < end; i += PAGE_BYTES) bytes[i] = bytes[i];
        residentBytes_ = end;
    }
    return true;
}

bool TranspositionTable::probe(uint64_t key, TTData& out) const {
    const Bucket& b = buckets_[index(key)];
    for (const Entry& e : b.e) {
        uint64_t data = loadWord(e.data);
        if ((loadWord(e.keyXorData) ^ data) == key && data != 0) {
            out = unpack(data);
            return true;
        }
    }
    return false;
}

void TranspositionTable::store(uint64_t key, Pos move, Value value, Value eval, Depth depth,
                               Bound bound, bool pv) {
    Bucket& b = buckets_[index(key)];
    Entry* victim = nullptr;
    int worst = 1 << 30;
    for (Entry& e : b.e) {
        uint64_t data = loadWord(e.data);
        if ((loadWord(e.keyXorData) ^ data) == key || data == 0) {
            // Same position: keep the old move when the new result has none, and keep a
            // deeper exact entry of this search unless the new one is exact too.
            if (data && move == POS_NONE) move = unpack(data).move;
            if (data && bound != BOUND_EXACT && genOf(data) == generation_ &&
                depthOf(data) > int(depth * 2) + DEPTH_OFFSET + 8)
                return;
            victim = &e;
            break;
        }
        // Prefer replacing shallow entries from old searches.
        int age = (generation_ - genOf(data)) & GEN_MASK;
        int worth = depthOf(data) - 8 * age;
        if (worth < worst) worst = worth, victim = &e;
    }
    uint64_t data = pack(move, value, eval, depth, bound, pv, generation_);
    storeWord(victim->keyXorData, key ^ data);
    storeWord(victim->data, data);
}

int TranspositionTable::hashfull() const {
    int used = 0, total = 0;
    for (size_t i = 0; i < std::min<size_t>(bucketCount_, 250); i++)
        for (const Entry& e : buckets_[i].e) {
            uint64_t data = loadWord(e.data);
            total++;
            used += data != 0 && genOf(data) == generation_;
        }
    return total ? used * 1000 / total : 0;
}

} // namespace moku::search
