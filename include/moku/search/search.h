// The search as the engine layer sees it: give it a position and limits, get a move; it reports
// every completed iteration and can be stopped from another thread. Lazy SMP threads, the
// transposition table and the network are set here; how large the table may be, and the moves
// that need no search, are the engine's business (moku/engine/engine.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "moku/core/types.h"
#include "moku/eval/network.h"
#include "moku/game/board.h"
#include "moku/search/params.h"

namespace moku::eval {
struct ClassicalConfig;
}

namespace moku::search {

// What the manager told us about time (milliseconds, as INFO sends them).
struct TimeControl {
    int64_t turnTimeMs = 30000;                               // timeout_turn; 0 = at once
    int64_t matchTimeMs = 0;                                  // timeout_match; 0 = no limit
    int64_t timeLeftMs = std::numeric_limits<int32_t>::max(); // time_left; may be negative
    int64_t incrementMs = 0;                                  // time_increment, per move
};

struct Limits {
    TimeControl time;
    bool infinite = false; // analysis: ignore the clock, run until stop() or another limit
    int maxDepth = 0;      // 0 = no depth limit
    uint64_t maxNodes = 0; // 0 = no node limit
    int multiPV = 1;       // > 1: also rank that many best root moves (YXNBEST)
    // When the turn began (the manager's command arrived): the clock counts from there, so
    // that work before the search (setting up the board, building a rule's tables) is paid
    // from the same turn. Default: when the search starts.
    std::chrono::steady_clock::time_point turnStart{};
};

// One completed iteration (or one of the multi-PV lines of it).
struct IterationInfo {
    int depth = 0;
    int selDepth = 0;
    int pvIndex = 0; // 0 = the best line
    Value score = VALUE_NONE;
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    std::vector<Pos> pv;
};

struct SearchResult {
    Pos bestMove = POS_NONE;
    Value score = VALUE_NONE;
    int depth = 0;
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    std::vector<Pos> pv;
    std::vector<std::pair<Pos, Value>> ranked; // multi-PV: best first
};

using IterationCallback = std::function<void(const IterationInfo&)>;

class Searcher {
public:
    Searcher();
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Blocking. Searches a copy of `board` for its side to move and returns a legal move
    // (renju: never a forbidden black point; POS_NONE only on a full board). Thread-safe
    // with stop(); not re-entrant. With several threads (Lazy SMP) the caller's thread is the
    // main one: it alone runs the clock and calls onIteration (nodes of all threads).
    SearchResult think(const game::Board& board, const Limits& limits,
                       const IterationCallback& onIteration = {});
    // Asks a running think() to return as soon as possible with its best move so far. Thread-
    // safe. The request stands until clearStop(), so that none is lost: a think() that starts
    // while it stands completes its first iteration and returns.
    void stop();
    // Forgets a stop() meant for an earlier search. Call before a search that must run in full.
    void clearStop();
    bool stopRequested() const { return stopRequested_; }

    void newGame(); // forget everything learnt about earlier games (hash, history)

    // The methods below wait for a running think() to return (another thread may call them).
    // Search threads, the caller's included: helpers are created here once and reused.
    void setThreads(int threads);
    int threads() const;
    // Transposition table size in bytes (rounded down to whole 64-byte buckets, at least one);
    // empties it, the old table freed first. Returns the size obtained (smaller when the
    // allocation failed).
    size_t setHashSize(size_t bytes);
    size_t hashSize() const;
    void clearHash();
    // Makes the table's pages resident (TranspositionTable::makeResident).
    bool makeHashResident(const std::function<bool()>& interrupt);
    // Classical evaluation weights (e.g. from configs/config.toml); defaults are embedded.
    void setClassicalConfig(const eval::ClassicalConfig& cfg);
    // The search's shape (configuration file [search]); defaults are embedded.
    void setParams(const SearchParams& params);

    // The NNUE, shared read-only by every search thread; each thread keeps its own incremental
    // evaluator. A think uses it when it covers the board (rule, size, square), and the
    // classical evaluator alone otherwise; an empty pair turns it off.
    void setNetwork(const eval::NetworkPair& network);
    const eval::NetworkPair& network() const;
    // Whether the last think evaluated with the network.
    bool networkActive() const;
    // Tests and debugging: every thread's network evaluator holds the stones of `root` in the
    // same order and its incremental accumulators equal a recompute. True without a network.
    bool checkNetworkSync(const game::Board& root);

private:
    struct Impl;
    // The stop flag: set by stop(), cleared only by clearStop().
    std::atomic<bool> stopRequested_{false};
    // What the search threads watch: cleared when a think() starts, set by stop(), by the
    // clock or node limit, and at the end of the main thread's search to end the helpers'.
    std::atomic<bool> searchEnd_{false};
    std::unique_ptr<Impl> impl_;
};

} // namespace moku::search
