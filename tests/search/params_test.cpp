// The search parameters: one named table, equal to configs/config.toml's [search], read strictly,
// and really used by the search.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "moku/app/config.h"
#include "moku/search/params_config.h"
#include "moku/search/search.h"
#include "test_util.h"

using namespace moku;
using namespace moku::search;

TEST(SearchParams, EveryFieldIsNamedOnce) {
    std::set<std::string> names;
    std::set<const void*> fields;
    SearchParams p;
    for (const SearchParamInfo& i : searchParamInfo()) {
        EXPECT_TRUE(names.insert(i.name).second) << i.name;
        EXPECT_TRUE(fields.insert(&(p.*(i.field))).second) << i.name;
        double v = p.*(i.field);
        EXPECT_GE(v, i.lo) << i.name;
        EXPECT_LE(v, i.hi) << i.name;
    }
    // Every member of the struct but the per-rule values is a double with an entry.
    EXPECT_EQ(searchParamInfo().size() * sizeof(double) + sizeof(std::vector<RuleValue>),
              sizeof(SearchParams));
    // The per-rule values name parameters and lie in their ranges.
    for (const RuleValue& rv : p.ruleValues) {
        ASSERT_GE(rv.param, 0);
        ASSERT_LT(rv.param, int(searchParamInfo().size()));
        EXPECT_GE(rv.value, searchParamInfo()[rv.param].lo) << searchParamInfo()[rv.param].name;
        EXPECT_LE(rv.value, searchParamInfo()[rv.param].hi) << searchParamInfo()[rv.param].name;
    }
}

TEST(SearchParams, ConfigFileEqualsEmbeddedDefaults) {
    toml::table doc = toml::parse_file(std::string(MOKU_SOURCE_DIR) + "/configs/config.toml");
    EXPECT_EQ(loadSearchParams(doc), SearchParams{});
    // The file lists every parameter, and nothing else, in [search], and the embedded per-rule
    // values in [search.RULE] tables.
    const toml::table* t = doc["search"].as_table();
    ASSERT_NE(t, nullptr);
    size_t values = 0, ruleValues = 0;
    for (const auto& [k, node] : *t) {
        if (const toml::table* rt = node.as_table()) {
            EXPECT_TRUE(ruleFromName(k.str())) << k.str();
            ruleValues += rt->size();
        } else {
            values++;
        }
    }
    EXPECT_EQ(values, searchParamInfo().size());
    EXPECT_EQ(ruleValues, SearchParams{}.ruleValues.size());
    for (const SearchParamInfo& i : searchParamInfo()) EXPECT_TRUE(t->contains(i.name)) << i.name;
}

// [search.RULE] values apply to that rule only, over [search]; the writer round-trips them; a
// bad rule table is an error naming it.
TEST(SearchParams, RuleValues) {
    SearchParams p = loadSearchParams(toml::parse(
        "[search]\nrazor_base = 70\n[search.renju]\nrazor_base = 30\nlmr_scale = 0.7\n"));
    EXPECT_EQ(p.forRule(Rule::RENJU).razorBase, 30);
    EXPECT_EQ(p.forRule(Rule::RENJU).lmrScale, 0.7);
    EXPECT_EQ(p.forRule(Rule::CARO8).razorBase, 70);
    EXPECT_EQ(p.forRule(Rule::CARO8).lmrScale, SearchParams{}.lmrScale);
    // The embedded freestyle and standard values stay unless replaced.
    EXPECT_EQ(p.forRule(Rule::FREESTYLE).futilityPerDepth, 63);
    EXPECT_EQ(p.forRule(Rule::STANDARD).razorBase, 19);
    EXPECT_EQ(p.futilityPerDepth, 80);
    EXPECT_EQ(loadSearchParams(toml::parse(searchParamsToToml(p))), p);
    for (const char* bad : {"[search.renju]\nno_such_key = 1\n", "[search.renju]\nlmr_scale = 9\n",
                            "[search]\nrenju = 3\n", "[search.nosuchrule]\nlmr_scale = 1\n"}) {
        EXPECT_THROW(loadSearchParams(toml::parse(bad)), std::runtime_error) << bad;
    }
}

TEST(SearchParams, OverridesRoundTripAndErrors) {
    SearchParams p =
        loadSearchParams(toml::parse("[search]\nlmr_scale = 0.5\nq_delta_base = 100\n"));
    EXPECT_EQ(p.lmrScale, 0.5);
    EXPECT_EQ(p.qDeltaBase, 100);
    EXPECT_EQ(p.razorBase, SearchParams{}.razorBase);
    EXPECT_EQ(loadSearchParams(toml::parse(searchParamsToToml(p))), p);
    for (const char* bad : {"[search]\nno_such_key = 1\n", "[search]\nlmr_scale = \"x\"\n",
                            "[search]\nlmr_scale = 7.5\n", "[search]\nq_full_depth = 2.5\n",
                            "[search]\nq_delta_base = -1\n", "search = 3\n"}) {
        EXPECT_THROW(loadSearchParams(toml::parse(bad)), std::runtime_error) << bad;
    }
    // Through the configuration reader: the error names the file and the key.
    try {
        app::parseConfig("[search]\nrazor_base = -5\n", "x.toml", {});
        FAIL() << "no error";
    } catch (const app::ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("x.toml"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("search.razor_base"), std::string::npos);
    }
    EXPECT_EQ(app::parseConfig("[search]\nrazor_base = 70\n", "x.toml", {}).search.razorBase, 70);
}

// The values reach the search: fewer reductions and no move-count pruning search more nodes to
// the same depth; the defaults again give the default count.
TEST(SearchParams, ChangeTheSearch) {
    game::Board b(15, 15, Rule::FREESTYLE);
    for (auto [x, y] : {std::pair{7, 7}, {7, 8}, {8, 8}, {9, 9}, {8, 7}, {6, 7}, {8, 9}})
        b.move(Pos(x, y));
    auto nodes = [&](const SearchParams& p) {
        Searcher s;
        s.setParams(p);
        return s.think(b, test::noClock(7)).nodes;
    };
    uint64_t base = nodes(SearchParams{});
    SearchParams wide;
    wide.lmrScale = 0;
    wide.moveCountBase = 100;
    EXPECT_GT(nodes(wide), base);
    EXPECT_EQ(nodes(SearchParams{}), base);
}

// The candidate range reaches the search board: a wider one searches more nodes to the same
// depth, and the narrowest (the eight neighbours of a stone) finds its move among them.
TEST(SearchParams, CandidateRange) {
    game::Board b(15, 15, Rule::FREESTYLE);
    for (auto [x, y] : {std::pair{7, 7}, {8, 8}, {7, 9}, {9, 6}}) b.move(Pos(x, y));
    auto search = [&](int square, int line) {
        SearchParams p;
        p.candidateSquare = square;
        p.candidateLine = line;
        Searcher s;
        s.setParams(p);
        return s.think(b, test::noClock(6));
    };
    uint64_t base = search(2, 3).nodes;
    EXPECT_GT(search(4, 4).nodes, base);
    EXPECT_LT(search(1, 0).nodes, base);
    for (int depth = 1; depth <= 6; depth++) {
        SearchParams p;
        p.candidateSquare = 1;
        p.candidateLine = 0;
        Searcher s;
        s.setParams(p);
        Pos m = s.think(b, test::noClock(depth)).bestMove;
        bool near = false;
        for (Pos q : b.moves())
            near |= std::max(std::abs(q.x() - m.x()), std::abs(q.y() - m.y())) == 1;
        EXPECT_TRUE(near) << "depth " << depth << ": " << m.x() << "," << m.y();
    }
}
