#include "moku/eval/network.h"

namespace moku::eval {

std::string NetworkPair::coverageProblem(Rule rule, int width, int height) const {
    if (!blackToMove || !whiteToMove)
        return rule == Rule::RENJU ? "renju needs a network for each side to move" : "no network";
    if (width != height)
        return "the network needs a square board, not " + std::to_string(width) + "x" +
               std::to_string(height);
    for (const auto& w : {blackToMove, whiteToMove}) {
        if (!w->supportsRule(rule))
            return "the network does not cover rule " + std::string(ruleName(rule));
        if (!w->supportsSize(width))
            return "the network does not cover board size " + std::to_string(width);
    }
    if (!simdSupported(level))
        return "instruction set " + std::string(simdName(level)) + " is not available";
    return {};
}

} // namespace moku::eval
