// The transposition table: 64-byte buckets of four 16-byte entries. Each entry stores its key
// XOR-ed with its data, so that threads can read and write without locks: a torn entry fails
// the key check and reads as a miss (the next issue shares one table between threads).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "moku/core/types.h"

namespace moku::search {

enum Bound : uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

struct TTData {
    Pos move = POS_NONE;
    Value value = VALUE_NONE;
    Value eval = VALUE_NONE;
    Depth depth = 0;
    Bound bound = BOUND_NONE;
    bool pv = false;
};

class TranspositionTable {
public:
    static constexpr int ENTRIES_PER_BUCKET = 4;
    static constexpr size_t BUCKET_BYTES = 64;

    explicit TranspositionTable(size_t bytes = size_t(64) << 20) { resize(bytes); }

    // Allocates about `bytes` (a power-of-two number of buckets, at least one) and clears it.
    void resize(size_t bytes);
    void clear();
    size_t sizeBytes() const { return bucketCount_ * BUCKET_BYTES; }
    // Starts a new search: older entries become preferred victims.
    void newSearch() { generation_ = uint8_t((generation_ + 1) & GEN_MASK); }

    bool probe(uint64_t key, TTData& out) const;
    // Values are stored as given: the caller converts mate scores to "from this node".
    void store(uint64_t key, Pos move, Value value, Value eval, Depth depth, Bound bound, bool pv);
    // Permille of sampled entries written in the current search.
    int hashfull() const;
    void prefetch(uint64_t key) const { __builtin_prefetch(&buckets_[index(key)]); }

private:
    static constexpr uint8_t GEN_MASK = 31;
    struct Entry {
        std::atomic<uint64_t> keyXorData;
        std::atomic<uint64_t> data;
    };
    struct alignas(64) Bucket {
        Entry e[ENTRIES_PER_BUCKET];
    };
    static_assert(sizeof(Bucket) == BUCKET_BYTES);

    size_t index(uint64_t key) const { return size_t(key) & (bucketCount_ - 1); }

    std::unique_ptr<Bucket[]> buckets_;
    size_t bucketCount_ = 0;
    uint8_t generation_ = 0;
};

} // namespace moku::search
