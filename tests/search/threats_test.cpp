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

class FourThreeReplies : public ::testing::TestWithParam<Rule> {};

// The slow twin of fourThreeWins: the side to move plays its four-three point; does the line
// then win by force (the other side has no five point and one five point to block, after which
// the side holds a five or open-four point and the other side still no five point)? The board
// is left as it was.
bool winsByPlayingOut(Board& b, Pos point) {
    Color c = b.sideToMove(), other = ~c;
    b.move(point);
    bool won = false;
    if (b.p4Count(other, A_FIVE) == 0 && b.p4Count(c, A_FIVE) >= 1) {
        if (b.p4Count(c, A_FIVE) >= 2) {
            won = true;
        } else {
            Pos five = POS_NONE;
            for (Pos e : b.emptyCells())
                if (b.p4(e, c) == A_FIVE) five = e;
            b.move(five);
            won = b.p4Count(other, A_FIVE) == 0 &&
                  (b.p4Count(c, A_FIVE) > 0 || b.p4Count(c, B_FLEX4) > 0);
            b.undo();
        }
    }
    b.undo();
    return won;
}

// The slow twin of fourThreeBlocks: after `q`, does the opponent win by playing its four-three
// point?
bool losesToFourThree(Board& b, Pos q, Pos point) {
    b.move(q);
    bool lost = winsByPlayingOut(b, point);
    b.undo();
    return lost;
}

// Over a thousand random positions where the side to move holds a four-three point (and no five
// or open-four point) and faces no five point, fourThreeWins agrees with playing the four-three
// out, on every such point.
TEST_P(FourThreeReplies, FourThreeWinsAsPlayedOut) {
    Rule rule = GetParam();
    std::mt19937_64 rng(97 + int(rule));
    int positions = 0, wins = 0, held = 0;
    for (int game = 0; game < 4000 && positions < 1500; game++) {
        Board b(15, 15, rule);
        for (int ply = 1; ply < 70; ply++) {
            if (!test::playRandomly(b, rng, ply)) break;
            Color us = b.sideToMove(), them = ~us;
            if (b.p4Count(them, A_FIVE) || b.p4Count(us, A_FIVE) || b.p4Count(us, B_FLEX4) ||
                !b.p4Count(us, C_BLOCK4_FLEX3))
                continue;
            positions++;
            uint64_t hash = b.hash();
            for (Pos p : b.emptyCells()) {
                if (b.p4(p, us) != C_BLOCK4_FLEX3) continue;
                bool fast = fourThreeWins(b, p, us);
                ASSERT_EQ(fast, winsByPlayingOut(b, p))
                    << "four-three at " << p.x() << "," << p.y() << "\n"
                    << diagram(b);
                wins += fast;
                held += !fast;
            }
            ASSERT_EQ(b.hash(), hash);
        }
    }
    EXPECT_GE(positions, 1000);
    EXPECT_GT(wins, 100);
    EXPECT_GT(held, 50);
}

// Over a thousand random positions where the side to move faces a four-three point (and no
// five or open-four point, and holds none itself), every empty cell outside the set that is
// not a four of the side to move loses: the four-three is played out against it.
TEST_P(FourThreeReplies, EveryOtherMoveLosesToTheFourThree) {
    Rule rule = GetParam();
    std::mt19937_64 rng(91 + int(rule));
    int positions = 0, restricted = 0, kept = 0, lost = 0;
    for (int game = 0; game < 4000 && positions < 1500; game++) {
        Board b(15, 15, rule);
        for (int ply = 1; ply < 70; ply++) {
            if (!test::playRandomly(b, rng, ply)) break;
            Color us = b.sideToMove(), them = ~us;
            if (b.p4Count(them, A_FIVE) || b.p4Count(them, B_FLEX4) ||
                !b.p4Count(them, C_BLOCK4_FLEX3) || b.p4Count(us, A_FIVE) || b.p4Count(us, B_FLEX4))
                continue;
            Pos point = POS_NONE;
            for (Pos q : b.emptyCells())
                if (b.p4(q, them) == C_BLOCK4_FLEX3) point = q;
            ASSERT_NE(point, POS_NONE);
            positions++;
            FourThreeBlocks blocks;
            if (!fourThreeBlocks(b, point, them, blocks)) continue;
            restricted++;
            ASSERT_TRUE(blocks.contains(point));
            uint64_t hash = b.hash();
            for (Pos q : b.emptyCells()) {
                if (b.p4(q, us) <= E_BLOCK4) continue;
                if (blocks.contains(q)) {
                    kept++;
                    continue;
                }
                lost++;
                ASSERT_TRUE(losesToFourThree(b, q, point))
                    << "cell " << q.x() << "," << q.y() << " against the four-three at "
                    << point.x() << "," << point.y() << "\n"
                    << diagram(b);
            }
            ASSERT_EQ(b.hash(), hash);
        }
    }
    EXPECT_GE(positions, 1000);
    EXPECT_GT(restricted, positions * 9 / 10);
    // The set is a small part of the board.
    EXPECT_LT(kept * 10, lost);
}

INSTANTIATE_TEST_SUITE_P(Rules, FourThreeReplies,
                         ::testing::Values(Rule::FREESTYLE, Rule::STANDARD));

} // namespace
