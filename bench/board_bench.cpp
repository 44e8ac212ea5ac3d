#include <benchmark/benchmark.h>

#include <random>

#include "moku/game/board.h"

using namespace moku;
using namespace moku::game;

namespace {

// A deterministic mid-game: `stones` moves played near the existing stones.
Board midgame(int size, int stones, Rule rule) {
    Board b(size, size, rule);
    std::mt19937 rng(42);
    b.move(b.centre());
    while (b.stoneCount() < stones) {
        auto cand = b.candidates();
        Pos p = cand[rng() % cand.size()];
        if (b.isFive(p, b.sideToMove()) || b.isFive(p, ~b.sideToMove())) continue;
        b.move(p);
    }
    return b;
}

void moveUndo(benchmark::State& state, int size, Rule rule) {
    Board b = midgame(size, size * size / 5, rule);
    std::vector<Pos> moves = b.candidates();
    size_t i = 0;
    for (auto _ : state) {
        b.move(moves[i]);
        b.undo();
        if (++i == moves.size()) i = 0;
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_MoveUndo15(benchmark::State& s) { moveUndo(s, 15, Rule::FREESTYLE); }
void BM_MoveUndo20(benchmark::State& s) { moveUndo(s, 20, Rule::FREESTYLE); }
void BM_MoveUndoRenju15(benchmark::State& s) { moveUndo(s, 15, Rule::RENJU); }

void BM_Candidates15(benchmark::State& state) {
    Board b = midgame(15, 45, Rule::FREESTYLE);
    for (auto _ : state) benchmark::DoNotOptimize(b.candidates());
    state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_MoveUndo15);
BENCHMARK(BM_MoveUndo20);
BENCHMARK(BM_MoveUndoRenju15);
BENCHMARK(BM_Candidates15);
