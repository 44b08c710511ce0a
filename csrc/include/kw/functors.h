// The arithmetic of every elementwise op, written once for the CPU and CUDA kernels.
// Each functor maps NIn accumulator values to NOut; Acc is float for 16/32-bit types, double for
// float64, so half and bfloat16 are computed in fp32 as PyTorch does.
#pragma once

#include <cmath>

#include "kw/host_device.h"

namespace kw {

namespace math {
KW_HD float exp(float x) { return ::expf(x); }
KW_HD double exp(double x) { return ::exp(x); }
KW_HD float expm1(float x) { return ::expm1f(x); }
KW_HD double expm1(double x) { return ::expm1(x); }
}  // namespace math

struct EluForward {
  double alpha;
  template <typename Acc>
  KW_HD void operator()(const Acc (&in)[1], Acc (&out)[1]) const {
    const Acc x = in[0];
    // expm1 keeps small negative inputs accurate, matching torch.nn.functional.elu.
    out[0] = x > Acc(0) ? x : Acc(alpha) * math::expm1(x);
  }
};

struct EluBackward {  // in: grad, x
  double alpha;
  template <typename Acc>
  KW_HD void operator()(const Acc (&in)[2], Acc (&out)[1]) const {
    const Acc x = in[1];
    out[0] = x > Acc(0) ? in[0] : in[0] * Acc(alpha) * math::exp(x);
  }
};

struct SigmoidForward {
  template <typename Acc>
  KW_HD void operator()(const Acc (&in)[1], Acc (&out)[1]) const {
    out[0] = Acc(1) / (Acc(1) + math::exp(-in[0]));
  }
};

struct SigmoidBackward {  // in: grad, y = sigmoid(x)
  template <typename Acc>
  KW_HD void operator()(const Acc (&in)[2], Acc (&out)[1]) const {
    const Acc y = in[1];
    out[0] = in[0] * (Acc(1) - y) * y;
  }
};

struct SquareForward {
  template <typename Acc>
  KW_HD void operator()(const Acc (&in)[1], Acc (&out)[1]) const {
    out[0] = in[0] * in[0];
  }
};

struct SquareBackward {  // in: grad, x
  template <typename Acc>
  KW_HD void operator()(const Acc (&in)[2], Acc (&out)[1]) const {
    out[0] = Acc(2) * in[1] * in[0];
  }
};

struct MulForward {
  template <typename Acc>
  KW_HD void operator()(const Acc (&in)[2], Acc (&out)[1]) const {
    out[0] = in[0] * in[1];
  }
};

// Both input gradients in one pass: reads grad, a, b once instead of grad twice.
struct MulBackward {  // in: grad, a, b; out: grad_a, grad_b
  template <typename Acc>
  KW_HD void operator()(const Acc (&in)[3], Acc (&out)[2]) const {
    out[0] = in[0] * in[2];
    out[1] = in[0] * in[1];
  }
};

struct AddForward {
  double alpha;
  template <typename Acc>
  KW_HD void operator()(const Acc (&in)[2], Acc (&out)[1]) const {
    out[0] = in[0] + Acc(alpha) * in[1];
  }
};

}  // namespace kw
