#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "moku/eval/classical.h"
#include "moku/eval/classical_config.h"

using namespace moku;
using namespace moku::game;
using namespace moku::eval;

// Random games with moves and take-backs: the board's incremental score sums and the fast
// evaluation must equal a from-scratch recompute after every step.
// (Both with the present position alone and with two_ply_percent, whose fast form reads the
// sums from before the last move out of the board's undo log.)
TEST(Classical, IncrementalSumsMatchRecompute) {
    std::mt19937 rng(7);
    int checked = 0;
    ClassicalConfig twoPly = ClassicalConfig::defaults();
    twoPly.twoPlyPercent = 50;
    for (Rule rule : {Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU, Rule::CARO8})
        for (const ClassicalConfig& cfg : {ClassicalConfig::defaults(), twoPly}) {
            ClassicalEvaluator ev(rule, cfg);
            for (int game = 0; game < 12; game++) {
                int size = game % 3 == 0 ? 20 : 15;
                Board b(size, size, rule);
                ev.attach(b);
                for (int step = 0; step < 120 && !b.full(); step++) {
                    if (b.winner() != EMPTY || (b.ply() > 0 && rng() % 5 == 0)) {
                        b.undo();
                    } else if (rng() % 16 == 0) {
                        b.move(POS_PASS); // the search's null move
                    } else {              // a random nearby move
                        auto cand = b.candidates();
                        if (cand.empty()) cand = b.emptyCells();
                        b.move(cand[rng() % cand.size()]);
                    }
                    ASSERT_EQ(ev.evaluateFast(b), ev.evaluateSlow(b));
                    if (step % 10 == 0) {
                        ASSERT_EQ(b.checkConsistency(), "");
                    }
                    checked++;
                }
            }
        }
    EXPECT_GT(checked, 4000);
}

TEST(Classical, CopiedBoardKeepsSums) {
    ClassicalEvaluator ev(Rule::FREESTYLE);
    Board b(15, 15, Rule::FREESTYLE);
    ev.attach(b);
    b.move(Pos(7, 7));
    b.move(Pos(8, 8));
    Board c = b;
    c.move(Pos(7, 8));
    EXPECT_EQ(c.checkConsistency(), "");
    EXPECT_EQ(ev.evaluateFast(c), ev.evaluateSlow(c));
}

TEST(Classical, ValuesAreSensible) {
    ClassicalEvaluator ev(Rule::FREESTYLE);
    Board b(15, 15, Rule::FREESTYLE);
    ev.attach(b);
    EXPECT_EQ(ev.evaluateFast(b), 0);
    // Black holds an open three, white scattered stones: good for black whoever is to move.
    for (int x = 6; x < 9; x++) b.move(Pos(x, 7), BLACK);
    b.move(Pos(0, 14), WHITE);
    b.move(Pos(14, 0), WHITE);
    b.move(Pos(14, 14), WHITE);
    ASSERT_EQ(b.sideToMove(), BLACK);
    Value toMove = ev.evaluateFast(b);
    EXPECT_GT(toMove, 100);
    EXPECT_LT(toMove, VALUE_EVAL_MAX + 1);
    b.move(POS_PASS);
    EXPECT_LT(ev.evaluateFast(b), 0);
    // Move ordering: a five beats a block of the opponent's five, which beats a quiet move.
    EXPECT_GT(ev.tables().moveOwn[A_FIVE], ev.tables().moveOpp[A_FIVE]);
    EXPECT_GT(ev.tables().moveOpp[A_FIVE], ev.tables().moveOwn[B_FLEX4]);
}

TEST(Classical, ConfigFileEqualsEmbeddedDefaults) {
    ClassicalConfig def = ClassicalConfig::defaults();
    ClassicalConfig file =
        loadClassicalConfigFile(std::string(MOKU_SOURCE_DIR) + "/configs/config.toml");
    EXPECT_EQ(classicalConfigToToml(file), classicalConfigToToml(def));
}

TEST(Classical, ConfigOverridesAndErrors) {
    auto doc = toml::parse("[classical]\nscale_percent = 150\nthreat_own = [0, 1, 2, 3, 4]\n");
    ClassicalConfig c = loadClassicalConfig(doc);
    EXPECT_EQ(c.scalePercent, 150);
    EXPECT_EQ(c.threatOwn[4], 4);
    EXPECT_EQ(c.pattern[0], ClassicalConfig::defaults().pattern[0]);
    // Round trip through the TOML writer.
    ClassicalConfig back = loadClassicalConfig(toml::parse(classicalConfigToToml(c)));
    EXPECT_EQ(classicalConfigToToml(back), classicalConfigToToml(c));
    EXPECT_THROW(loadClassicalConfig(toml::parse("[classical]\nthreat_own = [1, 2]\n")),
                 std::runtime_error);
    EXPECT_THROW(loadClassicalConfig(toml::parse("[classical]\nscale_percent = \"x\"\n")),
                 std::runtime_error);
}
