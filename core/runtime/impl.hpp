#pragma once

// The state behind the public handles. Internal to the core.

#include "memory/queue_track.hpp"

#include <plinth/backend/sdk.hpp>
#include <plinth/buffer.hpp>
#include <plinth/context.hpp>
#include <plinth/device.hpp>
#include <plinth/host_array.hpp>
#include <plinth/program.hpp>
#include <plinth/queue.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace plinth::detail {

/// Wraps an adapter created by a plugin so that the plugin stays loaded until it is deleted.
template <class T>
std::shared_ptr<T> adopt(std::unique_ptr<T> adapter, std::shared_ptr<const void> plugin) {
  return std::shared_ptr<T>(adapter.release(), [plugin = std::move(plugin)](T* p) { delete p; });
}

struct DeviceData {
  std::shared_ptr<backend::DeviceAdapter> adapter;
  std::string name;
  DeviceParameters params;
  DeviceFeatures features;        // all false for plugins older than 1.5
  std::string compiler_identity;  // "" for 1.0 plugins and backends that have none
};

struct PlatformData {
  std::shared_ptr<backend::PlatformAdapter> adapter;
  std::string name;
  std::string vendor;
  std::string version;
  std::vector<DeviceData> devices;
};

/// A loaded, initialised backend: what an API handle points to.
struct LoadedApi {
  APIID id;
  std::string name;
  int abi_minor = 0;
  std::shared_ptr<const void> plugin;  // the loaded library; adapters keep it alive too
  std::shared_ptr<backend::ApiAdapter> adapter;
  std::vector<PlatformData> platforms;

  template <class T>
  std::shared_ptr<T> adopt(std::unique_ptr<T> p) const {
    return detail::adopt(std::move(p), plugin);
  }
};

const PlatformData& platform_data(const Platform& platform);
const DeviceData& device_data(const Device& device);

struct ContextPools;        // memory/context_pools.hpp
class BlockLease;           // memory/device_pool.hpp
class PageLockedPoolState;  // arrays/page_locked_pool_state.hpp
class KernelStore;          // algorithms/kit/kernel_store.hpp

struct ContextImpl {
  API api;
  std::size_t platform_index;
  std::vector<Device> devices;
  std::shared_ptr<backend::ContextAdapter> adapter;
  /// The device memory pools (MemoryPool). After `adapter`: destroyed first, while the
  /// adapter that frees their segments still lives.
  std::shared_ptr<ContextPools> pools;
  /// The page-locked host pool (PageLockedMemoryPool): after `adapter`, so that it goes first
  /// (it holds the adapter too, for handles that outlive the context). Never null.
  std::shared_ptr<PageLockedPoolState> page_locked_pool;
  /// The compiled programs of the generated kernels (kernel_store.hpp). Last: destroyed
  /// first, while the pools that hold its scratch memory and the adapter live. Never null.
  std::shared_ptr<KernelStore> kernels = {};
};

/// Host arrays that a queue's asynchronous transfers still read or write: a HostArray handle
/// is shared, so `array.set(queue, HostArray::from_values(...))` with a temporary is correct
/// only if the queue keeps the elements alive until the copy is done. Released when the queue
/// is next known to be idle (synchronize(), a blocking read, the queue's end; not a blocking
/// write, which may return before earlier work is done: see queue_idle()), and the
/// queue is synchronized once too many pile up. Any thread may call the members.
class PendingHostArrays {
 public:
  /// Keeps `host` alive; returns true when so many are kept that the caller should
  /// synchronize the queue and call release().
  bool keep(const HostArray& host);
  /// Drops every array kept so far (the queue's work enqueued before this call is done).
  void release() noexcept;
  /// Leaks what is kept, for a queue whose work may still use it but cannot be waited for.
  void abandon() noexcept;
  /// Whether anything is kept (no lock: a hint for skipping release()).
  bool any() const noexcept { return any_.load(std::memory_order_relaxed); }

 private:
  static constexpr std::size_t limit = 256;
  std::mutex mutex_;
  std::vector<HostArray> arrays_;
  std::atomic<bool> any_{false};
};

struct QueueImpl {
  QueueImpl(BoundDevice bound_device, std::shared_ptr<backend::QueueAdapter> queue_adapter)
      : device(std::move(bound_device)), adapter(std::move(queue_adapter)) {
    events.reserve(event_pool_size);
  }
  QueueImpl(const QueueImpl&) = delete;
  QueueImpl& operator=(const QueueImpl&) = delete;

