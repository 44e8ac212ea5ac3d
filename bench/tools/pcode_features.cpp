// moku_pcode_features: the per-pcode counts of self-play positions, for the per-pcode
// evaluation that training/fit_pcode.py fits.
//
//     moku_pcode_features PREFIX SHARD.mksp.lz4...
//
// writes PREFIX.x.npy, PREFIX.y.npy and PREFIX.prior.npy. X (int16, one row per position): over
// every empty cell, +1 for the pcode the side to move "us" has there and -1 for the pcode the
// other side has, summed over the position and the one before its last move (both counted for
// us). Freestyle and standard share one table between the colours (PCODE_NB columns); renju has
// one per colour (2 * PCODE_NB columns, black's first: black's pcodes know forbidden points).
// Y (float32): the threat mask of the position for us (eval::threatMask; in renju plus
// THREAT_MASK_NB when us is white), the game result for us (0, 0.5, 1), the search value as a
// winrate and the stone count. Prior (int32, one row per column of X): the pattern terms' value
// of each pcode in the first record's rule, to move and waiting. Left out: positions that are
// proven, in the opening, where us has a five or with no move before, and those whose rule's
// layout differs from the first record's. Every row is checked against the evaluator: a
// mismatch stops the tool.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
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

// Adds the counts of b for us; with perColour, each colour's pcodes in its own half.
void addCounts(const Board& b, Color us, bool perColour, int16_t* x) {
    int usAt = perColour ? int(us) * PCODE_NB : 0, themAt = perColour ? int(~us) * PCODE_NB : 0;
    for (int y = 0; y < b.height(); y++)
        for (int xx = 0; xx < b.width(); xx++) {
            Pos p(xx, y);
            if (!b.isEmpty(p)) continue;
            x[usAt + b.cell(p).pcode[us]]++;
            x[themAt + b.cell(p).pcode[~us]]--;
        }
}

// The number of pcode (and threat-mask) tables a rule's rows are laid out for: one per colour in
// renju, one shared by both elsewhere.
int colourTables(Rule rule) { return rule == Rule::RENJU ? 2 : 1; }

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
    std::vector<eval::ClassicalEvaluator> evaluators;
    for (int r = 0; r < RULE_NB; r++) {
        int tables = colourTables(Rule(r));
        check.pcodeValue[r].resize(tables * PCODE_NB);
        check.threatMaskValue[r].resize(tables * eval::THREAT_MASK_NB);
        for (int& v : check.pcodeValue[r]) v = int(rng() % 601) - 300;
        for (int& v : check.threatMaskValue[r]) v = int(rng() % 2001) - 1000;
        evaluators.emplace_back(Rule(r), check);
    }
    std::vector<int16_t> xs;
    std::vector<float> ys;
    size_t count = 0, skipped = 0, otherLayout = 0;
    std::optional<Rule> layoutRule; // the first usable record's rule: it sets the rows' layout
    size_t problems = tools::forEachRecord(argv + 2, argc - 2, [&](const data::Record& r) {
        if ((r.flags & (data::FLAG_PROVEN | data::FLAG_OPENING)) || r.rule > 4 || r.moves.empty()) {
            skipped++;
            return;
        }
        Rule rule = tools::recordRule(r.rule);
        if (!layoutRule) layoutRule = rule;
        if (colourTables(rule) != colourTables(*layoutRule)) {
            otherLayout++;
            return;
        }
        bool perColour = colourTables(rule) == 2;
        int columns = colourTables(rule) * PCODE_NB;
        Board b(r.size, r.size, rule);
        const eval::ClassicalEvaluator& ev = evaluators[int(rule)];
        ev.attach(b);
        for (size_t i = 0; i + 1 < r.moves.size(); i++)
            b.move(Pos(r.moves[i] % r.size, r.moves[i] / r.size), i % 2 == 0 ? BLACK : WHITE);
        Color us = r.moves.size() % 2 == 0 ? BLACK : WHITE;
        std::vector<int16_t> before(columns, 0), now(columns, 0);
        addCounts(b, us, perColour, before.data());
        b.move(Pos(r.moves.back() % r.size, r.moves.back() / r.size), ~us);
        if (b.p4Count(us, A_FIVE)) {
            skipped++;
            return;
        }
        addCounts(b, us, perColour, now.data());
        const std::vector<int>& w = check.pcodeValue[int(rule)];
        int64_t sNow = 0, sBefore = 0;
        for (int pc = 0; pc < columns; pc++) {
            sNow += int64_t(w[pc]) * now[pc];
            sBefore += int64_t(w[pc]) * before[pc];
        }
        int mask = eval::threatMask(b, us) + (perColour && us == WHITE ? eval::THREAT_MASK_NB : 0);
        int64_t expected =
            sNow + (sBefore - sNow) * 50 / 100 + check.threatMaskValue[int(rule)][mask];
        expected = std::clamp<int64_t>(expected, -VALUE_EVAL_MAX, VALUE_EVAL_MAX);
        if (expected != ev.evaluateFast(b)) {
            std::cerr << "moku_pcode_features: the counts give " << expected
                      << " where the evaluator gives " << ev.evaluateFast(b) << "\n";
            std::exit(1);
        }
        for (int pc = 0; pc < columns; pc++) xs.push_back(int16_t(now[pc] + before[pc]));
        ys.push_back(float(mask));
        ys.push_back(tools::resultScore(r));
        ys.push_back(tools::valueWinrate(r));
        ys.push_back(float(r.moves.size()));
        count++;
    });
    // The prior: the pattern terms of the first record's rule.
    Rule priorRule = layoutRule.value_or(Rule::FREESTYLE);
    eval::ClassicalConfig patterns = eval::ClassicalConfig::defaults();
    patterns.pcodeValue[int(priorRule)].clear();
    patterns.threatMaskValue[int(priorRule)].clear();
    eval::ClassicalTables tables(patterns, priorRule);
    std::vector<int32_t> prior;
    int priorColours = colourTables(priorRule);
    for (int side = 0; side < priorColours; side++)
        for (int pc = 0; pc < PCODE_NB; pc++)
            for (int stm = 0; stm < 2; stm++) prior.push_back(tables.cells.score[side][stm][pc]);
    int columns = priorColours * PCODE_NB;
    std::string prefix = argv[1];
    if (!tools::writeNpy(prefix + ".x.npy", xs, count, columns) ||
        !tools::writeNpy(prefix + ".y.npy", ys, count, 4) ||
        !tools::writeNpy(prefix + ".prior.npy", prior, columns, 2)) {
        std::cerr << "moku_pcode_features: cannot write the output\n";
        return 1;
    }
    std::cerr << "moku_pcode_features: " << count << " positions"
              << (priorColours == 2 ? " (a table per colour)" : "") << ", " << skipped
              << " left out, " << otherLayout << " of a rule with the other layout, " << problems
              << " problems\n";
    return problems ? 1 : 0;
}
