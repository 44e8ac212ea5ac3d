#include <gtest/gtest.h>

#include <algorithm>

#include "game/renju_reference.h"
#include "moku/search/vcf.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;
using namespace moku::search;

namespace {

Color colorOf(const std::string& s) { return s == "black" ? BLACK : WHITE; }

// Would c, on the empty cell p, make a winning row? Counted on the stones alone, not on the
// board's patterns: five or more in freestyle and for renju white, exactly five in standard
// and for renju black (no puzzle is caro).
bool winsAt(const Board& b, Pos p, Color c) {
    bool exact = b.rule() == Rule::STANDARD || (b.rule() == Rule::RENJU && c == BLACK);
    for (int d = 0; d < DIR_NB; d++) {
        int n = 1;
        for (int s : {1, -1}) {
            Pos q = p + s * DIRECTION[d];
            for (; b.onBoard(q) && b.piece(q) == c; q = q + s * DIRECTION[d]) n++;
        }
        if (exact ? n == 5 : n >= 5) return true;
    }
    return false;
}

std::vector<Pos> winningPoints(const Board& b, Color c) {
    std::vector<Pos> out;
    for (Pos p : b.emptyCells())
        if (winsAt(b, p, c)) out.push_back(p);
    return out;
}

// Renju: is black forbidden on p, by the engine and by the RIF reference checker? (The two
// must agree.)
bool blackForbidden(Board& b, Pos p) {
    test::rif::Grid g(test::diagramOf(b));
    bool forbidden = b.isForbidden(p);
    EXPECT_EQ(forbidden, test::rif::forbidden(g, p.x(), p.y())) << posToString(p) << "\n"
                                                                << b.toString();
    return forbidden;
}

// Replays a VCF line as a proof: every attacker move before the last makes a four (a winning
// point) and leaves the defender no five of its own, every defender move takes one of the
// attacker's winning points, no black move is forbidden, and the line ends in the attacker's
// five, or (renju, white attacking) in a four that black can block only on forbidden points.
// `fours`, if given, receives the number of fours in the line.
void expectWinningLine(Board b, const std::vector<Pos>& line, const std::string& id,
                       int* fours = nullptr) {
    int count = 0;
    if (fours) *fours = 0;
    ASSERT_FALSE(line.empty()) << id;
    ASSERT_TRUE(b.rule() == Rule::FREESTYLE || b.rule() == Rule::STANDARD ||
                b.rule() == Rule::RENJU);
    const Color attacker = b.sideToMove(), defender = ~attacker;
    for (size_t i = 0; i < line.size(); i++) {
        const Pos p = line[i];
        const std::string at = id + " move " + std::to_string(i) + " " + posToString(p);
        ASSERT_TRUE(b.isEmpty(p)) << at;
        if (b.rule() == Rule::RENJU && b.sideToMove() == BLACK) {
            ASSERT_FALSE(blackForbidden(b, p)) << at << ": forbidden for black";
        }
        if (b.sideToMove() == attacker) {
            bool five = winsAt(b, p, attacker);
            b.move(p);
            if (five) {
                EXPECT_EQ(i + 1, line.size()) << at << ": the line goes on after the five";
                EXPECT_EQ(b.winner(), attacker) << at;
                return;
            }
            ASSERT_FALSE(winningPoints(b, attacker).empty()) << at << ": not a four";
            ASSERT_TRUE(winningPoints(b, defender).empty()) << at << ": the defender can make five";
            if (fours) *fours = ++count;
        } else {
            std::vector<Pos> fivePoints = winningPoints(b, attacker);
            ASSERT_TRUE(std::find(fivePoints.begin(), fivePoints.end(), p) != fivePoints.end())
                << at << ": the defender's move blocks no five";
            b.move(p);
        }
    }
    // No five at the end: the defender is black under renju and every block is forbidden.
    ASSERT_EQ(b.sideToMove(), defender) << id << ": the line ends on a defender's move";
    ASSERT_TRUE(b.rule() == Rule::RENJU && defender == BLACK)
        << id << ": the line ends without a five";
    for (Pos q : winningPoints(b, attacker))
        EXPECT_TRUE(blackForbidden(b, q)) << id << ": black can block at " << posToString(q);
}

} // namespace

// The project's own puzzles from random games (tests/data/vcf_moku.jsonl): the solver wins,
// also within the stored number of fours and not within one fewer, and both lines replay.
TEST(Vcf, SolvesOwnPuzzles) {
    int renjuBlack = 0, renjuWhite = 0, others = 0, deep = 0;
    for (const Json& c : test::readJsonLines("vcf_moku.jsonl")) {
        const std::string id = c["id"].asString();
        Rule rule = *ruleFromName(c["rule"].asString());
        Board b = test::boardFromDiagram(c["board"], rule, colorOf(c["to_move"].asString()));
        ASSERT_TRUE(winningPoints(b, BLACK).empty() && winningPoints(b, WHITE).empty())
            << id << ": a five can be made at once";
        VcfResult r = solveVcf(b);
        ASSERT_TRUE(r.win) << id;
        expectWinningLine(b, r.line, id);
        int fours = int(c["fours"].asInt()), replayed = 0;
        VcfResult shortest = solveVcf(b, fours);
        ASSERT_TRUE(shortest.win) << id << " within " << fours << " fours";
        expectWinningLine(b, shortest.line, id + " (shortest)", &replayed);
        EXPECT_EQ(replayed, fours) << id;
        EXPECT_FALSE(solveVcf(b, fours - 1).win) << id << " within " << fours - 1 << " fours";
        int& tally = rule != Rule::RENJU       ? others
                     : b.sideToMove() == BLACK ? renjuBlack
                                               : renjuWhite;
        tally++;
        deep += fours >= 5;
    }
    EXPECT_GE(renjuBlack + renjuWhite, 10);
    EXPECT_GE(renjuBlack, 3);
    EXPECT_GE(renjuWhite, 3);
    EXPECT_GE(others, 4);
    EXPECT_GE(deep, 10);
}

TEST(Vcf, SolvesQuintetVcfPuzzles) {
    int solved = 0;
    for (const Json& c : test::readJsonLines("mate_quintet.jsonl")) {
        if (c["kind"].asString() != "VCF") continue;
        std::string id = c["id"].asString();
        Board b =
            test::boardFromDiagram(c["board"], Rule::RENJU, colorOf(c["attacker"].asString()));
        VcfResult r = solveVcf(b);
        ASSERT_TRUE(r.win) << id;
        expectWinningLine(b, r.line, id);
        solved++;
    }
    EXPECT_EQ(solved, 5);
}

TEST(Vcf, NoVcfWithoutFours) {
    Board b(15, 15, Rule::FREESTYLE);
    b.move(Pos(7, 7));
    b.move(Pos(8, 8));
    b.move(Pos(7, 8));
    EXPECT_FALSE(solveVcf(b).win);
}

TEST(Vcf, SimpleFreestyleVcf) {
    // Two broken threes crossing: a four, the forced block, then a four-four or four-three.
    Board b(15, 15, Rule::FREESTYLE);
    for (auto [x, y] : {std::pair{5, 5}, {6, 5}, {7, 5}, {9, 7}, {9, 8}, {9, 9}})
        b.move(Pos(x, y), BLACK);
    for (auto [x, y] : {std::pair{4, 5}, {0, 0}, {0, 2}, {0, 4}, {0, 6}, {0, 8}})
        b.move(Pos(x, y), WHITE);
    ASSERT_EQ(b.sideToMove(), BLACK);
    VcfResult r = solveVcf(b);
    ASSERT_TRUE(r.win);
    expectWinningLine(b, r.line, "simple");
}
