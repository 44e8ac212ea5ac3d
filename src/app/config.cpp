// Reading config.toml: the [engine] section into EngineOptions, strictly (a typo in a key or
// a value of the wrong type is an error, not a silent default).
#include "moku/app/config.h"

#include "moku/eval/classical_config.h"
#include "moku/search/params_config.h"

#include <fstream>
#include <limits>
#include <sstream>

#ifdef _WIN32
#include <windows.h>
#endif

namespace moku::app {

namespace {

std::string where(const std::string& source, const toml::node& node) {
    const toml::source_region& r = node.source();
    return source + ":" + std::to_string(r.begin.line);
}

int64_t integer(const std::string& source, const toml::node& node, const std::string& key,
                int64_t lo, int64_t hi) {
    auto v = node.value<int64_t>();
    if (!node.is_integer() || !v)
        throw ConfigError(where(source, node) + ": engine." + key + " must be an integer");
    if (*v < lo || *v > hi)
        throw ConfigError(where(source, node) + ": engine." + key + " must lie in " +
                          std::to_string(lo) + ".." + std::to_string(hi));
    return *v;
}

bool boolean(const std::string& source, const toml::node& node, const std::string& key) {
    if (!node.is_boolean())
        throw ConfigError(where(source, node) + ": engine." + key + " must be true or false");
    return *node.value<bool>();
}

void readEngine(const std::string& source, const toml::table& t, engine::EngineOptions& o) {
    constexpr int64_t BIG = std::numeric_limits<int32_t>::max();
    for (const auto& [k, node] : t) {
        std::string key(k.str());
        if (key == "threads")
            o.threads = int(integer(source, node, key, 1, engine::MAX_THREADS));
        else if (key == "hash_kib")
            o.hashKiB = integer(source, node, key, 0, engine::MAX_HASH_KIB);
        else if (key == "turn_time_ms")
            o.time.turnTimeMs = integer(source, node, key, 0, BIG);
        else if (key == "match_time_ms")
            o.time.matchTimeMs = integer(source, node, key, 0, BIG);
        else if (key == "max_depth")
            o.maxDepth = int(integer(source, node, key, 0, MAX_PLY));
        else if (key == "max_nodes")
            o.maxNodes =
                uint64_t(integer(source, node, key, 0, std::numeric_limits<int64_t>::max()));
        else if (key == "pondering")
            o.pondering = boolean(source, node, key);
        else if (key == "show_detail")
            o.showDetail = int(integer(source, node, key, 0, BIG));
        else
            throw ConfigError(where(source, node) + ": unknown key engine." + key);
    }
}

std::string stringValue(const std::string& source, const toml::node& node, const std::string& key) {
    if (!node.is_string())
        throw ConfigError(where(source, node) + ": nnue." + key + " must be a string");
    return *node.value<std::string>();
}

// [nnue]: a network file per rule, relative names taken from the configuration's folder.
void readNnue(const std::string& source, const toml::table& t, const std::filesystem::path& baseDir,
              engine::EngineOptions& o) {
    auto file = [&](const toml::node& node, const std::string& key) {
        std::string name = stringValue(source, node, key);
        if (name.empty() || baseDir.empty()) return name;
        std::filesystem::path p(name);
        return p.is_absolute() ? name : (baseDir / p).string();
    };
    for (const auto& [k, node] : t) {
        std::string key(k.str());
        if (key == "freestyle")
            o.networks.freestyle = file(node, key);
        else if (key == "standard")
            o.networks.standard = file(node, key);
        else if (key == "renju_black")
            o.networks.renjuBlack = file(node, key);
        else if (key == "renju_white")
            o.networks.renjuWhite = file(node, key);
        else if (key == "simd") {
            std::string name = stringValue(source, node, key);
            if (name == "auto") {
                o.simd.reset();
            } else if (auto level = eval::simdFromName(name)) {
                o.simd = *level;
            } else {
                throw ConfigError(where(source, node) + ": nnue.simd must be auto, scalar, " +
                                  "sse41, avx2, avx512 or neon");
            }
        } else {
            throw ConfigError(where(source, node) + ": unknown key nnue." + key);
        }
    }
}

} // namespace

Config parseConfig(std::string_view text, const std::string& source,
                   const std::filesystem::path& baseDir) {
    Config c;
    try {
        c.table = toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        std::ostringstream msg;
        msg << source << ":" << e.source().begin.line << ":" << e.source().begin.column << ": "
            << e.description();
        throw ConfigError(msg.str());
    }
    if (const toml::node* engine = c.table.get("engine")) {
        if (!engine->is_table())
            throw ConfigError(where(source, *engine) + ": engine must be a table");
        readEngine(source, *engine->as_table(), c.engine);
    }
    if (const toml::node* nnue = c.table.get("nnue")) {
        if (!nnue->is_table()) throw ConfigError(where(source, *nnue) + ": nnue must be a table");
        readNnue(source, *nnue->as_table(), baseDir, c.engine);
    }
    if (c.table.contains("search")) {
        try {
            c.search = search::loadSearchParams(c.table);
        } catch (const std::runtime_error& e) {
            throw ConfigError(source + ": " + e.what());
        }
    }
    if (c.table.contains("classical")) {
        try {
            c.classical = eval::loadClassicalConfig(c.table);
        } catch (const std::runtime_error& e) {
            throw ConfigError(source + ": " + e.what());
        }
    }
    return c;
}

Config loadConfig(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ConfigError(path.string() + ": cannot open the configuration file");
    std::ostringstream text;
    text << in.rdbuf();
    return parseConfig(text.str(), path.string(), path.parent_path());
}

std::filesystem::path executablePath(const char* argv0) {
    std::error_code ec;
#ifdef _WIN32
    wchar_t buf[32768];
    DWORD n = GetModuleFileNameW(nullptr, buf, DWORD(std::size(buf)));
    if (n > 0 && n < std::size(buf)) return std::filesystem::path(std::wstring(buf, n));
#else
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) return self;
#endif
    if (argv0 && *argv0) {
        auto p = std::filesystem::absolute(argv0, ec);
        if (!ec) return p;
    }
    return {};
}

std::filesystem::path defaultConfigPath(const char* argv0) {
    return executablePath(argv0).parent_path() / "config.toml";
}

} // namespace moku::app
