#include "moku/search/timeman.h"

#include <algorithm>
#include <limits>

namespace moku::search {

namespace {
constexpr int64_t UNLIMITED = std::numeric_limits<int32_t>::max();
constexpr int64_t SAFETY_MS = 30; // kept back for process and I/O latency
} // namespace

TimeBudget computeBudget(const TimeControl& tc, int emptyCells) {
    TimeBudget b;
    bool turnLimited = tc.turnTimeMs < UNLIMITED;
    bool matchLimited = tc.matchTimeMs > 0 && tc.timeLeftMs < UNLIMITED;
    if (!turnLimited && !matchLimited) {
        b.limited = false;
        b.optimumMs = b.maximumMs = UNLIMITED;
        return b;
    }
    int64_t hard = UNLIMITED;
    if (turnLimited) hard = std::max<int64_t>(tc.turnTimeMs, 0);
    if (matchLimited) hard = std::min(hard, std::max<int64_t>(tc.timeLeftMs, 0));
    b.maximumMs = std::max<int64_t>(0, hard - SAFETY_MS - hard / 20);
    if (matchLimited) {
        // Spread what is left over the moves this game may still need from us, keeping a
        // reserve; the hard cap lets one move take several shares when it needs them. Each
        // move brings its increment back, so the share spends it.
        int movesToGo = std::clamp(emptyCells / 5, 12, 40);
        int64_t left = std::max<int64_t>(tc.timeLeftMs, 0);
        int64_t share = left / movesToGo + std::max<int64_t>(tc.incrementMs, 0) * 9 / 10;
        b.optimumMs = std::min(b.maximumMs, share);
        b.maximumMs = std::min(b.maximumMs, std::max<int64_t>(share * 4, b.optimumMs));
        b.saveTime = true;
    } else {
        // Time not spent on this turn is lost: think until the hard limit.
        b.optimumMs = b.maximumMs;
        b.saveTime = false;
    }
    return b;
}

void TimeManager::start(const TimeControl& tc, int emptyCells, bool infinite,
                        Clock::time_point turnStart) {
    start_ = turnStart == Clock::time_point{} ? Clock::now() : std::min(turnStart, Clock::now());
    budget_ = infinite ? TimeBudget{UNLIMITED, UNLIMITED, false} : computeBudget(tc, emptyCells);
    instability_ = 0;
    stableIterations_ = 0;
}

bool TimeManager::stopAfterIteration(bool bestChanged, Value scoreDrop) {
    if (!budget_.limited) return false;
    instability_ = instability_ * 0.6 + (bestChanged ? 1.0 : 0.0);
    stableIterations_ = bestChanged ? 0 : stableIterations_ + 1;
    // Under a turn limit alone an early stop saves nothing: the hard limit ends the search, and
    // the unfinished iteration still counts where it found a better move.
    if (!budget_.saveTime) return false;
    double factor = 1.0 + instability_ * 0.6;
    if (scoreDrop > 0) factor *= 1.0 + std::min(scoreDrop, Value(200)) / 200.0;
    if (stableIterations_ >= 4) factor *= 0.6;
    int64_t target = std::min<int64_t>(budget_.maximumMs, int64_t(budget_.optimumMs * factor));
    int64_t elapsed = elapsedMs();
    // A new iteration takes a few times longer than the last: do not start one that would most
    // likely be cut off at the hard limit, when the time could go to a later move.
    return elapsed >= target || elapsed * 5 >= budget_.maximumMs * 3;
}

} // namespace moku::search
