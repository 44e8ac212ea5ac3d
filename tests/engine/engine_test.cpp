#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "moku/engine/engine.h"
#include "moku/search/tt.h"
#include "test_util.h"

using namespace moku;
using namespace moku::engine;

namespace {

// A quick engine: answers at once.
void fast(Engine& e) {
    e.options().time.turnTimeMs = 0;
    e.options().maxDepth = 2;
}

TEST(EngineGame, NewGameValidatesSizeAndKeepsState) {
    Engine e;
    EXPECT_EQ(e.width(), 15); // a game exists before any START
    e.newGame(20, 20);
    e.play(Pos(3, 3));
    EXPECT_THROW(e.newGame(4, 4), EngineError);
    EXPECT_THROW(e.newGame(23, 15), EngineError);
    EXPECT_EQ(e.width(), 20);
    EXPECT_EQ(e.stones().size(), 1u);
    e.newGame(7, 9);
    EXPECT_EQ(e.width(), 7);
    EXPECT_EQ(e.height(), 9);
    EXPECT_TRUE(e.stones().empty());
}

TEST(EngineGame, PlayRejectsOccupiedAndOffBoard) {
    Engine e;
    e.play(Pos(7, 7));
    EXPECT_THROW(e.play(Pos(7, 7)), EngineError);
    EXPECT_EQ(e.stones().size(), 1u);
    EXPECT_EQ(e.sideToMove(), WHITE);
}

TEST(EngineGame, SetPositionOwnIsSideToMove) {
    Engine e;
    // Freestyle, equal counts: own is black and to move.
    auto r = e.setPosition({{7, 7, 1}, {8, 8, 2}});
    EXPECT_EQ(r.placed, 2);
    EXPECT_EQ(e.sideToMove(), BLACK);
    EXPECT_EQ(e.board().piece(Pos(7, 7)), BLACK);
    // One more opponent stone: the opponent is black, own is white.
    e.setPosition({{7, 7, 2}, {8, 8, 1}, {9, 9, 2}});
    EXPECT_EQ(e.sideToMove(), WHITE);
    EXPECT_EQ(e.board().piece(Pos(8, 8)), WHITE);
    EXPECT_EQ(e.board().sideToMove(), WHITE);
}

TEST(EngineGame, SetPositionRenjuFirstStoneIsBlack) {
    Engine e;
    e.setRule(Rule::RENJU);
    // Synthetic counts (3 own, 1 opponent) but own listed first: own is black.
    e.setPosition({{7, 7, 1}, {8, 8, 2}, {6, 6, 1}, {5, 5, 1}});
    EXPECT_EQ(e.sideToMove(), BLACK);
    EXPECT_EQ(e.board().piece(Pos(7, 7)), BLACK);
    EXPECT_EQ(e.board().piece(Pos(8, 8)), WHITE);
    EXPECT_EQ(e.board().sideToMove(), BLACK);
    e.setPosition({{7, 7, 2}, {8, 8, 1}});
    EXPECT_EQ(e.board().piece(Pos(7, 7)), BLACK);
    EXPECT_EQ(e.sideToMove(), WHITE);
}

TEST(EngineGame, SetPositionSkipsBadStones) {
    Engine e;
    auto r = e.setPosition(
        {{7, 7, 1}, {7, 7, 2}, {15, 3, 1}, {-1, 0, 2}, {3, 3, 9}, {4, 4, 3}, {8, 8, 2}});
    EXPECT_EQ(r.placed, 2);
    EXPECT_EQ(r.problems.size(), 4u);
    EXPECT_TRUE(e.board().checkConsistency().empty());
}

TEST(EngineGame, TakeBackAnyStone) {
    Engine e;
    e.play(Pos(7, 7));
    e.play(Pos(8, 8));
    e.play(Pos(9, 9));
    EXPECT_THROW(e.takeBack(Pos(1, 1)), EngineError);
    e.takeBack(Pos(9, 9));
    EXPECT_EQ(e.sideToMove(), BLACK);
    EXPECT_TRUE(e.isEmptyCell(Pos(9, 9)));
    e.takeBack(Pos(7, 7)); // not the last one: the board is rebuilt
    EXPECT_EQ(e.sideToMove(), BLACK);
    EXPECT_EQ(e.board().stoneCount(), 1);
    EXPECT_TRUE(e.board().checkConsistency().empty());
}

TEST(EngineGame, RuleChangeReplaysStones) {
    Engine e;
    e.setPosition({{7, 7, 1}, {8, 8, 2}});
    e.setRule(Rule::RENJU);
    EXPECT_EQ(e.board().rule(), Rule::RENJU);
    EXPECT_EQ(e.board().stoneCount(), 2);
}

TEST(EngineGame, ForbiddenPointsForBlackWhateverSideToMove) {
    Engine e;
    e.setRule(Rule::RENJU);
    // Black 6,7 8,7 7,6 7,8 around an empty 7,7: a double three at 7,7.
    e.setPosition({{6, 7, 2}, {0, 0, 1}, {8, 7, 2}, {14, 0, 1}, {7, 6, 2}, {0, 14, 1}, {7, 8, 2}});
    EXPECT_EQ(e.sideToMove(), WHITE);
    auto f = e.forbiddenPoints();
    EXPECT_NE(std::find(f.begin(), f.end(), Pos(7, 7)), f.end());
    e.setRule(Rule::FREESTYLE);
    EXPECT_TRUE(e.forbiddenPoints().empty());
}

TEST(EngineThink, CompletesAndBlocksFive) {
    Engine e;
    fast(e);
    e.setPosition(
        {{3, 3, 1}, {4, 3, 1}, {5, 3, 1}, {6, 3, 1}, {3, 9, 2}, {4, 9, 2}, {5, 9, 2}, {6, 9, 2}});
    auto r = e.thinkAndPlay();
    EXPECT_TRUE(r.bestMove == Pos(2, 3) || r.bestMove == Pos(7, 3));
    EXPECT_EQ(e.board().winner(), BLACK);
}

TEST(EngineThink, AlwaysLegalOnTinyBoards) {
    Engine e;
    fast(e);
    e.newGame(5, 5);
    std::set<int> seen;
    for (int i = 0; i < 25; i++) {
        auto r = e.thinkAndPlay();
        ASSERT_NE(r.bestMove, POS_NONE);
        ASSERT_TRUE(seen.insert(r.bestMove.idx).second);
    }
    EXPECT_EQ(e.thinkAndPlay().bestMove, POS_NONE); // full board
}

// The first moves of a game need no search, with or without a network: the centre of an empty
// board, and next to a lone stone one of its neighbours.
TEST(EngineThink, OpeningMovesNeedNoSearch) {
    for (bool network : {false, true}) {
        Engine e;
        if (network)
            e.options().networks.freestyle = test::dataPath("mix9svq/synthetic-freestyle.bin.lz4");
        e.options().time.turnTimeMs = 1000;
        e.newGame(15, 15);
        EXPECT_EQ(e.networkActive(), network);
        search::SearchResult r = e.analyse(1);
        EXPECT_EQ(r.bestMove, Pos(7, 7));
        EXPECT_EQ(r.nodes, 0u);
        e.play(Pos(3, 3));
        r = e.analyse(1);
        EXPECT_EQ(std::max(std::abs(r.bestMove.x() - 3), std::abs(r.bestMove.y() - 3)), 1);
        EXPECT_EQ(r.nodes, 0u);
        e.options().time.turnTimeMs = 0;
        e.newGame(20, 20);
        EXPECT_EQ(e.analyse(1).bestMove, Pos(10, 10));
    }
}

TEST(EngineThink, StopBeforeSearchStillAnswers) {
    Engine e;
    e.options().time.turnTimeMs = 60000;
    e.stop();
    auto r = e.thinkAndPlay();
    EXPECT_EQ(r.bestMove, Pos(7, 7));
}

TEST(EngineSwap2, AnswersHaveTheRightShape) {
    Engine e;
    fast(e);
    auto d0 = e.swap2({});
    ASSERT_FALSE(d0.swap);
    ASSERT_EQ(d0.stones.size(), 3u);
    EXPECT_EQ(e.stones().size(), 3u);

    auto d3 = e.swap2(d0.stones);
    EXPECT_TRUE(d3.swap || d3.stones.size() == 1 || d3.stones.size() == 2);
    for (Pos p : d3.stones)
        EXPECT_TRUE(std::find(d0.stones.begin(), d0.stones.end(), p) == d0.stones.end());

    auto d5 = e.swap2({Pos(7, 7), Pos(8, 7), Pos(7, 8), Pos(9, 9), Pos(6, 6)});
    EXPECT_TRUE(d5.swap || d5.stones.size() == 1);
    EXPECT_THROW(e.swap2({Pos(7, 7)}), EngineError);
    EXPECT_THROW(e.swap2({Pos(7, 7), Pos(7, 7), Pos(8, 8)}), EngineError);
}

// Black has an open four after the five-stone opening: keep black and win.
TEST(EngineSwap2, FiveStonesTakesTheWinningColour) {
    Engine e;
    fast(e);
    auto d = e.swap2({Pos(5, 7), Pos(0, 0), Pos(6, 7), Pos(14, 14), Pos(7, 7)});
    // Black to move with an open three 5..7: at least it must not hand over a won position.
    EXPECT_TRUE(d.swap || d.stones.size() == 1);
}

TEST(EngineOptions, HashFollowsMaxMemoryHashSizeAndThreads) {
    Engine e;
    std::vector<std::string> notes;
    e.setNoteSink([&](const std::string& n) { notes.push_back(n); });
    e.options().maxMemoryBytes = 367001600; // Gomocup's 350 MB
    e.applyHashSize();
    const MemoryPlan& p = e.memoryPlan();
    EXPECT_EQ(p.limitBytes, 367001600u);
    EXPECT_LE(p.baselineBytes + p.reserveBytes + p.tableBytes, 367001600u);
    EXPECT_GT(p.tableBytes, uint64_t(128) << 20);
    e.options().maxDepth = 3;
    e.play(Pos(7, 7));
    EXPECT_TRUE(e.isEmptyCell(e.analyse(1).bestMove)); // the note goes out with a search
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].rfind("hash ", 0), 0u) << notes[0];
    EXPECT_NE(notes[0].find("max_memory 350 MiB, 1 thread"), std::string::npos) << notes[0];
    e.applyHashSize(); // nothing changed: no resize, no note
    EXPECT_EQ(notes.size(), 1u);
    e.options().hashKiB = 16 << 10; // an upper bound
    e.applyHashSize();
    EXPECT_EQ(e.memoryPlan().tableBytes, uint64_t(16) << 20);
    e.options().hashKiB = 1 << 30; // more than max_memory allows
    e.options().threads = 2;
    e.applyHashSize();
    EXPECT_LE(e.memoryPlan().tableBytes, 367001600u);
    EXPECT_EQ(e.memoryPlan().threads, 2);
    e.options().maxMemoryBytes = 0; // Gomocup's default
    e.options().hashKiB = 0;
    e.applyHashSize();
    EXPECT_EQ(e.memoryPlan().limitBytes, DEFAULT_MAX_MEMORY);
    e.analyse(1);
    EXPECT_EQ(notes.size(), 2u); // one note per search at most
    EXPECT_NE(notes[1].find("2 threads"), std::string::npos) << notes[1];
}

