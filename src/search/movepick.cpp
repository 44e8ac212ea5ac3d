// Move generation and ordering: under a five threat only the block, under an open-three (four
// point) threat only the defences and our own fours, under a four-three point (freestyle and
// standard) only the replies that stop it and our own fours, otherwise every candidate cell;
// ordered by the TT move, Pattern4 scores for both sides, killers and history.
#include "moku/search/threats.h"
#include "worker.h"

namespace moku::search {

using namespace moku::game;

bool Worker::isLegal(Pos p) {
    if (board.piece(p) != EMPTY) return false;
    if (board.rule() == Rule::RENJU && board.sideToMove() == BLACK && board.p4(p, BLACK) == FORBID)
        return !board.isForbidden(p);
    return true;
}

void Worker::generate(MoveList& list, Pos ttMove, int ply, bool policy) {
    generateScored(list, ttMove, ply);
    list.hasPolicy = false;
    if (policy && nnue_) addPolicy(list, ttMove);
}

void Worker::generateThreatReplies(MoveList& list, Pos ttMove, int ply) {
    // Block one of the opponent's four points, or gain a tempo with a four of our own
    // (threats.h says which cells may block).
    Color us = board.sideToMove(), them = ~us;
    list.size = 0;
    Area a = patternArea();
    bool caro = isCaro(board.rule());
    ThreatLines lines = caro ? threatLines(board, them, a.x0, a.y0, a.x1, a.y1) : ThreatLines{};
    for (int y = a.y0; y <= a.y1; y++)
        for (int x = a.x0; x <= a.x1; x++) {
            Pos p(x, y);
            if (board.piece(p) != EMPTY) continue;
            Pattern4 mine = board.p4(p, us);
            // (In caro every empty cell is legal.)
            bool defend = mayBlock(board, p, them) || (caro && blocksBeyond(board, p, them, lines));
            bool attack = mine <= E_BLOCK4 || mine == FORBID;
            if ((defend || attack) && isLegal(p)) {
                // A FORBID-candidate cell that is legal but makes no four is no attack.
                if (!defend && mine == FORBID) {
                    bool four = false;
                    for (int d = 0; d < DIR_NB; d++)
                        four |= isFourPattern(board.cell(p).pattern[us][d]);
                    if (!four) continue;
                }
                list.add(p, orderScore(p, ttMove, ply));
            }
        }
}

// Under the opponent's four-three point, the cells that stop it (threats.h) and our own fours:
// every other move loses to it.
bool Worker::generateFourThreeReplies(MoveList& list, Pos ttMove, int ply) {
    Color us = board.sideToMove(), them = ~us;
    Pos p = findPattern4(them, C_BLOCK4_FLEX3, board.lastMove());
    FourThreeBlocks blocks;
    if (p == POS_NONE || !fourThreeBlocks(board, p, them, blocks)) return false;
    list.size = 0;
    for (int i = 0; i < blocks.size; i++)
        list.add(blocks.cell[i], orderScore(blocks.cell[i], ttMove, ply));
    Area a = patternArea();
    for (int y = a.y0; y <= a.y1; y++)
        for (int x = a.x0; x <= a.x1; x++) {
            Pos q(x, y);
            if (board.piece(q) == EMPTY && board.p4(q, us) <= E_BLOCK4 && !blocks.contains(q))
                list.add(q, orderScore(q, ttMove, ply));
        }
    return true;
}

void Worker::generateScored(MoveList& list, Pos ttMove, int ply) {
    Color them = ~board.sideToMove();
    list.size = 0;
    if (board.p4Count(them, A_FIVE)) {
        Pos f = findFivePoint(them, board.lastMove());
        if (f != POS_NONE && isLegal(f)) list.add(f, 1);
        return;
    }
    if (board.p4Count(them, B_FLEX4)) {
        // The opponent threatens an open four.
        generateThreatReplies(list, ttMove, ply);
        if (list.size) return;
    }
    if (board.p4Count(them, C_BLOCK4_FLEX3) && fourThreeRules() &&
        generateFourThreeReplies(list, ttMove, ply))
        return;
    Area a = candidateArea();
    for (int y = a.y0; y <= a.y1; y++)
        for (int x = a.x0; x <= a.x1; x++) {
            Pos p(x, y);
            if (board.isCandidate(p) && isLegal(p)) list.add(p, orderScore(p, ttMove, ply));
        }
}

} // namespace moku::search
