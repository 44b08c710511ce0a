// The fp16_hi_sourced linear kernel with a programmed epilogue, stream-K schedule; see
// kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR(linear_fp16_hi_sourced_program_stream_k, LinearFp16HiSourcedProgramStreamK)
}  // namespace cuda
}  // namespace kw
