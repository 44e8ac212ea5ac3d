// The time manager: from what the manager sent (turn time, match time, time left, increment)
// an optimum time to aim for and a hard maximum never to pass. Under a turn limit alone the
// search thinks until the hard maximum (about 90 % of the turn); under a match clock it aims at
// a share of what is left, stretched when the best move is unstable or the score falls and
// shrunk when the move is stable.
#pragma once

#include <chrono>
#include <cstdint>

#include "moku/search/search.h"

namespace moku::search {

struct TimeBudget {
    int64_t optimumMs = 0;
    int64_t maximumMs = 0;
    bool limited = true;   // false: no clock limit at all
    bool saveTime = false; // a match clock: time not spent now is there for later moves
};

// `emptyCells` estimates how long the game can still last. Pure: tested on its own.
TimeBudget computeBudget(const TimeControl& tc, int emptyCells);

class TimeManager {
public:
    // `turnStart`: when the turn began (a default time point: now).
    void start(const TimeControl& tc, int emptyCells, bool infinite,
               std::chrono::steady_clock::time_point turnStart = {});
    int64_t elapsedMs() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_).count();
    }
    // Polled inside the search: past the hard limit?
    bool hardStop() const { return budget_.limited && elapsedMs() >= budget_.maximumMs; }
    // After each completed iteration: should we stop rather than start another one?
    // bestChanged: the best move differs from the previous iteration's; scoreDrop: previous
    // iteration's score minus this one's (positive when things got worse).
    bool stopAfterIteration(bool bestChanged, Value scoreDrop);
    const TimeBudget& budget() const { return budget_; }

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point start_;
    TimeBudget budget_;
    double instability_ = 0;
    int stableIterations_ = 0;
};

} // namespace moku::search
