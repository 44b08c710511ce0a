// The fp16_split3 linear kernel with a programmed epilogue, data-parallel schedule; see
// kw/cuda/linear_sm90.cuh.
#include "kw/cuda/linear_sm90.cuh"

namespace kw {
namespace cuda {
KW_DEFINE_LINEAR_WITH_STREAM_K(linear_fp16_split3_program, LinearFp16Split3Program)
}  // namespace cuda
}  // namespace kw
