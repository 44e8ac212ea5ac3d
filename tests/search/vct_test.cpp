#include <gtest/gtest.h>

#include <random>

#include "moku/search/search.h"
#include "moku/search/vcf.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;
using namespace moku::search;

namespace {

Color colorOf(const std::string& s) { return s == "black" ? BLACK : WHITE; }

bool legalFor(Board& b, Pos p) {
    if (!b.isEmpty(p)) return false;
    return !(b.rule() == Rule::RENJU && b.sideToMove() == BLACK && b.isForbidden(p));
}

// Checks a VCT win of the side to move as a proof one step deep, without trusting the solver's
// choice of defences: the first move of the line is a four or makes an open three (an open-four
// point after it), the defender has no five, and after *every* legal reply of the defender (not
// only those the solver tries) the attacker still wins: it has a five point, or an open-four
// point while the defender has no five point, or the solver says it wins from there.
void expectSoundWin(Board b, const VcfResult& r, int depth, const std::string& id) {
    ASSERT_TRUE(r.win) << id;
    ASSERT_FALSE(r.line.empty()) << id;
    const Color attacker = b.sideToMove(), defender = ~attacker;
    const Pos first = r.line[0];
    ASSERT_TRUE(legalFor(b, first)) << id << " " << posToString(first);
    b.move(first);
    if (b.winner() == attacker) return;
    ASSERT_TRUE(b.p4Count(attacker, A_FIVE) || b.p4Count(attacker, B_FLEX4))
        << id << ": " << posToString(first) << " is no threat\n"
        << b.toString();
    ASSERT_FALSE(b.p4Count(defender, A_FIVE)) << id << ": the defender can make five";
    int replies = 0;
    for (Pos q : b.emptyCells()) {
        if (!legalFor(b, q)) continue;
        replies++;
        b.move(q);
        bool wins = b.winner() != defender &&
                    (b.p4Count(attacker, A_FIVE) ||
                     (b.p4Count(attacker, B_FLEX4) && !b.p4Count(defender, A_FIVE)) ||
                     solveVct(b, depth).win);
        EXPECT_TRUE(wins) << id << ": after " << posToString(first) << " the reply "
                          << posToString(q) << " refutes the win\n"
                          << b.toString();
        b.undo();
    }
    EXPECT_GT(replies, 0) << id;
}

} // namespace

// quintet's renju VCT puzzles (tests/data/mate_quintet.jsonl): the solver finds a win within
// ten threats, and the win survives every reply. Not test_vct_fukumi_move: its first move
// makes no three or four but threatens a VCF, which is outside what this solver plays.
TEST(Vct, SolvesQuintetVctPuzzles) {
    int solved = 0;
    for (const Json& c : test::readJsonLines("mate_quintet.jsonl")) {
        if (c["kind"].asString() != "VCT") continue;
        std::string id = c["id"].asString();
        Board b =
            test::boardFromDiagram(c["board"], Rule::RENJU, colorOf(c["attacker"].asString()));
        VcfResult r = solveVct(b, 10);
        if (id == "quintet/test_vct_fukumi_move") {
            EXPECT_FALSE(r.win) << id;
            continue;
        }
        expectSoundWin(b, r, 10, id);
        solved++;
    }
    EXPECT_EQ(solved, 5);
}

TEST(Vct, NoVctWithoutThreats) {
    Board b(15, 15, Rule::FREESTYLE);
    b.move(Pos(7, 7));
    b.move(Pos(8, 8));
    EXPECT_FALSE(solveVct(b, 10).win);
}

TEST(Vct, SimpleDoubleThree) {
    // Two open twos crossing on an empty cell: the double three there wins (freestyle).
    Board b(15, 15, Rule::FREESTYLE);
    for (auto [x, y] : {std::pair{5, 7}, {6, 7}, {8, 5}, {8, 6}}) b.move(Pos(x, y), BLACK);
    for (auto [x, y] : {std::pair{0, 0}, {0, 2}, {0, 4}, {14, 14}}) b.move(Pos(x, y), WHITE);
    ASSERT_EQ(b.sideToMove(), BLACK);
    VcfResult r = solveVct(b, 4);
    expectSoundWin(b, r, 4, "double three");
    EXPECT_EQ(r.line[0], Pos(8, 7));
}

// Random positions of every rule: each VCT the solver claims within three threats survives
// every reply of the defender (the defences it tries are complete).
TEST(Vct, WinsSurviveEveryReplyOnRandomPositions) {
    std::mt19937_64 rng(77);
    int wins = 0;
    for (Rule rule : {Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU, Rule::CARO8, Rule::CARO9}) {
        int ruleWins = 0;
        for (int game = 0; game < 400 && ruleWins < 6; game++) {
            Board b(12, 12, rule);
            if (!test::playRandomly(b, rng, 12 + int(rng() % 16))) continue;
            if (b.winner() != EMPTY || b.p4Count(BLACK, A_FIVE) || b.p4Count(WHITE, A_FIVE))
                continue;
            VcfResult r = solveVct(b, 3, 200000);
            if (!r.win) continue;
            expectSoundWin(b, r, 3, std::string(ruleName(rule)) + " game " + std::to_string(game));
            ruleWins++;
        }
        EXPECT_GE(ruleWins, 3) << ruleName(rule);
        wins += ruleWins;
    }
    EXPECT_GE(wins, 15);
}

// With [search] vct_depth set (12, the default), the search plays a VCT that its alpha-beta,
// limited to one ply, cannot see: the root's VCT finds it first and reports a mate. With
// vct_depth 0 it does not.
TEST(Vct, SearchPlaysTheRootVct) {
    int found = 0;
    for (const Json& c : test::readJsonLines("mate_quintet.jsonl")) {
        if (c["kind"].asString() != "VCT" || c["id"].asString() == "quintet/test_vct_fukumi_move")
            continue;
        std::string id = c["id"].asString();
        Board b =
            test::boardFromDiagram(c["board"], Rule::RENJU, colorOf(c["attacker"].asString()));
        Limits l;
        l.infinite = true;
        l.maxDepth = 1;
        SearchParams on;
        on.vctDepth = 12;
        Searcher s;
        s.setParams(on);
        SearchResult r = s.think(b, l);
        VcfResult v = solveVct(b, 12);
        ASSERT_TRUE(v.win) << id;
        EXPECT_EQ(r.bestMove, v.line[0]) << id;
        EXPECT_GT(r.score, VALUE_MATE_IN_MAX_PLY) << id;
        SearchParams off;
        off.vctDepth = 0;
        Searcher plain;
        plain.setParams(off);
        EXPECT_LT(plain.think(b, l).score, VALUE_MATE_IN_MAX_PLY) << id;
        found++;
    }
    EXPECT_EQ(found, 5);
}
