// Golden transcripts of scripted sessions: the real binary gets its whole input at once, as from
// `printf '...' | pbrain-moku`, END included. Everything before END is answered in order (its
// searches cut short), nothing after END is executed, and the process exits soon after.
//
// Expected lines: text, "{move}" (a legal free point) or "{a|b}" (one of them); MESSAGE lines
// are skipped.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <sstream>

#include "child_process.h"
#include "moku/protocol/format.h"
#include "protocol_harness.h"

using namespace moku;
using namespace moku::test;
using Clock = std::chrono::steady_clock;

namespace {

struct Piped {
    std::vector<std::string> replies; // MESSAGE/DEBUG lines left out
    int status = -1;
    int64_t ms = 0; // from writing the input to the exit
};

Piped pipeThrough(const std::string& input) {
    ChildEngine e;
    auto start = Clock::now();
    e.sendRaw(input);
    e.closeInput();
    Piped p;
    for (const std::string& line : e.readToEnd(10000))
        if (line.rfind("MESSAGE ", 0) && line.rfind("DEBUG ", 0)) p.replies.push_back(line);
    p.status = e.waitExit(5000);
    p.ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    return p;
}

// Checks the replies against the expected lines; `taken` are the stones of the script.
void expectReplies(const Piped& p, const std::vector<std::string>& want,
                   std::set<std::string> taken = {}) {
    EXPECT_EQ(p.status, 0);
    ASSERT_EQ(p.replies.size(), want.size()) << ::testing::PrintToString(p.replies);
    for (size_t i = 0; i < want.size(); i++) {
        const std::string& got = p.replies[i];
        if (want[i] == "{move}") {
            EXPECT_TRUE(isMoveReply(got, 15, 15)) << got;
            EXPECT_EQ(taken.count(got), 0u) << "occupied: " << got;
        } else if (want[i].front() == '{') {
            EXPECT_TRUE(isOneOf(got, want[i])) << got << " not in " << want[i];
        } else {
            EXPECT_EQ(got, want[i]);
        }
        if (isMoveReply(got)) taken.insert(got);
    }
}

TEST(ProtocolPipe, AboutEnd) {
    expectReplies(pipeThrough("ABOUT\nEND\n"), {protocol::formatAbout()});
}

TEST(ProtocolPipe, StartBeginEnd) {
    expectReplies(pipeThrough("START 15\nBEGIN\nEND\n"), {"OK", "7,7"});
}

TEST(ProtocolPipe, StartBeginTurnEnd) {
    expectReplies(pipeThrough("START 15\r\nBEGIN\r\nTURN 8,8\r\nEND\r\n"), {"OK", "7,7", "{move}"},
                  {"8,8"});
}

// The queued search is cut to a minimal one, which still blocks the opponent's four.
TEST(ProtocolPipe, BoardDoneEnd) {
    expectReplies(pipeThrough("START 15\nINFO timeout_turn 30000\nBOARD\n3,3,2\n4,3,2\n5,3,2\n"
                              "6,3,2\n3,9,1\n5,9,1\n9,12,1\nDONE\nEND\n"),
                  {"OK", "{2,3|7,3}"});
}

// A 30-second think is cut by END: the move comes, and the process is gone well before.
TEST(ProtocolPipe, LongThinkCutByEnd) {
    Piped p = pipeThrough("START 15\nINFO timeout_turn 30000\nINFO timeout_match 0\nBOARD\n"
                          "7,7,1\n8,8,2\nDONE\nEND\n");
    expectReplies(p, {"OK", "{move}"}, {"7,7", "8,8"});
    EXPECT_LT(p.ms, 3000 * SANITIZER_SLOWDOWN);
}

// Every search queued before END is answered, each cut short.
TEST(ProtocolPipe, QueuedSearchesAreAllAnsweredQuickly) {
    std::string input = "START 15\nINFO timeout_turn 30000\nINFO timeout_match 0\nBEGIN\n";
    std::vector<std::string> turns;
    for (int x = 0; x < 10; x++) {
        turns.push_back(std::to_string(x) + ",14");
        input += "TURN " + turns.back() + "\n";
    }
    Piped p = pipeThrough(input + "END\n");
    EXPECT_EQ(p.status, 0);
    EXPECT_LT(p.ms, 5000 * SANITIZER_SLOWDOWN);
    ASSERT_EQ(p.replies.size(), 2 + turns.size()) << ::testing::PrintToString(p.replies);
    EXPECT_EQ(p.replies[0], "OK");
    EXPECT_EQ(p.replies[1], "7,7");
    // Each answer is free given the stones so far (a later TURN onto an engine stone is the
    // script's mistake: reported on a MESSAGE line, and still answered).
    std::set<std::string> taken = {"7,7"};
    for (size_t i = 0; i < turns.size(); i++) {
        const std::string& move = p.replies[2 + i];
        taken.insert(turns[i]);
        EXPECT_TRUE(isMoveReply(move, 15, 15)) << move;
        EXPECT_EQ(taken.count(move), 0u) << "occupied: " << move;
        taken.insert(move);
    }
}

TEST(ProtocolPipe, NothingAfterEndIsExecuted) {
    expectReplies(pipeThrough("ABOUT\nEND\nABOUT\nSTART 15\nBEGIN\n"), {protocol::formatAbout()});
    // A position that END interrupts before its DONE is never complete: no move.
    expectReplies(pipeThrough("START 15\nBOARD\n7,7,1\nEND\nDONE\n"), {"OK"});
}

// YXNBEST and SWAP2BOARD queued before END answer too.
TEST(ProtocolPipe, AnalysisAndSwap2BeforeEnd) {
    expectReplies(pipeThrough("START 15\nINFO timeout_turn 30000\nYXBOARD\n7,7,1\n8,8,2\nDONE\n"
                              "YXNBEST 3\nEND\n"),
                  {"OK", "{move}"}, {"7,7", "8,8"});
    Piped p = pipeThrough("START 15\nINFO timeout_turn 30000\nSWAP2BOARD\nDONE\nEND\n");
    ASSERT_EQ(p.replies.size(), 2u) << ::testing::PrintToString(p.replies);
    EXPECT_EQ(p.replies[0], "OK");
    std::istringstream stones(p.replies[1]);
    std::string s;
    int count = 0;
    while (stones >> s) count += isMoveReply(s, 15, 15);
    EXPECT_EQ(count, 3) << p.replies[1];
}

} // namespace
