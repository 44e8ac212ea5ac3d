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
    // A value per pcode and per threat mask instead of the pattern and threat terms: shared
    // by both colours in freestyle and standard, one table per colour in renju and caro (and
    // one of each kind in caro9).
    ClassicalConfig perPcode = twoPly;
    for (int r = 0; r < RULE_NB; r++) {
        int pcodeTables = r == int(Rule::RENJU) || r == int(Rule::CARO8) ? 2 : 1;
        int maskTables = r == int(Rule::RENJU) || r == int(Rule::CARO9) ? 2 : 1;
        perPcode.pcodeValue[r].clear();
        perPcode.threatMaskValue[r].clear();
        for (int pc = 0; pc < pcodeTables * PCODE_NB; pc++)
            perPcode.pcodeValue[r].push_back(int(rng() % 401) - 200);
        for (int m = 0; m < maskTables * THREAT_MASK_NB; m++)
            perPcode.threatMaskValue[r].push_back(int(rng() % 2001) - 1000);
    }
    for (Rule rule : {Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU, Rule::CARO8, Rule::CARO9})
        for (const ClassicalConfig& cfg : {ClassicalConfig::defaults(), twoPly, perPcode}) {
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
    EXPECT_GT(checked, 6000);
}

// The threat mask against its bits read from every empty cell's Pattern4 (not the board's
// counts), over random games.
TEST(Classical, ThreatMaskMatchesTheCells) {
    std::mt19937 rng(11);
    int checked = 0, nonzero = 0;
    for (Rule rule : {Rule::FREESTYLE, Rule::RENJU})
        for (int game = 0; game < 40; game++) {
            Board b(15, 15, rule);
            for (int step = 0; step < 80 && b.winner() == EMPTY && !b.full(); step++) {
                auto cand = b.candidates();
                if (cand.empty()) cand = b.emptyCells();
                b.move(cand[rng() % cand.size()]);
                for (Color us : {BLACK, WHITE}) {
                    bool has[COLOR_NB][PATTERN4_NB] = {};
                    for (Pos p : b.emptyCells())
                        for (Color c : {BLACK, WHITE}) has[c][b.cell(p).p4[c]] = true;
                    Color them = ~us;
                    int expected =
                        has[them][A_FIVE] | has[us][B_FLEX4] << 1 | has[them][B_FLEX4] << 2;
                    for (Color c : {us, them}) {
                        int shift = c == us ? 3 : 7;
                        expected |= (has[c][C_BLOCK4_FLEX3] || has[c][D_BLOCK4_PLUS]) << shift;
                        expected |= has[c][E_BLOCK4] << (shift + 1);
                        expected |= (has[c][F_FLEX3_2X] || has[c][G_FLEX3_PLUS]) << (shift + 2);
                        expected |= has[c][H_FLEX3] << (shift + 3);
                    }
                    ASSERT_EQ(threatMask(b, us), expected);
                    nonzero += expected != 0;
                    checked++;
                }
            }
        }
    EXPECT_GT(checked, 3000);
    EXPECT_GT(nonzero, checked / 3);
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

// With the per-pcode tables (freestyle, standard, and renju's per colour) and with the pattern
// terms (caro).
TEST(Classical, ValuesAreSensible) {
    for (Rule rule : {Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU, Rule::CARO8}) {
        ClassicalEvaluator ev(rule);
        Board b(15, 15, rule);
        ev.attach(b);
        EXPECT_EQ(ev.tables().perPcode, !isCaro(rule));
        // The empty board: nothing but the side to move's share of no threats (and in renju
        // the difference between black's and white's tables, a little for black).
        if (rule == Rule::RENJU) {
            EXPECT_GT(ev.evaluateFast(b), 0);
            EXPECT_LT(ev.evaluateFast(b), 100);
        } else {
            EXPECT_EQ(ev.evaluateFast(b),
                      ev.tables().perPcode ? ev.tables().threatMaskValue[BLACK][0] : 0);
        }
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
        EXPECT_LT(ev.evaluateFast(b), -100);
        // Move ordering: a five beats a block of the opponent's five, which beats a quiet move.
        EXPECT_GT(ev.tables().moveOwn[A_FIVE], ev.tables().moveOpp[A_FIVE]);
        EXPECT_GT(ev.tables().moveOpp[A_FIVE], ev.tables().moveOwn[B_FLEX4]);
    }
}

// The move-ordering score read from the per-pcode tables equals its terms summed from the cell's
// Pattern4, line patterns, evaluation score and distances, over random positions of every rule,
// with the defaults and with every term set.
TEST(Classical, MoveScoreMatchesItsTerms) {
    ClassicalConfig full = ClassicalConfig::defaults();
    for (int k = 0; k < PATTERN_NB; k++) {
        full.movePattern[0][k] = 7 * k - 20;
        full.movePattern[1][k] = 30 - 3 * k;
    }
    full.moveCellPercent = {37, 81};
    full.moveDistance = {{{90, 70, 40, -5, 3}, {50, -30, 20, 10, -8}}};
    std::mt19937 rng(11);
    int checked = 0;
    for (Rule rule : {Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU, Rule::CARO8})
        for (const ClassicalConfig& cfg : {ClassicalConfig::defaults(), full}) {
            ClassicalEvaluator ev(rule, cfg);
            const PatternTables& pt = patternTables(rule);
            auto dist = [](Pos a, Pos b) {
                if (b == POS_NONE) return 5;
                return std::min(5, std::max(std::abs(a.x() - b.x()), std::abs(a.y() - b.y())));
            };
            for (int game = 0; game < 6; game++) {
                Board b(15, 15, rule);
                ev.attach(b);
                for (int step = 0; step < 60 && b.winner() == EMPTY && !b.full(); step++) {
                    Color us = b.sideToMove(), them = ~us;
                    for (Pos p : b.candidates()) {
                        int slow = 0;
                        for (int who = 0; who < 2; who++) {
                            Color c = who == 0 ? us : them;
                            uint16_t pc = b.cell(p).pcode[c];
                            auto p4 = Pattern4(pt.p4[c][pc]);
                            // The cell's evaluation score as the evaluator's own terms give it.
                            int cell = cfg.pattern4[0][p4];
                            if (p4 != FORBID)
                                for (Pattern q : pcodePatterns(pc)) cell += cfg.pattern[0][q];
                            slow += (who == 0 ? cfg.moveOwn : cfg.moveOpp)[p4] +
                                    cell * cfg.moveCellPercent[who] / 100;
                            for (Pattern q : pcodePatterns(pc)) slow += cfg.movePattern[who][q];
                        }
                        if (b.ply() > 0) slow += cfg.moveDistance[0][dist(p, b.lastMove(0)) - 1];
                        if (b.ply() > 1) slow += cfg.moveDistance[1][dist(p, b.lastMove(1)) - 1];
                        ASSERT_EQ(ev.moveScore(b, p), slow);
                        checked++;
                    }
                    auto cand = b.candidates();
                    if (cand.empty()) cand = b.emptyCells();
                    b.move(cand[rng() % cand.size()]);
                }
            }
        }
    EXPECT_GT(checked, 20000);
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
    c.movePattern[1][5] = -12;
    c.moveCellPercent[0] = 0;
    c.moveDistance[1][4] = 9;
    // Round trip through the TOML writer.
    ClassicalConfig back = loadClassicalConfig(toml::parse(classicalConfigToToml(c)));
    EXPECT_EQ(classicalConfigToToml(back), classicalConfigToToml(c));
    EXPECT_THROW(loadClassicalConfig(toml::parse("[classical]\nthreat_own = [1, 2]\n")),
                 std::runtime_error);
    EXPECT_THROW(loadClassicalConfig(toml::parse("[classical]\nscale_percent = \"x\"\n")),
                 std::runtime_error);
    EXPECT_THROW(loadClassicalConfig(toml::parse("[classical]\nmove_distance_own = [1, 2, 3]\n")),
                 std::runtime_error);
    EXPECT_THROW(loadClassicalConfig(toml::parse("[classical]\nmove_cell_own_percent = -1\n")),
                 std::runtime_error);
    // The per-pcode and threat-mask tables: the full size, twice it (per colour), or empty.
    ClassicalConfig tables = c;
    tables.pcodeValue[int(Rule::RENJU)].assign(2 * PCODE_NB, 7);
    tables.pcodeValue[int(Rule::RENJU)][PCODE_NB + 3] = -11;
    tables.threatMaskValue[int(Rule::RENJU)].assign(2 * THREAT_MASK_NB, -3);
    tables.threatMaskValue[int(Rule::RENJU)][5] = 250;
    tables.pcodeValue[int(Rule::STANDARD)].assign(PCODE_NB, 4);
    tables.threatMaskValue[int(Rule::STANDARD)].assign(THREAT_MASK_NB, 9);
    ClassicalConfig read = loadClassicalConfig(toml::parse(classicalConfigToToml(tables)));
    EXPECT_EQ(read.pcodeValue, tables.pcodeValue);
    EXPECT_EQ(read.threatMaskValue, tables.threatMaskValue);
    // The per-colour halves reach each colour's cells and masks.
    ClassicalTables renju(read, Rule::RENJU);
    ASSERT_TRUE(renju.perPcode);
    EXPECT_EQ(renju.cells.score[BLACK][0][3], 7);
    EXPECT_EQ(renju.cells.score[WHITE][1][3], -11);
    EXPECT_EQ(renju.threatMaskValue[BLACK][5], 250);
    EXPECT_EQ(renju.threatMaskValue[WHITE][5], -3);
    ClassicalTables standard(read, Rule::STANDARD);
    EXPECT_EQ(standard.cells.score[WHITE][0][3], 4);
    EXPECT_EQ(standard.threatMaskValue[WHITE][5], 9);
    std::string thrice; // three tables' worth: neither size
    for (int i = 0; i < 3 * PCODE_NB; i++) thrice += i ? ", 1" : "1";
    EXPECT_THROW(loadClassicalConfig(toml::parse("[classical.renju]\npcode_values = [" + thrice +
                                                 "]\nthreat_mask_values = []\n")),
                 std::runtime_error);
    // [] for both: that rule goes back to the pattern terms.
    ClassicalConfig none = loadClassicalConfig(
        toml::parse("[classical.freestyle]\npcode_values = []\nthreat_mask_values = []\n"));
    EXPECT_TRUE(none.pcodeValue[int(Rule::FREESTYLE)].empty());
    EXPECT_TRUE(none.threatMaskValue[int(Rule::FREESTYLE)].empty());
    EXPECT_THROW(loadClassicalConfig(toml::parse("[classical.renju]\npcode_values = [1, 2, 3]\n")),
                 std::runtime_error);
    EXPECT_THROW(
        loadClassicalConfig(toml::parse("[classical.freestyle]\nthreat_mask_values = [1, 2, 3]\n")),
        std::runtime_error);
    // One table without the other.
    EXPECT_THROW(loadClassicalConfig(toml::parse("[classical.freestyle]\npcode_values = []\n")),
                 std::runtime_error);
}
