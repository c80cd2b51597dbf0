// BoundDevice::memory_info(): the backend's answer (SDK 1.6), else the device parameters'
// global memory size with no free memory.

#include "runtime/impl.hpp"

#include <plinth/context.hpp>

namespace plinth {

MemoryInfo BoundDevice::memory_info() const {
  MemoryInfo info;
  if (detail::loaded(context_.api()).abi_minor >= 6 &&
      detail::adapter(context_).memory_info(index_, info)) {
    return info;
  }
  return MemoryInfo{params().global_mem_size, std::nullopt};
}

}  // namespace plinth
