// What linear and linear_prepared share on CUDA: the layout of split operands, their
// conversion, and the GEMM launch.
#pragma once

#ifdef KW_WITH_CUDA
#include <ATen/core/Tensor.h>

#include <cstdint>

#include "kw/gemm.h"

namespace kw {

inline int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// The float32 method for this precision, shape and KERNELWRIGHT_GEMM_SPLIT; kHalf when the GEMM
// goes to cuBLAS. b_prepared: b's split exists already (linear_prepare_weight).
GemmMethod float32_method(int64_t m, int64_t n, int64_t k, bool b_prepared = false);

// Tensor-core instructions between promotions of a split GEMM's partial sums to fp32.
int promotion_interval(bool fp16);

// Elements per segment of a split row of k: a 16-byte multiple.
inline int64_t split_segment(int64_t k, bool fp16) { return round_up(k, fp16 ? 8 : 4); }

// The split of src [rows, k] (any strides) as `rows_out` rows (rows past src's are zero) of
// `parts` (SplitParts) for `method`; for fp16 methods its inverse row scales go to `scale`
// (rows_out floats, zeroed by the caller). Launched on the current stream.
at::Tensor split_rows(const at::Tensor& src, int64_t rows_out, GemmMethod method, SplitParts parts,
                      float* scale);

// Runs g on a's device and stream with the workspace it needs; an exception on a launch error.
// A program (g.program) runs in its compiled kernel where that is loaded; where not, the GEMM
// runs without it (and the kernel is asked for, epilogue_kernels.h): false then, and the caller
// applies the program to the output.
bool launch_gemm(GemmArgs g, const at::Tensor& like);

// Runs the split GEMM g (pointing at a_parts, b_parts and out, [m, g.n] float32) into out. A
// three-product split (kFp16Split3) may run as two GEMMs: the cross products hi*lo + lo*hi on
// cuBLAS into out, then hi*hi on the promoting kernel, which adds them (see gemm_split.cpp).
// Returns launch_gemm's result.
bool launch_split_gemm(GemmArgs g, const at::Tensor& a_parts, const at::Tensor& b_parts,
                       const at::Tensor& out);

// act(a @ w^T + bias) for a [m, k] and w [n, k] converted by linear_prepare_weight (parts,
// scales); an undefined tensor where that path does not apply (csrc/ops/linear_prepared.cpp).
// With `ep`, its program runs in the epilogue in place of act; undefined where no kernel takes it.
struct Epilogue;
at::Tensor prepared_gemm(const at::Tensor& a, int64_t n, const at::Tensor& parts,
                         const at::Tensor& scales, const at::Tensor& bias, Activation act,
                         const Epilogue* ep = nullptr);

}  // namespace kw
#endif
