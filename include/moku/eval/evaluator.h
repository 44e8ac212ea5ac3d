// The evaluation interface the search talks to; the classical pattern evaluator implements it
// and the NNUE evaluator can share it (the board tells it about every move through the search).
#pragma once

#include "moku/core/types.h"
#include "moku/game/board.h"

namespace moku::eval {

class Evaluator {
public:
    virtual ~Evaluator() = default;
    // Prepares a board the search is about to use (e.g. installs incremental score tables).
    virtual void attach(game::Board& board) = 0;
    // The static value of the position for the side to move, within +-VALUE_EVAL_MAX.
    virtual Value evaluate(const game::Board& board) = 0;
    // Called after board.move(p) / before board.undo() of p, for incremental evaluators.
    virtual void afterMove(const game::Board&, Pos) {}
    virtual void beforeUndo(const game::Board&, Pos) {}
};

} // namespace moku::eval
