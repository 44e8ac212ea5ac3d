#include <gtest/gtest.h>

#include "moku/search/vcf.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;
using namespace moku::search;

namespace {

Color colorOf(const std::string& s) { return s == "black" ? BLACK : WHITE; }

// Replays a VCF line: every attacker move is legal and makes a four or five, every defender
// move is legal, and the line ends in the attacker's five (or in a forced renju foul).
void expectWinningLine(Board b, const std::vector<Pos>& line, const std::string& id) {
    ASSERT_FALSE(line.empty()) << id;
    Color attacker = b.sideToMove();
    for (size_t i = 0; i < line.size(); i++) {
        Pos p = line[i];
        ASSERT_TRUE(b.isLegal(p)) << id << " move " << i << " " << posToString(p);
        bool five = b.isFive(p, b.sideToMove());
        if (b.sideToMove() == attacker && !five) {
            Pattern4 p4 = b.p4(p, attacker);
            bool four = p4 <= E_BLOCK4;
            for (int d = 0; d < DIR_NB && !four; d++) {
                Pattern pt = b.cell(p).pattern[attacker][d];
                four = pt == F4 || pt == B4 || pt == B4S;
            }
            ASSERT_TRUE(four) << id << " attacker move " << i << " is not a four";
        }
        b.move(p);
        if (i + 1 == line.size()) {
            if (b.winner() == attacker) return;
            // The defender (renju black) cannot block the last four without a foul.
            ASSERT_EQ(attacker, WHITE) << id;
            bool blocked = false;
            for (Pos q : b.emptyCells())
                if (b.isFive(q, attacker) && b.isLegal(q)) blocked = true;
            EXPECT_FALSE(blocked) << id << " line does not end in a five";
        }
    }
}

} // namespace

TEST(Vcf, SolvesMintakaPuzzles) {
    for (const Json& c : test::readJsonLines("testdata/vcf_mintaka.jsonl")) {
        std::string id = c["id"].asString();
        Board b = test::boardFromDiagram(c["board"], Rule::RENJU, colorOf(c["to_move"].asString()));
        VcfResult r = solveVcf(b);
        ASSERT_TRUE(r.win) << id;
        expectWinningLine(b, r.line, id);
    }
}

TEST(Vcf, SolvesQuintetVcfPuzzles) {
    int solved = 0;
    for (const Json& c : test::readJsonLines("testdata/mate_quintet.jsonl")) {
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
