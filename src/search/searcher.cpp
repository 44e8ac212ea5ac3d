// The Searcher facade, Lazy SMP: the caller's thread runs the main worker's iterative deepening
// while a pool of helper threads, created once and reused, search the same root on the shared
// transposition table; at the end the threads vote for the move.
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "moku/search/search.h"
#include "worker.h"

namespace moku::search {

using namespace moku::game;

struct Searcher::Impl {
    explicit Impl(std::atomic<bool>& stop) : stop(stop) {
        workers.push_back(std::make_unique<Worker>(tt, stop, 0));
    }
    ~Impl() { resize(1); }

    std::atomic<bool>& stop;
    TranspositionTable tt{size_t(16) << 20};
    eval::ClassicalConfig evalConfig = eval::ClassicalConfig::defaults();
    SearchParams params;
    eval::NetworkPair network;                    // shared by every worker
    std::vector<std::unique_ptr<Worker>> workers; // [0] runs in the caller's thread
    std::vector<std::thread> threads;             // threads[i] runs workers[i + 1]
    std::mutex busy; // held by think() and by every change of the threads or the table

    // Helper hand-shake: a new round starts them, `running` counts those not yet done.
    std::mutex mutex;
    std::condition_variable cv;
    uint64_t round = 0;
    int running = 0;
    bool quit = false;

