// The plain-data contract of the row ops (softmax, layer_norm, rms_norm and their backwards):
// one reduction along each row of a contiguous tensor, then an elementwise pass over the row
// that uses the reduced values. No torch or CUDA headers, as in launchers.h.
#pragma once

#include <cstdint>

#include "kw/elementwise_args.h"

namespace kw {

// A contiguous [rows, len, inner] tensor reduced along len. inner is 1 (each row is dense)
// except for softmax over a dim that is not the last, where the reduction runs down columns.
// Element (r, j, i) of every row-shaped operand sits at (r * len + j) * inner + i.
struct RowArgs {
  DType dtype;
  int64_t rows, len, inner;
  const void* in[2];      // row-shaped inputs: x, or (grad, x) and (grad, y) in backwards
  const void* col[2];     // per-column parameters of length len (weight, bias), or null
  const void* row_in[2];  // per-row statistics saved by a forward (accumulator dtype), or null
  void* out;              // row-shaped output
  void* row_out[2];       // per-row statistics to save (accumulator dtype), or null
  void* col_out[2];       // per-column outputs (grad_weight, grad_bias), or null
  double eps;
};

// a's pointers, typed for storage type T and accumulator type A.
template <typename T, typename A>
struct RowPtrs {
  const T* in[2];
  const T* col[2];
  const A* row_in[2];
  T* out;
  A* row_out[2];

  explicit RowPtrs(const RowArgs& a) {
    for (int k = 0; k < 2; ++k) {
      in[k] = static_cast<const T*>(a.in[k]);
      col[k] = static_cast<const T*>(a.col[k]);
      row_in[k] = static_cast<const A*>(a.row_in[k]);
      row_out[k] = static_cast<A*>(a.row_out[k]);
    }
    out = static_cast<T*>(a.out);
  }
};

namespace cpu {
void softmax_forward(const RowArgs& a);
void softmax_backward(const RowArgs& a);
void layer_norm_forward(const RowArgs& a);
void layer_norm_backward(const RowArgs& a);
void rms_norm_forward(const RowArgs& a);
void rms_norm_backward(const RowArgs& a);
}  // namespace cpu

// With workspace_bytes non-null a CUDA launcher only stores the scratch it needs for these
// arguments on the current device (cub's convention) and launches nothing; otherwise it
// launches on `stream` with `workspace` of that size. Returns a cudaError_t.
namespace cuda {
int softmax_forward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream);
int softmax_backward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream);
int layer_norm_forward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream);
int layer_norm_backward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream);
int rms_norm_forward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream);
int rms_norm_backward(const RowArgs& a, void* workspace, int64_t* workspace_bytes, void* stream);
}  // namespace cuda

}  // namespace kw
