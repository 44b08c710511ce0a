// layer_norm and its backward on the row engine (kw/cuda/rows.cuh): shifted Welford
// statistics per row, then the affine map; the backward adds the column sums of grad_weight
// and grad_bias.
#include "kw/cuda/rows.cuh"

namespace kw {
namespace cuda {

int layer_norm_forward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream) {
  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    const LayerNormForwardOp<A> op{static_cast<A>(a.len), static_cast<A>(a.eps), a.col[0] != nullptr,
                                   a.col[1] != nullptr};
    return rows::query_or_run<T>(op, a, workspace, workspace_bytes, stream);
  });
}

int layer_norm_backward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream) {
  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    const NormBackwardOp<A, true> op{static_cast<A>(a.len), a.col[0] != nullptr};
    return rows::query_or_run<T>(op, a, workspace, workspace_bytes, stream);
  });
}

}  // namespace cuda
}  // namespace kw
