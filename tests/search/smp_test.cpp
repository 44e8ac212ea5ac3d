// Lazy SMP: several threads on one shared table. Small depths, so that the suite also runs
// under ThreadSanitizer (-DMOKU_TSAN=ON, --gtest_filter='Smp*').
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "moku/search/search.h"
#include "moku/search/tt.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;
using namespace moku::search;

namespace {

struct Position {
    Rule rule;
    int size;
    std::vector<std::pair<int, int>> moves;
};

// A few of the bench positions (src/app/bench.cpp).
const std::vector<Position> POSITIONS = {
    {Rule::FREESTYLE,
     15,
     {{7, 7}, {7, 8}, {8, 8}, {9, 9}, {8, 7}, {6, 7}, {8, 9}, {8, 6}, {6, 9}, {9, 7}}},
    {Rule::FREESTYLE, 15, {{2, 2}, {3, 3}, {2, 4}, {3, 4}, {4, 2}, {3, 2}, {3, 5}}},
    {Rule::FREESTYLE, 20, {{10, 10}, {11, 9}, {9, 9}}},
    {Rule::STANDARD, 15, {{7, 7}, {7, 6}, {8, 8}, {6, 6}}},
    {Rule::RENJU, 15, {{7, 7}, {7, 6}, {8, 6}, {9, 5}, {6, 8}, {8, 8}, {6, 6}, {6, 7}}},
};

Board boardOf(const Position& p) {
    Board b(p.size, p.size, p.rule);
    for (auto [x, y] : p.moves) b.move(Pos(x, y));
    return b;
}

int64_t msSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 t)
        .count();
}

// A searcher of `threads` threads on a small table.
std::unique_ptr<Searcher> searcherOf(int threads) {
    auto s = std::make_unique<Searcher>();
    s->setThreads(threads);
    s->setHashSize(size_t(4) << 20);
    return s;
}

} // namespace

TEST(SmpSearch, FourThreadsOverBenchPositions) {
    auto s = searcherOf(4);
    EXPECT_EQ(s->threads(), 4);
    for (const Position& p : POSITIONS) {
        Board b = boardOf(p);
        Limits l = test::noClock(6);
        auto caller = std::this_thread::get_id();
        uint64_t lastNodes = 0;
        int calls = 0;
        SearchResult r = s->think(b, l, [&](const IterationInfo& info) {
            // Only the main thread reports, with the nodes of all threads.
            EXPECT_EQ(std::this_thread::get_id(), caller);
            EXPECT_GE(info.nodes, lastNodes);
            lastNodes = info.nodes;
            calls++;
        });
        EXPECT_TRUE(b.isLegal(r.bestMove));
        EXPECT_GE(r.depth, 1);
        EXPECT_GT(calls, 0);
        EXPECT_GE(r.nodes, lastNodes);
    }
}

// Threads skip depths that others search, but never the depth limit: the search always
// completes it, and the main thread reports its iterations in increasing depth.
TEST(SmpSearch, ThreadsEndOnTheDepthLimit) {
    auto s = searcherOf(2);
    for (const Position& p : POSITIONS) {
        Board b = boardOf(p);
        Limits l = test::noClock(7);
        int last = 0;
        SearchResult r = s->think(b, l, [&](const IterationInfo& info) {
            EXPECT_GT(info.depth, last);
            EXPECT_LE(info.depth, l.maxDepth);
            last = info.depth;
        });
        EXPECT_EQ(r.depth, l.maxDepth);
        EXPECT_TRUE(b.isLegal(r.bestMove));
    }
}

TEST(SmpSearch, StopEndsEveryThread) {
    auto s = searcherOf(4);
    Board b = boardOf(POSITIONS[0]);
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        s->stop();
    });
    auto start = std::chrono::steady_clock::now();
    SearchResult r = s->think(b, test::noClock(0));
    stopper.join();
    EXPECT_LT(msSince(start), 5000);
    EXPECT_TRUE(b.isLegal(r.bestMove));
    // The pool is reusable after a stop (the stop forgotten first: it stands until then).
    s->clearStop();
    EXPECT_TRUE(b.isLegal(s->think(b, test::noClock(3)).bestMove));
}

TEST(SmpSearch, NodeLimitCountsAllThreads) {
    auto s = searcherOf(3);
    Board b = boardOf(POSITIONS[3]);
    Limits l = test::noClock(0, 30000);
    SearchResult r = s->think(b, l);
    EXPECT_TRUE(b.isLegal(r.bestMove));
    EXPECT_GE(r.nodes, l.maxNodes);
    // Each thread notices within a few thousand nodes (polls, a leaf VCF).
    EXPECT_LT(r.nodes, l.maxNodes + 3 * 8000);
}

TEST(SmpSearch, TimeLimitWithThreads) {
    Searcher s;
    s.setThreads(2);
    Board b = boardOf(POSITIONS[1]);
    Limits l;
    l.time.turnTimeMs = 300;
    auto start = std::chrono::steady_clock::now();
    SearchResult r = s.think(b, l);
    EXPECT_TRUE(b.isLegal(r.bestMove));
    EXPECT_LT(msSince(start), 600); // generous: TSan and a loaded machine
}

TEST(SmpSearch, ResizeWaitsForTheSearch) {
    Searcher s;
    s.setThreads(2);
    Board b = boardOf(POSITIONS[4]);
    Limits l;
    l.time.turnTimeMs = 300;
    SearchResult r;
    std::thread searching([&] { r = s.think(b, l); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    // From another thread while searching: these block until think() has returned.
    s.setThreads(3);
    size_t table = s.setHashSize(size_t(8) << 20);
    s.clearHash();
    s.newGame();
    searching.join();
    EXPECT_TRUE(b.isLegal(r.bestMove));
    EXPECT_EQ(s.threads(), 3);
    EXPECT_LE(table, size_t(8) << 20);
    s.setThreads(1);
    l.time.turnTimeMs = 100;
    EXPECT_TRUE(b.isLegal(s.think(b, l).bestMove));
}

TEST(SmpSearch, OneThreadIsDeterministic) {
    Board b = boardOf(POSITIONS[2]);
    Limits l = test::noClock(6);
    uint64_t nodes[2];
    for (uint64_t& n : nodes) {
        Searcher s;
        s.setThreads(3);
        s.setThreads(1); // back to one: the same as never having had helpers
        s.setHashSize(size_t(4) << 20);
        n = s.think(b, l).nodes;
    }
    EXPECT_EQ(nodes[0], nodes[1]);
}

TEST(SmpMemory, FailedAllocationFallsBackToSmallerTable) {
    TranspositionTable tt(1 << 16);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    // More than any address space: calloc fails and the size halves until it fits. (The
    // sanitizers' allocators abort on such a request instead of returning null.)
    size_t got = tt.resize(size_t(1) << 62);
    EXPECT_LT(got, size_t(1) << 62);
    EXPECT_GE(got, TranspositionTable::BUCKET_BYTES);
#endif
    tt.resize(3 * 1000 * 64); // not a power of two: every bucket is used
    EXPECT_EQ(tt.sizeBytes(), 3u * 1000 * 64);
    tt.store(42, Pos(1, 2), 5, 5, 3, BOUND_EXACT, false);
    TTData d;
    EXPECT_TRUE(tt.probe(42, d));
    EXPECT_EQ(d.move, Pos(1, 2));
}
