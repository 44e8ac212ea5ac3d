// The search with the mix9svq network (the synthetic random-weight file: only behaviour is
// tested, never strength): legal moves, the evaluator in step with the board after every
// think, time limits, and unchanged behaviour without a network.
#include <gtest/gtest.h>

#include <chrono>

#include "moku/eval/network.h"
#include "moku/search/search.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;
using namespace moku::search;

namespace {

const eval::NetworkPair& synthetic() {
    static const eval::NetworkPair pair = [] {
        eval::LoadResult r = eval::loadMix9(test::dataPath("mix9svq/synthetic-freestyle.bin.lz4"));
        eval::NetworkPair p;
        p.blackToMove = p.whiteToMove = r.weights;
        return p;
    }();
    return pair;
}

Board midgame(int size = 15) {
    Board b(size, size, Rule::FREESTYLE);
    int c = size / 2;
    for (auto [x, y] : {std::pair{0, 0}, {0, 1}, {1, 1}, {2, 2}, {1, 0}, {-1, 0}, {1, 2}, {1, -1}})
        b.move(Pos(c + x, c + y));
    return b;
}

Limits nodeLimit(uint64_t nodes) { return test::noClock(0, nodes); }

TEST(NnueSearch, PlaysLegalMovesAndFollowsTheGame) {
    ASSERT_TRUE(synthetic());
    Searcher s;
    s.setHashSize(size_t(1) << 20);
    s.setNetwork(synthetic());
    Board b = midgame();
    for (int i = 0; i < 6 && b.winner() == EMPTY && !b.full(); i++) {
        SearchResult r = s.think(b, nodeLimit(1500));
        EXPECT_TRUE(s.networkActive());
        ASSERT_TRUE(b.isLegal(r.bestMove)) << posToString(r.bestMove);
        EXPECT_TRUE(s.checkNetworkSync(b)) << "after think " << i;
        b.move(r.bestMove);
    }
    // A take-back and a pass: the root is no continuation of the last one.
    b.undo();
    b.undo();
    b.move(POS_PASS);
    SearchResult r = s.think(b, nodeLimit(1500));
    EXPECT_TRUE(b.isLegal(r.bestMove));
    EXPECT_TRUE(s.checkNetworkSync(b));
    // Another board size: a fresh evaluator of that size.
    Board small = midgame(9);
    r = s.think(small, nodeLimit(1500));
    EXPECT_TRUE(s.networkActive());
    EXPECT_TRUE(small.isLegal(r.bestMove));
    EXPECT_TRUE(s.checkNetworkSync(small));
    // An empty board (the engine plays the centre there without a search, the searcher searches
    // it): the evaluator takes every stone back.
    Board empty(15, 15, Rule::FREESTYLE);
    r = s.think(empty, nodeLimit(1500));
    EXPECT_TRUE(empty.isLegal(r.bestMove));
    EXPECT_TRUE(s.checkNetworkSync(empty));
}

TEST(NnueSearch, EveryKernelStaysInSync) {
    ASSERT_TRUE(synthetic());
    for (eval::SimdLevel level : eval::supportedSimdLevels()) {
        eval::NetworkPair pair = synthetic();
        pair.level = level;
        Searcher s;
        s.setHashSize(size_t(1) << 20);
        s.setNetwork(pair);
        Board b = midgame();
        SearchResult r = s.think(b, nodeLimit(800));
        EXPECT_TRUE(b.isLegal(r.bestMove)) << eval::simdName(level);
        EXPECT_TRUE(s.checkNetworkSync(b)) << eval::simdName(level);
    }
}

// Rules and boards the file does not cover are searched with the classical evaluator.
TEST(NnueSearch, UncoveredGamesUseTheClassicalEvaluator) {
    ASSERT_TRUE(synthetic());
    Searcher s;
    s.setHashSize(size_t(1) << 20);
    s.setNetwork(synthetic());
    Board renju(15, 15, Rule::RENJU);
    for (auto [x, y] : {std::pair{7, 7}, {8, 6}, {8, 7}}) renju.move(Pos(x, y));
    SearchResult r = s.think(renju, nodeLimit(1500));
    EXPECT_FALSE(s.networkActive());
    EXPECT_TRUE(renju.isLegal(r.bestMove));
    Board rect(20, 15, Rule::FREESTYLE);
    for (auto [x, y] : {std::pair{10, 7}, {11, 8}, {9, 8}}) rect.move(Pos(x, y));
    r = s.think(rect, nodeLimit(1500));
    EXPECT_FALSE(s.networkActive());
    EXPECT_TRUE(rect.isLegal(r.bestMove));
    EXPECT_NE(synthetic().coverageProblem(Rule::RENJU, 15, 15), "");
    EXPECT_NE(synthetic().coverageProblem(Rule::FREESTYLE, 20, 15), "");
    EXPECT_NE(synthetic().coverageProblem(Rule::CARO8, 15, 15), "");
    EXPECT_EQ(synthetic().coverageProblem(Rule::FREESTYLE, 22, 22), "");
}

// Without a network (or after turning it off) the search is exactly the classical one.
TEST(NnueSearch, NoNetworkSearchesAsBefore) {
    ASSERT_TRUE(synthetic());
    Limits l;
    l.infinite = true;
    l.maxDepth = 5;
    Searcher plain, off;
    plain.setHashSize(size_t(1) << 20);
    off.setHashSize(size_t(1) << 20);
    off.setNetwork(synthetic());
    off.setNetwork({});
    SearchResult a = plain.think(midgame(), l), b = off.think(midgame(), l);
    EXPECT_FALSE(off.networkActive());
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.bestMove, b.bestMove);
    EXPECT_EQ(a.score, b.score);
    Searcher with;
    with.setHashSize(size_t(1) << 20);
    with.setNetwork(synthetic());
    SearchResult c = with.think(midgame(), l);
    EXPECT_TRUE(with.networkActive());
    EXPECT_NE(a.nodes, c.nodes); // the network changes values, ordering and pruning
    EXPECT_LT(std::abs(c.score), VALUE_MATE_IN_MAX_PLY);
}

TEST(NnueSearch, RespectsTheTurnTime) {
    ASSERT_TRUE(synthetic());
    Searcher s;
    s.setNetwork(synthetic());
    Board b = midgame();
    Limits l;
    l.time.turnTimeMs = 200;
    auto t = std::chrono::steady_clock::now();
    SearchResult r = s.think(b, l);
    auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t)
            .count();
    EXPECT_LT(ms, 200 + 60);
    EXPECT_GE(r.depth, 1);
    EXPECT_TRUE(b.isLegal(r.bestMove));
    EXPECT_TRUE(s.checkNetworkSync(b));
}

} // namespace
