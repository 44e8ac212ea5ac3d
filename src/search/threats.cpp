#include "moku/search/threats.h"

#include <array>
#include <cstdlib>

namespace moku::search {

using namespace moku::game;

bool ThreatLines::through(Pos p, int d, int reach) const {
    for (int i = 0; i < size; i++) {
        if (dir[i] != d) continue;
        int dx = p.x() - point[i].x(), dy = p.y() - point[i].y();
        int k = DIR_DX[d] ? dx * DIR_DX[d] : dy * DIR_DY[d];
        if (dx == k * DIR_DX[d] && dy == k * DIR_DY[d] && std::abs(k) <= reach) return true;
    }
    return false;
}

ThreatLines threatLines(const Board& b, Color c, int x0, int y0, int x1, int y1) {
    ThreatLines t;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            Pos p(x, y);
            if (b.piece(p) != EMPTY || b.p4(p, c) != B_FLEX4) continue;
            for (int d = 0; d < DIR_NB; d++)
                if (isFourPattern(b.cell(p).pattern[c][d]) && t.size < ThreatLines::MAX)
                    t.point[t.size] = p, t.dir[t.size++] = uint8_t(d);
        }
    return t;
}

ThreatLines threatLines(const Board& b, Color c) {
    return threatLines(b, c, 0, 0, b.width() - 1, b.height() - 1);
}

bool blocksBeyond(Board& b, Pos p, Color c, const ThreatLines& lines) {
    bool onLine = false;
    for (int d = 0; d < DIR_NB && !onLine; d++) onLine = lines.through(p, d, 6);
    if (!onLine) return false;
    b.move(p);
    bool stopped = b.p4Count(c, B_FLEX4) == 0 && b.p4Count(c, A_FIVE) == 0;
    b.undo();
    return stopped;
}

bool FourThreeBlocks::contains(Pos p) const {
    for (int i = 0; i < size; i++)
        if (cell[i] == p) return true;
    return false;
}

namespace {

// Empty cells up to five steps from `at` along d whose stone of colour `stone` leaves side's
// line pattern at `at` one for which `keep` is false: at's line key with that stone added, read
// with the rule's tables.
template <class Keep, class Use>
void lineCells(const Board& b, Pos at, int d, Color side, Color stone, Keep keep, Use use) {
    const PatternTables& t = b.lineTables();
    uint32_t key = b.lineKey(at, d);
    for (int k = -5; k <= 5; k++) {
        Pos q = at + k * DIRECTION[d];
        if (k == 0 || !b.isEmpty(q)) continue;
        if (!keep(t.linePattern(side, key | cellBits(stone) << lineKeyShift(k)))) use(q);
    }
}

// The five point of the four c makes on p (its one B4 or B4S line), that line's direction
// and the step from the five point back to p; five is POS_NONE when there is none.
struct FourOf {
    Pos five = POS_NONE;
    int dir = -1;
    int step = 0;
};
FourOf fourOf(const Board& b, Pos p, Color c) {
    FourOf f;
    for (int d = 0; d < DIR_NB && f.dir < 0; d++) {
        Pattern pat = b.cell(p).pattern[c][d];
        if (pat == B4 || pat == B4S) f.dir = d;
    }
    if (f.dir >= 0)
        lineCells(
            b, p, f.dir, c, c, [](Pattern x) { return x != F5; }, [&](Pos q) { f.five = q; });
    for (int k = -5; k <= 5 && f.five != POS_NONE; k++)
        if (f.five + k * DIRECTION[f.dir] == p) f.step = k;
    return f;
}

} // namespace

Pos fourThreeFivePoint(const Board& b, Pos p, Color c) { return fourOf(b, p, c).five; }

// The block's lines are read as they will be with c's stone on p: only the line through p
// changes (its key gets that stone).
bool fourThreeWins(const Board& b, Pos p, Color c) {
    FourOf four = fourOf(b, p, c);
    if (four.five == POS_NONE) return false;
    Color blocker = ~c;
    std::array<Pattern, 4> lines;
    for (int d = 0; d < DIR_NB; d++) lines[d] = b.cell(four.five).pattern[blocker][d];
    lines[four.dir] = b.lineTables().linePattern(
        blocker, b.lineKey(four.five, four.dir) | cellBits(c) << lineKeyShift(four.step));
    return pattern4From(lines, false) > E_BLOCK4;
}

bool fourThreeBlocks(const Board& b, Pos p, Color c, FourThreeBlocks& out) {
    Color blocker = ~c;
    out.size = 0;
    auto add = [&](Pos q) {
        if (!out.contains(q) && out.size < FourThreeBlocks::MAX) out.cell[out.size++] = q;
    };
    Pos five = fourThreeFivePoint(b, p, c);
    if (five == POS_NONE || b.p4(five, blocker) <= E_BLOCK4) return false;
    add(p);
    for (int d = 0; d < DIR_NB; d++) {
        Pattern pat = b.cell(p).pattern[c][d];
        if (pat == F3 || pat == F3S)
            lineCells(
                b, p, d, c, blocker, [](Pattern x) { return x >= F3; }, add);
        else if (pat == B4 || pat == B4S)
            lineCells(
                b, p, d, c, blocker, [](Pattern x) { return x >= B4; }, add);
    }
    for (int d = 0; d < DIR_NB; d++)
        lineCells(
            b, five, d, blocker, blocker, [](Pattern x) { return x < B4; }, add);
    return true;
}

} // namespace moku::search
