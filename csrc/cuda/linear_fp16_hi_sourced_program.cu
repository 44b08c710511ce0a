// The fp16_hi_sourced linear kernel with a programmed epilogue, data-parallel schedule; see
// kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR_WITH_STREAM_K(linear_fp16_hi_sourced_program, LinearFp16HiSourcedProgram)
}  // namespace cuda
}  // namespace kw
