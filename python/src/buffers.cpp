// plinth.Buffer, managed memory, IPC handles, the memory pools and page-locked host arrays.

#include <plinth/array_metadata.hpp>
#include <plinth/buffer.hpp>
#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>
#include <plinth/ipc.hpp>
#include <plinth/managed_memory.hpp>
#include <plinth/memory_pool.hpp>
#include <plinth/page_locked.hpp>
#include <plinth/page_locked_pool.hpp>

#include "array_arguments.hpp"
#include "bindings.hpp"
#include "dtypes.hpp"
#include "host_arrays.hpp"
#include "host_bytes.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace plinth::python {

namespace {

nb::bytes to_bytes(std::span<const std::byte> bytes) {
  return nb::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

nb::object numpy_bytes(std::size_t size) {
  return nb::module_::import_("numpy").attr("empty")(size, "uint8");
}

/// A fill pattern: bytes-like objects as they are, numpy scalars and arrays as their bytes.
std::vector<std::byte> pattern_bytes(nb::handle pattern) {
  if (nb::hasattr(pattern, "tobytes")) {  // numpy scalars (np.float64 is a float too), arrays
    const nb::object bytes = pattern.attr("tobytes")();
    const BufferView view(bytes, false);
    return {view.bytes().begin(), view.bytes().end()};
  }
  if (PyLong_Check(pattern.ptr()) || PyFloat_Check(pattern.ptr()) ||
      PyComplex_Check(pattern.ptr())) {
    throw nb::type_error(
        "a fill pattern is bytes or a numpy scalar (e.g. numpy.float32(1)): a Python number "
        "has no size");
  }
  const BufferView view(pattern, false);
  return {view.bytes().begin(), view.bytes().end()};
}

std::string buffer_repr(const Buffer& b) {
  return "<plinth.Buffer " + std::to_string(b.size()) + " bytes at offset " +
         std::to_string(b.offset()) + (b.is_managed() ? ", managed" : "") + " on device " +
         std::to_string(b.device().index()) + " (" + b.device().device().full_name() + ")>";
}

void bind_stats(nb::module_& m) {
  nb::class_<MemoryPoolStats>(m, "MemoryPoolStats",
                              "A snapshot of what a memory pool holds and has done (bytes of "
                              "device memory, or of page-locked host memory).")
      .def_ro("bytes_in_use", &MemoryPoolStats::bytes_in_use,
              "Bytes of the blocks handed out and not yet released.")
      .def_ro("bytes_held", &MemoryPoolStats::bytes_held,
              "Bytes the pool holds from the driver: in use, cached and left over.")
      .def_ro("peak_bytes_in_use", &MemoryPoolStats::peak_bytes_in_use,
              "The most bytes_in_use has been.")
      .def_ro("peak_bytes_held", &MemoryPoolStats::peak_bytes_held, "The most bytes_held has been.")
      .def_ro("hits", &MemoryPoolStats::hits, "Requests served from cached memory.")
      .def_ro("misses", &MemoryPoolStats::misses, "Requests that allocated from the driver.")
      .def_ro("splits", &MemoryPoolStats::splits, "Cached blocks split for a smaller request.")
      .def_ro("segments_freed", &MemoryPoolStats::segments_freed,
              "Segments given back to the driver.")
      .def_ro("queue_waits", &MemoryPoolStats::queue_waits,
              "Waits a queue was made to do before reusing a block other queues used.")
      .def("__repr__", [](const MemoryPoolStats& s) {
        return "plinth.MemoryPoolStats(bytes_in_use=" + std::to_string(s.bytes_in_use) +
               ", bytes_held=" + std::to_string(s.bytes_held) +
               ", peak_bytes_in_use=" + std::to_string(s.peak_bytes_in_use) +
               ", peak_bytes_held=" + std::to_string(s.peak_bytes_held) +
               ", hits=" + std::to_string(s.hits) + ", misses=" + std::to_string(s.misses) +
               ", splits=" + std::to_string(s.splits) +
               ", segments_freed=" + std::to_string(s.segments_freed) +
               ", queue_waits=" + std::to_string(s.queue_waits) + ")";
      });
}

void bind_ipc(nb::module_& m) {
  nb::class_<IpcMemoryHandle>(
      m, "IpcMemoryHandle",
      "Device memory exported by Buffer.ipc_handle() for Buffer.from_ipc_handle() in another "
      "process: the API's shortcut, the vendor's handle, the region's offset and size. "
      "str() and bytes() give its text and binary forms; from_string() and from_bytes() read "
      "them back.")
      .def_static(
          "from_parts",
          [](std::string_view api, nb::bytes vendor, std::size_t size, std::size_t offset) {
            return IpcMemoryHandle::from_parts(
                api, std::as_bytes(std::span(vendor.c_str(), vendor.size())), size, offset);
          },
          nb::arg("api_shortcut"), nb::arg("vendor_handle"), nb::arg("size"), nb::arg("offset"),
          "A handle from its parts. Raises LogicError for an invalid shortcut, an empty or "
          "oversized vendor handle, size 0 or a region beyond 2**64.")
      .def_static("from_string", &IpcMemoryHandle::from_string, nb::arg("text"),
                  "Reads str()'s text. Raises LogicError, naming the problem, otherwise.")
      .def_static(
          "from_bytes",
          [](nb::handle bytes) {
            const BufferView view(bytes, false);
            return IpcMemoryHandle::from_bytes(view.bytes());
          },
          nb::arg("data"),
          "Reads bytes()'s form. Raises LogicError, naming the problem, otherwise.")
      .def("to_string", &IpcMemoryHandle::to_string,
           "'<api>:<size>:<offset>:<vendor handle in hex>'.")
      .def("__str__", &IpcMemoryHandle::to_string)
      .def(
          "to_bytes", [](const IpcMemoryHandle& h) { return to_bytes(h.to_bytes()); },
          "The compact binary form.")
      .def("__bytes__", [](const IpcMemoryHandle& h) { return to_bytes(h.to_bytes()); })
      .def_prop_ro("api_shortcut", &IpcMemoryHandle::api_shortcut,
                   "The shortcut of the API that exported the memory.")
      .def_prop_ro(
          "vendor_handle", [](const IpcMemoryHandle& h) { return to_bytes(h.vendor_handle()); },
          "The vendor's handle of the whole allocation, as bytes.")
      .def_prop_ro("size", &IpcMemoryHandle::size, "Bytes in the exported region.")
      .def_prop_ro("offset", &IpcMemoryHandle::offset,
                   "Where the region starts inside the vendor's allocation.")
      .def(
          "__eq__", [](const IpcMemoryHandle& a, const IpcMemoryHandle& b) { return a == b; },
          nb::is_operator())
      .def("__hash__",
           [](const IpcMemoryHandle& h) { return std::hash<std::string>{}(h.to_string()); })
      .def("__repr__", [](const IpcMemoryHandle& h) {
        return "plinth.IpcMemoryHandle.from_string('" + h.to_string() + "')";
      });

  nb::class_<IpcEventHandle>(
      m, "IpcEventHandle",
      "An interprocess event exported by Event.ipc_handle() for Event.from_ipc_handle() in "
      "another process. str() and bytes() give its text and binary forms.")
      .def_static(
          "from_parts",
          [](std::string_view api, nb::bytes vendor) {
            return IpcEventHandle::from_parts(
                api, std::as_bytes(std::span(vendor.c_str(), vendor.size())));
          },
          nb::arg("api_shortcut"), nb::arg("vendor_handle"),
          "A handle from its parts. Raises LogicError for an invalid shortcut or an empty or "
          "oversized vendor handle.")
      .def_static("from_string", &IpcEventHandle::from_string, nb::arg("text"),
                  "Reads str()'s text. Raises LogicError, naming the problem, otherwise.")
      .def_static(
          "from_bytes",
          [](nb::handle bytes) {
            const BufferView view(bytes, false);
            return IpcEventHandle::from_bytes(view.bytes());
          },
          nb::arg("data"),
          "Reads bytes()'s form. Raises LogicError, naming the problem, otherwise.")
      .def("to_string", &IpcEventHandle::to_string, "'<api>:<vendor handle in hex>'.")
      .def("__str__", &IpcEventHandle::to_string)
      .def(
          "to_bytes", [](const IpcEventHandle& h) { return to_bytes(h.to_bytes()); },
          "The compact binary form.")
      .def("__bytes__", [](const IpcEventHandle& h) { return to_bytes(h.to_bytes()); })
      .def_prop_ro("api_shortcut", &IpcEventHandle::api_shortcut,
                   "The shortcut of the API that exported the event.")
      .def_prop_ro(
          "vendor_handle", [](const IpcEventHandle& h) { return to_bytes(h.vendor_handle()); },
          "The vendor's handle, as bytes.")
      .def(
          "__eq__", [](const IpcEventHandle& a, const IpcEventHandle& b) { return a == b; },
          nb::is_operator())
      .def("__hash__",
           [](const IpcEventHandle& h) { return std::hash<std::string>{}(h.to_string()); })
      .def("__repr__", [](const IpcEventHandle& h) {
        return "plinth.IpcEventHandle.from_string('" + h.to_string() + "')";
      });

  nb::class_<IpcSupport>(m, "IpcSupport",
                         "Whether memory and events of a device can be shared with other "
                         "processes, or why not.")
      .def_ro("memory", &IpcSupport::memory, "Buffer.ipc_handle()/from_ipc_handle() work.")
      .def_ro("events", &IpcSupport::events, "Interprocess events work.")
      .def_ro("reason", &IpcSupport::reason, "Why not (empty when both work).")
      .def("__repr__", [](const IpcSupport& s) {
        return std::string("plinth.IpcSupport(memory=") + (s.memory ? "True" : "False") +
               ", events=" + (s.events ? "True" : "False") + ", reason='" + s.reason + "')";
      });
  m.def("ipc_support", &ipc_support, nb::arg("device"),
        "An IpcSupport saying whether `device` (a BoundDevice) can share memory and events "
        "with other processes, or why not. Never raises.");
}

void bind_managed_enums(nb::module_& m) {
  nb::enum_<ManagedAttach>(m, "ManagedAttach", "Which queues may reach managed memory.")
      .value("global_", ManagedAttach::global, "Any queue of any device (the default).")
      .value("host", ManagedAttach::host, "The host only, until Buffer.attach().")
      .value("single", ManagedAttach::single, "One queue only (Buffer.attach() only).");
  nb::enum_<ManagedLocation>(m, "ManagedLocation",
                             "Where a prefetch moves managed memory, or which processor a "
                             "piece of advice names.")
      .value("device", ManagedLocation::device, "The buffer's device.")
      .value("host", ManagedLocation::host, "The host.");
  nb::enum_<ManagedAdvice>(m, "ManagedAdvice", "Advice about how managed memory will be used.")
      .value("set_read_mostly", ManagedAdvice::set_read_mostly)
      .value("unset_read_mostly", ManagedAdvice::unset_read_mostly)
      .value("set_preferred_location", ManagedAdvice::set_preferred_location)
      .value("unset_preferred_location", ManagedAdvice::unset_preferred_location)
      .value("set_accessed_by", ManagedAdvice::set_accessed_by)
      .value("unset_accessed_by", ManagedAdvice::unset_accessed_by);
}

/// What Python's plinth.HostRegistration holds: the caller's object, an export of its memory
/// (so that a bytearray cannot be resized under the registration) and the registration.
/// Destroyed in reverse order: unregistered first, then the export released.
struct PyHostRegistration {
  nb::object object;
  std::unique_ptr<BufferView> view;
  std::optional<HostRegistration> registration;

  void reset() {
    if (registration) registration->reset();
    registration.reset();
    view.reset();
  }
};

}  // namespace

void bind_buffers(nb::module_& m) {
  bind_stats(m);
  bind_ipc(m);
  bind_managed_enums(m);

  nb::class_<PitchedBuffer>(m, "PitchedBuffer", "What Buffer.allocate_pitched() returns.")
      .def_ro("buffer", &PitchedBuffer::buffer, "The buffer.")
      .def_ro("row_pitch", &PitchedBuffer::row_pitch, "Bytes between the starts of two rows.")
      .def_ro("slice_pitch", &PitchedBuffer::slice_pitch, "Bytes between the starts of two slices.")
      .def(
          "__iter__",
          [](const PitchedBuffer& p) {
            return nb::iter(nb::make_tuple(p.buffer, p.row_pitch, p.slice_pitch));
          },
          "Unpacks as (buffer, row_pitch, slice_pitch).")
      .def("__repr__", [](const PitchedBuffer& p) {
        return "<plinth.PitchedBuffer row_pitch=" + std::to_string(p.row_pitch) +
               ", slice_pitch=" + std::to_string(p.slice_pitch) + ", " + buffer_repr(p.buffer) +
               ">";
      });

  nb::class_<Buffer>(m, "Buffer",
                     "A block of global memory on one device (or a region of one). Freed with "
                     "the last handle to it and to its regions; it keeps its context alive.")
      .def_static("allocate", &Buffer::allocate, nb::arg("device"), nb::arg("size"),
                  "Allocates `size` bytes on `device` (a BoundDevice), outside the memory "
                  "pool. Raises LogicError for size 0, OutOfMemoryError.")
      .def_static("from_backend_buffer",
                  nb::overload_cast<const BoundDevice&, std::uintptr_t, std::size_t, bool>(
                      &Buffer::from_backend_buffer),
                  nb::arg("device"), nb::arg("handle"), nb::arg("size"),
                  nb::arg("take_ownership") = false,
                  "Wraps native memory (cl_mem, CUdeviceptr, ... as an int) of `size` bytes "
                  "on `device`; with `take_ownership` it is freed with the last handle.")
      .def_static("allocate_pitched", &Buffer::allocate_pitched, nb::arg("device"),
                  nb::arg("width_bytes"), nb::arg("height"), nb::arg("depth") = 1,
                  "Allocates `depth` slices of `height` rows of `width_bytes` bytes, each row "
                  "at a multiple of the device's preferred pitch. Returns a PitchedBuffer "
                  "(buffer, row_pitch, slice_pitch). Raises LogicError for size 0.")
      .def_static("allocate_managed", &Buffer::allocate_managed, nb::arg("device"), nb::arg("size"),
                  nb::arg("attach") = ManagedAttach::global,
                  "Allocates `size` bytes of managed memory (one address for the device and "
                  "the host). `attach` is ManagedAttach.global_ or .host. Raises LogicError "
                  "for size 0, ManagedAttach.single, or where the backend or device has no "
                  "managed memory (saying why); OutOfMemoryError; BackendError.")
      .def_static("from_ipc_handle", &Buffer::from_ipc_handle, nb::arg("device"), nb::arg("handle"),
                  "The memory that `handle` (an IpcMemoryHandle from another process) names, "
                  "mapped on `device`. Raises LogicError for a handle of another API or where "
                  "the backend has no interprocess memory (OpenCL), BackendError when the "
                  "vendor refuses it.")
      .def(
          "get",
          [](const Buffer& b, const Queue& queue, nb::handle dest) {
            nb::object target = dest.is_none() ? numpy_bytes(b.size()) : nb::borrow(dest);
            {
              const BufferView view(target, true);
              nb::gil_scoped_release release;
              b.get(queue, view.bytes());
            }
            return target;
          },
          nb::arg("queue"), nb::arg("dest") = nb::none(),
          "Copies the buffer into `dest` (a writable C-contiguous numpy array, bytearray or "
          "memoryview of exactly size bytes), or into a new numpy uint8 array, and returns it. "
          "Blocks (the GIL released) until the copy is done. Raises LogicError on a size "
          "mismatch or a queue of another device.")
      .def(
          "set",
          [](const Buffer& b, const Queue& queue, nb::handle src) {
            if (nb::isinstance<Buffer>(src)) {
              const Buffer& source = nb::cast<const Buffer&>(src);
              nb::gil_scoped_release release;
              b.set(queue, source, false);
              return;
            }
            const BufferView view(src, false);
            nb::gil_scoped_release release;
            b.set(queue, view.bytes(), true);
          },
          nb::arg("queue"), nb::arg("src"),
          "Copies `src` into the buffer: from the host (a C-contiguous numpy array or bytes-like "
          "object of exactly size bytes; blocks, the GIL released, until the data have left "
          "`src`), or from another Buffer of the same size and context (device to device, "
          "asynchronous, ordered in `queue`; overlapping regions copy as memmove). Raises "
          "LogicError on a size mismatch or a queue or buffer of another device or context.")
      .def(
          "copy_from",
          [](const Buffer& b, const Queue& queue, const Buffer& src) {
            nb::gil_scoped_release release;
            b.set(queue, src, false);
          },
          nb::arg("queue"), nb::arg("src"),
          "Copies Buffer `src` (same size and context) into this one, asynchronously in "
          "`queue` (set() with a Buffer).")
      .def(
          "fill",
          [](const Buffer& b, const Queue& queue, nb::handle pattern) {
            const std::vector<std::byte> bytes = pattern_bytes(pattern);
            nb::gil_scoped_release release;
            b.fill(queue, bytes);
          },
          nb::arg("queue"), nb::arg("pattern"),
          "Fills the buffer with copies of `pattern` (bytes of 1 to 128, or a numpy scalar "
          "such as numpy.float32(1): its bytes), asynchronously in `queue`. Raises TypeError "
          "for a Python number (it has no size), LogicError for an empty or too long pattern, "
          "a size that is not a whole number of patterns, or a queue of another device.")
      .def("get_sub_region", &Buffer::get_sub_region, nb::arg("origin"), nb::arg("size"),
           "The bytes [origin, origin + size) of this buffer, sharing its memory (and keeping "
           "it alive). Raises LogicError if out of bounds or empty.")
      .def("record_queue", &Buffer::record_queue, nb::arg("queue"),
           "Notes that `queue` uses this memory in work plinth does not enqueue itself (its "
           "handle passed to a vendor library), so a pool block is reused only after it. "
           "Raises LogicError for a queue of another context.")
      .def("ipc_handle", &Buffer::ipc_handle,
           "An IpcMemoryHandle of this memory for another process's from_ipc_handle(). Raises "
           "LogicError where the backend has no interprocess memory (OpenCL) or for a "
           "virtual buffer, BackendError when the vendor refuses.")
      .def_prop_ro("is_managed", &Buffer::is_managed,
                   "Whether the memory is managed (allocate_managed() or a region of it).")
      .def_prop_ro(
          "host_pointer",
          [](const Buffer& b) { return reinterpret_cast<std::uintptr_t>(b.host_pointer()); },
          "The host address (int) of managed memory's first byte. Raises LogicError for "
          "memory that is not managed.")
      .def(
          "managed_view",
          [](const Buffer& b, const ShapeArg& shape, const DType& dtype) {
            return to_numpy(HostArray::managed_view(b, ArrayMetadata(shape.shape(), dtype)));
          },
          nb::arg("shape"), nb::arg("dtype") = "uint8",
          "A numpy array of `shape` and `dtype` over the host side of this managed memory (no "
          "copy; it keeps the buffer alive). Use it only while no work on the buffer runs "
          "(after synchronizing the queues that used it). Raises LogicError if the buffer is "
          "not managed or too small.")
      .def("prefetch", &Buffer::prefetch, nb::arg("queue"), nb::arg("to") = ManagedLocation::device,
           "Enqueues a move of this managed memory to `to` (a ManagedLocation). Returns True if "
           "enqueued, False where the backend or device has no such prefetch. Raises "
           "LogicError for memory that is not managed or a queue of another device.")
      .def("advise", &Buffer::advise, nb::arg("queue"), nb::arg("advice"),
           nb::arg("location") = ManagedLocation::device,
           "Gives `advice` (a ManagedAdvice) about this managed memory, naming `location`. "
           "Returns True if the backend took it, False where it has no such advice. Raises "
           "LogicError for memory that is not managed or a queue of another device.")
      .def("attach", &Buffer::attach, nb::arg("queue"), nb::arg("attach"),
           "Attaches the whole managed allocation to `queue` as `attach` (a ManagedAttach) "
           "says, ordered in `queue`. Raises LogicError for memory that is not managed, a "
           "sub-region, a queue of another device, or a backend without attach kinds (Level "
           "Zero, OpenCL: global is a no-op there).")
      .def_prop_ro("offset", &Buffer::offset, "The offset from the root allocation.")
      .def_prop_ro("size", &Buffer::size, "Bytes in this buffer or region.")
      .def("__len__", &Buffer::size, "size.")
      .def_prop_ro("device", &Buffer::device, "The BoundDevice the memory is on.")
      .def_prop_ro("handle", &Buffer::native_handle,
                   "The native memory (cl_mem, CUdeviceptr of this region's start, ...) as an "
                   "int.")
      .def_prop_ro("ptr", &Buffer::native_handle, "The same as handle.")
      .def("overlaps", &Buffer::overlaps, nb::arg("other"),
           "True if this buffer and `other` share a byte of memory.")
      .def("__repr__", &buffer_repr);

  nb::class_<MemoryPool>(m, "MemoryPool",
                         "The caching device memory pool of a context (one per device), which "
                         "arrays take their memory from (include/plinth/memory_pool.hpp).")
      .def_static("of", &MemoryPool::of, nb::arg("context"), "The pool of `context`.")
      .def(
          "allocate",
          [](const MemoryPool& pool, const std::variant<Queue, BoundDevice>& where,
             std::size_t size) {
            return std::visit([&](const auto& w) { return pool.allocate(w, size); }, where);
          },
          nb::arg("queue_or_device"), nb::arg("size"),
          "A block of `size` bytes: for a Queue, ordered in it (reused at once); for a "
          "BoundDevice, for whichever queue uses it first. Raises LogicError for size 0, "
          "OutOfMemoryError (also when the limit would be passed).")
      .def(
          "stats",
          [](const MemoryPool& pool, const std::optional<BoundDevice>& device) {
            return device ? pool.stats(*device) : pool.stats();
          },
          nb::arg("device") = nb::none(),
          "A MemoryPoolStats of `device`'s pool, or the sums over the context's devices. "
          "Raises LogicError for a device of another context.")
      .def("free_all_blocks", &MemoryPool::free_all_blocks,
           nb::call_guard<nb::gil_scoped_release>(),
           "Gives every cached segment with no block in use back to the driver (which may "
           "synchronize the device: the GIL is released).")
      .def_prop_rw("limit", &MemoryPool::limit, &MemoryPool::set_limit,
                   "The most bytes each device's pool may hold from the driver (None: no "
                   "bound). Lowering it gives back cached segments at once.")
      .def_prop_ro("enabled", &MemoryPool::enabled,
                   "False when PLINTH_MEMORY_POOL turned the pool off for this context.")
      .def("__repr__", [](const MemoryPool& pool) {
        const MemoryPoolStats s = pool.stats();
        return "<plinth.MemoryPool " + std::string(pool.enabled() ? "" : "(off) ") +
               std::to_string(s.bytes_in_use) + " bytes in use, " + std::to_string(s.bytes_held) +
               " held>";
      });

  nb::class_<PageLockedMemoryPool>(m, "PageLockedMemoryPool",
                                   "The page-locked host memory pool of a context, which "
                                   "plinth.page_locked() takes its memory from.")
      .def_static("of", &PageLockedMemoryPool::of, nb::arg("context"), "The pool of `context`.")
      .def("stats", &PageLockedMemoryPool::stats, "A MemoryPoolStats snapshot.")
      .def("free_all_blocks", &PageLockedMemoryPool::free_all_blocks,
           nb::call_guard<nb::gil_scoped_release>(),
           "Gives every cached block back to the driver (blocks in use stay; the GIL is "
           "released).")
      .def_prop_rw("limit", &PageLockedMemoryPool::limit, &PageLockedMemoryPool::set_limit,
                   "The most bytes the pool may hold from the driver (None: no bound).")
      .def_prop_ro("enabled", &PageLockedMemoryPool::enabled,
                   "False when PLINTH_MEMORY_POOL turned the pool off for this context.")
      .def("__repr__", [](const PageLockedMemoryPool& pool) {
        const MemoryPoolStats s = pool.stats();
        return "<plinth.PageLockedMemoryPool " + std::string(pool.enabled() ? "" : "(off) ") +
               std::to_string(s.bytes_in_use) + " bytes in use, " + std::to_string(s.bytes_held) +
               " held>";
      });

  nb::class_<PyHostRegistration>(
      m, "HostRegistration",
      "The caller's existing host memory (a writable C-contiguous numpy array, bytearray or "
      "memoryview), page-locked for every device of a context while the registration lives "
      "(PyCUDA's register_host_memory; CUDA only: OpenCL has no such call). Transfers from "
      "and to the object then run at the DMA rate where the backend detects page-locked "
      "memory (CUDA does). The registration keeps the object (and its context) alive; reset() "
      "or the end of a `with` block unregisters it.")
      .def(
          "__init__",
          [](PyHostRegistration* self, const Context& context, nb::handle object) {
            auto view = std::make_unique<BufferView>(object, true);
            HostRegistration registration(context, view->bytes());
            new (self)
                PyHostRegistration{nb::borrow(object), std::move(view), std::move(registration)};
          },
          nb::arg("context"), nb::arg("array"),
          "Page-locks the memory of `array` for every device of `context`. Raises LogicError "
          "for empty, read-only or non-contiguous memory and where the backend cannot "
          "page-lock existing memory (OpenCL: the message says so); BackendError if the API "
          "refuses (e.g. the range is registered already); OutOfMemoryError.")
      .def_prop_ro(
          "array", [](const PyHostRegistration& r) { return r.object; }, "The registered object.")
      .def_prop_ro(
          "nbytes",
          [](const PyHostRegistration& r) {
            return r.registration ? r.registration->memory().size() : std::size_t{0};
          },
          "Bytes registered (0 once reset).")
      .def(
          "__bool__",
          [](const PyHostRegistration& r) { return r.registration && bool(*r.registration); },
          "Whether the registration still holds its memory.")
      .def("reset", &PyHostRegistration::reset,
           "Unregisters the memory now (a no-op once reset). Transfers from or to it must be "
           "done (queues synchronized) first.")
      .def(
          "__enter__", [](nb::handle self) { return nb::borrow(self); }, "For a `with` block.")
      .def(
          "__exit__", [](PyHostRegistration& r, nb::handle, nb::handle, nb::handle) { r.reset(); },
          nb::arg("exc_type").none(), nb::arg("exc_value").none(), nb::arg("traceback").none(),
          "reset().")
      .def("__repr__", [](const PyHostRegistration& r) {
        return r.registration ? "<plinth.HostRegistration of " +
                                    std::to_string(r.registration->memory().size()) + " bytes>"
                              : std::string("<plinth.HostRegistration (reset)>");
      });

  m.def(
      "page_locked",
      [](const Context& context, const ShapeArg& shape, const DType& dtype,
         std::optional<std::size_t> alignment) {
        std::vector<std::size_t> extents = shape.shape();
        const HostArray host =
            alignment ? HostArray::page_locked(context, std::move(extents), dtype, *alignment)
                      : HostArray::page_locked(context, std::move(extents), dtype);
        return to_numpy(host);
      },
      nb::arg("context"), nb::arg("shape"), nb::arg("dtype") = "float64",
      nb::arg("alignment") = nb::none(),
      "A new zero-filled C-order numpy array in page-locked host memory of `context`, which "
      "transfers on its devices use directly (PyCUDA's pagelocked_empty). The memory comes "
      "from the context's PageLockedMemoryPool and goes back with the array (which keeps the "
      "context alive). With `alignment`, the first element's address is a multiple of it. "
      "Raises LogicError if the size overflows or the backend has no page-locked memory, "
      "OutOfMemoryError.");
}

}  // namespace plinth::python
