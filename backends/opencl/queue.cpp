#include "queue.hpp"

#include "blas.hpp"
#include "buffer.hpp"
#include "context.hpp"
#include "error.hpp"
#include "event.hpp"
#include "image.hpp"
#include "svm.hpp"

#include <array>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string_view>

// Transfers. On CPU devices (PoCL) host memory is the device's memory: every transfer is the
// driver's own clEnqueueRead/WriteBuffer. On GPU devices, pageable memory from direct_max
// (32 KiB) up goes through this queue's staging ring (<plinth/backend/staging.hpp>), whose
// slots are page-locked memory of the context (a mapped CL_MEM_ALLOC_HOST_PTR buffer, which
// NVIDIA's OpenCL transfers at the DMA rate: 55 GB/s on the H100's PCIe link against 9-16 GB/s
// from pageable memory). Marks are markers; host functions are markers whose callback runs the
// function and then completes a user event that a barrier after the marker waits for.
// Page-locked memory of the context (ContextState::page_locked) and small transfers go
// straight to the driver.
//
// Only synchronous transfers are staged by default: the ring's asynchronous path needs host
// functions, and NVIDIA's OpenCL runs event callbacks late (on the H100, 33 of them took
// 600 ms: an asynchronous 256 MiB staged write ran at 0.44 GB/s against the raw call's 5.9).
// Asynchronous transfers take the driver's own path, at its rate.
//
// PLINTH_OPENCL_STAGING=always stages every transfer, asynchronous ones too, on every device
// (the tests use it on PoCL, where the host functions work); never, none; unset or anything
// else, synchronous ones on GPU devices.
//
// Synchronous writes return once the data have been copied out of the caller's memory (what a
// blocking clEnqueueWriteBuffer promises); synchronous reads with the data in place.

namespace plinth::opencl {

namespace {

constexpr std::size_t direct_max = std::size_t{32} << 10;

// Buffers of this context are always this backend's.
Buffer& cast(backend::BufferAdapter& buffer) { return static_cast<Buffer&>(buffer); }

// What the queue stages on `device` (see the top of this file).
Queue::Staging staging_on(cl_device_id device) {
  const char* setting = std::getenv("PLINTH_OPENCL_STAGING");
  const std::string_view value = setting ? setting : "";
  if (value == "always") return Queue::Staging::all;
  if (value == "never") return Queue::Staging::none;
  cl_device_type type = 0;
  PLINTH_CHECK(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type, nullptr));
  return (type & CL_DEVICE_TYPE_GPU) != 0 ? Queue::Staging::synchronous : Queue::Staging::none;
}

}  // namespace

Queue::Queue(cl_command_queue queue, std::shared_ptr<ContextState> state)
    : queue_(queue), state_(std::move(state)) {
  try {
    cl_device_id device = nullptr;
    PLINTH_CHECK(clGetCommandQueueInfo(queue_, CL_QUEUE_DEVICE, sizeof(device), &device, nullptr));
    PLINTH_CHECK(
        clGetCommandQueueInfo(queue_, CL_QUEUE_CONTEXT, sizeof(context_), &context_, nullptr));
    staging_mode_ = staging_on(device);
  } catch (...) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseCommandQueue(queue_));
    throw;
  }
}

Queue::~Queue() {
  if (staging_) {
    // Host functions and DMAs in flight still use the staging.
    PLINTH_CHECK_IN_DESTRUCTOR(clFinish(queue_));
    ring_.stop();
    for (cl_event event : slot_free_)
      if (event) PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(event));
    state_->free_host(staging_);
  }
  PLINTH_CHECK_IN_DESTRUCTOR(clReleaseCommandQueue(queue_));
}

bool Queue::staged(const void* host, std::size_t size, bool async) const noexcept {
  const bool wanted = async ? staging_mode_ == Staging::all : staging_mode_ != Staging::none;
  return wanted && size >= direct_max && !state_->page_locked(host, size);
}

void Queue::write(backend::BufferAdapter& dst, std::size_t dst_offset, const void* src,
                  std::size_t size, bool async) {
  if (staged(src, size, async) && ring_.write(dst, dst_offset, src, size, async)) {
    if (async) PLINTH_CHECK(clFlush(queue_));  // the ring's thread waits for its host functions
    return;
  }
  auto& buffer = cast(dst);
  PLINTH_CHECK(clEnqueueWriteBuffer(queue_, buffer.root(), async ? CL_FALSE : CL_TRUE,
                                    buffer.offset() + dst_offset, size, src, 0, nullptr, nullptr));
}

