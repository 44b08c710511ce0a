// Parsing, checking and the ATen twin of a programmed GEMM epilogue (see epilogue.h).
#include "epilogue.h"

#include <ATen/ops/abs.h>
#include <ATen/ops/add.h>
#include <ATen/ops/ceil.h>
#include <ATen/ops/cos.h>
#include <ATen/ops/div.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/eq.h>
#include <ATen/ops/erf.h>
#include <ATen/ops/exp.h>
#include <ATen/ops/expm1.h>
#include <ATen/ops/floor.h>
#include <ATen/ops/ge.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/gt.h>
#include <ATen/ops/le.h>
#include <ATen/ops/log.h>
#include <ATen/ops/log1p.h>
#include <ATen/ops/lt.h>
#include <ATen/ops/maximum.h>
#include <ATen/ops/minimum.h>
#include <ATen/ops/mul.h>
#include <ATen/ops/ne.h>
#include <ATen/ops/neg.h>
#include <ATen/ops/pow.h>
#include <ATen/ops/reciprocal.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/rsqrt.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/sigmoid.h>
#include <ATen/ops/sign.h>
#include <ATen/ops/sin.h>
#include <ATen/ops/sqrt.h>
#include <ATen/ops/sub.h>
#include <ATen/ops/tanh.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros.h>

#include <cstdint>
#include <string>

#include "gemm_split.h"
#include "kw/tensor_checks.h"

