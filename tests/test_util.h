// Helpers shared by the tests: reading the test data of tests/data, boards from and to diagrams,
// random unfinished games, the verdict of a referee-style check, search limits without a clock.
#pragma once

#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "moku/core/json.h"
#include "moku/game/board.h"
#include "moku/search/search.h"

namespace moku::test {

// A file of the repository's test data (tests/data, see its README).
inline std::string dataPath(const std::string& rel) {
    return std::string(MOKU_TEST_DATA_DIR) + "/" + rel;
}

// Every JSON line of a file under tests/data (throws when the file is missing).
inline std::vector<Json> readJsonLines(const std::string& rel) {
    std::ifstream in(dataPath(rel));
    if (!in) throw std::runtime_error("cannot open " + dataPath(rel));
    std::vector<Json> out;
    std::string line;
    while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos) out.push_back(Json::parse(line));
    return out;
}

// The rows of a diagram as strings.
inline std::vector<std::string> rowsOf(const Json& rows) {
    std::vector<std::string> out;
    for (const Json& r : rows.asArray()) out.push_back(r.asString());
    return out;
}

// Places the stones of a diagram (rows of 'X' black, 'O' white, '.' empty); the side to move
// is black when the counts are equal, white otherwise, unless `toMove` is given.
inline game::Board boardFromDiagram(const Json& rows, Rule rule, Color toMove = EMPTY) {
    int h = int(rows.size()), w = int(rows[0].asString().size());
    game::Board b(w, h, rule);
    int blacks = 0, whites = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            char c = rows[y].asString()[x];
            if (c == 'X')
                b.move(Pos(x, y), BLACK), blacks++;
            else if (c == 'O')
                b.move(Pos(x, y), WHITE), whites++;
        }
    Color side = toMove != EMPTY ? toMove : blacks > whites ? WHITE : BLACK;
    if (b.sideToMove() != side) b.move(POS_PASS, ~side);
    return b;
}

// Random play on the candidate cells (the centre first) up to `plies` moves, never a five for
// either side nor a forbidden black move, so that the position is one of an unfinished game.
// Returns false when no such move is left before then.
inline bool playRandomly(game::Board& b, std::mt19937_64& rng, int plies) {
    while (b.ply() < plies) {
        std::vector<Pos> pool = b.ply() ? b.candidates() : std::vector<Pos>{b.centre()};
        std::vector<Pos> ok;
        for (Pos p : pool)
            if (b.isLegal(p) && !b.isFive(p, b.sideToMove())) ok.push_back(p);
        if (ok.empty()) return false;
        b.move(ok[rng() % ok.size()]);
    }
    return true;
}

// The diagram of a board ('X' black, 'O' white, '.' empty), row 0 first.
inline std::vector<std::string> diagramOf(const game::Board& b) {
    std::vector<std::string> rows(b.height(), std::string(b.width(), '.'));
    for (int y = 0; y < b.height(); y++)
        for (int x = 0; x < b.width(); x++) {
            Color c = b.piece(Pos(x, y));
            rows[y][x] = c == BLACK ? 'X' : c == WHITE ? 'O' : '.';
        }
    return rows;
}

// Whether the move (x, y) passes a check of tests/data/referee_checks_moku.jsonl: "" when it
// is one of the check's expect_any moves (if it lists any) and none of its expect_not moves,
// otherwise why not.
inline std::string refereeVerdict(const Json& check, int x, int y) {
    auto lists = [&](const char* key) {
        if (check.contains(key))
            for (const Json& m : check[key].asArray())
                if (m[0].asInt() == x && m[1].asInt() == y) return true;
        return false;
    };
    std::string played =
        check["id"].asString() + " played " + std::to_string(x) + "," + std::to_string(y);
    if (check.contains("expect_any") && !lists("expect_any"))
        return played + ", not an expected move: " + check["why"].asString();
    if (lists("expect_not"))
        return played + ", a move it must not play: " + check["why"].asString();
    return "";
}

// Search limits without a clock: a depth and/or a node limit (0 = none).
inline search::Limits noClock(int maxDepth, uint64_t maxNodes = 0) {
    search::Limits l;
    l.infinite = true;
    l.maxDepth = maxDepth;
    l.maxNodes = maxNodes;
    return l;
}

} // namespace moku::test
