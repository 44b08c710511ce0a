// Storage type switch and fp32/fp64 accumulator for the CPU kernels.
#pragma once

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <type_traits>

#include "kw/elementwise_args.h"

namespace kw {
namespace cpu {

template <typename T>
using acc_t = typename std::conditional<std::is_same<T, double>::value, double, float>::type;

template <typename Fn>
void dispatch_dtype(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::Float32: return fn(float{});
    case DType::Float16: return fn(c10::Half{});
    case DType::BFloat16: return fn(c10::BFloat16{});
    case DType::Float64: return fn(double{});
  }
}

}  // namespace cpu
}  // namespace kw
