// The fp16_scaled linear kernel with a programmed epilogue, data-parallel schedule; see
// kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR_WITH_STREAM_K(linear_fp16_scaled_program, LinearFp16ScaledProgram)
}  // namespace cuda
}  // namespace kw
