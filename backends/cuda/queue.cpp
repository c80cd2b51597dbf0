#include "queue.hpp"

#include "blas.hpp"
#include "buffer.hpp"
#include "context.hpp"
#include "driver.hpp"
#include "event.hpp"
#include "image.hpp"

#include <plinth/errors.hpp>

#include <algorithm>
#include <plinth/backend/word_fill.hpp>

#include <array>
#include <cstddef>

// Transfers. Page-locked (or managed) host memory goes straight to the DMA engine:
// cuMemcpy*Async on the stream (+ cuStreamSynchronize when synchronous). Pageable memory goes
// through this queue's staging ring (<plinth/backend/staging.hpp>: the pipelines, the chunk
// schedule, the job ring and their measurements): StagingRing::slot_count page-locked slots
// of slot_size bytes (16 MiB in all, cuMemHostAlloc'd on the first staged transfer and kept),
// each with an event recorded after its last use on the stream; host functions are
// cuLaunchHostFunc.
//
// Synchronous calls return once the caller's memory is no longer needed: a read with the data
// in it, a write with the data copied out of it (as a raw pageable cuMemcpyHtoD, which returns
// before its last DMA has ended); the device sees a write in stream order.
// - Under direct_max (32 KiB): cuMemcpy*Async, which copies pageable memory into the driver's
//   staging before it returns (a write) or waits for the copy (a read); the driver's own
//   staging is as fast at that size (4 KiB: ~8 us either way on the H100). Page-locked memory:
//   cuMemcpy*Async + cuStreamSynchronize, since the DMA engine reads it in place.
// - From direct_max: the ring's pipeline on the calling thread.
// Asynchronous calls never wait for the device, except pageable reads under async_min:
// - Under async_min (2 MiB): cuMemcpy*Async (a pageable read waits for its copy, as the raw
//   call does). Below that size the ring's fixed costs (two host functions, waking its
//   thread: 60-70 us on the H100) outweigh its faster copies: 1 MiB staged ran at 0.6-0.8x
//   the raw call.
// - From async_min: the ring's pieces and host functions on the stream, its thread copying
//   ahead. The call only enqueues. 256 MiB on the H100: 23-25 GB/s up, 20 GB/s down (3.6x
//   and 2.3x the raw call; the host's memcpy into page-locked memory is the limit there).

