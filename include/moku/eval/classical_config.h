// Reading ClassicalConfig from TOML (configs/config.toml, table [classical]).
#pragma once

#include <string>

#include <toml++/toml.h>

#include "moku/eval/classical.h"

namespace moku::eval {

// Overrides the fields present in `t`: either the [classical] table itself or a document that
// holds one. Throws std::runtime_error naming the key on a malformed or out-of-range value.
ClassicalConfig loadClassicalConfig(const toml::table& t,
                                    ClassicalConfig base = ClassicalConfig::defaults());
// Parses a TOML file and applies its [classical] table to the defaults.
ClassicalConfig loadClassicalConfigFile(const std::string& path);
// The config as a [classical] TOML table (the format configs/config.toml documents).
std::string classicalConfigToToml(const ClassicalConfig& cfg);

} // namespace moku::eval
