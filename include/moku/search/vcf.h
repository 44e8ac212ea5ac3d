// The VCF solver (victory by continuous fours): the attacker plays only fours, the defender only
// its forced reply; a defender's four made by that reply must be answered at once. Renju: black
// never plays a forbidden point, and a forced white four on a black forbidden point wins. The
// VCT solver (victory by continuous threats) also lets the attacker make open threes.
#pragma once

#include <cstdint>
#include <vector>

#include "moku/game/board.h"

namespace moku::search {

struct VcfResult {
    bool win = false;
    std::vector<Pos> line; // attacker and defender moves alternating, ending in the five
    uint64_t nodes = 0;
};

// Does the side to move of `board` win by continuous fours within `maxAttackerMoves` fours
// (the final five is not counted: 1 = a four, the forced block, then the five)? Stops after
// `maxNodes` nodes (0 = no limit), returning no win.
VcfResult solveVcf(const game::Board& board, int maxAttackerMoves = 120, uint64_t maxNodes = 0);

// Does the side to move win by continuous threats (fours and open threes; the defender blocks
// or answers with its own fours, the same defences the search tries) within `maxAttackerMoves`
// threats? Stops after `maxNodes` nodes (0 = no limit), returning no win. A win's line may end
// before the five where a proven transposition was met.
VcfResult solveVct(const game::Board& board, int maxAttackerMoves = 10, uint64_t maxNodes = 0);

} // namespace moku::search
