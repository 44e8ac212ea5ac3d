// The memory plan: the search threads, and the largest transposition table that keeps the whole
// process under INFO max_memory (0: Gomocup's 350 MB) and under hash_size, measured as the
// managers measure it (resident memory, core/memory.h) with the old table freed.
#include <algorithm>
#include <string>

#include "moku/core/memory.h"
#include "moku/engine/engine.h"
#include "moku/search/tt.h"

namespace moku::engine {

using search::TranspositionTable;

uint64_t memoryReserve(uint64_t limit, int threads) {
    // Thread stacks grow while searching (up to ~1.5 MiB deep in the tree), the allocator keeps
    // slack and page tables grow with the table; a sixteenth of the limit also leaves room
    // for a network loaded after the table was sized (~18 MB).
    return (uint64_t(8) << 20) + (uint64_t(2) << 20) * uint64_t(std::max(threads, 1)) + limit / 16;
}

uint64_t planTableBytes(uint64_t limit, uint64_t baseline, uint64_t reserve, uint64_t want) {
    uint64_t used = baseline + reserve;
    uint64_t room = limit > used ? limit - used : 0;
    if (want) room = std::min(room, want);
    return std::max<uint64_t>(room / TranspositionTable::BUCKET_BYTES, 1) *
           TranspositionTable::BUCKET_BYTES;
}

uint64_t timeTableCap(const search::TimeControl& time, int threads, bool pondering) {
    if (pondering) return 0;
    int64_t ms = std::max<int64_t>(time.turnTimeMs, 0);
    if (time.matchTimeMs > 0)
        ms = std::min(ms, time.matchTimeMs / 8 + 2 * std::max<int64_t>(time.incrementMs, 0));
    // About four turns of one thread's stores at 1.1 M nodes/s (16 bytes an entry): past that
    // a larger table found nothing more (16 balanced openings to depth 15 took as many nodes
    // with 16 MiB as with 64 MiB), while it costs page faults in a fresh process's first turn
    // and TLB misses in every turn (0.5 s turns, warm: 1.27 M nodes/s with 300 MiB, 1.35 M
    // with 32 MiB).
    uint64_t bytes = uint64_t(std::min<int64_t>(ms, int64_t(1) << 30)) *
                     uint64_t(std::max(threads, 1)) * TABLE_BYTES_PER_MS;
    return std::max(bytes, MIN_TIME_TABLE_BYTES);
}

namespace {

std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// E.g. "hash 283 MiB (max_memory 350 MiB, 1 thread, 11 MiB in use before)".
std::string describe(const MemoryPlan& p) {
    std::string s = "hash " + mib(p.tableBytes) + " (";
    if (p.wantBytes) s += "hash_size " + mib(p.wantBytes) + ", ";
    if (p.timeCapBytes) s += "time control " + mib(p.timeCapBytes) + ", ";
    s += "max_memory " + mib(p.limitBytes) + ", " + std::to_string(p.threads) +
         (p.threads == 1 ? " thread, " : " threads, ") + mib(p.baselineBytes) + " in use before";
    if (p.failedBytes) s += "; " + mib(p.failedBytes) + " could not be allocated";
    return s + ")";
}

} // namespace

// Resizing empties the table, so it happens only when one of its inputs really changed.
void Engine::applyHashSize() {
    int64_t limit =
        options_.maxMemoryBytes > 0 ? options_.maxMemoryBytes : int64_t(DEFAULT_MAX_MEMORY);
    // A newly loaded network file changes the baseline too.
    std::array<int64_t, 5> want = {
        options_.threads, limit, std::max<int64_t>(options_.hashKiB, 0), int64_t(loaded_.size()),
        int64_t(timeTableCap(options_.time, options_.threads, options_.pondering))};
    if (want == applied_) return;
    // The threads first (their stacks count), then the table, measured with the old one freed:
    // the baseline is everything else.
    searcher_.setThreads(options_.threads);
    MemoryPlan p;
    p.threads = searcher_.threads();
    p.limitBytes = uint64_t(limit);
    p.wantBytes = uint64_t(want[2]) * 1024;
    p.timeCapBytes = uint64_t(want[4]);
    searcher_.setHashSize(0);
    p.baselineBytes = residentBytes();
    p.reserveBytes = memoryReserve(p.limitBytes, p.threads);
    uint64_t bound = p.wantBytes && p.timeCapBytes ? std::min(p.wantBytes, p.timeCapBytes)
                                                   : std::max(p.wantBytes, p.timeCapBytes);
    uint64_t target = planTableBytes(p.limitBytes, p.baselineBytes, p.reserveBytes, bound);
    // Never more than most of the machine, whatever the manager allows.
    if (uint64_t phys = physicalMemoryBytes())
        target = std::min(target, std::max<uint64_t>(phys / 4 * 3, 1 << 20));
    p.tableBytes = searcher_.setHashSize(size_t(target));
    if (p.tableBytes < target) p.failedBytes = target;
    plan_ = p;
    applied_ = want;
    pendingNote_ = describe(plan_);
}

void Engine::prepareHash(const std::function<bool()>& interrupt, bool limitTold) {
    keepHashResident_ = keepHashResident_ || limitTold;
    applyHashSize();
    continueHashResident(interrupt);
}

void Engine::continueHashResident(const std::function<bool()>& interrupt) {
    if (keepHashResident_) searcher_.makeHashResident(interrupt);
}

} // namespace moku::engine
