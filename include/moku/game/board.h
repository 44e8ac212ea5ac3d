// The board: stones on a padded array plus, kept incrementally on every move and undo, the line
// keys, line patterns, Pattern4 and pcode of every cell for both colours, board-wide Pattern4
// counts, a Zobrist hash and the candidate area. A move logs what it changes, and its undo
// restores that instead of recomputing it. The renju forbidden-point test lives here too
// (board_forbidden.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "moku/core/types.h"
#include "moku/game/pattern.h"

namespace moku::game {

struct BoardError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Cell {
    Color piece;
    uint8_t candidates;    // how many stones have this cell in their range
    Pattern4 p4[COLOR_NB]; // NONE for occupied cells
    uint16_t pcode[COLOR_NB];
    Pattern pattern[COLOR_NB][DIR_NB];
};

// Per-cell scores by pcode that the board sums over its empty cells on every move, so that an
// evaluator reads a position's pattern score in O(1). score[c][0] is used when colour c is to
// move, score[c][1] when it is not; the evaluator (eval layer) fills the table.
struct CellScoreTable {
    int16_t score[COLOR_NB][2][PCODE_NB];
};

// Which empty cells count as "near" a stone: offsets around each stone.
struct CandidateRange {
    int square = 3;    // the (2s+1) x (2s+1) square around a stone
    int lineReach = 4; // plus the eight lines out to this distance
};

class Board {
public:
    // Throws BoardError when a size is outside 5..22.
    Board(int width, int height, Rule rule, CandidateRange range = {});

    int width() const { return width_; }
    int height() const { return height_; }
    Rule rule() const { return rule_; }
    Color sideToMove() const { return side_; }
    int ply() const { return int(history_.size()); }
    int stoneCount() const { return stones_; }
    uint64_t hash() const { return hash_; }
    // The hash after the side to move plays p (an empty cell), for prefetching.
    uint64_t hashAfter(Pos p) const;
    bool full() const { return stones_ == width_ * height_; }

    bool onBoard(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
    bool onBoard(Pos p) const { return p.valid() && cells_[p.idx].piece != WALL; }
    bool isEmpty(Pos p) const { return onBoard(p) && cells_[p.idx].piece == EMPTY; }
    const Cell& cell(Pos p) const { return cells_[p.idx]; }
    Color piece(Pos p) const { return cells_[p.idx].piece; }
    Pattern4 p4(Pos p, Color c) const { return cells_[p.idx].p4[c]; }
    // Empty cells with each Pattern4, per colour.
    int p4Count(Color c, Pattern4 p) const { return p4Count_[c][p]; }
    // The line key of cell p along direction d (the cell k steps away at lineKeyShift(k)), and
    // the rule's tables that map keys to patterns: what a line would become with one more stone.
    uint32_t lineKey(Pos p, int d) const { return keys_[d][p.idx]; }
    const PatternTables& lineTables() const { return *tables_; }

    // The side to move plays p (POS_PASS: a null move). Throws BoardError if p is not an empty
    // cell on the board; the board is unchanged then.
    void move(Pos p);
    // Places a stone of colour c regardless of the side to move; the opponent of c moves next.
    void move(Pos p, Color c);
    // Takes back the last move (throws BoardError when there is none).
    void undo();
    // The move made `back` moves ago (0 = the last one), POS_NONE when there is none.
    Pos lastMove(int back = 0) const;
    std::vector<Pos> moves() const;

    // Did placing a stone of c on empty p make a winning line under the rule?
    bool isFive(Pos p, Color c) const { return cells_[p.idx].p4[c] == A_FIVE; }
    // Exact renju test (RIF 9.3): is p forbidden for black? False for other rules.
    bool isForbidden(Pos p);
    // Who wins at once if c plays p: c for a five, the opponent for a renju foul (a forbidden
    // black move loses), EMPTY otherwise.
    Color outcomeIfPlayed(Pos p, Color c);
    // A move the side to move may legally play: empty, on board, not a forbidden black point.
    bool isLegal(Pos p);
    // The colour that has five in a row through the last move, or EMPTY.
    Color winner() const { return winner_; }

    // Empty cells near stones (all empty cells on an empty board's centre area).
    bool isCandidate(Pos p) const {
        return cells_[p.idx].candidates > 0 && cells_[p.idx].piece == EMPTY;
    }
    std::vector<Pos> candidates() const;
    // Every empty on-board cell, row-major.
    std::vector<Pos> emptyCells() const;
    Pos centre() const { return Pos(width_ / 2, height_ / 2); }

    // Sets (or clears, with nullptr) the table whose scores the board sums; the table must
    // outlive the board. Recomputes the sums (the stones are taken off and put back, so that
    // the undo log holds sums of the new table too).
    void setScoreTable(const CellScoreTable* table);
    const CellScoreTable* scoreTable() const { return scores_; }
    // Sum over empty cells of score[c][toMoveIndex][pcode of c] (0 without a table).
    int32_t scoreSum(Color c, int toMoveIndex) const { return scoreSum_[c][toMoveIndex]; }
    // The same sum before the last move (equal to scoreSum after a pass or before any move).
    int32_t previousScoreSum(Color c, int toMoveIndex) const {
        if (history_.empty() || history_.back().pos == POS_PASS) return scoreSum_[c][toMoveIndex];
        return placeLog_.back().scoreSum[c][toMoveIndex];
    }

    // Recomputes everything from the stones and compares it with the incremental state; returns
    // an empty string when they agree, otherwise what differs.
    std::string checkConsistency() const;
    std::string toString() const;

private:
    struct Undo {
        Pos pos;
        Color side;
        Color winner;
    };
    // What placing one stone changed, for remove() to restore: the cells whose derived state
    // it changed (the stone's own cell first) and the board-wide counts and sums before it.
    // The cell comes first: built in place field by field, an entry is copied with whole-word
    // stores (a Pos before it made the compiler assemble it on the stack and reload it across
    // two stores, a stall that cost a fifth of place()).
    struct SavedCell {
        Cell cell;
        int32_t idx;
    };
    struct PlaceLog {
        uint32_t firstSaved; // index of the move's first entry in saved_
        int p4Count[COLOR_NB][PATTERN4_NB];
        int32_t scoreSum[COLOR_NB][2];
    };

    int width_, height_;
    Rule rule_;
    const PatternTables* tables_;
    std::vector<int> candidateOffsets_;
    Color side_ = BLACK;
    Color winner_ = EMPTY;
    int stones_ = 0;
    uint64_t hash_ = 0;
    std::array<Cell, CELL_NB> cells_;
    uint32_t keys_[DIR_NB][CELL_NB];
    int p4Count_[COLOR_NB][PATTERN4_NB];
    const CellScoreTable* scores_ = nullptr;
    int32_t scoreSum_[COLOR_NB][2] = {};
    std::vector<Undo> history_;
    std::vector<PlaceLog> placeLog_; // one entry per stone on the board, in placing order
    std::vector<SavedCell> saved_;

    void place(Pos p, Color c);
    void save(int idx) { saved_.push_back(SavedCell{cells_[idx], idx}); }
    void remove(Pos p);
    void refreshCell(Pos p);
    void setLinePatterns(Cell& c, int d, uint8_t both);
    void deriveSide(Cell& c, Color s) const;
    void derive(Cell& c) const;
    void rederive(Cell& c, Color s);
    void accountSide(const Cell& c, Color s, int sign);
    void account(const Cell& c, int sign);
    void addScores(const Cell& c, Color s, int sign);
};

uint64_t zobristKey(Color c, Pos p);
uint64_t zobristSide();

} // namespace moku::game