namespace plinth::cuda {

namespace {

constexpr std::size_t direct_max = std::size_t{32} << 10;
constexpr std::size_t async_min = std::size_t{2} << 20;

// Whether a transfer of `size` bytes of pageable memory goes through the ring.
bool staged(std::size_t size, bool async) noexcept {
  return size >= (async ? async_min : direct_max);
}

// Page-locked or managed memory: the DMA engine reads it directly. Pageable memory reports
// memory type 0 (cuPointerGetAttributes does not fail on foreign pointers; ~0.1 us).
bool dma_capable(const void* pointer) noexcept {
  unsigned long long type = 0;  // wide enough for whatever size the driver writes
  unsigned long long managed = 0;
  std::array<CUpointer_attribute, 2> attributes{CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                                CU_POINTER_ATTRIBUTE_IS_MANAGED};
  std::array<void*, 2> data{&type, &managed};
  if (driver().cuPointerGetAttributes(2, attributes.data(), data.data(),
                                      reinterpret_cast<CUdeviceptr>(pointer)) != CUDA_SUCCESS)
    return false;
  return type == CU_MEMORYTYPE_HOST || managed != 0;
}

}  // namespace

Queue::Queue(std::shared_ptr<ContextState> state, std::size_t device, CUstream stream, bool owned)
    : state_(std::move(state)),
      device_(device),
      context_((*state_)[device].context),
      stream_(stream),
      owned_(owned) {}

Queue::~Queue() {
  ScopedContext current(context_, std::nothrow);
  // Host functions and DMAs in flight still use the staging.
  if (staging_) CU_CHECK_IN_DESTRUCTOR(cuStreamSynchronize(stream_));
  ring_.stop();
  for (CUevent event : slot_free_)
    if (event) CU_CHECK_IN_DESTRUCTOR(cuEventDestroy(event));
  if (staging_) CU_CHECK_IN_DESTRUCTOR(cuMemFreeHost(staging_));
  if (owned_) CU_CHECK_IN_DESTRUCTOR(cuStreamDestroy(stream_));
}

void Queue::write(backend::BufferAdapter& dst, std::size_t dst_offset, const void* src,
                  std::size_t size, bool async) {
  if (size == 0) return;
  const CUdeviceptr to = device_pointer(dst) + dst_offset;
  ScopedContext current(context_);
  const bool in_place = dma_capable(src);
  if (staged(size, async) && !in_place && ring_.write(dst, dst_offset, src, size, async))
    return;  // staged (false: another thread's transfer has the ring)
  CU_CHECK(cuMemcpyHtoDAsync(to, src, size, stream_));
  // Pageable memory is in the driver's staging already; page-locked memory is read in place.
  if (!async && in_place) CU_CHECK(cuStreamSynchronize(stream_));
}

void Queue::read(void* dst, backend::BufferAdapter& src, std::size_t src_offset, std::size_t size,
                 bool async) {
  if (size == 0) return;
  const CUdeviceptr from = device_pointer(src) + src_offset;
  ScopedContext current(context_);
  if (staged(size, async) && !dma_capable(dst) && ring_.read(dst, src, src_offset, size, async))
    return;  // staged
  // Pageable memory here makes even the asynchronous call wait for the copy (the driver's
  // rule): small reads, and large ones while another thread has this queue's staging.
  CU_CHECK(cuMemcpyDtoHAsync(dst, from, size, stream_));
  if (!async) CU_CHECK(cuStreamSynchronize(stream_));
}

void Queue::copy(backend::BufferAdapter& dst, std::size_t dst_offset, backend::BufferAdapter& src,
                 std::size_t src_offset, std::size_t size) {
  if (size == 0) return;
  ScopedContext current(context_);
  CU_CHECK(cuMemcpyDtoDAsync(device_pointer(dst) + dst_offset, device_pointer(src) + src_offset,
                             size, stream_));
}

bool Queue::fill(backend::BufferAdapter& buffer, std::size_t offset, std::size_t size,
                 std::span<const std::byte> pattern) {
  if (pattern.size() != 1 && pattern.size() != 2 && pattern.size() != 4) return false;
  ScopedContext current(context_);
  return backend::fill_by_words(
      device_pointer(buffer) + offset, size, pattern,
      [&](CUdeviceptr at, unsigned int value, std::size_t count) {
        CU_CHECK(cuMemsetD32Async(at, value, count, stream_));
      },
      [&](CUdeviceptr at, unsigned short value, std::size_t count) {
        CU_CHECK(cuMemsetD16Async(at, value, count, stream_));
      },
      [&](CUdeviceptr at, unsigned char value, std::size_t count) {
        CU_CHECK(cuMemsetD8Async(at, value, count, stream_));
      });
}

bool Queue::copy_peer(backend::BufferAdapter& dst, std::size_t dst_device, std::size_t dst_offset,
                      backend::BufferAdapter& src, std::size_t src_device, std::size_t src_offset,
                      std::size_t size) {
  if (size == 0) return true;
  if (dst_device == src_device) {  // not the core's use, but one context's copy does it
    copy(dst, dst_offset, src, src_offset, size);
    return true;
  }
  state_->enable_peer_access(dst_device, src_device);
  // With peer access this is a direct DMA (NVLink or PCIe); without it (the devices cannot
  // reach each other) the driver stages the copy through the host itself, still ordered in
  // this stream, so the copy never needs plinth's own host path.
  ScopedContext current(context_);
  CU_CHECK(cuMemcpyPeerAsync(device_pointer(dst) + dst_offset, (*state_)[dst_device].context,
                             device_pointer(src) + src_offset, (*state_)[src_device].context, size,
                             stream_));
  return true;
}

// Rectangular copies: cuMemcpy2DAsync for one plane, cuMemcpy3DAsync for more, whose
// CUDA_MEMCPY3D describes a side's slices by a height in rows (srcHeight), so a slice pitch
// that is not a multiple of the row pitch makes it refuse (false: the core copies plane by
// plane); cuMemcpy3DPeerAsync between devices. Pitches beyond CU_DEVICE_ATTRIBUTE_MAX_PITCH
// are refused by the driver: false too (the core copies row by row). Host memory is read or
// written in place by the DMA engine where page-locked; pageable memory the driver stages
// itself (a write's data are out of the caller's memory on return; a read waits for its copy).
// Synchronous calls then synchronize the stream. The sides' offsets go into the pointers
// (srcXInBytes, srcY, srcZ stay 0).

namespace {

// A side as CUDA_MEMCPY3D takes it: its slices' height in rows, or 0 where it cannot.
std::size_t slice_rows(const backend::RectSide& side, const backend::RectShape& shape) {
  if (shape.depth == 1) return shape.height;
  return side.slice_pitch % side.row_pitch == 0 ? side.slice_pitch / side.row_pitch : 0;
}

}  // namespace

// The two ends of a cuMemcpy2D/3D (whose descriptors name these fields alike): host or device
// memory at the side's offset, and the row pitch.
template <class Copy>
void Queue::set_ends(Copy& copy, const RectEnd& dst, const RectEnd& src) {
  if (src.host != nullptr) {
    copy.srcMemoryType = CU_MEMORYTYPE_HOST;
    copy.srcHost = static_cast<const std::byte*>(src.host) + src.side.offset;
  } else {
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = src.device + src.side.offset;
  }
  copy.srcPitch = src.side.row_pitch;
  if (dst.host != nullptr) {
    copy.dstMemoryType = CU_MEMORYTYPE_HOST;
    copy.dstHost =
        const_cast<std::byte*>(static_cast<const std::byte*>(dst.host)) + dst.side.offset;
  } else {
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = dst.device + dst.side.offset;
  }
  copy.dstPitch = dst.side.row_pitch;
}

bool Queue::rect(const RectEnd& dst, const RectEnd& src, const backend::RectShape& shape) {
  const std::size_t max_pitch = (*state_)[device_].max_pitch;
  if (dst.side.row_pitch > max_pitch || src.side.row_pitch > max_pitch) return false;
  const std::size_t dst_rows = slice_rows(dst.side, shape);
  const std::size_t src_rows = slice_rows(src.side, shape);
  if (dst_rows == 0 || src_rows == 0) return false;
  ScopedContext current(context_);
  if (shape.depth == 1) {
    CUDA_MEMCPY2D copy{};
    set_ends(copy, dst, src);
    copy.WidthInBytes = shape.width;
    copy.Height = shape.height;
    CU_CHECK(cuMemcpy2DAsync(&copy, stream_));
    return true;
  }
  CUDA_MEMCPY3D copy{};
  set_ends(copy, dst, src);
  copy.srcHeight = src_rows;
  copy.dstHeight = dst_rows;
  copy.WidthInBytes = shape.width;
  copy.Height = shape.height;
  copy.Depth = shape.depth;
  CU_CHECK(cuMemcpy3DAsync(&copy, stream_));
  return true;
}

bool Queue::copy_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                      backend::BufferAdapter& src, const backend::RectSide& src_side,
                      const backend::RectShape& shape) {
  return rect({device_pointer(dst), nullptr, dst_side}, {device_pointer(src), nullptr, src_side},
              shape);
}

