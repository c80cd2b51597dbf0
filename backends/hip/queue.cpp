#include "queue.hpp"

#include "buffer.hpp"
#include "context.hpp"
#include "error.hpp"
#include "event.hpp"
#include "image.hpp"

#include <plinth/backend/word_fill.hpp>

// Transfers, as the CUDA backend does them (backends/cuda/queue.cpp has the measurements).
// Page-locked (or managed) host memory goes straight to the DMA engine: hipMemcpy*Async on the
// stream (+ hipStreamSynchronize when synchronous). Pageable memory goes through this queue's
// staging ring (<plinth/backend/staging.hpp>): StagingRing::slot_count page-locked slots of
// slot_size bytes (hipHostMalloc'd on the first staged transfer and kept), each with an event
// recorded after its last use on the stream; host functions are hipStreamAddCallback, whose
// callback "blocks later work in the stream until it is finished" (HIP 5.2's
// hipLaunchHostFunc is declared, but libamdhip64 5.2 does not export it).
//
// - Synchronous transfers under direct_max (32 KiB), and those that find another thread's
//   transfer in the ring: hipMemcpy*Async + hipStreamSynchronize. (Unlike CUDA, HIP does not
//   promise that an asynchronous copy from pageable memory has read it when the call returns,
//   so a synchronous write waits for its copy.)
// - Synchronous transfers from direct_max: the ring's pipeline on the calling thread.
// - Asynchronous transfers under async_min (2 MiB): hipMemcpy*Async.
// - Asynchronous transfers from async_min: the ring's pieces and host functions on the
//   stream, its thread copying ahead. The call only enqueues.
// Thresholds as CUDA's until measured on an AMD GPU.

