#include "kw/cuda/elementwise.cuh"
#include "kw/functors.h"
#include "kw/launchers.h"

namespace kw {
namespace cuda {

int sigmoid_forward(const Unary& a, void* stream) {
  return launch_elementwise(a, SigmoidForward{}, stream);
}

int sigmoid_backward(const Binary& a, void* stream) {
  return launch_elementwise(a, SigmoidBackward{}, stream);
}

}  // namespace cuda
}  // namespace kw
