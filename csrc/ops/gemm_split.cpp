#ifdef KW_WITH_CUDA
#include "gemm_split.h"

#include <ATen/Context.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/mm.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "epilogue_kernels.h"
#include "launch.h"

namespace kw {

// The default is 128 of k for fp16 (two k-tiles), 32 for TF32 (one), measured at 0.2-0.4x cuBLAS
// fp32's error (benchmarks/results/gemm_precision_*). KERNELWRIGHT_GEMM_PROMOTION_INTERVAL (a
// multiple of 4) trades accuracy for speed, for measuring that frontier.
int promotion_interval(bool fp16) {
  const char* env = std::getenv("KERNELWRIGHT_GEMM_PROMOTION_INTERVAL");
  const int v = env ? std::atoi(env) : 0;
  return v > 0 && v % 4 == 0 ? v : (fp16 ? 8 : 4);
}

// How a float32 GEMM uses the tensor cores (KERNELWRIGHT_GEMM_SPLIT). 'fp16' converts the
// operands to fp16 after scaling each row by a power of two: 'highest' multiplies three products
// of their hi and lo halves, 'high' and 'medium' one product of the hi halves, which keeps
// TF32's 11 bits at twice its tensor rate. 'tf32' runs 3xTF32 at 'highest' and one TF32 pass
// otherwise. 'auto' takes fp16 where the conversion pays off, else 'off': cuBLAS at the
// precision asked. fp16's 5-bit exponent is shared per row (see docs/linear.md): 'tf32' keeps a
// per-element exponent for rows whose entries span more than 2^17 ('highest') or 2^28 (one
// product).
enum class Split { kAuto, kFp16, kTf32, kOff };

Split split_choice() {
  const char* env = std::getenv("KERNELWRIGHT_GEMM_SPLIT");
  const std::string v = env ? env : "";
  if (v.empty() || v == "auto") return Split::kAuto;
  if (v == "fp16") return Split::kFp16;
  if (v == "tf32") return Split::kTf32;
  if (v == "off") return Split::kOff;
  TORCH_CHECK_VALUE(false, "kernelwright.linear(): environment variable KERNELWRIGHT_GEMM_SPLIT "
                    "must be 'auto', 'fp16', 'tf32' or 'off', but is '", v, "'");
}

// The conversion reads each operand element (4 bytes) and writes 2 bytes per fp16 product;
// what it saves grows with the products each element feeds, m*n/(m+n) of them per k. Three
// products replace cuBLAS fp32 at about 9x its rate, one product replaces TF32 at 2x, so one
// product needs more reuse. Crossovers measured on H200 (benchmarks/results/
// gemm_split_crossover_*, gemm_high_crossover_*): three products 0.57-0.93x cuBLAS fp32 at
// 63-128, 1.58x at 248; one product 0.82-0.87x cuBLAS TF32 at 482-512, 1.07-1.10x at 910-964.
bool conversion_pays_off(int64_t m, int64_t n, bool single_product) {
  const double reuse = static_cast<double>(m) * n / static_cast<double>(m + n);
  return reuse >= (single_product ? 768.0 : 192.0);
}

// Below about 2^31 multiply-adds a three-product split loses to cuBLAS fp32 whatever the
// shape: its conversions and GEMM cost a few tens of microseconds however small the product.
// H100 (gemm_split_crossover_nvidia-h100-80gb-hbm3_2026-11-27, the split forced): 0.54x cuBLAS
// fp32 at 512^3, 0.88x at 1024^3, 1.16x at 1024 x 2048 x 1024, 2.35x at 2048^3.
bool enough_work_for_three(int64_t m, int64_t n, int64_t k) {
  return static_cast<double>(m) * n * k >= 2147483648.0;
}

// A weight converted once (linear_prepare_weight) leaves a's conversion alone to pay, which n
// products per element repay; what remains is reading b: 6 bytes an element for three fp16
// products, 2 for one, against cuBLAS's 4 (fp32 or TF32), which small m leaves bound by that
// read. At k = n = 8192 on H100 (benchmarks/results/gemm_*_crossover_*): three products against
// cuBLAS fp32 0.96x at m = 64, 0.97x at 80, 1.58x at 96 and 1.59x at 128 (2.30x at 128 x 32768
// x 32768); one product against cuBLAS TF32 0.72x at 64, 1.00x at 96, 0.95x at 128, 1.06x at 256.
bool prepared_pays_off(int64_t m, bool single_product) { return m >= (single_product ? 256 : 96); }

GemmMethod float32_method(int64_t m, int64_t n, int64_t k, bool b_prepared) {
  const bool highest =
      at::globalContext().float32MatmulPrecision() == at::Float32MatmulPrecision::HIGHEST;
  const Split choice = split_choice();
  const bool pays_off = (b_prepared ? prepared_pays_off(m, !highest)
                                    : conversion_pays_off(m, n, !highest)) &&
                        (!highest || enough_work_for_three(m, n, k));
  const bool fp16 = choice == Split::kFp16 || (choice == Split::kAuto && pays_off);
  if (highest) {
    if (fp16) return GemmMethod::kFp16Split3;
    return choice == Split::kTf32 ? GemmMethod::kTf32Split3 : GemmMethod::kHalf;
  }
  if (fp16) return GemmMethod::kFp16Scaled;
  return choice == Split::kTf32 ? GemmMethod::kTf32 : GemmMethod::kHalf;
}

at::Tensor split_rows(const at::Tensor& src, int64_t rows_out, GemmMethod method, SplitParts parts,
                      float* scale) {
  const bool fp16 = method != GemmMethod::kTf32Split3;
  const int64_t rows = src.size(0), k = src.size(1);
  const int64_t seg = split_segment(k, fp16);
  const int64_t width = (parts == SplitParts::kHi ? 1 : 3) * seg;
  at::Tensor out = at::empty({rows_out, width}, src.options().dtype(fp16 ? at::kHalf : at::kFloat));
  // Rows past src's give output columns that are cut off: zeros keep what they compute finite.
  if (rows_out > rows) out.narrow(0, rows, rows_out - rows).zero_();
  at::Tensor row_max;
  if (fp16) row_max = at::empty({std::max<int64_t>(rows, 1)}, src.options().dtype(at::kInt));
  auto* scratch = fp16 ? reinterpret_cast<unsigned*>(row_max.data_ptr<int>()) : nullptr;
  const int err = cuda::split_operand(fp16 ? SplitFormat::kFp16 : SplitFormat::kTf32,
                                      src.data_ptr<float>(), rows, k, src.stride(0), src.stride(1),
                                      out.data_ptr(), seg, parts, scale, scratch,
                                      current_cuda_stream(src.device()));
  TORCH_CHECK(err == 0, "kernelwright.linear(): CUDA kernel launch failed: ",
              cuda_error_string(err));
  return out;
}

bool launch_gemm(GemmArgs g, const at::Tensor& like) {
  if (g.program != nullptr) {
    g.kernel = find_epilogue_kernel(*g.program, cuda::epilogue_variant(g));
    if (g.kernel == nullptr) g.program = nullptr;
  }
  at::Tensor workspace;
  const size_t ws = cuda::gemm_workspace_bytes(g);
  if (ws > 0) workspace = at::empty({static_cast<int64_t>(ws)}, like.options().dtype(at::kByte));
  const int err = cuda::gemm(g, ws > 0 ? workspace.data_ptr() : nullptr,
                             current_cuda_stream(like.device()));
  TORCH_CHECK(err == 0, "kernelwright.linear(): CUDA kernel launch failed: ",
              cuda_error_string(err));
  return g.program != nullptr;
}

// The cross products of a three-product split, hi*lo + lo*hi, are 2^-11 of hi*hi: the tensor
// cores' truncating accumulation costs them little (error 0.15x cuBLAS fp32's at 8192^3, fused
// 0.23x), so only hi*hi needs the promoting kernel, and the cross products can run on cuBLAS's
// faster fp16 GEMM (float32 out, written into the output, which the promoting kernel then reads
// as its source). That costs a launch and 8 more bytes per output element, which a long k and
// much work repay; cuBLAS's fp16 GEMM also wants n a multiple of 8. H100, apart against fused
// (gemm_split_crossover_*_2026-11-27): 6.31 against 8.31 ms at 8192^3, 53.1 against 89.4 at
// 16384^3, 1.43 against 1.77 at 1024 x 65536 x 1024; slower at 2048^3 (0.183 against 0.163),
// with 128 or 256 rows (0.537 against 0.520 at 128 x 8192 x 8192; level-2 56 and 59, 128 x 32768
// x 32768, 2.20x eager against 2.29x) and with n = 5924 (4.01 against 2.48 ms at 8205 x 2949 x
// 5921, 2.03 against 2.23 with n = 5928: the n_major_b files).
// KERNELWRIGHT_GEMM_CROSS: 'apart' (always), 'fused' (never: one promoting GEMM over 3K), 'auto'.
bool cross_products_apart(int64_t m, int64_t n, int64_t seg) {
  const char* env = std::getenv("KERNELWRIGHT_GEMM_CROSS");
  const std::string v = env ? env : "";
  if (v == "apart") return true;
  if (v == "fused") return false;
  TORCH_CHECK_VALUE(v.empty() || v == "auto", "kernelwright.linear(): environment variable "
                    "KERNELWRIGHT_GEMM_CROSS must be 'auto', 'apart' or 'fused', but is '", v, "'");
  return n % 8 == 0 && seg >= 1024 && std::min(m, n) >= 1024 &&
         static_cast<double>(m) * n * seg >= 34359738368.0;  // 2^35
}

bool launch_split_gemm(GemmArgs g, const at::Tensor& a_parts, const at::Tensor& b_parts,
                       const at::Tensor& out) {
  if (static_cast<GemmMethod>(g.method) == GemmMethod::kFp16Split3) {
    const int64_t seg = g.k / 3;
    GemmArgs hi = g;
    hi.k = seg;  // the rows' first segments: hi in both [hi, hi, lo] and [hi, lo, hi]
    hi.c = static_cast<const float*>(g.d);
    hi.ldc = g.ldd;
    if (cross_products_apart(g.m, g.n, seg) && cuda::gemm_unsupported(hi) == nullptr) {
      at::Tensor cross = out;
      at::mm_out(cross, a_parts.narrow(1, seg, 2 * seg), b_parts.narrow(1, seg, 2 * seg).t(),
                 at::kFloat);
      return launch_gemm(hi, out);
    }
  }
  return launch_gemm(g, out);
}

}  // namespace kw
#endif
