// The transposition table: 64-byte buckets of four 16-byte entries. Each entry stores its key
// XOR-ed with its data, so that threads can read and write without locks: a torn entry fails
// the key check and reads as a miss. Every access is a relaxed atomic, so the race is benign by
// construction (and ThreadSanitizer sees none). The table is calloc'ed: pages become resident
// when first touched, by a search or by makeResident().
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
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

    // Allocates bytes / BUCKET_BYTES buckets (at least one), empty. The old
    // table is freed first. When the allocation fails, halves the size until one succeeds;
    // returns the size obtained. Never call while a search uses the table.
    size_t resize(size_t bytes);
    void clear();
    // Writes to every page not yet written since the last resize, so that no search waits for
    // the kernel to provide one. A first touch costs a page fault, and on a fresh virtual
    // machine (whose host backs a page only when the guest first writes it) a run of them
    // inside a search has stalled a 100 ms turn by tens of milliseconds. Works in slices of
    // 1 MiB and returns early (false; a later call goes on from there) as soon as `interrupt`
    // says so; true once every page is written. Never call while a search uses the table.
    bool makeResident(const std::function<bool()>& interrupt = {});
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
    // Plain words (so that calloc'ed memory is a valid table), always accessed through
    // std::atomic_ref.
    struct Entry {
        uint64_t keyXorData;
        uint64_t data;
    };
    struct FreeDeleter {
        void operator()(void* p) const { std::free(p); }
    };
    struct alignas(64) Bucket {
        Entry e[ENTRIES_PER_BUCKET];
    };
    static_assert(sizeof(Bucket) == BUCKET_BYTES);

    // A mask for a power-of-two count, else the high half of key * count (any count fills the
    // memory budget; powers of two keep the historic mapping, and with it the bench count).
    size_t index(uint64_t key) const {
        return bucketMask_ ? size_t(key) & bucketMask_
                           : size_t((unsigned __int128)key * bucketCount_ >> 64);
    }

    std::unique_ptr<void, FreeDeleter> memory_;
    Bucket* buckets_ = nullptr;
    size_t bucketCount_ = 0;
    size_t bucketMask_ = 0; // bucketCount_ - 1 when a power of two (and more than one)
    uint8_t generation_ = 0;
    size_t residentBytes_ = 0; // the table's first bytes, written since the last resize
};

} // namespace moku::search
