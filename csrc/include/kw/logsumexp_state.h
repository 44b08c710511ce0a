// Online logsumexp: one pass keeps (running max m, sum of exp(x - m)) and folds new values in,
// so the input is read once. M's exp (possibly the fast unit) serves the terms of the sum,
// whose errors are independent and average out; a rescale multiplies a whole partial sum, so
// its error would carry into every output of the row, and it is rare: the accurate exp. NaN
// and +inf are tracked as flags rather than folded, so that the result matches torch.logsumexp
// exactly: any NaN gives NaN, otherwise any +inf gives +inf, a row of only -inf (or an empty
// row) gives -inf.
#pragma once

#include <cmath>
#include <limits>

#include "kw/functors.h"
#include "kw/host_device.h"

namespace kw {

template <typename Acc, typename M = AccurateMath>
struct LseState {
  static constexpr unsigned kNaN = 1u, kPosInf = 2u;
  Acc m;
  Acc s;
  unsigned flags;

  KW_HD static LseState empty() {
    return LseState{-std::numeric_limits<Acc>::infinity(), Acc(0), 0u};
  }

  // Folds N values at once: one rescale per group instead of one per value.
  template <int N>
  KW_HD void add(const Acc (&v)[N]) {
    const Acc inf = std::numeric_limits<Acc>::infinity();
    Acc clean[N];
    Acc vmax = -inf;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const bool nan = v[i] != v[i];
      const bool pinf = v[i] == inf;
      flags |= (nan ? kNaN : 0u) | (pinf ? kPosInf : 0u);
      clean[i] = (nan || pinf) ? -inf : v[i];
      vmax = clean[i] > vmax ? clean[i] : vmax;
    }
    if (vmax > m) {
      s *= AccurateMath::exp(m - vmax);  // exp(-inf) == 0 when m is still -inf
      m = vmax;
    }
    if (m > -inf) {
#pragma unroll
      for (int i = 0; i < N; ++i) s += M::exp(clean[i] - m);
    }
  }

  KW_HD void merge(const LseState& o) {
    flags |= o.flags;
    const Acc inf = std::numeric_limits<Acc>::infinity();
    const Acc nm = o.m > m ? o.m : m;
    if (nm == -inf) return;
    s = s * AccurateMath::exp(m - nm) + o.s * AccurateMath::exp(o.m - nm);
    m = nm;
  }

  KW_HD Acc result() const {
    const Acc inf = std::numeric_limits<Acc>::infinity();
    if (flags & kNaN) return std::numeric_limits<Acc>::quiet_NaN();
    if (flags & kPosInf) return inf;
    if (m == -inf) return -inf;
    return m + std::log(s);
  }
};

}  // namespace kw
