"""The CUDA side of the ``kw_*`` helpers that ``opset`` templates call (``dialects.TORCH_HELPERS``
is the CPU side, with the same semantics): ATen's math, NaN propagation of max/min/clamp/relu
included, half types and narrow integers rounded as ATen rounds them, and the block-level
reductions every reduction template shares. ``runtime.Kernel`` puts it in front of each kernel.
"""

CUDA_PRELUDE = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#define KW_F __device__ __forceinline__
#define KW_U(name, fx, dx) KW_F float name(float x) { return fx; } KW_F double name(double x) { return dx; }
KW_U(kw_abs, fabsf(x), fabs(x)) KW_U(kw_exp, expf(x), exp(x)) KW_U(kw_exp2, exp2f(x), exp2(x))
KW_U(kw_expm1, expm1f(x), expm1(x)) KW_U(kw_log, logf(x), log(x)) KW_U(kw_log1p, log1pf(x), log1p(x))
KW_U(kw_log2, log2f(x), log2(x)) KW_U(kw_log10, log10f(x), log10(x)) KW_U(kw_sqrt, sqrtf(x), sqrt(x))
KW_U(kw_rsqrt, rsqrtf(x), rsqrt(x)) KW_U(kw_sin, sinf(x), sin(x)) KW_U(kw_cos, cosf(x), cos(x))
KW_U(kw_tan, tanf(x), tan(x)) KW_U(kw_asin, asinf(x), asin(x)) KW_U(kw_acos, acosf(x), acos(x))
KW_U(kw_atan, atanf(x), atan(x)) KW_U(kw_sinh, sinhf(x), sinh(x)) KW_U(kw_cosh, coshf(x), cosh(x))
KW_U(kw_tanh, tanhf(x), tanh(x)) KW_U(kw_asinh, asinhf(x), asinh(x)) KW_U(kw_acosh, acoshf(x), acosh(x))
KW_U(kw_atanh, atanhf(x), atanh(x)) KW_U(kw_erf, erff(x), erf(x)) KW_U(kw_erfc, erfcf(x), erfc(x))
KW_U(kw_floor, floorf(x), floor(x)) KW_U(kw_ceil, ceilf(x), ceil(x)) KW_U(kw_rint, rintf(x), rint(x))
KW_U(kw_trunc, truncf(x), trunc(x)) KW_U(kw_erfinv, erfinvf(x), erfinv(x)) KW_U(kw_lgamma, lgammaf(x), lgamma(x))
KW_U(kw_sigmoid, 1.0f / (1.0f + expf(-x)), 1.0 / (1.0 + exp(-x)))
KW_U(kw_gelu, 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)), 0.5 * x * (1.0 + erf(x * 0.70710678118654752)))
KW_U(kw_gelu_tanh, 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x))),
     0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))))
KW_U(kw_hardsigmoid, x <= -3.0f ? 0.0f : (x >= 3.0f ? 1.0f : x / 6.0f + 0.5f),
     x <= -3.0 ? 0.0 : (x >= 3.0 ? 1.0 : x / 6.0 + 0.5))
template <typename T> KW_F T kw_one(T) { return T(1); }
template <typename T> KW_F T kw_twenty(T) { return T(20); }
template <typename T> KW_F T kw_relu(T x) { return x < T(0) ? T(0) : x; }
template <typename T> KW_F T kw_sign(T x) { return T((T(0) < x) - (x < T(0))); }
template <typename T> KW_F bool kw_isnan(T x) { return x != x; }
KW_F bool kw_isinf(float x) { return isinf(x); } KW_F bool kw_isinf(double x) { return isinf(x); }
template <typename T> KW_F T kw_maximum(T a, T b) { return (a != a || a > b) ? a : b; }
template <typename T> KW_F T kw_minimum(T a, T b) { return (a != a || a < b) ? a : b; }
template <typename T> KW_F T kw_fmax(T a, T b) { return a != a ? b : (b != b ? a : (a > b ? a : b)); }
template <typename T> KW_F T kw_fmin(T a, T b) { return a != a ? b : (b != b ? a : (a < b ? a : b)); }
template <typename T> KW_F T kw_clamp_min(T x, T lo) { return x < lo ? lo : x; }
template <typename T> KW_F T kw_clamp_max(T x, T hi) { return x > hi ? hi : x; }
template <typename T> KW_F T kw_where(bool c, T a, T b) { return c ? a : b; }
KW_F bool kw_not(bool a) { return !a; } KW_F bool kw_and(bool a, bool b) { return a && b; }
KW_F bool kw_or(bool a, bool b) { return a || b; } KW_F bool kw_xor(bool a, bool b) { return a != b; }
KW_F float kw_pow(float a, float b) { return powf(a, b); } KW_F double kw_pow(double a, double b) { return pow(a, b); }
KW_F float kw_atan2(float a, float b) { return atan2f(a, b); } KW_F double kw_atan2(double a, double b) { return atan2(a, b); }
KW_F float kw_fmod(float a, float b) { return fmodf(a, b); } KW_F double kw_fmod(double a, double b) { return fmod(a, b); }
KW_F int kw_fmod(int a, int b) { return a % b; } KW_F long long kw_fmod(long long a, long long b) { return a % b; }
KW_F float kw_copysign(float a, float b) { return copysignf(a, b); } KW_F double kw_copysign(double a, double b) { return copysign(a, b); }
KW_F float kw_hypot(float a, float b) { return hypotf(a, b); } KW_F double kw_hypot(double a, double b) { return hypot(a, b); }
// Shifts as ATen's: a count past the type's width (or negative) shifts everything out.
KW_F long long kw_shr(long long a, long long b) { return (b < 0 || b >= 64) ? (a >> 63) : (a >> b); }
KW_F long long kw_shl(long long a, long long b) {
  return (b < 0 || b >= 64) ? 0 : (long long)((unsigned long long)a << b); }
