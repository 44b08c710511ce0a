// Entry points of the kernels, called by the glue in csrc/ops. Streams travel as void* and
// errors as int (a cudaError_t) so this header needs neither torch nor the CUDA headers.
#pragma once

#include "kw/elementwise_args.h"

namespace kw {

using Unary = ElementwiseArgs<1, 1>;
using Binary = ElementwiseArgs<2, 1>;

#define KW_DECLARE_ELEMENTWISE_LAUNCHERS(ret, ns, ...)                        \
  namespace ns {                                                               \
  ret elu_forward(const Unary& a, double alpha __VA_ARGS__);                    \
  ret elu_backward(const Binary& a, double alpha __VA_ARGS__);                  \
  ret sigmoid_forward(const Unary& a __VA_ARGS__);                             \
  ret sigmoid_backward(const Binary& a __VA_ARGS__);                           \
  ret square_forward(const Unary& a __VA_ARGS__);                              \
  ret square_backward(const Binary& a __VA_ARGS__);                            \
  ret mul_forward(const Binary& a __VA_ARGS__);                                \
  ret mul_backward(const ElementwiseArgs<3, 2>& a __VA_ARGS__);                \
  ret add_forward(const Binary& a, double alpha __VA_ARGS__);                  \
  ret logsumexp_forward(DType dtype, const void* x, void* out, const ReduceGeometry& g, \
                        void* workspace __VA_ARGS__);                          \
  ret logsumexp_backward(DType dtype, const void* grad, const void* x, const void* result, \
                         void* grad_x, const ReduceGeometry& g __VA_ARGS__);   \
  }

KW_DECLARE_ELEMENTWISE_LAUNCHERS(void, cpu)
KW_DECLARE_ELEMENTWISE_LAUNCHERS(int, cuda, , void* stream)

#undef KW_DECLARE_ELEMENTWISE_LAUNCHERS

namespace cuda {
// Bytes of scratch logsumexp_forward needs for this geometry on the current device (0: none).
int64_t logsumexp_workspace_bytes(DType dtype, const ReduceGeometry& g);
}  // namespace cuda

}  // namespace kw