  BoundDevice device;  // first: outlives the adapter
  std::shared_ptr<backend::QueueAdapter> adapter;
  /// The BLAS library bound to this queue (blas/vendor_blas.hpp), made on first use;
  /// destroyed before the adapter.
  std::shared_ptr<backend::BlasAdapter> blas;
  PendingHostArrays pending;
  /// Events this queue recorded, reused once no Event holds them (SDK 1.2's
  /// record_event_again): recording one then allocates nothing. At most event_pool_size.
  std::vector<std::shared_ptr<backend::EventAdapter>> events;
  bool events_reusable = true;  // false once the backend declined to record one again
  /// The queue's progress as the memory pool sees it (memory/queue_track.hpp).
  std::shared_ptr<QueueTrack> track = std::make_shared<QueueTrack>();
  static constexpr std::size_t event_pool_size = 16;
  /// Waits for the transfers that still use kept host arrays, then releases them; waits for
  /// the queue's work too if it used pool blocks (their claims then need no event).
  ~QueueImpl();
};

/// After a call that waited for all of `queue`'s earlier work: synchronize(), or a blocking
/// read (on an in-order queue it ends after everything enqueued before it). Drops the kept
/// host arrays and tells the memory pool that the queue is idle. Not after a blocking write:
/// it returns once its data have left the host memory (QueueAdapter::write), with the copy
/// and earlier work possibly still running.
inline void queue_idle(const Queue& queue) noexcept {
  if (detail::Access::impl(queue)->pending.any()) detail::Access::impl(queue)->pending.release();
  detail::Access::impl(queue)->track->idle();
}

/// After a read from `queue` into `host`: an asynchronous one keeps `host` alive until the
/// queue is idle (the caller's handle may be a temporary); a blocking one means the queue is
/// idle.
inline void after_host_read(const Queue& queue, const HostArray& host, bool async) {
  if (!async) {
    queue_idle(queue);
  } else if (detail::Access::impl(queue)->pending.keep(host)) {
    queue.synchronize();  // too many in flight: wait, and release them
  }
}

/// After a write from `host` through `queue`: an asynchronous one keeps `host` alive until
/// the queue is idle; a blocking one needs nothing kept (its data have left `host`) and says
/// nothing of the queue's progress.
inline void after_host_write(const Queue& queue, const HostArray& host, bool async) {
  if (async && detail::Access::impl(queue)->pending.keep(host)) {
    queue.synchronize();  // too many in flight: wait, and release them
  }
}

class SubRegionRecord;  // virtual_alloc/sub_regions.hpp

struct BufferImpl {
  BoundDevice device;
  std::shared_ptr<BufferImpl> parent;  // keeps the root allocation of a sub-region alive
  std::shared_ptr<backend::BufferAdapter> adapter;
  std::size_t offset = 0;
  std::size_t size = 0;
  /// Only on a virtual buffer (virtual_alloc.hpp), whose memory pack() may move: its
  /// sub-regions, so that pack() re-points them too.
  std::shared_ptr<SubRegionRecord> sub_regions = nullptr;
  /// Only on a MemoryPool block and its sub-regions: the block's lease, which returns it to
  /// the pool when the last of them goes, and notes the queues that use it.
  std::shared_ptr<BlockLease> lease = nullptr;
};

/// Notes that `queue` enqueues work on `buffer`, for the memory pool's ordering (a no-op for
/// memory not from a pool). Called by every launch and transfer the core enqueues.
void note_use(const Buffer& buffer, const Queue& queue);

