// The linear (GEMM + epilogue) kernels' interface: plain data, so that the glue in csrc/ops
// needs no CUTLASS headers and the .cu files need no torch headers.
#pragma once

#ifdef __CUDACC_RTC__
// NVRTC, which compiles the epilogue's op table with generated code (the reduced rows' finishing
// kernel), has no C++ library headers, nor libcu++'s where the CCCL headers are not installed
// (torch's CUDA wheels): the types from the language itself.
namespace kw {
typedef signed char int8_t;
typedef int int32_t;
typedef long long int64_t;
typedef decltype(sizeof(0)) size_t;
}  // namespace kw
#else
#include <cstddef>
#include <cstdint>
#endif

namespace kw {

// Applied in the GEMM epilogue to (x @ w^T + bias), in fp32.
enum class Activation : int { kNone = 0, kRelu = 1, kSigmoid = 2, kGelu = 3, kGeluTanh = 4 };

// How a float32 GEMM uses the tensor cores; chosen from torch's float32 matmul precision.
enum class GemmMethod : int {
  kTf32 = 0,       // one TF32 pass ('high', 'medium')
  kTf32Split3 = 1, // 3xTF32 on split operands with fp32 promotion of partial sums ('highest')
  kHalf = 2,       // fp16/bf16 operands, fp32 accumulation
  kFp16Split3 = 3, // 3 fp16 products on row-scaled split operands, fp32 promotion ('highest')
  kFp16Scaled = 4, // 1 fp16 product on row-scaled operands: TF32's 11 bits ('high', 'medium')
};

// The narrow format of a split operand (see split_operand).
enum class SplitFormat : int { kTf32 = 0, kFp16 = 1 };

// What a split writes per row: for 3-product GEMMs the three segments of a 3K inner dimension,
// [hi, hi, lo] for the left operand and [hi, lo, hi] for the right one, so that one GEMM sums
// hi*hi + hi*lo + lo*hi; for a single product, hi alone.
enum class SplitParts : int { kLeft3 = 0, kRight3 = 1, kHi = 2 };

// A pointwise program the epilogue runs on each element after the bias, in fp32, instead of
// the activation: a register machine whose instructions read any of four registers (r0 holds
// acc + bias on entry, its value on exit is written), a constant, one of two per-column vectors
// (indexed by n), one of two per-row vectors (indexed by m) or one of two full-size operands
// (indexed by m and n: a residual, a gate), and write a register. Each
// program is compiled into its own kernel on first use (kernelwright/ops/_epilogue_kernels.py
// writes it as straight-line code, loaded through GemmKernel): an interpreter paid 12% of a
// 1024 x 8192 x 8192 GEMM for one step and 94% for eight (H100, 2026-11-27), more than running
// the chain after the GEMM. The constants stay arguments, so programs that differ only in them
// share a kernel.
// The ops in code order, X(op) each: the enum below and the code generator's table are made
// from this one list.
#define KW_EPILOGUE_OPS(X)                                                                   \
  /* dst = f(a) */                                                                           \
  X(kCopy) X(kNeg) X(kAbs) X(kExp) X(kExpm1) X(kLog) X(kLog1p) X(kSqrt) X(kRsqrt) X(kRecip) \
  X(kSin) X(kCos) X(kTanh) X(kSigmoid) X(kErf) X(kRelu) X(kGelu) X(kGeluTanh) X(kFloor)      \
  X(kCeil) X(kSign)                                                                          \
  /* dst = f(a, b) */                                                                        \
  X(kAdd) X(kSub) X(kMul) X(kDiv) X(kMaximum) X(kMinimum) X(kPow) X(kClampMin) X(kClampMax)  \
  X(kLt) X(kLe) X(kGt) X(kGe) X(kEq) X(kNe)                                                  \
  /* dst = f(a, b, c): kWhere a != 0 ? b : c; kSoftplus a * b > c ? a : log1p(exp(a * b)) / b \
     (b: beta, c: threshold) */                                                              \
  X(kWhere) X(kSoftplus)

enum class EpilogueOp : int8_t {
#define KW_EPILOGUE_ENUM(op) op,
  KW_EPILOGUE_OPS(KW_EPILOGUE_ENUM)
#undef KW_EPILOGUE_ENUM
  kCount
};

// Where an instruction reads: a register, a vector, a full-size operand, or a constant
// (kConst + j: consts[j]). Two full-size operands at most: each is a tile the epilogue stages in
// shared memory, taken from the main loop's stages.
enum EpilogueSource : int8_t {
  kReg0 = 0, kReg1, kReg2, kReg3, kColumn0, kColumn1, kRow0, kRow1, kFull0, kFull1, kConst
};

constexpr int kEpilogueRegisters = 4;
constexpr int kEpilogueSteps = 32;
constexpr int kEpilogueConsts = 24;

struct EpilogueStep {
  int8_t op, dst, a, b, c;  // EpilogueOp; a register; three EpilogueSources (unused ones 0)
  int8_t pad[3];
};

struct EpilogueConsts {
  float v[kEpilogueConsts];
};

// What the epilogue does with the program's result: writes it (kNone), or reduces each row of
// it within each output tile and writes those partials alone (GemmArgs::partials), which one
// small reduction finishes; the [m, n] result is never written. kLogSumExp's partial is a
// (max, sum of exp(x - max)) pair of floats; the others' one float.
enum class EpilogueReduce : int32_t { kNone = 0, kSum, kMax, kMin, kLogSumExp };

struct EpilogueProgram {
  int32_t length;
  int32_t reduce;  // EpilogueReduce
  EpilogueStep steps[kEpilogueSteps];
  EpilogueConsts consts;
};

// The float32 kernels a program has twins of, X(name, promoted, sourced, stream_k) each: the
// three-product split (promoted partial sums), its hi*hi alone with the cross products added
// from c (sourced), the single scaled product ('high'); each on persistent data-parallel tiles
// or stream-K.
#define KW_EPILOGUE_VARIANTS(X)                      \
  X(fp16_split3_data_parallel, true, false, false)    \
  X(fp16_split3_stream_k, true, false, true)          \
  X(fp16_hi_sourced_data_parallel, true, true, false) \
  X(fp16_hi_sourced_stream_k, true, true, true)       \
  X(fp16_scaled_data_parallel, false, false, false)   \
  X(fp16_scaled_stream_k, false, false, true)

// The output tile of those kernels (LinearFp16Of, linear_sm90.cuh), which picks stream-K or not.
constexpr int64_t kFp16TileM = 128, kFp16TileN = 128;

struct GemmArgs;

// A compiled program's kernel, as the library of its program's shape makes it
// (kw_epilogue_link()). abi: kGemmAbi of the headers it was built from; key: the program and
// variant it runs (epilogue_kernel_key); function: the kernel linked with the program's code,
// a cudaKernel_t, which run launches.
constexpr int kGemmAbi = 5;
struct GemmKernel {
  int abi;
  const char* key;
  const char* (*unsupported)(const GemmArgs&);
  size_t (*workspace_bytes)(const GemmArgs&);
  int (*run)(const GemmArgs&, void* workspace, void* stream);
  const void* function;
};

// d[m, n] = act(sum_k a[m, k] * b[n, k] + bias[n]); k is contiguous in a and b, n in d.
// kFp16Split3, kFp16Scaled: a and b are fp16, d and bias float32, and the sum is first
// multiplied by a_scale[m] * b_scale[n] (the inverse row scales of the split).
struct GemmArgs {
  int dtype;  // kw::DType of d and bias, and of a and b but for the fp16 methods
  int method; // GemmMethod
  int activation;
  int64_t m, n, k;
  const void* a;
  int64_t lda;
  const void* b;
  int64_t ldb;
  const void* bias;  // [n] or null
  void* d;
  int64_t ldd;
  int promotion_interval;  // split methods: tensor-core instructions per fp32 promotion
  const float* a_scale;    // fp16 methods: [m]
  const float* b_scale;    // fp16 methods: [n], 16-byte aligned
  // kFp16Split3 only: when set, a and b hold hi alone (k of them) and c[m, n] (row stride ldc)
  // the cross products hi*lo + lo*hi, summed apart and added before the row scales.
  const float* c;
  int64_t ldc;
  // When set, the epilogue runs this program in place of `activation` (which must be kNone),
  // reading columns[j] ([n] float32, 16-byte aligned, null: 0), rows[j] ([m] float32) and fulls[j], in
  // `kernel`, the program's compiled twin of the kernel these arguments pick.
  const EpilogueProgram* program;
  const GemmKernel* kernel;
  const float* columns[2];
  const float* rows[2];
  // fulls[j]: [m, n] float32 (row stride ld_fulls[j], 16-byte aligned rows), or null: 0.
  const float* fulls[2];
  int64_t ld_fulls[2];
  // program->reduce set: the kernel writes no d but each row's reduction over each output
  // tile's columns, partials[t * round_up(m, kFp16TileM) + r] for tile column t (the
  // ceil(n / kFp16TileN) of them) and row r; for kLogSumExp each is a (max, sum) pair, two floats.
  float* partials;
};

#ifndef __CUDACC_RTC__  // the host functions
namespace cuda {
int sm_count();

// Whether stream-K beats data-parallel tiles of tile_m x tile_n: when whole waves of tiles
// would leave more SMs idle than stream-K's own cost, measured at 12-15% (linear_sm90.cuh).
inline bool stream_k_pays_off(int64_t m, int64_t n, int64_t tile_m, int64_t tile_n) {
  const int64_t tiles = ((m + tile_m - 1) / tile_m) * ((n + tile_n - 1) / tile_n);
  const int64_t sms = sm_count();
  const int64_t waves = (tiles + sms - 1) / sms;
  return tiles < 0.85 * static_cast<double>(waves * sms);
}

// The KW_EPILOGUE_VARIANTS name of the kernel that runs args' program, or null where none
// does (another dtype or method).
const char* epilogue_variant(const GemmArgs& args);

// 0 when a kernel exists for these arguments (shapes, alignment, dtype, method), else a
// reason the caller can report while it falls back to another path.
const char* gemm_unsupported(const GemmArgs& args);
size_t gemm_workspace_bytes(const GemmArgs& args);
int gemm(const GemmArgs& args, void* workspace, void* stream);

// Writes the operand of a split GEMM: row r of `out` holds the `parts` (see SplitParts), each a
// segment of `seg` elements (seg >= cols, zero-padded, 16 bytes a multiple). `x` is read through
// (stride_r, stride_c), so a transposed operand costs no extra pass.
//  - kTf32: x = hi + lo, both exact in TF32 (float storage); inv_scale and row_max unused.
//  - kFp16: x * 2^s_r = hi + lo, both fp16, where 2^s_r puts row r's largest finite |x| in
//    [2^14, 2^15); inv_scale[r] = 2^-s_r. row_max: `rows` words of scratch.
int split_operand(SplitFormat format, const float* x, int64_t rows, int64_t cols,
                  int64_t stride_r, int64_t stride_c, void* out, int64_t seg, SplitParts parts,
                  float* inv_scale, unsigned* row_max, void* stream);
}  // namespace cuda
#endif

}  // namespace kw
