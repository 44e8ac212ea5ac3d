#include <gtest/gtest.h>

#include "moku/app/config.h"

using namespace moku;
using namespace moku::app;

namespace {

// configs/config.toml documents the embedded defaults: reading it must change nothing.
TEST(AppConfig, ShippedFileEqualsEmbeddedDefaults) {
    Config c = loadConfig(std::string(MOKU_SOURCE_DIR) + "/configs/config.toml");
    engine::EngineOptions d;
    EXPECT_EQ(c.engine.threads, d.threads);
    EXPECT_EQ(c.engine.hashKiB, d.hashKiB);
    EXPECT_EQ(c.engine.time.turnTimeMs, d.time.turnTimeMs);
    EXPECT_EQ(c.engine.time.matchTimeMs, d.time.matchTimeMs);
    EXPECT_EQ(c.engine.maxDepth, d.maxDepth);
    EXPECT_EQ(c.engine.maxNodes, d.maxNodes);
    EXPECT_EQ(c.engine.pondering, d.pondering);
    EXPECT_EQ(c.engine.showDetail, d.showDetail);
    EXPECT_TRUE(c.table.contains("engine"));
}

TEST(AppConfig, ReadsEngineSection) {
    Config c = parseConfig("[engine]\nthreads = 4\nhash_kib = 1024\npondering = true\n"
                           "[notes]\nwhatever = 1\n",
                           "t.toml");
    EXPECT_EQ(c.engine.threads, 4);
    EXPECT_EQ(c.engine.hashKiB, 1024);
    EXPECT_TRUE(c.engine.pondering);
    EXPECT_EQ(parseConfig("", "empty.toml").engine.threads, 1);
}

TEST(AppConfig, ErrorsNameFileLineAndKey) {
    auto message = [](const char* text) {
        try {
            parseConfig(text, "bad.toml");
        } catch (const ConfigError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("[engine\nthreads = 1").find("bad.toml:1"), std::string::npos);
    EXPECT_NE(message("[engine]\n\nthreads = \"four\"").find("bad.toml:3: engine.threads"),
              std::string::npos);
    EXPECT_NE(message("[engine]\nthreads = 0").find("1..256"), std::string::npos);
    EXPECT_NE(message("[engine]\nthraeds = 2").find("unknown key engine.thraeds"),
              std::string::npos);
    EXPECT_NE(message("[engine]\npondering = 1").find("true or false"), std::string::npos);
    EXPECT_NE(message("engine = 3").find("must be a table"), std::string::npos);
    EXPECT_THROW(loadConfig("/nonexistent/config.toml"), ConfigError);
}

} // namespace
