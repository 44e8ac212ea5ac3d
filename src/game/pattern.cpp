#include "moku/game/pattern.h"

#include <algorithm>
#include <cassert>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace moku::game {

const char* patternName(Pattern p) {
    static const char* names[PATTERN_NB] = {"DEAD", "OL",  "B1", "F1",  "B2", "F2",  "F2A", "F2B",
                                            "B3",   "B3S", "F3", "F3S", "B4", "B4S", "F4",  "F5"};
    return p < PATTERN_NB ? names[p] : "?";
}

const char* pattern4Name(Pattern4 p) {
    static const char* names[PATTERN4_NB] = {
        "A_FIVE",     "B_FLEX4",      "C_BLOCK4_FLEX3", "D_BLOCK4_PLUS", "E_BLOCK4",
        "F_FLEX3_2X", "G_FLEX3_PLUS", "H_FLEX3",        "I_BLOCK3_PLUS", "J_FLEX2_2X",
        "K_BLOCK3",   "L_FLEX2",      "FORBID",         "NONE"};
    return p < PATTERN4_NB ? names[p] : "?";
}

uint16_t detail::PCODE_TABLE[PATTERN_NB][PATTERN_NB][PATTERN_NB][PATTERN_NB];

namespace {

struct PcodeIndex {
    uint16_t (&code)[PATTERN_NB][PATTERN_NB][PATTERN_NB][PATTERN_NB] = detail::PCODE_TABLE;
    std::array<Pattern, 4> patterns[PCODE_NB];

    PcodeIndex() {
        int n = 0;
        for (int a = 0; a < PATTERN_NB; a++)
            for (int b = a; b < PATTERN_NB; b++)
                for (int c = b; c < PATTERN_NB; c++)
                    for (int d = c; d < PATTERN_NB; d++) {
                        patterns[n] = {Pattern(a), Pattern(b), Pattern(c), Pattern(d)};
                        n++;
                    }
        for (int a = 0; a < PATTERN_NB; a++)
            for (int b = 0; b < PATTERN_NB; b++)
                for (int c = 0; c < PATTERN_NB; c++)
                    for (int d = 0; d < PATTERN_NB; d++) {
                        std::array<int, 4> s = {a, b, c, d};
                        std::sort(s.begin(), s.end());
                        // Rank of the sorted tuple among all sorted tuples, found by search.
                        auto it = std::lower_bound(
                            patterns, patterns + PCODE_NB, s,
                            [](const std::array<Pattern, 4>& x, const std::array<int, 4>& y) {
                                for (int i = 0; i < 4; i++)
                                    if (x[i] != y[i]) return int(x[i]) < y[i];
                                return false;
                            });
                        code[a][b][c][d] = uint16_t(it - patterns);
                    }
    }
};

// Built during static initialisation: the board's hot loop reads it without a guard.
const PcodeIndex PCODE_INDEX;
const PcodeIndex& pcodeIndex() { return PCODE_INDEX; }

// The recursive definitions of the line patterns, memoised on the 11-cell window centred on the
// cell (2 bits a cell: 0 empty, 1 own, 2 opponent, 3 off the board; the centre counts as own).
// The run of own stones through the centre decides first: an overline where the rule forbids
// it is OL, a run that wins under the rule F5. Otherwise the pattern is DEAD when the window
// has no room for five, and else follows from what one more own stone on each empty cell of
// the window makes (classified recursively):
//   two or more five points: F4 (renju black: OL, a double four inside the line, unless the
//     two points cap the same four stones); one five point: B4 (B4S when the line with that
//     point blocked still holds a B3 or more);
//   an F4 point: F3 (two or more: F3S); a B4 or B4S point: B3 (B3S when one is B4S);
//   F3 or F3S points: F2 (three: F2A, four or more: F2B); a B3 or B3S point: B2;
//   an F2, F2A or F2B point: F1; a B2 point: B1; none of these: DEAD.
// Only the span of empty and own cells through the centre and the cell that ends it on each
// side matter (the recursion places stones inside the span, and a five's ends are at most
// those cells), and the kind of that end cell (opponent or edge) only where caro asks whether
// a five is blocked at both ends. Windows are reduced to that canonical form before the memo,
// which leaves a few thousand distinct windows per rule and side.
class Classifier {
public:
    Classifier(Rule rule, Color side)
        : rule_(rule), side_(side),
          overlineForbidden_(rule == Rule::STANDARD || (rule == Rule::RENJU && side == BLACK)),
          renjuBlack_(rule == Rule::RENJU && side == BLACK), caro_(isCaro(rule)) {}

    Pattern classify(uint32_t code) {
        code = canonical((code & ~(3u << 10)) | (1u << 10));
        auto it = memo_.find(code);
        if (it != memo_.end()) return it->second;
        Pattern p = compute(code);
        memo_.emplace(code, p);
        return p;
    }

