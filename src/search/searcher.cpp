// A one-ply searcher: wins at once, blocks the opponent's five, otherwise takes the move with
// the best Pattern4 for either side.
#include <chrono>

#include "moku/search/search.h"

namespace moku::search {

using namespace moku::game;

Searcher::Searcher() = default;
Searcher::~Searcher() = default;

void Searcher::stop() { stopFlag_ = true; }
void Searcher::newGame() {}

SearchResult Searcher::think(const Board& board, const Limits&, const IterationCallback& onIteration) {
    auto start = std::chrono::steady_clock::now();
    stopFlag_ = false;
    Board b = board;
    Color us = b.sideToMove();
    SearchResult r;
    std::vector<Pos> moves = b.candidates();
    if (moves.empty()) moves = b.emptyCells();
    if (b.stoneCount() == 0 && b.isEmpty(b.centre())) moves = {b.centre()};
    int best = -1;
    for (Pos p : moves) {
        if (!b.isLegal(p)) continue;
        // Lower Pattern4 is stronger: own threats weigh a little more than blocking.
        int own = PATTERN4_NB - b.p4(p, us), opp = PATTERN4_NB - b.p4(p, ~us);
        int score = b.p4(p, us) == A_FIVE ? 1000 : b.p4(p, ~us) == A_FIVE ? 900 : own * 3 + opp * 2;
        r.nodes++;
        if (score > best) best = score, r.bestMove = p;
    }
    if (r.bestMove == POS_NONE)  // every nearby point is forbidden: any legal point will do
        for (Pos p : b.emptyCells())
            if (b.isLegal(p)) {
                r.bestMove = p;
                break;
            }
    r.depth = 1;
    r.score = VALUE_ZERO;
    if (r.bestMove != POS_NONE) r.pv = {r.bestMove};
    r.timeMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - start).count();
    if (onIteration) onIteration({1, 1, 0, r.score, r.nodes, r.timeMs, r.pv});
    return r;
}

}  // namespace moku::search
