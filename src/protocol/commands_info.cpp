// INFO: the manager's settings. INFO never gets a reply line (managers read the next line as the
// answer to their next command), so a bad value is reported on a MESSAGE line and ignored.
#include <algorithm>
#include <limits>

#include "session.h"

namespace moku::protocol {

void Session::cmdInfo(const std::string& args) {
    Command kv = splitCommand(args);
    std::string key = toLower(kv.word);
    const std::string& text = kv.args;
    engine::EngineOptions& o = engine_.options();

    // Keys whose value is free text or ignored.
    if (key == "folder") {
        o.folder = text;
        return;
    }
    if (key == "evaluate" || key.empty()) return;
    if (key == "simd") {
        // The network's instruction set: a name, or auto for the best this CPU runs.
        std::string name = toLower(trim(text));
        if (name == "auto" || name.empty()) {
            o.simd.reset();
        } else if (auto level = eval::simdFromName(name)) {
            o.simd = *level;
        } else {
            message("ERROR INFO simd: unknown instruction set '" + printable(text) + "'");
            return;
        }
        engine_.updateNetwork();
        flushNotices();
        return;
    }

    auto value = parseInt(text);
    auto bad = [&] {
        message("ERROR INFO " + printable(key) + ": bad value '" + printable(text) + "'");
    };
    static const char* const NUMERIC[] = {
        "timeout_turn", "timeout_match",  "time_left", "max_memory", "game_type",
        "rule",         "thread_num",     "max_depth", "max_node",   "hash_size",
        "show_detail",  "caution_factor", "pondering", "strength",   "time_increment"};
    bool known = std::find(std::begin(NUMERIC), std::end(NUMERIC), key) != std::end(NUMERIC);
    if (!known) return; // unknown keys are ignored, as the protocol asks
    if (!value) {
        bad();
        return;
    }
    int64_t v = *value;
    auto clampInt = [](int64_t x, int64_t lo, int64_t hi) { return int(std::clamp(x, lo, hi)); };

    if (key == "timeout_turn")
        o.time.turnTimeMs = std::max<int64_t>(v, 0);
    else if (key == "timeout_match")
        o.time.matchTimeMs = std::max<int64_t>(v, 0);
    else if (key == "time_left")
        o.time.timeLeftMs = v; // may be negative: passed on as is
    else if (key == "max_memory")
        o.maxMemoryBytes = std::max<int64_t>(v, 0);
    else if (key == "game_type")
        o.gameType = clampInt(v, 0, 3);
    else if (key == "rule") {
        auto rule = v >= 0 && v <= 255 ? ruleFromGomocup(int(v)) : std::nullopt;
        if (rule)
            engine_.setRule(*rule);
        else
            bad();
        flushNotices();
    } else if (key == "thread_num")
        o.threads = clampInt(v, 1, engine::MAX_THREADS);
    else if (key == "max_depth")
        o.maxDepth = clampInt(v, 0, MAX_PLY);
    else if (key == "max_node")
        o.maxNodes = uint64_t(std::max<int64_t>(v, 0));
    else if (key == "hash_size")
        o.hashKiB = std::clamp<int64_t>(v, 0, engine::MAX_HASH_KIB);
    else if (key == "show_detail")
        o.showDetail = clampInt(v, 0, std::numeric_limits<int>::max());
    else if (key == "caution_factor")
        o.cautionFactor = clampInt(v, 0, 100);
    else if (key == "pondering")
        o.pondering = v != 0;
    else if (key == "strength")
        o.strength = clampInt(v, 0, 100);
    else if (key == "time_increment")
        o.time.incrementMs = std::max<int64_t>(v, 0);
    // Threads and table are sized now rather than inside the next turn.
    if (key == "max_memory" || key == "hash_size" || key == "thread_num") engine_.applyHashSize();
}

} // namespace moku::protocol
