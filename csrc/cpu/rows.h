// The CPU engine of the row ops: one task per row (or column), folded pairwise for accuracy on
// long rows, then mapped through the op's apply(); the same functors as the CUDA kernels.
#pragma once

#include <ATen/Parallel.h>

#include <algorithm>

#include "dispatch.h"
#include "kw/pairwise.h"
#include "kw/row_functors.h"
#include "kw/row_ops.h"

namespace kw {
namespace cpu {

template <typename T>
using Ptrs = RowPtrs<T, acc_t<T>>;

// Runs op over every line (row r, inner index i) of a's [rows, len, inner] tensor.
template <typename T, typename Op>
void run_rows(const Op& op, const RowArgs& a) {
  using A = acc_t<T>;
  using S = typename Op::State;
  const Ptrs<T> p(a);
  const int64_t len = a.len, inner = a.inner;
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(len, 1));
  at::parallel_for(0, a.rows * inner, grain, [&](int64_t begin, int64_t end) {
    for (int64_t line = begin; line < end; ++line) {
      const int64_t base = (line / inner) * len * inner + line % inner;
      A row[2];
      for (int k = 0; k < 2; ++k) row[k] = p.row_in[k] ? p.row_in[k][line] : A(0);
      auto load = [&](int64_t j, Elems<A, 1>& e) {
        for (int k = 0; k < 2; ++k) {
          e.in[k][0] = k < Op::kIn ? static_cast<A>(p.in[k][base + j * inner]) : A(0);
          e.col[k][0] = k < Op::kCols && p.col[k] ? static_cast<A>(p.col[k][j]) : A(0);
        }
      };
      const S st = pairwise_fold<S>(len, [&](int64_t j, S& s) {
        Elems<A, 1> e;
        load(j, e);
        op.accumulate(s, e, row);
      });
      A c[kCoefs];
      op.finish(st, row, c);
      for (int k = 0; k < Op::kSave; ++k) p.row_out[k][line] = c[k];
      for (int64_t j = 0; j < len; ++j) {
        Elems<A, 1> e;
        load(j, e);
        A o[1];
        op.apply(e, row, c, o);
        p.out[base + j * inner] = static_cast<T>(o[0]);
      }
    }
  });
}

// grad_weight[j] = sum_r grad[r, j] * xhat[r, j] and grad_bias[j] = sum_r grad[r, j] for the
// norms (a.in: grad, x; a.row_in: mean or null for rms_norm, rstd; a.col_out: the outputs).
template <typename T>
void norm_param_grads(const RowArgs& a) {
  using A = acc_t<T>;
  const Ptrs<T> p(a);
  T* gw = static_cast<T*>(a.col_out[0]);
  T* gb = static_cast<T*>(a.col_out[1]);
  if (!gw && !gb) return;
  const A* mean = a.row_in[1] ? p.row_in[0] : nullptr;
  const A* rstd = a.row_in[1] ? p.row_in[1] : p.row_in[0];
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(a.rows, 1));
  at::parallel_for(0, a.len, grain, [&](int64_t begin, int64_t end) {
    for (int64_t j = begin; j < end; ++j) {
      using S = SumState<A, 2>;
      const S st = pairwise_fold<S>(a.rows, [&](int64_t r, S& s) {
        const A g = static_cast<A>(p.in[0][r * a.len + j]);
        const A x = static_cast<A>(p.in[1][r * a.len + j]);
        s.s[0] += g * ((mean ? x - mean[r] : x) * rstd[r]);
        s.s[1] += g;
      });
      if (gw) gw[j] = static_cast<T>(st.s[0]);
      if (gb) gb[j] = static_cast<T>(st.s[1]);
    }
  });
}

}  // namespace cpu
}  // namespace kw
