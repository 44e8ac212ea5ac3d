// INFO: the manager's settings, one table of keys (what each sets and means; README.md's "INFO
// keys:" paragraph names the same keys, a test checks it). INFO never gets a reply line
// (managers read the next line as the answer to their next command), so a bad value is reported
// on a MESSAGE line and ignored, and so is a key the table does not know.
#include <algorithm>
#include <limits>

#include "session.h"

namespace moku::protocol {

// The value of an INFO line: its text, and for a numeric key the integer it holds.
struct Session::InfoValue {
    const std::string& key; // lower case
    const std::string& text;
    int64_t number = 0; // numeric keys only

    int64_t atLeast(int64_t lo) const { return std::max(number, lo); }
    int clamped(int64_t lo, int64_t hi) const { return int(std::clamp(number, lo, hi)); }
};

struct Session::InfoKey {
    std::string_view key;
    bool numeric; // the value must be an integer, else it is reported and ignored
    void (*set)(Session&, const InfoValue&);
    std::string_view meaning;
};

const Session::InfoKey Session::INFO_KEYS[] = {
    {"timeout_turn", true,
     [](Session& s, const InfoValue& v) {
         s.engineOptions().time.turnTimeMs = v.atLeast(0);
         s.prepareHash(); // the time control bounds the table (timeTableCap)
     },
     "milliseconds a move may take; 0 = move at once"},
    {"timeout_match", true,
     [](Session& s, const InfoValue& v) {
         s.engineOptions().time.matchTimeMs = v.atLeast(0);
         s.prepareHash();
     },
     "milliseconds for the whole game; 0 = no limit"},
    {"time_left", true,
     [](Session& s, const InfoValue& v) {
         s.engineOptions().time.timeLeftMs = v.number; // may be negative: passed on as is
     },
     "milliseconds left of the game (negative and 2147483647 understood)"},
    {"time_increment", true,
     [](Session& s, const InfoValue& v) {
         s.engineOptions().time.incrementMs = v.atLeast(0);
         s.prepareHash();
     },
     "milliseconds the match clock gains per move, spent by the time manager"},
    {"max_memory", true,
     [](Session& s, const InfoValue& v) {
         s.engineOptions().maxMemoryBytes = v.atLeast(0);
         // Sized, and its pages in place until a turn comes, now rather than inside a turn.
         s.prepareHash(true);
     },
     "bytes the whole process may use; 0 = Gomocup's 350 MB"},
    {"game_type", true,
     [](Session& s, const InfoValue& v) { s.engineOptions().gameType = v.clamped(0, 3); },
     "0 human opponent, 1 brain, 2 tournament, 3 network tournament; stored"},
    {"rule", true,
     [](Session& s, const InfoValue& v) {
         auto rule =
             v.number >= 0 && v.number <= 255 ? ruleFromGomocup(int(v.number)) : std::nullopt;
         if (rule)
             s.engine_.setRule(*rule);
         else
             s.badInfoValue(v);
         s.flushNotices();
     },
     "0 freestyle, 1 standard, 2 and 4 renju, 8 caro, 9 caro with exactly five"},
    {"folder", false, [](Session& s, const InfoValue& v) { s.engineOptions().folder = v.text; },
     "where persistent files may go; stored"},
    {"thread_num", true,
     [](Session& s, const InfoValue& v) {
         s.engineOptions().threads = v.clamped(1, engine::MAX_THREADS);
         s.prepareHash();
     },
     "search threads (Lazy SMP)"},
    {"max_depth", true,
     [](Session& s, const InfoValue& v) { s.engineOptions().maxDepth = v.clamped(0, MAX_PLY); },
     "deepest iteration; 0 = no limit"},
    {"max_node", true,
     [](Session& s, const InfoValue& v) { s.engineOptions().maxNodes = uint64_t(v.atLeast(0)); },
     "nodes a search may visit; 0 = no limit"},
    {"hash_size", true,
     [](Session& s, const InfoValue& v) {
         s.engineOptions().hashKiB = v.clamped(0, engine::MAX_HASH_KIB);
         s.prepareHash(true);
     },
     "KiB, an upper bound on the transposition table; 0 = sized from max_memory"},
    {"show_detail", true,
     [](Session& s, const InfoValue& v) {
         s.engineOptions().showDetail = v.clamped(0, std::numeric_limits<int>::max());
     },
     "nonzero adds the MESSAGE REALTIME lines Yixin-Board draws"},
    {"pondering", true,
     [](Session& s, const InfoValue& v) {
         s.engineOptions().pondering = v.number != 0;
         s.prepareHash();
     },
     "nonzero thinks on the opponent's time"},
    {"simd", false,
     [](Session& s, const InfoValue& v) {
         engine::EngineOptions& o = s.engineOptions();
         std::string name = toLower(trim(v.text));
         if (name == "auto" || name.empty()) {
             o.simd.reset();
         } else if (auto level = eval::simdFromName(name)) {
             o.simd = *level;
         } else {
             s.message("ERROR INFO simd: unknown instruction set '" + printable(v.text) + "'");
             return;
         }
         s.engine_.updateNetwork();
         s.flushNotices();
     },
     "the network's instruction set (scalar, sse41, avx2, avx512, neon) or auto for the best"},
    {"caution_factor", true,
     [](Session& s, const InfoValue& v) { s.engineOptions().cautionFactor = v.clamped(0, 100); },
     "Yixin-Board's caution (0..4); accepted and ignored"},
    {"strength", true,
     [](Session& s, const InfoValue& v) { s.engineOptions().strength = v.clamped(0, 100); },
     "the playing level, 0..100 (100 = full strength)"},
    {"evaluate", false, [](Session&, const InfoValue&) {},
     "the point under the manager's mouse (Piskvork); ignored"},
};

std::vector<InfoKeyDoc> infoKeys() {
    std::vector<InfoKeyDoc> out;
    for (const auto& k : Session::INFO_KEYS) out.push_back({k.key, k.meaning});
    return out;
}

void Session::badInfoValue(const InfoValue& v) {
    message("ERROR INFO " + printable(v.key) + ": bad value '" + printable(v.text) + "'");
}

void Session::cmdInfo(const std::string& args) {
    Command kv = splitCommand(args);
    std::string key = toLower(kv.word);
    auto row = std::find_if(std::begin(INFO_KEYS), std::end(INFO_KEYS),
                            [&](const InfoKey& k) { return k.key == key; });
    if (row == std::end(INFO_KEYS)) return; // unknown keys are ignored, as the protocol asks
    InfoValue value{key, kv.args};
    if (row->numeric) {
        auto number = parseInt(kv.args);
        if (!number) {
            badInfoValue(value);
            return;
        }
        value.number = *number;
    }
    row->set(*this, value);
}

} // namespace moku::protocol
