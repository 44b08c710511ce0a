// The fp16 hi*hi kernel with the cross products as its source, data-parallel schedule; see
// kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR_WITH_STREAM_K(linear_fp16_hi_sourced, LinearFp16HiSourced)
}  // namespace cuda
}  // namespace kw
