// Test cases for tests/data, from random games (deterministic for a seed):
//
//   forbidden  15x15 renju boards with the complete set of black forbidden points, labelled
//              by Board::isForbidden and checked against the RIF reference checker of
//              tests/game/renju_reference.h on every empty cell (the tool stops on any
//              disagreement). Boards are kept while they add a kind of case still wanted:
//              double fours (also two in one line), overlines, fives on points that would
//              otherwise be forbidden, false double threes (a three whose straight-four points
//              are all forbidden) and nesting two or more levels deep.
//   vcf        positions where the side to move wins by continuous fours (the engine's
//              solver), with no five at once for either side; `fours` is the number of fours
//              before the five in the shortest win the solver finds (it is run with a limit of
//              1, 2, ... fours), at least --min-depth.
//
// usage: moku_test_cases forbidden [--seed S] [--count N]
//        moku_test_cases vcf [--seed S] [--count N] [--rule R] [--min-depth D]
// Output: one JSON object a line (the format of tests/data/README.md).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "game/renju_reference.h"
#include "moku/game/board.h"
#include "moku/search/vcf.h"
#include "test_util.h"

using namespace moku;
using namespace moku::game;

namespace {

std::string rowsJson(const std::vector<std::string>& rows) {
    std::string s = "[";
    for (size_t i = 0; i < rows.size(); i++) s += (i ? ",\"" : "\"") + rows[i] + "\"";
    return s + "]";
}

bool someoneCanWinAtOnce(Board& b) {
    for (Pos p : b.emptyCells())
        if (b.isFive(p, BLACK) || b.isFive(p, WHITE)) return true;
    return false;
}

// Kinds of forbidden-map cases and how many points of each are wanted.
struct Wanted {
    std::map<std::string, int> left{
        {"double_four", 3},          {"double_four_one_line", 2}, {"overline", 3},
        {"five_beats_forbidden", 3}, {"double_three_nested", 3},  {"false_double_three", 4},
        {"nesting_2_or_more", 3}};
    bool done() const {
        for (auto& [k, n] : left)
            if (n > 0) return false;
        return true;
    }
};

int forbiddenCases(unsigned seed, int count) {
    std::mt19937_64 rng(seed);
    Wanted wanted;
    int kept = 0, tried = 0, checkedCells = 0;
    while ((kept < count || !wanted.done()) && tried < 200000) {
        tried++;
        Board b(15, 15, Rule::RENJU);
        if (!test::playRandomly(b, rng, 24 + int(rng() % 50))) continue;
        std::vector<std::string> rows = test::diagramOf(b);
        test::rif::Grid g(rows);
        std::string forbidden, notable;
        std::map<std::string, int> kinds;
        int nForbidden = 0;
        for (Pos p : b.emptyCells()) {
            test::rif::Analysis a = test::rif::analyse(g, p.x(), p.y());
            checkedCells++;
            if (a.forbidden != b.isForbidden(p)) {
                std::fprintf(stderr, "seed %u try %d: the checkers disagree at %s\n%s", seed, tried,
                             posToString(p).c_str(), b.toString().c_str());
                return 1;
            }
            std::string entry = "[" + std::to_string(p.x()) + "," + std::to_string(p.y()) + ",\"" +
                                a.kind() + "\"," + std::to_string(a.nesting) + "]";
            if (a.forbidden) {
                forbidden += (nForbidden++ ? "," : "") + entry;
                if (a.kind() == "double_three" && a.nesting) kinds["double_three_nested"]++;
                if (a.kind() == "double_four" && a.foursInOneLine >= 2)
                    kinds["double_four_one_line"]++;
            } else if (a.kind() != "legal") {
                notable += (notable.empty() ? "" : ",") + entry;
            }
            kinds[a.kind()]++;
            if (a.nesting >= 2) kinds["nesting_2_or_more"]++;
        }
        if (nForbidden == 0) continue;
        bool useful = false;
        for (auto& [k, n] : kinds) useful |= wanted.left.count(k) && wanted.left[k] > 0;
        // Past the count only boards that still add a wanted kind; before it, also plain ones
        // with several forbidden points.
        if (!useful && (kept >= count || nForbidden < 3)) continue;
        for (auto& [k, n] : kinds)
            if (wanted.left.count(k)) wanted.left[k] -= n;
        std::printf("{\"id\":\"moku/forbidden/%02d\",\"seed\":%u,\"try\":%d,\"rule\":\"renju\","
                    "\"size\":15,\"board\":%s,\"forbidden_all\":[%s],\"legal_notable\":[%s]}\n",
                    kept, seed, tried, rowsJson(rows).c_str(), forbidden.c_str(), notable.c_str());
        std::fflush(stdout);
        kept++;
    }
    std::fprintf(stderr, "%d boards kept of %d tried; %d cells agree on both checkers\n", kept,
                 tried, checkedCells);
    return wanted.done() ? 0 : 1;
}

int vcfCases(unsigned seed, int count, Rule rule, int minDepth) {
    std::mt19937_64 rng(seed);
    int kept = 0, tried = 0;
    while (kept < count && tried < 20000) {
        tried++;
        Board b(15, 15, rule);
        int plies = 12 + int(rng() % 40);
        if (!test::playRandomly(b, rng, plies) || someoneCanWinAtOnce(b)) continue;
        search::VcfResult r = search::solveVcf(b, 120, 2000000);
        if (!r.win) continue;
        int shortest = 1;
        while (!search::solveVcf(b, shortest, 2000000).win) shortest++;
        if (shortest < minDepth) continue;
        std::string line;
        for (Pos p : r.line) line += (line.empty() ? "[" : ",[") + posToString(p) + "]";
        std::printf("{\"id\":\"moku/vcf/%s/%02d\",\"seed\":%u,\"try\":%d,\"rule\":\"%s\","
                    "\"size\":15,\"board\":%s,\"to_move\":\"%s\",\"fours\":%d,"
                    "\"solver_line\":[%s]}\n",
                    std::string(ruleName(rule)).c_str(), kept, seed, tried,
                    std::string(ruleName(rule)).c_str(), rowsJson(test::diagramOf(b)).c_str(),
                    b.sideToMove() == BLACK ? "black" : "white", shortest, line.c_str());
        std::fflush(stdout);
        kept++;
    }
    std::fprintf(stderr, "%d positions kept of %d tried\n", kept, tried);
    return kept == count ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    unsigned seed = 1;
    int count = 12, rule = 2, minDepth = 1;
    for (int i = 2; i + 1 < argc; i += 2) {
        std::string k = argv[i];
        int v = std::atoi(argv[i + 1]);
        if (k == "--seed")
            seed = unsigned(v);
        else if (k == "--count")
            count = v;
        else if (k == "--rule")
            rule = v;
        else if (k == "--min-depth")
            minDepth = v;
        else
            mode = "";
    }
    if (argc % 2 || count < 1 || rule < 0 || rule >= RULE_NB) mode = "";
    if (mode == "forbidden") return forbiddenCases(seed, count);
    if (mode == "vcf") return vcfCases(seed, count, Rule(rule), minDepth);
    std::fprintf(stderr, "usage: moku_test_cases forbidden [--seed S] [--count N]\n"
                         "       moku_test_cases vcf [--seed S] [--count N] [--rule 0-4] "
                         "[--min-depth D]\n");
    return 2;
}