    // The canonical form of one half window, read outwards from the centre (bits 2i..2i+1:
    // the cell i+1 steps away): the empty and own cells up to the first other cell, that cell
    // (an edge outside caro), and edges beyond it.
    uint32_t canonicalHalf(uint32_t half) const {
        uint32_t out = 0;
        int i = 0;
        for (; i < 5; i++) {
            uint32_t v = (half >> (2 * i)) & 3;
            if (v > 1) {
                out |= (caro_ ? v : 3u) << (2 * i);
                i++;
                break;
            }
            out |= v << (2 * i);
        }
        for (; i < 5; i++) out |= 3u << (2 * i);
        return out;
    }

private:
    Rule rule_;
    Color side_;
    bool overlineForbidden_;
    bool renjuBlack_;
    bool caro_;
    std::unordered_map<uint32_t, Pattern> memo_;

    static int at(uint32_t code, int i) { return (code >> (2 * i)) & 3; }

    // The left half of a window read outwards (cell 4 first), and back.
    static uint32_t leftOutwards(uint32_t code) {
        uint32_t h = 0;
        for (int i = 0; i < 5; i++) h |= uint32_t(at(code, 4 - i)) << (2 * i);
        return h;
    }
    static uint32_t leftFromOutwards(uint32_t h) {
        uint32_t code = 0;
        for (int i = 0; i < 5; i++) code |= ((h >> (2 * i)) & 3) << (2 * (4 - i));
        return code;
    }

    uint32_t canonical(uint32_t code) const {
        uint32_t left = leftFromOutwards(canonicalHalf(leftOutwards(code)));
        uint32_t right = canonicalHalf(code >> 12) << 12;
        return left | (code & (3u << 10)) | right;
    }

    bool winning(uint32_t code, int l, int r) const {
        int run = r - l + 1;
        // A run of exactly five containing the centre never touches the window edge.
        auto blockedBothEnds = [&] { return at(code, l - 1) == 2 && at(code, r + 1) == 2; };
        switch (rule_) {
        case Rule::FREESTYLE:
            return run >= 5;
        case Rule::STANDARD:
            return run == 5;
        case Rule::RENJU:
            return side_ == BLACK ? run == 5 : run >= 5;
        case Rule::CARO8:
            return run >= 6 || (run == 5 && !blockedBothEnds());
        case Rule::CARO9:
            return run == 5 && !blockedBothEnds();
        }
        return false;
    }

    Pattern compute(uint32_t code) {
        int l = 5, r = 5;
        while (l > 0 && at(code, l - 1) == 1) l--;
        while (r < 10 && at(code, r + 1) == 1) r++;
        if (overlineForbidden_ && r - l + 1 >= 6) return OL;
        if (winning(code, l, r)) return F5;

        int sl = 5, sr = 5;
        while (sl > 0 && at(code, sl - 1) <= 1) sl--;
        while (sr < 10 && at(code, sr + 1) <= 1) sr++;
        if (sr - sl + 1 < 5) return DEAD;

        int count[PATTERN_NB] = {};
        int fivePoints[11], fiveNb = 0;
        bool anyB4S = false;
        for (int e = sl; e <= sr; e++) {
            if (e == 5 || at(code, e) != 0) continue;
            Pattern p = classify(code | (1u << (2 * e)));
            count[p]++;
            if (p == F5) fivePoints[fiveNb++] = e;
            if (p == B4S) anyB4S = true;
        }

        if (fiveNb >= 2) {
            // Two fives from one line: an open four when both five-points cap the same four
            // stones (five cells apart); otherwise a double four inside the line.
            bool openFour = fiveNb == 2 && fivePoints[1] - fivePoints[0] == 5;
            return renjuBlack_ && !openFour ? OL : F4;
        }
        if (fiveNb == 1) {
            uint32_t blocked = code | (2u << (2 * fivePoints[0]));
            return classify(blocked) >= B3 ? B4S : B4;
        }
        if (count[F4] >= 2) return F3S;
        if (count[F4] == 1) return F3;
        if (count[B4] + count[B4S] > 0) return anyB4S ? B3S : B3;
        int threes = count[F3] + count[F3S];
        if (threes >= 4) return F2B;
        if (threes == 3) return F2A;
        if (threes >= 1) return F2;
        if (count[B3] + count[B3S] > 0) return B2;
        if (count[F2] + count[F2A] + count[F2B] > 0) return F1;
        if (count[B2] > 0) return B1;
        return DEAD;
    }
};

// A line key splits into the five cells before the centre (k = -5..-1) and the five after
// (k = 1..5). Each half reduces, for one side, to one of fewer than a hundred canonical halves
// (Classifier::canonicalHalf); the pattern of a key is that of its two canonical halves, so
// each side classifies the pairs once and the million keys are filled from the pairs.
void buildTables(PatternTables& t, Rule rule) {
    t.rule = rule;
    constexpr uint32_t HALF_NB = 1u << 10;
    uint8_t pairPattern[COLOR_NB][HALF_NB / 8][HALF_NB / 8]; // enough: at most 94 halves
    uint8_t leftIdx[COLOR_NB][HALF_NB], rightIdx[COLOR_NB][HALF_NB];
    for (int s = 0; s < COLOR_NB; s++) {
        Color side = Color(s);
        uint32_t own = cellBits(side);
        Classifier cls(rule, side);
        // Canonical halves, read outwards from the centre, numbered in order of appearance.
        std::vector<uint32_t> halves;
        std::unordered_map<uint32_t, uint8_t> number;
        auto index = [&](uint32_t outwards) {
            uint32_t c = cls.canonicalHalf(outwards);
            auto [it, fresh] = number.emplace(c, uint8_t(halves.size()));
            if (fresh) halves.push_back(c);
            return it->second;
        };
        auto toCode = [&](uint32_t b) { return b == 0 ? 0u : b == 3 ? 3u : b == own ? 1u : 2u; };
        for (uint32_t h = 0; h < HALF_NB; h++) {
            // The key's left half holds k = -5..-1 in bits 0..9, its right half k = 1..5.
            uint32_t left = 0, right = 0;
            for (int i = 0; i < 5; i++) {
                left |= toCode((h >> lineKeyShift(-1 - i)) & 3) << (2 * i);
                right |= toCode((h >> (lineKeyShift(1 + i) - 10)) & 3) << (2 * i);
            }
            leftIdx[s][h] = index(left);
            rightIdx[s][h] = index(right);
        }
        assert(halves.size() <= HALF_NB / 8);
        for (size_t a = 0; a < halves.size(); a++)
            for (size_t b = 0; b < halves.size(); b++) {
                uint32_t code = (1u << 10) | (halves[b] << 12);
                for (int i = 0; i < 5; i++) code |= ((halves[a] >> (2 * i)) & 3) << (2 * (4 - i));
                pairPattern[s][a][b] = uint8_t(cls.classify(code));
            }
    }
    for (uint32_t r = 0; r < HALF_NB; r++) {
        uint8_t rb = rightIdx[BLACK][r], rw = rightIdx[WHITE][r];
        uint8_t* out = t.line + (r << 10);
        for (uint32_t l = 0; l < HALF_NB; l++)
            out[l] = uint8_t(pairPattern[BLACK][leftIdx[BLACK][l]][rb] |
                             pairPattern[WHITE][leftIdx[WHITE][l]][rw] << 4);
    }
    for (int s = 0; s < COLOR_NB; s++) {
        bool renjuBlack = rule == Rule::RENJU && s == BLACK;
        for (int pc = 0; pc < PCODE_NB; pc++)
            t.p4[s][pc] = pattern4From(pcodePatterns(uint16_t(pc)), renjuBlack);
    }
}

} // namespace

