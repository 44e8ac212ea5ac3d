#include <gtest/gtest.h>

#include "moku/search/timeman.h"
#include "moku/search/tt.h"

using namespace moku;
using namespace moku::search;

TEST(TranspositionTable, StoreProbeAndReplace) {
    TranspositionTable tt(1 << 16);
    EXPECT_EQ(tt.sizeBytes(), size_t(1) << 16);
    TTData d;
    EXPECT_FALSE(tt.probe(12345, d));
    tt.store(12345, Pos(3, 4), -250, 17, 6.5f, BOUND_LOWER, true);
    ASSERT_TRUE(tt.probe(12345, d));
    EXPECT_EQ(d.move, Pos(3, 4));
    EXPECT_EQ(d.value, -250);
    EXPECT_EQ(d.eval, 17);
    EXPECT_EQ(d.depth, 6.5f);
    EXPECT_EQ(d.bound, BOUND_LOWER);
    EXPECT_TRUE(d.pv);
    // Same key, no move: the old move is kept.
    tt.store(12345, POS_NONE, mateIn(5), 0, 7, BOUND_EXACT, false);
    ASSERT_TRUE(tt.probe(12345, d));
    EXPECT_EQ(d.move, Pos(3, 4));
    EXPECT_EQ(d.value, mateIn(5));
    EXPECT_EQ(d.bound, BOUND_EXACT);

    // Fill one bucket (same low bits) beyond its four entries: the shallowest goes.
    size_t buckets = tt.sizeBytes() / TranspositionTable::BUCKET_BYTES;
    uint64_t base = 7;
    for (int i = 0; i < 4; i++)
        tt.store(base + (uint64_t(i + 1) * buckets << 8), Pos(i, 0), i, 0, 10 + i, BOUND_EXACT,
                 false);
    uint64_t shallow = base + (uint64_t(1) * buckets << 8);
    ASSERT_TRUE(tt.probe(shallow, d));
    tt.store(base + (uint64_t(9) * buckets << 8), Pos(9, 9), 9, 0, 20, BOUND_EXACT, false);
    EXPECT_FALSE(tt.probe(shallow, d));
    EXPECT_TRUE(tt.probe(base + (uint64_t(9) * buckets << 8), d));
    EXPECT_TRUE(tt.probe(base + (uint64_t(4) * buckets << 8), d));
    // Entries of an old search are replaced before deeper fresh ones.
    tt.newSearch();
    tt.newSearch();
    tt.store(base + (uint64_t(11) * buckets << 8), Pos(1, 1), 0, 0, 1, BOUND_UPPER, false);
    EXPECT_TRUE(tt.probe(base + (uint64_t(11) * buckets << 8), d));
    tt.clear();
    EXPECT_FALSE(tt.probe(12345, d));
}

// Making the pages resident keeps whatever a search stored before (a first search may run
// before the idle time that finishes them), and stops and goes on where it is told.
TEST(TranspositionTable, MakeResidentKeepsEntriesAndResumes) {
    TranspositionTable tt(size_t(4) << 20);
    size_t buckets = tt.sizeBytes() / TranspositionTable::BUCKET_BYTES;
    // One entry at the start of every bucket (each page's first bytes among them).
    auto keyOf = [](size_t bucket) { return uint64_t(bucket) | 0xA5C3000000000000ull; };
    for (size_t b = 0; b < buckets; b++)
        tt.store(keyOf(b), Pos(int(b % 15), 0), Value(b % 500), 3, 4, BOUND_EXACT, false);
    int calls = 0;
    EXPECT_FALSE(tt.makeResident([&] { return ++calls > 2; })); // two 1 MiB slices, then stop
    EXPECT_TRUE(tt.makeResident([] { return false; }));         // the other two
    EXPECT_TRUE(tt.makeResident([] { return true; }));          // nothing left to do
    TTData d;
    for (size_t b = 0; b < buckets; b++) {
        ASSERT_TRUE(tt.probe(keyOf(b), d)) << "bucket " << b;
        EXPECT_EQ(d.value, Value(b % 500));
    }
}

TEST(TimeManager, Budgets) {
    TimeControl tc;
    tc.turnTimeMs = 0;
    EXPECT_EQ(computeBudget(tc, 200).maximumMs, 0);
    tc.turnTimeMs = 1000;
    TimeBudget b = computeBudget(tc, 200);
    EXPECT_LE(b.maximumMs, 1000 - 30 - 50);
    EXPECT_LE(b.optimumMs, b.maximumMs);
    EXPECT_GT(b.optimumMs, 100);
    tc.matchTimeMs = 100000;
    tc.timeLeftMs = 2000;
    b = computeBudget(tc, 200);
    EXPECT_LE(b.maximumMs, 2000 - 30);
    EXPECT_LE(b.optimumMs, 2000 / 10);
    tc.timeLeftMs = -100;
    EXPECT_EQ(computeBudget(tc, 200).maximumMs, 0);
    tc.turnTimeMs = 2147483647;
    tc.matchTimeMs = 0;
    tc.timeLeftMs = 2147483647;
    EXPECT_FALSE(computeBudget(tc, 200).limited);
}

// Under a turn limit alone the search aims at about 90 % of the turn (time not spent is lost);
// under a match clock it keeps time for later moves and spends each move's increment.
TEST(TimeManager, TurnLimitIsUsedAndIncrementIsSpent) {
    for (int64_t turn : {500, 1000, 5000, 30000}) {
        TimeControl tc;
        tc.turnTimeMs = turn;
        TimeBudget b = computeBudget(tc, 200);
        EXPECT_FALSE(b.saveTime);
        EXPECT_EQ(b.optimumMs, b.maximumMs);
        EXPECT_GE(b.maximumMs, turn * 85 / 100 - 30) << turn;
        EXPECT_LE(b.maximumMs, turn - 30) << turn;
    }
    TimeControl tc;
    tc.turnTimeMs = 10000;
    tc.matchTimeMs = 60000;
    tc.timeLeftMs = 20000;
    TimeBudget plain = computeBudget(tc, 150);
    EXPECT_TRUE(plain.saveTime);
    tc.incrementMs = 1000;
    TimeBudget inc = computeBudget(tc, 150);
    EXPECT_GE(inc.optimumMs, plain.optimumMs + 800);
    EXPECT_LE(inc.maximumMs, 20000 - 30);
    // The increment never lets a move take more than what is left.
    tc.timeLeftMs = 300;
    tc.incrementMs = 5000;
    EXPECT_LE(computeBudget(tc, 150).maximumMs, 300 - 30);
}
