// Lets one definition of each op's arithmetic serve the CPU and the CUDA kernels.
#pragma once

#if defined(__CUDACC__)
#define KW_HD __host__ __device__ __forceinline__
#else
#define KW_HD inline
#endif
