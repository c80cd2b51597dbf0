#pragma once

#include <plinth/array_metadata.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/host_array.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

/// Page-locked ("pinned") host memory: memory the operating system never pages out, which a
/// device's DMA engine reads and writes directly. Transfers from and to it run at the DMA rate
/// (on the H100 here 55 GB/s, against 8-12 GB/s for the raw pageable call), and asynchronous
/// ones cost the host nothing. plinth has two kinds, both usable by every device of the
/// context they belong to:
///
/// - new memory: HostArray::page_locked(context, shape, dtype) (PyCUDA's pagelocked_empty);
/// - the caller's existing memory, registered for a while: HostRegistration (PyCUDA's
///   register_host_memory; CUDA only: OpenCL has no way to page-lock existing memory).
///
///     auto host = HostArray::page_locked(context, {1 << 20}, DType::float32());
///     array.set(queue, host);                       // straight to DMA
///
///     std::vector<float> mine(1 << 20);
///     HostRegistration registration(context, std::as_writable_bytes(std::span(mine)));
///     array.get(queue, registration.wrap<float>({1 << 20}));
///
/// Page-locked memory is a scarce resource of the whole machine: lock what transfers use
/// often, not everything.
///
/// Allocating and freeing page-locked memory is slow (cuMemFreeHost synchronises the device),
/// so page_locked() takes its memory from the context's page-locked pool and a released array
/// gives its block back to it, for the next array of a similar size (page_locked_pool.hpp:
/// PageLockedMemoryPool::of(context).stats(), free_all_blocks(), set_limit();
/// PLINTH_MEMORY_POOL=off turns it off). Cached blocks stay locked until free_all_blocks() or
/// until the context and every array and pool handle of it are gone.

namespace plinth {

namespace detail {
struct HostRegistrationState;
}

/// The caller's existing host memory, page-locked for every device of a context while the
/// registration (or a HostArray made by its wrap()) lives (CUDA: cuMemHostRegister with
/// CU_MEMHOSTREGISTER_PORTABLE). The memory stays the caller's: it must outlive the
/// registration and every array from wrap(). The memory is unregistered when the registration
/// and every array from wrap() are gone (the arrays keep it registered, so an asynchronous
/// transfer that a queue still runs keeps it too). The registration keeps its context alive.
///
/// Movable, not copyable. One thread at a time uses a HostRegistration object; the arrays it
/// makes are ordinary HostArray handles, for any thread.
class PLINTH_EXPORT HostRegistration {
 public:
  /// Page-locks `memory` for every device of `context`. Any thread may call it.
  /// Throws LogicError if `memory` is empty, if the backend cannot page-lock existing memory
  /// (OpenCL has no such call; the message says so), or if its plugin implements an SDK
  /// older than 1.2 (the message names it); BackendError if the API refuses (e.g. part of the
  /// range is registered already); OutOfMemoryError if the memory cannot be locked.
  HostRegistration(const Context& context, std::span<std::byte> memory);
  /// The moved-from registration is empty: it holds no memory and its destructor does nothing.
  HostRegistration(HostRegistration&& other) noexcept;
  /// Releases this registration's hold on its memory first (as reset()).
  HostRegistration& operator=(HostRegistration&& other) noexcept;
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;
  /// As reset().
  ~HostRegistration();

  /// The registered memory; empty for an empty (moved-from or reset) registration.
  std::span<std::byte> memory() const noexcept;
  /// Whether this registration holds memory (false once moved from or reset).
  explicit operator bool() const noexcept { return state_ != nullptr; }
  /// Releases this registration's hold: the memory is unregistered now, or, while arrays from
  /// wrap() live, when the last of them goes. Never throws (a failure to unregister is
  /// reported on stderr).
  void reset() noexcept;

  /// An array over the registered memory, starting `offset` bytes into it, laid out as
  /// `metadata` (is_page_locked() is true). No copy. It keeps the memory registered while it
  /// lives. Throws LogicError if the registration is empty or the layout does not fit.
  HostArray wrap(const ArrayMetadata& metadata, std::size_t offset = 0) const;
  /// As above, a C-order array of dtype_of<T>() and shape `shape`.
  template <class T>
  HostArray wrap(std::vector<std::size_t> shape, std::size_t offset = 0) const {
    return wrap(ArrayMetadata(std::move(shape), dtype_of<T>()), offset);
  }

 private:
  std::shared_ptr<detail::HostRegistrationState> state_;
};

}  // namespace plinth
