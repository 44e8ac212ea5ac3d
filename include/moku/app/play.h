// `pbrain-moku play`: a game against Moku for a person at a terminal. The engine facade the
// protocol uses plays Moku's moves; this layer only reads moves and commands and draws the board.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "moku/core/types.h"
#include "moku/engine/engine.h"
#include "moku/eval/classical.h"
#include "moku/game/board.h"

namespace moku::app {

struct PlayOptions {
    Rule rule = Rule::FREESTYLE;
    int size = 15;
    Color human = BLACK;
    int64_t moveTimeMs = 1000; // Moku's time per move
    int strength = 100;        // Moku's playing level, as INFO strength (hints: full strength)
    bool colour = false;       // ANSI colours on the board
    bool echoInput = false;    // repeat each input line after its prompt (input from a pipe)
};

// Plays games until `quit` or the end of the input; returns the exit status (0).
int runPlay(std::istream& in, std::ostream& out, const engine::EngineOptions& engineOptions,
            const eval::ClassicalConfig& classical, const search::SearchParams& search,
            const PlayOptions& options);

// --rule: freestyle, standard, renju, caro, caro5, or the protocol's numbers (0, 1, 2, 4, 8, 9).
std::optional<Rule> ruleFromOption(std::string_view text);

// A point as a person types it: "h8" (column letter, row number from 1; h8 is 7,7) or "7,7"
// (the protocol's x,y from 0). The coordinates whether on the board or not; nullopt when the
// text is neither form.
std::optional<std::pair<int, int>> parsePoint(std::string_view text);
std::string pointName(Pos p); // "h8"

// The chances of the side a search score is for: "57.3%", or for a mate score a certain
// "100% (a forced win within 5 plies)" / "0% (a forced loss within 4 plies)".
std::string winRateText(Value v);

// How `mover` playing the empty point p ends the game: a five, a renju foul (a forbidden
// black point, which loses) or the last empty point (a draw).
enum class Ending { NONE, FIVE, FOUL, FULL_BOARD };
Ending judgeMove(const game::Board& board, Pos p, Color mover);

} // namespace moku::app
