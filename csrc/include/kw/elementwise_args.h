// The plain-data contract between the torch-facing glue (csrc/ops) and the kernels
// (csrc/cpu, csrc/cuda). No torch headers here: the .cu files include only this, so nvcc never
// parses ATen and a full build stays fast.
#pragma once

#include <cstdint>

namespace kw {

enum class DType : int32_t { Float32 = 0, Float16 = 1, BFloat16 = 2, Float64 = 3 };

// TensorIterator coalesces dims; shapes that still need more than this take a contiguous copy.
constexpr int kMaxDims = 8;

// An elementwise problem with NIn inputs and NOut outputs of one dtype.
//   contiguous: every operand is dense in iteration order (offset == linear index).
//   Otherwise element i of operand k sits at sum_d digit_d(i) * strides[k][d], with the digits
//   taken over sizes[] (innermost first). Operands are ordered outputs first, then inputs.
// An input may instead be a broadcast scalar: scalar_ptr[k] (on the device, read once per
// thread) or, when that is null, scalar_value[k]; its strides are ignored.
template <int NIn, int NOut>
struct ElementwiseArgs {
  static constexpr int kOperands = NIn + NOut;
  DType dtype;
  int64_t numel;
  bool contiguous;
  bool use_32bit_index;
  int ndim;
  int64_t sizes[kMaxDims];
  int64_t strides[kOperands][kMaxDims];  // in elements
  void* out[NOut];
  const void* in[NIn];
  bool is_scalar[NIn];
  const void* scalar_ptr[NIn];
  double scalar_value[NIn];
};

// A reduction over the middle axis of a [outer, reduce, inner] view whose three axes each
// have one stride (in elements). The result is contiguous [outer, inner].
struct ReduceGeometry {
  int64_t outer, reduce, inner;
  int64_t stride_outer, stride_reduce, stride_inner;
};

}  // namespace kw
