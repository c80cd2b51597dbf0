#pragma once

#include <plinth/backend/types.hpp>

#include <cstddef>
#include <memory>

namespace plinth::backend {

/// A region of one device's global memory. Created by ContextAdapter::allocate()/wrap_buffer()
/// or sub_region(); the core keeps the parent of a sub-region alive as long as the sub-region.
class BufferAdapter {
 public:
  virtual ~BufferAdapter() = default;
  virtual std::size_t size() const = 0;
  /// A view of [origin, origin + size) of this buffer. The core has checked the bounds.
  /// Backends whose memory objects cannot start anywhere (OpenCL sub-buffers need
  /// DeviceParameters::address_alignment) return a view that transfers work on but that
  /// refuses to be a kernel argument (kernel_arg throws LogicError, saying why).
  virtual std::unique_ptr<BufferAdapter> sub_region(std::size_t origin, std::size_t size) = 0;
  /// What a kernel receives for this buffer: points to storage inside the adapter
  /// (a cl_mem, a CUdeviceptr). Called when arguments are bound; must not allocate.
  virtual ArgValue kernel_arg() const = 0;
  /// cl_mem, CUdeviceptr, hipDeviceptr_t, or a Level Zero pointer.
  virtual NativeHandle native_handle() const = 0;

  // ---- SDK 1.6: managed memory ----------------------------------------------------------

  /// For managed memory (ContextAdapter::allocate_managed() and its sub-regions): the host's
  /// address of this buffer's first byte. Optional: the default, nullptr, means the memory
  /// is not managed (as for every buffer of a backend without managed memory).
  virtual void* host_pointer() const { return nullptr; }
};

}  // namespace plinth::backend
