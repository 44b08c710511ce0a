// The tf32 linear kernel; see kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR(linear_tf32, LinearTf32)
}  // namespace cuda
}  // namespace kw
