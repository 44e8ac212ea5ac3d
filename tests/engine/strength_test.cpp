// INFO strength: the playing levels search less the weaker they are, draw their move among
// the good root moves reproducibly from a seed, and never randomise a forced move.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "moku/engine/engine.h"
#include "moku/engine/strength.h"
#include "moku/game/pattern.h"

using namespace moku;
using namespace moku::engine;

namespace {

constexpr int STRENGTHS[] = {0, 19, 20, 40, 60, 80, 99};

void playAll(Engine& e, const std::vector<Pos>& moves) {
    for (Pos p : moves) e.play(p);
}

// A fresh engine at `strength` with a fixed seed and a node limit, the clock out of the way.
void setUp(Engine& e, int strength, uint64_t seed, uint64_t maxNodes) {
    e.options().strength = strength;
    e.options().seed = seed;
    e.options().maxNodes = maxNodes;
    e.options().time.turnTimeMs = 60000;
    e.options().hashKiB = 16 * 1024;
}

// A quiet middle game, black to move.
const std::vector<Pos> MIDDLE = {Pos(7, 7), Pos(8, 8), Pos(8, 7), Pos(6, 7),
                                 Pos(7, 8), Pos(7, 6), Pos(9, 9), Pos(6, 8)};

TEST(StrengthLevels, MappingIsGradedAndFullAtHundred) {
    EXPECT_TRUE(playingLevel(100).full());
    EXPECT_TRUE(playingLevel(250).full());
    EXPECT_EQ(playingLevel(-5).level, 1);
    EXPECT_EQ(playingLevel(0).level, 1);
    EXPECT_EQ(playingLevel(19).level, 1);
    EXPECT_EQ(playingLevel(20).level, 2);
    EXPECT_EQ(playingLevel(99).level, 5);
    auto depth = [](const PlayingLevel& l) { return l.maxDepth ? l.maxDepth : 1000; };
    for (int s = 20; s < 100; s += 20) {
        PlayingLevel lo = playingLevel(s - 20), hi = playingLevel(s);
        EXPECT_EQ(hi.level, lo.level + 1);
        EXPECT_GT(depth(hi), depth(lo));
        EXPECT_GT(hi.maxNodes, lo.maxNodes);
        EXPECT_LT(hi.margin, lo.margin);
        EXPECT_LT(hi.temperature, lo.temperature);
        EXPECT_GT(lo.multiPV, 1);
    }
}

TEST(StrengthLevels, PickStaysWithinTheMarginAndIsReproducible) {
    PlayingLevel weak = playingLevel(0);
    std::vector<std::pair<Pos, Value>> ranked = {{Pos(1, 1), 100},
                                                 {Pos(2, 2), 90},
                                                 {Pos(3, 3), Value(100 - weak.margin + 1)},
                                                 {Pos(4, 4), Value(100 - weak.margin - 1)},
                                                 {Pos(5, 5), matedIn(6)}};
    std::set<int> seen;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        Pos p = pickMove(ranked, weak, seed);
        EXPECT_EQ(p, pickMove(ranked, weak, seed));
        EXPECT_TRUE(p == Pos(1, 1) || p == Pos(2, 2) || p == Pos(3, 3));
        seen.insert(p.idx);
    }
    EXPECT_EQ(seen.size(), 3u); // all three candidates come up
    // Forced or decided: the best.
    EXPECT_EQ(pickMove({{Pos(2, 2), 40}}, weak, 7), Pos(2, 2));
    EXPECT_EQ(pickMove({{Pos(2, 2), mateIn(5)}, {Pos(3, 3), 4000}}, weak, 7), Pos(2, 2));
    EXPECT_EQ(pickMove({{Pos(2, 2), matedIn(8)}, {Pos(3, 3), matedIn(4)}}, weak, 7), Pos(2, 2));
    for (uint64_t seed = 1; seed <= 50; seed++)
        EXPECT_EQ(pickMove(ranked, playingLevel(100), seed), Pos(1, 1));
    EXPECT_EQ(pickMove({}, weak, 1), POS_NONE);
}