void Queue::read(void* dst, backend::BufferAdapter& src, std::size_t src_offset, std::size_t size,
                 bool async) {
  if (staged(dst, size, async) && ring_.read(dst, src, src_offset, size, async)) {
    if (async) PLINTH_CHECK(clFlush(queue_));
    return;
  }
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

bool Queue::copy_peer(backend::BufferAdapter& dst, std::size_t /*dst_device*/,
                      std::size_t dst_offset, backend::BufferAdapter& src,
                      std::size_t /*src_device*/, std::size_t src_offset, std::size_t size) {
  // An OpenCL buffer belongs to the context, not to a device: clEnqueueCopyBuffer between
  // buffers last used on two devices of one context is the runtime's own device-to-device
  // path (it migrates the source's memory to this queue's device as it needs), ordered in
  // this queue and not blocking the host, so it is the peer copy.
  copy(dst, dst_offset, src, src_offset, size);
  return true;
}

// Rectangular copies. OpenCL's rect calls take an origin (x bytes, row, slice) and pitches on
// each side, and refuse a slice pitch that is not a multiple of the row pitch: such 3-D copies
// return false (the core copies plane by plane). Buffers are addressed through their root
// cl_mem, the region's offset plus the buffer's own offset turned into an origin, so
// sub-regions at any offset work (a sub-buffer would need CL_DEVICE_MEM_BASE_ADDR_ALIGN).
// Host sides pass the pointer to their first byte and the origin (0, 0, 0). The driver's own
// paths (no staging ring): blocking unless `async`. Two buffers of one root cl_mem (regions of
// one allocation, or MemoryPool blocks of one segment) are refused: OpenCL wants equal pitches
// on both sides of a copy within one memory object, and its overlap check (which PoCL makes on
// the regions' bounding boxes) can refuse regions that share no byte; the core then copies them
// row by row with clEnqueueCopyBuffer.

namespace {

struct RectArgs {
  std::array<std::size_t, 3> origin{};
  std::size_t row_pitch = 0;
  std::size_t slice_pitch = 0;
};

// The side's pitches as OpenCL takes them, or nothing where it refuses them. A 2-D copy's
// slice pitch is its plane, which OpenCL checks too.
std::optional<RectArgs> rect_args(std::size_t base, const backend::RectSide& side,
                                  const backend::RectShape& shape) {
  RectArgs args;
  args.row_pitch = side.row_pitch;
  args.slice_pitch = shape.depth == 1 ? side.row_pitch * shape.height : side.slice_pitch;
  if (args.slice_pitch % args.row_pitch != 0) return std::nullopt;
  const std::size_t offset = base + side.offset;
  args.origin = {offset % args.slice_pitch % args.row_pitch,
                 offset % args.slice_pitch / args.row_pitch, offset / args.slice_pitch};
  return args;
}

}  // namespace

bool Queue::copy_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                      backend::BufferAdapter& src, const backend::RectSide& src_side,
                      const backend::RectShape& shape) {
  auto& to = cast(dst);
  auto& from = cast(src);
  if (to.root() == from.root()) return false;
  const auto d = rect_args(to.offset(), dst_side, shape);
  const auto s = rect_args(from.offset(), src_side, shape);
  if (!d || !s) return false;
  const std::array<std::size_t, 3> region{shape.width, shape.height, shape.depth};
  PLINTH_CHECK(clEnqueueCopyBufferRect(
      queue_, from.root(), to.root(), s->origin.data(), d->origin.data(), region.data(),
      s->row_pitch, s->slice_pitch, d->row_pitch, d->slice_pitch, 0, nullptr, nullptr));
  return true;
}

bool Queue::write_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                       const void* src, const backend::RectSide& src_side,
                       const backend::RectShape& shape, bool async) {
  auto& to = cast(dst);
  const auto d = rect_args(to.offset(), dst_side, shape);
  const auto s = rect_args(0, {0, src_side.row_pitch, src_side.slice_pitch}, shape);
  if (!d || !s) return false;
  const std::array<std::size_t, 3> region{shape.width, shape.height, shape.depth};
  PLINTH_CHECK(clEnqueueWriteBufferRect(
      queue_, to.root(), async ? CL_FALSE : CL_TRUE, d->origin.data(), s->origin.data(),
      region.data(), d->row_pitch, d->slice_pitch, s->row_pitch, s->slice_pitch,
      static_cast<const std::byte*>(src) + src_side.offset, 0, nullptr, nullptr));
  return true;
}

