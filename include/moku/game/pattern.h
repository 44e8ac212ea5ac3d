// Line patterns (per cell, colour and direction), their four-direction summary Pattern4, and
// the pcode that numbers every unordered combination of four line patterns. All tables are
// derived at start-up from recursive definitions of the patterns (the classifier in
// src/game/pattern.cpp; tests/game/pattern_test.cpp checks them against a naive twin).
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "moku/core/types.h"

namespace moku::game {

// Weakest first. B = one way to complete, F = two or more ways.
enum Pattern : uint8_t {
    DEAD,
    OL,
    B1,
    F1,
    B2,
    F2,
    F2A,
    F2B,
    B3,
    B3S,
    F3,
    F3S,
    B4,
    B4S,
    F4,
    F5,
    PATTERN_NB
};

// Strongest first.
enum Pattern4 : uint8_t {
    A_FIVE,
    B_FLEX4,
    C_BLOCK4_FLEX3,
    D_BLOCK4_PLUS,
    E_BLOCK4,
    F_FLEX3_2X,
    G_FLEX3_PLUS,
    H_FLEX3,
    I_BLOCK3_PLUS,
    J_FLEX2_2X,
    K_BLOCK3,
    L_FLEX2,
    FORBID,
    NONE,
    PATTERN4_NB
};

const char* patternName(Pattern p);
const char* pattern4Name(Pattern4 p);

constexpr int PCODE_NB = 3876;    // C(16 + 3, 4) unordered combinations of four patterns
constexpr int LINE_KEY_BITS = 20; // 10 neighbour cells, 2 bits each (cellBits), centre left out
constexpr uint32_t LINE_KEY_NB = 1u << LINE_KEY_BITS;

// Bit offset of the cell k steps along a direction (k in -5..5, k != 0) inside a line key:
// k = -5..-1 fill bits 0..9, k = 1..5 fill bits 10..19.
constexpr int lineKeyShift(int k) { return k < 0 ? 2 * (k + 5) : 2 * (k + 4); }

namespace detail {
// pcode of every ordered 4-tuple, filled during static initialisation (pattern.cpp).
extern uint16_t PCODE_TABLE[PATTERN_NB][PATTERN_NB][PATTERN_NB][PATTERN_NB];
} // namespace detail

// A line pattern that is a four (straight, blocked, or two fours inside the line).
constexpr bool isFourPattern(Pattern p) { return p == F4 || p == B4 || p == B4S; }

// The dense number of the multiset {a, b, c, d}.
inline uint16_t pcodeOf(Pattern a, Pattern b, Pattern c, Pattern d) {
    return detail::PCODE_TABLE[a][b][c][d];
}
// The four patterns of a pcode, weakest first.
std::array<Pattern, 4> pcodePatterns(uint16_t pcode);

// Pattern4 from four line patterns: the strongest case that applies; renjuBlack adds FORBID
// (a superset of the forbidden points, which Board::isForbidden decides).
Pattern4 pattern4From(const std::array<Pattern, 4>& p, bool renjuBlack);

struct PatternTables {
    Rule rule;
    // Both colours' patterns of a line key in one byte (black low nibble, white high nibble):
    // one lookup per cell and direction serves both sides.
    uint8_t line[LINE_KEY_NB];
    uint8_t p4[COLOR_NB][PCODE_NB]; // Pattern4 for the side, indexed by pcode

    Pattern linePattern(Color side, uint32_t key) const {
        return Pattern((line[key] >> (4 * side)) & 15);
    }
};

// Built once per rule on first use (thread-safe), then shared.
const PatternTables& patternTables(Rule rule);
// A fresh build of one rule's tables (a few milliseconds), for benchmarks and tests;
// patternTables keeps the one the engine uses.
std::unique_ptr<PatternTables> buildPatternTables(Rule rule);
// Starts building every rule's tables in a background thread (a few milliseconds each), so that
// a manager's INFO rule never waits for them inside a timed turn.
void prebuildPatternTables();

// Classifies one line window from the definitions (memoised). cells[0..10] use 0 = empty,
// 1 = own stone, 2 = opponent stone, 3 = off-board; cells[5] is the cell being classified
// and is treated as holding the side's stone. Exposed for tests and tools.
Pattern classifyWindow(Rule rule, Color side, const std::array<uint8_t, 11>& cells);

} // namespace moku::game
