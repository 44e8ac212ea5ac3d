#include "moku/eval/classical_config.h"

#include <sstream>
#include <stdexcept>

namespace moku::eval {

namespace {

// Element i of a, an integer in -30000..30000 (classical.`key`[i] in errors).
int readElement(const toml::array& a, size_t i, const char* key) {
    auto v = a[i].value<int64_t>();
    if (!v || *v < -30000 || *v > 30000)
        throw std::runtime_error(std::string("classical.") + key + "[" + std::to_string(i) +
                                 "]: expected an integer in -30000..30000");
    return int(*v);
}

template <size_t N> void readArray(const toml::table& t, const char* key, std::array<int, N>& out) {
    const toml::node* n = t.get(key);
    if (!n) return;
    const toml::array* a = n->as_array();
    if (!a || a->size() != N)
        throw std::runtime_error(std::string("classical.") + key + ": expected an array of " +
                                 std::to_string(N) + " integers");
    for (size_t i = 0; i < N; i++) out[i] = readElement(*a, i, key);
}

// Reads t[field] (shown as classical.`key` in errors): an array of `size` integers, of
// 2 * `size` (one table per colour, black's first), or [].
void readVector(const toml::table& t, const char* key, const char* field, size_t size,
                std::vector<int>& out) {
    const toml::node* n = t.get(field);
    if (!n) return;
    const toml::array* a = n->as_array();
    if (!a || (a->size() != size && a->size() != 2 * size && a->size() != 0))
        throw std::runtime_error(std::string("classical.") + key + ": expected an array of " +
                                 std::to_string(size) + " integers, " + std::to_string(2 * size) +
                                 " (black's table, then white's) or [] for none");
    std::vector<int> v(a->size());
    for (size_t i = 0; i < a->size(); i++) v[i] = readElement(*a, i, key);
    out = std::move(v);
}

void readInt(const toml::table& t, const char* key, int& out, int lo, int hi) {
    const toml::node* n = t.get(key);
    if (!n) return;
    auto v = n->value<int64_t>();
    if (!v || *v < lo || *v > hi)
        throw std::runtime_error(std::string("classical.") + key + ": expected an integer in " +
                                 std::to_string(lo) + ".." + std::to_string(hi));
    out = int(*v);
}

template <size_t N>
void writeArray(std::ostream& out, const char* key, const std::array<int, N>& a) {
    out << key << " = [";
    for (size_t i = 0; i < N; i++) out << (i ? ", " : "") << a[i];
    out << "]\n";
}

} // namespace

ClassicalConfig loadClassicalConfig(const toml::table& doc, ClassicalConfig c) {
    const toml::table* t = &doc;
    if (const toml::table* sub = doc["classical"].as_table()) t = sub;
    readArray(*t, "pattern_to_move", c.pattern[0]);
    readArray(*t, "pattern_waiting", c.pattern[1]);
    readArray(*t, "pattern4_to_move", c.pattern4[0]);
    readArray(*t, "pattern4_waiting", c.pattern4[1]);
    readArray(*t, "threat_own", c.threatOwn);
    readArray(*t, "threat_opponent", c.threatOpp);
    readInt(*t, "threat_block_percent", c.threatBlockPercent, 0, 100);
    readArray(*t, "move_own", c.moveOwn);
    readArray(*t, "move_opponent", c.moveOpp);
    readArray(*t, "move_pattern_own", c.movePattern[0]);
    readArray(*t, "move_pattern_opponent", c.movePattern[1]);
    readInt(*t, "move_cell_own_percent", c.moveCellPercent[0], 0, 1000);
    readInt(*t, "move_cell_opponent_percent", c.moveCellPercent[1], 0, 1000);
    readArray(*t, "move_distance_opponent", c.moveDistance[0]);
    readArray(*t, "move_distance_own", c.moveDistance[1]);
    readInt(*t, "scale_percent", c.scalePercent, 1, 1000);
    readInt(*t, "two_ply_percent", c.twoPlyPercent, 0, 100);
    for (int r = 0; r < RULE_NB; r++) {
        std::string name(ruleName(Rule(r)));
        const toml::table* rt = (*t)[name].as_table();
        if (!rt) continue;
        std::string prefix = name + ".";
        readVector(*rt, (prefix + "pcode_values").c_str(), "pcode_values", game::PCODE_NB,
                   c.pcodeValue[r]);
        readVector(*rt, (prefix + "threat_mask_values").c_str(), "threat_mask_values",
                   THREAT_MASK_NB, c.threatMaskValue[r]);
        if (c.pcodeValue[r].empty() != c.threatMaskValue[r].empty())
            throw std::runtime_error("classical." + name +
                                     ": pcode_values and threat_mask_values go together (both "
                                     "tables, or both [] for the pattern terms)");
    }
    return c;
}

ClassicalConfig loadClassicalConfigFile(const std::string& path) {
    try {
        return loadClassicalConfig(toml::parse_file(path));
    } catch (const toml::parse_error& e) {
        throw std::runtime_error(path + ": " + std::string(e.description()));
    }
}

std::string classicalConfigToToml(const ClassicalConfig& c) {
    std::ostringstream out;
    out << "[classical]\n";
    writeArray(out, "pattern_to_move", c.pattern[0]);
    writeArray(out, "pattern_waiting", c.pattern[1]);
    writeArray(out, "pattern4_to_move", c.pattern4[0]);
    writeArray(out, "pattern4_waiting", c.pattern4[1]);
    writeArray(out, "threat_own", c.threatOwn);
    writeArray(out, "threat_opponent", c.threatOpp);
    out << "threat_block_percent = " << c.threatBlockPercent << "\n";
    writeArray(out, "move_own", c.moveOwn);
    writeArray(out, "move_opponent", c.moveOpp);
    writeArray(out, "move_pattern_own", c.movePattern[0]);
    writeArray(out, "move_pattern_opponent", c.movePattern[1]);
    out << "move_cell_own_percent = " << c.moveCellPercent[0] << "\n";
    out << "move_cell_opponent_percent = " << c.moveCellPercent[1] << "\n";
    writeArray(out, "move_distance_opponent", c.moveDistance[0]);
    writeArray(out, "move_distance_own", c.moveDistance[1]);
    out << "scale_percent = " << c.scalePercent << "\n";
    out << "two_ply_percent = " << c.twoPlyPercent << "\n";
    auto writeVector = [&out](const char* key, const std::vector<int>& v) {
        out << key << " = [";
        for (size_t i = 0; i < v.size(); i++) out << (i ? ", " : "") << v[i];
        out << "]\n";
    };
    for (int r = 0; r < RULE_NB; r++) {
        out << "\n[classical." << ruleName(Rule(r)) << "]\n";
        writeVector("pcode_values", c.pcodeValue[r]);
        writeVector("threat_mask_values", c.threatMaskValue[r]);
    }
    return out.str();
}

} // namespace moku::eval
