#pragma once

#include <plinth/backend/types.hpp>

#include <cstddef>
#include <memory>

namespace plinth::backend {

/// A region of one device's global memory: a root (from ContextAdapter::allocate(),
/// wrap_buffer(), allocate_pitched(), allocate_managed() or import_memory()), a sub-region
/// (sub_region()), or a GL buffer lent by GlResourceAdapter::map_buffer().
///
/// Any thread may call its methods, several at once; a buffer may be used by several queues
/// on several threads at once. The core destroys sub-regions before their root and keeps the
/// root alive as long as any sub-region. It does not track the queued work that uses a
/// buffer: the last handle may go, and the adapter be destroyed, while a copy or kernel that
/// uses it is still queued. The backend makes that safe (OpenCL does it by itself: a memory
/// object is released only after the commands that use it finish).
class BufferAdapter {
 public:
  virtual ~BufferAdapter() = default;
  /// The buffer's size in bytes.
  ///
  /// The core keeps the sizes it asked for, and calls this only for the buffer that
  /// GlResourceAdapter::map_buffer() returns (the GL buffer's size). Since SDK 1.0; required.
  virtual std::size_t size() const = 0;
  /// A new view of [origin, origin + size) of this buffer.
  ///
  /// Called by Buffer::get_sub_region(), and once for every Array or view whose first
  /// element is not at the start of its buffer (its kernel argument), from any thread. The
  /// core calls it on root buffers only: it turns a region of a region into a region of the
  /// root. A MemoryPool block (plinth/memory_pool.hpp) is a region of a larger allocation, a
  /// segment, that the pool keeps for reuse: the block and every region of it are cut from
  /// the segment, which lives as long as any of them (and longer: the pool gives it back with
  /// free_all_blocks(), when its limit needs room, or with the context). The core has checked
  /// the bounds, and `size` > 0. Backends whose memory objects cannot start anywhere (OpenCL
  /// sub-buffers need DeviceParameters::address_alignment) return a view that transfers work
  /// on but that refuses to be a kernel argument (kernel_arg() throws LogicError, saying
  /// why). Throws BackendError, OutOfMemoryError. Since SDK 1.0; required.
  virtual std::unique_ptr<BufferAdapter> sub_region(std::size_t origin, std::size_t size) = 0;
  /// What a kernel receives for this buffer: `{pointer to storage inside the adapter (a
  /// cl_mem, a CUdeviceptr), its size}`, valid as long as the adapter lives.
  ///
  /// Called at every launch, once per Buffer or Array argument, on the launching thread,
  /// possibly on several threads at once for one buffer; the hot path: no heap allocation,
  /// no lock (LDP_6). The core compares the size with the parameter's where that is known.
  /// Throws LogicError for a region that cannot be an argument, saying why (the core names
  /// the kernel and the argument). Since SDK 1.0; required.
  virtual ArgValue kernel_arg() const = 0;
  /// cl_mem, CUdeviceptr, hipDeviceptr_t, or a Level Zero pointer; 0 for a region that no
  /// native object can describe (an unaligned OpenCL sub-region).
  ///
  /// Called by Buffer::native_handle(), from any thread. Since SDK 1.0; required.
  virtual NativeHandle native_handle() const = 0;

  // ---- SDK 1.6: managed memory ----------------------------------------------------------

  /// For managed memory (ContextAdapter::allocate_managed() and its sub-regions): the host's
  /// address of this buffer's first byte; null for every other buffer.
  ///
  /// Called by Buffer::is_managed() and Buffer::host_pointer(), from any thread (CUDA, HIP
  /// and Level Zero: the device address itself; OpenCL: the SVM pointer plus the region's
  /// origin). Since SDK 1.6; optional: the default, null, means the memory is not managed
  /// (as for every buffer of a backend without managed memory).
  virtual void* host_pointer() const { return nullptr; }
};

}  // namespace plinth::backend
