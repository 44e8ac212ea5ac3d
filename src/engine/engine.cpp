// The game state of the engine facade: the stones in move order are the truth, the board is
// rebuilt from them whenever something other than a plain move changes them.
#include <algorithm>

#include "moku/engine/engine.h"
#include "moku/engine/strength.h"

namespace moku::engine {

using game::Board;
using game::BoardError;

Engine::Engine() : gameSeed_(randomGameSeed()) { rebuild(); }
Engine::~Engine() = default;

void Engine::newGame(int width, int height) {
    if (width < MIN_BOARD_SIZE || width > MAX_BOARD_SIZE || height < MIN_BOARD_SIZE ||
        height > MAX_BOARD_SIZE)
        throw EngineError("board size " + std::to_string(width) + "x" + std::to_string(height) +
                          " is not supported (5..22)");
    width_ = width;
    height_ = height;
    restart();
}

void Engine::restart() {
    stones_.clear();
    toMove_ = BLACK;
    gameSeed_ = randomGameSeed(); // the playing levels vary from game to game
    searcher_.newGame();
    rebuild();
    updateNetwork();
    applyHashSize(); // after the network: its weights count in the measured baseline
}

void Engine::setRule(Rule rule) {
    if (rule == rule_) return;
    rule_ = rule;
    rebuild();
    updateNetwork();
}

// Replays the stones; a pass at the end makes the board's side to move ours when the stones
// alone do not alternate.
void Engine::rebuild() {
    auto b = std::make_unique<Board>(width_, height_, rule_);
    for (const Stone& s : stones_) b->move(s.pos, s.color);
    if (b->sideToMove() != toMove_) b->move(POS_PASS, ~toMove_);
    board_ = std::move(b);
}

PositionReport Engine::setPosition(const std::vector<BoardEntry>& entries) {
    PositionReport report;
    // Validate first against an empty grid so that a bad entry cannot leave half a position.
    std::vector<char> taken(size_t(width_ * height_), 0);
    std::vector<BoardEntry> ok;
    for (const BoardEntry& e : entries) {
        std::string where = std::to_string(e.x) + "," + std::to_string(e.y);
        if (e.field == 3) continue; // winning-line / forbidden marker, not a stone
        if (e.field != 1 && e.field != 2) {
            report.problems.push_back("bad field " + std::to_string(e.field) + " at " + where);
        } else if (!board_->onBoard(e.x, e.y)) {
            report.problems.push_back("stone " + where + " is off the board");
        } else if (taken[size_t(e.y * width_ + e.x)]) {
            report.problems.push_back("stone " + where + " is listed twice");
        } else {
            taken[size_t(e.y * width_ + e.x)] = 1;
            ok.push_back(e);
        }
    }
    int own = int(std::count_if(ok.begin(), ok.end(), [](auto& e) { return e.field == 1; }));
    int opp = int(ok.size()) - own;
    // Which owner is black: renju lists in move order; elsewhere colours are symmetric and only
    // parity matters (black has one stone more, or the same count when black is to move).
    bool ownIsBlack;
    if (rule_ == Rule::RENJU && !ok.empty())
        ownIsBlack = ok.front().field == 1;
    else
        ownIsBlack = own <= opp ? own == opp : false;
    Color ownColor = ownIsBlack ? BLACK : WHITE;

    // Under renju the order is the move order; elsewhere interleave so the replay alternates
    // where it can (black first), which keeps the board's history close to a real game.
    std::vector<Stone> stones;
    if (rule_ == Rule::RENJU) {
        for (const BoardEntry& e : ok)
            stones.push_back({Pos(e.x, e.y), e.field == 1 ? ownColor : ~ownColor});
    } else {
        std::vector<Pos> blacks, whites;
        for (const BoardEntry& e : ok)
            ((e.field == 1) == ownIsBlack ? blacks : whites).push_back(Pos(e.x, e.y));
        for (size_t i = 0; i < std::max(blacks.size(), whites.size()); i++) {
            if (i < blacks.size()) stones.push_back({blacks[i], BLACK});
            if (i < whites.size()) stones.push_back({whites[i], WHITE});
        }
    }
    stones_ = std::move(stones);
    toMove_ = ownColor;
    rebuild();
    report.placed = int(stones_.size());
    return report;
}

void Engine::setAlternatingPosition(const std::vector<Pos>& stones) {
    std::vector<char> taken(size_t(width_ * height_), 0);
    for (Pos p : stones) {
        if (!board_->onBoard(p)) throw EngineError("stone " + posToString(p) + " is off the board");
        if (taken[size_t(p.y() * width_ + p.x())]++)
            throw EngineError("stone " + posToString(p) + " is listed twice");
    }
    stones_.clear();
    for (size_t i = 0; i < stones.size(); i++)
        stones_.push_back({stones[i], i % 2 ? WHITE : BLACK});
    toMove_ = stones.size() % 2 ? WHITE : BLACK;
    rebuild();
}

void Engine::play(Pos p) {
    if (!board_->isEmpty(p))
        throw EngineError("move " + posToString(p) +
                          (board_->onBoard(p) ? " is on an occupied point" : " is off the board"));
    try {
        board_->move(p, toMove_);
    } catch (const BoardError& e) {
        throw EngineError(e.what());
    }
    stones_.push_back({p, toMove_});
    toMove_ = ~toMove_;
}

void Engine::pass() {
    toMove_ = ~toMove_;
    rebuild();
}

void Engine::takeBack(Pos p) {
    auto it =
        std::find_if(stones_.begin(), stones_.end(), [&](const Stone& s) { return s.pos == p; });
    if (it == stones_.end()) throw EngineError("no stone at " + posToString(p));
    toMove_ = it->color;
    stones_.erase(it);
    rebuild();
}

std::vector<Pos> Engine::forbiddenPoints() const {
    std::vector<Pos> out;
    if (rule_ != Rule::RENJU) return out;
    Board b = *board_; // the forbidden test moves stones temporarily
    for (Pos p : b.emptyCells())
        if (b.isForbidden(p)) out.push_back(p);
    return out;
}

} // namespace moku::engine
