// A programmed GEMM epilogue (kw::EpilogueProgram) as the torch-facing glue holds it: parsed
// and checked from the op's arguments, run by the Hopper kernels where they take it and by ATen
// ops on the GEMM's result everywhere else.
#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

#include "kw/gemm.h"

namespace kw {

struct Epilogue {
  EpilogueProgram program;
  EpilogueProgram unreduced;  // program with reduce off: what runs where the kernel cannot reduce
  std::vector<at::Tensor> columns;  // [n] each, contiguous
  std::vector<at::Tensor> rows;     // [m] each, contiguous
  std::vector<at::Tensor> fulls;    // [m, n] each, as given (the kernel reads suitable ones in place)
};

// The program of `code` (five ints a step: op, dst, a, b, c) and `consts`, with its vectors
// made contiguous and its full-size operands viewed as [m, n], its rows reduced by `reduce` (an
// EpilogueReduce); a Python exception naming the argument for anything malformed. m: the rows of
// the GEMM, n: its columns.
Epilogue parse_epilogue(const char* op, at::IntArrayRef code, at::ArrayRef<double> consts,
                        at::TensorList columns, at::TensorList rows, at::TensorList fulls,
                        int64_t reduce, int64_t m, int64_t n, const at::Tensor& like);

// The program run on z [m, n] with ATen ops, in z's dtype.
at::Tensor run_epilogue_aten(const at::Tensor& z, const Epilogue& e);

// A GEMM's output [m, n_pad] as [m, n], with e's program applied where the GEMM's kernel did
// not run it (ran_program false; e may be null). Where the kernel ran and wrote row partials
// (`partials` defined: attach_epilogue's), those instead, as [m, tiles] (a logsumexp's pairs as
// each tile's logsumexp): for a program that reduces its rows, either result's rows reduced
// give the answer.
at::Tensor finish_output(const at::Tensor& out, int64_t n, const Epilogue* e, bool ran_program,
                         const at::Tensor& partials = at::Tensor());

#ifdef KW_WITH_CUDA
// Points g at e's program and operands, as float32, the column vectors padded with zeros to g.n
// columns where the output is padded; the copies are kept in `held` until the launch. A
// full-size operand is read in place, so where TMA cannot read it (not float32, rows not
// 16-byte aligned, or the output padded past its columns) g gets no program, which then runs
// after the GEMM. For a program that reduces its rows, returns the row partials' buffer
// g.partials points at (on like's device), or an undefined tensor where the kernel writes the
// output (padded columns would join the rows).
at::Tensor attach_epilogue(GemmArgs& g, const Epilogue& e, int64_t n, const at::Tensor& like,
                           std::vector<at::Tensor>& held);
#endif

}  // namespace kw
