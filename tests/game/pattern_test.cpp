// The pattern tables against a naive classifier written separately from the same recursive
// definitions of the line patterns.
#include <gtest/gtest.h>

#include <string>
#include <unordered_map>

#include "moku/game/pattern.h"

using namespace moku;
using namespace moku::game;

namespace {

// Line as text: '.' empty, 'X' the side's stone, 'O' opponent, '#' off the board; index 5 is
// the cell classified (its content is ignored: the side's stone is imagined there).
class NaiveClassifier {
public:
    NaiveClassifier(Rule rule, Color side) : rule_(rule), side_(side) {}

    Pattern classify(std::string line) {
        line[5] = 'X';
        auto it = memo_.find(line);
        if (it != memo_.end()) return it->second;
        Pattern p = compute(line);
        memo_[line] = p;
        return p;
    }

private:
    Rule rule_;
    Color side_;
    std::unordered_map<std::string, Pattern> memo_;

    bool overlineForbidden() const {
        return rule_ == Rule::STANDARD || (rule_ == Rule::RENJU && side_ == BLACK);
    }

    bool wins(const std::string& line, int first, int last) const {
        int run = last - first + 1;
        bool blocked = first > 0 && last < 10 && line[first - 1] == 'O' && line[last + 1] == 'O';
        switch (rule_) {
        case Rule::FREESTYLE:
            return run >= 5;
        case Rule::STANDARD:
            return run == 5;
        case Rule::RENJU:
            return side_ == BLACK ? run == 5 : run >= 5;
        case Rule::CARO8:
            return run >= 6 || (run == 5 && !blocked);
        case Rule::CARO9:
            return run == 5 && !blocked;
        }
        return false;
    }

    Pattern compute(const std::string& line) {
        int first = 5, last = 5;
        while (first - 1 >= 0 && line[first - 1] == 'X') --first;
        while (last + 1 <= 10 && line[last + 1] == 'X') ++last;
        if (overlineForbidden() && last - first + 1 >= 6) return OL;
        if (wins(line, first, last)) return F5;
        int open = 1;
        for (int i = 4; i >= 0 && (line[i] == 'X' || line[i] == '.'); --i) ++open;
        for (int i = 6; i <= 10 && (line[i] == 'X' || line[i] == '.'); ++i) ++open;
        if (open < 5) return DEAD;

        std::vector<int> fivePoints;
        int nF4 = 0, nB4 = 0, nB4S = 0, nThree = 0, nB3 = 0, nF2 = 0, nB2 = 0;
        for (int e = 0; e <= 10; e++) {
            if (e == 5 || line[e] != '.') continue;
            std::string next = line;
            next[e] = 'X';
            Pattern r = classify(next);
            if (r == F5) fivePoints.push_back(e);
            nF4 += r == F4;
            nB4 += r == B4;
            nB4S += r == B4S;
            nThree += r == F3 || r == F3S;
            nB3 += r == B3 || r == B3S;
            nF2 += r == F2 || r == F2A || r == F2B;
            nB2 += r == B2;
        }
        if (fivePoints.size() >= 2) {
            if (rule_ == Rule::RENJU && side_ == BLACK) {
                // An open four: exactly two five-points with four own stones between them.
                bool open4 =
                    fivePoints.size() == 2 &&
                    line.substr(fivePoints[0] + 1, fivePoints[1] - fivePoints[0] - 1) == "XXXX";
                if (!open4) return OL;
            }
            return F4;
        }
        if (fivePoints.size() == 1) {
            std::string blocked = line;
            blocked[fivePoints[0]] = 'O';
            Pattern r = classify(blocked);
            return r >= B3 ? B4S : B4;
        }
        if (nF4 >= 2) return F3S;
        if (nF4 == 1) return F3;
        if (nB4S) return B3S;
        if (nB4) return B3;
        if (nThree >= 4) return F2B;
        if (nThree == 3) return F2A;
        if (nThree >= 1) return F2;
        if (nB3) return B2;
        if (nF2) return F1;
        if (nB2) return B1;
        return DEAD;
    }
};

} // namespace

class PatternTableTest : public ::testing::TestWithParam<int> {};

// Every window with off-board cells only at the ends (as on a real board): the table equals
// the naive classifier, for both colours.
TEST_P(PatternTableTest, TablesMatchNaiveClassifier) {
    Rule rule = Rule(GetParam());
    const PatternTables& t = patternTables(rule);
    for (int s = 0; s < COLOR_NB; s++) {
        Color side = Color(s);
        NaiveClassifier naive(rule, side);
        int checked = 0, wrong = 0;
        for (int wl = 0; wl <= 5; wl++)
            for (int wr = 0; wr <= 5; wr++) {
                int free = 10 - wl - wr;
                int combos = 1;
                for (int i = 0; i < free; i++) combos *= 3;
                for (int m = 0; m < combos; m++) {
                    std::string line(11, '#');
                    int v = m;
                    for (int i = wl; i <= 10 - wr; i++) {
                        if (i == 5) {
                            line[i] = '.';
                            continue;
                        }
                        line[i] = ".XO"[v % 3];
                        v /= 3;
                    }
                    if (wl == 5 && wr == 5) line[5] = '.';
                    uint32_t key = 0;
                    for (int k = -5; k <= 5; k++) {
                        if (k == 0) continue;
                        char c = line[k + 5];
                        Color col = c == '#' ? WALL : c == '.' ? EMPTY : c == 'X' ? side : ~side;
                        key |= cellBits(col) << lineKeyShift(k);
                    }
                    Pattern expect = naive.classify(line);
                    Pattern got = t.linePattern(side, key);
                    checked++;
                    if (got != expect && ++wrong <= 10)
                        ADD_FAILURE()
                            << ruleName(rule) << " side " << s << " line " << line << ": table "
                            << patternName(got) << ", naive " << patternName(expect);
                }
            }
        EXPECT_EQ(wrong, 0);
        EXPECT_GT(checked, 100000);
    }
}

