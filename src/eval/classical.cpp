#include "moku/eval/classical.h"

#include <algorithm>
#include <iterator>

#include "classical_freestyle.h"
#include "classical_renju.h"
#include "classical_standard.h"

namespace moku::eval {

using namespace moku::game;

static_assert(std::size(FREESTYLE_PCODE_VALUE) == PCODE_NB);
static_assert(std::size(FREESTYLE_THREAT_MASK_VALUE) == THREAT_MASK_NB);
static_assert(std::size(STANDARD_PCODE_VALUE) == PCODE_NB);
static_assert(std::size(STANDARD_THREAT_MASK_VALUE) == THREAT_MASK_NB);
static_assert(std::size(RENJU_PCODE_VALUE) == 2 * PCODE_NB); // black's table, then white's
static_assert(std::size(RENJU_THREAT_MASK_VALUE) == 2 * THREAT_MASK_NB);

// The defaults follow threat strength: what a pattern lets its owner force. A line pattern is
// worth more to the side to move (it can play it now) than to the waiting side (which will
// meet a block first). Open threes and fours dominate; two-stone shapes are small positional
// terms. Combinations that are double threats (four-three, double three) get their own bonus
// on top of the line sum, and the threat term adds what the search would otherwise need a few
// plies to see: a side holding a four-three point wins unless the other side can counter.
// Self-play tuning (freestyle 15x15) raised the waiting side's threes, fours and open-four /
// double-three points by about a third: each costs the side to move a tempo to answer, and the
// hand-set values undercounted that (+42 Elo at 40k nodes/move; larger steps, a larger or
// smaller scale and larger threat terms measured no further gain). An SPSA run over the threat
// term (scripts/tune.py, 260 iterations of 8 games at 0.1 s, freestyle) gave own 0/24/305/884/
// 1584, opponent 0/5/104/217/156, block 22 %: against these defaults at 0.2 s it measured
// 101-85-14 and 96-93-11 in freestyle (+16 +- 33 Elo over 400 games) and 98-99-3 in renju
// (-2 +- 48), too little to adopt. Against Rapfi's classical mode at 0.5 s it scored 85-104-7
// (45.2 %) on the openings of seed 3501, where these defaults score 41.2 %, but 69-126-3 (35.6 %)
// on those of seed 3510, where they score 39.3 %: level over both.
// The waiting side's twos and threes set how much the sum favours the side to move, summed
// over dozens of cells: on a 6-stone opening the root value swings by about 250 between odd and
// even depths. The search's margins are tuned to that swing, and both ways lose (200 self-play
// games at 0.2 s, freestyle): those values doubled (F2 16/18/20, B3 16/18, Pattern4 G 32, I 16,
// J 10; the swing turns to about -790) 5-194-1; halved (4/5/5, 4/5, G 8, I 4, J 3; +810)
// 49-80-4 after 133 games, -82 +- 60; the low patterns set to the mean of the two tables
// (fours, five and open-four points and the threat Pattern4 entries kept) 6-67-0 after 73.
ClassicalConfig ClassicalConfig::defaults() {
    ClassicalConfig c;
    //               DEAD OL B1 F1 B2 F2 F2A F2B B3 B3S F3 F3S B4 B4S F4  F5
    c.pattern[0] = {0, 0, 1, 2, 5, 10, 14, 16, 14, 16, 40, 44, 26, 28, 200, 400};
    c.pattern[1] = {0, 0, 1, 2, 4, 8, 9, 10, 8, 9, 24, 27, 18, 19, 55, 60};
    //                A    B    C    D   E  F    G   H  I   J   K  L  FORBID NONE
    c.pattern4[0] = {400, 300, 300, 40, 0, 200, 30, 0, 14, 10, 0, 0, 0, 0};
    c.pattern4[1] = {60, 80, 100, 20, 0, 90, 16, 0, 8, 5, 0, 0, 0, 0};
    //              NONE FOUR 3x3 4x3 FLEX4
    c.threatOwn = {0, 20, 250, 800, 1500};
    c.threatOpp = {0, 10, 100, 220, 160};
    c.threatBlockPercent = 30;
    //              A      B     C     D    E    F     G    H    I    J    K   L  FORBID NONE
    c.moveOwn = {20000, 6000, 5000, 900, 500, 3000, 700, 450, 220, 160, 90, 60, 0, 0};
    c.moveOpp = {12000, 3000, 2500, 350, 120, 1200, 400, 280, 130, 110, 45, 30, 0, 0};
    c.movePattern = {};
    c.moveCellPercent = {100, 50};
    c.moveDistance = {};
    c.scalePercent = 100;
    c.twoPlyPercent = 0;
    // The per-pcode tables fitted to self-play (classical_freestyle.h, classical_standard.h,
    // classical_renju.h; renju's hold a table of each per colour).
    auto embed = [&c](Rule rule, const auto& pcodes, const auto& masks) {
        c.pcodeValue[int(rule)].assign(std::begin(pcodes), std::end(pcodes));
        c.threatMaskValue[int(rule)].assign(std::begin(masks), std::end(masks));
    };
    embed(Rule::FREESTYLE, FREESTYLE_PCODE_VALUE, FREESTYLE_THREAT_MASK_VALUE);
    embed(Rule::STANDARD, STANDARD_PCODE_VALUE, STANDARD_THREAT_MASK_VALUE);
    embed(Rule::RENJU, RENJU_PCODE_VALUE, RENJU_THREAT_MASK_VALUE);
    return c;
}

// A per-pcode table of n entries for either colour, or of 2n (black's, then white's).
static bool perColourOrShared(const std::vector<int>& table, int n) {
    return table.size() == size_t(n) || table.size() == 2 * size_t(n);
}

ClassicalTables::ClassicalTables(const ClassicalConfig& cfg, Rule rule)
    : scalePercent(cfg.scalePercent),
      perPcode(perColourOrShared(cfg.pcodeValue[int(rule)], PCODE_NB) &&
               perColourOrShared(cfg.threatMaskValue[int(rule)], THREAT_MASK_NB)) {
    twoPlyPercent = perPcode ? 50 : cfg.twoPlyPercent;
    const PatternTables& pt = patternTables(rule);
    // The line-pattern value of a cell: its Pattern4 entry plus its four line patterns'.
    auto patternValue = [&](int side, int stm, int pc) {
        Pattern4 p4 = Pattern4(pt.p4[side][pc]);
        int v = cfg.pattern4[stm][p4];
        // A forbidden point is no use to black: only its Pattern4 entry counts.
        if (p4 != FORBID)
            for (Pattern p : pcodePatterns(uint16_t(pc))) v += cfg.pattern[stm][p];
        return std::clamp(v, -32000, 32000);
    };
    // A per-pcode table's entry for `side`: the shared table, or that colour's half.
    auto entry = [](const std::vector<int>& table, size_t n, int side, int i) {
        size_t at = (table.size() == 2 * n ? size_t(side) * n : 0) + size_t(i);
        return int16_t(std::clamp(table[at], -32000, 32000));
    };
    const std::vector<int>& pcodeValue = cfg.pcodeValue[int(rule)];
    const std::vector<int>& maskValue = cfg.threatMaskValue[int(rule)];
    for (int side = 0; side < COLOR_NB; side++) {
        for (int stm = 0; stm < 2; stm++)
            for (int pc = 0; pc < PCODE_NB; pc++)
                cells.score[side][stm][pc] = perPcode ? entry(pcodeValue, PCODE_NB, side, pc)
                                                      : int16_t(patternValue(side, stm, pc));
        for (int m = 0; m < THREAT_MASK_NB; m++)
            threatMaskValue[side][m] = perPcode ? entry(maskValue, THREAT_MASK_NB, side, m) : 0;
    }
    for (int five = 0; five < 2; five++)
        for (int own = 0; own < THREAT_NB; own++)
            for (int opp = 0; opp < THREAT_NB; opp++) {
                int o = cfg.threatOwn[own];
                if (five) o = o * cfg.threatBlockPercent / 100;
                threat[five][own][opp] = int16_t(std::clamp(o - cfg.threatOpp[opp], -32000, 32000));
            }
    for (int k = 0; k < PATTERN4_NB; k++) {
        moveOwn[k] = int16_t(std::clamp(cfg.moveOwn[k], -32000, 32000));
        moveOpp[k] = int16_t(std::clamp(cfg.moveOpp[k], -32000, 32000));
    }
    for (int side = 0; side < COLOR_NB; side++)
        for (int who = 0; who < 2; who++)
            for (int pc = 0; pc < PCODE_NB; pc++) {
                Pattern4 p4 = Pattern4(pt.p4[side][pc]);
                int v = (who == 0 ? cfg.moveOwn : cfg.moveOpp)[p4] +
                        patternValue(side, 0, pc) * cfg.moveCellPercent[who] / 100;
                for (Pattern p : pcodePatterns(uint16_t(pc))) v += cfg.movePattern[who][p];
                moveCell[side][who][pc] = int16_t(std::clamp(v, -32000, 32000));
            }
    for (int who = 0; who < 2; who++)
        for (int d = 0; d < 16; d++)
            moveDistance[who][d] =
                int16_t(d == 0 ? 0 : cfg.moveDistance[who][std::min(d, MOVE_DISTANCE_NB) - 1]);
}

ClassicalEvaluator::ClassicalEvaluator(Rule rule, const ClassicalConfig& cfg)
    : rule_(rule), tables_(cfg, rule) {}

Value ClassicalEvaluator::evaluateSlow(const Board& b) const {
    Color us = b.sideToMove(), them = ~us;
    // The pattern sum of a board for `us`, with us's table `usTable` (0 to move, 1 waiting).
    auto patternSum = [&](const Board& board, int usTable) {
        int32_t s = 0;
        for (int y = 0; y < board.height(); y++)
            for (int x = 0; x < board.width(); x++) {
                Pos p(x, y);
                if (!board.isEmpty(p)) continue;
                s += tables_.cells.score[us][usTable][board.cell(p).pcode[us]];
                s -= tables_.cells.score[them][1 - usTable][board.cell(p).pcode[them]];
            }
        return s;
    };
    int32_t sum = patternSum(b, 0);
    if (tables_.twoPlyPercent) {
        Board before = b;
        if (before.ply() > 0) before.undo();
        sum += (patternSum(before, 1) - sum) * tables_.twoPlyPercent / 100;
    }
    int32_t v = sum * tables_.scalePercent / 100 + threatValue(b);
    return Value(std::clamp<int32_t>(v, -VALUE_EVAL_MAX, VALUE_EVAL_MAX));
}

} // namespace moku::eval