template <typename T> KW_F T kw_remainder(T a, T b) { T r = kw_fmod(a, b); return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? r + b : r; }
KW_F float kw_floordiv(float a, float b) { return floorf(a / b); }
KW_F double kw_floordiv(double a, double b) { return floor(a / b); }
KW_F long long kw_floordiv(long long a, long long b) {
  long long q = a / b; return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q; }
KW_F float kw_truncdiv(float a, float b) { return truncf(a / b); }
KW_F double kw_truncdiv(double a, double b) { return trunc(a / b); }
KW_F long long kw_truncdiv(long long a, long long b) { return a / b; }
KW_F long long kw_abs(long long x) { return x < 0 ? -x : x; }
// Index arithmetic of pooling windows (the index type is int or long long; bounds are literals).
template <typename T> KW_F T kw_imin(T a, long long b) { return a < (T)b ? a : (T)b; }
template <typename T> KW_F T kw_imax(T a, long long b) { return a > (T)b ? a : (T)b; }
template <typename T> KW_F T kw_iclamp(T x, long long lo, long long hi) { return x < (T)lo ? (T)lo : (x > (T)hi ? (T)hi : x); }
template <typename T> KW_F bool kw_inside(T x, long long lo, long long hi) { return x >= (T)lo && x < (T)hi; }
template <typename T> KW_F T kw_nearest(T o, float scale, long long n) {
  const T i = (T)floorf((float)o * scale); return i < (T)(n - 1) ? i : (T)(n - 1); }
template <typename T> KW_F T kw_ipick(bool ok, T x) { return ok ? x : T(0); }
// An index read from a tensor as a coordinate along a dim of n: negative counts from the end;
// out of range is clamped (never read outside the source).
template <typename T> KW_F long long kw_index(T v, long long n) {
  long long i = (long long)v; i = i < 0 ? i + n : i; return i < 0 ? 0 : (i >= n ? n - 1 : i); }
template <typename T> KW_F T kw_leaky_relu(T x, T slope) { return x > T(0) ? x : x * slope; }
template <typename T> KW_F T kw_elu(T x, T alpha, T scale, T input_scale) {
  return x > T(0) ? scale * x : scale * alpha * kw_expm1(x * input_scale); }
template <typename T> KW_F T kw_softplus(T x, T beta, T threshold) {
  return x * beta > threshold ? x : kw_log1p(kw_exp(x * beta)) / beta; }
