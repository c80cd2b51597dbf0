#include "buffer.hpp"

#include "context.hpp"

namespace plinth::level_zero {

Buffer::~Buffer() {
  if (owned_) state_->free(pointer_);
}

std::unique_ptr<backend::BufferAdapter> Buffer::sub_region(std::size_t origin, std::size_t size) {
  return std::make_unique<Buffer>(state_, device_pointer(*this, origin), size, false, managed_);
}

}  // namespace plinth::level_zero
