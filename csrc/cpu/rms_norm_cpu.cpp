// CPU kernels of rms_norm: the mean square per row, then the scaling; the backward adds the
// column sums of grad_weight.
#include "rows.h"

namespace kw {
namespace cpu {

void rms_norm_forward(const RowArgs& a) {
  dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    run_rows<T>(RmsNormForwardOp<A>{static_cast<A>(a.len), static_cast<A>(a.eps), a.col[0] != nullptr}, a);
  });
}

void rms_norm_backward(const RowArgs& a) {
  dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    run_rows<T>(NormBackwardOp<A, false>{static_cast<A>(a.len), a.col[0] != nullptr}, a);
    norm_param_grads<T>(a);
  });
}

}  // namespace cpu
}  // namespace kw
