// moku_pcode_features: the per-pcode counts of self-play positions, for the per-pcode
// evaluation that training/fit_pcode.py fits.
//
//     moku_pcode_features PREFIX SHARD.mksp.lz4...
//
// writes PREFIX.x.npy, PREFIX.y.npy and PREFIX.prior.npy. X (int16, one row per position,
// PCODE_NB columns): over every empty cell, +1 for the pcode the side to move "us" has there and
// -1 for the pcode the other side has, summed over the position and the one before its last
// move (both counted for us). Y (float32): the threat mask of the position for us
// (eval::threatMask), the game result for us (0, 0.5, 1), the search value as a winrate and the
// stone count. Prior (int32, PCODE_NB rows): the pattern terms' value of each pcode for black,
// to move and waiting (freestyle). Left out: positions that are proven, in the opening, where
// us has a five or with no move before, and renju (it would need a table per colour). Every row
// is checked against the evaluator: a mismatch stops the tool.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "moku/data/selfplay_format.h"
#include "moku/eval/classical.h"
#include "moku/game/board.h"
#include "moku/game/pattern.h"
#include "npy.h"
#include "records.h"

using namespace moku;
using namespace moku::game;

namespace {

void addCounts(const Board& b, Color us, int16_t* x) {
    for (int y = 0; y < b.height(); y++)
        for (int xx = 0; xx < b.width(); xx++) {
            Pos p(xx, y);
            if (!b.isEmpty(p)) continue;
            x[b.cell(p).pcode[us]]++;
            x[b.cell(p).pcode[~us]]--;
        }
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: moku_pcode_features PREFIX SHARD.mksp.lz4...\n";
        return 2;
    }
    // Every row is checked against the evaluator with random tables: the fit's model and the
    // engine must never drift apart.
    std::mt19937 rng(1);
    eval::ClassicalConfig check = eval::ClassicalConfig::defaults();
    for (int r = 0; r < RULE_NB; r++) {
        check.pcodeValue[r].resize(PCODE_NB);
        check.threatMaskValue[r].resize(eval::THREAT_MASK_NB);
        for (int& v : check.pcodeValue[r]) v = int(rng() % 601) - 300;
        for (int& v : check.threatMaskValue[r]) v = int(rng() % 2001) - 1000;
    }
    const eval::ClassicalEvaluator evaluators[2] = {
        eval::ClassicalEvaluator(Rule::FREESTYLE, check),
        eval::ClassicalEvaluator(Rule::STANDARD, check)};
    std::vector<int16_t> xs;
    std::vector<float> ys;
    size_t count = 0, skipped = 0;
    size_t problems = tools::forEachRecord(argv + 2, argc - 2, [&](const data::Record& r) {
        // Renju would need a table per colour (black's pcodes know forbidden points).
        if ((r.flags & (data::FLAG_PROVEN | data::FLAG_OPENING)) || r.rule > 1 || r.moves.empty()) {
            skipped++;
            return;
        }
        Board b(r.size, r.size, tools::recordRule(r.rule));
        const eval::ClassicalEvaluator& ev = evaluators[r.rule];
        ev.attach(b);
        for (size_t i = 0; i + 1 < r.moves.size(); i++)
            b.move(Pos(r.moves[i] % r.size, r.moves[i] / r.size), i % 2 == 0 ? BLACK : WHITE);
        Color us = r.moves.size() % 2 == 0 ? BLACK : WHITE;
        std::vector<int16_t> before(PCODE_NB, 0), now(PCODE_NB, 0);
        addCounts(b, us, before.data());
        b.move(Pos(r.moves.back() % r.size, r.moves.back() / r.size), ~us);
        if (b.p4Count(us, A_FIVE)) {
            skipped++;
            return;
        }
        addCounts(b, us, now.data());
        int ri = int(tools::recordRule(r.rule));
        const std::vector<int>& w = check.pcodeValue[ri];
        int64_t sNow = 0, sBefore = 0;
        for (int pc = 0; pc < PCODE_NB; pc++) {
            sNow += int64_t(w[pc]) * now[pc];
            sBefore += int64_t(w[pc]) * before[pc];
        }
        int mask = eval::threatMask(b, us);
        int64_t expected = sNow + (sBefore - sNow) * 50 / 100 + check.threatMaskValue[ri][mask];
        expected = std::clamp<int64_t>(expected, -VALUE_EVAL_MAX, VALUE_EVAL_MAX);
        if (expected != ev.evaluateFast(b)) {
            std::cerr << "moku_pcode_features: the counts give " << expected
                      << " where the evaluator gives " << ev.evaluateFast(b) << "\n";
            std::exit(1);
        }
        for (int pc = 0; pc < PCODE_NB; pc++) xs.push_back(int16_t(now[pc] + before[pc]));
        ys.push_back(float(mask));
        ys.push_back(tools::resultScore(r));
        ys.push_back(tools::valueWinrate(r));
        ys.push_back(float(r.moves.size()));
        count++;
    });
    eval::ClassicalConfig patterns = eval::ClassicalConfig::defaults();
    patterns.pcodeValue[int(Rule::FREESTYLE)].clear();
    patterns.threatMaskValue[int(Rule::FREESTYLE)].clear();
    eval::ClassicalTables tables(patterns, Rule::FREESTYLE);
    std::vector<int32_t> prior;
    for (int pc = 0; pc < PCODE_NB; pc++)
        for (int stm = 0; stm < 2; stm++) prior.push_back(tables.cells.score[BLACK][stm][pc]);
    std::string prefix = argv[1];
    if (!tools::writeNpy(prefix + ".x.npy", xs, count, PCODE_NB) ||
        !tools::writeNpy(prefix + ".y.npy", ys, count, 4) ||
        !tools::writeNpy(prefix + ".prior.npy", prior, PCODE_NB, 2)) {
        std::cerr << "moku_pcode_features: cannot write the output\n";
        return 1;
    }
    std::cerr << "moku_pcode_features: " << count << " positions, " << skipped << " left out, "
              << problems << " problems\n";
    return problems ? 1 : 0;
}
