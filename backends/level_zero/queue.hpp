#pragma once

// A queue is an in-order immediate command list (zeCommandListCreateImmediate with
// ZE_COMMAND_QUEUE_FLAG_IN_ORDER, on the device's first compute queue group): commands run in
// the order they are appended, each after the one before. native_handle() returns that
// ze_command_list_handle_t, and wrap_queue() takes one back.
//
// ZE_COMMAND_QUEUE_FLAG_IN_ORDER is Level Zero 1.7's. On a driver of an older API version,
// and on a wrapped list (whose flags Level Zero 1.4 cannot read), the queue is made in order
// by a barrier before each command (order()): "all previous commands must complete prior to
// the execution of the barrier".
//
// Level Zero 1.4 (libze-dev 1.8's headers) has no zeCommandListHostSynchronize (1.6), so the
// queue waits on the host through an event of its own (sync_): reset on the host, signalled
// by the last command (a barrier, or a synchronous transfer's copy), waited for with
// zeEventHostSynchronize.

#include <plinth/backend/queue.hpp>

#include <level_zero/ze_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace plinth::level_zero {

class ContextState;
class EventPools;
class EventSlot;
class Retirements;

/// A command list of one device of a context. One thread at a time calls its work methods.
class Queue final : public backend::QueueAdapter {
 public:
  /// Adopts `list` (destroyed with the queue when `owned`); `in_order`: whether it was made
  /// with ZE_COMMAND_QUEUE_FLAG_IN_ORDER. Registers with `retirements`, which it tells when
  /// its work is done. Throws BackendError.
  Queue(std::shared_ptr<ContextState> state, std::shared_ptr<EventPools> events,
        std::shared_ptr<Retirements> retirements, std::size_t device, ze_command_list_handle_t list,
        bool owned, bool in_order);
  /// Waits for the queued work (a command list must not be destroyed while the device uses
  /// it), tells the retirements, then destroys the list if owned. Never throws.
  ~Queue() override;
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  /// zeCommandListAppendMemoryCopy; synchronous ones wait for their copy.
  void write(backend::BufferAdapter& dst, std::size_t dst_offset, const void* src, std::size_t size,
             bool async) override;
  void read(void* dst, backend::BufferAdapter& src, std::size_t src_offset, std::size_t size,
            bool async) override;
  void copy(backend::BufferAdapter& dst, std::size_t dst_offset, backend::BufferAdapter& src,
            std::size_t src_offset, std::size_t size) override;
  /// A barrier signalling sync_, waited for on the host; then lets go of the events that
  /// wait_for() held.
  void synchronize() override;
  /// Writes the device's global timestamp into the event's host memory and signals it
  /// (zeCommandListAppendWriteGlobalTimestamp), after all earlier commands (in order).
  std::unique_ptr<backend::EventAdapter> record_event() override;
  /// Resets the event in queue order (zeCommandListAppendEventReset) and records it again:
  /// the reset runs once this queue's earlier work is done and the new signal right after,
  /// so a queue still waiting for the previous recording waits at most for this one.
  bool record_event_again(backend::EventAdapter& event) override;
  /// zeCommandListAppendWaitOnEvents; holds the event's slot until the next synchronize(),
  /// so that it is not reset for reuse while this queue may still wait for it. A queue that
  /// holds 256 such slots synchronizes first (Level Zero cannot say when a wait has passed).
  void wait_for(backend::EventAdapter& event) override;
  /// The ze_command_list_handle_t.
  backend::NativeHandle native_handle() const override;
  /// zeCommandListAppendMemoryCopy across devices of the context where the queue's device
  /// can access the source's (zeDeviceCanAccessPeer); false otherwise.
  bool copy_peer(backend::BufferAdapter& dst, std::size_t dst_device, std::size_t dst_offset,
                 backend::BufferAdapter& src, std::size_t src_device, std::size_t src_offset,
                 std::size_t size) override;

