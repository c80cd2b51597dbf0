#pragma once

#include <plinth/backend/queue.hpp>
#include <plinth/backend/staging.hpp>

#include <cuda.h>

#include <array>
#include <cstddef>
#include <memory>
#include <span>

namespace plinth::cuda {

class ContextState;

/// A CUstream and the page-locked staging of its pageable transfers (see queue.cpp): the
/// SDK's StagingRing over this stream, whose vendor side (StagingQueue) the queue implements.
class Queue final : public backend::QueueAdapter, private backend::StagingQueue {
 public:
  Queue(std::shared_ptr<ContextState> state, std::size_t device, CUstream stream, bool owned);
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
  // SDK 1.4.
  bool copy_peer(backend::BufferAdapter& dst, std::size_t dst_device, std::size_t dst_offset,
                 backend::BufferAdapter& src, std::size_t src_device, std::size_t src_offset,
                 std::size_t size) override;
  // SDK 1.6: cuMemcpy2DAsync, cuMemcpy3DAsync, cuMemcpy3DPeerAsync (see queue.cpp).
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

  // SDK 1.6: managed memory. Prefetches where the device has concurrent managed access
  // (cuMemPrefetchAsync); all six pieces of advice (cuMemAdvise, applied at once); attach
  // kinds (cuStreamAttachMemAsync).
  bool prefetch(backend::BufferAdapter& buffer, ManagedLocation to) override;
  bool advise(backend::BufferAdapter& buffer, ManagedAdvice advice,
              ManagedLocation location) override;
  bool attach(backend::BufferAdapter& buffer, ManagedAttach attach) override;
  // SDK 1.6: cuMemsetD32/D16/D8Async, the widest the address, size and pattern allow
  // (backend::fill_by_words). Patterns of 1, 2 or 4 bytes; false for longer ones.
  bool fill(backend::BufferAdapter& buffer, std::size_t offset, std::size_t size,
            std::span<const std::byte> pattern) override;

  // SDK 1.7: a cuBLAS handle on this stream (blas.hpp), with cuBLAS's recommended workspace.
  std::unique_ptr<backend::BlasAdapter> create_blas() override;

  // SDK 1.8: image copies, cuMemcpy3DAsync between the CUDA array and host or device memory
  // or another array (image.hpp's copy_image_3d()). A memory side whose slice pitch is not a
  // multiple of its row pitch (with more than one slice), or whose row pitch is beyond the
  // device's largest, is refused (false).
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

  CUstream stream() const { return stream_; }
  CUcontext context() const { return context_; }

 private:
  // StagingQueue: the stream's side of the staging ring. Called inside write()/read(), with
  // the queue's context current.
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

  // One side of a rectangular copy: device memory or host memory.
  struct RectEnd {
    CUdeviceptr device = 0;
    const void* host = nullptr;  // host memory when set
    backend::RectSide side;
  };
  // The rectangular copy between `dst` and `src`, on this queue's device; false where the
  // driver would refuse it (see queue.cpp).
  bool rect(const RectEnd& dst, const RectEnd& src, const backend::RectShape& shape);
  // Fills the two ends of a CUDA_MEMCPY2D or CUDA_MEMCPY3D (queue.cpp).
  template <class Copy>
  static void set_ends(Copy& copy, const RectEnd& dst, const RectEnd& src);

  std::shared_ptr<ContextState> state_;
  std::size_t device_;
  CUcontext context_;
  CUstream stream_;
  bool owned_;

  // Staging, allocated by the ring on the first staged transfer and freed here.
  void* staging_ = nullptr;  // StagingRing::slot_count * slot_size page-locked bytes
  std::array<CUevent, backend::StagingRing::slot_count> slot_free_{};  // each slot's mark
  backend::StagingRing ring_{*this};
};

}  // namespace plinth::cuda
