#include "driver.hpp"

#include <dlfcn.h>

#include <mutex>
#include <type_traits>

// The symbol of a table member: the name after cuda.h's macros ("cuMemAlloc_v2"), since
// PLINTH_CUDA_DRIVER_FUNCTIONS hands X its argument expanded.
#define PLINTH_CUDA_SYMBOL(function) #function

namespace plinth::cuda {

namespace detail {
Driver loaded_driver;
}  // namespace detail

namespace {

// "13.0" for CUDA_VERSION 13000: the toolkit this plugin was built with.
std::string built_with() {
  return std::to_string(CUDA_VERSION / 1000) + "." + std::to_string(CUDA_VERSION % 1000 / 10);
}

std::string load() {
  void* library = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = ::dlerror();
    return std::string(error != nullptr ? error : "libcuda.so.1 cannot be loaded") +
           " (the NVIDIA driver is not installed)";
  }
  Driver table;
  std::string missing;
  auto resolve = [&](auto& member, const char* symbol) {
    member = reinterpret_cast<std::remove_reference_t<decltype(member)>>(::dlsym(library, symbol));
    if (member == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(symbol);
  };
#define PLINTH_CUDA_RESOLVE(function) resolve(table.function, PLINTH_CUDA_SYMBOL(function));
  PLINTH_CUDA_DRIVER_FUNCTIONS(PLINTH_CUDA_RESOLVE)
#undef PLINTH_CUDA_RESOLVE
  // The graphics functions are optional: null where missing (missing_gl_functions()).
  auto resolve_optional = [&](auto& member, const char* symbol) {
    member = reinterpret_cast<std::remove_reference_t<decltype(member)>>(::dlsym(library, symbol));
  };
#define PLINTH_CUDA_RESOLVE_OPTIONAL(function) \
  resolve_optional(table.function, PLINTH_CUDA_SYMBOL(function));
#define PLINTH_CUDA_RESOLVE_GL(function, type) resolve_optional(table.function, #function);
  PLINTH_CUDA_GRAPHICS_FUNCTIONS(PLINTH_CUDA_RESOLVE_OPTIONAL)
  PLINTH_CUDA_GL_FUNCTIONS(PLINTH_CUDA_RESOLVE_GL)
#undef PLINTH_CUDA_RESOLVE_GL
#undef PLINTH_CUDA_RESOLVE_OPTIONAL
  if (!missing.empty()) {
    ::dlclose(library);
    return "libcuda.so.1 has no " + missing + ": the NVIDIA driver is older than CUDA " +
           built_with() + ", which this plugin was built for";
  }
  detail::loaded_driver = table;  // `library` stays open: libcuda cannot be unloaded safely
  return {};
}

}  // namespace

std::string missing_gl_functions(const Driver& table) {
  std::string missing;
  auto check = [&](auto member, const char* symbol) {
    if (member == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(symbol);
  };
#define PLINTH_CUDA_CHECK_PRESENT(function) check(table.function, PLINTH_CUDA_SYMBOL(function));
#define PLINTH_CUDA_CHECK_GL(function, type) check(table.function, #function);
  PLINTH_CUDA_GRAPHICS_FUNCTIONS(PLINTH_CUDA_CHECK_PRESENT)
  PLINTH_CUDA_GL_FUNCTIONS(PLINTH_CUDA_CHECK_GL)
#undef PLINTH_CUDA_CHECK_GL
#undef PLINTH_CUDA_CHECK_PRESENT
  return missing;
}

const std::string& load_driver() {
  static std::once_flag once;
  static std::string problem;
  std::call_once(once, [] { problem = load(); });
  return problem;
}

}  // namespace plinth::cuda
