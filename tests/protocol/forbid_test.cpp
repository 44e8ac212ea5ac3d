// The renju forbidden-point cases of tests/data through the protocol: YXBOARD + YXSHOWFORBID.
#include <gtest/gtest.h>

#include <set>

#include "moku/protocol/format.h"
#include "protocol_harness.h"
#include "test_util.h"

using namespace moku;
using namespace moku::test;

namespace {

// The FORBID reply as a set of points; empty optional on a malformed reply.
std::optional<std::set<std::pair<int, int>>> parseForbid(const std::string& s) {
    if (s.rfind("FORBID ", 0) != 0 || s.back() != '.') return std::nullopt;
    std::string digits = s.substr(7, s.size() - 8);
    if (digits.size() % 4) return std::nullopt;
    std::set<std::pair<int, int>> out;
    for (size_t i = 0; i < digits.size(); i += 4)
        out.insert({std::stoi(digits.substr(i, 2)), std::stoi(digits.substr(i + 2, 2))});
    return out;
}

void checkFile(const std::string& file) {
    int cases = 0;
    for (const Json& c : readJsonLines(file)) {
        const std::string id = c["id"].asString();
        const auto& rows = c["board"].asArray();
        // Black stones first (the first listed stone is black under renju), black to move.
        std::string black, white;
        for (size_t y = 0; y < rows.size(); y++)
            for (size_t x = 0; x < rows[y].asString().size(); x++) {
                char ch = rows[y].asString()[x];
                std::string e = std::to_string(x) + "," + std::to_string(y);
                if (ch == 'X') black += e + ",1\n";
                if (ch == 'O') white += e + ",2\n";
            }
        auto out = runScript("START " + std::to_string(c["size"].asInt()) +
                             "\nINFO rule 4\nYXBOARD\n" + black + white + "DONE\nYXSHOWFORBID\n");
        ASSERT_EQ(out.size(), 2u) << id;
        auto got = parseForbid(out[1]);
        ASSERT_TRUE(got) << id << ": " << out[1];
        if (c.contains("forbidden_all")) {
            std::set<std::pair<int, int>> want;
            for (const Json& f : c["forbidden_all"].asArray())
                want.insert({int(f[0].asInt()), int(f[1].asInt())});
            EXPECT_EQ(*got, want) << id << ": " << out[1];
        }
        if (c.contains("queries"))
            for (const Json& q : c["queries"].asArray()) {
                std::pair<int, int> p{int(q[0].asInt()), int(q[1].asInt())};
                bool forbidden = q[2].asString() != "legal";
                EXPECT_EQ(got->count(p) == 1, forbidden)
                    << id << " point " << p.first << "," << p.second << ": " << out[1];
            }
        cases++;
    }
    EXPECT_GT(cases, 10);
}

TEST(ProtocolForbid, OwnForbiddenMaps) { checkFile("renju_forbidden_moku.jsonl"); }
TEST(ProtocolForbid, Quintet) { checkFile("renju_forbidden_quintet.jsonl"); }

// White to move: black's forbidden points are still reported (Yixin-Board shows them always).
TEST(ProtocolForbid, WhateverSideToMove) {
    auto out = runScript("START 15\nINFO rule 4\nYXBOARD\n6,7,2\n0,0,1\n8,7,2\n14,0,1\n7,6,2\n"
                         "0,14,1\n7,8,2\nDONE\nYXSHOWFORBID\nINFO rule 0\nYXSHOWFORBID\n");
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[1], "FORBID 0707.");
    EXPECT_EQ(out[2], "FORBID .");
}

} // namespace
