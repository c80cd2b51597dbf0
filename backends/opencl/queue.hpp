#pragma once

#include <plinth/backend/queue.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <memory>

namespace plinth::opencl {

/// An in-order, profiling-enabled cl_command_queue (one reference owned).
class Queue final : public backend::QueueAdapter {
 public:
  /// Adopts `queue`'s reference.
  explicit Queue(cl_command_queue queue) noexcept : queue_(queue) {}

  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;
  ~Queue() override;

  void write(backend::BufferAdapter& dst, std::size_t dst_offset, const void* src, std::size_t size,
             bool async) override;
  void read(void* dst, backend::BufferAdapter& src, std::size_t src_offset, std::size_t size,
            bool async) override;
  void copy(backend::BufferAdapter& dst, std::size_t dst_offset, backend::BufferAdapter& src,
            std::size_t src_offset, std::size_t size) override;
  void synchronize() override;
  std::unique_ptr<backend::EventAdapter> record_event() override;
  void wait_for(backend::EventAdapter& event) override;
  backend::NativeHandle native_handle() const override;

 private:
  cl_command_queue queue_;
};

}  // namespace plinth::opencl
