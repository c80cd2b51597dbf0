#include "buffer.hpp"

#include "context.hpp"
#include "error.hpp"

namespace plinth::hip {

Buffer::~Buffer() {
  if (!owned_) return;
  ScopedDevice current((*state_)[device_].device, std::nothrow);
  PLINTH_CHECK_IN_DESTRUCTOR(hipFree(pointer_));
}

std::unique_ptr<backend::BufferAdapter> Buffer::sub_region(std::size_t origin, std::size_t size) {
  return std::make_unique<Buffer>(state_, device_, device_pointer(*this, origin), size, false,
                                  managed_);
}

}  // namespace plinth::hip
