// The playing levels of INFO strength: a shallower search that ranks a few root moves exactly
// (multi-PV), then a draw among those close enough to the best, seeded per game and position.
#include "moku/engine/strength.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "moku/engine/engine.h"

namespace moku::engine {

namespace {

// strength 0..19, 20..39, 40..59, 60..79, 80..99: level 1..5. Each level searches deeper and
// longer than the one below, ranks fewer candidates and keeps them closer to the best.
// clang-format off
constexpr PlayingLevel LEVELS[5] = {
    // level, maxDepth, maxNodes, multiPV, margin, temperature
    {1, 1, 1000, 8, 300, 150},
    {2, 2, 4000, 6, 200, 100},
    {3, 4, 16000, 5, 120, 60},
    {4, 6, 60000, 4, 70, 35},
    {5, 8, 250000, 3, 40, 20},
};
// clang-format on

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

bool usable(Value v) { return v != VALUE_NONE && v > -VALUE_INFINITE && v < VALUE_INFINITE; }

} // namespace

PlayingLevel playingLevel(int strength) {
    if (strength >= 100) return PlayingLevel{};
    return LEVELS[std::clamp(strength, 0, 99) / 20];
}

Pos pickMove(const std::vector<std::pair<Pos, Value>>& ranked, const PlayingLevel& level,
             uint64_t seed) {
    if (ranked.empty()) return POS_NONE;
    const auto& [best, bestScore] = ranked.front();
    if (level.full() || ranked.size() == 1 || !usable(bestScore) || isMate(bestScore)) return best;
    // The candidates: within the margin, never a proven loss, weighted by a softmax of the
    // score difference (best first, so that rounding can only favour it).
    std::vector<std::pair<Pos, double>> pool;
    double total = 0;
    for (const auto& [move, score] : ranked) {
        if (!usable(score) || isMate(score) || score < bestScore - level.margin) continue;
        double w = std::exp(double(score - bestScore) / std::max(level.temperature, 1));
        pool.push_back({move, w});
        total += w;
    }
    if (pool.size() <= 1) return best;
    uint64_t state = seed;
    double r = double(splitmix64(state) >> 11) * 0x1.0p-53 * total;
    for (const auto& [move, w] : pool) {
        if (r < w) return move;
        r -= w;
    }
    return pool.front().first;
}

uint64_t moveSeed(uint64_t gameSeed, uint64_t positionHash) {
    uint64_t state = gameSeed ^ (positionHash * 0xD6E8FEB86659FD93ull);
    splitmix64(state);
    return splitmix64(state);
}

uint64_t randomGameSeed() {
    uint64_t seed = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    try {
        std::random_device rd;
        seed ^= (uint64_t(rd()) << 32) ^ rd();
    } catch (...) {
        // No entropy source: the clock alone.
    }
    uint64_t state = seed;
    return splitmix64(state);
}

search::SearchResult Engine::searchAtStrength(const game::Board& board,
                                              const search::IterationCallback& onIteration) {
    PlayingLevel level = playingLevel(options_.strength);
    search::Limits l = limits(level.multiPV);
    // The level's limits, or the manager's when they are tighter.
    if (level.maxDepth)
        l.maxDepth = l.maxDepth ? std::min(l.maxDepth, level.maxDepth) : level.maxDepth;
    if (level.maxNodes)
        l.maxNodes = l.maxNodes ? std::min(l.maxNodes, level.maxNodes) : level.maxNodes;
    // The manager sees the best line of each depth, as at full strength; the lines of the other
    // candidates are kept for the move that is drawn.
    std::vector<std::vector<Pos>> lines;
    auto relay = [&](const search::IterationInfo& info) {
        if (!info.pv.empty()) {
            auto it = std::find_if(lines.begin(), lines.end(),
                                   [&](const auto& pv) { return pv.front() == info.pv.front(); });
            if (it != lines.end())
                *it = info.pv;
            else
                lines.push_back(info.pv);
        }
        if (info.pvIndex == 0 && onIteration) onIteration(info);
    };
    // One search thread: a Lazy SMP helper that completes the depth limit first would end the
    // search with the main thread's ranking a few depths short, and these limits need no more.
    // (The table is sized first, so that the search does not resize the threads back.)
    updateNetwork();
    applyHashSize();
    int threads = searcher_.threads();
    if (threads > 1) searcher_.setThreads(1);
    search::SearchResult r;
    try {
        r = search(board, l, relay);
    } catch (...) {
        if (threads > 1) searcher_.setThreads(threads);
        throw;
    }
    if (threads > 1) searcher_.setThreads(threads);
    Pos move = pickMove(r.ranked, level,
                        moveSeed(options_.seed ? options_.seed : gameSeed_, board.hash()));
    if (move == POS_NONE || move == r.bestMove) return r;
    r.bestMove = move;
    for (const auto& [p, v] : r.ranked)
        if (p == move) r.score = v;
    auto it = std::find_if(lines.begin(), lines.end(),
                           [&](const auto& pv) { return pv.front() == move; });
    r.pv = it != lines.end() ? *it : std::vector<Pos>{move};
    return r;
}

} // namespace moku::engine
