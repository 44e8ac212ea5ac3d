// Swap2 decisions, taken by short searches: the proposer picks the opening its search finds the
// most balanced (the opponent chooses the colour), the chooser takes the colour its search
// prefers, and a balanced three-stone position is handed back with two more stones.
#include <algorithm>
#include <cstdlib>
#include <limits>

#include "moku/engine/engine.h"

namespace moku::engine {

using game::Board;
using search::SearchResult;

namespace {

// Three-stone openings (black, white, black) as offsets from the centre, of different
// character: direct and indirect starts, near and loose third stones.
constexpr int OPENINGS[][6] = {
    {0, 0, 1, 0, 0, 1},  {0, 0, 1, 1, 2, 0},  {0, 0, 1, 0, 2, 2}, {0, 0, 1, 1, 0, 2},
    {0, 0, 2, 0, 1, 1},  {0, 0, 1, 0, -1, 2}, {0, 0, 1, 1, 3, 0}, {0, 0, 2, 1, 1, 2},
    {0, 0, 1, 0, 1, -2}, {0, 0, 1, 1, -1, 2},
};

// Evaluations within this margin (winrate-logit units, 200 = e^1 odds) count as balanced.
constexpr Value BALANCED = 60;

Board alternating(int w, int h, Rule rule, const std::vector<Pos>& stones) {
    Board b(w, h, rule);
    for (size_t i = 0; i < stones.size(); i++) b.move(stones[i], i % 2 ? WHITE : BLACK);
    return b;
}

} // namespace

// The time for the whole Swap2 decision: the turn limit, and a fifth of the match time left.
int64_t Engine::swap2Budget() const {
    const search::TimeControl& t = options_.time;
    int64_t budget = std::max<int64_t>(t.turnTimeMs, 0);
    if (t.matchTimeMs > 0 && t.timeLeftMs < std::numeric_limits<int32_t>::max())
        budget = std::min(budget, std::max<int64_t>(t.timeLeftMs, 0) / 5);
    return budget * 4 / 5; // a margin for the protocol and process scheduling
}

SearchResult Engine::quickSearch(Board& board, int64_t budgetMs) {
    search::Limits l = limits(1);
    l.time = {std::max<int64_t>(budgetMs, 0), 0, std::numeric_limits<int32_t>::max()};
    SearchResult r = search(board, l, {});
    if (r.bestMove == POS_NONE || !board.isLegal(r.bestMove)) {
        r.bestMove = fallbackMove(board);
        r.score = VALUE_ZERO;
    }
    return r;
}

Swap2Decision Engine::swap2(const std::vector<Pos>& given) {
    if (given.size() != 0 && given.size() != 3 && given.size() != 5)
        throw EngineError("SWAP2BOARD needs 0, 3 or 5 stones, got " + std::to_string(given.size()));
    setAlternatingPosition(given); // validates the stones
    Swap2Decision d;
    int64_t budget = swap2Budget();

    if (given.empty()) {
        std::vector<std::vector<Pos>> openings;
        Pos c = board_->centre();
        for (const auto& o : OPENINGS) {
            std::vector<Pos> stones;
            for (int i = 0; i < 3; i++) {
                int x = c.x() + o[2 * i], y = c.y() + o[2 * i + 1];
                if (board_->onBoard(x, y)) stones.push_back(Pos(x, y));
            }
            if (stones.size() == 3) openings.push_back(stones);
        }
        int64_t slice = budget / int64_t(std::max<size_t>(openings.size(), 1));
        Value bestBalance = std::numeric_limits<Value>::max();
        for (const auto& stones : openings) {
            if (searcher_.stopRequested()) break;
            Board b = alternating(width_, height_, rule_, stones);
            Value v = quickSearch(b, slice).score;
            Value balance = v == VALUE_NONE ? VALUE_INFINITE : std::abs(v);
            if (balance < bestBalance) bestBalance = balance, d.stones = stones;
        }
        if (d.stones.empty()) d.stones = openings.empty() ? std::vector<Pos>{} : openings.front();
        setAlternatingPosition(d.stones);
        return d;
    }

    Board b = *board_;
    SearchResult r = quickSearch(b, budget / (given.size() == 3 ? 3 : 1));
    if (given.size() == 5) {
        // Black to move: keep black and play the sixth stone, or swap to white.
        if (r.score != VALUE_NONE && r.score < 0)
            d.swap = true;
        else
            d.stones = {r.bestMove};
    } else if (r.score != VALUE_NONE && r.score < -BALANCED) {
        d.swap = true; // black is better: take black
    } else if (r.score != VALUE_NONE && r.score > BALANCED) {
        d.stones = {r.bestMove}; // white is better: stay white and play the fourth stone
    } else {
        // Balanced: white's best fourth stone and black's best reply, then the opponent chooses.
        Pos fourth = r.bestMove;
        if (fourth != POS_NONE) {
            b.move(fourth, WHITE);
            Pos fifth = quickSearch(b, budget / 3).bestMove;
            if (fifth != POS_NONE)
                d.stones = {fourth, fifth};
            else
                d.stones = {fourth};
        }
    }
    if (d.stones.empty() && !d.swap) d.swap = true; // no legal point left at all
    if (!d.swap) {
        std::vector<Pos> all = given;
        all.insert(all.end(), d.stones.begin(), d.stones.end());
        setAlternatingPosition(all);
    }
    return d;
}

} // namespace moku::engine
