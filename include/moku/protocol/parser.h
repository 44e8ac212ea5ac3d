// Text helpers of the protocol: reading lines with any line ending, splitting commands and
// parsing numbers and coordinates strictly (a malformed number is an error, never a zero).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace moku::protocol {

// Reads lines ending in CR LF, LF or CR alone without waiting for a character after a CR (a
// manager that ends lines with CR alone waits for the reply). Lines are cut to maxLength.
class LineReader {
public:
    LineReader(std::istream& in, size_t maxLength);
    // The next line without its ending; false at the end of the input.
    bool next(std::string& line);

private:
    std::streambuf* buf_;
    size_t maxLength_;
    bool skipLf_ = false;
    bool eof_ = false;
};

struct Command {
    std::string word; // upper-case
    std::string args; // the rest of the line, trimmed
};

std::string_view trim(std::string_view s);
std::string toUpper(std::string_view s);
std::string toLower(std::string_view s);
Command splitCommand(std::string_view line);
// The command word of a line, upper-case, read from its first 16 characters (every command word
// is shorter; a long argument is not copied). Empty for a blank line.
std::string commandWord(std::string_view line);

// A whole decimal integer with an optional sign; nullopt on anything else or on overflow.
std::optional<int64_t> parseInt(std::string_view s);
// "x,y" (spaces around the comma allowed).
std::optional<std::pair<int, int>> parseCoord(std::string_view s);
// "x,y,f".
std::optional<std::array<int, 3>> parseBoardEntry(std::string_view s);
// The entries of a BOARD-like line: spaces around commas removed, then split on whitespace
// (a GUI may put several entries, or "DONE", on one line).
std::vector<std::string> splitEntries(std::string_view line);
// A short, printable rendering of untrusted text for error replies.
std::string printable(std::string_view s, size_t maxChars = 40);

} // namespace moku::protocol