INSTANTIATE_TEST_SUITE_P(AllRules, PatternTableTest, ::testing::Range(0, RULE_NB));

TEST(Pattern, KnownShapes) {
    auto cls = [](Rule r, Color s, const char* text) {
        std::string line(text);
        std::array<uint8_t, 11> cells{};
        for (int i = 0; i < 11; i++)
            cells[i] = line[i] == 'X' ? 1 : line[i] == 'O' ? 2 : line[i] == '#' ? 3 : 0;
        return classifyWindow(r, s, cells);
    };
    EXPECT_EQ(cls(Rule::FREESTYLE, BLACK, "...XX.XX..."), F5);
    EXPECT_EQ(cls(Rule::FREESTYLE, BLACK, "....X.XX..."), F4);
    EXPECT_EQ(cls(Rule::FREESTYLE, BLACK, "...OX.XX..."), B4);
    EXPECT_EQ(cls(Rule::FREESTYLE, BLACK, "....X.X...."), F3S); // two open-four points
    EXPECT_EQ(cls(Rule::FREESTYLE, BLACK, "..O.X.X...."), F3);
    EXPECT_EQ(cls(Rule::STANDARD, BLACK, "..XXX.XX..."), OL);
    EXPECT_EQ(cls(Rule::FREESTYLE, BLACK, "..XXX.XX..."), F5);
    EXPECT_EQ(cls(Rule::RENJU, BLACK, "..XX...XXX."), B4S); // blocked, XX_X remains a three
    EXPECT_EQ(cls(Rule::RENJU, BLACK, ".XXX...XXX."), OL);  // XXX_X_XXX: double four in line
    EXPECT_EQ(cls(Rule::RENJU, WHITE, ".XXX...XXX."), F4);
    EXPECT_EQ(cls(Rule::CARO8, BLACK, "..OXX.XXO.."), DEAD); // its five is blocked at both ends
    EXPECT_EQ(cls(Rule::FREESTYLE, BLACK, "..OXX.XXO.."), F5);
    EXPECT_EQ(cls(Rule::CARO8, BLACK, "#XXXX.O...."), F5); // the edge is not a block
    EXPECT_EQ(cls(Rule::CARO8, BLACK, "OXXXX.O...."), DEAD);
    EXPECT_EQ(cls(Rule::CARO8, BLACK, "OXXXX.XO..."), F5); // six or more always wins
    EXPECT_EQ(cls(Rule::CARO9, BLACK, "OXXXX.XO..."), DEAD);
}

TEST(Pattern, PcodeIsDenseAndOrderFree) {
    std::vector<int> seen(PCODE_NB, 0);
    for (int a = 0; a < PATTERN_NB; a++)
        for (int b = 0; b < PATTERN_NB; b++)
            for (int c = 0; c < PATTERN_NB; c++)
                for (int d = 0; d < PATTERN_NB; d++) {
                    uint16_t pc = pcodeOf(Pattern(a), Pattern(b), Pattern(c), Pattern(d));
                    ASSERT_LT(pc, PCODE_NB);
                    EXPECT_EQ(pc, pcodeOf(Pattern(d), Pattern(c), Pattern(a), Pattern(b)));
                    auto back = pcodePatterns(pc);
                    std::array<int, 4> s = {a, b, c, d};
                    std::sort(s.begin(), s.end());
                    for (int i = 0; i < 4; i++) EXPECT_EQ(int(back[i]), s[i]);
                    seen[pc] = 1;
                }
    for (int i = 0; i < PCODE_NB; i++) EXPECT_TRUE(seen[i]) << i;
}

TEST(Pattern, Pattern4Priorities) {
    EXPECT_EQ(pattern4From({F5, OL, F4, F4}, true), A_FIVE);
    EXPECT_EQ(pattern4From({B4, B4, DEAD, DEAD}, true), FORBID);
    EXPECT_EQ(pattern4From({B4, B4, DEAD, DEAD}, false), B_FLEX4);
    EXPECT_EQ(pattern4From({F3, F3S, DEAD, DEAD}, true), FORBID);
    EXPECT_EQ(pattern4From({F3, F3S, DEAD, DEAD}, false), F_FLEX3_2X);
    EXPECT_EQ(pattern4From({B4, F3, DEAD, DEAD}, true), C_BLOCK4_FLEX3);
    EXPECT_EQ(pattern4From({B4S, F2A, DEAD, DEAD}, false), D_BLOCK4_PLUS);
    EXPECT_EQ(pattern4From({B4, B2, DEAD, DEAD}, false), E_BLOCK4);
    EXPECT_EQ(pattern4From({F3, B3, DEAD, DEAD}, false), G_FLEX3_PLUS);
    EXPECT_EQ(pattern4From({F3, F1, DEAD, DEAD}, false), H_FLEX3);
    EXPECT_EQ(pattern4From({B3, F2, DEAD, DEAD}, false), I_BLOCK3_PLUS);
    EXPECT_EQ(pattern4From({F2, F2B, DEAD, DEAD}, false), J_FLEX2_2X);
    EXPECT_EQ(pattern4From({B3S, B1, DEAD, DEAD}, false), K_BLOCK3);
    EXPECT_EQ(pattern4From({F2, DEAD, DEAD, DEAD}, false), L_FLEX2);
    EXPECT_EQ(pattern4From({OL, DEAD, DEAD, DEAD}, false), NONE);
}
