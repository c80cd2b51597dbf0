#pragma once

#include <plinth/backend/buffer.hpp>

#include <cstddef>
#include <memory>

namespace plinth::level_zero {

class ContextState;

/// Device memory from zeMemAllocDevice (or wrapped): native_handle() is the device pointer,
/// a sub-region is a plain pointer offset (any origin works, for transfers and as a kernel
/// argument alike), and kernel_arg() points at the stored pointer. Memory is freed once no
/// queued command uses it where the driver can (ContextState::free()).
class Buffer final : public backend::BufferAdapter {
 public:
  /// `managed`: shared memory (zeMemAllocShared, or a region of it), whose host address is
  /// its device address.
  Buffer(std::shared_ptr<ContextState> state, void* pointer, std::size_t size, bool owned,
         bool managed = false)
      : state_(std::move(state)),
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
  backend::NativeHandle native_handle() const override {
    return reinterpret_cast<backend::NativeHandle>(pointer_);
  }

  // SDK 1.6: managed memory.
  void* host_pointer() const override { return managed_ ? pointer_ : nullptr; }

  void* pointer() const { return pointer_; }
  /// Keeps `owner` (e.g. an interprocess mapping, which unmaps when destroyed) as long as
  /// this buffer.
  void keep(std::shared_ptr<void> owner) { kept_ = std::move(owner); }

 private:
  std::shared_ptr<ContextState> state_;
  void* pointer_;
  std::size_t size_;
  bool owned_;
  std::shared_ptr<void> kept_;
  bool managed_;
};

/// The device pointer of a buffer adapter of this backend (the core only hands us ours), plus
/// `offset` bytes.
inline void* device_pointer(const backend::BufferAdapter& buffer, std::size_t offset = 0) {
  return static_cast<char*>(static_cast<const Buffer&>(buffer).pointer()) + offset;
}

}  // namespace plinth::level_zero
