#include <benchmark/benchmark.h>

#include "bench_util.h"
#include "moku/game/board.h"
#include "moku/game/pattern.h"

using namespace moku;
using namespace moku::game;

namespace {

void moveUndo(benchmark::State& state, int size, Rule rule) {
    Board b = bench::midgame(size, size * size / 5, rule);
    bench::moveUndoLoop(state, b);
}

void BM_MoveUndo15(benchmark::State& s) { moveUndo(s, 15, Rule::FREESTYLE); }
void BM_MoveUndo20(benchmark::State& s) { moveUndo(s, 20, Rule::FREESTYLE); }
void BM_MoveUndoRenju15(benchmark::State& s) { moveUndo(s, 15, Rule::RENJU); }

void BM_Candidates15(benchmark::State& state) {
    Board b = bench::midgame(15, 45, Rule::FREESTYLE);
    for (auto _ : state) benchmark::DoNotOptimize(b.candidates());
    state.SetItemsProcessed(state.iterations());
}

// Building one rule's line-pattern and Pattern4 tables, as a fresh process does before its
// first move.
void BM_PatternTables(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(buildPatternTables(Rule(state.range(0))));
}

} // namespace

BENCHMARK(BM_MoveUndo15);
BENCHMARK(BM_MoveUndo20);
BENCHMARK(BM_MoveUndoRenju15);
BENCHMARK(BM_Candidates15);
BENCHMARK(BM_PatternTables)->DenseRange(0, RULE_NB - 1)->Unit(benchmark::kMillisecond);
