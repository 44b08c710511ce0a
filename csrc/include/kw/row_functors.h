// The arithmetic of every row op, written once for the CPU and CUDA engines (csrc/cpu/rows.h,
// kw/cuda/rows.cuh). An engine folds each row into the op's State, merging partial states
// from threads and blocks, turns the final state into per-row coefficients with finish()
// and then maps every element of the row through apply(). A is the accumulator type.
//
// An op declares how many row-shaped inputs it reads (kIn), how many per-column parameters
// (kCols: weight, bias; absent ones read as 0) and how many of its coefficients are saved
// per row for the backward (kSave). Per-row inputs (row) are the statistics a forward saved.
#pragma once

#include <cmath>
#include <limits>

#include "kw/functors.h"
#include "kw/host_device.h"
#include "kw/logsumexp_state.h"

namespace kw {

// Per-row coefficients finish() hands to apply(); the first kSave are saved.
constexpr int kCoefs = 4;

// N consecutive elements of a row: the row-shaped inputs and the column parameters there.
template <typename A, int N>
struct Elems {
  A in[2][N];
  A col[2][N];
};

template <typename A, int K>
struct SumState {
  A s[K];

  KW_HD static SumState empty() {
    SumState st;
    for (int k = 0; k < K; ++k) st.s[k] = A(0);
    return st;
  }
  KW_HD void merge(const SumState& o) {
    for (int k = 0; k < K; ++k) s[k] += o.s[k];
  }
};

// Mean and variance by Welford/Chan merging of values shifted by the first one the state saw:
// the shifted values are of the order of the spread, not of the mean, so fp32 keeps its
// accuracy when |mean| >> std, where E[x^2] - E[x]^2 would cancel. Each add() of N values
// takes their own mean and squared deviations in registers first, then merges once.
template <typename A>
struct WelfordState {
  A n;   // count
  A k;   // shift
  A d;   // mean - k
  A m2;  // sum of squared deviations from the mean

  KW_HD static WelfordState empty() { return WelfordState{A(0), A(0), A(0), A(0)}; }

  template <int N>
  KW_HD void add(const A (&v)[N]) {
    if (n == A(0)) k = v[0];
    A s = A(0);
#pragma unroll
    for (int i = 0; i < N; ++i) s += v[i] - k;
    const A gd = s / A(N);
    A g2 = A(0);
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const A e = (v[i] - k) - gd;
      g2 += e * e;
    }
    combine(A(N), gd, g2);
  }

  KW_HD void merge(const WelfordState& o) {
    if (o.n == A(0)) return;
    if (n == A(0)) {
      *this = o;
      return;
    }
    combine(o.n, (o.k - k) + o.d, o.m2);
  }

  KW_HD A mean() const { return k + d; }

 private:
  // Merges (on values, mean - k == od, squared deviations om2) into this state.
  KW_HD void combine(A on, A od, A om2) {
    const A nn = n + on;
    const A delta = od - d;
    const A r = on / nn;
    d += delta * r;
    m2 += om2 + delta * delta * n * r;
    n = nn;
  }
};

// Softmax's running (max m, sum of exp(x - m)). Unlike logsumexp's state it keeps no +inf
// flag: softmax's row is all NaN whether it holds a NaN or a +inf, and a +inf shows as
// m == +inf. A NaN is skipped by the max and flagged; its term makes s NaN, which the flag
// overrides. Rescales use the accurate exp (see LseState).
template <typename A, typename M>
struct SoftmaxState {
  A m;
  A s;
  unsigned nan;

  KW_HD static SoftmaxState empty() {
    return SoftmaxState{-std::numeric_limits<A>::infinity(), A(0), 0u};
  }
  template <int N>
  KW_HD void add(const A (&v)[N]) {
    A vmax = m;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      nan |= v[i] != v[i] ? 1u : 0u;
      vmax = v[i] > vmax ? v[i] : vmax;
    }
    if (vmax > m) {
      s *= AccurateMath::exp(m - vmax);  // 0 while m is still -inf
      m = vmax;
    }
    if (m > -std::numeric_limits<A>::infinity()) {
#pragma unroll
      for (int i = 0; i < N; ++i) s += M::exp(v[i] - m);
    }
  }
  KW_HD void merge(const SoftmaxState& o) {
    nan |= o.nan;
    const A nm = o.m > m ? o.m : m;
    if (nm == -std::numeric_limits<A>::infinity()) return;
    s = s * AccurateMath::exp(m - nm) + o.s * AccurateMath::exp(o.m - nm);
    m = nm;
  }
};

// Softmax: the online (max, sum of exp) state, then exp(x - max) / sum. Like torch.softmax,
// a row holding NaN or +inf, or only -inf, comes out all NaN.
template <typename A, typename SumM = AccurateMath, typename OutM = AccurateMath>
struct SoftmaxForwardOp {
  static constexpr int kIn = 1, kCols = 0, kSave = 0;
  static constexpr bool kAddsInput = true;  // accumulate is st.add(in[0]): see rows_tiles.cuh
  using State = SoftmaxState<A, SumM>;

  template <int N>
  KW_HD void accumulate(State& st, const Elems<A, N>& e, const A (&)[2]) const {
    st.add(e.in[0]);
  }
  KW_HD void finish(const State& st, const A (&)[2], A (&c)[kCoefs]) const {
    const A inf = std::numeric_limits<A>::infinity();
    const bool defined = st.nan == 0u && st.m > -inf && st.m < inf;
    c[0] = defined ? st.m : std::numeric_limits<A>::quiet_NaN();
    c[1] = A(1) / st.s;
    c[2] = c[3] = A(0);
  }
  template <int N>
  KW_HD void apply(const Elems<A, N>& e, const A (&)[2], const A (&c)[kCoefs], A (&out)[N]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) out[i] = OutM::exp(e.in[0][i] - c[0]) * c[1];
  }
};

