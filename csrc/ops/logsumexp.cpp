// Torch-facing glue of logsumexp: normalises `dim`, views the input as [outer, reduce, inner]
// without copying whenever strides allow, allocates the result and any split workspace.
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <numeric>

#include "kw/launchers.h"
#include "kw/ops.h"
#include "kw/tensor_checks.h"
#include "launch.h"

namespace kw {
namespace {

struct LseView {
  at::Tensor x;               // possibly permuted (and then made contiguous) input
  ReduceGeometry g;
  std::vector<int64_t> perm;  // empty when x keeps the caller's dim order
};

std::vector<int64_t> normalize_dims(const char* op, const at::Tensor& x, at::IntArrayRef dim) {
  const int64_t nd = x.dim();
  std::vector<int64_t> dims;
  if (dim.empty()) {  // as torch.logsumexp: an empty list reduces every dim
    dims.resize(nd);
    std::iota(dims.begin(), dims.end(), 0);
    return dims;
  }
  for (int64_t d : dim) {
    const int64_t lo = nd == 0 ? -1 : -nd, hi = nd == 0 ? 0 : nd - 1;
    TORCH_CHECK_INDEX(d >= lo && d <= hi, "kernelwright.", op, "(): argument 'dim' is ", num(d),
                      ", out of range for a tensor of ", num(nd), " dims (expected a value in [",
                      num(lo), ", ", num(hi), "])");
    const int64_t w = d < 0 ? d + std::max<int64_t>(nd, 1) : d;
    TORCH_CHECK_VALUE(std::find(dims.begin(), dims.end(), w) == dims.end(), "kernelwright.", op,
                      "(): argument 'dim' names dim ", num(w), " more than once");
    dims.push_back(w);
  }
  if (nd == 0) dims.clear();
  std::sort(dims.begin(), dims.end());
  return dims;
}

// Collapses dims [from, to) into one (size, stride) if they are nested in memory.
bool collapse(const at::Tensor& x, int64_t from, int64_t to, int64_t& size, int64_t& stride) {
  size = 1;
  stride = 1;
  bool have = false;
  for (int64_t d = to - 1; d >= from; --d) {
    const int64_t s = x.size(d);
    if (s == 1) continue;
    if (!have) {
      stride = x.stride(d);
      have = true;
    } else if (x.stride(d) != stride * size) {
      return false;
    }
    size *= s;
  }
  // Sizes of 1 were skipped: a zero-size dim still zeroes the product.
  for (int64_t d = from; d < to; ++d)
    if (x.size(d) == 0) size = 0;
  return true;
}

bool try_geometry(const at::Tensor& x, int64_t r0, int64_t r1, ReduceGeometry& g) {
  return collapse(x, 0, r0, g.outer, g.stride_outer) &&
         collapse(x, r0, r1, g.reduce, g.stride_reduce) &&
         collapse(x, r1, x.dim(), g.inner, g.stride_inner);
}

LseView make_view(const at::Tensor& x, const std::vector<int64_t>& dims) {
  LseView v{x, {}, {}};
  const int64_t nd = x.dim();
  if (nd == 0) {
    v.g = ReduceGeometry{1, 1, 1, 1, 1, 1};
    return v;
  }
  int64_t r0 = dims.empty() ? nd : dims.front();
  int64_t r1 = dims.empty() ? nd : dims.back() + 1;
  if (!dims.empty() && r1 - r0 != static_cast<int64_t>(dims.size())) {
    // Reduced dims are not adjacent: move them last, keeping the others' order.
    for (int64_t d = 0; d < nd; ++d)
      if (!std::binary_search(dims.begin(), dims.end(), d)) v.perm.push_back(d);
    v.perm.insert(v.perm.end(), dims.begin(), dims.end());
    v.x = x.permute(v.perm);
    r0 = nd - static_cast<int64_t>(dims.size());
    r1 = nd;
  }
  if (!try_geometry(v.x, r0, r1, v.g)) {
    v.x = v.x.contiguous();
    try_geometry(v.x, r0, r1, v.g);
  }
  return v;
}

std::vector<int64_t> reduced_shape(const at::Tensor& x, const std::vector<int64_t>& dims,
                                   bool keepdim) {
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (!std::binary_search(dims.begin(), dims.end(), d))
      shape.push_back(x.size(d));
    else if (keepdim)
      shape.push_back(1);
  }
  return shape;
}

}  // namespace

