#include "buffer.hpp"

#include "context.hpp"
#include "driver.hpp"

namespace plinth::cuda {

Buffer::~Buffer() {
  if (!owned_) return;
  ScopedContext current((*state_)[device_].context, std::nothrow);
  CU_CHECK_IN_DESTRUCTOR(cuMemFree(pointer_));
}

std::unique_ptr<backend::BufferAdapter> Buffer::sub_region(std::size_t origin, std::size_t size) {
  return std::make_unique<Buffer>(state_, device_, pointer_ + origin, size, false, managed_);
}

}  // namespace plinth::cuda
