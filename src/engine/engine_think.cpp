// Thinking: the moves that need no search, then the searcher, wrapped so that the engine always
// answers with a legal move. The stop flag is the searcher's: a stop() that arrives before the
// search starts is kept until clearStop(), so that it is never lost.
#include <algorithm>
#include <string>

#include "moku/engine/engine.h"

namespace moku::engine {

using game::Board;
using search::Limits;
using search::SearchResult;

Limits Engine::limits(int multiPV) const {
    Limits l;
    l.time = options_.time;
    l.maxDepth = options_.maxDepth;
    l.maxNodes = options_.maxNodes;
    l.multiPV = std::max(1, multiPV);
    l.turnStart = turnStart_;
    return l;
}

void Engine::stop() { searcher_.stop(); }

void Engine::clearStop() { searcher_.clearStop(); }

void Engine::clearHash() { searcher_.clearHash(); }

void Engine::setClassicalConfig(const eval::ClassicalConfig& cfg) {
    searcher_.setClassicalConfig(cfg);
}

void Engine::setSearchParams(const search::SearchParams& params) { searcher_.setParams(params); }

namespace {

// The first moves need no search: the centre on an empty board, and next to a lone stone the
// diagonal neighbour nearest the centre (searched as usual under renju with black to move).
// POS_NONE for every other position.
Pos openingMove(const Board& b) {
    if (b.stoneCount() == 0) return b.centre();
    if (b.stoneCount() != 1 || (b.rule() == Rule::RENJU && b.sideToMove() == BLACK))
        return POS_NONE;
    Pos stone = POS_NONE;
    for (int y = 0; y < b.height() && stone == POS_NONE; y++)
        for (int x = 0; x < b.width(); x++)
            if (b.piece(Pos(x, y)) == BLACK || b.piece(Pos(x, y)) == WHITE) stone = Pos(x, y);
    Pos best = POS_NONE;
    int bestDist = 1 << 30;
    const int diag[8][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    for (auto& d : diag) {
        int x = stone.x() + d[0], y = stone.y() + d[1];
        if (!b.onBoard(x, y)) continue;
        int cx = x - b.width() / 2, cy = y - b.height() / 2;
        int dist = cx * cx + cy * cy + (d[0] && d[1] ? 0 : 1000); // diagonals first
        if (dist < bestDist) bestDist = dist, best = Pos(x, y);
    }
    return best;
}

} // namespace

SearchResult Engine::search(const Board& board, const Limits& limits,
                            const search::IterationCallback& onIteration) {
    updateNetwork();
    applyHashSize();
    // Told at the next search, where managers expect MESSAGE lines (not between START and OK).
    if (!pendingNote_.empty() && noteSink_) noteSink_(pendingNote_);
    pendingNote_.clear();
    // An opening move is reported as a one-ply line of a level position.
    if (Pos opening = openingMove(board); opening != POS_NONE) {
        SearchResult r;
        r.bestMove = opening;
        r.score = VALUE_ZERO;
        r.depth = 1;
        r.pv = {opening};
        r.ranked = {{opening, VALUE_ZERO}};
        if (onIteration) onIteration({1, 1, 0, r.score, 0, 0, r.pv});
        return r;
    }
    return searcher_.think(board, limits, onIteration);
}

// The centre when free, else the first legal candidate, else the first legal cell.
Pos Engine::fallbackMove(Board& board) const {
    if (board.isLegal(board.centre())) return board.centre();
    for (Pos p : board.candidates())
        if (board.isLegal(p)) return p;
    for (Pos p : board.emptyCells())
        if (board.isLegal(p)) return p;
    return POS_NONE;
}

SearchResult Engine::analyse(int multiPV, const search::IterationCallback& onIteration) {
    Board b = *board_;
    // Below strength 100 a playing level chooses the move (n-best analysis stays exact).
    SearchResult r = options_.strength < 100 && multiPV <= 1
                         ? searchAtStrength(b, onIteration)
                         : search(b, limits(multiPV), onIteration);
    // Never trust a move blindly: a manager scores an illegal one as a loss.
    if (r.bestMove == POS_NONE || !b.isLegal(r.bestMove)) {
        r.bestMove = fallbackMove(b);
        r.pv.clear();
        if (r.bestMove != POS_NONE) r.pv.push_back(r.bestMove);
    }
    return r;
}

SearchResult Engine::thinkAndPlay(const search::IterationCallback& onIteration) {
    SearchResult r = analyse(1, onIteration);
    if (r.bestMove != POS_NONE) play(r.bestMove);
    return r;
}

void Engine::ponder() {
    // A weaker level does not think ahead: its tables would make it stronger than its limits.
    if (board_->full() || board_->winner() != EMPTY || options_.strength < 100) return;
    Limits l = limits(1);
    l.infinite = true;
    search(*board_, l, {});
}

} // namespace moku::engine
