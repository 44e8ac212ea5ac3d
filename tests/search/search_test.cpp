#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "moku/search/search.h"
#include "moku/search/vcf.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;
using namespace moku::search;

namespace {

Rule ruleOf(int infoRule) {
    auto r = ruleFromGomocup(infoRule);
    return r ? *r : Rule::FREESTYLE;
}

Limits timeLimits(int64_t turnMs) {
    Limits l;
    l.time.turnTimeMs = turnMs;
    return l;
}

int64_t msSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 t)
        .count();
}

// A busy freestyle middle game without immediate wins.
Board midgame() {
    Board b(15, 15, Rule::FREESTYLE);
    for (auto [x, y] :
         {std::pair{7, 7}, {7, 8}, {8, 8}, {9, 9}, {8, 7}, {6, 7}, {8, 9}, {8, 6}, {6, 9}, {9, 7}})
        b.move(Pos(x, y));
    return b;
}

// The position of a referee-style check (tests/data/referee_checks_moku.jsonl).
Board refereeBoard(const Json& c) {
    int size = int(c["size"].asInt());
    Board b(size, size, ruleOf(int(c["info_rule"].asInt())));
    for (const Json& m : c["moves"].asArray()) b.move(Pos(int(m[0].asInt()), int(m[1].asInt())));
    return b;
}

// The cells where c would win at once, by index.
std::set<int> winningMoves(Board& b, Color c) {
    std::set<int> out;
    for (Pos p : b.emptyCells())
        if (b.outcomeIfPlayed(p, c) == c) out.insert(p.idx);
    return out;
}

std::set<int> cellsOf(const Json& c, const char* key) {
    std::set<int> out;
    if (c.contains(key))
        for (const Json& m : c[key].asArray())
            out.insert(Pos(int(m[0].asInt()), int(m[1].asInt())).idx);
    return out;
}

} // namespace

// The answers of the referee-style checks are forced by the rules, not chosen: a "win" check
// expects exactly the moves that win at once; a "block" check, where the side to move cannot
// win at once, exactly the opponent's winning points; an "avoid" check names renju black's
// forbidden points. Every rule is covered.
TEST(Search, RefereeChecksExpectForcedMoves) {
    std::set<int> rules;
    for (const Json& c : test::readJsonLines("referee_checks_moku.jsonl")) {
        const std::string id = c["id"].asString(), check = c["check"].asString();
        Board b = refereeBoard(c);
        Color us = b.sideToMove();
        EXPECT_EQ(c["to_move"].asString(), us == BLACK ? "black" : "white") << id;
        EXPECT_EQ(b.winner(), EMPTY) << id;
        if (check == "win") {
            EXPECT_EQ(winningMoves(b, us), cellsOf(c, "expect_any")) << id << "\n" << b.toString();
        } else if (check == "block") {
            EXPECT_TRUE(winningMoves(b, us).empty()) << id << "\n" << b.toString();
            EXPECT_EQ(winningMoves(b, ~us), cellsOf(c, "expect_any")) << id << "\n" << b.toString();
        } else {
            ASSERT_EQ(check, "avoid") << id;
            ASSERT_TRUE(b.rule() == Rule::RENJU && us == BLACK) << id;
            for (int idx : cellsOf(c, "expect_not")) EXPECT_TRUE(b.isForbidden(Pos(idx))) << id;
        }
        for (int idx : cellsOf(c, "expect_not"))
            EXPECT_EQ(cellsOf(c, "expect_any").count(idx), 0u) << id;
        rules.insert(int(b.rule()));
    }
    EXPECT_EQ(rules, (std::set<int>{int(Rule::FREESTYLE), int(Rule::STANDARD), int(Rule::RENJU),
                                    int(Rule::CARO8)}));
}

// The engine passes every referee-style check within 300 ms a move.
TEST(Search, RefereeRuleChecks) {
    Searcher s;
    int checks = 0;
    for (const Json& c : test::readJsonLines("referee_checks_moku.jsonl")) {
        Board b = refereeBoard(c);
        s.newGame();
        SearchResult r = s.think(b, timeLimits(300));
        ASSERT_TRUE(b.isLegal(r.bestMove)) << c["id"].asString();
        EXPECT_EQ(test::refereeVerdict(c, r.bestMove.x(), r.bestMove.y()), "");
        checks++;
    }
    EXPECT_GE(checks, 10);
}

