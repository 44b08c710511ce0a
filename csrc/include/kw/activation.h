// The activations a GEMM epilogue applies, in fp32, as torch computes them.
#pragma once

#include <cmath>

#include "kw/gemm.h"
#include "kw/host_device.h"

namespace kw {

KW_HD float activate(Activation kind, float x) {
  switch (kind) {
    case Activation::kRelu:
      return x < 0.f ? 0.f : x;  // keeps NaN, as torch.relu does
    case Activation::kSigmoid:
      return 1.f / (1.f + expf(-x));
    case Activation::kGelu:
      return 0.5f * x * (1.f + erff(x * 0.70710678118654752f));
    case Activation::kGeluTanh:
      return 0.5f * x * (1.f + tanhf(0.79788456080286536f * (x + 0.044715f * x * x * x)));
    default:
      return x;
  }
}

}  // namespace kw
