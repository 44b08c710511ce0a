// CPU kernels of the elementwise ops: the same functors as the CUDA kernels, over the same
// ElementwiseArgs, parallelised with at::parallel_for.
#include <ATen/Parallel.h>

#include "kw/functors.h"
#include "dispatch.h"
#include "kw/launchers.h"

namespace kw {
namespace cpu {
namespace {

constexpr int64_t kGrain = 32768;

template <int NIn, int NOut, typename F>
void run(const ElementwiseArgs<NIn, NOut>& args, const F& f) {
  dispatch_dtype(args.dtype, [&](auto tag) {
    using T = decltype(tag);
    using A = acc_t<T>;
    A scalars[NIn];
    for (int k = 0; k < NIn; ++k)
      scalars[k] = !args.is_scalar[k]      ? A(0)
                   : args.scalar_ptr[k] ? static_cast<A>(*static_cast<const T*>(args.scalar_ptr[k]))
                                        : static_cast<A>(args.scalar_value[k]);
    bool any_scalar = false;
    for (int k = 0; k < NIn; ++k) any_scalar |= args.is_scalar[k];
    if (args.contiguous && !any_scalar) {
      // Dense operands: a loop over plain pointers, which the compiler can vectorise for
      // functors without library calls (mul, add, square and the backward products).
      at::parallel_for(0, args.numel, kGrain, [&](int64_t begin, int64_t end) {
        const T* in_p[NIn];
        T* out_p[NOut];
        for (int k = 0; k < NIn; ++k) in_p[k] = static_cast<const T*>(args.in[k]);
        for (int k = 0; k < NOut; ++k) out_p[k] = static_cast<T*>(args.out[k]);
        for (int64_t i = begin; i < end; ++i) {
          A in[NIn];
          A out[NOut];
          for (int k = 0; k < NIn; ++k) in[k] = static_cast<A>(in_p[k][i]);
          f(in, out, AccurateMath{});
          for (int k = 0; k < NOut; ++k) out_p[k][i] = static_cast<T>(out[k]);
        }
      });
      return;
    }
    at::parallel_for(0, args.numel, kGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        int64_t off[NIn + NOut];
        if (args.contiguous) {
          for (int k = 0; k < NIn + NOut; ++k) off[k] = i;
        } else {
          for (int k = 0; k < NIn + NOut; ++k) off[k] = 0;
          int64_t rem = i;
          for (int d = 0; d < args.ndim; ++d) {
            const int64_t digit = rem % args.sizes[d];
            rem /= args.sizes[d];
            for (int k = 0; k < NIn + NOut; ++k) off[k] += digit * args.strides[k][d];
          }
        }
        A in[NIn];
        A out[NOut];
        for (int k = 0; k < NIn; ++k)
          in[k] = args.is_scalar[k] ? scalars[k]
                                    : static_cast<A>(static_cast<const T*>(args.in[k])[off[NOut + k]]);
        f(in, out, AccurateMath{});
        for (int k = 0; k < NOut; ++k) static_cast<T*>(args.out[k])[off[k]] = static_cast<T>(out[k]);
      }
    });
  });
}

}  // namespace

void elu_forward(const Unary& a, double alpha) { run(a, EluForward{alpha}); }
void elu_backward(const Binary& a, double alpha) { run(a, EluBackward{alpha}); }
void sigmoid_forward(const Unary& a) { run(a, SigmoidForward{}); }
void sigmoid_backward(const Binary& a) { run(a, SigmoidBackward{}); }
void square_forward(const Unary& a) { run(a, SquareForward{}); }
void square_backward(const Binary& a) { run(a, SquareBackward{}); }
void mul_forward(const Binary& a) { run(a, MulForward{}); }
void mul_backward(const ElementwiseArgs<3, 2>& a) { run(a, MulBackward{}); }
void add_forward(const Binary& a, double alpha) { run(a, AddForward{alpha}); }

}  // namespace cpu
}  // namespace kw
