#pragma once

#include <plinth/backend/buffer.hpp>

#include <cuda.h>

#include <cstddef>
#include <memory>

namespace plinth::cuda {

class ContextState;

/// Device memory from cuMemAlloc (or wrapped). A sub-region is a plain pointer offset, so any
/// origin works, for transfers and as a kernel argument alike.
class Buffer final : public backend::BufferAdapter {
 public:
  /// `managed`: memory from cuMemAllocManaged (or a region of it), whose host address is its
  /// device address.
  Buffer(std::shared_ptr<ContextState> state, std::size_t device, CUdeviceptr pointer,
         std::size_t size, bool owned, bool managed = false)
      : state_(std::move(state)),
        device_(device),
        pointer_(pointer),
        size_(size),
        owned_(owned),
        managed_(managed) {}
  ~Buffer() override;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  std::size_t size() const override { return size_; }
  std::unique_ptr<backend::BufferAdapter> sub_region(std::size_t origin, std::size_t size) override;
  backend::ArgValue kernel_arg() const override { return {&pointer_, sizeof(pointer_)}; }
  backend::NativeHandle native_handle() const override { return pointer_; }
  // SDK 1.6: managed memory.
  void* host_pointer() const override {
    return managed_ ? reinterpret_cast<void*>(pointer_)
                    : nullptr;  // NOLINT(performance-no-int-to-ptr)
  }

  CUdeviceptr pointer() const { return pointer_; }
  /// Keeps `owner` (e.g. an interprocess mapping, which unmaps when destroyed) as long as
  /// this buffer.
  void keep(std::shared_ptr<void> owner) { kept_ = std::move(owner); }

 private:
  std::shared_ptr<ContextState> state_;
  std::size_t device_;
  CUdeviceptr pointer_;
  std::size_t size_;
  bool owned_;
  std::shared_ptr<void> kept_;
  bool managed_;
};

/// The device pointer of a buffer adapter of this backend (the core only hands us ours).
inline CUdeviceptr device_pointer(const backend::BufferAdapter& buffer) {
  return static_cast<const Buffer&>(buffer).pointer();
}

}  // namespace plinth::cuda
