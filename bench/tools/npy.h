// Writes a two-dimensional NumPy .npy array (format 1.0, little-endian, C order) for the
// training scripts: float32, int32 or int16 rows.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

namespace moku::tools {

template <class T>
bool writeNpy(const std::string& path, const std::vector<T>& data, size_t rows, size_t cols) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, int32_t> ||
                  std::is_same_v<T, int16_t>);
    const char* descr = std::is_same_v<T, float>     ? "<f4"
                        : std::is_same_v<T, int32_t> ? "<i4"
                                                     : "<i2";
    std::string header = std::string("{'descr': '") + descr +
                         "', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                         std::to_string(cols) + "), }";
    size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    if (!out) return false;
    out.write("\x93NUMPY\x01\x00", 8);
    uint16_t len = uint16_t(header.size());
    out.put(char(len & 0xFF)).put(char(len >> 8));
    out << header;
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size() * sizeof(T)));
    return bool(out);
}

} // namespace moku::tools
