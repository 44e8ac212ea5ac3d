// Thinking: the searcher wrapped so that the engine always answers with a legal move and a
// stop() can never be lost, even when it arrives just before the search starts.
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
    return l;
}

void Engine::stop() {
    stopRequested_ = true;
    searcher_.stop();
}

void Engine::clearStop() { stopRequested_ = false; }

void Engine::clearHash() { searcher_.clearHash(); }

void Engine::setClassicalConfig(const eval::ClassicalConfig& cfg) {
    searcher_.setClassicalConfig(cfg);
}

void Engine::setSearchParams(const search::SearchParams& params) { searcher_.setParams(params); }

namespace {

std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// E.g. "hash 283 MiB (max_memory 350 MiB, 1 thread, 11 MiB in use before)".
std::string describe(const search::MemoryPlan& p) {
    std::string s = "hash " + mib(p.tableBytes) + " (";
    if (p.wantBytes) s += "hash_size " + mib(p.wantBytes) + ", ";
    s += "max_memory " + mib(p.limitBytes) + ", " + std::to_string(p.threads) +
         (p.threads == 1 ? " thread, " : " threads, ") + mib(p.baselineBytes) + " in use before";
    if (p.failedBytes) s += "; " + mib(p.failedBytes) + " could not be allocated";
    return s + ")";
}

} // namespace

// Resizing empties the table, so it happens only when one of its inputs really changed.
void Engine::applyHashSize() {
    int64_t limit =
        options_.maxMemoryBytes > 0 ? options_.maxMemoryBytes : int64_t(search::DEFAULT_MAX_MEMORY);
    // A newly loaded network file changes the baseline too.
    std::array<int64_t, 4> want = {options_.threads, limit, std::max<int64_t>(options_.hashKiB, 0),
                                   int64_t(loaded_.size())};
    if (want == applied_) return;
    plan_ = searcher_.configure(options_.threads, uint64_t(limit), uint64_t(want[2]) * 1024);
    applied_ = want;
    pendingNote_ = describe(plan_);
}

SearchResult Engine::search(const Board& board, const Limits& limits,
                            const search::IterationCallback& onIteration) {
    updateNetwork();
    applyHashSize();
    // Told at the next search, where managers expect MESSAGE lines (not between START and OK).
    if (!pendingNote_.empty() && noteSink_) noteSink_(pendingNote_);
    pendingNote_.clear();
    Limits l = limits;
    // A stop that came before the search began: finish the first iteration and return.
    if (stopRequested_) {
        l.infinite = false;
        l.maxDepth = 1;
    }
    // The searcher clears its stop flag when it starts, so a stop() racing with the start is
    // repeated at the first completed iteration.
    auto relay = [&](const search::IterationInfo& info) {
        if (stopRequested_) searcher_.stop();
        if (onIteration) onIteration(info);
    };
    return searcher_.think(board, l, relay);
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
    // The first move of a game is the centre: searching the empty board costs time (a cold
    // process at that) and finds nothing better.
    if (b.stoneCount() == 0 && multiPV <= 1 && b.isLegal(b.centre())) {
        SearchResult r;
        r.bestMove = b.centre();
        r.score = VALUE_ZERO;
        r.pv = {r.bestMove};
        if (onIteration) onIteration({1, 1, 0, r.score, 0, 0, r.pv});
        return r;
    }
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
