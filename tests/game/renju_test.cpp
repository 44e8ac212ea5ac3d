// The renju forbidden-point test, Board::isForbidden, against the RIF reference checker of
// renju_reference.h, written from the definitions alone, on random games.
#include <gtest/gtest.h>

#include <random>

#include "game/renju_reference.h"
#include "moku/game/board.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;

// Every empty cell of positions from random renju games, every tenth ply.
TEST(Renju, ForbiddenMatchesReferenceOnRandomGames) {
    std::mt19937_64 rng(2024);
    int positions = 0, forbiddenSeen = 0;
    for (int game = 0; game < 200; game++) {
        Board b(15, 15, Rule::RENJU);
        int length = 30 + int(rng() % 60);
        for (int plies = 10; plies <= length; plies += 10) {
            if (!test::playRandomly(b, rng, plies)) break;
            test::rif::Grid g(test::diagramOf(b));
            for (Pos p : b.emptyCells()) {
                bool engine = b.isForbidden(p);
                ASSERT_EQ(engine, test::rif::forbidden(g, p.x(), p.y()))
                    << "game " << game << " ply " << b.ply() << " at " << posToString(p) << "\n"
                    << b.toString();
                forbiddenSeen += engine;
            }
            positions++;
        }
    }
    EXPECT_GT(positions, 1000);
    EXPECT_GT(forbiddenSeen, 500);
}