KW_F float kw_round_f16(float x) { return __half2float(__float2half_rn(x)); }
KW_F float kw_round_bf16(float x) { return __bfloat162float(__float2bfloat16_rn(x)); }
// An integer op's result, computed in 64 bits, wrapped to its narrower type as ATen's wraps.
KW_F long long kw_wrap_int32(long long x) { return static_cast<int>(x); }
KW_F long long kw_wrap_int16(long long x) { return static_cast<short>(x); }
KW_F long long kw_wrap_int8(long long x) { return static_cast<signed char>(x); }
KW_F long long kw_wrap_uint8(long long x) { return static_cast<unsigned char>(x); }
KW_F float kw_load(__half x) { return __half2float(x); }
KW_F float kw_load(__nv_bfloat16 x) { return __bfloat162float(x); }
template <typename T> KW_F T kw_load(T x) { return x; }
// A read of input k at a row's flat offset: from global memory, unless the kernel (the
// cluster-rows template) holds the row on chip and redefines this.
#define KW_ROW_LOAD(k, off) kw_load(in##k[off])
// Where output k is written at a flat offset: in global memory, unless the kernel (the
// pointwise template's vector path) stages a thread's elements in registers first.
#define KW_OUT_AT(k, off) (&out##k[off])
// A column's load kept for a later column loop of the rows template, which reads it back
// from registers in its CACHED variants (they redefine these); elsewhere it is read again.
#define KW_PUT(s, v)
#define KW_GET(s, e) (e)
// N consecutive elements between global memory and registers in the widest accesses their
// size allows (both sides aligned to that size by the caller).
template <int N, typename T> KW_F void kw_copy_vec(T* __restrict__ dst, const T* __restrict__ src) {
  constexpr int bytes = N * (int)sizeof(T);
  if constexpr (bytes % 16 == 0) {
    #pragma unroll
    for (int j = 0; j < bytes / 16; ++j) reinterpret_cast<uint4*>(dst)[j] = reinterpret_cast<const uint4*>(src)[j];
  } else if constexpr (bytes % 8 == 0) {
    #pragma unroll
    for (int j = 0; j < bytes / 8; ++j) reinterpret_cast<uint2*>(dst)[j] = reinterpret_cast<const uint2*>(src)[j];
  } else {
    #pragma unroll
    for (int j = 0; j < N; ++j) dst[j] = src[j];
  }
}
KW_F void kw_store(__half* p, float x) { *p = __float2half_rn(x); }
KW_F void kw_store(__nv_bfloat16* p, float x) { *p = __float2bfloat16_rn(x); }
template <typename P, typename T> KW_F void kw_store(P* p, T x) { *p = static_cast<P>(x); }
template <typename T, typename F>
KW_F T kw_reduce_rows(T v, F f, T* smem, int threads_per_row, bool across = false) {
  // Reduces v over the threads_per_row threads of each row, every row of the block at once;
  // all threads get their row's result. A row's threads are threadIdx.x and the rows
  // threadIdx.y; ``across`` (the rows template's ROWS_ACROSS_LANES) swaps the two, and smem
  // then holds a value a thread.
  if (across) {
    __syncthreads();
    smem[threadIdx.y * blockDim.x + threadIdx.x] = v;
    __syncthreads();
    v = smem[threadIdx.x];
    for (int w = 1; w < threads_per_row; ++w) v = f(v, smem[w * blockDim.x + threadIdx.x]);
    return v;
  }
  int width = threads_per_row < 32 ? threads_per_row : 32;
  for (int o = width / 2; o > 0; o >>= 1) v = f(v, __shfl_xor_sync(0xffffffffu, v, o, width));
  if (threads_per_row <= 32) return v;
  int warps = threads_per_row / 32, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads();
  if (lane == 0) smem[threadIdx.y * warps + warp] = v;
  __syncthreads();
  v = smem[threadIdx.y * warps];
  for (int w = 1; w < warps; ++w) v = f(v, smem[threadIdx.y * warps + w]);
  return v;
}
template <typename T>
KW_F void kw_argbest(T& v, long long& i, T v2, long long i2, bool largest) {
  // torch's rule: NaN wins, then the better value, then the lower index. Bitwise operators, not
  // short-circuiting ones: branches here kept the compiler from issuing an unrolled column
  // loop's loads ahead, leaving one load in flight a thread.
  const bool nan1 = v != v, nan2 = v2 != v2, lower = i2 < i;
  const bool better = largest ? v2 > v : v2 < v;
  const bool take = (nan2 & (!nan1 | lower)) | (!nan2 & !nan1 & (better | ((v2 == v) & lower)));
  v = take ? v2 : v;
  i = take ? i2 : i;
}
template <typename T>
KW_F void kw_reduce_arg(T& v, long long& i, bool largest, T* smem, long long* ismem, int threads_per_row,
                        bool across = false) {
  if (across) {  // as in kw_reduce_rows; the lower column first, so that ties keep the lower index
    __syncthreads();
    smem[threadIdx.y * blockDim.x + threadIdx.x] = v;
    ismem[threadIdx.y * blockDim.x + threadIdx.x] = i;
    __syncthreads();
    v = smem[threadIdx.x]; i = ismem[threadIdx.x];
    for (int w = 1; w < threads_per_row; ++w)
      kw_argbest(v, i, smem[w * blockDim.x + threadIdx.x], ismem[w * blockDim.x + threadIdx.x], largest);
    return;
  }
  int width = threads_per_row < 32 ? threads_per_row : 32;
  for (int o = width / 2; o > 0; o >>= 1) {
    T v2 = __shfl_xor_sync(0xffffffffu, v, o, width);
    long long i2 = __shfl_xor_sync(0xffffffffu, i, o, width);
    kw_argbest(v, i, v2, i2, largest);
  }
  if (threads_per_row <= 32) return;
  int warps = threads_per_row / 32, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads();
  if (lane == 0) { smem[threadIdx.y * warps + warp] = v; ismem[threadIdx.y * warps + warp] = i; }
  __syncthreads();
  v = smem[threadIdx.y * warps]; i = ismem[threadIdx.y * warps];
  for (int w = 1; w < warps; ++w) kw_argbest(v, i, smem[threadIdx.y * warps + w], ismem[threadIdx.y * warps + w], largest);
}
"""
