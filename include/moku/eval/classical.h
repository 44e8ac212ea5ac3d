// The classical evaluator: per-cell pattern scores summed incrementally by the board (looked up
// by pcode, per rule and per colour to move), plus a threat term looked up by the strongest
// threat each side holds (from the board's Pattern4 counts). Also the Pattern4 move-ordering
// scores the move picker uses. Every number comes from ClassicalConfig: embedded defaults,
// overridable from configs/config.toml ([classical] table).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "moku/core/types.h"
#include "moku/game/board.h"

namespace moku::eval {

// Threat levels of one side, weakest first, from its board-wide Pattern4 counts.
enum ThreatLevel : uint8_t {
    THREAT_NONE,
    THREAT_FOUR,
    THREAT_DOUBLE_THREE,
    THREAT_FOUR_THREE,
    THREAT_FLEX4,
    THREAT_NB
};

// Distance classes of the move-ordering distance term: 1, 2, 3, 4, 5 or more.
constexpr int MOVE_DISTANCE_NB = 5;

// Threat mask of the side to move `us` (THREAT_MASK_NB values): which fives, fours and threes
// each side holds, from the board's Pattern4 counts. Bit 0: the opponent has a five point; then
// for us and for the opponent in turn: an open-four point (us bit 1, them bit 2), a four that
// makes more (bits 3, 7), a plain four (4, 8), a three that makes more (5, 9), a plain open
// three (6, 10).
constexpr int THREAT_MASK_NB = 2048;
inline int threatMask(const game::Board& b, Color us) {
    using namespace game;
    Color them = ~us;
    auto has = [&b](Color c, Pattern4 p) { return b.p4Count(c, p) > 0; };
    int m = has(them, A_FIVE);
    m |= has(us, B_FLEX4) << 1;
    m |= has(them, B_FLEX4) << 2;
    for (int side = 0; side < 2; side++) {
        Color c = side ? them : us;
        int shift = 3 + 4 * side;
        m |= (has(c, C_BLOCK4_FLEX3) || has(c, D_BLOCK4_PLUS)) << shift;
        m |= has(c, E_BLOCK4) << (shift + 1);
        m |= (has(c, F_FLEX3_2X) || has(c, G_FLEX3_PLUS)) << (shift + 2);
        m |= has(c, H_FLEX3) << (shift + 3);
    }
    return m;
}

struct ClassicalConfig {
    // Value of one line pattern at an empty cell for the colour that could play there, when
    // that colour is to move ([0]) and when it is not ([1]); indexed by game::Pattern.
    std::array<std::array<int, game::PATTERN_NB>, 2> pattern;
    // Extra value for the cell's Pattern4 (combinations of lines), same two cases.
    std::array<std::array<int, game::PATTERN4_NB>, 2> pattern4;
    // Threat term: own strongest threat level, opponent's strongest, and how much of the own
    // value survives when the side to move must first block a five.
    std::array<int, THREAT_NB> threatOwn;
    std::array<int, THREAT_NB> threatOpp;
    int threatBlockPercent;
    // Move ordering: score of a move by its Pattern4 for the mover and for the opponent.
    std::array<int, game::PATTERN4_NB> moveOwn;
    std::array<int, game::PATTERN4_NB> moveOpp;
    // Plus, per line pattern through the cell, for the mover ([0]) and for the opponent ([1]).
    std::array<std::array<int, game::PATTERN_NB>, 2> movePattern;
    // Plus the cell's evaluation score (its to-move table) for the mover and for the opponent,
    // in percent.
    std::array<int, 2> moveCellPercent;
    // Plus, by the Chebyshev distance 1, 2, 3, 4, 5 or more to the opponent's last move ([0])
    // and to the mover's own last move ([1]).
    std::array<std::array<int, MOVE_DISTANCE_NB>, 2> moveDistance;
    // Overall scale of the pattern sum, in percent (maps the sum onto the winrate logit).
    int scalePercent;
    // Share, in percent, of the position before the last move in the pattern sum (seen from
    // the same side: its waiting table now, its to-move table then), which damps the swing
    // of the sum between odd and even plies; 0 counts the present position alone (50 measured
    // -228 +- 60 Elo, 200 self-play games at 0.2 s; -20, past the accepted range: -35 +- 47;
    // 50 with Rapfi's margins as well: configs/config.toml).
    int twoPlyPercent;
    // Per rule (indexed by Rule): a value per pcode (game::PCODE_NB) for either colour,
    // whichever side is to move, and a value per threat mask (THREAT_MASK_NB, see threatMask)
    // of the side to move. Either table may instead hold one such table per colour, black's
    // then white's (twice the size: renju, where black's pcodes know its forbidden points).
    // Where a rule has them, they replace its evaluation's pattern, Pattern4 and threat terms
    // (not the move ordering's), and the sum is the mean of the position and the one before
    // its last move (twoPlyPercent 50: the model training/fit_pcode.py fits). Empty: the terms
    // above. Both are given or neither.
    std::array<std::vector<int>, RULE_NB> pcodeValue;
    std::array<std::vector<int>, RULE_NB> threatMaskValue;

