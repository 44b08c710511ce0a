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

void load_epilogue_kernel(const std::string& library, const std::string& image, const std::string& key) {
  // Never closed: the kernels it links stay valid for the process's life.
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  TORCH_CHECK(handle != nullptr, "kernelwright: cannot load the epilogue library ", library, ": ",
              dlerror());
  const auto abi = reinterpret_cast<int (*)()>(dlsym(handle, "kw_epilogue_abi"));
  using Link = const GemmKernel* (*)(const char*, const char*, char*, size_t);
  const auto link = reinterpret_cast<Link>(dlsym(handle, "kw_epilogue_link"));
  TORCH_CHECK(abi != nullptr && link != nullptr, "kernelwright: ", library,
              " is not an epilogue library (no kw_epilogue_abi, kw_epilogue_link)");
  TORCH_CHECK(abi() == kGemmAbi, "kernelwright: ", library, " was built from other headers (ABI ", abi(),
              ", this build's is ", kGemmAbi, "); delete it to rebuild");
  char error[512] = "";
  const GemmKernel* kernel = link(key.c_str(), image.c_str(), error, sizeof(error));
  TORCH_CHECK(kernel != nullptr, "kernelwright: cannot load the epilogue kernel ", error);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.loaded[kernel->key] = kernel;
}

}  // namespace kw
