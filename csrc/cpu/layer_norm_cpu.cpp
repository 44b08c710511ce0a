// CPU kernels of layer_norm: Welford statistics per row, then the affine map; the backward
// adds the column sums of grad_weight and grad_bias.
#include "rows.h"

namespace kw {
namespace cpu {

void layer_norm_forward(const RowArgs& a) {
  dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    const LayerNormForwardOp<A> op{static_cast<A>(a.len), static_cast<A>(a.eps), a.col[0] != nullptr,
                                   a.col[1] != nullptr};
    run_rows<T>(op, a);
  });
}

void layer_norm_backward(const RowArgs& a) {
  dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    run_rows<T>(NormBackwardOp<A, true>{static_cast<A>(a.len), a.col[0] != nullptr}, a);
    norm_param_grads<T>(a);
  });
}

}  // namespace cpu
}  // namespace kw
