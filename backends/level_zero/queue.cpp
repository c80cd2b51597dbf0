#include "queue.hpp"

#include "buffer.hpp"
#include "context.hpp"
#include "error.hpp"
#include "event.hpp"
#include "event_pool.hpp"
#include "image.hpp"
#include "retirements.hpp"

#include <plinth/errors.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace plinth::level_zero {

namespace {

constexpr std::uint64_t forever = std::numeric_limits<std::uint64_t>::max();

// Events a queue holds for its waits before it synchronizes by itself (wait_for()).
constexpr std::size_t max_held = 256;

}  // namespace

Queue::Queue(std::shared_ptr<ContextState> state, std::shared_ptr<EventPools> events,
             std::shared_ptr<Retirements> retirements, std::size_t device,
             ze_command_list_handle_t list, bool owned, bool in_order)
    : state_(std::move(state)),
      events_(std::move(events)),
      retirements_(std::move(retirements)),
      device_(device),
      list_(list),
      owned_(owned),
      in_order_(in_order) {
  try {
    sync_ = events_->take();
    sync_->mark_recorded();  // retired when given back: it may be signalled by a late barrier
    retirement_id_ = retirements_->add_queue(device_);
  } catch (...) {
    if (owned_) PLINTH_CHECK_IN_DESTRUCTOR(zeCommandListDestroy(list_));
    throw;
  }
}

Queue::~Queue() {
  if (PLINTH_CHECK_IN_DESTRUCTOR(zeEventHostReset(sync_->event())) &&
      PLINTH_CHECK_IN_DESTRUCTOR(zeCommandListAppendBarrier(list_, sync_->event(), 0, nullptr)))
    PLINTH_CHECK_IN_DESTRUCTOR(zeEventHostSynchronize(sync_->event(), forever));
  // Whatever this queue's commands used may go now (had the wait failed, the driver is in no
  // state to run them either).
  retirements_->remove_queue(retirement_id_);
  held_.clear();
  if (owned_) PLINTH_CHECK_IN_DESTRUCTOR(zeCommandListDestroy(list_));
}

