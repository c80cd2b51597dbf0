#pragma once

#include <plinth/backend/buffer.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <memory>

namespace plinth::opencl {

/// [offset, offset + size) of a root cl_mem. Transfers address the root, so any offset works
/// for them; a kernel receives the root (offset 0) or a sub-buffer made by sub_region(),
/// which OpenCL allows only at offsets aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN.
class Buffer final : public backend::BufferAdapter {
 public:
  /// Adopts one reference to `root` and, if it is another object, one to `arg`
  /// (null: no cl_mem starts at `offset`, so the buffer cannot be a kernel argument).
  /// `host`: for managed memory (fine-grained SVM under the root), the host's address of
  /// this buffer's first byte; null otherwise.
  Buffer(cl_mem root, cl_mem arg, std::size_t offset, std::size_t size, std::size_t alignment,
         std::byte* host = nullptr) noexcept;
  /// Wraps `memory` (a buffer or a sub-buffer); without `take_ownership` it is retained.
  static std::unique_ptr<Buffer> wrap(cl_mem memory, std::size_t size, std::size_t alignment,
                                      bool take_ownership);

  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() override;

  std::size_t size() const override;
  std::unique_ptr<backend::BufferAdapter> sub_region(std::size_t origin, std::size_t size) override;
  backend::ArgValue kernel_arg() const override;
  /// The cl_mem a kernel would receive; 0 for an unaligned view, which has none.
  backend::NativeHandle native_handle() const override;

  // SDK 1.6: managed memory.
  void* host_pointer() const override { return host_; }

  cl_mem root() const { return root_; }
  std::size_t offset() const { return offset_; }

 private:
  cl_mem root_;
  cl_mem arg_;
  std::size_t offset_;
  std::size_t size_;
  std::size_t alignment_;
  std::byte* host_;
};

}  // namespace plinth::opencl