at::Tensor logsumexp(const at::Tensor& x, at::IntArrayRef dim, bool keepdim) {
  const char* op = "logsumexp";
  check_floating(op, "x", x);
  const auto dims = normalize_dims(op, x, dim);
  const LseView v = make_view(x, dims);
  at::Tensor out = at::empty(reduced_shape(x, dims, keepdim), x.options());
  if (out.numel() == 0) return out;
  const DType dtype = to_kw_dtype(x.scalar_type());
  launch_on(
      op, x.device(),
      [&] { cpu::logsumexp_forward(dtype, v.x.const_data_ptr(), out.data_ptr(), v.g, nullptr); },
      [&](void* stream) {
#ifdef KW_WITH_CUDA
        const int64_t bytes = cuda::logsumexp_workspace_bytes(dtype, v.g);
        at::Tensor ws;
        if (bytes > 0) ws = at::empty({bytes}, x.options().dtype(at::kByte));
        return cuda::logsumexp_forward(dtype, v.x.const_data_ptr(), out.data_ptr(), v.g,
                                       bytes > 0 ? ws.data_ptr() : nullptr, stream);
#else
        return 0;
#endif
      });
  return out;
}

at::Tensor logsumexp_backward(const at::Tensor& grad, const at::Tensor& x,
                              const at::Tensor& result, at::IntArrayRef dim, bool keepdim) {
  const char* op = "logsumexp_backward";
  check_floating(op, "grad", grad);
  check_floating(op, "x", x);
  check_floating(op, "result", result);
  const at::Tensor* ts[3] = {&grad, &x, &result};
  const char* const names[3] = {"grad", "x", "result"};
  common_device(op, ts, names);
  const auto dims = normalize_dims(op, x, dim);
  const auto out_shape = reduced_shape(x, dims, keepdim);
  TORCH_CHECK_VALUE(grad.sizes() == at::IntArrayRef(out_shape) &&
                        result.sizes() == at::IntArrayRef(out_shape),
                    "kernelwright.", op, "(): 'grad' and 'result' must have the reduced shape ",
                    shape_str(out_shape), ", got ", shape_str(grad.sizes()), " and ",
                    shape_str(result.sizes()));
  const LseView v = make_view(x, dims);
  const at::Tensor g = grad.to(x.scalar_type()).contiguous();
  const at::Tensor r = result.to(x.scalar_type()).contiguous();
  at::Tensor gx = at::empty(v.x.sizes(), x.options().memory_format(at::MemoryFormat::Contiguous));
  if (gx.numel() > 0) {
    const DType dtype = to_kw_dtype(x.scalar_type());
    launch_on(
        op, x.device(),
        [&] {
          cpu::logsumexp_backward(dtype, g.const_data_ptr(), v.x.const_data_ptr(),
                                  r.const_data_ptr(), gx.data_ptr(), v.g);
        },
        [&](void* stream) {
#ifdef KW_WITH_CUDA
          return cuda::logsumexp_backward(dtype, g.const_data_ptr(), v.x.const_data_ptr(),
                                          r.const_data_ptr(), gx.data_ptr(), v.g, stream);
#else
          return 0;
#endif
        });
  }
  if (v.perm.empty()) return gx;
  std::vector<int64_t> inverse(v.perm.size());
  for (size_t i = 0; i < v.perm.size(); ++i) inverse[v.perm[i]] = static_cast<int64_t>(i);
  return gx.permute(inverse).contiguous();
}

}  // namespace kw
