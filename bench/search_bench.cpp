#include <benchmark/benchmark.h>

#include <sstream>

#include "bench_util.h"
#include "moku/app/bench.h"
#include "moku/core/json.h"
#include "moku/eval/classical.h"
#include "moku/search/vcf.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;

namespace {

// The VCF puzzles of the test data: the project's own and quintet's.
std::vector<Board> vcfPuzzles() {
    std::vector<Board> out;
    for (const Json& c : test::readJsonLines("vcf_moku.jsonl"))
        out.push_back(test::boardFromDiagram(c["board"], *ruleFromName(c["rule"].asString()),
                                             c["to_move"].asString() == "black" ? BLACK : WHITE));
    for (const Json& c : test::readJsonLines("mate_quintet.jsonl"))
        if (c["kind"].asString() == "VCF")
            out.push_back(test::boardFromDiagram(
                c["board"], Rule::RENJU, c["attacker"].asString() == "black" ? BLACK : WHITE));
    return out;
}

// Every VCF puzzle solved once per iteration (each well under a second).
void BM_VcfPuzzles(benchmark::State& state) {
    std::vector<Board> puzzles = vcfPuzzles();
    uint64_t nodes = 0;
    for (auto _ : state)
        for (const Board& b : puzzles) {
            search::VcfResult r = search::solveVcf(b);
            if (!r.win) state.SkipWithError("puzzle not solved");
            nodes += r.nodes;
        }
    state.counters["puzzles"] = double(puzzles.size());
    state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}

// One solve per puzzle, to see the slowest.
void BM_VcfPuzzle(benchmark::State& state) {
    static std::vector<Board> puzzles = vcfPuzzles();
    if (size_t(state.range(0)) >= puzzles.size()) {
        state.SkipWithError("no such puzzle");
        return;
    }
    const Board& b = puzzles[size_t(state.range(0))];
    for (auto _ : state) benchmark::DoNotOptimize(search::solveVcf(b).win);
}

void BM_ClassicalEvaluate(benchmark::State& state) {
    eval::ClassicalEvaluator ev(Rule::FREESTYLE);
    Board b(15, 15, Rule::FREESTYLE);
    ev.attach(b);
    for (auto [x, y] : {std::pair{7, 7}, {8, 8}, {8, 6}, {6, 8}, {7, 6}, {9, 6}, {6, 7}, {7, 8}})
        b.move(Pos(x, y));
    for (auto _ : state) benchmark::DoNotOptimize(ev.evaluateFast(b));
}

void BM_ClassicalEvaluateSlow(benchmark::State& state) {
    eval::ClassicalEvaluator ev(Rule::FREESTYLE);
    Board b(15, 15, Rule::FREESTYLE);
    ev.attach(b);
    for (auto [x, y] : {std::pair{7, 7}, {8, 8}, {8, 6}, {6, 8}, {7, 6}, {9, 6}, {6, 7}, {7, 8}})
        b.move(Pos(x, y));
    for (auto _ : state) benchmark::DoNotOptimize(ev.evaluateSlow(b));
}

void BM_MoveUndoWithEval15(benchmark::State& state) {
    eval::ClassicalEvaluator ev(Rule::FREESTYLE);
    Board b(15, 15, Rule::FREESTYLE);
    ev.attach(b);
    for (auto [x, y] : {std::pair{7, 7}, {8, 8}, {8, 6}, {6, 8}, {7, 6}, {9, 6}, {6, 7}, {7, 8}})
        b.move(Pos(x, y));
    bench::moveUndoLoop(state, b);
}

void BM_SearchBench(benchmark::State& state) {
    for (auto _ : state) {
        std::ostringstream out;
        benchmark::DoNotOptimize(app::runBench(out, 1));
    }
}

} // namespace

BENCHMARK(BM_VcfPuzzles)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VcfPuzzle)->DenseRange(0, 22)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ClassicalEvaluate);
BENCHMARK(BM_ClassicalEvaluateSlow);
BENCHMARK(BM_MoveUndoWithEval15);
BENCHMARK(BM_SearchBench)->Unit(benchmark::kMillisecond)->Iterations(1);
