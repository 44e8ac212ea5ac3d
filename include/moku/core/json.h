// A small JSON reader for the project's line-oriented inputs (test data, `evaluate` positions).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace moku {

class Json {
public:
    enum class Type { NUL, BOOL, NUMBER, STRING, ARRAY, OBJECT };

    // Throws JsonError with the offset of the first offending character.
    static Json parse(std::string_view text);

    Type type() const { return type_; }
    bool isNull() const { return type_ == Type::NUL; }
    bool isNumber() const { return type_ == Type::NUMBER; }
    bool isString() const { return type_ == Type::STRING; }
    bool isArray() const { return type_ == Type::ARRAY; }
    bool isObject() const { return type_ == Type::OBJECT; }

    bool asBool() const;
    double asNumber() const;
    int64_t asInt() const; // throws unless the number is integral
    const std::string& asString() const;
    const std::vector<Json>& asArray() const;
    const std::map<std::string, Json>& asObject() const;

    bool contains(const std::string& key) const;
    const Json& operator[](const std::string& key) const; // throws when absent
    const Json& operator[](size_t i) const;               // throws when out of range
    size_t size() const;

private:
    friend class JsonParser;
    Type type_ = Type::NUL;
    bool bool_ = false;
    double number_ = 0;
    std::string string_;
    std::vector<Json> array_;
    std::map<std::string, Json> object_;
};

struct JsonError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace moku
