// `pbrain-moku evaluate --network FILE`: runs the mix9svq network on JSON-lines positions.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "moku/eval/mix9.h"

namespace moku::app {

// Reads one JSON object a line from `in`: {"board_size": N, "moves": [[x, y], ...]} (first stone
// black; optional "rule": "freestyle" | "standard" | "renju"), and writes for each one line
// {"value_wld_x16384": [w, l, d], "policy": [[x, y, "<hex float>"], ...]} for the side to move,
// the policy over the empty cells in row-major order. A bad line gets a message on `err` and
// is skipped. Returns 0, 1 when some line was bad, 2 when the network cannot be used.
int runEvaluate(std::istream& in, std::ostream& out, std::ostream& err,
                const std::string& networkPath, std::optional<eval::SimdLevel> forced);

// C99 "%a"-style hex float exactly as Python's float.hex() prints it (the reference vectors'
// format): "-0x1.7d9c5a0000000p+12", "0x0.0p+0".
std::string hexFloat(double v);

} // namespace moku::app
