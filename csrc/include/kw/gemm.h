// The linear (GEMM + epilogue) kernels' interface: plain data, so that the glue in csrc/ops
// needs no CUTLASS headers and the .cu files need no torch headers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kw {

// Applied in the GEMM epilogue to (x @ w^T + bias), in fp32.
enum class Activation : int { kNone = 0, kRelu = 1, kSigmoid = 2, kGelu = 3, kGeluTanh = 4 };

// How a float32 GEMM uses the tensor cores; chosen from torch's float32 matmul precision.
enum class GemmMethod : int {
  kTf32 = 0,       // one TF32 pass ('high', 'medium')
  kTf32Split3 = 1, // 3xTF32 on split operands with fp32 promotion of partial sums ('highest')
  kHalf = 2,       // fp16/bf16 operands, fp32 accumulation
};

// d[m, n] = act(sum_k a[m, k] * b[n, k] + bias[n]); k is contiguous in a and b, n in d.
struct GemmArgs {
  int dtype;  // kw::DType of a, b, bias and d
  int method; // GemmMethod
  int activation;
  int64_t m, n, k;
  const void* a;
  int64_t lda;
  const void* b;
  int64_t ldb;
  const void* bias;  // [n] or null
  void* d;
  int64_t ldd;
  int promotion_interval;  // kTf32Split3: tensor-core instructions per fp32 promotion
};

namespace cuda {
// 0 when a kernel exists for these arguments (shapes, alignment, dtype, method), else a
// reason the caller can report while it falls back to another path.
const char* gemm_unsupported(const GemmArgs& args);
size_t gemm_workspace_bytes(const GemmArgs& args);
int gemm(const GemmArgs& args, void* workspace, void* stream);

// Writes the operand of a 3xTF32 GEMM over a 3K inner dimension: row r of `out` holds three
// segments of `seg` elements (seg >= cols, zero-padded): [hi, hi, lo] for the left operand,
// [hi, lo, hi] for the right one, where hi + lo == x, both exact in TF32. `x` is read through
// (stride_r, stride_c), so a transposed operand costs no extra pass.
int split_tf32(const float* x, int64_t rows, int64_t cols, int64_t stride_r, int64_t stride_c,
               float* out, int64_t seg, bool left, void* stream);
}  // namespace cuda

}  // namespace kw
