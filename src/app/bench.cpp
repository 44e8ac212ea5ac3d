#include "moku/app/bench.h"

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "moku/app/terminal.h"
#include "moku/game/board.h"
#include "moku/search/search.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

namespace moku::app {

namespace {

struct BenchPosition {
    const char* name;
    Rule rule;
    int size;
    int depth;
    std::vector<std::pair<int, int>> moves; // alternating, black first
};

// Openings and middle games from ordinary play, none decided by a short VCF.
const std::vector<BenchPosition> POSITIONS = {
    {"free15-opening", Rule::FREESTYLE, 15, 11, {{7, 7}, {8, 8}, {8, 6}}},
    {"free15-early",
     Rule::FREESTYLE,
     15,
     10,
     {{7, 7}, {7, 8}, {8, 8}, {9, 9}, {8, 7}, {6, 7}, {8, 9}, {8, 6}, {6, 9}, {9, 7}}},
    {"free15-mid",
     Rule::FREESTYLE,
     15,
     9,
     {{7, 7},
      {8, 6},
      {6, 6},
      {5, 5},
      {7, 4},
      {6, 5},
      {7, 5},
      {7, 6},
      {8, 4},
      {9, 3},
      {8, 7},
      {9, 7}}},
    {"free15-edge",
     Rule::FREESTYLE,
     15,
     10,
     {{2, 2}, {3, 3}, {2, 4}, {3, 4}, {4, 2}, {3, 2}, {3, 5}}},
    {"free20-opening", Rule::FREESTYLE, 20, 11, {{10, 10}, {11, 9}, {9, 9}}},
    {"free20-mid",
     Rule::FREESTYLE,
     20,
     9,
     {{10, 10},
      {11, 11},
      {9, 11},
      {11, 9},
      {10, 12},
      {8, 10},
      {9, 12},
      {11, 12},
      {11, 13},
      {9, 10}}},
    {"free20-spread",
     Rule::FREESTYLE,
     20,
     10,
     {{5, 5}, {6, 6}, {14, 14}, {13, 13}, {5, 14}, {6, 13}, {10, 10}, {11, 11}}},
    {"std15-opening", Rule::STANDARD, 15, 11, {{7, 7}, {7, 6}, {8, 8}, {6, 6}}},
    {"std15-mid",
     Rule::STANDARD,
     15,
     9,
     {{7, 7},
      {7, 6},
      {8, 8},
      {6, 6},
      {8, 6},
      {6, 8},
      {8, 7},
      {8, 5},
      {6, 7},
      {9, 7},
      {4, 5},
      {5, 6}}},
    {"renju-opening", Rule::RENJU, 15, 11, {{7, 7}, {8, 6}, {8, 7}}},
    {"renju-early",
     Rule::RENJU,
     15,
     10,
     {{7, 7}, {7, 6}, {8, 6}, {9, 5}, {6, 8}, {8, 8}, {6, 6}, {6, 7}}},
    {"renju-mid",
     Rule::RENJU,
     15,
     9,
     {{7, 7},
      {8, 7},
      {7, 8},
      {7, 9},
      {7, 4},
      {6, 6},
      {5, 6},
      {6, 5},
      {6, 4},
      {8, 4},
      {5, 4},
      {7, 5}}},
};

// CPU time of the calling thread (which runs the search's main worker), in milliseconds: on a
// machine shared with other work it shows the time to depth the main thread would need with
// a core of its own.
int64_t threadCpuMs() {
#ifdef _WIN32
    FILETIME created, exited, kernel, user;
    if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) return 0;
    auto ticks = [](FILETIME f) { return (int64_t(f.dwHighDateTime) << 32) | f.dwLowDateTime; };
    return (ticks(kernel) + ticks(user)) / 10000;
#else
    timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)) return 0;
    return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
#endif
}

} // namespace

uint64_t runBench(std::ostream& out, int threads, const eval::NetworkPair& network,
                  bool progressOnTerminal) {
    uint64_t total = 0;
    Progress progress(std::cerr, progressOnTerminal && isTerminal(stderr), int(POSITIONS.size()));
    auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < POSITIONS.size(); i++) {
        const BenchPosition& bp = POSITIONS[i];
        progress.update(int(i + 1), std::string(bp.name) + "...");
        game::Board b(bp.size, bp.size, bp.rule);
        for (auto [x, y] : bp.moves) b.move(Pos(x, y));
        // A fresh searcher per position: no hash or history carries over.
        search::Searcher s;
        s.setThreads(threads);
        s.setHashSize(size_t(16) << 20);
        if (network) s.setNetwork(network);
        search::Limits l;
        l.infinite = true;
        l.maxDepth = bp.depth;
        int64_t cpu = threadCpuMs();
        search::SearchResult r = s.think(b, l);
        cpu = threadCpuMs() - cpu;
        total += r.nodes;
        progress.clear(); // the result line takes its place
        // time_ms: the main thread's time to complete the depth (time to depth).
        out << bp.name << ": depth=" << r.depth << " move=" << posToString(r.bestMove)
            << " score=" << r.score << " nodes=" << r.nodes << " main_cpu_ms=" << cpu
            << " time_ms=" << r.timeMs << (s.networkActive() ? " nnue" : "") << "\n";
    }
    int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count();
    out << "bench: nodes=" << total << " nps=" << total * 1000 / uint64_t(std::max<int64_t>(ms, 1))
        << " time_ms=" << ms << std::endl;
    return total;
}

} // namespace moku::app
