#include "moku/core/json.h"

#include <cmath>
#include <cstdlib>

namespace moku {

class JsonParser {
public:
    explicit JsonParser(std::string_view s) : s_(s) {}

    Json parseDocument() {
        Json v = parseValue(0);
        skipSpace();
        if (i_ != s_.size()) fail("trailing characters");
        return v;
    }

private:
    std::string_view s_;
    size_t i_ = 0;

    [[noreturn]] void fail(const char* what) const {
        throw JsonError("JSON: " + std::string(what) + " at offset " + std::to_string(i_));
    }
    void skipSpace() {
        while (i_ < s_.size() &&
               (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
            ++i_;
    }
    bool consume(std::string_view word) {
        if (s_.substr(i_, word.size()) != word) return false;
        i_ += word.size();
        return true;
    }

    Json parseValue(int depth) {
        if (depth > 64) fail("nesting too deep");
        skipSpace();
        if (i_ >= s_.size()) fail("unexpected end");
        Json v;
        char c = s_[i_];
        if (c == '{') {
            v.type_ = Json::Type::OBJECT;
            ++i_;
            skipSpace();
            if (i_ < s_.size() && s_[i_] == '}') return ++i_, v;
            for (;;) {
                skipSpace();
                if (i_ >= s_.size() || s_[i_] != '"') fail("expected a key");
                std::string key = parseString();
                skipSpace();
                if (i_ >= s_.size() || s_[i_] != ':') fail("expected ':'");
                ++i_;
                v.object_[key] = parseValue(depth + 1);
                skipSpace();
                if (i_ < s_.size() && s_[i_] == ',') {
                    ++i_;
                    continue;
                }
                if (i_ < s_.size() && s_[i_] == '}') {
                    ++i_;
                    return v;
                }
                fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.type_ = Json::Type::ARRAY;
            ++i_;
            skipSpace();
            if (i_ < s_.size() && s_[i_] == ']') return ++i_, v;
            for (;;) {
                v.array_.push_back(parseValue(depth + 1));
                skipSpace();
                if (i_ < s_.size() && s_[i_] == ',') {
                    ++i_;
                    continue;
                }
                if (i_ < s_.size() && s_[i_] == ']') {
                    ++i_;
                    return v;
                }
                fail("expected ',' or ']'");
            }
        }
        if (c == '"') {
            v.type_ = Json::Type::STRING;
            v.string_ = parseString();
            return v;
        }
        if (consume("true")) {
            v.type_ = Json::Type::BOOL;
            v.bool_ = true;
            return v;
        }
        if (consume("false")) {
            v.type_ = Json::Type::BOOL;
            return v;
        }
        if (consume("null")) return v;
        if (c == '-' || (c >= '0' && c <= '9')) {
            size_t start = i_;
            while (i_ < s_.size() &&
                   std::string_view("+-.eE0123456789").find(s_[i_]) != std::string_view::npos)
                ++i_;
            std::string num(s_.substr(start, i_ - start));
            char* end = nullptr;
            v.type_ = Json::Type::NUMBER;
            v.number_ = std::strtod(num.c_str(), &end);
            if (end != num.c_str() + num.size()) fail("bad number");
            return v;
        }
        fail("unexpected character");
    }

    std::string parseString() {
        ++i_; // opening quote
        std::string out;
        while (i_ < s_.size() && s_[i_] != '"') {
            char c = s_[i_++];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i_ >= s_.size()) fail("unterminated escape");
            char e = s_[i_++];
            switch (e) {
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case 'r':
                out += '\r';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'u': {
                if (i_ + 4 > s_.size()) fail("short \\u escape");
                unsigned cp = std::stoul(std::string(s_.substr(i_, 4)), nullptr, 16);
                i_ += 4;
                if (cp < 0x80)
                    out += char(cp);
                else if (cp < 0x800) {
                    out += char(0xC0 | (cp >> 6));
                    out += char(0x80 | (cp & 63));
                } else {
                    out += char(0xE0 | (cp >> 12));
                    out += char(0x80 | ((cp >> 6) & 63));
                    out += char(0x80 | (cp & 63));
                }
                break;
            }
            default:
                out += e;
            }
        }
        if (i_ >= s_.size()) fail("unterminated string");
        ++i_;
        return out;
    }
};

Json Json::parse(std::string_view text) { return JsonParser(text).parseDocument(); }

static void expect(bool ok, const char* what) {
    if (!ok) throw JsonError(std::string("JSON: value is not ") + what);
}

bool Json::asBool() const {
    expect(type_ == Type::BOOL, "a boolean");
    return bool_;
}
double Json::asNumber() const {
    expect(type_ == Type::NUMBER, "a number");
    return number_;
}
int64_t Json::asInt() const {
    expect(type_ == Type::NUMBER && std::floor(number_) == number_, "an integer");
    return int64_t(number_);
}
const std::string& Json::asString() const {
    expect(type_ == Type::STRING, "a string");
    return string_;
}
const std::vector<Json>& Json::asArray() const {
    expect(type_ == Type::ARRAY, "an array");
    return array_;
}
const std::map<std::string, Json>& Json::asObject() const {
    expect(type_ == Type::OBJECT, "an object");
    return object_;
}
bool Json::contains(const std::string& key) const {
    return type_ == Type::OBJECT && object_.count(key) > 0;
}
const Json& Json::operator[](const std::string& key) const {
    auto it = asObject().find(key);
    if (it == object_.end()) throw JsonError("JSON: missing key \"" + key + "\"");
    return it->second;
}
const Json& Json::operator[](size_t i) const {
    const auto& a = asArray();
    if (i >= a.size()) throw JsonError("JSON: index out of range");
    return a[i];
}
size_t Json::size() const {
    return type_ == Type::ARRAY ? array_.size() : type_ == Type::OBJECT ? object_.size() : 0;
}

} // namespace moku
