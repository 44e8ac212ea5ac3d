// A bounded random-input fuzz of the command parser and the session: random and mutated
// command lines, binary junk and long lines. The session must neither crash nor hang, and must
// still answer a command at the end.
#include <gtest/gtest.h>

#include <cstdlib>
#include <future>
#include <random>

#include "moku/protocol/format.h"
#include "moku/protocol/parser.h"
#include "protocol_harness.h"

using namespace moku;
using namespace moku::test;

namespace {

const char* const SEEDS[] = {
    "START 15",
    "START 20",
    "START 5",
    "RECTSTART 12,7",
    "RESTART",
    "BEGIN",
    "TURN 7,7",
    "TURN 0,14",
    "BOARD",
    "7,7,1",
    "8,8,2",
    "3,3,3",
    "DONE",
    "YXBOARD",
    "SWAP2BOARD",
    "7,7",
    "TAKEBACK 7,7",
    "PLAY 3,3",
    "ABOUT",
    "INFO rule 4",
    "INFO rule 1",
    "INFO rule 8",
    "INFO rule 9",
    "INFO rule 2",
    "INFO timeout_turn 0",
    "INFO time_left -100",
    "INFO max_memory 0",
    "INFO thread_num 2",
    "INFO hash_size 1024",
    "INFO show_detail 1",
    "INFO pondering 1",
    "INFO pondering 0",
    "INFO folder /tmp",
    "YXSHOWFORBID",
    "YXNBEST 3",
    "YXHASHCLEAR",
    "YXSHOWINFO",
    "YXSTOP",
    "INFO caution_factor 1",
    "INFO max_node 50",
};

std::string randomLine(std::mt19937_64& rng) {
    auto pick = [&](size_t n) { return size_t(rng() % n); };
    std::string s = SEEDS[pick(std::size(SEEDS))];
    switch (pick(8)) {
    case 0: // pure junk
        s.clear();
        for (size_t i = 0, n = pick(40); i < n; i++) s.push_back(char(rng()));
        break;
    case 1: // byte mutations
        for (size_t i = 0, n = 1 + pick(3); i < n && !s.empty(); i++)
            s[pick(s.size())] = char(rng());
        break;
    case 2: // numbers out of range
        s = std::string(SEEDS[pick(6) + 5]).substr(0, 5) + std::to_string(int64_t(rng())) + "," +
            std::to_string(int(rng() % 60) - 20);
        break;
    case 3: // a long line
        s += std::string(1000 + pick(70000), char('0' + pick(10)));
        break;
    case 4: // random board entries
        s = std::to_string(int(pick(30)) - 5) + "," + std::to_string(int(pick(30)) - 5) + "," +
            std::to_string(pick(5));
        break;
    case 5: // truncation
        s = s.substr(0, pick(s.size() + 1));
        break;
    default:
        break;
    }
    // Never END: the session must run to the final check.
    if (moku::protocol::splitCommand(s).word == "END") s = "x" + s;
    return s;
}

TEST(ProtocolFuzz, RandomSessionsNeverCrashOrHang) {
    int sessions = 60, linesPer = 80;
    if (const char* env = std::getenv("MOKU_FUZZ_SESSIONS")) sessions = std::atoi(env);
    std::mt19937_64 rng(20240601);
    protocol::Options options;
    options.engine.time.turnTimeMs = 0;
    options.engine.maxDepth = 2;
    const char* endings[] = {"\n", "\r\n", "\r"};
    for (int k = 0; k < sessions; k++) {
        std::string input;
        for (int i = 0; i < linesPer; i++) {
            std::string line = randomLine(rng);
            // Thinking time must stay bounded whatever the fuzz changes.
            if (line.find("timeout") != std::string::npos ||
                line.find("max_depth") != std::string::npos)
                line = "INFO timeout_turn 0";
            input += line + endings[rng() % 3];
        }
        input += "DONE\nDONE\nABOUT\n";
        auto future = std::async(std::launch::async, [&] { return runScript(input, options); });
        ASSERT_EQ(future.wait_for(std::chrono::seconds(60)), std::future_status::ready)
            << "session " << k << " hangs";
        auto out = future.get();
        ASSERT_FALSE(out.empty()) << "session " << k;
        EXPECT_EQ(out.back(), protocol::formatAbout()) << "session " << k;
        for (const auto& l : out)
            ASSERT_LT(l.size(), 2000u) << "session " << k << " echoed a long line";
    }
}

} // namespace
