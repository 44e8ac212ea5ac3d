// The INFO table against its documentation: README.md's "INFO keys:" paragraph (section
// "Commands") names exactly the keys of protocol::infoKeys(), and every key has a meaning.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include "moku/protocol/protocol.h"

using namespace moku;

namespace {

// The paragraph of README.md that starts with "INFO keys:" inside "### Commands", up to the next
// blank line; empty when there is none.
std::string readmeInfoParagraph() {
    std::ifstream in(std::string(MOKU_SOURCE_DIR) + "/README.md");
    std::string line, paragraph;
    bool inCommands = false, inParagraph = false;
    while (std::getline(in, line)) {
        if (line.rfind("#", 0) == 0) inCommands = line == "### Commands";
        if (inCommands && line.rfind("INFO keys:", 0) == 0) inParagraph = true;
        if (!inParagraph) continue;
        if (line.find_first_not_of(" \t\r") == std::string::npos) break;
        paragraph += line + "\n";
    }
    return paragraph;
}

// Every `quoted` span of the text.
std::set<std::string> backQuoted(const std::string& text) {
    std::set<std::string> out;
    for (size_t open = text.find('`'); open != std::string::npos;) {
        size_t close = text.find('`', open + 1);
        if (close == std::string::npos) break;
        out.insert(text.substr(open + 1, close - open - 1));
        open = text.find('`', close + 1);
    }
    return out;
}

} // namespace

TEST(ProtocolInfo, ReadmeNamesExactlyTheTableKeys) {
    std::string paragraph = readmeInfoParagraph();
    ASSERT_FALSE(paragraph.empty()) << "README.md has no \"INFO keys:\" paragraph under Commands";
    std::set<std::string> table;
    for (const protocol::InfoKeyDoc& k : protocol::infoKeys()) {
        EXPECT_TRUE(table.insert(std::string(k.key)).second) << "twice in the table: " << k.key;
        EXPECT_FALSE(k.meaning.empty()) << k.key;
    }
    EXPECT_EQ(backQuoted(paragraph), table) << paragraph;
}
