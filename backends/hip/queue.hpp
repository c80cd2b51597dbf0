#pragma once

#include <plinth/backend/queue.hpp>
#include <plinth/backend/staging.hpp>

#include <hip/hip_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace plinth::hip {

class ContextState;
struct ImageCopyEnd;

/// A hipStream_t and the page-locked staging of its pageable transfers (see queue.cpp): the
/// SDK's StagingRing over this stream, whose vendor side (StagingQueue) the queue implements.
class Queue final : public backend::QueueAdapter, private backend::StagingQueue {
 public:
  Queue(std::shared_ptr<ContextState> state, std::size_t device, hipStream_t stream, bool owned);
  ~Queue() override;
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  void write(backend::BufferAdapter& dst, std::size_t dst_offset, const void* src, std::size_t size,
             bool async) override;
  void read(void* dst, backend::BufferAdapter& src, std::size_t src_offset, std::size_t size,
            bool async) override;
  void copy(backend::BufferAdapter& dst, std::size_t dst_offset, backend::BufferAdapter& src,
            std::size_t src_offset, std::size_t size) override;
  void synchronize() override;
  std::unique_ptr<backend::EventAdapter> record_event() override;
  bool record_event_again(backend::EventAdapter& event) override;
  void wait_for(backend::EventAdapter& event) override;
  // SDK 1.6 (ipc.cpp).
  void record_ipc_event(backend::EventAdapter& event) override;
  backend::NativeHandle native_handle() const override;
  /// SDK 1.6: hipMemsetD32/D16/D8Async, the widest the address, size and pattern allow
  /// (backend::fill_by_words). Patterns of 1, 2 or 4 bytes; false for longer ones.
  bool fill(backend::BufferAdapter& buffer, std::size_t offset, std::size_t size,
            std::span<const std::byte> pattern) override;

  // SDK 1.6: hipMemcpy2DAsync, hipMemcpy3DAsync (see queue.cpp).
  bool copy_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side,
                 backend::BufferAdapter& src, const backend::RectSide& src_side,
                 const backend::RectShape& shape) override;
  bool write_rect(backend::BufferAdapter& dst, const backend::RectSide& dst_side, const void* src,
                  const backend::RectSide& src_side, const backend::RectShape& shape,
                  bool async) override;
  bool read_rect(void* dst, const backend::RectSide& dst_side, backend::BufferAdapter& src,
                 const backend::RectSide& src_side, const backend::RectShape& shape,
                 bool async) override;

  // SDK 1.6: managed memory, as the CUDA backend: prefetches where the device has
  // concurrent managed access (hipMemPrefetchAsync), all six pieces of advice (hipMemAdvise,
  // applied at once), attach kinds (hipStreamAttachMemAsync).
  bool prefetch(backend::BufferAdapter& buffer, ManagedLocation to) override;
  bool advise(backend::BufferAdapter& buffer, ManagedAdvice advice,
              ManagedLocation location) override;
  bool attach(backend::BufferAdapter& buffer, ManagedAttach attach) override;

  // SDK 1.8: image copies, hipMemcpy3DAsync between the HIP array and host or device memory
  // or another array (image.hpp's image_copies()); synchronous ones then synchronize the
  // stream. A memory side whose slice pitch is not a multiple of its row pitch (with more
  // than one slice), or whose pitches are beyond the device's or 32 bits, is refused (false).
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

  hipStream_t stream() const { return stream_; }
  /// The HIP device ordinal of the queue's device.
  int device() const { return device_; }

 private:
  // The copies of image.hpp's image_copies() from `src` to `dst` of a box of `size` pixels,
  // enqueued on the stream with the device current; false, having done nothing, where they
  // cannot be said.
  bool image_copy(const ImageCopyEnd& dst, const ImageCopyEnd& src,
                  const std::array<std::size_t, 3>& size);
  // The rectangular copy between two pointers of the given kind; false where HIP's 3-D copy
  // cannot describe a side (see queue.cpp).
  bool rect(void* dst, const backend::RectSide& dst_side, const void* src,
            const backend::RectSide& src_side, const backend::RectShape& shape, hipMemcpyKind kind);

  // StagingQueue: the stream's side of the staging ring. Called inside write()/read(), with
  // the queue's device current.
  backend::HostCopier& host_copier() override;
  void* allocate_staging(std::size_t size) override;
  void write_async(backend::BufferAdapter& dst, std::size_t dst_offset, const void* stage,
                   std::size_t size) override;
  void read_async(void* stage, backend::BufferAdapter& src, std::size_t src_offset,
                  std::size_t size) override;
  void mark_slot(std::size_t slot) override;
  void wait_slot(std::size_t slot) override;
  void launch_host_function(void (*function)(void*) noexcept, void* argument) override;
  void poll() override;
  // synchronize() is QueueAdapter's and StagingQueue's alike.

  // A host function for hipStreamAddCallback, which passes the stream and a status too.
  struct HostCall {
    void (*function)(void*) noexcept = nullptr;
    void* argument = nullptr;
  };
  static void run_host_call(hipStream_t stream, hipError_t status, void* call) noexcept;

  std::shared_ptr<ContextState> state_;
  int device_;
  std::size_t max_pitch_;  // the largest row pitch of an image copy (DeviceEntry::max_pitch)
  hipStream_t stream_;
  bool owned_;

  // Staging, allocated by the ring on the first staged transfer and freed here.
  void* staging_ = nullptr;  // StagingRing::slot_count * slot_size page-locked bytes
  std::array<hipEvent_t, backend::StagingRing::slot_count> slot_free_{};  // each slot's mark
  // Whether the slot's event has been recorded: HIP does not promise, as CUDA does, that an
  // event never recorded is complete.
  std::array<bool, backend::StagingRing::slot_count> slot_marked_{};
  // The ring keeps at most job_count host functions in flight, so a record is free again by
  // the time its index comes round.
  std::array<HostCall, backend::StagingRing::job_count> calls_{};
  std::uint64_t next_call_ = 0;
  backend::StagingRing ring_{*this};
};

}  // namespace plinth::hip
