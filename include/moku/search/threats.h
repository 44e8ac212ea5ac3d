// Blocks against open threes. Under an opponent's open-four point the search plays only blocks
// and its own fours (movepick.cpp); these functions say which cells are blocks.
#pragma once

#include <cstdint>

#include "moku/game/board.h"

namespace moku::search {

// Open-four points of one side (cells where it would make a straight four, or two fours at
// once) with each direction in which the point makes a four: the lines on which the other side
// must block.
struct ThreatLines {
    static constexpr int MAX = 32;
    Pos point[MAX];
    uint8_t dir[MAX];
    int size = 0;
    // Is p on one of the lines along d, at most `reach` cells from its open-four point?
    bool through(Pos p, int d, int reach) const;
};

// The open-four points of c among the cells x0..x1, y0..y1 (inclusive), or the whole board.
ThreatLines threatLines(const game::Board& b, Color c, int x0, int y0, int x1, int y1);
ThreatLines threatLines(const game::Board& b, Color c);

// May a stone on the empty cell p stop c's open-four points? True on every cell where c would
// make a four. In freestyle and standard every block is one (the open-four point or another
// completion of the same four). Not in caro (see blocksBeyond), nor in renju where a white
// stone can block black on a cell where black's own stone would make an overline: such cells
// are left out (a wider renju set, every cell of the threat lines, measured 80-113-7 in 200
// games at 0.2 s). Keeping only the fours on the threat lines measured no better in freestyle
// (400 games at 0.2 s: 171-198-31 against this wider set).
inline bool mayBlock(const game::Board& b, Pos p, Color c) {
    game::Pattern4 theirs = b.p4(p, c);
    if (theirs <= game::E_BLOCK4) return true;
    if (theirs == game::FORBID)
        for (int d = 0; d < DIR_NB; d++)
            if (game::isFourPattern(b.cell(p).pattern[c][d])) return true;
    return false;
}

// Caro (both variants): a block can lie just beyond the four, where it leaves both ends of c's
// five blocked, and there c makes no four. Does a stone on p, a cell of a threat line within six
// cells of its open-four point, stop every open-four and five point of c? Plays the stone to
// see (the board is left as it was). The side to move of `b` must be the blocker.
bool blocksBeyond(game::Board& b, Pos p, Color c, const ThreatLines& lines);

// The five point of the four that c makes on its four-three point p (freestyle and standard),
// or POS_NONE.
Pos fourThreeFivePoint(const game::Board& b, Pos p, Color c);
// Does c, to move, win by playing its four-three point p (freestyle and standard)? It does when
// the other side's forced block of the four makes no four of its own: c's open four follows.
bool fourThreeWins(const game::Board& b, Pos p, Color c);
// The cells that stop c's four-three point p (freestyle and standard; the other side is to
// move): p itself, the cells whose stone takes p's three below an open three or its four below
// a four, and those after which the forced block of that four would make a four of the
// blocker's. The blocker's own fours are not listed. Where that block is a four of the
// blocker's already, the four-three forces nothing and this returns false. Every other move
// that is not a four loses to c playing p, blocking nothing.
struct FourThreeBlocks {
    // At most 81: the point, ten cells on each of its four lines, ten on each line of the block.
    static constexpr int MAX = 128;
    Pos cell[MAX];
    int size = 0;
    bool contains(Pos p) const;
};
bool fourThreeBlocks(const game::Board& b, Pos p, Color c, FourThreeBlocks& out);

} // namespace moku::search
