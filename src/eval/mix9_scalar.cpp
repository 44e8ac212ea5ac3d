// Portable mix9svq kernels: the reference for the SIMD ones (bit-exact policy included).
#include <cmath>
#include <cstdint>

#include "mix9_internal.h"

#define MIX9_NS mix9_scalar
#include "mix9_kernels_impl.h"

namespace moku::eval {

namespace mix9_scalar {
constexpr Mix9Kernels KERNELS = makeKernels<ScalarOps>(SimdLevel::SCALAR);
}

const Mix9Kernels* mix9KernelsScalar() { return &mix9_scalar::KERNELS; }

} // namespace moku::eval
