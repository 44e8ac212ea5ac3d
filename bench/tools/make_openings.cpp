// Balanced openings for self-play matches: random positions of a few stones around the
// centre (black first, no two equal under the board's symmetries), kept when Moku's own search
// at two consecutive depths finds them close to level for the side to move. Gomoku scores swing
// with the parity of the depth, so a position must be level at both.
// Output: one c-gomoku-cli "offset" opening per line ("x,y, x,y, ..." from the centre).
//
// usage: moku_openings [--count N] [--seed S] [--rule R] [--size N] [--depth D] [--margin M]
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "moku/app/terminal.h"
#include "moku/game/board.h"
#include "moku/search/search.h"

using namespace moku;

namespace {

using Stones = std::vector<std::pair<int, int>>;

// The smallest of the 8 symmetric images, for deduplication.
Stones canonical(const Stones& s) {
    Stones best;
    for (int t = 0; t < 8; t++) {
        Stones img;
        for (auto [x, y] : s) {
            int a = t & 1 ? -x : x, b = t & 2 ? -y : y;
            img.push_back(t & 4 ? std::pair{b, a} : std::pair{a, b});
        }
        if (best.empty() || img < best) best = img;
    }
    return best;
}

int scoreAt(search::Searcher& s, const game::Board& b, int depth) {
    s.newGame();
    search::Limits l;
    l.infinite = true;
    l.maxDepth = depth;
    return s.think(b, l).score;
}

} // namespace

int main(int argc, char** argv) {
    int count = 100, rule = 0, size = 15, depth = 8, margin = 120;
    unsigned seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i];
        int v = std::atoi(argv[i + 1]);
        if (k == "--count")
            count = v;
        else if (k == "--seed")
            seed = unsigned(v);
        else if (k == "--rule")
            rule = v;
        else if (k == "--size")
            size = v;
        else if (k == "--depth")
            depth = v;
        else if (k == "--margin")
            margin = v;
        else {
            std::fprintf(stderr, "unknown option %s\n", k.c_str());
            return 2;
        }
    }
    if (argc % 2 == 0 || rule < 0 || rule >= RULE_NB || size < 9 || size > MAX_BOARD_SIZE ||
        depth < 1 || count < 1) {
        std::fprintf(stderr,
                     "usage: moku_openings [--count N] [--seed S] [--rule 0-4] "
                     "[--size 9-%d] [--depth D] [--margin M]\n",
                     MAX_BOARD_SIZE);
        return 2;
    }
    std::mt19937 rng(seed);
    search::Searcher searcher;
    searcher.setHashSize(size_t(16) << 20);
    std::set<Stones> seen;
    int kept = 0, tried = 0, searched = 0;
    const int c = size / 2;
    app::Progress progress(count); // on stderr when it is a terminal; stdout is the openings
    while (kept < count && tried < count * 1000) {
        tried++;
        // 4 to 6 stones: 4 within two steps of the centre, more within three.
        int stones = std::array{4, 4, 5, 6}[rng() % 4];
        int r = stones == 4 ? 2 : 3;
        Stones s{{0, 0}};
        while (int(s.size()) < stones) {
            std::pair<int, int> p{int(rng() % (2 * r + 1)) - r, int(rng() % (2 * r + 1)) - r};
            if (std::find(s.begin(), s.end(), p) == s.end()) s.push_back(p);
        }
        if (!seen.insert(canonical(s)).second) continue;
        game::Board b(size, size, Rule(rule));
        bool legal = true;
        for (auto [x, y] : s) {
            Pos p(c + x, c + y);
            legal = b.isLegal(p) && b.outcomeIfPlayed(p, b.sideToMove()) == EMPTY;
            if (!legal) break;
            b.move(p);
        }
        if (!legal) continue;
        progress.update(kept, "kept, searching candidate " + std::to_string(++searched) + "...");
        int s1 = scoreAt(searcher, b, depth);
        if (std::abs(s1) > margin) continue;
        int s2 = scoreAt(searcher, b, depth + 1);
        if (std::abs(s2) > margin * 3 / 2) continue;
        for (size_t i = 0; i < s.size(); i++)
            std::printf("%s%d,%d", i ? ", " : "", s[i].first, s[i].second);
        std::printf("\n");
        std::fflush(stdout);
        kept++;
    }
    progress.update(kept, "kept of " + std::to_string(searched) + " searched");
    progress.finish();
    std::fprintf(stderr, "%d openings kept of %d tried\n", kept, tried);
    return kept == count ? 0 : 1;
}
