// The arithmetic of every elementwise op, written once for the CPU and CUDA kernels.
// Each functor maps NIn accumulator values to NOut; Acc is float for 16/32-bit types, double for
// float64, so half and bfloat16 are computed in fp32 as PyTorch does. M is the math policy.
#pragma once

#include <cmath>

#include "kw/host_device.h"

namespace kw {

// How transcendentals are evaluated, chosen per storage type by the kernels.
// AccurateMath: the C library's functions (float32 and float64 storage, and every CPU kernel).
struct AccurateMath {
  template <typename A>
  static KW_HD A rcp(A x) { return A(1) / x; }
  static KW_HD float exp(float x) { return ::expf(x); }
  static KW_HD double exp(double x) { return ::exp(x); }
  static KW_HD float expm1(float x) { return ::expm1f(x); }
  static KW_HD double expm1(double x) { return ::expm1(x); }
};

// FastMath: the GPU's exp2 unit, within a few fp32 ulps. Used where the result is rounded to
// float16/bfloat16 (11 or 8 bits) anyway, or only feeds a sum (logsumexp): with libm's exp the
// 16-bit ops would be bound by arithmetic instead of memory.
struct FastMath {
  static KW_HD double rcp(double x) { return 1.0 / x; }
  static KW_HD double exp(double x) { return ::exp(x); }
  static KW_HD double expm1(double x) { return ::expm1(x); }
#if defined(__CUDA_ARCH__)
  static __device__ __forceinline__ float rcp(float x) { return __fdividef(1.f, x); }
  static __device__ __forceinline__ float exp(float x) { return __expf(x); }
  static __device__ __forceinline__ float expm1(float x) {
    // exp(x) - 1 cancels near 0: there a Taylor polynomial is exact to fp32 rounding. Both
    // are computed and one selected, so a warp with mixed inputs does not diverge.
    const float poly =
        x * (1.f + x * (0.5f + x * (1.f / 6 + x * (1.f / 24 + x * (1.f / 120 + x * (1.f / 720))))));
    const float e = __expf(x) - 1.f;
    return fabsf(x) < 0.25f ? poly : e;
  }
#else
  static float rcp(float x) { return 1.f / x; }
  static float exp(float x) { return ::expf(x); }
  static float expm1(float x) { return ::expm1f(x); }
#endif
};

struct EluForward {
  double alpha;
  template <typename Acc, typename M>
  KW_HD void operator()(const Acc (&in)[1], Acc (&out)[1], M) const {
    const Acc x = in[0];
    // expm1 keeps small negative inputs accurate, matching torch.nn.functional.elu.
    out[0] = x > Acc(0) ? x : Acc(alpha) * M::expm1(x);
  }
};

struct EluBackward {  // in: grad, x
  double alpha;
  template <typename Acc, typename M>
  KW_HD void operator()(const Acc (&in)[2], Acc (&out)[1], M) const {
    const Acc x = in[1];
    out[0] = x > Acc(0) ? in[0] : in[0] * Acc(alpha) * M::exp(x);
  }
};

struct SigmoidForward {
  template <typename Acc, typename M>
  KW_HD void operator()(const Acc (&in)[1], Acc (&out)[1], M) const {
    out[0] = M::rcp(Acc(1) + M::exp(-in[0]));
  }
};

struct SigmoidBackward {  // in: grad, y = sigmoid(x)
  template <typename Acc, typename M>
  KW_HD void operator()(const Acc (&in)[2], Acc (&out)[1], M) const {
    const Acc y = in[1];
    out[0] = in[0] * (Acc(1) - y) * y;
  }
};

struct SquareForward {
  template <typename Acc, typename M>
  KW_HD void operator()(const Acc (&in)[1], Acc (&out)[1], M) const {
    out[0] = in[0] * in[0];
  }
};

struct SquareBackward {  // in: grad, x
  template <typename Acc, typename M>
  KW_HD void operator()(const Acc (&in)[2], Acc (&out)[1], M) const {
    out[0] = Acc(2) * in[1] * in[0];
  }
};

struct MulForward {
  template <typename Acc, typename M>
  KW_HD void operator()(const Acc (&in)[2], Acc (&out)[1], M) const {
    out[0] = in[0] * in[1];
  }
};

// Both input gradients in one pass: reads grad, a, b once instead of grad twice.
struct MulBackward {  // in: grad, a, b; out: grad_a, grad_b
  template <typename Acc, typename M>
  KW_HD void operator()(const Acc (&in)[3], Acc (&out)[2], M) const {
    out[0] = in[0] * in[2];
    out[1] = in[0] * in[1];
  }
};

struct AddForward {
  double alpha;
  template <typename Acc, typename M>
  KW_HD void operator()(const Acc (&in)[2], Acc (&out)[1], M) const {
    out[0] = in[0] + Acc(alpha) * in[1];
  }
};

}  // namespace kw
