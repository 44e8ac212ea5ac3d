// A second renju checker, written straight from the RIF definitions and nothing else: slow and
// obviously correct, for cross-checking Board::isForbidden. It knows no line patterns, tables
// or incremental state, only stones on a grid:
//   five       an unbroken row of exactly five black stones (six or more is an overline);
//   four       four black stones in a row of five cells whose empty cell makes a five; a move
//              makes as many fours as there are different such sets of four stones through it
//              (.XXXX. is one four with two five-points; X.XXX.X is two fours in one line);
//   straight   four black stones in an unbroken row with an empty cell at each end, each of
//   four       which makes a five;
//   three      a line through the move in which one more stone makes a straight four through
//              the move; the three is real only if some such stone is itself not forbidden
//              (recursively, with the move on the board);
//   forbidden  a black move that makes no five and makes an overline, two or more fours, or
//              real threes in two or more lines.
// Also used by bench/tools/make_test_cases.cpp to describe the cases it generates.
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace moku::test::rif {

// 'X' black, 'O' white, '.' empty; x = column, y = row (row 0 is the first diagram row).
class Grid {
public:
    explicit Grid(const std::vector<std::string>& rows)
        : w_(int(rows.at(0).size())), h_(int(rows.size())) {
        for (const std::string& r : rows) cells_ += r;
    }
    int width() const { return w_; }
    int height() const { return h_; }
    // '#' off the board.
    char at(int x, int y) const {
        return x < 0 || y < 0 || x >= w_ || y >= h_ ? '#' : cells_[y * w_ + x];
    }
    void set(int x, int y, char c) { cells_[y * w_ + x] = c; }

private:
    int w_, h_;
    std::string cells_;
};

// The four line directions (horizontal, vertical and both diagonals).
constexpr int DX[4] = {1, 0, 1, 1};
constexpr int DY[4] = {0, 1, 1, -1};

// Offsets (along direction d, relative to (x, y)) of the first and last black stone of the
// unbroken black row through the black stone at (x, y).
inline std::pair<int, int> blackRow(const Grid& g, int x, int y, int d) {
    int lo = 0, hi = 0;
    while (g.at(x + (lo - 1) * DX[d], y + (lo - 1) * DY[d]) == 'X') lo--;
    while (g.at(x + (hi + 1) * DX[d], y + (hi + 1) * DY[d]) == 'X') hi++;
    return {lo, hi};
}

inline int rowLength(const Grid& g, int x, int y, int d) {
    auto [lo, hi] = blackRow(g, x, y, d);
    return hi - lo + 1;
}

// With a black stone on (x, y): a row of exactly five / of six or more through it.
inline bool hasFive(const Grid& g, int x, int y) {
    for (int d = 0; d < 4; d++)
        if (rowLength(g, x, y, d) == 5) return true;
    return false;
}
inline bool hasOverline(const Grid& g, int x, int y) {
    for (int d = 0; d < 4; d++)
        if (rowLength(g, x, y, d) >= 6) return true;
    return false;
}

// Would a black stone on the empty cell (x, y) make exactly five along d?
inline bool fiveAlong(Grid& g, int x, int y, int d) {
    if (g.at(x, y) != '.') return false;
    g.set(x, y, 'X');
    bool five = rowLength(g, x, y, d) == 5;
    g.set(x, y, '.');
    return five;
}

// With a black stone on (x, y): the number of fours through it along d.
inline int foursAlong(Grid& g, int x, int y, int d) {
    std::set<std::vector<int>> fours; // each four as the offsets of its four stones
    for (int k = -4; k <= 4; k++) {
        int qx = x + k * DX[d], qy = y + k * DY[d];
        if (k == 0 || g.at(qx, qy) != '.') continue;
        g.set(qx, qy, 'X');
        auto [lo, hi] = blackRow(g, x, y, d);
        if (hi - lo + 1 == 5 && lo <= k && k <= hi) {
            std::vector<int> stones;
            for (int i = lo; i <= hi; i++)
                if (i != k) stones.push_back(i);
            fours.insert(stones);
        }
        g.set(qx, qy, '.');
    }
    return int(fours.size());
}

// With a black stone on (x, y): the empty cells along d whose stone would make a straight four
// through (x, y), as offsets.
inline std::vector<int> straightFourPoints(Grid& g, int x, int y, int d) {
    std::vector<int> out;
    for (int k = -3; k <= 3; k++) {
        int qx = x + k * DX[d], qy = y + k * DY[d];
        if (k == 0 || g.at(qx, qy) != '.') continue;
        g.set(qx, qy, 'X');
        auto [lo, hi] = blackRow(g, x, y, d);
        bool straight = hi - lo + 1 == 4 && lo <= k && k <= hi &&
                        fiveAlong(g, x + (lo - 1) * DX[d], y + (lo - 1) * DY[d], d) &&
                        fiveAlong(g, x + (hi + 1) * DX[d], y + (hi + 1) * DY[d], d);
        g.set(qx, qy, '.');
        if (straight) out.push_back(k);
    }
    return out;
}

// Is a black stone on the empty cell (x, y) forbidden?
inline bool forbidden(Grid& g, int x, int y) {
    if (g.at(x, y) != '.') return false;
    g.set(x, y, 'X');
    bool result = false;
    if (!hasFive(g, x, y)) {
        int fours = 0, threes = 0;
        for (int d = 0; d < 4; d++) fours += foursAlong(g, x, y, d);
        if (hasOverline(g, x, y) || fours >= 2) {
            result = true;
        } else {
            for (int d = 0; d < 4; d++) {
                bool real = false;
                for (int k : straightFourPoints(g, x, y, d))
                    real = real || !forbidden(g, x + k * DX[d], y + k * DY[d]);
                threes += real;
            }
            result = threes >= 2;
        }
    }
    g.set(x, y, '.');
    return result;
}

// Why a black move on the empty cell (x, y) is or is not forbidden, for describing cases.
struct Analysis {
    bool five = false, overline = false;
    int fours = 0;
    int foursInOneLine = 0; // the most fours along a single line
    int threes = 0;         // lines with a straight-four point, legal or not
    int realThrees = 0;     // lines with a legal straight-four point
    bool forbidden = false;
    // 0 unless the verdict needed the forbidden test of a straight-four point: then 1 + the
    // largest nesting of a forbidden straight-four point (2 or more: the nesting is recursive).
    int nesting = 0;

    // Would be forbidden if it did not make a five.
    bool shapeForbidden() const { return overline || fours >= 2 || realThrees >= 2; }
    // "overline", "double_four", "double_three"; for a legal move "five_beats_forbidden" (a
    // five on a point that would otherwise be forbidden), "false_double_three" (two or more
    // threes, too few of them real because straight-four points are forbidden) or "legal".
    std::string kind() const {
        if (forbidden) return overline ? "overline" : fours >= 2 ? "double_four" : "double_three";
        if (five && shapeForbidden()) return "five_beats_forbidden";
        if (!five && threes >= 2 && nesting > 0) return "false_double_three";
        return "legal";
    }
};

inline Analysis analyse(Grid& g, int x, int y) {
    Analysis a;
    if (g.at(x, y) != '.') return a;
    g.set(x, y, 'X');
    a.five = hasFive(g, x, y);
    a.overline = hasOverline(g, x, y);
    for (int d = 0; d < 4; d++) {
        int n = foursAlong(g, x, y, d);
        a.fours += n;
        a.foursInOneLine = std::max(a.foursInOneLine, n);
    }
    bool needsThrees = !a.overline && a.fours < 2;
    for (int d = 0; d < 4; d++) {
        std::vector<int> points = straightFourPoints(g, x, y, d);
        if (points.empty()) continue;
        a.threes++;
        bool real = false;
        for (int k : points) {
            int qx = x + k * DX[d], qy = y + k * DY[d];
            if (!forbidden(g, qx, qy)) {
                real = true;
            } else if (needsThrees) {
                Analysis inner = analyse(g, qx, qy);
                a.nesting = std::max(a.nesting, 1 + inner.nesting);
            }
        }
        a.realThrees += real;
    }
    if (!needsThrees || a.threes < 2) a.nesting = 0;
    a.forbidden = !a.five && a.shapeForbidden();
    g.set(x, y, '.');
    return a;
}

} // namespace moku::test::rif
