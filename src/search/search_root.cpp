// Iterative deepening at the root: root move list, quick VCF and VCT checks, aspiration windows,
// multi-PV, time decisions and the choice of the final move. Lazy SMP threads run the same
// iterations on their own, each skipping the depths that half of the others already search.
#include <algorithm>

#include "worker.h"

namespace moku::search {

using namespace moku::game;

uint64_t Worker::totalNodes() const {
    if (!peers) return nodes;
    uint64_t sum = 0;
    for (const auto& w : *peers) sum += w->nodes;
    return sum;
}

void Worker::resetForSearch() {
    nodes = 0;
    completedDepth = 0;
    searchingDepth = 0;
    for (StackEntry& s : stack_) s = StackEntry{};
}

void Worker::prepareHelper(const Worker& main) {
    limits_ = main.limits_;
    limits_.multiPV = 1;
    timeLimited_ = false; // the main thread watches the clock
    rootMoves_ = main.rootMoves_;
    lastBest = rootMoves_[0];
    resetForSearch();
}

void Worker::helperSearch() { deepen({}); }

// Lazy SMP: a thread skips a depth that at least half of the other threads are searching, so
// that with two threads they leapfrog (each starts two plies beyond its last iteration, on the
// table the other is filling) and no thread repeats the iteration another one is finishing.
// The depth limit itself is never skipped: every thread ends on it.
int Worker::nextDepth(int depth, int maxDepth) const {
    if (!peers) return depth;
    int threads = int(peers->size());
    while (depth < maxDepth) {
        int others = 0;
        for (const auto& w : *peers)
            others += w.get() != this && w->searchingDepth.load(std::memory_order_relaxed) == depth;
        if (others * 2 < threads) break;
        depth++;
    }
    return depth;
}

SearchResult Worker::iterate(const Limits& limits, const IterationCallback& onIteration,
                             const std::function<void()>& startHelpers) {
    limits_ = limits;
    int empty = board.width() * board.height() - board.stoneCount();
    time_.start(limits.time, empty, limits.infinite, limits.turnStart);
    timeLimited_ = !limits.infinite && time_.budget().limited;
    tt_.newSearch();
    resetForSearch();

    SearchResult result;
    auto finish = [&](SearchResult& r) {
        r.nodes = totalNodes();
        r.timeMs = time_.elapsedMs();
        return r;
    };

    // Root moves, in the picker's order.
    TTData tte;
    Pos ttMove = tt_.probe(board.hash(), tte) && tte.move.valid() && board.isEmpty(tte.move)
                     ? tte.move
                     : POS_NONE;
    MoveList list;
    generate(list, ttMove, 0, true);
    std::stable_sort(list.moves, list.moves + list.size,
                     [](const ScoredMove& a, const ScoredMove& b) { return a.score > b.score; });
    rootMoves_.clear();
    for (int i = 0; i < list.size; i++) {
        RootMove rm;
        rm.pos = list.moves[i].pos;
        rootMoves_.push_back(rm);
    }
    if (rootMoves_.empty()) {
        // Nothing sensible is legal (a lost renju position or no candidates): any legal cell.
        for (int y = 0; y < board.height() && result.bestMove == POS_NONE; y++)
            for (int x = 0; x < board.width(); x++)
                if (isLegal(Pos(x, y))) {
                    result.bestMove = Pos(x, y);
                    break;
                }
        result.score = board.p4Count(~board.sideToMove(), A_FIVE) ? matedIn(2) : VALUE_DRAW;
        if (result.bestMove != POS_NONE) result.pv = {result.bestMove};
        return finish(result);
    }

    // A win the solvers prove is played without alpha-beta.
    auto proven = [&](const std::vector<Pos>& line, Value score) {
        result.bestMove = line[0];
        result.score = score;
        result.pv = line;
        result.depth = 1;
        result.ranked = {{line[0], result.score}};
        finish(result);
        if (onIteration)
            onIteration(
                {1, int(line.size()), 0, result.score, result.nodes, result.timeMs, result.pv});
        return result;
    };
    // A solver's node budget: what the clock can afford (fixed when there is no clock, so that
    // bench stays deterministic), within the node limit.
    auto solverBudget = [&](double perMs, int64_t most, uint64_t fixed) {
        uint64_t budget = timeLimited_
                              ? uint64_t(std::clamp<int64_t>(
                                    int64_t(double(time_.budget().maximumMs) * perMs), 500, most))
                              : fixed;
        return limits.maxNodes ? std::min<uint64_t>(budget, limits.maxNodes) : budget;
    };
    // A win by fours: look for one first.
    Value qw = quickWin(0);
    std::vector<Pos> line;
    if ((qw == VALUE_NONE || qw > 0) && vcfRoot(120, solverBudget(200, 400000, 200000), line) &&
        !line.empty() && isLegal(line[0]))
        return proven(line, mateIn(int(line.size())));
    // A win by threes and fours (when [search] vct_depth asks for one), with a smaller budget.
    // (The line may stop early at a proven transposition: its mate distance is a guess.)
    if (qw == VALUE_NONE && params_.vctDepth > 0 &&
        vctRoot(int(params_.vctDepth), solverBudget(params_.vctNodesPerMs, 200000, 20000), line) &&
        !line.empty() && isLegal(line[0]))
        return proven(line, mateIn(int(line.size()) + 2));

    lastBest = rootMoves_[0];
    if (startHelpers) startHelpers();
    deepen(onIteration);
    result.bestMove = lastBest.pos;
    result.score = lastBest.score == -VALUE_INFINITE ? VALUE_NONE : lastBest.score;
    result.depth = completedDepth;
    result.pv = lastBest.pv.empty() ? std::vector<Pos>{lastBest.pos} : lastBest.pv;
    result.ranked = lastRanked_.empty()
                        ? std::vector<std::pair<Pos, Value>>{{lastBest.pos, result.score}}
                        : lastRanked_;
    return finish(result);
}

// The best of the root moves searched to their end at `depth` (the iteration the clock cut
// short), when the previous best move is one of them: every other such move with a score beat
// the previous best's new value, so it is the better move at this depth. Otherwise `previous`.
RootMove Worker::partialBest(int depth, const RootMove& previous) const {
    const RootMove* best = nullptr;
    bool previousSearched = false;
    for (const RootMove& rm : rootMoves_) {
        if (rm.searchedDepth != depth) continue;
        previousSearched |= rm.pos == previous.pos;
        if (rm.score > -VALUE_INFINITE && (!best || rm.score > best->score)) best = &rm;
    }
    return previousSearched && best ? *best : previous;
}

void Worker::deepen(const IterationCallback& onIteration) {
    const bool main = id == 0;
    int multiPV = std::clamp(limits_.multiPV, 1, int(rootMoves_.size()));
    int maxDepth = limits_.maxDepth > 0 ? std::min(limits_.maxDepth, MAX_PLY - 16) : MAX_PLY - 16;
    lastRanked_.clear();
    Pos previousBest = POS_NONE;
    Value previousScore = VALUE_NONE;

    for (int depth = 1; depth <= maxDepth; depth++) {
        depth = nextDepth(depth, maxDepth);
        searchingDepth.store(depth, std::memory_order_relaxed);
        rootDepth_ = Depth(depth);
        for (RootMove& rm : rootMoves_) rm.previousScore = rm.score;
        for (pvIdx_ = 0; pvIdx_ < multiPV && !stop_.load(); pvIdx_++) {
            RootMove& first = rootMoves_[pvIdx_];
            Value prev = first.previousScore;
            Value delta = Value(params_.aspirationDelta);
            Value alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
            if (depth >= int(params_.aspirationDepth) && prev > -VALUE_INFINITE && !isMate(prev)) {
                alpha = std::max<Value>(prev - delta, -VALUE_INFINITE);
                beta = std::min<Value>(prev + delta, VALUE_INFINITE);
            }
            while (true) {
                Value v = rootSearch(alpha, beta, Depth(depth));
                std::stable_sort(
                    rootMoves_.begin() + pvIdx_, rootMoves_.end(),
                    [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
                if (stop_.load()) break;
                if (v <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = std::max<Value>(v - delta, -VALUE_INFINITE);
                } else if (v >= beta) {
                    beta = std::min<Value>(v + delta, VALUE_INFINITE);
                } else {
                    break;
                }
                delta = Value(delta * params_.aspirationGrowth + params_.aspirationAdd);
                if (delta > params_.aspirationMax) alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
            }
            std::stable_sort(
                rootMoves_.begin(), rootMoves_.begin() + pvIdx_ + 1,
                [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
            if (!stop_.load() && onIteration) {
                const RootMove& rm = rootMoves_[pvIdx_];
                onIteration(
                    {depth, rm.selDepth, pvIdx_, rm.score, totalNodes(), time_.elapsedMs(), rm.pv});
            }
        }
        if (stop_.load()) {
            // Keep the last completed iteration's move unless this one proved a better one.
            const RootMove& cur = rootMoves_[0];
            if (completedDepth == 0 || (cur.score > lastBest.score && cur.score > -VALUE_INFINITE))
                lastBest = cur;
            else if (params_.partialIteration > 0 && multiPV == 1)
                lastBest = partialBest(depth, lastBest);
            break;
        }
        completedDepth = depth;
        lastBest = rootMoves_[0];
        lastRanked_.clear();
        for (int i = 0; i < multiPV; i++)
            lastRanked_.push_back({rootMoves_[i].pos, rootMoves_[i].score});
        Value score = lastBest.score;
        // A proven result does not change with more depth.
        if (isMate(score) && VALUE_MATE - std::abs(score) <= depth) break;
        if (!main) {
            // A helper that completes the depth limit ends the search: the vote takes its move.
            if (depth >= maxDepth && limits_.maxDepth > 0) stop_ = true;
            continue;
        }
        if (rootMoves_.size() == 1 && timeLimited_) break;
        bool changed = previousBest != POS_NONE && previousBest != lastBest.pos;
        Value drop = previousScore == VALUE_NONE ? 0 : previousScore - score;
        previousBest = lastBest.pos;
        previousScore = score;
        if (timeLimited_ && time_.stopAfterIteration(changed, drop)) break;
    }
    searchingDepth.store(0, std::memory_order_relaxed);
}

} // namespace moku::search
