#include <gtest/gtest.h>

#include <random>

#include "game/renju_reference.h"
#include "moku/game/board.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;

namespace {

struct GameCase {
    Rule rule;
    int width, height;
};

class RandomGames : public ::testing::TestWithParam<GameCase> {};

// Random games with random take-backs: after every move and undo the incremental state must
// equal a recompute from the stones.
TEST_P(RandomGames, IncrementalStateMatchesRecompute) {
    const GameCase gc = GetParam();
    std::mt19937_64 rng(1234 + int(gc.rule) * 100 + gc.width * 7 + gc.height);
    Board b(gc.width, gc.height, gc.rule);
    const int games = 200;
    int steps = 0;
    for (int g = 0; g < games; g++) {
        int length = 10 + int(rng() % (gc.width * gc.height / 2));
        while (b.ply() < length && !b.full()) {
            // Mostly near stones (realistic shapes), sometimes anywhere, sometimes a pass.
            std::vector<Pos> pool = rng() % 8 ? b.candidates() : b.emptyCells();
            if (pool.empty()) pool = b.emptyCells();
            Pos p = rng() % 50 == 0 ? POS_PASS : pool[rng() % pool.size()];
            uint64_t before = b.hash();
            b.move(p);
            if (rng() % 5 == 0) {
                b.undo();
                ASSERT_EQ(b.hash(), before);
            }
            if (++steps % 3 == 0 || g < 5) {
                std::string err = b.checkConsistency();
                ASSERT_TRUE(err.empty()) << err << b.toString();
            }
        }
        while (b.ply() > 0) {
            b.undo();
            if (rng() % 4 == 0) {
                std::string err = b.checkConsistency();
                ASSERT_TRUE(err.empty()) << err << b.toString();
            }
        }
        ASSERT_EQ(b.hash(), 0u);
        ASSERT_EQ(b.stoneCount(), 0);
    }
    EXPECT_TRUE(b.checkConsistency().empty());
}

std::vector<GameCase> gameCases() {
    std::vector<GameCase> out;
    for (int r = 0; r < RULE_NB; r++) {
        out.push_back({Rule(r), 15, 15});
        out.push_back({Rule(r), 20, 20});
    }
    out.push_back({Rule::FREESTYLE, 5, 5});
    out.push_back({Rule::RENJU, 22, 22});
    out.push_back({Rule::STANDARD, 9, 17});
    out.push_back({Rule::CARO8, 22, 6});
    return out;
}

INSTANTIATE_TEST_SUITE_P(Board, RandomGames, ::testing::ValuesIn(gameCases()),
                         [](const auto& info) {
                             return std::string(ruleName(info.param.rule)) + "_" +
                                    std::to_string(info.param.width) + "x" +
                                    std::to_string(info.param.height);
                         });

// A cell score table of random values, so that the board's score sums are checked too.
CellScoreTable randomScoreTable(std::mt19937_64& rng) {
    CellScoreTable t;
    for (auto& side : t.score)
        for (auto& row : side)
            for (int16_t& v : row) v = int16_t(int(rng() % 1001) - 500);
    return t;
}

// What differs between two boards cell by cell (line patterns included, also the stale ones an
// occupied cell keeps from when its stone was placed) and in the board-wide state; empty when
// they agree.
std::string differences(const Board& a, const Board& b) {
    std::string err;
    for (int y = 0; y < a.height(); y++)
        for (int x = 0; x < a.width(); x++) {
            Pos p(x, y);
            const Cell &ca = a.cell(p), &cb = b.cell(p);
            bool same = ca.piece == cb.piece && ca.candidates == cb.candidates;
            for (int s = 0; s < COLOR_NB; s++) {
                same = same && ca.p4[s] == cb.p4[s] && ca.pcode[s] == cb.pcode[s];
                for (int d = 0; d < DIR_NB; d++)
                    same = same && ca.pattern[s][d] == cb.pattern[s][d];
            }
            if (!same) err += "cell " + posToString(p) + "\n";
        }
    for (int s = 0; s < COLOR_NB; s++) {
        for (int k = 0; k < PATTERN4_NB; k++)
            if (a.p4Count(Color(s), Pattern4(k)) != b.p4Count(Color(s), Pattern4(k)))
                err += "Pattern4 count " + std::string(pattern4Name(Pattern4(k))) + "\n";
        for (int i = 0; i < 2; i++)
            if (a.scoreSum(Color(s), i) != b.scoreSum(Color(s), i)) err += "score sum\n";
    }
    if (a.hash() != b.hash() || a.sideToMove() != b.sideToMove() || a.winner() != b.winner() ||
        a.stoneCount() != b.stoneCount() || a.moves() != b.moves())
        err += "hash, side, winner or moves\n";
    return err;
}

// The board rebuilt from scratch: a new board, the same table, the same moves.
Board rebuilt(const Board& b, CandidateRange range) {
    Board r(b.width(), b.height(), b.rule(), range);
    r.setScoreTable(b.scoreTable());
    for (Pos p : b.moves()) r.move(p);
    return r;
}

struct UndoCase {
    Rule rule;
    int size;
    CandidateRange range;
};

class UndoLog : public ::testing::TestWithParam<UndoCase> {};

// Thousands of random moves (passes among them) and take-backs, the score table attached at a
// random point of each game and renju forbidden-point tests in between (they place and remove
// stones too): after every step the board must equal the same moves replayed on a new board.
TEST_P(UndoLog, UndoRestoresWhatAReplayBuilds) {
    const UndoCase uc = GetParam();
    std::mt19937_64 rng(99 + int(uc.rule) * 10 + uc.size);
    CellScoreTable table = randomScoreTable(rng);
    Board b(uc.size, uc.size, uc.rule, uc.range);
    int steps = 0;
    for (int game = 0; game < 12; game++) {
        int attachAt = int(rng() % 40);
        int length = 20 + int(rng() % (uc.size * uc.size / 2));
        for (int step = 0; step < 2 * length && !b.full(); step++) {
            if (step == attachAt) b.setScoreTable(&table);
            if (b.ply() > 0 && (b.ply() >= length || rng() % 3 == 0)) {
                b.undo();
            } else {
                std::vector<Pos> pool = rng() % 8 ? b.candidates() : b.emptyCells();
                if (pool.empty()) pool = b.emptyCells();
                b.move(rng() % 40 == 0 ? POS_PASS : pool[rng() % pool.size()]);
            }
            if (uc.rule == Rule::RENJU)
                for (Pos p : b.emptyCells())
                    if (b.p4(p, BLACK) == FORBID) b.isForbidden(p);
            std::string err = differences(b, rebuilt(b, uc.range));
            ASSERT_TRUE(err.empty()) << err << b.toString();
            steps++;
        }
        while (b.ply() > 0) b.undo();
        b.setScoreTable(nullptr);
        ASSERT_EQ(differences(b, Board(uc.size, uc.size, uc.rule, uc.range)), "");
    }
    EXPECT_GT(steps, 1000);
}

INSTANTIATE_TEST_SUITE_P(
    Board, UndoLog,
    ::testing::Values(UndoCase{Rule::FREESTYLE, 15, {}}, UndoCase{Rule::STANDARD, 15, {2, 3}},
                      UndoCase{Rule::RENJU, 15, {}}, UndoCase{Rule::RENJU, 20, {2, 3}},
                      UndoCase{Rule::CARO8, 15, {2, 3}}, UndoCase{Rule::CARO9, 20, {}}),
    [](const auto& info) {
        return std::string(ruleName(info.param.rule)) + "_" + std::to_string(info.param.size) +
               "_range" + std::to_string(info.param.range.square);
    });

Rule ruleFromTestName(const std::string& name) {
    if (name == "caro5") return Rule::CARO9; // exactly five, not blocked at both ends
    if (name == "caro6") return Rule::CARO8; // five or more, exact five not blocked both ends
    auto r = ruleFromName(name);
    if (!r) throw std::runtime_error("unknown rule " + name);
    return *r;
}

} // namespace

