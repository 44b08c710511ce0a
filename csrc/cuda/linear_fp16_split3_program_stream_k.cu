// The fp16_split3 linear kernel with a programmed epilogue, stream-K schedule; see
// kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR(linear_fp16_split3_program_stream_k, LinearFp16Split3ProgramStreamK)
}  // namespace cuda
}  // namespace kw
