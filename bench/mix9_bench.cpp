// mix9svq evaluator speed per kernel on a 15x15 midgame (40 stones).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "moku/eval/mix9.h"

using namespace moku;
using namespace moku::eval;

namespace {

const std::shared_ptr<const Mix9Weights>& benchWeights() {
    static const LoadResult r =
        loadMix9(std::string(MOKU_TEST_DATA_DIR) + "/mix9svq/synthetic-freestyle.bin.lz4",
                 Rule::FREESTYLE, 15);
    return r.weights;
}

constexpr int N = 15;

// 40 stones scattered around the centre, black to move; returns the empty cells.
std::vector<int> setupMidgame(Mix9Evaluator& ev) {
    std::mt19937 rng(2024);
    std::normal_distribution<double> d(7.0, 2.5);
    int placed = 0;
    while (placed < 40) {
        int x = int(d(rng) + 0.5), y = int(d(rng) + 0.5);
        if (x < 0 || x >= N || y < 0 || y >= N || ev.stoneAt(x, y) != EMPTY) continue;
        ev.move(x, y, placed % 2 ? WHITE : BLACK);
        ++placed;
    }
    std::vector<int> empty;
    for (int c = 0; c < N * N; ++c)
        if (ev.stoneAt(c % N, c / N) == EMPTY) empty.push_back(c);
    return empty;
}

// The search's leaf pattern: try a sibling move, evaluate it, take it back.
void moveValueUndo(benchmark::State& state, SimdLevel level) {
    if (!benchWeights()) return state.SkipWithError("synthetic network not found");
    Mix9Evaluator ev(benchWeights(), benchWeights(), N, level);
    std::vector<int> empty = setupMidgame(ev);
    ev.value(BLACK);
    size_t i = 0;
    for (auto _ : state) {
        int c = empty[i++ % empty.size()];
        ev.move(c % N, c / N, BLACK);
        benchmark::DoNotOptimize(ev.value(WHITE));
        ev.undo();
    }
    state.SetItemsProcessed(state.iterations());
}

// Policy of every empty cell after a move (incremental update + dynamic weights + cells).
void movePolicyUndo(benchmark::State& state, SimdLevel level) {
    if (!benchWeights()) return state.SkipWithError("synthetic network not found");
    Mix9Evaluator ev(benchWeights(), benchWeights(), N, level);
    std::vector<int> empty = setupMidgame(ev);
    std::vector<float> out(N * N);
    size_t i = 0;
    for (auto _ : state) {
        int c = empty[i++ % empty.size()];
        ev.move(c % N, c / N, BLACK);
        ev.policy(WHITE, out.data());
        benchmark::DoNotOptimize(out.data());
        ev.undo();
    }
    state.SetItemsProcessed(state.iterations());
}

// Full-board policy of one position asked again (accumulators and dynamic weights cached).
void policyOnly(benchmark::State& state, SimdLevel level) {
    if (!benchWeights()) return state.SkipWithError("synthetic network not found");
    Mix9Evaluator ev(benchWeights(), benchWeights(), N, level);
    setupMidgame(ev);
    std::vector<float> out(N * N);
    for (auto _ : state) {
        ev.policy(BLACK, out.data());
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations());
}

const int registered = [] {
    for (SimdLevel l : supportedSimdLevels()) {
        std::string n(simdName(l));
        benchmark::RegisterBenchmark(("Mix9_MoveValueUndo/" + n).c_str(), moveValueUndo, l);
        benchmark::RegisterBenchmark(("Mix9_MovePolicyUndo/" + n).c_str(), movePolicyUndo, l);
        benchmark::RegisterBenchmark(("Mix9_Policy/" + n).c_str(), policyOnly, l);
    }
    return 0;
}();

} // namespace