struct ProgramImpl {
  BoundMultiDevice devices;
  std::vector<std::size_t> context_indices;  // program slot -> the device's index in the context
  /// One backend program per distinct source: devices whose rendered sources differ (the
  /// device_params global, a StaticKernel's per-device sizes) are built separately.
  struct Part {
    std::shared_ptr<backend::ProgramAdapter> adapter;
    std::string source;  // as compiled (prelude included); empty for binaries and SPIR-V
    /// Set while `adapter` is from the compiled-program cache: compiles the part anew
    /// (program_cache.hpp's CachedProgram::rebuild).
    std::function<std::shared_ptr<backend::ProgramAdapter>(const std::string&)> rebuild = {};
    /// Adapters replaced by a rebuild, kept alive for the kernels made from them.
    std::vector<std::shared_ptr<backend::ProgramAdapter>> replaced = {};
  };
  std::vector<Part> parts;
  /// Per program slot: its part, and its slot within that part's adapter.
  struct SlotRef {
    std::size_t part = 0;
    std::size_t index = 0;
  };
  std::vector<SlotRef> slot_refs;
  std::string kept_directory;
  std::vector<ConstantArray> constant_arrays;
  /// Guards the parts' adapters, which rebuild_from_source() replaces.
  std::unique_ptr<std::mutex> parts_mutex = std::make_unique<std::mutex>();
  const LoadedApi& api() const;
  /// The adapter of program slot `slot`, and the slot to pass it.
  backend::ProgramAdapter& adapter(std::size_t slot) const {
    const std::lock_guard lock(*parts_mutex);
    return *parts[slot_refs[slot].part].adapter;  // replaced adapters stay alive
  }
  /// For a part created from cached binaries that lacks what a caller asked for (`reason`):
  /// compiles the part of program slot `slot` from its source, once, replacing its adapter;
  /// returns false (and does nothing) when the part was not from the cache or is rebuilt
  /// already. Throws what compiling throws.
  bool rebuild_from_source(std::size_t slot, const std::string& reason);
  std::size_t adapter_slot(std::size_t slot) const { return slot_refs[slot].index; }
};

/// A prepared launch on one program device: the shape (dims 0: not prepared for that device)
/// and how many arguments a launch takes (one fewer than the parameters where the backend
/// binds the dynamic local memory).
struct SlotLaunch {
  backend::LaunchShape shape;
  std::size_t arg_count = 0;
};

/// Kernel::operator()'s remembered launch shapes, shared by the copies of a Kernel: the last
/// `capacity` shapes (global size, local size, local memory) it was called with, each
/// prepared for the program's devices. Whoever holds `mutex` alone uses the entries and the
/// kernel adapters of the KernelImpl that owns it; any thread may try to take it.
struct LaunchCache {
  static constexpr std::size_t capacity = 8;
  struct Entry {
    /// 0: empty; otherwise when it was last used (a larger stamp is more recent).
    std::uint64_t last_used = 0;
    std::uint8_t global_dims = 0;
    std::uint8_t local_dims = 0;  // 0: the local size is chosen
    std::array<std::size_t, 3> global{};
    std::array<std::size_t, 3> local{};
    std::size_t local_mem = 0;
    /// Per program slot: the launch prepared on that device.
    std::vector<SlotLaunch> slots;
  };
  std::mutex mutex;
  std::array<Entry, capacity> entries;
  std::uint64_t clock = 0;
};

/// A kernel on every device of its program; with a launch shape per device once prepared.
struct KernelImpl {
  Program program;
  std::string name;
  /// The kernel on one program device (one allocation for all of them).
  struct Slot {
    std::shared_ptr<backend::KernelAdapter> adapter;
    /// How the adapter takes dynamic local memory (declared from SDK 1.1, inferred for 1.0).
    backend::DynamicLocalMemory dynamic_local = backend::DynamicLocalMemory::launch_parameter;
    /// The adapter's parameters, introspected once when the kernel is made (the span points
    /// into the adapter, which lives as long as this slot).
    std::span<const backend::ParamInfo> params;
    /// Once prepared: the shape (dims 0: not prepared for this device), and how many
    /// arguments a launch takes (one fewer than the parameters where the backend binds the
    /// dynamic local memory).
    backend::LaunchShape shape;
    std::size_t arg_count = 0;
  };
  /// One per program device.
  std::vector<Slot> slots;
  /// For each context device index: its program slot, or npos.
  std::vector<std::size_t> slot_of_context_device;
  /// Only on a Kernel's own KernelImpl (Program::kernel), null on a PreparedKernel's: the
  /// shapes Kernel::operator() was called with, launched through this KernelImpl's adapters.
  std::unique_ptr<LaunchCache> launch_cache;
};

/// Where two objects that should be on one device are, for a LogicError: "the queue is on
/// device 0 ('A') but the buffer on device 1 ('B')", or, when their contexts differ, says so
/// (the same device in two contexts is still a mismatch).
std::string describe_mismatch(const char* first, const BoundDevice& a, const char* second,
                              const BoundDevice& b);

/// The adapters of public handles.
inline backend::ContextAdapter& adapter(const Context& c) {
  return *detail::Access::impl(c)->adapter;
}
const LoadedApi& loaded(const API& api);
/// The loaded API `shortcut`, ready or without devices (what needs the plugin but no device:
/// compiling for a named target). Throws PluginError naming the candidate's state otherwise.
std::shared_ptr<LoadedApi> find_loaded(const std::string& shortcut);

}  // namespace plinth::detail
