// The fp16_split3 linear kernel; see kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR(linear_fp16_split3, LinearFp16Split3)
}  // namespace cuda
}  // namespace kw
