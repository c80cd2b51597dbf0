#include "queue.hpp"

#include "buffer.hpp"
#include "error.hpp"
#include "event.hpp"

namespace plinth::opencl {

namespace {

// Buffers of this context are always this backend's.
Buffer& cast(backend::BufferAdapter& buffer) { return static_cast<Buffer&>(buffer); }

}  // namespace

Queue::~Queue() { PLINTH_CHECK_IN_DESTRUCTOR(clReleaseCommandQueue(queue_)); }

void Queue::write(backend::BufferAdapter& dst, std::size_t dst_offset, const void* src,
                  std::size_t size, bool async) {
  auto& buffer = cast(dst);
  PLINTH_CHECK(clEnqueueWriteBuffer(queue_, buffer.root(), async ? CL_FALSE : CL_TRUE,
                                    buffer.offset() + dst_offset, size, src, 0, nullptr, nullptr));
}

void Queue::read(void* dst, backend::BufferAdapter& src, std::size_t src_offset, std::size_t size,
                 bool async) {
  auto& buffer = cast(src);
  PLINTH_CHECK(clEnqueueReadBuffer(queue_, buffer.root(), async ? CL_FALSE : CL_TRUE,
                                   buffer.offset() + src_offset, size, dst, 0, nullptr, nullptr));
}

void Queue::copy(backend::BufferAdapter& dst, std::size_t dst_offset, backend::BufferAdapter& src,
                 std::size_t src_offset, std::size_t size) {
  auto& to = cast(dst);
  auto& from = cast(src);
  PLINTH_CHECK(clEnqueueCopyBuffer(queue_, from.root(), to.root(), from.offset() + src_offset,
                                   to.offset() + dst_offset, size, 0, nullptr, nullptr));
}

void Queue::synchronize() { PLINTH_CHECK(clFinish(queue_)); }

std::unique_ptr<backend::EventAdapter> Queue::record_event() {
  cl_event event = nullptr;
  PLINTH_CHECK(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &event));
  return std::make_unique<Event>(event);
}

void Queue::wait_for(backend::EventAdapter& event) {
  const auto handle = reinterpret_cast<cl_event>(event.native_handle());
  PLINTH_CHECK(clEnqueueBarrierWithWaitList(queue_, 1, &handle, nullptr));
}

backend::NativeHandle Queue::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(queue_);
}

}  // namespace plinth::opencl
