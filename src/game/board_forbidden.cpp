// The exact renju forbidden-point test (RIF 9.3), on top of the board's line patterns.
#include "moku/game/board.h"

namespace moku::game {

bool Board::isForbidden(Pos p) {
    if (rule_ != Rule::RENJU || !isEmpty(p)) return false;
    const Cell& c = cells_[p.idx];
    // The table-level flag is a superset of the forbidden points: a five is never FORBID.
    if (c.p4[BLACK] != FORBID) return false;

    int fours = 0;
    bool three[DIR_NB] = {};
    int threes = 0;
    for (int d = 0; d < DIR_NB; d++) {
        Pattern pt = c.pattern[BLACK][d];
        if (pt == OL) return true; // an overline, or a double four inside one line
        fours += isFourPattern(pt);
        three[d] = pt == F3 || pt == F3S;
        threes += three[d];
    }
    if (fours >= 2) return true;
    if (threes < 2) return false;

    // A three counts only if one of the points that make it an open four is itself legal.
    place(p, BLACK);
    int real = 0;
    for (int d = 0; d < DIR_NB && real < 2; d++) {
        if (!three[d]) continue;
        for (int k = -4; k <= 4; k++) {
            Pos q = p + k * DIRECTION[d];
            if (k == 0 || cells_[q.idx].piece != EMPTY) continue;
            if (cells_[q.idx].pattern[BLACK][d] == F4 && !isForbidden(q)) {
                real++;
                break;
            }
        }
    }
    remove(p);
    return real >= 2;
}

Color Board::outcomeIfPlayed(Pos p, Color c) {
    if (!isEmpty(p)) throw BoardError("move " + posToString(p) + " is not an empty cell");
    if (isFive(p, c)) return c;
    if (c == BLACK && isForbidden(p)) return WHITE;
    return EMPTY;
}

} // namespace moku::game
