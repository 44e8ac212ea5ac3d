// Reading and writing SearchParams as the [search] table of configs/config.toml.
#pragma once

#include <string>

#include <toml++/toml.h>

#include "moku/search/params.h"

namespace moku::search {

// Reads the [search] table of a configuration (or a bare table of keys) over `base`; throws
// std::runtime_error naming the key for an unknown key, a wrong type or a value out of range.
SearchParams loadSearchParams(const toml::table& doc, SearchParams base = {});
// The [search] table of a configuration file for these values; `ranges` adds each key's
// accepted range as a comment (`lmr_scale = 0.85  # 0..2`).
std::string searchParamsToToml(const SearchParams& p, bool ranges = false);

} // namespace moku::search
