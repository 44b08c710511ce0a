// Chooses the Hopper GEMM kernel for a linear call, or says why none applies (the caller then
// falls back to cuBLAS through ATen). This file includes no CUTLASS headers: the kernels live in
// linear_<kind>.cu, compiled in parallel.
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>

#include "kw/elementwise_args.h"
#include "kw/gemm.h"

namespace kw {
namespace cuda {

int compute_capability();

#if defined(KW_WITH_CUTLASS) && defined(KW_SM90A)
#define KW_DECLARE_LINEAR(Kind)                       \
  const char* Kind##_unsupported(const GemmArgs& g);  \
  size_t Kind##_workspace_bytes(const GemmArgs& g);   \
  int Kind##_run(const GemmArgs& g, void* workspace, void* stream);
KW_DECLARE_LINEAR(linear_tf32)
KW_DECLARE_LINEAR(linear_tf32_split3)
KW_DECLARE_LINEAR(linear_fp16_split3)
KW_DECLARE_LINEAR(linear_fp16_hi_sourced)
KW_DECLARE_LINEAR(linear_fp16_scaled)
KW_DECLARE_LINEAR(linear_bf16)
KW_DECLARE_LINEAR(linear_fp16)
#undef KW_DECLARE_LINEAR

namespace {

enum class Kind {
  kNone, kTf32, kTf32Split3, kFp16Split3, kFp16HiSourced, kFp16Scaled, kBf16, kFp16,
  kFp16Split3Program, kFp16HiSourcedProgram, kFp16ScaledProgram
};

// A programmed epilogue has twins of the float32 kernels that 'highest' and 'high' run.
Kind programmed_kind_of(const GemmArgs& g) {
  const auto method = static_cast<GemmMethod>(g.method);
  if (static_cast<DType>(g.dtype) != DType::Float32) return Kind::kNone;
  if (method == GemmMethod::kFp16Split3)
    return g.c != nullptr ? Kind::kFp16HiSourcedProgram : Kind::kFp16Split3Program;
  if (method == GemmMethod::kFp16Scaled) return Kind::kFp16ScaledProgram;
  return Kind::kNone;
}

Kind kind_of(const GemmArgs& g) {
  if (g.program != nullptr) return programmed_kind_of(g);
  const auto dtype = static_cast<DType>(g.dtype);
  const auto method = static_cast<GemmMethod>(g.method);
  if (dtype == DType::Float32 && method == GemmMethod::kTf32) return Kind::kTf32;
  if (dtype == DType::Float32 && method == GemmMethod::kTf32Split3) return Kind::kTf32Split3;
  if (dtype == DType::Float32 && method == GemmMethod::kFp16Split3)
    return g.c != nullptr ? Kind::kFp16HiSourced : Kind::kFp16Split3;
  if (dtype == DType::Float32 && method == GemmMethod::kFp16Scaled) return Kind::kFp16Scaled;
  if (dtype == DType::BFloat16 && method == GemmMethod::kHalf) return Kind::kBf16;
  if (dtype == DType::Float16 && method == GemmMethod::kHalf) return Kind::kFp16;
  return Kind::kNone;
}

bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

}  // namespace

const char* gemm_unsupported(const GemmArgs& g) {
  const Kind kind = kind_of(g);
  if (kind == Kind::kNone)
    return g.program != nullptr ? "no programmed epilogue for this dtype and method"
                                : "no tensor-core kernel for this dtype and method";
  if (compute_capability() != 90) return "the GEMM kernels are built for Hopper (sm_90a) only";
  if (g.m <= 0 || g.n <= 0 || g.k <= 0) return "an empty dimension";
  if (g.m > INT_MAX || g.n > INT_MAX || g.k > INT_MAX) return "a dimension over 2^31";
  // 16 bytes in elements, for TMA: of the operands along k, of the output and bias along n.
  const int64_t align_d = static_cast<DType>(g.dtype) == DType::Float32 ? 4 : 8;
  const int64_t align_ab = kind == Kind::kTf32 || kind == Kind::kTf32Split3 ? 4 : 8;
  if (g.k % align_ab || g.lda % align_ab || g.ldb % align_ab || g.n % align_d || g.ldd % align_d)
    return "k, n and the row strides must be multiples of 16 bytes for TMA";
  if (!aligned16(g.a) || !aligned16(g.b) || !aligned16(g.d) || (g.bias && !aligned16(g.bias)))
    return "operands must be 16-byte aligned for TMA";
  const bool programmed = g.program != nullptr;
  const bool scaled = kind == Kind::kFp16Split3 || kind == Kind::kFp16HiSourced ||
                      kind == Kind::kFp16Scaled || programmed;
  if (scaled && (g.a_scale == nullptr || !aligned16(g.b_scale)))
    return "row scales missing or misaligned";
  if ((kind == Kind::kFp16HiSourced || kind == Kind::kFp16HiSourcedProgram) &&
      (!aligned16(g.c) || g.ldc % 4))
    return "the cross products must be 16-byte aligned, rows too";
  if (programmed) {
    const EpilogueProgram& p = *g.program;
    if (g.activation != static_cast<int>(Activation::kNone))
      return "a programmed epilogue takes no activation";
    if (p.length < 0 || p.length > kEpilogueSteps) return "an epilogue program of too many steps";
    if (!aligned16(g.columns[0]) || !aligned16(g.columns[1]))
      return "the epilogue's column vectors must be 16-byte aligned";
    if (g.kernel != nullptr) return g.kernel->unsupported(g);
    // Not compiled yet: the program's kernel takes what its plain twin takes.
    GemmArgs plain = g;
    plain.program = nullptr;
    return gemm_unsupported(plain);
  }
  switch (kind) {
    case Kind::kTf32: return linear_tf32_unsupported(g);
    case Kind::kTf32Split3: return linear_tf32_split3_unsupported(g);
    case Kind::kFp16Split3: return linear_fp16_split3_unsupported(g);
    case Kind::kFp16HiSourced: return linear_fp16_hi_sourced_unsupported(g);
    case Kind::kFp16Scaled: return linear_fp16_scaled_unsupported(g);
    case Kind::kBf16: return linear_bf16_unsupported(g);
    default: return linear_fp16_unsupported(g);
  }
}

const char* epilogue_variant(const GemmArgs& g) {
  const Kind kind = programmed_kind_of(g);
  if (kind == Kind::kNone) return nullptr;
  const bool promoted = kind != Kind::kFp16ScaledProgram;
  const bool sourced = kind == Kind::kFp16HiSourcedProgram;
  const bool stream_k = stream_k_pays_off(g.m, g.n, kFp16TileM, kFp16TileN);
#define KW_VARIANT_NAME(name, p, s, k) \
  if (promoted == p && sourced == s && stream_k == k) return #name;
  KW_EPILOGUE_VARIANTS(KW_VARIANT_NAME)
#undef KW_VARIANT_NAME
  return nullptr;
}

size_t gemm_workspace_bytes(const GemmArgs& g) {
  if (g.program != nullptr) return g.kernel != nullptr ? g.kernel->workspace_bytes(g) : 0;
  switch (kind_of(g)) {
    case Kind::kTf32: return linear_tf32_workspace_bytes(g);
    case Kind::kTf32Split3: return linear_tf32_split3_workspace_bytes(g);
    case Kind::kFp16Split3: return linear_fp16_split3_workspace_bytes(g);
    case Kind::kFp16HiSourced: return linear_fp16_hi_sourced_workspace_bytes(g);
    case Kind::kFp16Scaled: return linear_fp16_scaled_workspace_bytes(g);
    case Kind::kBf16: return linear_bf16_workspace_bytes(g);
    case Kind::kFp16: return linear_fp16_workspace_bytes(g);
    default: return 0;
  }
}

int gemm(const GemmArgs& g, void* workspace, void* stream) {
  if (g.program != nullptr)
    return g.kernel != nullptr ? g.kernel->run(g, workspace, stream)
                               : static_cast<int>(cudaErrorNotSupported);
  switch (kind_of(g)) {
    case Kind::kTf32: return linear_tf32_run(g, workspace, stream);
    case Kind::kTf32Split3: return linear_tf32_split3_run(g, workspace, stream);
    case Kind::kFp16Split3: return linear_fp16_split3_run(g, workspace, stream);
    case Kind::kFp16HiSourced: return linear_fp16_hi_sourced_run(g, workspace, stream);
    case Kind::kFp16Scaled: return linear_fp16_scaled_run(g, workspace, stream);
    case Kind::kBf16: return linear_bf16_run(g, workspace, stream);
    case Kind::kFp16: return linear_fp16_run(g, workspace, stream);
    default: return static_cast<int>(cudaErrorNotSupported);
  }
}

#else  // no CUTLASS or no sm_90a code in this build

const char* gemm_unsupported(const GemmArgs&) {
#ifndef KW_WITH_CUTLASS
  return "kernelwright was built without CUTLASS (pip install nvidia-cutlass, then rebuild)";
#else
  return "kernelwright was built without sm_90a code (TORCH_CUDA_ARCH_LIST lacks 9.0a)";
#endif
}
const char* epilogue_variant(const GemmArgs&) { return nullptr; }
size_t gemm_workspace_bytes(const GemmArgs&) { return 0; }
int gemm(const GemmArgs&, void*, void*) { return static_cast<int>(cudaErrorNotSupported); }

#endif

}  // namespace cuda
}  // namespace kw
