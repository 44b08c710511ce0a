// The epilogue's program interpreter (kw::EpilogueProgram), as a CUTLASS compute functor.
//
// Each instruction runs on a whole fragment (the elements one thread holds of an epilogue
// subtile), so the decoding is paid once per fragment, and every branch is uniform across the
// grid. Registers and operands are picked by switches with constant indices in every case: a
// register file indexed at run time would live in local memory.
#pragma once

#include <cutlass/array.h>
#include <cutlass/cutlass.h>

#include "kw/gemm.h"

namespace kw {
namespace cuda {

// The math of one instruction on one element, with ATen's semantics (NaN propagation of
// maximum, minimum, clamps and relu included), as the optimizer's generated kernels have it.
CUTLASS_HOST_DEVICE float epilogue_apply(EpilogueOp op, float a, float b, float c) {
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

template <EpilogueOp Op, class T, int N>
CUTLASS_HOST_DEVICE void apply_each(cutlass::Array<T, N>& out, cutlass::Array<T, N> const& a,
                                    cutlass::Array<T, N> const& b, cutlass::Array<T, N> const& c) {
  CUTLASS_PRAGMA_UNROLL
  for (int i = 0; i < N; ++i) out[i] = epilogue_apply(Op, a[i], b[i], c[i]);
}

// The functor CUTLASS's Sm90Compute calls with the node's children converted to fp32: the
// affine result (acc + bias, register 0 on entry), the two column vectors and the two row
// vectors; the program rides in the kernel's parameters.
template <class T>
struct EpilogueInterpreter {
  struct Arguments {
    EpilogueProgram program;
  };
};

template <class T, int N>
struct EpilogueInterpreter<cutlass::Array<T, N>> {
  using Arguments = typename EpilogueInterpreter<T>::Arguments;
  using Frag = cutlass::Array<T, N>;

  CUTLASS_HOST_DEVICE Frag operator()(Frag const& x, Frag const& column0, Frag const& column1,
                                      Frag const& row0, Frag const& row1,
                                      Arguments const& args) const {
    const EpilogueProgram& p = args.program;
    Frag r0 = x, r1, r2, r3;
    r1.clear();
    r2.clear();
    r3.clear();
    auto fetch = [&](int src) -> Frag {
      switch (src) {
        case kReg0: return r0;
        case kReg1: return r1;
        case kReg2: return r2;
        case kReg3: return r3;
        case kColumn0: return column0;
        case kColumn1: return column1;
        case kRow0: return row0;
        case kRow1: return row1;
        default: {
          Frag k;
          k.fill(p.consts[src - kConst]);
          return k;
        }
      }
    };
    for (int pc = 0; pc < p.length; ++pc) {
      const EpilogueStep step = p.steps[pc];
      const EpilogueOp op = static_cast<EpilogueOp>(step.op);
      const Frag a = fetch(step.a), b = fetch(step.b), c = fetch(step.c);
      Frag out;
      switch (op) {  // the element loop inside each case, so that its op is a constant there
#define KW_EPILOGUE_CASE(Op) \
  case EpilogueOp::Op: apply_each<EpilogueOp::Op>(out, a, b, c); break;
        KW_EPILOGUE_OPS(KW_EPILOGUE_CASE)
#undef KW_EPILOGUE_CASE
        default: out = a; break;
      }
      switch (step.dst) {
        case kReg0: r0 = out; break;
        case kReg1: r1 = out; break;
        case kReg2: r2 = out; break;
        default: r3 = out; break;
      }
    }
    return r0;
  }
};

}  // namespace cuda
}  // namespace kw
