// Golden transcripts: whole sessions as Piskvork, the Gomocup referee, c-gomoku-cli and
// Yixin-Board send them (modelled on sessions captured from those managers), played live: each
// command is sent when the manager would send it and every reply line is compared.
//
// Script lines: "<- text" is sent; "-> text" must be the next reply (MESSAGE lines skipped
// unless the expected line is one); "-> {move}" is any legal free point; "-> {a|b}" one of them.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <sstream>

#include "moku/protocol/format.h"
#include "protocol_harness.h"

using namespace moku;
using namespace moku::test;
using Clock = std::chrono::steady_clock;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int SLOW = 4; // sanitizers slow everything down; timing limits scale
#else
constexpr int SLOW = 1;
#endif

void play(const std::vector<std::string>& script) {
    LiveSession s;
    std::set<std::string> taken; // points known to be occupied (sent or played)
    auto note = [&](const std::string& cmd) {
        std::istringstream in(cmd);
        std::string word, arg;
        in >> word >> arg;
        if (word == "TURN" || isMoveReply(cmd)) taken.insert(word == "TURN" ? arg : cmd);
        int x, y, f;
        if (std::sscanf(cmd.c_str(), "%d,%d,%d", &x, &y, &f) == 3)
            taken.insert(std::to_string(x) + "," + std::to_string(y));
        if (word == "START" || word == "RESTART") taken.clear();
    };
    for (const std::string& step : script) {
        std::string text = step.substr(3);
        if (step.rfind("<- ", 0) == 0) {
            s.send(text);
            note(text);
            continue;
        }
        auto got = text.rfind("MESSAGE", 0) == 0 ? s.read() : s.reply();
        ASSERT_TRUE(got) << "no reply, expected: " << text;
        if (text == "{move}") {
            EXPECT_TRUE(isMoveReply(*got)) << *got;
            EXPECT_EQ(taken.count(*got), 0u) << "occupied: " << *got;
        } else if (text.front() == '{') {
            EXPECT_TRUE(isOneOf(*got, text)) << *got << " not in " << text;
        } else {
            EXPECT_EQ(*got, text);
        }
        if (isMoveReply(*got)) taken.insert(*got);
    }
    s.send("END");
    EXPECT_TRUE(s.waitDone(200 * SLOW));
}

TEST(ProtocolTranscript, PiskvorkRenju) {
    play({"<- START 15", "-> OK", "<- INFO max_memory 367001600", "<- INFO timeout_match 30000",
          "<- INFO timeout_turn 500", "<- INFO game_type 1", "<- INFO rule 4",
          "<- INFO time_left 28521", "<- INFO folder C:\\ProgramData", "<- BOARD", "<- 7,6,1",
          "<- 8,7,2", "<- 10,5,1", "<- 2,8,2", "<- DONE", "-> {move}", "<- INFO time_left 28402",
          "<- TURN 6,8", "-> {move}",
          // GUI undo of both moves, then a position with a black four to complete.
          "<- TAKEBACK 6,8", "-> OK", "<- RESTART", "-> OK", "<- BOARD", "<- 4,7,1", "<- 4,8,2",
          "<- 5,7,1", "<- 5,8,2", "<- 6,7,1", "<- 6,8,2", "<- 7,7,1", "<- 12,12,2", "<- DONE",
          "-> {3,7|8,7}"});
}

TEST(ProtocolTranscript, GomocupJudgeFreestyle) {
    // The referee writes START and every INFO without waiting for OK.
    play({"<- START 15",
          "<- INFO timeout_turn 1000",
          "<- INFO timeout_match 60000",
          "<- INFO max_memory 367001600",
          "<- INFO game_type 1",
          "<- INFO rule 0",
          "<- INFO folder /tmp/gj/f1",
          "<- INFO time_left 60000",
          "<- BOARD",
          "<- 7,7,1",
          "<- 8,8,2",
          "<- DONE",
          "-> OK",
          "-> {move}",
          "<- INFO time_left 58722",
          "<- TURN 9,7",
          "-> {move}",
          "<- INFO time_left 57770",
          "<- TURN 0,0",
          "-> {move}"});
    // A new game: the first move as an empty BOARD, then an opponent four to block.
    play({"<- START 20", "<- INFO timeout_turn 1000", "<- INFO timeout_match 60000",
          "<- INFO rule 0", "<- INFO time_left 60000", "<- BOARD", "<- DONE", "-> OK", "-> 10,10"});
    play({"<- START 15", "<- INFO timeout_turn 1000", "<- INFO rule 1", "<- INFO time_left 60000",
          "<- BOARD", "<- 3,3,2", "<- 4,3,2", "<- 5,3,2", "<- 6,3,2", "<- 3,9,1", "<- 5,9,1",
          "<- 9,12,1", "<- DONE", "-> OK", "-> {2,3|7,3}"});
}

