// rms_norm and its backward on the row engine (kw/cuda/rows.cuh): the mean square per row,
// then the scaling; the backward adds the column sums of grad_weight.
#include "kw/cuda/rows.cuh"

namespace kw {
namespace cuda {

int rms_norm_forward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream) {
  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    const RmsNormForwardOp<A> op{static_cast<A>(a.len), static_cast<A>(a.eps), a.col[0] != nullptr};
    return rows::query_or_run<T>(op, a, workspace, workspace_bytes, stream);
  });
}

int rms_norm_backward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream) {
  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    const NormBackwardOp<A, false> op{static_cast<A>(a.len), a.col[0] != nullptr};
    return rows::query_or_run<T>(op, a, workspace, workspace_bytes, stream);
  });
}

}  // namespace cuda
}  // namespace kw
