// A GEMM epilogue program's kernel, built in two parts (kernelwright/ops/_epilogue_link.py).
//
// Instantiating the CUTLASS kernel is nearly all of a build (about 45 s of nvcc), and it depends
// on the program only through its shape: the variant, how many operands it reads, what it does
// with its rows. So the unit of a shape is compiled once, with KW_LINKED_DEVICE into LTO-IR
// holding the kernel (KW_DEFINE_LINKED_EPILOGUE_KERNEL), without it into a library holding the
// launch and nothing for the device (KW_EXPORT_LINKED_EPILOGUE_LAUNCHER); the program, a
// function kw_epilogue_body the kernel calls per element, is compiled apart in under a second
// and link-time optimised into the kernel by nvJitLink (a few seconds), which inlines it as if
// it had been written there. The library loads that image and launches it through its handle.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "kw/cuda/linear_sm90.cuh"

// The program: the value of one element from x (the GEMM's result and bias), the column vectors'
// values c0, c1, the row vectors' w0, w1, the full-size operands' f0, f1 and the constants k
// (kw::EpilogueConsts).
extern "C" __device__ float kw_epilogue_body(float x, float c0, float c1, float w0, float w1, float f0,
                                             float f1, const float* k);

namespace kw {
namespace cuda {

// Promoted, Sourced and StreamK a KW_EPILOGUE_VARIANTS row, Epilogue the compute functor of the
// program's shape (LinearEpilogue).
template <bool Promoted, bool Sourced, bool StreamK, template <class> class Epilogue>
using LinearFp16Programmed =
    LinearFp16Of<Promoted, cute::conditional_t<StreamK, cutlass::gemm::StreamKScheduler, DataParallel>,
                 Sourced, Epilogue>;

// What kw_epilogue_body is to the functor: the device calls the linked program; the host, which
// never runs an epilogue, has no use for it.
struct LinkedBody {
  KW_EPILOGUE_FN static float apply(float x, float c0, float c1, float w0, float w1, float f0, float f1,
                                    const float* k) {
#ifdef __CUDA_ARCH__
    return kw_epilogue_body(x, c0, c1, w0, w1, f0, f1, k);
#else
    return x;
#endif
  }
};

// Config's GEMM launched as `function` (a cudaKernel_t of KW_DEFINE_LINKED_EPILOGUE_KERNEL's
// kernel), as GemmUniversalAdapter would launch its own: workspace, parameters, the shared
// memory it asks for, its cluster.
template <class Config>
int run_linked(const GemmArgs& g, void* workspace, void* stream, const void* function) {
  using Kernel = typename Config::Kernel;
  auto args = Config::arguments(g);
  auto s = static_cast<cudaStream_t>(stream);
  if (Kernel::initialize_workspace(args, workspace, s) != cutlass::Status::kSuccess) {
    return static_cast<int>(cudaErrorLaunchFailure);
  }
  typename Kernel::Params params = Kernel::to_underlying_arguments(args, workspace);
  const int smem = Kernel::SharedStorageSize;
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  auto kernel = static_cast<cudaKernel_t>(const_cast<void*>(function));
  if (e == cudaSuccess) {
    e = cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem, device);
  }
  if (e != cudaSuccess) return static_cast<int>(e);
  using Cluster = typename Config::Cluster;
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = cute::size<0>(Cluster{});
  cluster.val.clusterDim.y = cute::size<1>(Cluster{});
  cluster.val.clusterDim.z = cute::size<2>(Cluster{});
  cudaLaunchConfig_t config = {};
  config.gridDim = Kernel::get_grid_shape(params);
  config.blockDim = Kernel::get_block_shape();
  config.dynamicSmemBytes = smem;
  config.stream = s;
  config.attrs = &cluster;
  config.numAttrs = 1;
  void* kernel_args[] = {&params};
  return static_cast<int>(cudaLaunchKernelExC(&config, function, kernel_args));
}

// The GemmKernel of program `key`: the cubin at `image` (the shape's kernel linked with the
// program) loaded, and this library's functions; null, with the reason in `error`, where the
// image cannot be read or loaded. Never freed: a loaded kernel stays valid for the process.
inline const GemmKernel* link_epilogue_kernel(const char* key, const char* image, char* error,
                                              size_t error_size, const GemmKernel& launcher) {
  std::ifstream in(image, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    std::snprintf(error, error_size, "cannot read %s", image);
    return nullptr;
  }
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  cudaError_t e = cudaLibraryLoadData(&library, bytes.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (e == cudaSuccess) e = cudaLibraryGetKernel(&kernel, library, "kw_epilogue_gemm");
  if (e != cudaSuccess) {
    std::snprintf(error, error_size, "%s: %s", image, cudaGetErrorString(e));
    return nullptr;
  }
  char* name = new char[std::strlen(key) + 1];
  std::strcpy(name, key);
  return new GemmKernel{kGemmAbi, name, launcher.unsupported, launcher.workspace_bytes, launcher.run, kernel};
}

}  // namespace cuda
}  // namespace kw

// The shape's kernel, for the device unit: CUTLASS's device_kernel under a name the library
// finds it by.
#define KW_DEFINE_LINKED_EPILOGUE_KERNEL(Config)                                                   \
  extern "C" __global__ void __launch_bounds__(Config::Kernel::MaxThreadsPerBlock,                  \
                                               Config::Kernel::MinBlocksPerMultiprocessor)          \
      kw_epilogue_gemm(CUTLASS_GRID_CONSTANT typename Config::Kernel::Params const params) {        \
    extern __shared__ char smem[];                                                                  \
    typename Config::Kernel op;                                                                     \
    op(params, smem);                                                                               \
  }

// The shape's launch, for the host unit; the library brings its own sm_count(), since the
// extension's is not exported to it.
#define KW_EXPORT_LINKED_EPILOGUE_LAUNCHER(Config)                                                  \
  int kw::cuda::sm_count() {                                                                        \
    int device = 0, count = 0;                                                                      \
    cudaGetDevice(&device);                                                                         \
    cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device);                         \
    return count;                                                                                   \
  }                                                                                                 \
  namespace {                                                                                       \
  const char* kw_unsupported(const kw::GemmArgs& g) { return Config::unsupported(g); }              \
  size_t kw_workspace_bytes(const kw::GemmArgs& g) { return Config::workspace_bytes(g); }           \
  int kw_run(const kw::GemmArgs& g, void* workspace, void* stream) {                                \
    return kw::cuda::run_linked<Config>(g, workspace, stream, g.kernel->function);                  \
  }                                                                                                 \
  const kw::GemmKernel kw_launcher{kw::kGemmAbi, "", kw_unsupported, kw_workspace_bytes, kw_run,    \
                                   nullptr};                                                        \
  }                                                                                                 \
  extern "C" __attribute__((visibility("default"))) int kw_epilogue_abi() { return kw::kGemmAbi; }  \
  extern "C" __attribute__((visibility("default"))) const kw::GemmKernel* kw_epilogue_link(         \
      const char* key, const char* image, char* error, size_t error_size) {                         \
    return kw::cuda::link_epilogue_kernel(key, image, error, error_size, kw_launcher);              \
  }
