// moku_move_features: the move-ordering features of every candidate cell of played positions,
// for training/fit_ordering.py.
//
//     moku_move_features OUT.npy GAMES.txt
//
// GAMES.txt has one game per line: "RULE SIZE OPENING m1 m2 ...", RULE the engine's numbering
// (0 freestyle, 1 standard, 2 renju), OPENING the number of leading moves that the opening
// placed (not chosen by an engine), and each move y * SIZE + x, black first. Every position
// after the opening whose side to move neither has a five nor faces one or an open-four point
// (the move generator decides those alone) gives one row per legal candidate cell (the search's
// default candidate area: 2 steps around a stone, 3 along its lines):
//     position, played (0/1), Pattern4 for the mover, Pattern4 for the opponent, the four line
//     patterns for the mover, the four for the opponent, the Chebyshev distance to the
//     opponent's last move and to the mover's last move (capped at 15).
// as an int32 .npy array. A position whose played move is not a candidate is left out.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "moku/game/board.h"
#include "moku/game/pattern.h"
#include "npy.h"

using namespace moku;
using namespace moku::game;

namespace {

constexpr int COLS = 14;

// Distance class of the features: at most 15, and 15 when there is no such move.
int distanceFeature(Pos a, Pos b) { return b == POS_NONE ? 15 : std::min(15, chebyshev(a, b)); }

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: moku_move_features OUT.npy GAMES.txt\n";
        return 2;
    }
    std::ifstream in(argv[2]);
    if (!in) {
        std::cerr << "moku_move_features: cannot read " << argv[2] << "\n";
        return 1;
    }
    std::vector<int32_t> rows;
    int32_t positions = 0;
    size_t skipped = 0, lineNo = 0;
    std::string line;
    while (std::getline(in, line)) {
        lineNo++;
        std::istringstream ls(line);
        int rule, size, opening;
        if (!(ls >> rule >> size >> opening) || rule < 0 || rule > 2 || size < 5 || size > 22) {
            std::cerr << argv[2] << ":" << lineNo << ": bad game line, skipped\n";
            continue;
        }
        std::vector<int> moves;
        for (int m; ls >> m;) moves.push_back(m);
        Rule r = rule == 0 ? Rule::FREESTYLE : rule == 1 ? Rule::STANDARD : Rule::RENJU;
        Board b(size, size, r, CandidateRange{2, 3});
        for (size_t i = 0; i < moves.size(); i++) {
            Pos played(moves[i] % size, moves[i] / size);
            if (moves[i] < 0 || moves[i] >= size * size || !b.isEmpty(played)) {
                std::cerr << argv[2] << ":" << lineNo << ": bad move " << moves[i] << "\n";
                break;
            }
            Color us = b.sideToMove(), them = ~us;
            bool decided =
                b.p4Count(us, A_FIVE) || b.p4Count(them, A_FIVE) || b.p4Count(them, B_FLEX4);
            if (int(i) >= opening && !decided && b.isCandidate(played)) {
                Pos last = b.lastMove(0), ownLast = b.lastMove(1);
                for (Pos p : b.candidates()) {
                    if (!b.isLegal(p)) continue;
                    const auto& c = b.cell(p);
                    int32_t row[COLS] = {positions, p == played, c.p4[us], c.p4[them]};
                    auto pu = pcodePatterns(c.pcode[us]), pt = pcodePatterns(c.pcode[them]);
                    for (int d = 0; d < 4; d++) {
                        row[4 + d] = pu[d];
                        row[8 + d] = pt[d];
                    }
                    row[12] = distanceFeature(p, last);
                    row[13] = distanceFeature(p, ownLast);
                    rows.insert(rows.end(), row, row + COLS);
                }
                positions++;
            } else if (int(i) >= opening) {
                skipped++;
            }
            b.move(played);
            if (b.winner() != EMPTY) break;
        }
    }
    if (!tools::writeNpy(argv[1], rows, rows.size() / COLS, COLS)) {
        std::cerr << "moku_move_features: cannot write " << argv[1] << "\n";
        return 1;
    }
    std::cerr << "moku_move_features: " << positions << " positions, " << rows.size() / COLS
              << " rows, " << skipped << " positions left out\n";
    return 0;
}