bool Queue::read_rect(void* dst, const backend::RectSide& dst_side, backend::BufferAdapter& src,
                      const backend::RectSide& src_side, const backend::RectShape& shape,
                      bool async) {
  auto& from = cast(src);
  const auto s = rect_args(from.offset(), src_side, shape);
  const auto d = rect_args(0, {0, dst_side.row_pitch, dst_side.slice_pitch}, shape);
  if (!d || !s) return false;
  const std::array<std::size_t, 3> region{shape.width, shape.height, shape.depth};
  PLINTH_CHECK(clEnqueueReadBufferRect(
      queue_, from.root(), async ? CL_FALSE : CL_TRUE, s->origin.data(), d->origin.data(),
      region.data(), s->row_pitch, s->slice_pitch, d->row_pitch, d->slice_pitch,
      static_cast<std::byte*>(dst) + dst_side.offset, 0, nullptr, nullptr));
  return true;
}

bool Queue::copy_rect_peer(backend::BufferAdapter& dst, std::size_t /*dst_device*/,
                           const backend::RectSide& dst_side, backend::BufferAdapter& src,
                           std::size_t /*src_device*/, const backend::RectSide& src_side,
                           const backend::RectShape& shape) {
  // As copy_peer(): the buffers belong to the context, the runtime migrates the source.
  return copy_rect(dst, dst_side, src, src_side, shape);
}

bool Queue::fill(backend::BufferAdapter& buffer, std::size_t offset, std::size_t size,
                 std::span<const std::byte> pattern) {
  auto& to = cast(buffer);
  const std::size_t n = pattern.size();
  const std::size_t at = to.offset() + offset;
  // OpenCL 1.2: a power of two up to 128 bytes, offset and size multiples of it.
  if (n == 0 || n > 128 || (n & (n - 1)) != 0 || at % n != 0 || size % n != 0) return false;
  // A fill reaching past the buffer's first 2 GiB is left to the core's fill kernel: NVIDIA's
  // OpenCL (CUDA 13.0.98, driver 580) faults on such a fill, whatever its pieces (the
  // context is lost: CL_INVALID_COMMAND_QUEUE at the next wait), as
  // LayoutTest.IndicesBeyond31BitsAreExact showed; the kernel is as fast on a GPU.
  if (at + size > (std::size_t{1} << 31)) return false;
  PLINTH_CHECK(
      clEnqueueFillBuffer(queue_, to.root(), pattern.data(), n, at, size, 0, nullptr, nullptr));
  return true;
}

namespace {

Image& cast(backend::ImageAdapter& image) { return static_cast<Image&>(image); }

}  // namespace

bool Queue::write_image(backend::ImageAdapter& dst, const ImageBox& box, const void* src,
                        const backend::RectSide& src_side, bool async) {
  return opencl::write_image(queue_, cast(dst), box, src, src_side, async);
}

bool Queue::read_image(void* dst, const backend::RectSide& dst_side, backend::ImageAdapter& src,
                       const ImageBox& box, bool async) {
  return opencl::read_image(queue_, dst, dst_side, cast(src), box, async);
}

bool Queue::copy_buffer_to_image(backend::ImageAdapter& dst, const ImageBox& box,
                                 backend::BufferAdapter& src, const backend::RectSide& src_side) {
  return opencl::copy_buffer_to_image(queue_, cast(dst), box, cast(src), src_side);
}

bool Queue::copy_image_to_buffer(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                                 backend::ImageAdapter& src, const ImageBox& box) {
  return opencl::copy_image_to_buffer(queue_, cast(dst), dst_side, cast(src), box);
}

void Queue::copy_image(backend::ImageAdapter& dst, const std::array<std::size_t, 3>& dst_origin,
                       backend::ImageAdapter& src, const ImageBox& src_box) {
  opencl::copy_image(queue_, cast(dst), dst_origin, cast(src), src_box);
}

void Queue::synchronize() { PLINTH_CHECK(clFinish(queue_)); }

std::unique_ptr<backend::EventAdapter> Queue::record_event() {
  cl_event event = nullptr;
  PLINTH_CHECK(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &event));
  return std::make_unique<Event>(event);
}

bool Queue::record_event_again(backend::EventAdapter& event) {
  // A cl_event is recorded once: a new marker takes the old one's place (commands that wait
  // for the old one hold references of their own).
  cl_event marker = nullptr;
  PLINTH_CHECK(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marker));
  static_cast<Event&>(event).replace(marker);
  return true;
}