namespace plinth::hip {

namespace {

constexpr std::size_t direct_max = std::size_t{32} << 10;
constexpr std::size_t async_min = std::size_t{2} << 20;

// Whether a transfer of `size` bytes of pageable memory goes through the ring.
bool staged(std::size_t size, bool async) noexcept {
  return size >= (async ? async_min : direct_max);
}

// Page-locked (hipHostMalloc, hipHostRegister) or managed memory: the DMA engine reads it
// directly. HIP answers hipErrorInvalidValue for pageable memory it does not know.
bool dma_capable(const void* pointer) noexcept {
  hipPointerAttribute_t attributes{};
  if (hipPointerGetAttributes(&attributes, pointer) != hipSuccess) return false;
  return attributes.memoryType == hipMemoryTypeHost || attributes.isManaged != 0;
}

}  // namespace

Queue::Queue(std::shared_ptr<ContextState> state, std::size_t device, hipStream_t stream,
             bool owned)
    : state_(std::move(state)),
      device_((*state_)[device].device),
      max_pitch_((*state_)[device].max_pitch),
      stream_(stream),
      owned_(owned) {}

Queue::~Queue() {
  ScopedDevice current(device_, std::nothrow);
  // Host functions and DMAs in flight still use the staging.
  if (staging_) PLINTH_CHECK_IN_DESTRUCTOR(hipStreamSynchronize(stream_));
  ring_.stop();
  for (hipEvent_t event : slot_free_)
    if (event) PLINTH_CHECK_IN_DESTRUCTOR(hipEventDestroy(event));
  if (staging_) PLINTH_CHECK_IN_DESTRUCTOR(hipHostFree(staging_));
  if (owned_) PLINTH_CHECK_IN_DESTRUCTOR(hipStreamDestroy(stream_));
}

void Queue::write(backend::BufferAdapter& dst, std::size_t dst_offset, const void* src,
                  std::size_t size, bool async) {
  if (size == 0) return;
  ScopedDevice current(device_);
  if (staged(size, async) && !dma_capable(src) && ring_.write(dst, dst_offset, src, size, async))
    return;  // staged (false: another thread's transfer has the ring)
  PLINTH_CHECK(
      hipMemcpyHtoDAsync(device_pointer(dst, dst_offset), const_cast<void*>(src), size, stream_));
  if (!async) PLINTH_CHECK(hipStreamSynchronize(stream_));
}

void Queue::read(void* dst, backend::BufferAdapter& src, std::size_t src_offset, std::size_t size,
                 bool async) {
  if (size == 0) return;
  ScopedDevice current(device_);
  if (staged(size, async) && !dma_capable(dst) && ring_.read(dst, src, src_offset, size, async))
    return;  // staged
  PLINTH_CHECK(hipMemcpyDtoHAsync(dst, device_pointer(src, src_offset), size, stream_));
  if (!async) PLINTH_CHECK(hipStreamSynchronize(stream_));
}

void Queue::copy(backend::BufferAdapter& dst, std::size_t dst_offset, backend::BufferAdapter& src,
                 std::size_t src_offset, std::size_t size) {
  if (size == 0) return;
  ScopedDevice current(device_);
  PLINTH_CHECK(hipMemcpyDtoDAsync(device_pointer(dst, dst_offset), device_pointer(src, src_offset),
                                  size, stream_));
}

// Rectangular copies: hipMemcpy2DAsync for one plane, hipMemcpy3DAsync for more, whose
// hipPitchedPtr gives a side's slices as a height in rows (ysize): a slice pitch that is not a
// multiple of the row pitch returns false (the core copies plane by plane). The sides' offsets
// go into the pointers. Host memory as in write()/read(), but never staged: pageable memory is
// the runtime's to stage.

bool Queue::rect(void* dst, const backend::RectSide& dst_side, const void* src,
                 const backend::RectSide& src_side, const backend::RectShape& shape,
                 hipMemcpyKind kind) {
  auto* to = static_cast<std::byte*>(dst) + dst_side.offset;
  auto* from = const_cast<std::byte*>(static_cast<const std::byte*>(src)) + src_side.offset;
  ScopedDevice current(device_);
  if (shape.depth == 1) {
    PLINTH_CHECK(hipMemcpy2DAsync(to, dst_side.row_pitch, from, src_side.row_pitch, shape.width,
                                  shape.height, kind, stream_));
    return true;
  }
  if (dst_side.slice_pitch % dst_side.row_pitch != 0 ||
      src_side.slice_pitch % src_side.row_pitch != 0)
    return false;
  hipMemcpy3DParms copy{};
  copy.srcPtr = make_hipPitchedPtr(from, src_side.row_pitch, shape.width,
                                   src_side.slice_pitch / src_side.row_pitch);
  copy.dstPtr = make_hipPitchedPtr(to, dst_side.row_pitch, shape.width,
                                   dst_side.slice_pitch / dst_side.row_pitch);
  copy.extent = make_hipExtent(shape.width, shape.height, shape.depth);
  copy.kind = kind;
  PLINTH_CHECK(hipMemcpy3DAsync(&copy, stream_));
  return true;
}

bool Queue::copy_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                      backend::BufferAdapter& src, const backend::RectSide& src_side,
                      const backend::RectShape& shape) {
  return rect(device_pointer(dst, 0), dst_side, device_pointer(src, 0), src_side, shape,
              hipMemcpyDeviceToDevice);
}

bool Queue::write_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                       const void* src, const backend::RectSide& src_side,
                       const backend::RectShape& shape, bool async) {
  if (!rect(device_pointer(dst, 0), dst_side, src, src_side, shape, hipMemcpyHostToDevice))
    return false;
  if (!async) PLINTH_CHECK(hipStreamSynchronize(stream_));
  return true;
}

bool Queue::read_rect(void* dst, const backend::RectSide& dst_side, backend::BufferAdapter& src,
                      const backend::RectSide& src_side, const backend::RectShape& shape,
                      bool async) {
  if (!rect(dst, dst_side, device_pointer(src, 0), src_side, shape, hipMemcpyDeviceToHost))
    return false;
  if (!async) PLINTH_CHECK(hipStreamSynchronize(stream_));
  return true;
}

bool Queue::fill(backend::BufferAdapter& buffer, std::size_t offset, std::size_t size,
                 std::span<const std::byte> pattern) {
  if (pattern.size() != 1 && pattern.size() != 2 && pattern.size() != 4) return false;
  ScopedDevice current(device_);
  const auto begin = reinterpret_cast<std::uintptr_t>(device_pointer(buffer, offset));
  const auto at = [](std::uintptr_t address) { return reinterpret_cast<hipDeviceptr_t>(address); };
  return backend::fill_by_words(
      begin, size, pattern,
      [&](std::uintptr_t a, std::uint32_t value, std::size_t count) {
        PLINTH_CHECK(hipMemsetD32Async(at(a), static_cast<int>(value), count, stream_));
      },
      [&](std::uintptr_t a, std::uint16_t value, std::size_t count) {
        PLINTH_CHECK(hipMemsetD16Async(at(a), value, count, stream_));
      },
      [&](std::uintptr_t a, std::uint8_t value, std::size_t count) {
        PLINTH_CHECK(hipMemsetD8Async(at(a), value, count, stream_));
      });
}

