// HostArray::managed_view() and is_managed(): a HostArray whose block is a managed Buffer's
// host side. The block's deleter (ManagedBlock) holds the Buffer, which keeps the memory
// alive, and is what is_managed() asks for.

#include <plinth/array.hpp>
#include <plinth/buffer.hpp>
#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>

#include <fmt/format.h>

#include <new>

namespace plinth {

namespace {

/// Keeps the managed buffer alive; frees nothing itself.
struct ManagedBlock {
  Buffer buffer;
  void operator()(std::byte*) const noexcept {}
};

}  // namespace

HostArray HostArray::managed_view(const Buffer& buffer, const ArrayMetadata& metadata) {
  if (!buffer.is_managed()) {
    throw LogicError(
        fmt::format("HostArray::managed_view: the buffer ({} bytes on device {}, '{}') is not "
                    "managed memory (see Buffer::allocate_managed)",
                    buffer.size(), buffer.device().index(), buffer.device().name()));
  }
  if (metadata.buffer_size() > buffer.size()) {
    throw LogicError(
        fmt::format("HostArray::managed_view: the layout needs {} bytes, the buffer has {}",
                    metadata.buffer_size(), buffer.size()));
  }
  try {
    return HostArray(std::shared_ptr<std::byte[]>(buffer.host_pointer(), ManagedBlock{buffer}),
                     metadata);
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError("host", "HostArray::managed_view", 0, "out of host memory",
                           "cannot allocate the view's bookkeeping");
  }
}

HostArray HostArray::managed_view(const Array& array) {
  return managed_view(array.base_buffer(), array.metadata());
}

bool HostArray::is_managed() const noexcept {
  return std::get_deleter<ManagedBlock>(block_) != nullptr;
}

}  // namespace plinth
