#include <gtest/gtest.h>

#include <sstream>

#include "moku/protocol/format.h"
#include "moku/protocol/parser.h"

using namespace moku;
using namespace moku::protocol;

namespace {

std::vector<std::string> readAll(const std::string& input, size_t max = 1 << 16) {
    std::istringstream in(input);
    LineReader r(in, max);
    std::vector<std::string> out;
    std::string line;
    while (r.next(line)) out.push_back(line);
    return out;
}

TEST(ProtocolParser, LineEndings) {
    using V = std::vector<std::string>;
    EXPECT_EQ(readAll("A\r\nB\nC\rD"), (V{"A", "B", "C", "D"}));
    EXPECT_EQ(readAll("A\r\r\nB\n\n"), (V{"A", "", "B", ""}));
    EXPECT_EQ(readAll(""), V{});
    EXPECT_EQ(readAll("\r\n"), V{""});
    EXPECT_EQ(readAll(std::string("x\0y\n", 4)), V{std::string("x\0y", 3)});
}

TEST(ProtocolParser, LongLinesAreCut) {
    auto lines = readAll(std::string(100000, 'a') + "\nABOUT\n", 1000);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].size(), 1000u);
    EXPECT_EQ(lines[1], "ABOUT");
}

TEST(ProtocolParser, Commands) {
    Command c = splitCommand("  turn  7,8 \t");
    EXPECT_EQ(c.word, "TURN");
    EXPECT_EQ(c.args, "7,8");
    EXPECT_EQ(splitCommand("yxShowForbid").word, "YXSHOWFORBID");
    EXPECT_EQ(splitCommand("").word, "");
}

TEST(ProtocolParser, Numbers) {
    EXPECT_EQ(parseInt("15"), 15);
    EXPECT_EQ(parseInt(" -42 "), -42);
    EXPECT_EQ(parseInt("+7"), 7);
    EXPECT_EQ(parseInt("2147483647"), 2147483647);
    EXPECT_FALSE(parseInt("15x"));
    EXPECT_FALSE(parseInt(""));
    EXPECT_FALSE(parseInt("-"));
    EXPECT_FALSE(parseInt("99999999999999999999999"));
    EXPECT_FALSE(parseInt("1 5"));
}

TEST(ProtocolParser, Coordinates) {
    EXPECT_EQ(parseCoord("7,8"), (std::pair{7, 8}));
    EXPECT_EQ(parseCoord(" 7 , 8 "), (std::pair{7, 8}));
    EXPECT_FALSE(parseCoord("7"));
    EXPECT_FALSE(parseCoord("7,8,1"));
    EXPECT_FALSE(parseCoord("a,b"));
    EXPECT_FALSE(parseCoord("7,"));
    EXPECT_EQ(parseCoord("-1,3"), (std::pair{-1, 3}));
    EXPECT_FALSE(parseCoord("99999999,1"));
    EXPECT_EQ(parseBoardEntry("1,2,3"), (std::array{1, 2, 3}));
    EXPECT_FALSE(parseBoardEntry("1,2"));
    EXPECT_FALSE(parseBoardEntry("1,2,3,4"));
}

TEST(ProtocolParser, Entries) {
    using V = std::vector<std::string>;
    EXPECT_EQ(splitEntries("7,7,1 8, 8, 2  DONE"), (V{"7,7,1", "8,8,2", "DONE"}));
    EXPECT_EQ(splitEntries("  "), V{});
    EXPECT_EQ(splitEntries("7 ,7"), V{"7,7"});
}

TEST(ProtocolFormat, Lines) {
    EXPECT_EQ(formatMove(Pos(11, 10)), "11,10");
    EXPECT_EQ(formatScore(35), "35");
    EXPECT_EQ(formatScore(-120), "-120");
    EXPECT_EQ(formatScore(mateIn(5)), "M5");
    EXPECT_EQ(formatScore(matedIn(4)), "-M4");
    EXPECT_EQ(formatForbid({}), "FORBID .");
    EXPECT_EQ(formatForbid({Pos(9, 12), Pos(10, 11)}), "FORBID 09121011.");
    EXPECT_EQ(printable(std::string("a\0b\xff", 4)), "a?b?");
    search::IterationInfo info{5, 9, 0, mateIn(3), 1234, 10, {Pos(7, 7), Pos(8, 8)}};
    EXPECT_EQ(formatIteration(info, false),
              "MESSAGE depth 5-9 ev M3 nodes 1234 nps 123400 time 10 pv 7,7 8,8");
    auto rt = formatRealtime(info);
    ASSERT_EQ(rt.size(), 3u);
    EXPECT_EQ(rt[0], "MESSAGE REALTIME BEST 7,7");
    std::string about = formatAbout();
    EXPECT_EQ(about.rfind("name=\"Moku\", version=\"", 0), 0u);
    EXPECT_NE(about.find("author=\"Moku developers\", country=\""), std::string::npos);
}

} // namespace
