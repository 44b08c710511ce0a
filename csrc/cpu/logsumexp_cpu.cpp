// CPU kernels of logsumexp: the same online state as the CUDA kernels, one output per task,
// folded pairwise (kw/pairwise.h).
#include <ATen/Parallel.h>

#include "dispatch.h"
#include "kw/launchers.h"
#include "kw/logsumexp_state.h"
#include "kw/pairwise.h"

namespace kw {
namespace cpu {

void logsumexp_forward(DType dtype, const void* x, void* out, const ReduceGeometry& g, void*) {
  dispatch_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    const T* xp = static_cast<const T*>(x);
    T* op = static_cast<T*>(out);
    const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(g.reduce, 1));
    at::parallel_for(0, g.outer * g.inner, grain, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        const int64_t outer = o / g.inner, inner = o % g.inner;
        const T* col = xp + outer * g.stride_outer + inner * g.stride_inner;
        const auto st = pairwise_fold<LseState<A>>(g.reduce, [&](int64_t r, LseState<A>& s) {
          A v[1] = {static_cast<A>(col[r * g.stride_reduce])};
          s.add(v);
        });
        op[o] = static_cast<T>(st.result());
      }
    });
  });
}

void logsumexp_backward(DType dtype, const void* grad, const void* x, const void* result,
                        void* grad_x, const ReduceGeometry& g) {
  dispatch_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    const T* gp = static_cast<const T*>(grad);
    const T* xp = static_cast<const T*>(x);
    const T* rp = static_cast<const T*>(result);
    T* gxp = static_cast<T*>(grad_x);
    at::parallel_for(0, g.outer * g.reduce * g.inner, 32768, [&](int64_t begin, int64_t end) {
      for (int64_t l = begin; l < end; ++l) {
        const int64_t i = l % g.inner, rest = l / g.inner;
        const int64_t r = rest % g.reduce, o = rest / g.reduce;
        const int64_t out_idx = o * g.inner + i;
        const A xv = static_cast<A>(xp[o * g.stride_outer + r * g.stride_reduce + i * g.stride_inner]);
        gxp[l] = static_cast<T>(static_cast<A>(gp[out_idx]) *
                                AccurateMath::exp(xv - static_cast<A>(rp[out_idx])));
      }
    });
  });
}

}  // namespace cpu
}  // namespace kw
