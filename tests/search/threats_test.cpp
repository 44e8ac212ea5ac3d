#include <gtest/gtest.h>

#include <random>

#include "moku/game/board.h"
#include "moku/search/threats.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;
using namespace moku::search;

namespace {

// The slow twin of mayBlock: play the stone and look whether the attacker still has an
// open-four point (or a five point).
bool stopsAll(Board& b, Pos p, Color attacker) {
    b.move(p);
    bool stopped = b.p4Count(attacker, B_FLEX4) == 0 && b.p4Count(attacker, A_FIVE) == 0;
    b.undo();
    return stopped;
}

std::string diagram(const Board& b) {
    std::string s;
    for (const std::string& row : test::diagramOf(b)) s += row + "\n";
    return s;
}

class ThreatBlocks : public ::testing::TestWithParam<Rule> {};

// Black's pattern at p along one of the threat lines is an overline.
bool overlineOnThreatLine(const Board& b, Pos p, Color c, const ThreatLines& lines) {
    for (int d = 0; d < DIR_NB; d++)
        if (b.cell(p).pattern[c][d] == OL && lines.through(p, d, 6)) return true;
    return false;
}

// Over thousands of random positions where the side to move faces an open-four point, every
// legal cell is checked against the slow twin (play the stone, look for open-four points):
// every cell that stops them all is kept (mayBlock, or in caro blocksBeyond), except in renju
// the known gap of mayBlock: cells where black's own stone would make an overline along the
// threat line. blocksBeyond keeps nothing that does not stop them.
TEST_P(ThreatBlocks, KeepEveryCellThatStopsTheOpenFours) {
    Rule rule = GetParam();
    std::mt19937_64 rng(77 + int(rule));
    int positions = 0, blocks = 0, beyond = 0;
    for (int game = 0; game < 400 && positions < 2000; game++) {
        Board b(15, 15, rule);
        for (int ply = 1; ply < 70; ply++) {
            if (!test::playRandomly(b, rng, ply)) break;
            Color us = b.sideToMove(), them = ~us;
            if (b.p4Count(them, A_FIVE) || !b.p4Count(them, B_FLEX4)) continue;
            positions++;
            ThreatLines lines = threatLines(b, them);
            ASSERT_GT(lines.size, 0);
            uint64_t hash = b.hash();
            for (int y = 0; y < 15; y++)
                for (int x = 0; x < 15; x++) {
                    Pos p(x, y);
                    if (b.piece(p) != EMPTY || !b.isLegal(p)) continue;
                    bool stops = stopsAll(b, p, them);
                    bool may = mayBlock(b, p, them);
                    bool far = !may && blocksBeyond(b, p, them, lines);
                    ASSERT_EQ(b.hash(), hash);
                    if (far) {
                        EXPECT_TRUE(stops) << x << "," << y;
                    }
                    blocks += stops;
                    beyond += far;
                    bool kept = may || (isCaro(rule) && far);
                    bool gap = rule == Rule::RENJU && overlineOnThreatLine(b, p, them, lines);
                    if (stops && !gap) {
                        ASSERT_TRUE(kept) << "cell " << x << "," << y << " stops the open fours\n"
                                          << diagram(b);
                    }
                }
        }
    }
    EXPECT_GE(positions, 500);
    EXPECT_GT(blocks, positions / 2);
    // Caro has blocks where the attacker makes no four; freestyle and standard have none.
    if (isCaro(rule)) {
        EXPECT_GT(beyond, 0);
    }
    if (rule == Rule::FREESTYLE || rule == Rule::STANDARD) {
        EXPECT_EQ(beyond, 0);
    }
}

INSTANTIATE_TEST_SUITE_P(Rules, ThreatBlocks,
                         ::testing::Values(Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU,
                                           Rule::CARO8, Rule::CARO9));

} // namespace
