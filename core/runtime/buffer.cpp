#include <plinth/buffer.hpp>

#include "memory/device_pool.hpp"
#include "runtime/impl.hpp"
#include "runtime/peer_copy.hpp"
#include "virtual_alloc/sub_regions.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace plinth {

namespace {

void check_queue(const Buffer& buffer, const Queue& queue, const char* what) {
  if (!(queue.device() == buffer.device())) {
    throw LogicError(
        fmt::format("Buffer::{}: {}", what,
                    detail::describe_mismatch("queue", queue.device(), "buffer", buffer.device())));
  }
}

void check_size(const Buffer& buffer, std::size_t size, const char* what) {
  if (size != buffer.size()) {
    throw LogicError(fmt::format("Buffer::{}: the host data has {} bytes, the buffer {}", what,
                                 size, buffer.size()));
  }
}

Buffer make_buffer(const BoundDevice& device, std::unique_ptr<backend::BufferAdapter> adapter,
                   std::size_t size) {
  const auto& api = detail::loaded(device.context().api());
  auto impl = std::make_shared<detail::BufferImpl>(
      detail::BufferImpl{device, nullptr, nullptr, 0, size, nullptr, nullptr});
  impl->adapter = api.adopt(std::move(adapter));
  return detail::Access::make<Buffer>(std::move(impl));
}

/// The backend's managed-memory methods exist only from SDK 1.6 on: older vtables end before
/// them.
const detail::LoadedApi& require_sdk_1_6(const BoundDevice& device, const char* what) {
  const auto& api = detail::loaded(device.context().api());
  if (api.abi_minor < 6) {
    throw LogicError(fmt::format(
        "Buffer::{}: {} has no managed memory: its plugin implements SDK 1.{}, and managed "
        "memory needs SDK 1.6",
        what, api.name, api.abi_minor));
  }
  return api;
}

/// Refuses buffers that are not managed, and queues of another device.
void check_managed(const Buffer& buffer, const Queue* queue, const char* what) {
  if (queue != nullptr) check_queue(buffer, *queue, what);
  if (!buffer.is_managed()) {
    throw LogicError(fmt::format(
        "Buffer::{}: the buffer ({} bytes on device {}, '{}') is not managed memory (see "
        "Buffer::allocate_managed)",
        what, buffer.size(), buffer.device().index(), buffer.device().name()));
  }
}

}  // namespace

Buffer Buffer::allocate_managed(const BoundDevice& device, std::size_t size, ManagedAttach attach) {
  if (size == 0) throw LogicError("Buffer::allocate_managed: size must be greater than 0");
  if (attach == ManagedAttach::single) {
    throw LogicError(
        "Buffer::allocate_managed: memory cannot be allocated attached to a single queue; "
        "allocate it global or host, then call attach(queue, ManagedAttach::single)");
  }
  require_sdk_1_6(device, "allocate_managed");
  auto adapter = detail::adapter(device.context()).allocate_managed(device.index(), size, attach);
  if (adapter->host_pointer() == nullptr) {
    throw LogicError(fmt::format(
        "Buffer::allocate_managed: the {} backend returned managed memory without a host "
        "pointer",
        device.context().api().shortcut()));
  }
  return make_buffer(device, std::move(adapter), size);
}

bool Buffer::is_managed() const noexcept {
  return detail::loaded(device().context().api()).abi_minor >= 6 &&
         impl_->adapter->host_pointer() != nullptr;
}

std::byte* Buffer::host_pointer() const {
  check_managed(*this, nullptr, "host_pointer");
  return static_cast<std::byte*>(impl_->adapter->host_pointer());
}

bool Buffer::prefetch(const Queue& queue, ManagedLocation to) const {
  check_managed(*this, &queue, "prefetch");
  detail::note_use(*this, queue);
  return detail::Access::adapter(queue).prefetch(*impl_->adapter, to);
}