    static ClassicalConfig defaults();
};

// Tables built from a config for one rule.
struct ClassicalTables {
    game::CellScoreTable cells;
    int16_t threat[2][THREAT_NB][THREAT_NB]; // [opponent has a five][own level][opp level]
    int16_t moveOwn[game::PATTERN4_NB];
    int16_t moveOpp[game::PATTERN4_NB];
    // Move-ordering score of a cell by its pcode for the colour that moves there ([0]) and for
    // the other colour ([1]): Pattern4, line patterns and cell score terms together.
    int16_t moveCell[COLOR_NB][2][game::PCODE_NB];
    int16_t moveDistance[2][16];
    int scalePercent;
    int twoPlyPercent;
    bool perPcode; // the rule has per-pcode and threat-mask tables
    int16_t threatMaskValue[COLOR_NB][THREAT_MASK_NB]; // [side to move][mask]

    ClassicalTables(const ClassicalConfig& cfg, Rule rule);
};

// Threat level of colour c from the board's Pattern4 counts.
inline ThreatLevel threatLevel(const game::Board& b, Color c) {
    using namespace game;
    if (b.p4Count(c, B_FLEX4)) return THREAT_FLEX4;
    if (b.p4Count(c, C_BLOCK4_FLEX3)) return THREAT_FOUR_THREE;
    if (b.p4Count(c, F_FLEX3_2X)) return THREAT_DOUBLE_THREE;
    if (b.p4Count(c, D_BLOCK4_PLUS) || b.p4Count(c, E_BLOCK4)) return THREAT_FOUR;
    return THREAT_NONE;
}

class ClassicalEvaluator {
public:
    explicit ClassicalEvaluator(Rule rule,
                                const ClassicalConfig& cfg = ClassicalConfig::defaults());

    // Installs this evaluator's score table in `board`, whose incremental sums then feed
    // evaluateFast.
    void attach(game::Board& board) const { board.setScoreTable(&tables_.cells); }

    // The static value of the position for the side to move, within +-VALUE_EVAL_MAX. Requires
    // attach(board) first.
    Value evaluateFast(const game::Board& b) const {
        Color us = b.sideToMove(), them = ~us;
        int32_t sum = b.scoreSum(us, 0) - b.scoreSum(them, 1);
        if (tables_.twoPlyPercent) {
            // Before the last move the opponent was to move: the tables change places.
            int32_t before = b.previousScoreSum(us, 1) - b.previousScoreSum(them, 0);
            sum += (before - sum) * tables_.twoPlyPercent / 100;
        }
        int32_t v = sum * tables_.scalePercent / 100 + threatValue(b);
        return Value(v > VALUE_EVAL_MAX    ? VALUE_EVAL_MAX
                     : v < -VALUE_EVAL_MAX ? -VALUE_EVAL_MAX
                                           : v);
    }
    // The from-scratch twin of evaluateFast (for tests): sums the table over every empty cell.
    Value evaluateSlow(const game::Board& b) const;

    // Move-ordering score of playing p for the side to move: its Pattern4 and line patterns for
    // both sides, and its distance to the last two moves.
    int moveScore(const game::Board& b, Pos p) const {
        Color us = b.sideToMove(), them = ~us;
        const auto& cell = b.cell(p);
        return tables_.moveCell[us][0][cell.pcode[us]] +
               tables_.moveCell[them][1][cell.pcode[them]] +
               tables_.moveDistance[0][distance(p, b.lastMove(0))] +
               tables_.moveDistance[1][distance(p, b.lastMove(1))];
    }
    // The threat term of the position for its side to move.
    int threatValue(const game::Board& b) const {
        Color us = b.sideToMove(), them = ~us;
        if (tables_.perPcode) return tables_.threatMaskValue[us][threatMask(b, us)];
        int oppFive = b.p4Count(them, game::A_FIVE) > 0;
        return tables_.threat[oppFive][threatLevel(b, us)][threatLevel(b, them)];
    }
    const ClassicalTables& tables() const { return tables_; }
    Rule rule() const { return rule_; }

private:
    // Chebyshev distance, at most 15; 0 (no term) when there is no such move or it was a pass.
    static int distance(Pos a, Pos b) {
        return b == POS_NONE || b == POS_PASS ? 0 : std::min(chebyshev(a, b), 15);
    }

    Rule rule_;
    ClassicalTables tables_;
};

} // namespace moku::eval