void Queue::order() {
  if (!in_order_) PLINTH_CHECK(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
}

template <class Append>
void Queue::append_and_wait(Append append) {
  // sync_ was waited for by the last call: nothing else uses it, and resetting it is safe.
  PLINTH_CHECK(zeEventHostReset(sync_->event()));
  order();
  append(sync_->event());
  PLINTH_CHECK(zeEventHostSynchronize(sync_->event(), forever));
  retirements_->queue_idle(retirement_id_);  // every earlier command has completed
}

template <class Append>
void Queue::append_maybe_wait(bool async, Append append) {
  if (async) {
    order();
    append(nullptr);
  } else {
    append_and_wait(append);
  }
}

void Queue::write(backend::BufferAdapter& dst, std::size_t dst_offset, const void* src,
                  std::size_t size, bool async) {
  void* target = device_pointer(dst, dst_offset);
  if (async) {
    order();
    PLINTH_CHECK(zeCommandListAppendMemoryCopy(list_, target, src, size, nullptr, 0, nullptr));
    return;
  }
  append_and_wait([&](ze_event_handle_t signal) {
    PLINTH_CHECK(zeCommandListAppendMemoryCopy(list_, target, src, size, signal, 0, nullptr));
  });
}

void Queue::read(void* dst, backend::BufferAdapter& src, std::size_t src_offset, std::size_t size,
                 bool async) {
  const void* source = device_pointer(src, src_offset);
  if (async) {
    order();
    PLINTH_CHECK(zeCommandListAppendMemoryCopy(list_, dst, source, size, nullptr, 0, nullptr));
    return;
  }
  append_and_wait([&](ze_event_handle_t signal) {
    PLINTH_CHECK(zeCommandListAppendMemoryCopy(list_, dst, source, size, signal, 0, nullptr));
  });
}

void Queue::copy(backend::BufferAdapter& dst, std::size_t dst_offset, backend::BufferAdapter& src,
                 std::size_t src_offset, std::size_t size) {
  order();
  PLINTH_CHECK(zeCommandListAppendMemoryCopy(list_, device_pointer(dst, dst_offset),
                                             device_pointer(src, src_offset), size, nullptr, 0,
                                             nullptr));
}

bool Queue::copy_peer(backend::BufferAdapter& dst, std::size_t /*dst_device*/,
                      std::size_t dst_offset, backend::BufferAdapter& src, std::size_t src_device,
                      std::size_t src_offset, std::size_t size) {
  // This queue is on the destination's device; it must reach the source's memory.
  if (!state_->can_access(device_, src_device)) return false;
  copy(dst, dst_offset, src, src_offset, size);
  return true;
}

// Rectangular copies: zeCommandListAppendMemoryCopyRegion, whose pointers may be device or
// host memory alike, so one call serves all four directions. The sides' offsets go into the
// pointers (origins 0); pitches, slice pitches and sizes are 32-bit in the API: a copy with a
// larger one returns false (the core copies plane by plane, then row by row). A 2-D copy's
// slice pitch is its plane's bytes.

namespace {

bool fits(std::size_t value) { return value <= std::numeric_limits<std::uint32_t>::max(); }

}  // namespace

bool Queue::rect(void* dst, const backend::RectSide& dst_side, const void* src,
                 const backend::RectSide& src_side, const backend::RectShape& shape, bool async) {
  const std::size_t dst_slice =
      shape.depth == 1 ? dst_side.row_pitch * shape.height : dst_side.slice_pitch;
  const std::size_t src_slice =
      shape.depth == 1 ? src_side.row_pitch * shape.height : src_side.slice_pitch;
  if (!fits(shape.width) || !fits(shape.height) || !fits(shape.depth) ||
      !fits(dst_side.row_pitch) || !fits(src_side.row_pitch) || !fits(dst_slice) ||
      !fits(src_slice))
    return false;
  const ze_copy_region_t region{0,
                                0,
                                0,
                                static_cast<std::uint32_t>(shape.width),
                                static_cast<std::uint32_t>(shape.height),
                                static_cast<std::uint32_t>(shape.depth)};
  auto* to = static_cast<std::byte*>(dst) + dst_side.offset;
  const auto* from = static_cast<const std::byte*>(src) + src_side.offset;
  const auto append = [&](ze_event_handle_t signal) {
    PLINTH_CHECK(zeCommandListAppendMemoryCopyRegion(
        list_, to, &region, static_cast<std::uint32_t>(dst_side.row_pitch),
        static_cast<std::uint32_t>(dst_slice), from, &region,
        static_cast<std::uint32_t>(src_side.row_pitch), static_cast<std::uint32_t>(src_slice),
        signal, 0, nullptr));
  };
  if (async) {
    order();
    append(nullptr);
  } else {
    append_and_wait(append);
  }
  return true;
}

bool Queue::copy_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                      backend::BufferAdapter& src, const backend::RectSide& src_side,
                      const backend::RectShape& shape) {
  return rect(device_pointer(dst, 0), dst_side, device_pointer(src, 0), src_side, shape, true);
}

bool Queue::write_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                       const void* src, const backend::RectSide& src_side,
                       const backend::RectShape& shape, bool async) {
  return rect(device_pointer(dst, 0), dst_side, src, src_side, shape, async);
}

bool Queue::read_rect(void* dst, const backend::RectSide& dst_side, backend::BufferAdapter& src,
                      const backend::RectSide& src_side, const backend::RectShape& shape,
                      bool async) {
  return rect(dst, dst_side, device_pointer(src, 0), src_side, shape, async);
}

