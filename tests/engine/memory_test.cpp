// The whole pbrain-moku process stays under INFO max_memory: its peak resident memory (VmHWM)
// after a search with two threads has spread over the table; and the table's pages are
// written before the first turn or in idle time, never inside a turn. Linux only (reads /proc).
#include <gtest/gtest.h>

#ifdef __linux__

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "protocol/child_process.h"

using moku::test::ChildEngine;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool SANITIZED = true;
#else
constexpr bool SANITIZED = false;
#endif

// A field of /proc/<pid>/status in bytes (the file gives kB), 0 when missing.
uint64_t statusBytes(pid_t pid, const char* field) {
    std::string path = "/proc/" + std::to_string(pid) + "/status";
    FILE* f = std::fopen(path.c_str(), "r");
    if (!f) return 0;
    char line[256];
    uint64_t kib = 0;
    size_t n = std::strlen(field);
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, field, n) == 0 && line[n] == ':') {
            std::sscanf(line + n + 1, "%lu", &kib);
            break;
        }
    std::fclose(f);
    return kib * 1024;
}

void checkPeak(uint64_t maxMemory, int searchMs) {
    if (SANITIZED) GTEST_SKIP() << "sanitizer shadow memory is not the engine's";
    ChildEngine e;
    e.send("START 20");
    ASSERT_EQ(e.reply(5000), "OK");
    e.send("INFO max_memory " + std::to_string(maxMemory));
    e.send("INFO thread_num 2");
    e.send("INFO timeout_turn " + std::to_string(searchMs));
    e.send("INFO timeout_match 0");
    // Two searches in an open middle game: the table fills and the stacks grow.
    e.send("BOARD");
    for (const char* s : {"10,10,1", "11,11,2", "9,11,1", "11,9,2", "10,12,1", "8,10,2"}) e.send(s);
    e.send("DONE");
    auto move = e.reply(searchMs * 3 + 5000);
    ASSERT_TRUE(move);
    e.send("TURN 3,3");
    ASSERT_TRUE(e.reply(searchMs * 3 + 5000));
    uint64_t peak = statusBytes(e.pid(), "VmHWM");
    ASSERT_GT(peak, 0u);
    std::printf("max_memory %lu MiB: peak resident %lu MiB\n", (unsigned long)(maxMemory >> 20),
                (unsigned long)(peak >> 20));
    EXPECT_LT(peak, maxMemory);
    e.send("END");
    EXPECT_EQ(e.waitExit(5000), 0);
}

} // namespace

// The table's pages are written when the manager tells the memory limit, not during the first
// turn (where a run of page faults can cost tens of milliseconds), and not at START, when a
// smaller limit may still come.
TEST(SmpMemory, TableResidentOnceTheLimitIsKnown) {
    if (SANITIZED) GTEST_SKIP() << "sanitizer shadow memory is not the engine's";
    ChildEngine e;
    e.send("START 15");
    ASSERT_EQ(e.reply(5000), "OK");
    uint64_t atStart = statusBytes(e.pid(), "VmRSS");
    e.send("INFO max_memory 367001600");
    e.send("YXSHOWFORBID"); // answered after the INFO line is done
    ASSERT_EQ(e.reply(5000), "FORBID .");
    uint64_t afterInfo = statusBytes(e.pid(), "VmRSS");
    std::printf("resident: %lu MiB after START, %lu MiB after INFO max_memory\n",
                (unsigned long)(atStart >> 20), (unsigned long)(afterInfo >> 20));
    EXPECT_LT(atStart, uint64_t(64) << 20);
    EXPECT_GT(afterInfo, uint64_t(250) << 20); // the table is about 300 MiB of the 350
    e.send("END");
    EXPECT_EQ(e.waitExit(5000), 0);
}

// c-gomoku-cli writes INFO max_memory and the first BOARD together: the table's pages must not
// delay that turn; they are written in the idle time after it.
TEST(SmpMemory, TablePagesNeverDelayATurn) {
    if (SANITIZED) GTEST_SKIP() << "sanitizer shadow memory is not the engine's";
    ChildEngine e;
    e.send("START 15");
    ASSERT_EQ(e.reply(5000), "OK");
    auto start = std::chrono::steady_clock::now();
    for (const char* line : {"INFO rule 0", "INFO timeout_turn 200", "INFO timeout_match 0",
                             "INFO max_memory 367001600", "INFO time_left 2147483647", "BOARD",
                             "7,7,1", "8,8,2", "DONE"})
        e.send(line);
    ASSERT_TRUE(e.reply(5000));
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count();
    EXPECT_LE(ms, 220) << "the first turn (200 ms) took " << ms << " ms";
    uint64_t resident = 0;
    for (int i = 0; i < 100 && resident <= (uint64_t(250) << 20); i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        resident = statusBytes(e.pid(), "VmRSS");
    }
    std::printf("first turn %lld ms; then %lu MiB resident\n", (long long)ms,
                (unsigned long)(resident >> 20));
    EXPECT_GT(resident, uint64_t(250) << 20);
    e.send("END");
    EXPECT_EQ(e.waitExit(5000), 0);
}

TEST(SmpMemory, PeakUnder64MB) { checkPeak(uint64_t(64) << 20, 1500); }
TEST(SmpMemory, PeakUnder350MB) { checkPeak(367001600, 2000); }
TEST(SmpMemory, PeakUnder1GB) { checkPeak(uint64_t(1) << 30, 3000); }

#endif