    void resize(int n);
    void helperLoop(Worker& w, uint64_t seen);
    void startHelpers(const Board& board);
    void waitHelpers();
};

// Stops and rebuilds the helpers when the thread count (at least one) changes.
void Searcher::Impl::resize(int n) {
    n = std::max(n, 1);
    if (n == int(workers.size())) return;
    {
        std::lock_guard lock(mutex);
        quit = true;
    }
    cv.notify_all();
    for (std::thread& t : threads) t.join();
    threads.clear();
    quit = false;
    workers.resize(1);
    for (int i = 1; i < n; i++) {
        workers.push_back(std::make_unique<Worker>(tt, stop, i));
        workers.back()->setEvalConfig(evalConfig);
        workers.back()->setParams(params);
        workers.back()->setNetwork(network);
    }
    for (auto& w : workers) w->peers = n > 1 ? &workers : nullptr;
    for (int i = 1; i < n; i++)
        threads.emplace_back([this, i, r = round] { helperLoop(*workers[size_t(i)], r); });
}

void Searcher::Impl::helperLoop(Worker& w, uint64_t seen) {
    for (;;) {
        {
            std::unique_lock lock(mutex);
            cv.wait(lock, [&] { return quit || round != seen; });
            if (quit) return;
            seen = round;
        }
        w.helperSearch();
        std::lock_guard lock(mutex);
        if (--running == 0) cv.notify_all();
    }
}

// In the main thread, once its root moves are ready: the helpers copy them and start.
void Searcher::Impl::startHelpers(const Board& board) {
    for (size_t i = 1; i < workers.size(); i++) {
        workers[i]->setPosition(board);
        workers[i]->prepareHelper(*workers[0]);
    }
    {
        std::lock_guard lock(mutex);
        running = int(workers.size()) - 1;
        round++;
    }
    cv.notify_all();
}

void Searcher::Impl::waitHelpers() {
    std::unique_lock lock(mutex);
    cv.wait(lock, [&] { return running == 0; });
}

Searcher::Searcher() : impl_(std::make_unique<Impl>(searchEnd_)) {}
Searcher::~Searcher() = default;

void Searcher::stop() {
    stopRequested_ = true;
    searchEnd_ = true;
}

void Searcher::clearStop() { stopRequested_ = false; }

void Searcher::newGame() {
    std::lock_guard lock(impl_->busy);
    impl_->tt.clear();
    for (auto& w : impl_->workers) w->clearHistory();
}

void Searcher::setThreads(int threads) {
    std::lock_guard lock(impl_->busy);
    impl_->resize(threads);
}

int Searcher::threads() const { return int(impl_->workers.size()); }

size_t Searcher::setHashSize(size_t bytes) {
    std::lock_guard lock(impl_->busy);
    return impl_->tt.resize(bytes);
}

size_t Searcher::hashSize() const { return impl_->tt.sizeBytes(); }

void Searcher::clearHash() {
    std::lock_guard lock(impl_->busy);
    impl_->tt.clear();
}

bool Searcher::makeHashResident(const std::function<bool()>& interrupt) {
    std::lock_guard lock(impl_->busy);
    return impl_->tt.makeResident(interrupt);
}

void Searcher::setClassicalConfig(const eval::ClassicalConfig& cfg) {
    std::lock_guard lock(impl_->busy);
    impl_->evalConfig = cfg;
    for (auto& w : impl_->workers) w->setEvalConfig(cfg);
}

void Searcher::setParams(const SearchParams& params) {
    std::lock_guard lock(impl_->busy);
    impl_->params = params;
    for (auto& w : impl_->workers) w->setParams(params);
}

void Searcher::setNetwork(const eval::NetworkPair& network) {
    std::lock_guard lock(impl_->busy);
    impl_->network = network;
    for (auto& w : impl_->workers) w->setNetwork(network);
}
const eval::NetworkPair& Searcher::network() const { return impl_->network; }
bool Searcher::networkActive() const { return impl_->workers[0]->networkActive(); }
bool Searcher::checkNetworkSync(const Board& root) {
    return impl_->workers[0]->checkNetworkSync(root);
}

namespace {

// Lazy SMP vote. Gomoku scores swing with the parity of the depth (the tempo of the side to
// move) and helpers complete other depths than the main thread, so scores of different depths
// do not compare: the deepest completed iteration decides, its score breaks ties between threads
// of that depth (the main thread first), and a proven win beats everything.
const Worker* voteBest(const std::vector<std::unique_ptr<Worker>>& workers) {
    auto counts = [](const Worker& w) {
        return w.completedDepth > 0 && w.lastBest.score > -VALUE_INFINITE;
    };
    // The main thread unless it has no completed iteration (a helper finished the depth limit
    // first, or it was descheduled): then the first helper that has one.
    const Worker* best = workers[0].get();
    for (const auto& w : workers)
        if (!counts(*best) && counts(*w)) best = w.get();
    if (!counts(*best)) return best;
    for (const auto& w : workers) {
        if (!counts(*w)) continue;
        Value s = w->lastBest.score, bs = best->lastBest.score;
        if (bs >= VALUE_MATE_IN_MAX_PLY) {
            if (s > bs) best = w.get(); // a shorter proven win
        } else if (s >= VALUE_MATE_IN_MAX_PLY || w->completedDepth > best->completedDepth ||
                   (w->completedDepth == best->completedDepth && s > bs)) {
            best = w.get();
        }
    }
    return best;
}

} // namespace

SearchResult Searcher::think(const Board& board, const Limits& limits,
                             const IterationCallback& onIteration) {
    std::lock_guard lock(impl_->busy);
    // The threads' signal is cleared before the stop flag is read: a stop() that this read
    // misses sets the signal again after it, so no stop is lost.
    searchEnd_ = false;
    Limits l = limits;
    if (stopRequested_) {
        // Stopped before it began: only a legal, searched move, from the first iteration.
        l.infinite = false;
        l.maxDepth = 1;
    }
    Worker& main = *impl_->workers[0];
    main.setPosition(board);
    if (impl_->workers.size() == 1) return main.iterate(l, onIteration);

    bool helping = false;
    int reported = 0; // the deepest iteration the main thread reported
    IterationCallback relay;
    if (onIteration)
        relay = [&](const IterationInfo& info) {
            if (info.pvIndex == 0) reported = std::max(reported, info.depth);
            onIteration(info);
        };
    SearchResult r = main.iterate(l, relay, [&] {
        impl_->startHelpers(board);
        helping = true;
    });
    if (!helping) return r;
    searchEnd_ = true;
    impl_->waitHelpers();
    r.nodes = main.totalNodes();
    if (l.multiPV > 1) return r;
    const Worker* best = voteBest(impl_->workers);
    if (best != &main) {
        r.bestMove = best->lastBest.pos;
        r.score = best->lastBest.score;
        r.depth = best->completedDepth;
        r.pv = best->lastBest.pv.empty() ? std::vector<Pos>{r.bestMove} : best->lastBest.pv;
        r.ranked = {{r.bestMove, r.score}};
        // A helper got deeper than the main thread's reports: report its line too.
        if (onIteration && r.depth > reported)
            onIteration({r.depth, best->lastBest.selDepth, 0, r.score, r.nodes, r.timeMs, r.pv});
    }
    return r;
}

} // namespace moku::search
