// The compiled kernels of GEMM epilogue programs, which kernelwright/ops/_epilogue_kernels.py
// builds on first use (kw/cuda/epilogue_linked.cuh) and loads here, found by program and variant
// at each launch.
#pragma once

#include <string>
#include <vector>

#include "kw/gemm.h"

namespace kw {

// "<variant>:<op>,<dst>,<a>,<b>,<c>;..." for each step, then "|<reduce>" where the program's
// rows are reduced: the program's code with the variant of the kernel it runs in; the constants
// are the kernel's arguments, not part of its key.
std::string epilogue_kernel_key(const EpilogueProgram& program, const char* variant);

// The loaded kernel for `program` in `variant`, or null; a key asked for and not loaded is
// kept for take_wanted_epilogue_kernels, once.
const GemmKernel* find_epilogue_kernel(const EpilogueProgram& program, const char* variant);

// The keys asked for since the last call, each once per process.
std::vector<std::string> take_wanted_epilogue_kernels();

// Loads the kernel of program `key`: the cubin at `image`, launched by the library of its
// program's shape at `library` (kw_epilogue_link); a Python RuntimeError where either cannot be
// loaded or the library was built from other headers.
void load_epilogue_kernel(const std::string& library, const std::string& image, const std::string& key);

}  // namespace kw