TEST(ProtocolTranscript, CGomokuCliRenju) {
    play({"<- ABOUT", "-> " + protocol::formatAbout(), "<- START 15", "-> OK", "<- INFO rule 4",
          "<- INFO timeout_turn 2000", "<- INFO timeout_match 20000",
          "<- INFO max_memory 367001600", "<- INFO time_left 20000", "<- BOARD", "<- 7,7,2",
          "<- 8,8,1", "<- 9,7,2", "<- DONE", "-> {move}", "<- INFO time_left 18942", "<- TURN 9,8",
          "-> {move}",
          // The next game on the same process starts with START again; white has a four.
          "<- START 15", "-> OK", "<- INFO rule 4", "<- INFO timeout_turn 2000",
          "<- INFO time_left 20000", "<- BOARD", "<- 7,7,2", "<- 4,4,1", "<- 12,12,2", "<- 5,4,1",
          "<- 12,0,2", "<- 6,4,1", "<- 0,12,2", "<- 7,4,1", "<- 14,14,2", "<- DONE",
          "-> {3,4|8,4}"});
}

TEST(ProtocolTranscript, YixinBoard) {
    play({"<- START 15",
          "-> OK",
          "<- yxshowinfo",
          "-> MESSAGE INFO MAX_THREAD_NUM 256",
          "-> MESSAGE INFO MAX_HASH_SIZE " + std::to_string(engine::MAX_HASH_KIB),
          "<- INFO rule 2",
          "<- INFO show_detail 1",
          "<- INFO timeout_turn 300",
          "<- yxboard",
          "<- 6,7,2",
          "<- 0,0,1",
          "<- 8,7,2",
          "<- 14,0,1",
          "<- 7,6,2",
          "<- 0,14,1",
          "<- 7,8,2",
          "<- done",
          "<- yxshowforbid",
          "-> FORBID 0707.",
          "<- yxnbest 3",
          "-> {move}",
          "<- yxhashclear",
          "<- ABOUT",
          "-> " + protocol::formatAbout()});
}

// CR-only and LF-only line ends, lower case, blank lines.
TEST(ProtocolTranscript, LineEndings) {
    LiveSession s;
    s.send("start 15", "\r");
    EXPECT_EQ(s.reply(), "OK");
    s.send("", "\n");
    s.send("info timeout_turn 100", "\n");
    s.send("begin", "\r");
    EXPECT_EQ(s.reply(), "7,7");
    s.send("turn 8,8", "\r\n");
    EXPECT_TRUE(isMoveReply(s.reply().value_or("")));
}

TEST(ProtocolTranscript, EndExitsPromptlyAfterAnswering) {
    LiveSession s;
    s.send("START 15");
    EXPECT_EQ(s.reply(), "OK");
    s.send("INFO timeout_turn 20000");
    s.send("INFO timeout_match 0");
    s.send("BEGIN");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto sent = Clock::now();
    s.send("END");
    ASSERT_TRUE(s.waitDone(200 * SLOW));
    EXPECT_LT(Clock::now() - sent, std::chrono::milliseconds(200 * SLOW));
    // BEGIN came before END: it is answered (the opening move needs no search), once.
    int moves = 0;
    while (auto l = s.read(10)) moves += isMoveReply(*l);
    EXPECT_EQ(moves, 1);
}

TEST(ProtocolTranscript, EndWhilePondering) {
    LiveSession s;
    s.send("START 15");
    EXPECT_EQ(s.reply(), "OK");
    s.send("INFO pondering 1");
    s.send("INFO timeout_turn 100");
    s.send("BEGIN");
    EXPECT_EQ(s.reply(), "7,7");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    s.send("TURN 8,8"); // stops the ponder search
    EXPECT_TRUE(isMoveReply(s.reply().value_or("")));
    auto sent = Clock::now();
    s.send("END");
    ASSERT_TRUE(s.waitDone(200 * SLOW));
    EXPECT_LT(Clock::now() - sent, std::chrono::milliseconds(200 * SLOW));
}

TEST(ProtocolTranscript, YxStopAnswersAtOnce) {
    LiveSession s;
    s.send("START 15");
    EXPECT_EQ(s.reply(), "OK");
    s.send("INFO timeout_turn 30000");
    s.send("INFO timeout_match 0");
    s.send("YXBOARD");
    s.send("7,7,1");
    s.send("8,8,2");
    s.send("DONE");
    s.send("YXNBEST 1");
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    auto sent = Clock::now();
    s.send("YXSTOP");
    auto move = s.reply(5000);
    ASSERT_TRUE(move);
    EXPECT_TRUE(isMoveReply(*move)) << *move;
    // Far below the 30 s turn, with room for a busy 2-core machine (90 ms was seen under load).
    EXPECT_LT(Clock::now() - sent, std::chrono::milliseconds(500 * SLOW));
}

TEST(ProtocolTranscript, EofEndsTheSession) {
    LiveSession s;
    s.send("START 15");
    EXPECT_EQ(s.reply(), "OK");
    s.closeInput();
    EXPECT_TRUE(s.waitDone(1000));
}

} // namespace