bool Buffer::advise(const Queue& queue, ManagedAdvice advice, ManagedLocation location) const {
  check_managed(*this, &queue, "advise");
  detail::note_use(*this, queue);
  return detail::Access::adapter(queue).advise(*impl_->adapter, advice, location);
}

void Buffer::attach(const Queue& queue, ManagedAttach attach) const {
  check_managed(*this, &queue, "attach");
  if (impl_->parent != nullptr) {
    throw LogicError(fmt::format(
        "Buffer::attach: the buffer is a region (bytes [{}, {})) of a managed allocation; "
        "attach the whole allocation",
        impl_->offset, impl_->offset + impl_->size));
  }
  detail::note_use(*this, queue);
  // A backend without attach kinds has memory every queue reaches: global already.
  if (!detail::Access::adapter(queue).attach(*impl_->adapter, attach) &&
      attach != ManagedAttach::global) {
    throw LogicError(fmt::format(
        "Buffer::attach: the {} backend has no attach kinds (its managed memory is always "
        "reachable by every queue), so it cannot attach memory as '{}'",
        device().context().api().shortcut(), to_string(attach)));
  }
}

Buffer Buffer::allocate(const BoundDevice& device, std::size_t size) {
  if (size == 0) throw LogicError("Buffer::allocate: size must be greater than 0");
  return make_buffer(device, detail::adapter(device.context()).allocate(device.index(), size),
                     size);
}

Buffer Buffer::from_backend_buffer(const BoundDevice& device, std::uintptr_t native_memory,
                                   std::size_t size, bool take_ownership) {
  if (size == 0) throw LogicError("Buffer::from_backend_buffer: size must be greater than 0");
  return make_buffer(device,
                     detail::adapter(device.context())
                         .wrap_buffer(device.index(), native_memory, size, take_ownership),
                     size);
}

Buffer Buffer::from_backend_buffer(const BoundDevice& device, std::uintptr_t native_memory,
                                   std::size_t size, std::shared_ptr<void> owner) {
  Buffer buffer = from_backend_buffer(device, native_memory, size, false);
  if (owner) {
    // The adapter goes first (it may still name the memory, e.g. a cl_mem), then the owner.
    auto& adapter = buffer.impl_->adapter;
    adapter = std::shared_ptr<backend::BufferAdapter>(
        adapter.get(), [adapter, owner = std::move(owner)](backend::BufferAdapter*) mutable {
          adapter.reset();
          owner.reset();
        });
  }
  return buffer;
}

PitchedBuffer Buffer::allocate_pitched(const BoundDevice& device, std::size_t width_bytes,
                                       std::size_t height, std::size_t depth) {
  if (width_bytes == 0 || height == 0 || depth == 0) {
    throw LogicError(fmt::format(
        "Buffer::allocate_pitched: {} x {} x {} bytes: every size must be greater than 0",
        width_bytes, height, depth));
  }
  std::size_t rows = 0;
  if (__builtin_mul_overflow(height, depth, &rows)) rows = 0;
  const auto too_large = [&] {
    return LogicError(
        fmt::format("Buffer::allocate_pitched: {} x {} x {} bytes overflow the size of an address",
                    width_bytes, height, depth));
  };
  if (rows == 0) throw too_large();
  auto& context = detail::adapter(device.context());
  std::size_t pitch = 0;
  std::size_t size = 0;
  if (detail::loaded(device.context().api()).abi_minor >= 6) {
    if (auto adapter = context.allocate_pitched(device.index(), width_bytes, rows, pitch)) {
      if (pitch < width_bytes || __builtin_mul_overflow(pitch, rows, &size)) {
        throw LogicError(fmt::format(
            "Buffer::allocate_pitched: the backend returned pitch {} for a width of {} bytes",
            pitch, width_bytes));
      }
      return {make_buffer(device, std::move(adapter), size), pitch, pitch * height};
    }
  }
  // The core's default: rows start at the device's sub-buffer alignment (what OpenCL's
  // sub-buffers and most DMA engines like best).
  const std::size_t alignment = std::max<std::size_t>(device.params().address_alignment, 1);
  if (__builtin_add_overflow(width_bytes, alignment - 1, &pitch)) throw too_large();
  pitch -= pitch % alignment;
  if (__builtin_mul_overflow(pitch, rows, &size)) throw too_large();
  return {allocate(device, size), pitch, pitch * height};
}

