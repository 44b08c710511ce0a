#include "kw/cuda/elementwise.cuh"
#include "kw/functors.h"
#include "kw/launchers.h"

namespace kw {
namespace cuda {

int elu_forward(const Unary& a, double alpha, void* stream) {
  return launch_elementwise(a, EluForward{alpha}, stream);
}

int elu_backward(const Binary& a, double alpha, void* stream) {
  return launch_elementwise(a, EluBackward{alpha}, stream);
}

}  // namespace cuda
}  // namespace kw