bool Queue::write_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                       const void* src, const backend::RectSide& src_side,
                       const backend::RectShape& shape, bool async) {
  if (!rect({device_pointer(dst), nullptr, dst_side}, {0, src, src_side}, shape)) return false;
  if (!async) CU_CHECK(cuStreamSynchronize(stream_));
  return true;
}

bool Queue::read_rect(void* dst, const backend::RectSide& dst_side, backend::BufferAdapter& src,
                      const backend::RectSide& src_side, const backend::RectShape& shape,
                      bool async) {
  if (!rect({0, dst, dst_side}, {device_pointer(src), nullptr, src_side}, shape)) return false;
  if (!async) CU_CHECK(cuStreamSynchronize(stream_));
  return true;
}

bool Queue::copy_rect_peer(backend::BufferAdapter& dst, std::size_t dst_device,
                           const backend::RectSide& dst_side, backend::BufferAdapter& src,
                           std::size_t src_device, const backend::RectSide& src_side,
                           const backend::RectShape& shape) {
  if (dst_device == src_device) return copy_rect(dst, dst_side, src, src_side, shape);
  const std::size_t max_pitch =
      std::min((*state_)[dst_device].max_pitch, (*state_)[src_device].max_pitch);
  if (dst_side.row_pitch > max_pitch || src_side.row_pitch > max_pitch) return false;
  const std::size_t dst_rows = slice_rows(dst_side, shape);
  const std::size_t src_rows = slice_rows(src_side, shape);
  if (dst_rows == 0 || src_rows == 0) return false;
  state_->enable_peer_access(dst_device, src_device);  // as copy_peer()
  ScopedContext current(context_);
  CUDA_MEMCPY3D_PEER copy{};
  copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.srcDevice = device_pointer(src) + src_side.offset;
  copy.srcContext = (*state_)[src_device].context;
  copy.srcPitch = src_side.row_pitch;
  copy.srcHeight = src_rows;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = device_pointer(dst) + dst_side.offset;
  copy.dstContext = (*state_)[dst_device].context;
  copy.dstPitch = dst_side.row_pitch;
  copy.dstHeight = dst_rows;
  copy.WidthInBytes = shape.width;
  copy.Height = shape.height;
  copy.Depth = shape.depth;
  CU_CHECK(cuMemcpy3DPeerAsync(&copy, stream_));
  return true;
}

