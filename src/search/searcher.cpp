// The Searcher facade: opening moves, then one worker's iterative deepening on a shared
// transposition table.
#include <algorithm>
#include <chrono>

#include "moku/search/search.h"
#include "worker.h"

namespace moku::search {

using namespace moku::game;

struct Searcher::Impl {
    TranspositionTable tt{size_t(16) << 20};
    std::unique_ptr<Worker> worker;
    eval::NetworkPair network; // shared by every worker
};

Searcher::Searcher() : impl_(std::make_unique<Impl>()) {
    impl_->worker = std::make_unique<Worker>(impl_->tt, stopFlag_);
}
Searcher::~Searcher() = default;

void Searcher::stop() { stopFlag_ = true; }

void Searcher::newGame() {
    impl_->tt.clear();
    impl_->worker->clearHistory();
}

void Searcher::setHashSize(size_t bytes) { impl_->tt.resize(bytes); }
size_t Searcher::hashSize() const { return impl_->tt.sizeBytes(); }
void Searcher::clearHash() { impl_->tt.clear(); }
void Searcher::setClassicalConfig(const eval::ClassicalConfig& cfg) {
    impl_->worker->setEvalConfig(cfg);
}

void Searcher::setNetwork(const eval::NetworkPair& network) {
    impl_->network = network;
    impl_->worker->setNetwork(network);
}
const eval::NetworkPair& Searcher::network() const { return impl_->network; }
bool Searcher::networkActive() const { return impl_->worker->networkActive(); }
bool Searcher::checkNetworkSync(const Board& root) { return impl_->worker->checkNetworkSync(root); }

namespace {

// The first moves need no search: the centre on an empty board, and next to a lone stone the
// diagonal neighbour nearest the centre.
Pos openingMove(const Board& b) {
    if (b.stoneCount() == 0) {
        if (b.isEmpty(b.centre()) && b.ply() == 0) return b.centre();
        return b.stoneCount() == 0 && b.isEmpty(b.centre()) ? b.centre() : POS_NONE;
    }
    if (b.stoneCount() != 1) return POS_NONE;
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

SearchResult Searcher::think(const Board& board, const Limits& limits,
                             const IterationCallback& onIteration) {
    auto start = std::chrono::steady_clock::now();
    stopFlag_ = false;
    // The worker takes the root even when an opening move needs no search, so that its network
    // evaluator always follows the game.
    Worker& w = *impl_->worker;
    w.setPosition(board);
    Pos opening =
        board.rule() == Rule::RENJU && board.stoneCount() == 1 && board.sideToMove() == BLACK
            ? POS_NONE
            : openingMove(board);
    if (opening != POS_NONE) {
        SearchResult r;
        r.bestMove = opening;
        r.score = VALUE_ZERO;
        r.depth = 1;
        r.pv = {opening};
        r.ranked = {{opening, VALUE_ZERO}};
        r.timeMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::steady_clock::now() - start)
                       .count();
        if (onIteration) onIteration({1, 1, 0, r.score, 0, r.timeMs, r.pv});
        return r;
    }
    return w.iterate(limits, onIteration);
}

} // namespace moku::search