TEST(Board, RejectsBadInput) {
    EXPECT_THROW(Board(4, 15, Rule::FREESTYLE), BoardError);
    EXPECT_THROW(Board(15, 23, Rule::FREESTYLE), BoardError);
    Board b(15, 15, Rule::FREESTYLE);
    b.move(Pos(7, 7));
    std::string before = b.toString();
    uint64_t hash = b.hash();
    EXPECT_THROW(b.move(Pos(7, 7)), BoardError);
    EXPECT_THROW(b.move(Pos(15, 3)), BoardError);
    EXPECT_THROW(b.move(Pos(-1, 3)), BoardError);
    EXPECT_THROW(b.move(Pos(3, 3), EMPTY), BoardError);
    EXPECT_EQ(b.toString(), before);
    EXPECT_EQ(b.hash(), hash);
    EXPECT_EQ(b.ply(), 1);
    EXPECT_TRUE(b.checkConsistency().empty());
    b.undo();
    EXPECT_THROW(b.undo(), BoardError);
    EXPECT_TRUE(b.checkConsistency().empty());
}

TEST(Board, SideToMoveAndPass) {
    Board b(15, 15, Rule::FREESTYLE);
    EXPECT_EQ(b.sideToMove(), BLACK);
    b.move(Pos(7, 7));
    EXPECT_EQ(b.sideToMove(), WHITE);
    EXPECT_EQ(b.piece(Pos(7, 7)), BLACK);
    uint64_t h = b.hash();
    b.move(POS_PASS);
    EXPECT_EQ(b.sideToMove(), BLACK);
    EXPECT_NE(b.hash(), h);
    b.undo();
    EXPECT_EQ(b.hash(), h);
    EXPECT_EQ(b.sideToMove(), WHITE);
}

