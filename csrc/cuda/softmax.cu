// softmax along any dim, and its backward, on the row engine (kw/cuda/rows.cuh): an online
// (max, sum of exp) pass, then a pass that writes exp(x - max) / sum.
#include "kw/cuda/rows.cuh"

namespace kw {
namespace cuda {

int softmax_forward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream) {
  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    // The exponentials of the sum only feed a sum whose rounding dominates, so the fast exp2
    // unit serves; the written ones are as accurate as the storage type needs.
    const SoftmaxForwardOp<acc_t<T>, FastMath, math_for<T>> op{};
    return rows::query_or_run<T>(op, a, workspace, workspace_bytes, stream);
  });
}

int softmax_backward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream) {
  return dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    return rows::query_or_run<T>(SoftmaxBackwardOp<acc_t<T>>{}, a, workspace, workspace_bytes,
                                 stream);
  });
}

}  // namespace cuda
}  // namespace kw
