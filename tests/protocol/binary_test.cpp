// The real executable: command line, configuration lookup, silence before the first command.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "child_process.h"
#include "moku/protocol/format.h"
#include "protocol_harness.h"

using namespace moku;
using moku::test::ChildEngine;

namespace {

// Runs a shell command; returns its exit status and stdout+stderr.
std::pair<int, std::string> shell(const std::string& cmd) {
    std::string out;
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return {-1, out};
    char buf[512];
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

const std::string ENGINE = MOKU_ENGINE_PATH;

TEST(ProtocolBinary, VersionAndHelp) {
    auto [rc, out] = shell(ENGINE + " --version");
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(out, std::string("Moku ") + MOKU_VERSION + "\n");
    std::tie(rc, out) = shell(ENGINE + " --help");
    EXPECT_EQ(rc, 0);
    EXPECT_NE(out.find("--config"), std::string::npos);
    EXPECT_NE(out.find("bench"), std::string::npos);
    std::tie(rc, out) = shell(ENGINE + " --no-such-option");
    EXPECT_EQ(rc, 2);
    std::tie(rc, out) = shell(ENGINE + " frobnicate");
    EXPECT_EQ(rc, 2);
    std::tie(rc, out) = shell(ENGINE + " evaluate");
    EXPECT_EQ(rc, 2);
    EXPECT_NE(out.find("--network"), std::string::npos);
}

TEST(ProtocolBinary, BrokenConfigIsReportedOnStderr) {
    auto dir = std::filesystem::temp_directory_path() / "moku_config_test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "bad.toml") << "[engine]\nthreads = \"many\"\n";
    auto [rc, out] = shell("echo ABOUT | " + ENGINE + " --config " + (dir / "bad.toml").string());
    EXPECT_EQ(rc, 1);
    EXPECT_NE(out.find("configuration error"), std::string::npos) << out;
    EXPECT_NE(out.find("engine.threads"), std::string::npos) << out;
    std::tie(rc, out) =
        shell("echo ABOUT | " + ENGINE + " --config " + (dir / "missing.toml").string());
    EXPECT_EQ(rc, 1);
    std::ofstream(dir / "good.toml") << "[engine]\nthreads = 2\n";
    std::tie(rc, out) = shell("echo ABOUT | " + ENGINE + " --config " +
                              (dir / "good.toml").string() + " --threads 1");
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(out, protocol::formatAbout() + "\n");
    std::filesystem::remove_all(dir);
}

// The manager chooses the working directory: the engine still finds config.toml next to itself,
// and prints nothing until the first command (c-gomoku-cli reads the first line as ABOUT's).
TEST(ProtocolBinary, SilentUntilFirstCommandFromAnyDirectory) {
    ChildEngine e({}, "/");
    EXPECT_FALSE(e.readLine(300));
    e.send("ABOUT");
    EXPECT_EQ(e.readLine(5000), protocol::formatAbout());
    e.send("START 15");
    EXPECT_EQ(e.readLine(5000), "OK");
    e.send("END");
    EXPECT_EQ(e.waitExit(2000), 0);
}

TEST(ProtocolBinary, EofExitsCleanly) {
    ChildEngine e;
    e.send("START 15");
    EXPECT_EQ(e.readLine(5000), "OK");
    e.closeInput();
    EXPECT_EQ(e.waitExit(2000), 0);
}

// END in the middle of a long search: the process is gone within 200 ms, after answering the
// BOARD it was thinking about with the best move so far.
TEST(ProtocolBinary, EndDuringSearchExitsWithin200ms) {
    ChildEngine e;
    e.send("START 15");
    EXPECT_EQ(e.readLine(5000), "OK");
    e.send("INFO timeout_turn 30000");
    e.send("INFO timeout_match 0");
    e.send("BOARD");
    e.send("7,7,1");
    e.send("8,8,2");
    e.send("DONE");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto sent = std::chrono::steady_clock::now();
    e.send("END");
    int status = e.waitExit(2000);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - sent)
                  .count();
    EXPECT_EQ(status, 0);
    EXPECT_LE(ms, 200 * test::SANITIZER_SLOWDOWN);
    std::vector<std::string> moves;
    while (auto line = e.reply(10)) moves.push_back(*line);
    ASSERT_EQ(moves.size(), 1u) << ::testing::PrintToString(moves);
    EXPECT_TRUE(test::isMoveReply(moves[0], 15, 15)) << moves[0];
    EXPECT_TRUE(moves[0] != "7,7" && moves[0] != "8,8") << moves[0];
}

// A fresh process asked for a renju move right after START: the rule's tables are still being
// built in the background, and that wait is paid from the same turn, not added to it. The turn
// time counts from the command that asks for the move.
TEST(ProtocolBinary, TurnTimeCountsFromTheCommand) {
    for (const char* rule : {"4", "1", "0"}) {
        ChildEngine e;
        e.send("START 15");
        EXPECT_EQ(e.readLine(5000), "OK");
        e.send(std::string("INFO rule ") + rule);
        e.send("INFO timeout_turn 400");
        e.send("INFO timeout_match 0");
        auto sent = std::chrono::steady_clock::now();
        e.send("BOARD");
        e.send("7,7,2");
        e.send("8,8,1");
        e.send("7,9,2");
        e.send("DONE");
        auto move = e.reply(5000);
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - sent)
                      .count();
        ASSERT_TRUE(move.has_value()) << rule;
        EXPECT_TRUE(test::isMoveReply(*move, 15, 15)) << *move;
        EXPECT_LE(ms, 400 * test::SANITIZER_SLOWDOWN) << "rule " << rule;
        e.send("END");
        EXPECT_EQ(e.waitExit(2000), 0);
    }
}

} // namespace
