// Run-time choice of the mix9svq kernels.
#include <algorithm>
#include <cctype>
#include <string>

#include "mix9_internal.h"

namespace moku::eval {

namespace {
constexpr SimdLevel ALL_LEVELS[] = {SimdLevel::SCALAR, SimdLevel::SSE41, SimdLevel::AVX2,
                                    SimdLevel::AVX512, SimdLevel::NEON};

bool cpuHas(SimdLevel level) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    switch (level) {
    case SimdLevel::SCALAR:
        return true;
    case SimdLevel::SSE41:
        return __builtin_cpu_supports("sse4.1");
    case SimdLevel::AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
               __builtin_cpu_supports("bmi2");
    case SimdLevel::AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
    case SimdLevel::NEON:
        return false;
    }
    return false;
#elif defined(__aarch64__)
    return level == SimdLevel::SCALAR || level == SimdLevel::NEON;
#else
    return level == SimdLevel::SCALAR;
#endif
}
} // namespace

const Mix9Kernels* mix9Kernels(SimdLevel level) {
    switch (level) {
    case SimdLevel::SCALAR:
        return mix9KernelsScalar();
#if defined(__x86_64__) || defined(__i386__)
    case SimdLevel::SSE41:
        return mix9KernelsSse41();
    case SimdLevel::AVX2:
        return mix9KernelsAvx2();
    case SimdLevel::AVX512:
        return mix9KernelsAvx512();
#endif
#if defined(__aarch64__)
    case SimdLevel::NEON:
        return mix9KernelsNeon();
#endif
    default:
        return nullptr;
    }
}

bool simdSupported(SimdLevel level) { return mix9Kernels(level) != nullptr && cpuHas(level); }

SimdLevel bestSimdLevel() {
    static const SimdLevel best = [] {
        SimdLevel b = SimdLevel::SCALAR;
        for (SimdLevel l : ALL_LEVELS)
            if (simdSupported(l)) b = l;
        return b;
    }();
    return best;
}

std::vector<SimdLevel> supportedSimdLevels() {
    std::vector<SimdLevel> v;
    for (SimdLevel l : ALL_LEVELS)
        if (simdSupported(l)) v.push_back(l);
    return v;
}

std::string_view simdName(SimdLevel level) {
    switch (level) {
    case SimdLevel::SCALAR:
        return "scalar";
    case SimdLevel::SSE41:
        return "sse41";
    case SimdLevel::AVX2:
        return "avx2";
    case SimdLevel::AVX512:
        return "avx512";
    case SimdLevel::NEON:
        return "neon";
    }
    return "?";
}

std::optional<SimdLevel> simdFromName(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (lower == "sse4.1") lower = "sse41";
    if (lower == "avx512vnni" || lower == "avx-512") lower = "avx512";
    for (SimdLevel l : ALL_LEVELS)
        if (simdName(l) == lower) return l;
    return std::nullopt;
}

} // namespace moku::eval