// With the same node budget, each level searches no more than the next one up, and the weakest
// far less than full strength.
TEST(StrengthLevels, WeakerLevelsSearchLess) {
    constexpr uint64_t BUDGET = 60000;
    std::vector<uint64_t> nodes;
    std::vector<int> depths;
    for (int strength : {0, 20, 40, 60, 80, 100}) {
        Engine e;
        setUp(e, strength, 1, BUDGET);
        playAll(e, MIDDLE);
        search::SearchResult r = e.analyse(1);
        EXPECT_TRUE(e.isEmptyCell(r.bestMove));
        nodes.push_back(r.nodes);
        depths.push_back(r.depth);
    }
    for (size_t i = 1; i < nodes.size(); i++) {
        SCOPED_TRACE("level " + std::to_string(i + 1));
        EXPECT_LE(nodes[i - 1], nodes[i]);
        EXPECT_LE(depths[i - 1], depths[i]);
    }
    EXPECT_LT(nodes.front() * 10, nodes.back());
    EXPECT_LT(depths.front(), depths.back());
}

// The levels search with one thread whatever thread_num says, so they do not change with it.
TEST(StrengthLevels, OneSearchThread) {
    for (int strength : {10, 70}) {
        std::vector<search::SearchResult> results;
        for (int threads : {1, 2}) {
            Engine e;
            setUp(e, strength, 5, 0);
            e.options().threads = threads;
            playAll(e, MIDDLE);
            results.push_back(e.analyse(1));
        }
        EXPECT_EQ(results[0].bestMove, results[1].bestMove);
        EXPECT_EQ(results[0].nodes, results[1].nodes);
        EXPECT_EQ(results[0].depth, results[1].depth);
    }
}

// The same seed replays the same game; other seeds vary it.
TEST(StrengthLevels, SeededPerGame) {
    auto game = [](int strength, uint64_t seed) {
        Engine e;
        setUp(e, strength, seed, 3000);
        playAll(e, MIDDLE);
        std::vector<int> moves;
        for (int i = 0; i < 6 && e.board().winner() == EMPTY; i++)
            moves.push_back(e.thinkAndPlay().bestMove.idx);
        return moves;
    };
    EXPECT_EQ(game(10, 42), game(10, 42));
    std::set<std::vector<int>> games;
    for (uint64_t seed = 1; seed <= 6; seed++) games.insert(game(10, seed));
    EXPECT_GT(games.size(), 1u);
    // Full strength draws nothing: the seed does not matter.
    EXPECT_EQ(game(100, 1), game(100, 2));
}

// Forced moves are never randomised, at any level and seed.
TEST(StrengthLevels, ForcedMovesAreKept) {
    for (int strength : STRENGTHS)
        for (uint64_t seed = 1; seed <= 6; seed++) {
            SCOPED_TRACE("strength " + std::to_string(strength) + " seed " + std::to_string(seed));
            // Black has an open four and white one too: black takes its five.
            {
                Engine e;
                setUp(e, strength, seed, 20000);
                playAll(e, {Pos(7, 7), Pos(2, 2), Pos(8, 7), Pos(3, 3), Pos(9, 7), Pos(4, 4),
                            Pos(10, 7), Pos(5, 5)});
                e.thinkAndPlay();
                EXPECT_EQ(e.board().winner(), BLACK);
            }
            // Black threatens five at 11,7: white blocks.
            {
                Engine e;
                setUp(e, strength, seed, 20000);
                playAll(e, {Pos(7, 7), Pos(6, 7), Pos(8, 7), Pos(7, 9), Pos(9, 7), Pos(12, 12),
                            Pos(10, 7)});
                EXPECT_EQ(e.analyse(1).bestMove, Pos(11, 7));
            }
            // Black's open three 7..9,7: white stops the open four.
            {
                Engine e;
                setUp(e, strength, seed, 20000);
                playAll(e, {Pos(7, 7), Pos(7, 9), Pos(8, 7), Pos(12, 12), Pos(9, 7)});
                ASSERT_GT(e.board().p4Count(BLACK, game::B_FLEX4), 0);
                e.thinkAndPlay();
                EXPECT_EQ(e.board().p4Count(BLACK, game::B_FLEX4), 0);
            }
        }
}

} // namespace
