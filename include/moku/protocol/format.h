// The exact text of the engine's replies and progress lines.
#pragma once

#include <string>
#include <vector>

#include "moku/core/types.h"
#include "moku/search/search.h"

namespace moku::protocol {

std::string formatMove(Pos p);    // "x,y"
std::string formatScore(Value v); // "35", "-120", "M5" (win in 5 plies), "-M4"
std::string formatMoves(const std::vector<Pos>& moves, size_t max = 24); // "7,7 8,8 ..."
// One line per completed depth: "MESSAGE depth 5-9 ev 35 nodes 1234 nps 56789 time 12 pv ...";
// with multiPV, "multipv K" follows the depth.
std::string formatIteration(const search::IterationInfo& info, bool multiPV);
// Yixin-Board's realtime lines for the best line of a completed depth.
std::vector<std::string> formatRealtime(const search::IterationInfo& info);
// "FORBID xxyyxxyy." (two digits per coordinate), "FORBID ." when none.
std::string formatForbid(const std::vector<Pos>& points);
std::string formatAbout();

} // namespace moku::protocol