bool Queue::copy_rect_peer(backend::BufferAdapter& dst, std::size_t /*dst_device*/,
                           const backend::RectSide& dst_side, backend::BufferAdapter& src,
                           std::size_t src_device, const backend::RectSide& src_side,
                           const backend::RectShape& shape) {
  // As copy_peer(): this queue's device must reach the source's memory.
  if (!state_->can_access(device_, src_device)) return false;
  return copy_rect(dst, dst_side, src, src_side, shape);
}

bool Queue::fill(backend::BufferAdapter& buffer, std::size_t offset, std::size_t size,
                 std::span<const std::byte> pattern) {
  const std::size_t n = pattern.size();
  if (n == 0 || (n & (n - 1)) != 0 || n > (*state_)[device_].max_fill_pattern) return false;
  if (size == 0) return true;
  order();
  PLINTH_CHECK(zeCommandListAppendMemoryFill(list_, device_pointer(buffer, offset), pattern.data(),
                                             n, size, nullptr, 0, nullptr));
  return true;
}

void Queue::synchronize() {
  append_and_wait([&](ze_event_handle_t signal) {
    PLINTH_CHECK(zeCommandListAppendBarrier(list_, signal, 0, nullptr));
  });
  held_.clear();  // every wait this queue appended is behind it now
}

std::unique_ptr<backend::EventAdapter> Queue::record_event() {
  auto slot = events_->take();
  const DeviceEntry& entry = (*state_)[device_];
  auto event = std::make_unique<Event>(slot, entry.ns_per_tick, entry.timestamp_mask);
  order();
  PLINTH_CHECK(zeCommandListAppendWriteGlobalTimestamp(list_, slot->timestamp_address(),
                                                       slot->event(), 0, nullptr));
  slot->mark_recorded();
  return event;
}

bool Queue::record_event_again(backend::EventAdapter& event) {
  const auto& slot = static_cast<Event&>(event).slot();
  order();
  PLINTH_CHECK(zeCommandListAppendEventReset(list_, slot->event()));
  order();
  PLINTH_CHECK(zeCommandListAppendWriteGlobalTimestamp(list_, slot->timestamp_address(),
                                                       slot->event(), 0, nullptr));
  return true;
}

void Queue::wait_for(backend::EventAdapter& event) {
  const auto& slot = static_cast<Event&>(event).slot();
  ze_event_handle_t handle = slot->event();
  // Every held slot is an event its pool cannot reuse: a queue that waits this often without
  // a synchronize() drains once, so that the pools stay bounded.
  if (held_.size() >= max_held) synchronize();
  held_.push_back(slot);
  PLINTH_CHECK(zeCommandListAppendWaitOnEvents(list_, 1, &handle));
}

backend::NativeHandle Queue::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(list_);
}

// Image copies (image.hpp). The memory side's offset goes into the pointer; host memory and
// device memory (a buffer's USM pointer) take the same calls. Level Zero's image regions use
// OpenCL's axes, as plinth's boxes do.

namespace {

// The image adapter of this backend (the core only hands us ours).
Image& image_of(backend::ImageAdapter& adapter) { return static_cast<Image&>(adapter); }

// The region of `origin` and `size`, which lie inside an image (whose sides are 32-bit).
ze_image_region_t region_of(const std::array<std::size_t, 3>& origin,
                            const std::array<std::size_t, 3>& size) {
  const auto region = image_region(origin, size);
  if (!region) throw LogicError("Level Zero image copy: a box beyond 32-bit sizes");
  return *region;
}

}  // namespace