// grad_x = y * (grad - sum(grad * y)), torch's formula. in: grad, y.
template <typename A>
struct SoftmaxBackwardOp {
  static constexpr int kIn = 2, kCols = 0, kSave = 0;
  using State = SumState<A, 1>;

  template <int N>
  KW_HD void accumulate(State& st, const Elems<A, N>& e, const A (&)[2]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) st.s[0] += e.in[0][i] * e.in[1][i];
  }
  KW_HD void finish(const State& st, const A (&)[2], A (&c)[kCoefs]) const {
    c[0] = st.s[0];
    c[1] = c[2] = c[3] = A(0);
  }
  template <int N>
  KW_HD void apply(const Elems<A, N>& e, const A (&)[2], const A (&c)[kCoefs], A (&out)[N]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) out[i] = e.in[1][i] * (e.in[0][i] - c[0]);
  }
};

// y = (x - mean) * rstd * weight + bias; saves (mean, rstd) as torch.native_layer_norm does.
template <typename A>
struct LayerNormForwardOp {
  static constexpr int kIn = 1, kCols = 2, kSave = 2;
  static constexpr bool kAddsInput = true;  // accumulate is st.add(in[0]): see rows_tiles.cuh
  using State = WelfordState<A>;
  A len, eps;
  bool has_weight, has_bias;

  template <int N>
  KW_HD void accumulate(State& st, const Elems<A, N>& e, const A (&)[2]) const {
    st.add(e.in[0]);
  }
  // c: mean, rstd (saved), then the state's shift and mean - shift: x - shift is exact for x
  // near the shift, so (x - shift) - (mean - shift) keeps fp32 accuracy when |mean| >> std,
  // where x - mean would carry the rounding of mean itself.
  KW_HD void finish(const State& st, const A (&)[2], A (&c)[kCoefs]) const {
    c[0] = st.mean();
    c[1] = A(1) / std::sqrt(st.m2 / len + eps);  // an empty row gives NaN, as in torch
    c[2] = st.k;
    c[3] = st.d;
  }
  template <int N>
  KW_HD void apply(const Elems<A, N>& e, const A (&)[2], const A (&c)[kCoefs], A (&out)[N]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) {
      A y = ((e.in[0][i] - c[2]) - c[3]) * c[1];
      if (has_weight) y *= e.col[0][i];
      if (has_bias) y += e.col[1][i];
      out[i] = y;
    }
  }
};

// y = x * rstd * weight with rstd = 1 / sqrt(mean(x^2) + eps); saves rstd.
template <typename A>
struct RmsNormForwardOp {
  static constexpr int kIn = 1, kCols = 1, kSave = 1;
  using State = SumState<A, 1>;
  A len, eps;
  bool has_weight;

  template <int N>
  KW_HD void accumulate(State& st, const Elems<A, N>& e, const A (&)[2]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) st.s[0] += e.in[0][i] * e.in[0][i];
  }
  KW_HD void finish(const State& st, const A (&)[2], A (&c)[kCoefs]) const {
    c[0] = A(1) / std::sqrt(st.s[0] / len + eps);
    c[1] = c[2] = c[3] = A(0);
  }
  template <int N>
  KW_HD void apply(const Elems<A, N>& e, const A (&)[2], const A (&c)[kCoefs], A (&out)[N]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const A y = e.in[0][i] * c[0];
      out[i] = has_weight ? y * e.col[0][i] : y;
    }
  }
};

// grad_x of both norms, with gw = grad * weight and xhat the normalized x:
//   layer_norm (Centered): rstd * (gw - mean(gw) - xhat * mean(gw * xhat)), xhat = (x - mean) * rstd
//   rms_norm:              rstd * (gw - xhat * mean(gw * xhat)),            xhat = x * rstd
// in: grad, x; row: (mean, rstd), or (rstd) for rms_norm.
template <typename A, bool Centered>
struct NormBackwardOp {
  static constexpr int kIn = 2, kCols = 1, kSave = 0;
  using State = SumState<A, 2>;
  A len;
  bool has_weight;

  template <int N>
  KW_HD void accumulate(State& st, const Elems<A, N>& e, const A (&row)[2]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const A g = gw(e, i);
      st.s[0] += g;
      st.s[1] += g * xhat(e.in[1][i], row);
    }
  }
  KW_HD void finish(const State& st, const A (&)[2], A (&c)[kCoefs]) const {
    c[0] = Centered ? st.s[0] / len : A(0);
    c[1] = st.s[1] / len;
    c[2] = c[3] = A(0);
  }
  template <int N>
  KW_HD void apply(const Elems<A, N>& e, const A (&row)[2], const A (&c)[kCoefs], A (&out)[N]) const {
#pragma unroll
    for (int i = 0; i < N; ++i) out[i] = rstd(row) * (gw(e, i) - c[0] - xhat(e.in[1][i], row) * c[1]);
  }

 private:
  template <int N>
  KW_HD A gw(const Elems<A, N>& e, int i) const {
    return has_weight ? e.in[0][i] * e.col[0][i] : e.in[0][i];
  }
  KW_HD static A rstd(const A (&row)[2]) { return Centered ? row[1] : row[0]; }
  KW_HD static A xhat(A x, const A (&row)[2]) { return (Centered ? x - row[0] : x) * rstd(row); }
};

}  // namespace kw
