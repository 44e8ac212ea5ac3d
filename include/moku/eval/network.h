// The networks one game uses: a weight file per side to move (the same file except in renju,
// which has one for black to move and one for white to move) and the SIMD kernel to run them.
#pragma once

#include <memory>
#include <string>

#include "moku/core/types.h"
#include "moku/eval/mix9.h"

namespace moku::eval {

struct NetworkPair {
    std::shared_ptr<const Mix9Weights> blackToMove;
    std::shared_ptr<const Mix9Weights> whiteToMove;
    SimdLevel level = bestSimdLevel();

    explicit operator bool() const { return blackToMove && whiteToMove; }
    bool operator==(const NetworkPair&) const = default;

    // Why this pair cannot evaluate a width x height board under `rule` (not square, rule or
    // size outside a file's masks, a missing file, a kernel this CPU lacks); empty when it can.
    std::string coverageProblem(Rule rule, int width, int height) const;
};

} // namespace moku::eval
