#include "moku/core/types.h"

namespace moku {

std::string_view ruleName(Rule r) {
    switch (r) {
    case Rule::FREESTYLE:
        return "freestyle";
    case Rule::STANDARD:
        return "standard";
    case Rule::RENJU:
        return "renju";
    case Rule::CARO8:
        return "caro";
    case Rule::CARO9:
        return "caro5";
    }
    return "?";
}

std::optional<Rule> ruleFromName(std::string_view name) {
    for (int r = 0; r < RULE_NB; r++)
        if (ruleName(Rule(r)) == name) return Rule(r);
    return std::nullopt;
}

std::optional<Rule> ruleFromGomocup(int mask) {
    switch (mask) {
    case 0:
        return Rule::FREESTYLE;
    case 1:
        return Rule::STANDARD;
    case 2: // Yixin-Board's value for renju
    case 4:
        return Rule::RENJU;
    case 8:
        return Rule::CARO8;
    case 9:
        return Rule::CARO9;
    default:
        return std::nullopt;
    }
}

std::string posToString(Pos p) { return std::to_string(p.x()) + "," + std::to_string(p.y()); }

} // namespace moku
