// The fp16_scaled linear kernel, stream-K schedule; see kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR(linear_fp16_scaled_stream_k, LinearFp16ScaledStreamK)
}  // namespace cuda
}  // namespace kw
