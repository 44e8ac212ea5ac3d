// The renju forbidden-point test, Board::isForbidden, against the RIF reference checker of
// renju_reference.h, written from the definitions alone: on the project's own forbidden maps
// (tests/data/renju_forbidden_moku.jsonl), on quintet's cases and on random games.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "game/renju_reference.h"
#include "moku/game/board.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;

namespace {

std::string where(const std::string& id, Pos p, const Board& b) {
    return id + " at " + posToString(p) + "\n" + b.toString();
}

// The points a case lists, by cell index: [x, y, ...] entries of `key`.
std::map<int, Json> listed(const Json& c, const std::string& key) {
    std::map<int, Json> out;
    if (c.contains(key))
        for (const Json& e : c[key].asArray())
            out[Pos(int(e[0].asInt()), int(e[1].asInt())).idx] = e;
    return out;
}

} // namespace

// Every empty cell of every board: the engine, the reference and the file agree on the verdict,
// the reference agrees with the kind and nesting the file gives, and the boards cover every
// kind of case.
TEST(Renju, OwnForbiddenMapsMatchBothCheckers) {
    std::map<std::string, int> kinds; // by the reference's analysis
    int boards = 0, forbiddenPoints = 0, doubleFourInOneLine = 0, nested = 0, recursive = 0;
    for (const Json& c : test::readJsonLines("renju_forbidden_moku.jsonl")) {
        const std::string id = c["id"].asString();
        Board b = test::boardFromDiagram(c["board"], Rule::RENJU);
        test::rif::Grid g(test::rowsOf(c["board"]));
        std::map<int, Json> forbidden = listed(c, "forbidden_all"),
                            notable = listed(c, "legal_notable");
        for (Pos p : b.emptyCells()) {
            bool expected = forbidden.count(p.idx) > 0;
            EXPECT_EQ(b.isForbidden(p), expected) << "engine: " << where(id, p, b);
            EXPECT_EQ(test::rif::forbidden(g, p.x(), p.y()), expected)
                << "reference: " << where(id, p, b);
            test::rif::Analysis a = test::rif::analyse(g, p.x(), p.y());
            EXPECT_EQ(a.forbidden, expected) << "reference analysis: " << where(id, p, b);
            const Json* entry = expected               ? &forbidden[p.idx]
                                : notable.count(p.idx) ? &notable[p.idx]
                                                       : nullptr;
            if (entry) {
                EXPECT_EQ(a.kind(), (*entry)[2].asString()) << where(id, p, b);
                EXPECT_EQ(a.nesting, (*entry)[3].asInt()) << where(id, p, b);
            } else {
                EXPECT_EQ(a.kind(), "legal") << "not listed as notable: " << where(id, p, b);
            }
            kinds[a.kind()]++;
            forbiddenPoints += a.forbidden;
            doubleFourInOneLine += a.forbidden && a.foursInOneLine >= 2;
            nested += a.nesting >= 1;
            recursive += a.nesting >= 2;
        }
        EXPECT_TRUE(b.checkConsistency().empty()) << id;
        boards++;
    }
    EXPECT_GE(boards, 12);
    EXPECT_GE(forbiddenPoints, 25);
    for (const char* kind :
         {"double_three", "double_four", "overline", "five_beats_forbidden", "false_double_three"})
        EXPECT_GE(kinds[kind], 2) << kind;
    EXPECT_GE(doubleFourInOneLine, 1);
    EXPECT_GE(nested, 5);    // a straight-four point of a three is itself forbidden
    EXPECT_GE(recursive, 2); // ... because a straight-four point of its own three is
}

// quintet's full map and single-point queries, on both checkers.
TEST(Renju, QuintetCasesMatchBothCheckers) {
    int boards = 0, points = 0;
    for (const Json& c : test::readJsonLines("renju_forbidden_quintet.jsonl")) {
        const std::string id = c["id"].asString();
        Board b = test::boardFromDiagram(c["board"], Rule::RENJU);
        test::rif::Grid g(test::rowsOf(c["board"]));
        std::map<int, Json> forbidden = listed(c, "forbidden_all"), queries = listed(c, "queries");
        std::vector<Pos> asked;
        if (c.contains("forbidden_all")) asked = b.emptyCells();
        for (auto& [idx, q] : queries) asked.push_back(Pos(idx));
        for (Pos p : asked) {
            bool expected = queries.count(p.idx) ? queries[p.idx][2].asString() != "legal"
                                                 : forbidden.count(p.idx) > 0;
            EXPECT_EQ(b.isForbidden(p), expected) << "engine: " << where(id, p, b);
            EXPECT_EQ(test::rif::forbidden(g, p.x(), p.y()), expected)
                << "reference: " << where(id, p, b);
            points++;
        }
        boards++;
    }
    EXPECT_EQ(boards, 21);
    EXPECT_GT(points, 200);
}

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
