#include "runtime_library.hpp"

#include <hip/hip_runtime_api.h>

#include <dlfcn.h>

namespace plinth::hip {

void* runtime_library() noexcept {
  static void* const runtime = [] {
    Dl_info info{};
    const auto anchor = &hipCreateTextureObject;
    if (dladdr(reinterpret_cast<void*>(anchor), &info) == 0 || info.dli_fname == nullptr) {
      return static_cast<void*>(nullptr);
    }
    return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);  // kept: the plugin holds it anyway
  }();
  return runtime;
}

}  // namespace plinth::hip
