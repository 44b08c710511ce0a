// CPU kernels of softmax over the [rows, len, inner] view: rows and columns alike.
#include "rows.h"

namespace kw {
namespace cpu {

void softmax_forward(const RowArgs& a) {
  dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    run_rows<T>(SoftmaxForwardOp<acc_t<T>>{}, a);
  });
}

void softmax_backward(const RowArgs& a) {
  dispatch_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    run_rows<T>(SoftmaxBackwardOp<acc_t<T>>{}, a);
  });
}

}  // namespace cpu
}  // namespace kw
