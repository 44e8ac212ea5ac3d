// The progress line of long commands: its exact text, silence when disabled, and the real
// `pbrain-moku bench` drawing it on a terminal (a pseudo-terminal here) but not on a pipe.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <string>

#include "moku/app/terminal.h"

extern char** environ;

using moku::app::Progress;

namespace {

TEST(Progress, RewritesOneLineAndEndsIt) {
    std::ostringstream os;
    {
        Progress p(os, true, 12);
        EXPECT_TRUE(p.enabled());
        p.update(1, "free15-opening...");
        p.update(2, "std..."); // shorter: spaces cover the rest of the longer line
        p.clear();
        p.clear(); // nothing drawn: nothing to erase
        p.update(3, "renju...");
    } // the destructor ends the line
    EXPECT_EQ(os.str(), "\r[1/12] free15-opening..."
                        "\r[2/12] std...           "
                        "\r             \r" // the 13 characters of "[2/12] std..."
                        "\r[3/12] renju...\n");
}

TEST(Progress, DisabledPrintsNothing) {
    std::ostringstream os;
    Progress p(os, false, 3);
    p.update(1, "a");
    p.clear();
    p.finish();
    EXPECT_FALSE(p.enabled());
    EXPECT_EQ(os.str(), "");
}

// Reads from fd until `marker` appears or timeoutMs pass; returns what was read.
std::string readUntil(int fd, const std::string& marker, int timeoutMs) {
    std::string text;
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (text.find(marker) == std::string::npos) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            end - std::chrono::steady_clock::now());
        pollfd p{fd, POLLIN, 0};
        if (left.count() <= 0 || poll(&p, 1, int(left.count())) <= 0) break;
        char buf[512];
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0) break;
        text.append(buf, size_t(n));
    }
    return text;
}

TEST(Progress, BenchDrawsItOnATerminalOnly) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) || unlockpt(master)) GTEST_SKIP() << "no pseudo-terminal";
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    ASSERT_GE(slave, 0);
    int out[2];
    ASSERT_EQ(pipe(out), 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, slave, 2);
    for (int fd : {master, slave, out[0], out[1]}) posix_spawn_file_actions_addclose(&fa, fd);
    char engine[] = MOKU_ENGINE_PATH, bench[] = "bench";
    char* argv[] = {engine, bench, nullptr};
    pid_t pid = -1;
    ASSERT_EQ(posix_spawn(&pid, engine, &fa, nullptr, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(slave);
    close(out[1]);

    std::string err = readUntil(master, "[1/12] free15-opening...", 60000);
    std::string first = readUntil(out[0], "\n", 60000);
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    close(master);
    close(out[0]);
    EXPECT_EQ(err.rfind("\r[1/12] free15-opening...", 0), 0u) << err;
    // stdout, a pipe, carries the result lines alone.
    EXPECT_EQ(first.rfind("free15-opening: depth=", 0), 0u) << first;
    EXPECT_EQ(first.find('\r'), std::string::npos) << first;
}

} // namespace
