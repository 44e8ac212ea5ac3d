// Playing levels for INFO strength (0..100): below 100 the engine searches less (a depth and a
// node limit) and picks its move at random among the root moves whose exact scores lie within a
// margin of the best, the better ones likelier (a softmax with a temperature). Forced moves are
// never randomised: a win found by the search, the only defence against a four (the root has a
// single move then) and a position already lost are played as the search chose them. 100 is full
// strength: the search alone, exactly as without the option.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "moku/core/types.h"

namespace moku::engine {

struct PlayingLevel {
    int level = 6;         // 1 (strength 0..19) .. 5 (80..99); 6 = full strength (100)
    int maxDepth = 0;      // iteration depth limit; 0 = none
    uint64_t maxNodes = 0; // node limit; 0 = none
    int multiPV = 1;       // root moves ranked with exact scores: the candidates
    Value margin = 0;      // candidates score at least best - margin
    int temperature = 0;   // weight of a candidate: exp((score - best) / temperature)
    bool full() const { return level >= 6; }
};

// The level of a strength (clamped to 0..100).
PlayingLevel playingLevel(int strength);

// A move from `ranked` (best first, exact scores), drawn with `seed`: the best when the list
// has one move, when the best is a proven win or loss, or when the level is full; otherwise any
// move within the margin that is not a proven loss, with softmax weights. POS_NONE for an empty
// list. The same seed gives the same move.
Pos pickMove(const std::vector<std::pair<Pos, Value>>& ranked, const PlayingLevel& level,
             uint64_t seed);

// The seed of one move: the game's seed mixed with the position's hash, so that a game replays
// identically from the same game seed (take-backs included).
uint64_t moveSeed(uint64_t gameSeed, uint64_t positionHash);

// A fresh game seed from the system's entropy and the clock (real play).
uint64_t randomGameSeed();

} // namespace moku::engine