bool Queue::memory_image_copy(bool to_image, backend::ImageAdapter& adapter, const ImageBox& box,
                              void* memory, const backend::RectSide& side, bool async) {
  Image& image = image_of(adapter);
  const auto layout =
      memory_layout(image.type(), box, side, image.format().pixel_size(), state_->image_copy_ext());
  if (!layout) return false;
  const ze_image_region_t region = region_of(box.origin, box.size);
  auto* at = static_cast<std::byte*>(memory) + side.offset;
  append_maybe_wait(async, [&](ze_event_handle_t signal) {
    if (to_image && layout->pitched) {
      PLINTH_CHECK(zeCommandListAppendImageCopyFromMemoryExt(list_, image.handle(), at, &region,
                                                             layout->row_pitch, layout->slice_pitch,
                                                             signal, 0, nullptr));
    } else if (to_image) {
      PLINTH_CHECK(zeCommandListAppendImageCopyFromMemory(list_, image.handle(), at, &region,
                                                          signal, 0, nullptr));
    } else if (layout->pitched) {
      PLINTH_CHECK(zeCommandListAppendImageCopyToMemoryExt(list_, at, image.handle(), &region,
                                                           layout->row_pitch, layout->slice_pitch,
                                                           signal, 0, nullptr));
    } else {
      PLINTH_CHECK(zeCommandListAppendImageCopyToMemory(list_, at, image.handle(), &region, signal,
                                                        0, nullptr));
    }
  });
  return true;
}

bool Queue::write_image(backend::ImageAdapter& dst, const ImageBox& box, const void* src,
                        const backend::RectSide& src_side, bool async) {
  return memory_image_copy(true, dst, box, const_cast<void*>(src), src_side, async);
}

bool Queue::read_image(void* dst, const backend::RectSide& dst_side, backend::ImageAdapter& src,
                       const ImageBox& box, bool async) {
  return memory_image_copy(false, src, box, dst, dst_side, async);
}

bool Queue::copy_buffer_to_image(backend::ImageAdapter& dst, const ImageBox& box,
                                 backend::BufferAdapter& src, const backend::RectSide& src_side) {
  return memory_image_copy(true, dst, box, device_pointer(src), src_side, true);
}

bool Queue::copy_image_to_buffer(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                                 backend::ImageAdapter& src, const ImageBox& box) {
  return memory_image_copy(false, src, box, device_pointer(dst), dst_side, true);
}

void Queue::copy_image(backend::ImageAdapter& dst, const std::array<std::size_t, 3>& dst_origin,
                       backend::ImageAdapter& src, const ImageBox& src_box) {
  const ze_image_region_t to = region_of(dst_origin, src_box.size);
  const ze_image_region_t from = region_of(src_box.origin, src_box.size);
  order();
  PLINTH_CHECK(zeCommandListAppendImageCopyRegion(
      list_, image_of(dst).handle(), image_of(src).handle(), &to, &from, nullptr, 0, nullptr));
}

bool Queue::prefetch(backend::BufferAdapter& buffer, ManagedLocation to) {
  if (to != ManagedLocation::device) return false;
  order();
  PLINTH_CHECK(zeCommandListAppendMemoryPrefetch(list_, device_pointer(buffer), buffer.size()));
  return true;
}

bool Queue::advise(backend::BufferAdapter& buffer, ManagedAdvice advice, ManagedLocation location) {
  ze_memory_advice_t native = ZE_MEMORY_ADVICE_FORCE_UINT32;
  switch (advice) {
    case ManagedAdvice::set_read_mostly: native = ZE_MEMORY_ADVICE_SET_READ_MOSTLY; break;
    case ManagedAdvice::unset_read_mostly: native = ZE_MEMORY_ADVICE_CLEAR_READ_MOSTLY; break;
    case ManagedAdvice::set_preferred_location:
    case ManagedAdvice::unset_preferred_location:
      // The device only (the system-memory advice came after the headers plinth builds with).
      if (location != ManagedLocation::device) return false;
      native = advice == ManagedAdvice::set_preferred_location
                   ? ZE_MEMORY_ADVICE_SET_PREFERRED_LOCATION
                   : ZE_MEMORY_ADVICE_CLEAR_PREFERRED_LOCATION;
      break;
    case ManagedAdvice::set_accessed_by:
    case ManagedAdvice::unset_accessed_by: return false;
  }
  order();
  PLINTH_CHECK(zeCommandListAppendMemAdvise(list_, (*state_)[device_].device,
                                            device_pointer(buffer), buffer.size(), native));
  return true;
}
}  // namespace plinth::level_zero