void Queue::wait_for(backend::EventAdapter& event) {
  const auto handle = reinterpret_cast<cl_event>(event.native_handle());
  PLINTH_CHECK(clEnqueueBarrierWithWaitList(queue_, 1, &handle, nullptr));
}

backend::NativeHandle Queue::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(queue_);
}

// ---- StagingQueue -------------------------------------------------------------------------

backend::HostCopier& Queue::host_copier() { return state_->copier(); }

void* Queue::allocate_staging(std::size_t size) {
  staging_ = state_->allocate_host(size);
  return staging_;
}

void Queue::write_async(backend::BufferAdapter& dst, std::size_t dst_offset, const void* stage,
                        std::size_t size) {
  auto& buffer = cast(dst);
  PLINTH_CHECK(clEnqueueWriteBuffer(queue_, buffer.root(), CL_FALSE, buffer.offset() + dst_offset,
                                    size, stage, 0, nullptr, nullptr));
}

void Queue::read_async(void* stage, backend::BufferAdapter& src, std::size_t src_offset,
                       std::size_t size) {
  auto& buffer = cast(src);
  PLINTH_CHECK(clEnqueueReadBuffer(queue_, buffer.root(), CL_FALSE, buffer.offset() + src_offset,
                                   size, stage, 0, nullptr, nullptr));
}

void Queue::mark_slot(std::size_t slot) {
  cl_event marker = nullptr;
  PLINTH_CHECK(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marker));
  if (cl_event old = slot_free_[slot]) PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(old));
  slot_free_[slot] = marker;
}

void Queue::wait_slot(std::size_t slot) {
  if (cl_event marker = slot_free_[slot]) PLINTH_CHECK(clWaitForEvents(1, &marker));
}

void CL_CALLBACK Queue::run_host_call(cl_event, cl_int, void* argument) noexcept {
  // The record may be reused once the function has returned: take what is needed first.
  const HostCall call = *static_cast<HostCall*>(argument);
  call.function(call.argument);
  // A failed marker fails the queue anyway; the barrier must not wait forever.
  PLINTH_CHECK_IN_DESTRUCTOR(clSetUserEventStatus(call.done, CL_COMPLETE));
  PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(call.done));
}

void Queue::launch_host_function(void (*function)(void*) noexcept, void* argument) {
  // The ring keeps at most job_count host functions in flight: this record's last use is done.
  HostCall& call = calls_[next_call_ % calls_.size()];
  cl_int code = CL_SUCCESS;
  // Two references: the callback's, which it releases (it may run before the barrier is
  // enqueued, inside clSetEventCallback), and this call's, released after the barrier.
  cl_event done = clCreateUserEvent(context_, &code);
  check_alloc(code, "clCreateUserEvent");
  const char* failed = "clRetainEvent";
  code = clRetainEvent(done);
  cl_event marker = nullptr;
  if (code == CL_SUCCESS) {
    failed = "clEnqueueMarkerWithWaitList";
    code = clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marker);
    if (code != CL_SUCCESS) PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(done));  // the callback's
  }
  if (code == CL_SUCCESS) {
    call = {function, argument, done};
    failed = "clSetEventCallback";
    code = clSetEventCallback(marker, CL_COMPLETE, &Queue::run_host_call, &call);
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(marker));
    if (code != CL_SUCCESS) PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(done));  // the callback's
  }
  if (code != CL_SUCCESS) {  // nothing will run the function
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(done));
    backend::check(code, backend::VendorCall(failed));
  }
  ++next_call_;
  code = clEnqueueBarrierWithWaitList(queue_, 1, &done, nullptr);
  PLINTH_CHECK_IN_DESTRUCTOR(clReleaseEvent(done));
  backend::check(code, "clEnqueueBarrierWithWaitList");
}

void Queue::poll() { PLINTH_CHECK(clFlush(queue_)); }

std::unique_ptr<backend::BlasAdapter> Queue::create_blas() {
  cl_device_id device = nullptr;
  PLINTH_CHECK(clGetCommandQueueInfo(queue_, CL_QUEUE_DEVICE, sizeof(device), &device, nullptr));
  return Blas::create(queue_, device);
}

bool Queue::prefetch(backend::BufferAdapter& buffer, ManagedLocation to) {
  return migrate_svm(queue_, buffer.host_pointer(), buffer.size(), to == ManagedLocation::host);
}

}  // namespace plinth::opencl
