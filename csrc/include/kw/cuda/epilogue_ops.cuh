// The math of a GEMM epilogue program's ops (kw::EpilogueProgram), which the code written for
// each program (kernelwright/ops/_epilogue_kernels.py) calls with its ops as constants.
#pragma once

#include "kw/gemm.h"

// No CUTLASS here: NVRTC compiles this header with a program's code in the tests.
#define KW_EPILOGUE_FN __host__ __device__ __forceinline__

namespace kw {
namespace cuda {

// The math of one instruction on one element, with ATen's semantics (NaN propagation of
// maximum, minimum, clamps and relu included), as the optimizer's generated kernels have it.
KW_EPILOGUE_FN float epilogue_apply(EpilogueOp op, float a, float b, float c) {
  switch (op) {
    case EpilogueOp::kCopy: return a;
    case EpilogueOp::kNeg: return -a;
    case EpilogueOp::kAbs: return fabsf(a);
    case EpilogueOp::kExp: return expf(a);
    case EpilogueOp::kExpm1: return expm1f(a);
    case EpilogueOp::kLog: return logf(a);
    case EpilogueOp::kLog1p: return log1pf(a);
    case EpilogueOp::kSqrt: return sqrtf(a);
    case EpilogueOp::kRsqrt: return 1.0f / sqrtf(a);
    case EpilogueOp::kRecip: return 1.0f / a;
    case EpilogueOp::kSin: return sinf(a);
    case EpilogueOp::kCos: return cosf(a);
    case EpilogueOp::kTanh: return tanhf(a);
    case EpilogueOp::kSigmoid: return 1.0f / (1.0f + expf(-a));
    case EpilogueOp::kErf: return erff(a);
    case EpilogueOp::kRelu: return a < 0.0f ? 0.0f : a;
    case EpilogueOp::kGelu: return 0.5f * a * (1.0f + erff(a * 0.70710678118654752f));
    case EpilogueOp::kGeluTanh:
      return 0.5f * a * (1.0f + tanhf(0.7978845608028654f * (a + 0.044715f * a * a * a)));
    case EpilogueOp::kFloor: return floorf(a);
    case EpilogueOp::kCeil: return ceilf(a);
    case EpilogueOp::kSign: return static_cast<float>((0.0f < a) - (a < 0.0f));
    case EpilogueOp::kAdd: return a + b;
    case EpilogueOp::kSub: return a - b;
    case EpilogueOp::kMul: return a * b;
    case EpilogueOp::kDiv: return a / b;
    case EpilogueOp::kMaximum: return (a != a || a > b) ? a : b;
    case EpilogueOp::kMinimum: return (a != a || a < b) ? a : b;
    case EpilogueOp::kPow: return powf(a, b);
    case EpilogueOp::kClampMin: return a < b ? b : a;
    case EpilogueOp::kClampMax: return a > b ? b : a;
    case EpilogueOp::kLt: return a < b ? 1.0f : 0.0f;
    case EpilogueOp::kLe: return a <= b ? 1.0f : 0.0f;
    case EpilogueOp::kGt: return a > b ? 1.0f : 0.0f;
    case EpilogueOp::kGe: return a >= b ? 1.0f : 0.0f;
    case EpilogueOp::kEq: return a == b ? 1.0f : 0.0f;
    case EpilogueOp::kNe: return a != b ? 1.0f : 0.0f;
    case EpilogueOp::kWhere: return a != 0.0f ? b : c;
    case EpilogueOp::kSoftplus: return a * b > c ? a : log1pf(expf(a * b)) / b;
    default: return a;
  }
}

}  // namespace cuda
}  // namespace kw
