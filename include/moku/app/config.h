// The configuration file (TOML): the top level and the [engine] and [nnue] sections, read here
// into EngineOptions; [classical] and [search] are read by their modules' readers into Config.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "moku/engine/engine.h"
#include "moku/eval/classical.h"

namespace moku::app {

struct ConfigError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Config {
    engine::EngineOptions engine; // [engine]; defaults equal configs/config.toml
    eval::ClassicalConfig classical = eval::ClassicalConfig::defaults(); // [classical]
    search::SearchParams search;                                         // [search]
    toml::table table; // the whole file, for the other sections
};

// Parses TOML text; throws ConfigError naming `source`, the line and the problem (syntax errors,
// wrong types, out-of-range values, unknown keys in [engine] and [nnue]). Relative network file
// names in [nnue] are taken from `baseDir` (the file's folder; empty: left as written).
Config parseConfig(std::string_view text, const std::string& source,
                   const std::filesystem::path& baseDir = {});
Config loadConfig(const std::filesystem::path& path);

// The running executable's own path (not the working directory's): /proc/self/exe on Linux,
// GetModuleFileName on Windows, argv[0] as the last resort.
std::filesystem::path executablePath(const char* argv0);
// config.toml next to the executable.
std::filesystem::path defaultConfigPath(const char* argv0);

} // namespace moku::app