void Queue::synchronize() { PLINTH_CHECK(hipStreamSynchronize(stream_)); }

std::unique_ptr<backend::EventAdapter> Queue::record_event() {
  ScopedDevice current(device_);
  hipEvent_t event = nullptr;
  PLINTH_CHECK(hipEventCreate(&event));
  auto adapter = std::make_unique<Event>(state_, event);
  PLINTH_CHECK(hipEventRecord(event, stream_));
  return adapter;
}

bool Queue::record_event_again(backend::EventAdapter& event) {
  // A hipEvent_t may be recorded any number of times; waits enqueued before keep waiting for
  // the recording they saw.
  ScopedDevice current(device_);
  PLINTH_CHECK(hipEventRecord(static_cast<Event&>(event).event(), stream_));
  return true;
}

void Queue::wait_for(backend::EventAdapter& event) {
  ScopedDevice current(device_);
  PLINTH_CHECK(hipStreamWaitEvent(stream_, static_cast<Event&>(event).event(), 0));
}

backend::NativeHandle Queue::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(stream_);
}

backend::HostCopier& Queue::host_copier() { return state_->copier(); }

void* Queue::allocate_staging(std::size_t size) {
  for (hipEvent_t& event : slot_free_)
    if (!event) PLINTH_CHECK(hipEventCreateWithFlags(&event, hipEventDisableTiming));
  void* memory = nullptr;
  PLINTH_CHECK(hipHostMalloc(&memory, size, hipHostMallocDefault));
  staging_ = memory;
  return memory;
}

void Queue::write_async(backend::BufferAdapter& dst, std::size_t dst_offset, const void* stage,
                        std::size_t size) {
  PLINTH_CHECK(
      hipMemcpyHtoDAsync(device_pointer(dst, dst_offset), const_cast<void*>(stage), size, stream_));
}

void Queue::read_async(void* stage, backend::BufferAdapter& src, std::size_t src_offset,
                       std::size_t size) {
  PLINTH_CHECK(hipMemcpyDtoHAsync(stage, device_pointer(src, src_offset), size, stream_));
}

void Queue::mark_slot(std::size_t slot) {
  PLINTH_CHECK(hipEventRecord(slot_free_[slot], stream_));
  slot_marked_[slot] = true;
}

void Queue::wait_slot(std::size_t slot) {
  if (slot_marked_[slot]) PLINTH_CHECK(hipEventSynchronize(slot_free_[slot]));
}

void Queue::run_host_call(hipStream_t /*stream*/, hipError_t /*status*/, void* call) noexcept {
  // Run whatever the status: the ring waits for every host function it enqueued.
  const HostCall host_call = *static_cast<const HostCall*>(call);
  host_call.function(host_call.argument);
}

void Queue::launch_host_function(void (*function)(void*) noexcept, void* argument) {
  // The ring keeps at most job_count host functions in flight: this record's last use is done.
  HostCall& call = calls_[next_call_ % calls_.size()];
  call = {function, argument};
  PLINTH_CHECK(hipStreamAddCallback(stream_, &Queue::run_host_call, &call, 0));
  ++next_call_;
}

void Queue::poll() {
  // Only a failure matters: the ring waits for its own count of finished host functions.
  if (auto result = hipStreamQuery(stream_); result != hipErrorNotReady)
    plinth::backend::check(result, "hipStreamQuery");
}

// Image copies (image.hpp): hipMemcpy3DAsync between the array and the other side, with the
// array's side at the box's origin (x in pixels) and memory sides at their offsets; host memory
// as in the rectangular copies above (never staged here), and synchronous calls then
// synchronize the stream.

namespace {

// The image adapter of this backend (the core only hands us ours).
Image& image_of(backend::ImageAdapter& adapter) { return static_cast<Image&>(adapter); }

}  // namespace

bool Queue::image_copy(const ImageCopyEnd& dst, const ImageCopyEnd& src,
                       const std::array<std::size_t, 3>& size) {
  const auto copies =
      image_copies(dst, src, size, max_pitch_, layers_on_z(state_->runtime_version()));
  if (!copies) return false;
  for (const auto& copy : *copies) PLINTH_CHECK(hipMemcpy3DAsync(&copy, stream_));
  return true;
}