  // SDK 1.6: zeCommandListAppendMemoryCopyRegion (see queue.cpp).
  bool copy_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                 backend::BufferAdapter& src, const backend::RectSide& src_side,
                 const backend::RectShape& shape) override;
  bool write_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side, const void* src,
                  const backend::RectSide& src_side, const backend::RectShape& shape,
                  bool async) override;
  bool read_rect(void* dst, const backend::RectSide& dst_side, backend::BufferAdapter& src,
                 const backend::RectSide& src_side, const backend::RectShape& shape,
                 bool async) override;
  bool copy_rect_peer(backend::BufferAdapter& dst, std::size_t dst_device,
                      const backend::RectSide& dst_side, backend::BufferAdapter& src,
                      std::size_t src_device, const backend::RectSide& src_side,
                      const backend::RectShape& shape) override;
  /// SDK 1.6: zeCommandListAppendMemoryFill, for patterns of a power of two up to the compute
  /// queue group's maxMemoryFillPatternSize (the core aligns the offset and size to the
  /// pattern); false for longer ones.
  bool fill(backend::BufferAdapter& buffer, std::size_t offset, std::size_t size,
            std::span<const std::byte> pattern) override;

  // SDK 1.6: managed memory, ordered in the command list: prefetches to the device
  // (zeCommandListAppendMemoryPrefetch; none to the host) and advice
  // (zeCommandListAppendMemAdvise: read-mostly and a preferred location on the device; no
  // accessed-by, no host location). No attach kinds: the default says so.
  bool prefetch(backend::BufferAdapter& buffer, ManagedLocation to) override;
  bool advise(backend::BufferAdapter& buffer, ManagedAdvice advice,
              ManagedLocation location) override;

  // SDK 1.8: image copies (image.hpp), appended as the transfers above, synchronous ones
  // waited for. Memory sides: zeCommandListAppendImageCopy{From,To}Memory for packed rows and
  // slices, the *Ext forms with pitches where the driver has ZE_extension_image_copy (2-D and
  // 3-D images and 2-D arrays); other layouts are refused (false). Between images:
  // zeCommandListAppendImageCopyRegion.
  bool write_image(backend::ImageAdapter& dst, const ImageBox& box, const void* src,
                   const backend::RectSide& src_side, bool async) override;
  bool read_image(void* dst, const backend::RectSide& dst_side, backend::ImageAdapter& src,
                  const ImageBox& box, bool async) override;
  bool copy_buffer_to_image(backend::ImageAdapter& dst, const ImageBox& box,
                            backend::BufferAdapter& src,
                            const backend::RectSide& src_side) override;
  bool copy_image_to_buffer(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                            backend::ImageAdapter& src, const ImageBox& box) override;
  void copy_image(backend::ImageAdapter& dst, const std::array<std::size_t, 3>& dst_origin,
                  backend::ImageAdapter& src, const ImageBox& src_box) override;

  ze_command_list_handle_t list() const { return list_; }
  /// Called before appending a command: on a list not known to be in order, a barrier, so
  /// that the command starts once every earlier one has completed. Throws BackendError.
  void order();
  std::size_t device() const { return device_; }

 private:
  // A rectangular copy between two pointers (device or host memory), asynchronous or waited
  // for; false where a number does not fit the API's 32 bits.
  bool rect(void* dst, const backend::RectSide& dst_side, const void* src,
            const backend::RectSide& src_side, const backend::RectShape& shape, bool async);

  /// Appends `append(signal)` with sync_ as its signal event and waits for it on the host;
  /// every earlier command has completed then (retirements_ is told).
  template <class Append>
  void append_and_wait(Append append);
  /// Appends `append(signal)`: without a signal when `async`, else through append_and_wait().
  template <class Append>
  void append_maybe_wait(bool async, Append append);
  // An image copy to (`to_image`) or from `image` of `box` with memory at `memory` laid out
  // as `side`; false where Level Zero cannot take the layout (image.hpp's memory_layout()).
  bool memory_image_copy(bool to_image, backend::ImageAdapter& image, const ImageBox& box,
                         void* memory, const backend::RectSide& side, bool async);

  std::shared_ptr<ContextState> state_;
  std::shared_ptr<EventPools> events_;
  std::shared_ptr<Retirements> retirements_;
  std::uint64_t retirement_id_ = 0;  // this queue's id in retirements_
  std::size_t device_;
  ze_command_list_handle_t list_;
  bool owned_;
  bool in_order_;
  std::shared_ptr<EventSlot> sync_;
  std::vector<std::shared_ptr<EventSlot>> held_;  // events wait_for() appended waits on
};

}  // namespace plinth::level_zero
