// The whole pbrain-moku process stays under INFO max_memory: its peak resident memory (VmHWM)
// after a search with two threads has spread over the table; and the table's pages are
// written before the first turn or in idle time, never inside a turn. Linux only (reads /proc).
#include <gtest/gtest.h>

#ifdef __linux__

#include <chrono>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <thread>
#include <utility>

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

// A fresh engine's first turn, as c-gomoku-cli sends it (INFO lines and the position written
// together, max_memory 350 MB): its move (nullopt: none within 5 s) and the milliseconds from
// the first INFO line to it.
std::pair<std::optional<std::string>, long long>
firstTurn(ChildEngine& e, const char* turnMs, std::initializer_list<const char*> board) {
    e.send("START 15");
    if (e.reply(5000) != "OK") return {std::nullopt, 0};
    auto start = std::chrono::steady_clock::now();
    e.send("INFO rule 0");
    e.send(std::string("INFO timeout_turn ") + turnMs);
    for (const char* line : {"INFO timeout_match 0", "INFO max_memory 367001600",
                             "INFO time_left 2147483647", "BOARD"})
        e.send(line);
    for (const char* line : board) e.send(line);
    e.send("DONE");
    auto move = e.reply(5000);
    return {move, (long long)std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count()};
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
    // A short turn told afterwards bounds the table at once (16 MiB for 200 ms).
    e.send("INFO timeout_turn 200");
    e.send("YXSHOWFORBID");
    ASSERT_EQ(e.reply(5000), "FORBID .");
    uint64_t afterTurnTime = statusBytes(e.pid(), "VmRSS");
    std::printf("%lu MiB after INFO timeout_turn 200\n", (unsigned long)(afterTurnTime >> 20));
    EXPECT_LT(afterTurnTime, uint64_t(64) << 20);
    e.send("END");
    EXPECT_EQ(e.waitExit(5000), 0);
}

// c-gomoku-cli writes INFO max_memory and the first BOARD together: the table's pages must not
// delay that turn. A 200 ms turn gets a table sized to its time control (16 MiB), whose pages a
// search writes in a few milliseconds, rather than the 300 MiB max_memory would allow.
TEST(SmpMemory, TablePagesNeverDelayATurn) {
    if (SANITIZED) GTEST_SKIP() << "sanitizer shadow memory is not the engine's";
    ChildEngine e;
    auto [move, ms] = firstTurn(e, "200", {"7,7,1", "8,8,2"});
    ASSERT_TRUE(move);
    EXPECT_LE(ms, 220) << "the first turn (200 ms) took " << ms << " ms";
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    uint64_t resident = statusBytes(e.pid(), "VmRSS");
    std::printf("first turn %lld ms; then %lu MiB resident\n", (long long)ms,
                (unsigned long)(resident >> 20));
    EXPECT_LT(resident, uint64_t(64) << 20);
    e.send("END");
    EXPECT_EQ(e.waitExit(5000), 0);
}

// A long turn keeps the large table; when the move is found at once (here a five), the pages
// are still written after the reply, in the idle time, not before it.
TEST(SmpMemory, LargeTablePagedAfterTheReply) {
    if (SANITIZED) GTEST_SKIP() << "sanitizer shadow memory is not the engine's";
    ChildEngine e;
    auto [move, ms] = firstTurn(
        e, "10000", {"7,3,1", "7,4,1", "7,5,1", "7,6,1", "3,3,2", "3,5,2", "3,7,2", "3,9,2"});
    ASSERT_TRUE(move);
    EXPECT_TRUE(*move == "7,2" || *move == "7,7") << *move;
    EXPECT_LT(ms, 1000); // the five is played at once, not at the end of the 10 s turn
    uint64_t atReply = statusBytes(e.pid(), "VmRSS");
    uint64_t resident = atReply;
    for (int i = 0; i < 100 && resident <= (uint64_t(250) << 20); i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        resident = statusBytes(e.pid(), "VmRSS");
    }
    std::printf("five found in %lld ms with %lu MiB resident; then %lu MiB\n", (long long)ms,
                (unsigned long)(atReply >> 20), (unsigned long)(resident >> 20));
    EXPECT_GT(resident, uint64_t(250) << 20);
    e.send("END");
    EXPECT_EQ(e.waitExit(5000), 0);
}

TEST(SmpMemory, PeakUnder64MB) { checkPeak(uint64_t(64) << 20, 1500); }
TEST(SmpMemory, PeakUnder350MB) { checkPeak(367001600, 2000); }
TEST(SmpMemory, PeakUnder1GB) { checkPeak(uint64_t(1) << 30, 3000); }

#endif