bool Queue::write_image(backend::ImageAdapter& dst, const ImageBox& box, const void* src,
                        const backend::RectSide& src_side, bool async) {
  ScopedDevice current(device_);
  if (!image_copy(ImageCopyEnd::of(image_of(dst), box.origin),
                  ImageCopyEnd::of(const_cast<void*>(src), true, src_side), box.size))
    return false;
  if (!async) PLINTH_CHECK(hipStreamSynchronize(stream_));
  return true;
}

bool Queue::read_image(void* dst, const backend::RectSide& dst_side, backend::ImageAdapter& src,
                       const ImageBox& box, bool async) {
  ScopedDevice current(device_);
  if (!image_copy(ImageCopyEnd::of(dst, true, dst_side),
                  ImageCopyEnd::of(image_of(src), box.origin), box.size))
    return false;
  if (!async) PLINTH_CHECK(hipStreamSynchronize(stream_));
  return true;
}

bool Queue::copy_buffer_to_image(backend::ImageAdapter& dst, const ImageBox& box,
                                 backend::BufferAdapter& src, const backend::RectSide& src_side) {
  ScopedDevice current(device_);
  return image_copy(ImageCopyEnd::of(image_of(dst), box.origin),
                    ImageCopyEnd::of(device_pointer(src), false, src_side), box.size);
}

bool Queue::copy_image_to_buffer(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                                 backend::ImageAdapter& src, const ImageBox& box) {
  ScopedDevice current(device_);
  return image_copy(ImageCopyEnd::of(device_pointer(dst), false, dst_side),
                    ImageCopyEnd::of(image_of(src), box.origin), box.size);
}

void Queue::copy_image(backend::ImageAdapter& dst, const std::array<std::size_t, 3>& dst_origin,
                       backend::ImageAdapter& src, const ImageBox& src_box) {
  ScopedDevice current(device_);
  if (!image_copy(ImageCopyEnd::of(image_of(dst), dst_origin),
                  ImageCopyEnd::of(image_of(src), src_box.origin), src_box.size))
    throw LogicError("HIP image copy: a box HIP's copies cannot say");  // arrays only: never
}

bool Queue::prefetch(backend::BufferAdapter& buffer, ManagedLocation to) {
  int concurrent = 0;
  PLINTH_CHECK(
      hipDeviceGetAttribute(&concurrent, hipDeviceAttributeConcurrentManagedAccess, device_));
  if (concurrent == 0) return false;
  ScopedDevice current(device_);
  PLINTH_CHECK(hipMemPrefetchAsync(device_pointer(buffer), buffer.size(),
                                   to == ManagedLocation::host ? hipCpuDeviceId : device_,
                                   stream_));
  return true;
}

bool Queue::advise(backend::BufferAdapter& buffer, ManagedAdvice advice, ManagedLocation location) {
  hipMemoryAdvise native = hipMemAdviseSetReadMostly;
  switch (advice) {
    case ManagedAdvice::set_read_mostly: native = hipMemAdviseSetReadMostly; break;
    case ManagedAdvice::unset_read_mostly: native = hipMemAdviseUnsetReadMostly; break;
    case ManagedAdvice::set_preferred_location: native = hipMemAdviseSetPreferredLocation; break;
    case ManagedAdvice::unset_preferred_location:
      native = hipMemAdviseUnsetPreferredLocation;
      break;
    case ManagedAdvice::set_accessed_by: native = hipMemAdviseSetAccessedBy; break;
    case ManagedAdvice::unset_accessed_by: native = hipMemAdviseUnsetAccessedBy; break;
  }
  ScopedDevice current(device_);
  PLINTH_CHECK(hipMemAdvise(device_pointer(buffer), buffer.size(), native,
                            location == ManagedLocation::host ? hipCpuDeviceId : device_));
  return true;
}

bool Queue::attach(backend::BufferAdapter& buffer, ManagedAttach attach) {
  unsigned flags = hipMemAttachGlobal;
  if (attach == ManagedAttach::host) flags = hipMemAttachHost;
  if (attach == ManagedAttach::single) flags = hipMemAttachSingle;
  ScopedDevice current(device_);
  PLINTH_CHECK(hipStreamAttachMemAsync(stream_, device_pointer(buffer), 0, flags));
  return true;
}
}  // namespace plinth::hip
