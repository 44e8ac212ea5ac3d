// The records of self-play shard files (training/FORMAT.md), for the feature tools.
#pragma once

#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>

#include "moku/core/types.h"
#include "moku/data/selfplay_format.h"

namespace moku::tools {

// The engine rule of a record's rule byte (0 freestyle, 1 standard, 2 renju).
inline Rule recordRule(uint8_t r) {
    return r == 0 ? Rule::FREESTYLE : r == 1 ? Rule::STANDARD : Rule::RENJU;
}

// The game result for the record's side to move: 1 won, 0.5 drawn, 0 lost.
inline float resultScore(const data::Record& r) {
    return r.result == data::RESULT_WIN ? 1.0f : r.result == data::RESULT_DRAW ? 0.5f : 0.0f;
}
// The record's search value as a winrate (the value scale: winrate = 1 / (1 + exp(-v / 200))).
inline float valueWinrate(const data::Record& r) {
    return float(1.0 / (1.0 + std::exp(-r.value / 200.0)));
}

// Calls fn(record) for every record of the files paths[0..count), in order, and prints each
// file's problems on stderr; returns how many problems there were.
template <class Fn> size_t forEachRecord(char** paths, int count, Fn&& fn) {
    size_t problems = 0;
    for (int a = 0; a < count; a++) {
        data::ReadResult rr = data::readRecordFile(paths[a]);
        for (const std::string& p : rr.problems) std::cerr << p << "\n";
        problems += rr.problems.size();
        for (const data::Record& r : rr.records) fn(r);
    }
    return problems;
}

} // namespace moku::tools