// Image copies (image.hpp): one CUDA_MEMCPY3D between the array and the other side, with the
// array's side at the box's origin (x in bytes) and memory sides at their offsets; host memory
// as in the rectangular copies above, and synchronous calls then synchronize the stream.

namespace {

// The image adapter of this backend (the core only hands us ours).
Image& image(backend::ImageAdapter& adapter) { return static_cast<Image&>(adapter); }

}  // namespace

bool Queue::write_image(backend::ImageAdapter& dst, const ImageBox& box, const void* src,
                        const backend::RectSide& src_side, bool async) {
  ScopedContext current(context_);
  if (!copy_image_3d(stream_, (*state_)[device_].max_pitch,
                     ImageCopyEnd::of(image(dst), box.origin), ImageCopyEnd::of(src, src_side),
                     box.size))
    return false;
  if (!async) CU_CHECK(cuStreamSynchronize(stream_));
  return true;
}

bool Queue::read_image(void* dst, const backend::RectSide& dst_side, backend::ImageAdapter& src,
                       const ImageBox& box, bool async) {
  ScopedContext current(context_);
  if (!copy_image_3d(stream_, (*state_)[device_].max_pitch,
                     ImageCopyEnd::of(static_cast<const void*>(dst), dst_side),
                     ImageCopyEnd::of(image(src), box.origin), box.size))
    return false;
  if (!async) CU_CHECK(cuStreamSynchronize(stream_));
  return true;
}

bool Queue::copy_buffer_to_image(backend::ImageAdapter& dst, const ImageBox& box,
                                 backend::BufferAdapter& src, const backend::RectSide& src_side) {
  ScopedContext current(context_);
  return copy_image_3d(stream_, (*state_)[device_].max_pitch,
                       ImageCopyEnd::of(image(dst), box.origin),
                       ImageCopyEnd::of(device_pointer(src), src_side), box.size);
}

bool Queue::copy_image_to_buffer(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                                 backend::ImageAdapter& src, const ImageBox& box) {
  ScopedContext current(context_);
  return copy_image_3d(stream_, (*state_)[device_].max_pitch,
                       ImageCopyEnd::of(device_pointer(dst), dst_side),
                       ImageCopyEnd::of(image(src), box.origin), box.size);
}

void Queue::copy_image(backend::ImageAdapter& dst, const std::array<std::size_t, 3>& dst_origin,
                       backend::ImageAdapter& src, const ImageBox& src_box) {
  ScopedContext current(context_);
  copy_image_3d(stream_, (*state_)[device_].max_pitch, ImageCopyEnd::of(image(dst), dst_origin),
                ImageCopyEnd::of(image(src), src_box.origin), src_box.size);
}

void Queue::synchronize() { CU_CHECK(cuStreamSynchronize(stream_)); }

std::unique_ptr<backend::EventAdapter> Queue::record_event() {
  ScopedContext current(context_);
  CUevent event = nullptr;
  CU_CHECK(cuEventCreate(&event, CU_EVENT_DEFAULT));
  auto adapter = std::make_unique<Event>(state_, event);
  CU_CHECK(cuEventRecord(event, stream_));
  return adapter;
}

bool Queue::record_event_again(backend::EventAdapter& event) {
  // A CUevent may be recorded any number of times; waits enqueued before keep waiting for
  // the recording they saw.
  ScopedContext current(context_);
  CU_CHECK(cuEventRecord(static_cast<Event&>(event).event(), stream_));
  return true;
}

void Queue::wait_for(backend::EventAdapter& event) {
  ScopedContext current(context_);
  CU_CHECK(cuStreamWaitEvent(stream_, static_cast<Event&>(event).event(), 0));
}

