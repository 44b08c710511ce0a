// The fp16_split3 linear kernel, data-parallel schedule; see kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR_WITH_STREAM_K(linear_fp16_split3, LinearFp16Split3)
}  // namespace cuda
}  // namespace kw
