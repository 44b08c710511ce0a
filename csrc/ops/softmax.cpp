// Torch-facing glue of softmax: normalises `dim` and views the operands as a contiguous
// [outer, len, inner] tensor reduced along len.
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>

#include <vector>

#include "kw/ops.h"
#include "rows.h"

namespace kw {
namespace {

// A CUDA reduction down columns runs one thread per column: with fewer columns than this it
// keeps too few loads in flight to cover memory latency, and moving the dim last (a copy each
// way) is faster.
constexpr int64_t kMinCudaColumns = 65536;

int64_t wrap_dim(const char* op, const at::Tensor& x, int64_t dim) {
  const int64_t nd = x.dim();
  const int64_t lo = nd == 0 ? -1 : -nd, hi = nd == 0 ? 0 : nd - 1;
  TORCH_CHECK_INDEX(dim >= lo && dim <= hi, "kernelwright.", op, "(): argument 'dim' is ",
                    num(dim), ", out of range for a tensor of ", num(nd),
                    " dims (expected a value in [", num(lo), ", ", num(hi), "])");
  return dim < 0 ? dim + (nd == 0 ? 1 : nd) : dim;
}

// Runs a softmax kernel along dim d of `ins` (all of one shape) and returns its output.
at::Tensor run_softmax(const char* op, std::vector<at::Tensor> ins, int64_t d, CpuRowFn cpu,
                       CudaRowFn cuda) {
  const at::Tensor& like = ins[0];
  RowArgs a = row_args(like);
  a.rows = 1;
  a.len = like.dim() == 0 ? 1 : like.size(d);
  for (int64_t i = 0; i < like.dim(); ++i) {
    if (i < d) a.rows *= like.size(i);
    if (i > d) a.inner *= like.size(i);
  }
  const bool move = like.is_cuda() && a.inner > 1 && a.rows * a.inner < kMinCudaColumns;
  for (auto& t : ins) t = move ? t.movedim(d, -1).contiguous() : t.contiguous();
  if (move) {
    a.rows *= a.inner;
    a.inner = 1;
  }
  at::Tensor out = at::empty(ins[0].sizes(), like.options());
  if (out.numel() == 0) return move ? out.movedim(-1, d).contiguous() : out;
  for (size_t k = 0; k < ins.size(); ++k) a.in[k] = ins[k].const_data_ptr();
  a.out = out.data_ptr();
  launch_rows(op, like, a, cpu, cuda);
  return move ? out.movedim(-1, d).contiguous() : out;
}

}  // namespace

at::Tensor softmax(const at::Tensor& x, int64_t dim) {
  const char* op = "softmax";
  check_floating(op, "x", x);
  return run_softmax(op, {x}, wrap_dim(op, x, dim), &cpu::softmax_forward,
                     KW_CUDA_ROW(softmax_forward));
}

at::Tensor softmax_backward(const at::Tensor& grad, const at::Tensor& y, int64_t dim) {
  const char* op = "softmax_backward";
  check_floating(op, "y", y);
  const at::Tensor g = check_grad(op, grad, "y", y);
  return run_softmax(op, {g, y}, wrap_dim(op, y, dim), &cpu::softmax_backward,
                     KW_CUDA_ROW(softmax_backward));
}

}  // namespace kw