namespace kw {
namespace {

constexpr int kFields = 5;  // op, dst, a, b, c

void check_vector(const char* op, const char* arg, size_t j, const at::Tensor& t, int64_t len,
                  const char* along, const at::Tensor& like) {
  const std::string name = std::string(arg) + "[" + std::to_string(j) + "]";
  check_floating(op, name.c_str(), t);
  TORCH_CHECK_VALUE(t.device() == like.device(), "kernelwright.", op, "(): argument '", name,
                    "' is on ", t.device(), " but argument 'x' is on ", like.device(),
                    "; tensors must be on the same device");
  TORCH_CHECK_VALUE(t.dim() == 1 && t.size(0) == len, "kernelwright.", op, "(): argument '", name,
                    "' must have shape [", num(len), "] (one value per ", along,
                    " of the output), but has shape ", shape_str(t.sizes()));
}

}  // namespace

Epilogue parse_epilogue(const char* op, at::IntArrayRef code, at::ArrayRef<double> consts,
                        at::TensorList columns, at::TensorList rows, at::TensorList fulls,
                        int64_t reduce, int64_t m, int64_t n, const at::Tensor& like) {
  const int64_t steps = static_cast<int64_t>(code.size()) / kFields;
  TORCH_CHECK_VALUE(code.size() % kFields == 0 && steps <= kEpilogueSteps, "kernelwright.", op,
                    "(): argument 'code' must hold five ints a step (op, dst, a, b, c), at most ",
                    num(kEpilogueSteps), " steps, but holds ", num(code.size()), " ints");
  TORCH_CHECK_VALUE(consts.size() <= static_cast<size_t>(kEpilogueConsts), "kernelwright.", op,
                    "(): argument 'consts' may hold at most ", num(kEpilogueConsts),
                    " values, but holds ", num(consts.size()));
  TORCH_CHECK_VALUE(columns.size() <= 2 && rows.size() <= 2, "kernelwright.", op,
                    "(): arguments 'columns' and 'rows' may hold two vectors each, but hold ",
                    num(columns.size()), " and ", num(rows.size()));
  TORCH_CHECK_VALUE(fulls.size() <= 2, "kernelwright.", op,
                    "(): argument 'fulls' may hold two tensors, but holds ", num(fulls.size()));
  TORCH_CHECK_VALUE(reduce >= 0 && reduce <= static_cast<int64_t>(EpilogueReduce::kLogSumExp),
                    "kernelwright.", op, "(): argument 'reduce' must be 0 (none), 1 (sum), 2 (max), "
                    "3 (min) or 4 (logsumexp), but is ", num(reduce));
  Epilogue e{};
  e.program.length = static_cast<int32_t>(steps);
  for (size_t j = 0; j < consts.size(); ++j) e.program.consts.v[j] = static_cast<float>(consts[j]);
  const int64_t sources = kConst + static_cast<int64_t>(consts.size());
  for (int64_t s = 0; s < steps; ++s) {
    const int64_t* f = code.data() + s * kFields;
    const bool valid = f[0] >= 0 && f[0] < static_cast<int64_t>(EpilogueOp::kCount) && f[1] >= 0 &&
                       f[1] < kEpilogueRegisters && f[2] >= 0 && f[2] < sources && f[3] >= 0 &&
                       f[3] < sources && f[4] >= 0 && f[4] < sources;
    TORCH_CHECK_VALUE(valid, "kernelwright.", op, "(): argument 'code': step ",
                      num(s), " (", num(f[0]), ", ", num(f[1]), ", ", num(f[2]), ", ", num(f[3]),
                      ", ", num(f[4]), ") names an unknown op, register or source");
    EpilogueStep& step = e.program.steps[s];
    step.op = static_cast<int8_t>(f[0]);
    step.dst = static_cast<int8_t>(f[1]);
    step.a = static_cast<int8_t>(f[2]);
    step.b = static_cast<int8_t>(f[3]);
    step.c = static_cast<int8_t>(f[4]);
  }
  e.unreduced = e.program;
  e.program.reduce = static_cast<int32_t>(reduce);
  for (size_t j = 0; j < columns.size(); ++j) {
    check_vector(op, "columns", j, columns[j], n, "column", like);
    e.columns.push_back(columns[j].contiguous());
  }
  for (size_t j = 0; j < rows.size(); ++j) {
    check_vector(op, "rows", j, rows[j], m, "row", like);
    e.rows.push_back(rows[j].contiguous());
  }
  for (size_t j = 0; j < fulls.size(); ++j) {
    const at::Tensor& f = fulls[j];
    const std::string name = "fulls[" + std::to_string(j) + "]";
    check_floating(op, name.c_str(), f);
    TORCH_CHECK_VALUE(f.device() == like.device(), "kernelwright.", op, "(): argument '", name,
                      "' is on ", f.device(), " but argument 'x' is on ", like.device(),
                      "; tensors must be on the same device");
    TORCH_CHECK_VALUE(f.dim() >= 1 && f.size(-1) == n && f.numel() == m * n, "kernelwright.", op,
                      "(): argument '", name, "' must have the output's shape (", num(m), " rows of ",
                      num(n), " columns), but has shape ", shape_str(f.sizes()));
    e.fulls.push_back(f.dim() == 2 ? f : f.reshape({m, n}));
  }
  return e;
}

at::Tensor run_epilogue_aten(const at::Tensor& z, const Epilogue& e) {
  const auto opts = z.options();
  at::Tensor reg[kEpilogueRegisters] = {z, at::zeros({}, opts), at::zeros({}, opts),
                                        at::zeros({}, opts)};
  auto vector = [&](const std::vector<at::Tensor>& vs, size_t j, bool along_n) {
    if (j >= vs.size()) return at::zeros({}, opts);  // an absent vector reads 0, as in the kernel
    const at::Tensor v = vs[j].to(z.scalar_type());
    return along_n ? v.view({1, -1}) : v.view({-1, 1});
  };
  auto fetch = [&](int src) -> at::Tensor {
    if (src < kColumn0) return reg[src];
    if (src < kRow0) return vector(e.columns, src - kColumn0, true);
    if (src < kFull0) return vector(e.rows, src - kRow0, false);
    if (src < kConst) {
      const size_t j = static_cast<size_t>(src - kFull0);
      return j < e.fulls.size() ? e.fulls[j].to(z.scalar_type()) : at::zeros({}, opts);
    }
    // The kernel reads constants as float: so does its twin.
    return at::scalar_tensor(static_cast<double>(e.program.consts.v[src - kConst]), opts);
  };
  for (int s = 0; s < e.program.length; ++s) {
    const EpilogueStep& step = e.program.steps[s];
    const at::Tensor a = fetch(step.a), b = fetch(step.b), c = fetch(step.c);
    at::Tensor out;
    switch (static_cast<EpilogueOp>(step.op)) {
      case EpilogueOp::kCopy: out = a; break;
      case EpilogueOp::kNeg: out = at::neg(a); break;
      case EpilogueOp::kAbs: out = at::abs(a); break;
      case EpilogueOp::kExp: out = at::exp(a); break;
      case EpilogueOp::kExpm1: out = at::expm1(a); break;
      case EpilogueOp::kLog: out = at::log(a); break;
      case EpilogueOp::kLog1p: out = at::log1p(a); break;
      case EpilogueOp::kSqrt: out = at::sqrt(a); break;
      case EpilogueOp::kRsqrt: out = at::rsqrt(a); break;
      case EpilogueOp::kRecip: out = at::reciprocal(a); break;
      case EpilogueOp::kSin: out = at::sin(a); break;
      case EpilogueOp::kCos: out = at::cos(a); break;
      case EpilogueOp::kTanh: out = at::tanh(a); break;
      case EpilogueOp::kSigmoid: out = at::sigmoid(a); break;
      case EpilogueOp::kErf: out = at::erf(a); break;
      case EpilogueOp::kRelu: out = at::relu(a); break;
      case EpilogueOp::kGelu: out = at::gelu(a, "none"); break;
      case EpilogueOp::kGeluTanh: out = at::gelu(a, "tanh"); break;
      case EpilogueOp::kFloor: out = at::floor(a); break;
      case EpilogueOp::kCeil: out = at::ceil(a); break;
      case EpilogueOp::kSign: out = at::sign(a); break;
      case EpilogueOp::kAdd: out = at::add(a, b); break;
      case EpilogueOp::kSub: out = at::sub(a, b); break;
      case EpilogueOp::kMul: out = at::mul(a, b); break;
      case EpilogueOp::kDiv: out = at::div(a, b); break;
      case EpilogueOp::kMaximum: out = at::maximum(a, b); break;
      case EpilogueOp::kMinimum: out = at::minimum(a, b); break;
      case EpilogueOp::kPow: out = at::pow(a, b); break;
      case EpilogueOp::kClampMin: out = at::where(at::lt(a, b), b, a); break;
      case EpilogueOp::kClampMax: out = at::where(at::gt(a, b), b, a); break;
      case EpilogueOp::kLt: out = at::lt(a, b).to(z.scalar_type()); break;
      case EpilogueOp::kLe: out = at::le(a, b).to(z.scalar_type()); break;
      case EpilogueOp::kGt: out = at::gt(a, b).to(z.scalar_type()); break;
      case EpilogueOp::kGe: out = at::ge(a, b).to(z.scalar_type()); break;
      case EpilogueOp::kEq: out = at::eq(a, b).to(z.scalar_type()); break;
      case EpilogueOp::kNe: out = at::ne(a, b).to(z.scalar_type()); break;
      case EpilogueOp::kWhere: out = at::where(at::ne(a, 0), b, c); break;
      case EpilogueOp::kSoftplus: {
        const at::Tensor ab = at::mul(a, b);
        out = at::where(at::gt(ab, c), a, at::div(at::log1p(at::exp(ab)), b));
        break;
      }
      default: out = a; break;
    }
    reg[step.dst] = out;
  }
  return reg[0].sizes() == z.sizes() ? reg[0].contiguous() : reg[0].expand(z.sizes()).contiguous();
}

at::Tensor finish_output(const at::Tensor& out, int64_t n, const Epilogue* e, bool ran_program,
                         const at::Tensor& partials) {
  if (ran_program && partials.defined()) {
    const int64_t m = out.size(0), rows = (m + kFp16TileM - 1) / kFp16TileM * kFp16TileM;
    if (e->program.reduce != static_cast<int32_t>(EpilogueReduce::kLogSumExp)) {
      return partials.view({-1, rows}).narrow(1, 0, m).t();
    }
    // Each tile's (max, sum of exp(x - max)) as its logsumexp, which the rows' logsumexp finishes.
    const at::Tensor pairs = partials.view({-1, rows, 2}).narrow(1, 0, m);
    return at::add(pairs.select(2, 0), at::log(pairs.select(2, 1))).t();
  }
  const at::Tensor y = out.size(1) == n ? out : out.narrow(1, 0, n).contiguous();
  return e != nullptr && !ran_program ? run_epilogue_aten(y, *e) : y;
}

#ifdef KW_WITH_CUDA
namespace {

// Whether TMA can read f [m, n] in place as the epilogue's full-size operand of a GEMM whose
// output has g.n columns: float32, unit column stride, rows of 16-byte multiples from a 16-byte
// aligned start, no padded output columns to read past the last row's end, and elements to read
// (a tensor map has no empty dims).
bool full_readable(const at::Tensor& f, const GemmArgs& g, int64_t n) {
  return g.n == n && f.numel() > 0 && f.scalar_type() == at::kFloat && f.stride(1) == 1 && f.stride(0) >= n &&
         f.stride(0) % 4 == 0 && reinterpret_cast<uintptr_t>(f.data_ptr()) % 16 == 0;
}

}  // namespace

at::Tensor attach_epilogue(GemmArgs& g, const Epilogue& e, int64_t n, const at::Tensor& like,
                           std::vector<at::Tensor>& held) {
  for (const at::Tensor& f : e.fulls) {
    if (!full_readable(f, g, n)) return at::Tensor();  // g.program stays null: the program runs after
  }
  for (size_t j = 0; j < e.fulls.size(); ++j) {
    g.fulls[j] = e.fulls[j].data_ptr<float>();
    g.ld_fulls[j] = e.fulls[j].stride(0);
  }
  const bool reduced = e.program.reduce != 0 && g.n == n;
  g.program = reduced || e.program.reduce == 0 ? &e.program : &e.unreduced;
  for (size_t j = 0; j < e.columns.size(); ++j) {
    at::Tensor c = e.columns[j].to(at::kFloat);
    if (g.n > n) {
      at::Tensor padded = at::zeros({g.n}, c.options());
      padded.narrow(0, 0, n).copy_(c);
      c = padded;
    }
    held.push_back(c);
    g.columns[j] = c.data_ptr<float>();
  }
  for (size_t j = 0; j < e.rows.size(); ++j) {
    held.push_back(e.rows[j].to(at::kFloat));
    g.rows[j] = held.back().data_ptr<float>();
  }
  if (!reduced) return at::Tensor();
  const int64_t tiles = (g.n + kFp16TileN - 1) / kFp16TileN;
  const int64_t floats = e.program.reduce == static_cast<int32_t>(EpilogueReduce::kLogSumExp) ? 2 : 1;
  at::Tensor partials =
      at::empty({tiles * round_up(g.m, kFp16TileM) * floats}, like.options().dtype(at::kFloat));
  g.partials = partials.data_ptr<float>();
  return partials;
}
#endif

}  // namespace kw