std::unique_ptr<PatternTables> buildPatternTables(Rule rule) {
    auto t = std::make_unique<PatternTables>();
    buildTables(*t, rule);
    return t;
}

std::array<Pattern, 4> pcodePatterns(uint16_t pcode) { return pcodeIndex().patterns[pcode]; }

Pattern4 pattern4From(const std::array<Pattern, 4>& p, bool renjuBlack) {
    int five = 0, overline = 0, fours = 0, flex4 = 0, flex3 = 0, block3 = 0, flex2 = 0;
    for (Pattern x : p) {
        five += x == F5;
        overline += x == OL;
        fours += isFourPattern(x);
        flex4 += x == F4;
        flex3 += x == F3 || x == F3S;
        block3 += x == B3 || x == B3S;
        flex2 += x == F2 || x == F2A || x == F2B;
    }
    if (five) return A_FIVE;
    if (renjuBlack && (overline || fours >= 2 || flex3 >= 2)) return FORBID;
    if (fours >= 2 || flex4) return B_FLEX4;
    if (fours) return flex3 ? C_BLOCK4_FLEX3 : (block3 || flex2) ? D_BLOCK4_PLUS : E_BLOCK4;
    if (flex3 >= 2) return F_FLEX3_2X;
    if (flex3) return (block3 || flex2) ? G_FLEX3_PLUS : H_FLEX3;
    if (block3 >= 2 || (block3 && flex2)) return I_BLOCK3_PLUS;
    if (flex2 >= 2) return J_FLEX2_2X;
    if (block3) return K_BLOCK3;
    if (flex2) return L_FLEX2;
    return NONE;
}

const PatternTables& patternTables(Rule rule) {
    // Never freed: a thread still building tables at exit (see prebuildPatternTables) must not
    // see them destroyed under it.
    static std::once_flag flags[RULE_NB];
    static PatternTables* tables[RULE_NB];
    int r = int(rule);
    std::call_once(flags[r], [&] { tables[r] = buildPatternTables(rule).release(); });
    return *tables[r];
}

void prebuildPatternTables() {
    std::thread([] {
        for (int r = 0; r < RULE_NB; r++) patternTables(Rule(r));
    }).detach();
}

Pattern classifyWindow(Rule rule, Color side, const std::array<uint8_t, 11>& cells) {
    uint32_t code = 0;
    for (int i = 0; i < 11; i++) code |= uint32_t(cells[i] & 3) << (2 * i);
    return Classifier(rule, side).classify(code);
}

} // namespace moku::game
