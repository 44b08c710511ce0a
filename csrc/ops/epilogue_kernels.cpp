// The registry of compiled GEMM epilogue kernels (see epilogue_kernels.h).
#include "epilogue_kernels.h"

#include <c10/util/Exception.h>
#include <dlfcn.h>

#include <mutex>
#include <set>
#include <unordered_map>

namespace kw {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<std::string, const GemmKernel*> loaded;
  std::set<std::string> asked;  // reported once, so that a failed build is not retried per call
  std::vector<std::string> wanted;
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: kernels may launch during exit
  return *r;
}

}  // namespace

std::string epilogue_kernel_key(const EpilogueProgram& program, const char* variant) {
  std::string key = std::string(variant) + ":";
  for (int s = 0; s < program.length; ++s) {
    const EpilogueStep& st = program.steps[s];
    if (s > 0) key += ";";
    for (int v : {int{st.op}, int{st.dst}, int{st.a}, int{st.b}, int{st.c}}) {
      key += std::to_string(v);
      key += ",";
    }
    key.pop_back();
  }
  if (program.reduce != 0) key += "|" + std::to_string(program.reduce);
  return key;
}

const GemmKernel* find_epilogue_kernel(const EpilogueProgram& program, const char* variant) {
  if (variant == nullptr) return nullptr;
  const std::string key = epilogue_kernel_key(program, variant);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.loaded.find(key);
  if (it != r.loaded.end()) return it->second;
  if (r.asked.insert(key).second) r.wanted.push_back(key);
  return nullptr;
}

std::vector<std::string> take_wanted_epilogue_kernels() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> out;
  out.swap(r.wanted);
  return out;
}

std::string load_epilogue_kernel(const std::string& path) {
  // Never closed: a loaded kernel stays valid for the process's life.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  TORCH_CHECK(handle != nullptr, "kernelwright: cannot load the epilogue kernel ", path, ": ",
              dlerror());
  using Entry = const GemmKernel* (*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(handle, "kw_epilogue_kernel"));
  TORCH_CHECK(entry != nullptr, "kernelwright: ", path, " is not an epilogue kernel (no "
              "kw_epilogue_kernel)");
  const GemmKernel* kernel = entry();
  TORCH_CHECK(kernel != nullptr && kernel->abi == kGemmAbi, "kernelwright: ", path,
              " was built from other headers (ABI ", kernel ? kernel->abi : -1, ", this build's is ",
              kGemmAbi, "); delete it to rebuild");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.loaded[kernel->key] = kernel;
  return kernel->key;
}

}  // namespace kw