TEST(Board, CandidatesFollowTheDefaultRange) {
    Board b(15, 15, Rule::FREESTYLE);
    EXPECT_TRUE(b.candidates().empty());
    b.move(Pos(7, 7));
    // 7x7 square minus the stone, plus 8 cells at distance 4 on the lines.
    EXPECT_EQ(b.candidates().size(), 48u + 8u);
    EXPECT_TRUE(b.isCandidate(Pos(11, 11)));
    EXPECT_FALSE(b.isCandidate(Pos(11, 10)));
    Board narrow(15, 15, Rule::FREESTYLE, CandidateRange{1, 2});
    narrow.move(Pos(7, 7));
    EXPECT_EQ(narrow.candidates().size(), 8u + 8u);
}

// The search scans only the stones' bounding box grown by five cells for Pattern4 threats
// (Worker::patternArea): a cell farther than that from every stone has none, under every rule.
TEST(Board, Pattern4NeedsAStoneWithinFiveCells) {
    std::mt19937_64 rng(5);
    int far = 0;
    for (int r = 0; r < RULE_NB; r++)
        for (int game = 0; game < 20; game++) {
            Board b(15, 15, Rule(r));
            int length = 1 + int(rng() % 40);
            while (b.ply() < length) {
                std::vector<Pos> pool = b.emptyCells();
                b.move(pool[rng() % pool.size()]);
            }
            for (Pos p : b.emptyCells()) {
                int nearest = 1 << 30;
                for (Pos s : b.moves())
                    nearest = std::min(nearest,
                                       std::max(std::abs(s.x() - p.x()), std::abs(s.y() - p.y())));
                if (nearest <= 5) continue;
                far++;
                ASSERT_EQ(b.p4(p, BLACK), NONE) << posToString(p) << "\n" << b.toString();
                ASSERT_EQ(b.p4(p, WHITE), NONE) << posToString(p) << "\n" << b.toString();
            }
        }
    EXPECT_GT(far, 1000);
}

TEST(Board, WinnerIsDetected) {
    Board b(15, 15, Rule::FREESTYLE);
    for (int i = 0; i < 4; i++) {
        b.move(Pos(3 + i, 3));
        b.move(Pos(3 + i, 9));
    }
    EXPECT_EQ(b.p4(Pos(7, 3), BLACK), A_FIVE);
    EXPECT_EQ(b.p4(Pos(2, 3), BLACK), A_FIVE);
    EXPECT_EQ(b.p4Count(BLACK, A_FIVE), 2);
    EXPECT_EQ(b.winner(), EMPTY);
    b.move(Pos(7, 3));
    EXPECT_EQ(b.winner(), BLACK);
    b.undo();
    EXPECT_EQ(b.winner(), EMPTY);
}

// AlphaGomoku's expert cases: forbidden verdicts (also on the RIF reference checker) and the
// outcome of single moves per rule.
TEST(Rules, AlphaGomokuChecks) {
    int forbiddenChecks = 0, outcomeChecks = 0;
    for (const Json& t : test::readJsonLines("rules_alphagomoku.jsonl")) {
        for (const Json& c : t["checks"].asArray()) {
            Pos q(int(c["query"][0].asInt()), int(c["query"][1].asInt()));
            Color stone = c["stone"].asString() == "black" ? BLACK : WHITE;
            std::string where = t["id"].asString() + " " + posToString(q);
            if (c.contains("expect_forbidden")) {
                Board b = test::boardFromDiagram(c["board"], Rule::RENJU);
                bool forbidden = stone == BLACK && b.isForbidden(q);
                EXPECT_EQ(forbidden, c["expect_forbidden"].asBool()) << where << "\n"
                                                                     << b.toString();
                test::rif::Grid g(test::rowsOf(c["board"]));
                EXPECT_EQ(stone == BLACK && test::rif::forbidden(g, q.x(), q.y()),
                          c["expect_forbidden"].asBool())
                    << "reference checker: " << where << "\n"
                    << b.toString();
                forbiddenChecks++;
            }
            if (c.contains("expect_outcome_after_move")) {
                Rule rule = ruleFromTestName(c["rule"].asString());
                Board b = test::boardFromDiagram(c["board"], rule);
                std::string expect = c["expect_outcome_after_move"].asString();
                Color winner = b.outcomeIfPlayed(q, stone);
                std::string got = winner == BLACK   ? "black_wins"
                                  : winner == WHITE ? "white_wins"
                                                    : "no_result";
                b.move(q, stone);
                EXPECT_EQ(b.winner(), winner == stone ? stone : EMPTY) << where;
                EXPECT_EQ(got, expect) << where << " rule " << c["rule"].asString() << "\n"
                                       << b.toString();
                outcomeChecks++;
            }
        }
    }
    EXPECT_EQ(forbiddenChecks, 59);
    EXPECT_EQ(outcomeChecks, 75);
}
