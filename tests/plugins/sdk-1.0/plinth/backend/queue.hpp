#pragma once

#include <plinth/backend/buffer.hpp>
#include <plinth/backend/event.hpp>

#include <cstddef>
#include <memory>

namespace plinth::backend {

/// An in-order queue (stream, command queue, command list) on one device of a context.
/// Transfers take buffers of the same context; offsets and sizes were checked by the core.
class QueueAdapter {
 public:
  virtual ~QueueAdapter() = default;
  /// Host to device. With `async`, returns once enqueued; `src` must then stay valid and
  /// unchanged until the queue is synchronized.
  virtual void write(BufferAdapter& dst, std::size_t dst_offset, const void* src, std::size_t size,
                     bool async) = 0;
  /// Device to host. With `async`, `dst` is valid only after the queue is synchronized.
  virtual void read(void* dst, BufferAdapter& src, std::size_t src_offset, std::size_t size,
                    bool async) = 0;
  /// Device to device, ordered in this queue (never blocks the host).
  virtual void copy(BufferAdapter& dst, std::size_t dst_offset, BufferAdapter& src,
                    std::size_t src_offset, std::size_t size) = 0;
  /// Blocks until all work enqueued so far is done.
  virtual void synchronize() = 0;
  /// Marks the current end of the queue's work (timing-capable).
  virtual std::unique_ptr<EventAdapter> record_event() = 0;
  /// Makes later work in this queue wait for `event` (possibly of another queue).
  virtual void wait_for(EventAdapter& event) = 0;
  /// cl_command_queue, CUstream, hipStream_t, ze_command_list_handle_t.
  virtual NativeHandle native_handle() const = 0;
};

}  // namespace plinth::backend
