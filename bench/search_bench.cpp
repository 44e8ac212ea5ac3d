#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "bench_util.h"
#include "moku/app/bench.h"
#include "moku/core/json.h"
#include "moku/eval/classical.h"
#include "moku/search/vcf.h"

using namespace moku;
using namespace moku::game;

namespace {

std::vector<Board> vcfPuzzles() {
    std::vector<Board> out;
    for (const char* file : {"/testdata/vcf_mintaka.jsonl", "/testdata/mate_quintet.jsonl"}) {
        std::ifstream in(std::string(MOKU_SHARED_DIR) + file);
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            Json c = Json::parse(line);
            if (c.contains("kind") && c["kind"].asString() != "VCF") continue;
            std::string who =
                c.contains("to_move") ? c["to_move"].asString() : c["attacker"].asString();
            const Json& rows = c["board"];
            Board b(15, 15, Rule::RENJU);
            for (int y = 0; y < 15; y++)
                for (int x = 0; x < 15; x++) {
                    char ch = rows[y].asString()[x];
                    if (ch == 'X') b.move(Pos(x, y), BLACK);
                    if (ch == 'O') b.move(Pos(x, y), WHITE);
                }
            Color side = who == "black" ? BLACK : WHITE;
            if (b.sideToMove() != side) b.move(POS_PASS, ~side);
            out.push_back(b);
        }
    }
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
BENCHMARK(BM_VcfPuzzle)->DenseRange(0, 14)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ClassicalEvaluate);
BENCHMARK(BM_ClassicalEvaluateSlow);
BENCHMARK(BM_MoveUndoWithEval15);
BENCHMARK(BM_SearchBench)->Unit(benchmark::kMillisecond)->Iterations(1);
