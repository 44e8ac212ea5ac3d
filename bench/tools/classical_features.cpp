// moku_features: turns self-play shards (training/FORMAT.md) into the feature counts of the
// classical evaluation, for training/fit_classical.py.
//
//     moku_features OUT.npy SHARD.mksp.lz4...
//
// The classical value of a position is linear in its [classical] numbers (scale 100 %, the
// threat block percentage fixed): for the side to move "us" and the other side "them",
//     value = sum over empty cells c of  table[us][0][pcode_us(c)] - table[them][1][pcode_them(c)]
//             + threat_own[level(us)] * (them has a five ? block% : 1) -
//             threat_opponent[level(them)]
// and every table entry is pattern4[stm][p4] plus, unless the cell is a forbidden renju point,
// the sum of pattern[stm][p] over its four line patterns. So each position is a vector of counts
// (FEATURES below, in the order of the [classical] arrays) whose dot product with the numbers is
// the value before clamping. Every row is checked against the evaluator itself: a mismatch stops
// the tool (the two must never drift apart).
//
// Output: a float32 .npy array, one row per position: the FEATURE_NB counts, then the game
// result for the side to move (0, 0.5, 1), the search value as a winrate, and the stone count.
// Positions whose value is proven, that are in the opening, or where the side to move has a five
// are left out (the evaluation never decides those).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
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

constexpr int PAT = PATTERN_NB, P4 = PATTERN4_NB, TH = eval::THREAT_NB;
// pattern[0], pattern[1], pattern4[0], pattern4[1], threat_own, threat_opponent.
constexpr int FEATURE_NB = 2 * PAT + 2 * P4 + 2 * TH;
constexpr int EXTRA = 3;

// The feature counts of `b` for its side to move; blockPercent scales the own threat when the
// opponent holds a five point.
void features(const Board& b, int blockPercent, float* f) {
    std::memset(f, 0, sizeof(float) * FEATURE_NB);
    const PatternTables& pt = patternTables(b.rule());
    Color us = b.sideToMove(), them = ~us;
    for (int y = 0; y < b.height(); y++)
        for (int x = 0; x < b.width(); x++) {
            Pos p(x, y);
            if (!b.isEmpty(p)) continue;
            for (int stm = 0; stm < 2; stm++) {
                Color c = stm == 0 ? us : them;
                float sign = stm == 0 ? 1.0f : -1.0f;
                uint16_t pc = b.cell(p).pcode[c];
                auto p4 = Pattern4(pt.p4[c][pc]);
                f[2 * PAT + stm * P4 + p4] += sign;
                if (p4 != FORBID)
                    for (Pattern q : pcodePatterns(pc)) f[stm * PAT + q] += sign;
            }
        }
    bool oppFive = b.p4Count(them, A_FIVE) > 0;
    f[2 * PAT + 2 * P4 + eval::threatLevel(b, us)] += oppFive ? blockPercent / 100.0f : 1.0f;
    f[2 * PAT + 2 * P4 + TH + eval::threatLevel(b, them)] -= 1.0f;
}

// The default numbers in feature order.
std::vector<double> defaultWeights(const eval::ClassicalConfig& c) {
    std::vector<double> w;
    w.reserve(FEATURE_NB);
    auto add = [&w](const auto& values) {
        for (int v : values) w.push_back(v);
    };
    for (int s = 0; s < 2; s++) add(c.pattern[s]);
    for (int s = 0; s < 2; s++) add(c.pattern4[s]);
    add(c.threatOwn);
    add(c.threatOpp);
    return w;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: moku_features OUT.npy SHARD.mksp.lz4...\n";
        return 2;
    }
    // The pattern terms in every rule (freestyle's embedded per-pcode tables left out).
    eval::ClassicalConfig cfg = eval::ClassicalConfig::defaults();
    for (auto& v : cfg.pcodeValue) v.clear();
    for (auto& v : cfg.threatMaskValue) v.clear();
    const std::vector<double> w = defaultWeights(cfg);
    const eval::ClassicalEvaluator evaluators[3] = {eval::ClassicalEvaluator(Rule::FREESTYLE, cfg),
                                                    eval::ClassicalEvaluator(Rule::STANDARD, cfg),
                                                    eval::ClassicalEvaluator(Rule::RENJU, cfg)};
    std::vector<float> rows;
    size_t count = 0, skipped = 0;
    size_t problems = tools::forEachRecord(argv + 2, argc - 2, [&](const data::Record& r) {
        if ((r.flags & (data::FLAG_PROVEN | data::FLAG_OPENING)) || r.rule > 2) {
            skipped++;
            return;
        }
        Board b(r.size, r.size, tools::recordRule(r.rule));
        const eval::ClassicalEvaluator& ev = evaluators[r.rule];
        ev.attach(b);
        for (size_t i = 0; i < r.moves.size(); i++)
            b.move(Pos(r.moves[i] % r.size, r.moves[i] / r.size), i % 2 == 0 ? BLACK : WHITE);
        if (b.p4Count(b.sideToMove(), A_FIVE)) {
            skipped++;
            return;
        }
        float f[FEATURE_NB];
        features(b, cfg.threatBlockPercent, f);
        double dot = 0;
        for (int k = 0; k < FEATURE_NB; k++) dot += w[k] * f[k];
        Value v = ev.evaluateFast(b);
        double clamped = std::clamp(dot, double(-VALUE_EVAL_MAX), double(VALUE_EVAL_MAX));
        // The evaluator rounds the blocked own threat down to an integer.
        if (std::abs(clamped - v) > 1.0) {
            std::cerr << "moku_features: the features give " << clamped
                      << " where the evaluator gives " << v << "\n";
            std::exit(1);
        }
        rows.insert(rows.end(), f, f + FEATURE_NB);
        rows.push_back(tools::resultScore(r));
        rows.push_back(tools::valueWinrate(r));
        rows.push_back(float(r.moves.size()));
        count++;
    });
    if (!tools::writeNpy(argv[1], rows, count, FEATURE_NB + EXTRA)) {
        std::cerr << "moku_features: cannot write " << argv[1] << "\n";
        return 1;
    }
    std::cerr << "moku_features: " << count << " positions, " << skipped << " left out, "
              << problems << " problems\n";
    return problems ? 1 : 0;
}
