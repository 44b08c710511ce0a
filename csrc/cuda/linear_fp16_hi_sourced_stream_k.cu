// The fp16 hi*hi kernel with the cross products as its source, stream-K schedule; see
// kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR(linear_fp16_hi_sourced_stream_k, LinearFp16HiSourcedStreamK)
}  // namespace cuda
}  // namespace kw
