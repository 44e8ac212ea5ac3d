// The engine's network choice: files per rule, checked against the game at every start and
// rule change, a MESSAGE for the manager, and the classical evaluator whenever the network
// cannot play the game (uncovered rule or size, rectangular board, caro, missing/broken file).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "moku/app/config.h"
#include "moku/engine/engine.h"
#include "protocol/protocol_harness.h"
#include "test_util.h"

using namespace moku;
using namespace moku::engine;

namespace {

const std::string NET = test::dataPath("mix9svq/synthetic-freestyle.bin.lz4");

// One notice containing every fragment; the notices are consumed.
bool noticeHas(Engine& e, std::initializer_list<const char*> fragments) {
    for (const std::string& n : e.takeNotices()) {
        bool all = true;
        for (const char* f : fragments) all &= n.find(f) != std::string::npos;
        if (all) return true;
    }
    return false;
}

void fastLimits(Engine& e) {
    e.options().maxNodes = 1500;
    e.options().time.turnTimeMs = 1000;
}

void playAFewMoves(Engine& e) {
    e.play(Pos(e.width() / 2, e.height() / 2));
    for (int i = 0; i < 3; i++) {
        search::SearchResult r = e.thinkAndPlay();
        ASSERT_NE(r.bestMove, POS_NONE);
    }
}

std::string tempFile(const std::string& name, const std::string& bytes) {
    auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
}

TEST(EngineNetwork, ChosenPerRuleAndBoard) {
    Engine e;
    fastLimits(e);
    e.options().networks.freestyle = NET;
    e.newGame(15, 15);
    EXPECT_TRUE(e.networkActive());
    EXPECT_TRUE(noticeHas(e, {"freestyle 15x15", "synthetic-freestyle.bin.lz4"}));
    playAFewMoves(e);
    e.newGame(15, 15);
    EXPECT_TRUE(e.takeNotices().empty()); // the same choice again: nothing new to say

    e.setRule(Rule::RENJU); // no renju files
    EXPECT_FALSE(e.networkActive());
    EXPECT_TRUE(noticeHas(e, {"renju", "classical evaluation"}));
    playAFewMoves(e);

    e.options().networks.renjuBlack = e.options().networks.renjuWhite = NET;
    e.newGame(15, 15); // a freestyle file for renju: its rule mask says no
    EXPECT_FALSE(e.networkActive());
    EXPECT_TRUE(noticeHas(e, {"does not cover rule renju", "classical evaluation"}));

    e.setRule(Rule::FREESTYLE);
    e.newGame(20, 15);
    EXPECT_FALSE(e.networkActive());
    EXPECT_TRUE(noticeHas(e, {"square board", "classical evaluation"}));
    playAFewMoves(e);

    e.setRule(Rule::CARO8);
    e.newGame(15, 15);
    EXPECT_FALSE(e.networkActive());
    EXPECT_TRUE(noticeHas(e, {"caro", "classical evaluation"}));
}

TEST(EngineNetwork, MissingOrBrokenFilesFallBack) {
    std::string raw;
    {
        std::ifstream in(NET, std::ios::binary);
        raw.assign(std::istreambuf_iterator<char>(in), {});
    }
    ASSERT_GT(raw.size(), 1000u);
    const std::pair<std::string, const char*> cases[] = {
        {"/nonexistent/net.bin.lz4", "cannot open"},
        {tempFile("moku_truncated.bin.lz4", raw.substr(0, raw.size() / 2)), "network "},
        {tempFile("moku_garbage.bin.lz4", std::string(4096, 'x')), "network "},
    };
    for (const auto& [path, fragment] : cases) {
        Engine e;
        fastLimits(e);
        e.options().networks.freestyle = path;
        e.newGame(15, 15);
        EXPECT_FALSE(e.networkActive()) << path;
        EXPECT_TRUE(noticeHas(e, {fragment, path.c_str(), "classical evaluation"})) << path;
        playAFewMoves(e);
    }
}

TEST(EngineNetwork, ForcedInstructionSet) {
    Engine e;
    e.options().networks.freestyle = NET;
    e.options().simd = eval::SimdLevel::SCALAR;
    e.newGame(15, 15);
    EXPECT_TRUE(e.networkActive());
    EXPECT_TRUE(noticeHas(e, {"(scalar)"}));
}

TEST(EngineNetwork, ProtocolMessages) {
    protocol::Options o;
    o.engine.networks.freestyle = NET;
    o.engine.maxNodes = 1500;
    auto lines = test::runScript("START 15\nINFO rule 4\nINFO rule 0\nRECTSTART 20,15\n"
                                 "START 15\nINFO simd scalar\nINFO simd nonsense\nBEGIN\n",
                                 o);
    std::vector<std::string> expected = {
        "OK",
        "MESSAGE network: freestyle 15x15 evaluated by synthetic-freestyle.bin.lz4",
        "MESSAGE network: none for renju 15x15; classical evaluation",
        "MESSAGE network: freestyle 15x15 evaluated by synthetic-freestyle.bin.lz4",
        "OK",
        "MESSAGE network: the network needs a square board, not 20x15 (freestyle 20x15); "
        "classical evaluation",
        "OK",
        "MESSAGE network: freestyle 15x15 evaluated by synthetic-freestyle.bin.lz4",
        "MESSAGE network: freestyle 15x15 evaluated by synthetic-freestyle.bin.lz4 (scalar)",
        "MESSAGE ERROR INFO simd: unknown instruction set 'nonsense'",
    };
    ASSERT_GE(lines.size(), expected.size() + 1);
    for (size_t i = 0; i < expected.size(); i++)
        EXPECT_EQ(lines[i].substr(0, expected[i].size()), expected[i]) << i << ": " << lines[i];
    EXPECT_EQ(test::replies(lines).back(), "7,7");
}

TEST(EngineNetwork, ConfigSection) {
    app::Config c = app::parseConfig("[nnue]\nfreestyle = \"nets/free.bin.lz4\"\n"
                                     "standard = \"/abs/std.bin.lz4\"\nrenju_black = \"\"\n"
                                     "renju_white = \"w.bin.lz4\"\nsimd = \"sse41\"\n",
                                     "c.toml", "/etc/moku");
    EXPECT_EQ(c.engine.networks.freestyle, "/etc/moku/nets/free.bin.lz4");
    EXPECT_EQ(c.engine.networks.standard, "/abs/std.bin.lz4");
    EXPECT_EQ(c.engine.networks.renjuBlack, "");
    EXPECT_EQ(c.engine.networks.renjuWhite, "/etc/moku/w.bin.lz4");
    EXPECT_EQ(c.engine.simd, eval::SimdLevel::SSE41);
    EXPECT_FALSE(app::parseConfig("[nnue]\nsimd = \"auto\"\n", "c.toml").engine.simd);
    EXPECT_THROW(app::parseConfig("[nnue]\nsimd = \"mmx\"\n", "c.toml"), app::ConfigError);
    EXPECT_THROW(app::parseConfig("[nnue]\nfreestyle = 3\n", "c.toml"), app::ConfigError);
    EXPECT_THROW(app::parseConfig("[nnue]\nrenju = \"x\"\n", "c.toml"), app::ConfigError);
    app::Config shipped = app::loadConfig(std::string(MOKU_SOURCE_DIR) + "/configs/config.toml");
    EXPECT_EQ(shipped.engine.networks, NetworkFiles{});
    EXPECT_FALSE(shipped.engine.simd);
}

} // namespace
