// The bf16 linear kernel; see kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR(linear_bf16, LinearBf16)
}  // namespace cuda
}  // namespace kw
