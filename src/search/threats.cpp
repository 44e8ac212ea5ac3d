#include "moku/search/threats.h"

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

} // namespace moku::search