std::unique_ptr<backend::BlasAdapter> Queue::create_blas() {
  return Blas::create(context_, stream_, Blas::workspace_for((*state_)[device_].cc_major));
}

backend::NativeHandle Queue::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(stream_);
}

backend::HostCopier& Queue::host_copier() { return state_->copier(); }

void* Queue::allocate_staging(std::size_t size) {
  for (CUevent& event : slot_free_)
    if (!event) CU_CHECK(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  void* memory = nullptr;
  CU_CHECK(cuMemHostAlloc(&memory, size, 0));
  staging_ = memory;
  return memory;
}

void Queue::write_async(backend::BufferAdapter& dst, std::size_t dst_offset, const void* stage,
                        std::size_t size) {
  CU_CHECK(cuMemcpyHtoDAsync(device_pointer(dst) + dst_offset, stage, size, stream_));
}

void Queue::read_async(void* stage, backend::BufferAdapter& src, std::size_t src_offset,
                       std::size_t size) {
  CU_CHECK(cuMemcpyDtoHAsync(stage, device_pointer(src) + src_offset, size, stream_));
}

void Queue::mark_slot(std::size_t slot) { CU_CHECK(cuEventRecord(slot_free_[slot], stream_)); }

void Queue::wait_slot(std::size_t slot) { CU_CHECK(cuEventSynchronize(slot_free_[slot])); }

void Queue::launch_host_function(void (*function)(void*) noexcept, void* argument) {
  CU_CHECK(cuLaunchHostFunc(stream_, function, argument));
}

void Queue::poll() {
  // Only a failure matters: the ring waits for its own count of finished host functions.
  if (auto result = driver().cuStreamQuery(stream_); result != CUDA_ERROR_NOT_READY)
    plinth::backend::check(result, "cuStreamQuery");
}

namespace {

CUmemLocation location_of(ManagedLocation location, CUdevice device) {
  CUmemLocation result{};
  result.type =
      location == ManagedLocation::host ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
  result.id = location == ManagedLocation::host ? 0 : device;
  return result;
}

CUmem_advise advice_of(ManagedAdvice advice) {
  switch (advice) {
    case ManagedAdvice::set_read_mostly: return CU_MEM_ADVISE_SET_READ_MOSTLY;
    case ManagedAdvice::unset_read_mostly: return CU_MEM_ADVISE_UNSET_READ_MOSTLY;
    case ManagedAdvice::set_preferred_location: return CU_MEM_ADVISE_SET_PREFERRED_LOCATION;
    case ManagedAdvice::unset_preferred_location: return CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION;
    case ManagedAdvice::set_accessed_by: return CU_MEM_ADVISE_SET_ACCESSED_BY;
    case ManagedAdvice::unset_accessed_by: return CU_MEM_ADVISE_UNSET_ACCESSED_BY;
  }
  throw LogicError("cuda: an advice the backend does not know");
}

}  // namespace

bool Queue::prefetch(backend::BufferAdapter& buffer, ManagedLocation to) {
  // Without concurrent managed access (Windows, pre-Pascal GPUs) there is no prefetch: the
  // driver moves everything at launch.
  const CUdevice device = (*state_)[device_].device;
  int concurrent = 0;
  CU_CHECK(
      cuDeviceGetAttribute(&concurrent, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, device));
  if (concurrent == 0) return false;
  ScopedContext current(context_);
  CU_CHECK(cuMemPrefetchAsync(device_pointer(buffer), buffer.size(), location_of(to, device), 0,
                              stream_));
  return true;
}

bool Queue::advise(backend::BufferAdapter& buffer, ManagedAdvice advice, ManagedLocation location) {
  ScopedContext current(context_);
  CU_CHECK(cuMemAdvise(device_pointer(buffer), buffer.size(), advice_of(advice),
                       location_of(location, (*state_)[device_].device)));
  return true;
}

bool Queue::attach(backend::BufferAdapter& buffer, ManagedAttach attach) {
  unsigned flags = CU_MEM_ATTACH_GLOBAL;
  if (attach == ManagedAttach::host) flags = CU_MEM_ATTACH_HOST;
  if (attach == ManagedAttach::single) flags = CU_MEM_ATTACH_SINGLE;
  ScopedContext current(context_);
  CU_CHECK(cuStreamAttachMemAsync(stream_, device_pointer(buffer), 0, flags));
  return true;
}

}  // namespace plinth::cuda