void Buffer::get(const Queue& queue, std::span<std::byte> dest, bool async) const {
  check_queue(*this, queue, "get");
  check_size(*this, dest.size(), "get");
  detail::note_use(*this, queue);
  detail::Access::adapter(queue).read(dest.data(), *impl_->adapter, 0, dest.size(), async);
  if (!async) detail::queue_idle(queue);
}

void Buffer::set(const Queue& queue, std::span<const std::byte> src, bool no_async) const {
  check_queue(*this, queue, "set");
  check_size(*this, src.size(), "set");
  detail::note_use(*this, queue);
  // No queue_idle() when blocking: the write returns once `src` is copied out, not once
  // the queue's work is done.
  detail::Access::adapter(queue).write(*impl_->adapter, 0, src.data(), src.size(), !no_async);
}

void Buffer::set(const Queue& queue, const Buffer& src, bool no_async) const {
  check_queue(*this, queue, "set");
  if (!(src.device().context() == device().context())) {
    throw LogicError(fmt::format(
        "Buffer::set: {}",
        detail::describe_mismatch("source buffer", src.device(), "destination buffer", device())));
  }
  check_size(*this, src.size(), "set");
  detail::copy_buffer_region(queue, *this, 0, src, 0, size());
  if (no_async) queue.synchronize();
}

Buffer Buffer::get_sub_region(std::size_t origin, std::size_t size) const {
  if (size == 0 || origin > impl_->size || size > impl_->size - origin) {
    throw LogicError(
        fmt::format("Buffer::get_sub_region: [{}, {}) is outside the buffer's {} "
                    "bytes or empty",
                    origin, origin + size, impl_->size));
  }
  auto root = impl_->parent ? impl_->parent : impl_;
  const auto& api = detail::loaded(device().context().api());
  auto sub = std::make_shared<detail::BufferImpl>(detail::BufferImpl{
      impl_->device, root, nullptr, impl_->offset + origin, size, nullptr, impl_->lease});
  // A pool block's regions are cut from its segment: the SDK's sub_region() takes roots only.
  sub->adapter = api.adopt(impl_->lease ? impl_->lease->region(impl_->offset + origin, size)
                                        : root->adapter->sub_region(impl_->offset + origin, size));
  if (root->sub_regions) root->sub_regions->add(sub);  // a virtual buffer's: pack() moves it
  return Buffer(std::move(sub));
}

bool Buffer::overlaps(const Buffer& other) const noexcept {
  const auto* root = impl_->parent ? impl_->parent.get() : impl_.get();
  const auto* other_root = other.impl_->parent ? other.impl_->parent.get() : other.impl_.get();
  if (root != other_root) return false;
  return impl_->offset < other.impl_->offset + other.impl_->size &&
         other.impl_->offset < impl_->offset + impl_->size;
}

void Buffer::record_queue(const Queue& queue) const {
  if (!(queue.device().context() == device().context())) {
    throw LogicError(
        fmt::format("Buffer::record_queue: {}",
                    detail::describe_mismatch("queue", queue.device(), "buffer", device())));
  }
  detail::note_use(*this, queue);
}

std::size_t Buffer::offset() const { return impl_->offset; }
std::size_t Buffer::size() const { return impl_->size; }
const BoundDevice& Buffer::device() const { return impl_->device; }
std::uintptr_t Buffer::native_handle() const { return impl_->adapter->native_handle(); }
backend::BufferAdapter& Buffer::adapter() const { return *impl_->adapter; }

}  // namespace plinth
