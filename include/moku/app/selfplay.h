// `pbrain-moku selfplay`: engine-against-engine games written as training records
// (training/FORMAT.md), one per searched position. Game i depends on (seed, i) only, so a run
// with one search thread is reproducible and an interrupted run resumes to the same bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "moku/core/types.h"
#include "moku/engine/engine.h"
#include "moku/eval/classical.h"
#include "moku/search/params.h"

namespace moku::app {

// An opening: points (x, y) in playing order, black first.
using Opening = std::vector<std::pair<int, int>>;

struct SelfplayOptions {
    Rule rule = Rule::FREESTYLE;
    int size = 15;
    int games = 0;
    uint64_t seed = 1;
    std::string output;
    std::vector<Opening> openings;              // empty: a random opening per game
    uint64_t minNodes = 4000, maxNodes = 12000; // a move's node budget, drawn in [min, max]
    int threads = 1;
    int randomPlies = 6; // after the opening, moves drawn among the good root moves
    int gamesPerFrame = 16;
    bool progress = false; // a progress line on stderr
    // Asked after each game: true ends the run there, with the games played so far written
    // (the command sets it on SIGINT / SIGTERM). Empty: the run plays all its games.
    std::function<bool()> stopRequested;
};

// One opening line: c-gomoku-cli `pos` ("h8i9j10": letter = x from a, number = y + 1) or
// `offset` ("0,0, 1,-1": x,y from the centre). Checked on a board of the rule and size: on the
// board, no point twice, no five, no renju foul. Returns an error text, empty when it is good.
std::string parseOpening(std::string_view line, Rule rule, int size, Opening& out);
// Every non-blank line of a file; the error names the file and line.
std::string loadOpenings(const std::string& path, Rule rule, int size, std::vector<Opening>& out);

// Plays the games the output lacks (it resumes an existing file) and writes them; messages and
// the summary go to `err`. Returns the exit status (0, or 1 after an error it reported). A stop
// request ends the run after the game in play, its games written (a short last frame, which a
// later run with the same options reopens and continues: the file is then the same as if the
// run had not stopped).
int runSelfplay(const SelfplayOptions& options, const engine::EngineOptions& engineOptions,
                const eval::ClassicalConfig& classical, const search::SearchParams& search,
                std::ostream& err);

} // namespace moku::app