TEST(SmpMemory, TimeControlBoundsTheTable) {
    const uint64_t MIB = 1 << 20;
    search::TimeControl tc;
    tc.turnTimeMs = 500;
    EXPECT_EQ(timeTableCap(tc, 1, false), 500 * TABLE_BYTES_PER_MS); // 31.25 MiB
    EXPECT_EQ(timeTableCap(tc, 2, false), 1000 * TABLE_BYTES_PER_MS);
    EXPECT_EQ(timeTableCap(tc, 1, true), 0u); // pondering: no bound
    tc.turnTimeMs = 0;                        // move at once: the smallest table
    EXPECT_EQ(timeTableCap(tc, 1, false), 16 * MIB);
    tc.turnTimeMs = 30000;
    tc.matchTimeMs = 8000; // an eighth of the match is the smaller: 1 s
    EXPECT_EQ(timeTableCap(tc, 1, false), 1000 * TABLE_BYTES_PER_MS);
    tc.incrementMs = 500;
    EXPECT_EQ(timeTableCap(tc, 1, false), 2000 * TABLE_BYTES_PER_MS);

    // In the engine: the smaller of hash_size and the time control's bound counts.
    Engine e;
    e.options().maxMemoryBytes = 367001600;
    e.options().time.turnTimeMs = 200;
    e.applyHashSize();
    EXPECT_EQ(e.memoryPlan().tableBytes, 16 * MIB);
    EXPECT_EQ(e.memoryPlan().timeCapBytes, 16 * MIB);
    e.options().hashKiB = 8 << 10;
    e.applyHashSize();
    EXPECT_EQ(e.memoryPlan().tableBytes, 8 * MIB);
    e.options().hashKiB = 0;
    e.options().time.turnTimeMs = 2000; // 125 MiB
    e.applyHashSize();
    EXPECT_EQ(e.memoryPlan().tableBytes, 2000 * TABLE_BYTES_PER_MS);
    e.options().pondering = true; // max_memory alone (less what this test process holds)
    e.applyHashSize();
    EXPECT_EQ(e.memoryPlan().timeCapBytes, 0u);
    EXPECT_GT(e.memoryPlan().tableBytes, 2000 * TABLE_BYTES_PER_MS);
}

TEST(SmpMemory, PlanKeepsTheProcessUnderTheLimit) {
    using search::TranspositionTable;
    const uint64_t MIB = 1 << 20;
    uint64_t reserve = memoryReserve(350 * MIB, 2);
    EXPECT_GE(reserve, 12 * MIB);
    uint64_t t = planTableBytes(350 * MIB, 20 * MIB, reserve, 0);
    EXPECT_LE(20 * MIB + reserve + t, 350 * MIB);
    EXPECT_GT(t, 250 * MIB);
    EXPECT_EQ(t % TranspositionTable::BUCKET_BYTES, 0u);
    EXPECT_EQ(planTableBytes(350 * MIB, 20 * MIB, reserve, 16 * MIB), 16 * MIB); // hash_size
    // Nothing left: one bucket, never a negative size.
    EXPECT_EQ(planTableBytes(10 * MIB, 20 * MIB, reserve, 0), TranspositionTable::BUCKET_BYTES);
}

} // namespace