TEST(Search, BlocksFourAndTakesFive) {
    Searcher s;
    Board b(15, 15, Rule::FREESTYLE);
    for (int x = 3; x < 7; x++) b.move(Pos(x, 7), BLACK), b.move(Pos(x, 10), WHITE);
    // Black to move with a four: it must win.
    b.move(POS_PASS, WHITE);
    ASSERT_EQ(b.sideToMove(), BLACK);
    SearchResult r = s.think(b, timeLimits(200));
    EXPECT_TRUE(b.isFive(r.bestMove, BLACK));
    EXPECT_GT(r.score, VALUE_MATE_IN_MAX_PLY);
}

TEST(Search, MidgameHasNoQuickWin) {
    Board b = midgame();
    EXPECT_FALSE(solveVcf(b).win);
    b.move(POS_PASS);
    EXPECT_FALSE(solveVcf(b).win);
}

TEST(Search, DeterministicNodeCount) {
    Limits l;
    l.infinite = true;
    l.maxDepth = 5;
    Searcher a, b;
    SearchResult ra = a.think(midgame(), l), rb = b.think(midgame(), l);
    EXPECT_EQ(ra.nodes, rb.nodes);
    EXPECT_EQ(ra.bestMove, rb.bestMove);
    EXPECT_EQ(ra.depth, 5);
}

TEST(Search, MaxNodesStops) {
    Limits l;
    l.infinite = true;
    l.maxNodes = 20000;
    Searcher s;
    SearchResult r = s.think(midgame(), l);
    EXPECT_LT(r.nodes, 20000u + 1000u);
    Board b = midgame();
    EXPECT_TRUE(b.isLegal(r.bestMove));
}

TEST(Search, MultiPvRanksMoves) {
    Limits l;
    l.infinite = true;
    l.maxDepth = 4;
    l.multiPV = 3;
    Searcher s;
    int reports = 0;
    SearchResult r = s.think(midgame(), l, [&](const IterationInfo&) { reports++; });
    ASSERT_EQ(r.ranked.size(), 3u);
    EXPECT_EQ(r.ranked[0].first, r.bestMove);
    EXPECT_GE(r.ranked[0].second, r.ranked[1].second);
    EXPECT_GE(r.ranked[1].second, r.ranked[2].second);
    EXPECT_NE(r.ranked[1].first, r.ranked[2].first);
    EXPECT_GE(reports, 3 * 4);
}

TEST(SearchTime, TurnTimeZeroPlaysAtOnce) {
    Searcher s;
    auto t = std::chrono::steady_clock::now();
    SearchResult r = s.think(midgame(), timeLimits(0));
    EXPECT_LT(msSince(t), 100);
    Board b = midgame();
    EXPECT_TRUE(b.isLegal(r.bestMove));
}

TEST(SearchTime, TurnTime100) {
    Searcher s;
    auto t = std::chrono::steady_clock::now();
    SearchResult r = s.think(midgame(), timeLimits(100));
    EXPECT_LT(msSince(t), 100 + 50);
    EXPECT_GE(r.depth, 1);
}

TEST(SearchTime, SmallTimeLeft) {
    Searcher s;
    Limits l;
    l.time.turnTimeMs = 5000;
    l.time.matchTimeMs = 100000;
    l.time.timeLeftMs = 150;
    auto t = std::chrono::steady_clock::now();
    SearchResult r = s.think(midgame(), l);
    EXPECT_LT(msSince(t), 150);
    Board b = midgame();
    EXPECT_TRUE(b.isLegal(r.bestMove));
    l.time.timeLeftMs = -500; // already over: still a legal move, at once
    t = std::chrono::steady_clock::now();
    r = s.think(midgame(), l);
    EXPECT_LT(msSince(t), 100);
    EXPECT_TRUE(b.isLegal(r.bestMove));
}

TEST(SearchTime, StopFromAnotherThread) {
    Searcher s;
    Limits l;
    l.infinite = true;
    SearchResult r;
    std::thread th([&] { r = s.think(midgame(), l); });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto t = std::chrono::steady_clock::now();
    s.stop();
    th.join();
    EXPECT_LT(msSince(t), 50);
    Board b = midgame();
    EXPECT_TRUE(b.isLegal(r.bestMove));
}
