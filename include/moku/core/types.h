// The vocabulary every layer shares: colours, rules, board positions, values and depths.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace moku {

enum Color : uint8_t { BLACK = 0, WHITE = 1, EMPTY = 2, WALL = 3, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Two bits per cell in the packed line keys: black = 01, white = 10, wall = 11, empty = 00.
constexpr uint32_t cellBits(Color c) {
    return c == BLACK ? 1u : c == WHITE ? 2u : c == WALL ? 3u : 0u;
}

enum class Rule : uint8_t {
    FREESTYLE, // five or more wins
    STANDARD,  // exactly five wins, overlines do not
    RENJU,     // black: exactly five, 3x3 / 4x4 / overline forbidden; white: five or more
    CARO8,     // five or more; an exact five blocked at both ends by the opponent does not win
    CARO9,     // exactly five, not blocked at both ends
};
constexpr int RULE_NB = 5;
constexpr bool isCaro(Rule r) { return r == Rule::CARO8 || r == Rule::CARO9; }

std::string_view ruleName(Rule r);
std::optional<Rule> ruleFromName(std::string_view name);
// The protocol's INFO rule bit mask (0, 1, 2 = Yixin renju, 4, 8, 9); nullopt when unknown.
std::optional<Rule> ruleFromGomocup(int mask);

// Board geometry: a padded square array so that every line scan of 5 cells each way from an
// on-board cell stays inside the array and meets WALL cells instead of testing bounds.
constexpr int MAX_BOARD_SIZE = 22;
constexpr int MIN_BOARD_SIZE = 5;
constexpr int BOARD_PAD = 5;
constexpr int STRIDE = 32; // >= MAX_BOARD_SIZE + 2 * BOARD_PAD
constexpr int CELL_NB = STRIDE * STRIDE;

struct Pos {
    int16_t idx = -1;

    constexpr Pos() = default;
    constexpr explicit Pos(int i) : idx(int16_t(i)) {}
    constexpr Pos(int x, int y) : idx(int16_t((y + BOARD_PAD) * STRIDE + x + BOARD_PAD)) {}

    constexpr int x() const { return idx % STRIDE - BOARD_PAD; }
    constexpr int y() const { return idx / STRIDE - BOARD_PAD; }
    constexpr bool valid() const { return idx > 0 && idx < CELL_NB; }
    constexpr bool operator==(const Pos&) const = default;
    constexpr Pos operator+(int d) const { return Pos(idx + d); }
    constexpr Pos operator-(int d) const { return Pos(idx - d); }
};

constexpr Pos POS_NONE{};
constexpr Pos POS_PASS{0}; // a padding cell, never a real move: the null move

// Chebyshev (king-move) distance between two cells; callers decide what no cell means.
inline int chebyshev(Pos a, Pos b) {
    return std::max(std::abs(a.x() - b.x()), std::abs(a.y() - b.y()));
}

// The four line directions as index offsets: x, y, anti-diagonal (1,-1), diagonal (1,1).
constexpr int DIR_NB = 4;
constexpr int DIRECTION[DIR_NB] = {1, STRIDE, 1 - STRIDE, 1 + STRIDE};
constexpr int DIR_DX[DIR_NB] = {1, 0, 1, 1};
constexpr int DIR_DY[DIR_NB] = {0, 1, -1, 1};

std::string posToString(Pos p); // "x,y"

// Search values on a winrate-logit scale: winrate = 1 / (1 + exp(-v / 200)).
using Value = int32_t;
constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_DRAW = 0;
constexpr Value VALUE_MATE = 30000;
constexpr Value VALUE_INFINITE = 30001;
constexpr Value VALUE_NONE = -30002;
constexpr int MAX_PLY = 256;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr Value VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;
constexpr Value VALUE_EVAL_MAX = 20000;

constexpr Value mateIn(int ply) { return VALUE_MATE - ply; }
constexpr Value matedIn(int ply) { return -VALUE_MATE + ply; }
constexpr bool isMate(Value v) { return v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY; }

// Fractional depth: one ply is 1.0f.
using Depth = float;

} // namespace moku
