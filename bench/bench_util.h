// Positions and loops shared by the micro benchmarks.
#pragma once

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "moku/game/board.h"

namespace moku::bench {

// A deterministic mid-game: `stones` moves played near the existing stones, no five made.
inline game::Board midgame(int size, int stones, Rule rule) {
    game::Board b(size, size, rule);
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

// Plays and takes back each candidate move of `b` in turn, one pair per iteration.
inline void moveUndoLoop(benchmark::State& state, game::Board& b) {
    std::vector<Pos> moves = b.candidates();
    size_t i = 0;
    for (auto _ : state) {
        b.move(moves[i]);
        b.undo();
        if (++i == moves.size()) i = 0;
    }
    state.SetItemsProcessed(state.iterations());
}

} // namespace moku::bench
