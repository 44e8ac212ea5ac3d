// Line reading and strict parsing of the protocol's numbers and coordinates.
#include "moku/protocol/parser.h"

#include <charconv>
#include <istream>
#include <limits>

namespace moku::protocol {

LineReader::LineReader(std::istream& in, size_t maxLength)
    : buf_(in.rdbuf()), maxLength_(maxLength) {}

bool LineReader::next(std::string& line) {
    line.clear();
    if (eof_ || !buf_) return false;
    bool any = false;
    for (;;) {
        int c = buf_->sbumpc();
        if (c == std::char_traits<char>::eof()) {
            eof_ = true;
            return any;
        }
        // The LF of a CR LF pair: the line already ended at the CR.
        if (skipLf_) {
            skipLf_ = false;
            if (c == '\n') continue;
        }
        if (c == '\r') {
            skipLf_ = true;
            return true;
        }
        if (c == '\n') return true;
        any = true;
        if (line.size() < maxLength_) line.push_back(char(c));
    }
}

std::string_view trim(std::string_view s) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

std::string toUpper(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    return out;
}

std::string toLower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

Command splitCommand(std::string_view line) {
    line = trim(line);
    size_t end = 0;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t') end++;
    return {toUpper(line.substr(0, end)), std::string(trim(line.substr(end)))};
}

std::string commandWord(std::string_view line) {
    return splitCommand(trim(line).substr(0, 16)).word;
}

std::optional<int64_t> parseInt(std::string_view s) {
    s = trim(s);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

namespace {

// Splits on commas into exactly n small integers (board coordinates and fields).
template <size_t N> std::optional<std::array<int, N>> parseInts(std::string_view s) {
    std::array<int, N> out{};
    for (size_t i = 0; i < N; i++) {
        size_t comma = i + 1 < N ? s.find(',') : s.size();
        if (comma == std::string_view::npos) return std::nullopt;
        auto v = parseInt(s.substr(0, comma));
        constexpr int64_t LIMIT = 1 << 20;
        if (!v || *v < -LIMIT || *v > LIMIT) return std::nullopt;
        out[i] = int(*v);
        s = comma < s.size() ? s.substr(comma + 1) : std::string_view{};
    }
    return out;
}

} // namespace

std::optional<std::pair<int, int>> parseCoord(std::string_view s) {
    auto v = parseInts<2>(s);
    if (!v) return std::nullopt;
    return std::pair{(*v)[0], (*v)[1]};
}

std::optional<std::array<int, 3>> parseBoardEntry(std::string_view s) { return parseInts<3>(s); }

std::vector<std::string> splitEntries(std::string_view line) {
    std::string joined;
    for (size_t i = 0; i < line.size(); i++) {
        char c = line[i];
        bool space = c == ' ' || c == '\t';
        if (space) {
            // Drop spaces next to a comma: "7, 7, 1" is one entry.
            size_t j = i;
            while (j < line.size() && (line[j] == ' ' || line[j] == '\t')) j++;
            bool nearComma =
                (!joined.empty() && joined.back() == ',') || (j < line.size() && line[j] == ',');
            if (!nearComma) joined.push_back(' ');
            i = j - 1;
            continue;
        }
        joined.push_back(c);
    }
    std::vector<std::string> out;
    size_t start = 0;
    while (start < joined.size()) {
        size_t end = joined.find(' ', start);
        if (end == std::string::npos) end = joined.size();
        if (end > start) out.emplace_back(joined.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

std::string printable(std::string_view s, size_t maxChars) {
    std::string out;
    for (char c : s) {
        if (out.size() >= maxChars) {
            out += "...";
            break;
        }
        out.push_back(c >= 0x20 && c < 0x7F ? c : '?');
    }
    return out;
}

} // namespace moku::protocol
