#pragma once

#include <plinth/backend/queue.hpp>
#include <plinth/backend/staging.hpp>

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <memory>
#include <span>

namespace plinth::opencl {

class ContextState;

/// An in-order, profiling-enabled cl_command_queue (one reference owned), and on GPU devices
/// the page-locked staging of its pageable transfers (see queue.cpp): the SDK's StagingRing
/// over this queue, whose vendor side (StagingQueue) the queue implements.
class Queue final : public backend::QueueAdapter, private backend::StagingQueue {
 public:
  /// Which pageable transfers go through the staging ring (queue.cpp says why).
  enum class Staging { none, synchronous, all };

  /// Adopts `queue`'s reference; `state` is its context's. Throws BackendError if the queue's
  /// device cannot be queried.
  Queue(cl_command_queue queue, std::shared_ptr<ContextState> state);

  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;
  ~Queue() override;

  void write(backend::BufferAdapter& dst, std::size_t dst_offset, const void* src, std::size_t size,
             bool async) override;
  void read(void* dst, backend::BufferAdapter& src, std::size_t src_offset, std::size_t size,
            bool async) override;
  void copy(backend::BufferAdapter& dst, std::size_t dst_offset, backend::BufferAdapter& src,
            std::size_t src_offset, std::size_t size) override;
  /// SDK 1.4: copy() (see queue.cpp); always true.
  bool copy_peer(backend::BufferAdapter& dst, std::size_t dst_device, std::size_t dst_offset,
                 backend::BufferAdapter& src, std::size_t src_device, std::size_t src_offset,
                 std::size_t size) override;
  // SDK 1.6: clEnqueue{Copy,Write,Read}BufferRect (see queue.cpp).
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
  void synchronize() override;
  std::unique_ptr<backend::EventAdapter> record_event() override;
  bool record_event_again(backend::EventAdapter& event) override;
  void wait_for(backend::EventAdapter& event) override;
  backend::NativeHandle native_handle() const override;
  /// SDK 1.6: clEnqueueSVMMigrateMem on OpenCL 2.1 devices (svm.hpp); false before 2.1.
  /// OpenCL has no advice and no attach kinds: the defaults say so.
  bool prefetch(backend::BufferAdapter& buffer, ManagedLocation to) override;
  /// SDK 1.6: clEnqueueFillBuffer (any pattern of 1 to 128 bytes, a power of two, at an
  /// offset of the root cl_mem that is a multiple of it); false elsewhere.
  bool fill(backend::BufferAdapter& buffer, std::size_t offset, std::size_t size,
            std::span<const std::byte> pattern) override;
  /// SDK 1.7: CLBlast on this queue (blas.hpp).
  std::unique_ptr<backend::BlasAdapter> create_blas() override;
  // SDK 1.8: clEnqueue{Write,Read,Copy}Image, clEnqueueCopy{BufferToImage,ImageToBuffer}
  // (image.hpp); the buffer copies take packed sides only.
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

 private:
  // StagingQueue: the command queue's side of the staging ring, called inside write()/read().
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

  // Whether a transfer of `size` bytes from or to `host` goes through the ring.
  bool staged(const void* host, std::size_t size, bool async) const noexcept;

  // A host function: the callback of a marker runs it, then completes the user event that a
  // barrier after the marker waits for. A ring of them, as many as the ring has jobs.
  struct HostCall {
    void (*function)(void*) noexcept = nullptr;
    void* argument = nullptr;
    cl_event done = nullptr;  // the user event (one reference, released by the callback)
  };
  static void CL_CALLBACK run_host_call(cl_event event, cl_int status, void* call) noexcept;

  cl_command_queue queue_;
  std::shared_ptr<ContextState> state_;
  cl_context context_ = nullptr;
  Staging staging_mode_ = Staging::none;

  void* staging_ = nullptr;  // from ContextState::allocate_host()
  std::array<cl_event, backend::StagingRing::slot_count> slot_free_{};  // each slot's mark
  std::array<HostCall, backend::StagingRing::job_count> calls_{};
  std::size_t next_call_ = 0;
  backend::StagingRing ring_{*this};
};

}  // namespace plinth::opencl
