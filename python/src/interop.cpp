// Sharing arrays with other libraries without copies: DLPack both ways (Array.__dlpack__,
// Array.__dlpack_device__, plinth.from_dlpack), __cuda_array_interface__ (version 3) on CUDA
// arrays, and Array.from_pointer (foreign device memory).

#include <plinth/api.hpp>
#include <plinth/array.hpp>
#include <plinth/buffer.hpp>
#include <plinth/context.hpp>
#include <plinth/device.hpp>
#include <plinth/errors.hpp>
#include <plinth/queue.hpp>

#include "bindings.hpp"
#include "dtypes.hpp"
#include "host_arrays.hpp"
#include "py_array.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plinth::python {
namespace {

// DLPack's ABI (https://dmlc.github.io/dlpack/latest/c_api.html), declared from the
// specification: the structures, device types and type codes that plinth uses.
enum DLDeviceType : std::int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLROCM = 10,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
};
enum DLDataTypeCode : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLComplex = 5,
  kDLBool = 6,
};
struct DLDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};
struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null: C order
  std::uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor*);
};
struct DLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned*);
  std::uint64_t flags;
  DLTensor dl_tensor;
};
constexpr std::uint64_t kDLFlagReadOnly = 1u << 0;
constexpr std::uint64_t kDLFlagIsCopied = 1u << 1;
constexpr const char* kLegacyName = "dltensor";
constexpr const char* kVersionedName = "dltensor_versioned";
constexpr const char* kUsedLegacyName = "used_dltensor";
constexpr const char* kUsedVersionedName = "used_dltensor_versioned";

/// Python's BufferError (what the DLPack protocol raises when it cannot export).
[[noreturn]] void buffer_error(const std::string& message) {
  PyErr_SetString(PyExc_BufferError, message.c_str());
  throw nb::python_error();
}

/// What a capsule we export owns: the array (keeping its memory alive) and the arrays the
/// DLTensor points into. Freed by the tensor's deleter, which needs no GIL.
template <typename Managed>
struct ExportContext {
  explicit ExportContext(Array array_) : array(std::move(array_)) {}
  Managed managed{};
  Array array;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;

  static void deleter(Managed* managed) {
    delete static_cast<ExportContext*>(managed->manager_ctx);
  }
};

/// The DLPack device of an array's memory, or the reason there is none.
struct ExportedMemory {
  DLDevice device{};
  std::uintptr_t first_element = 0;
  std::string refusal;
};

ExportedMemory exported_memory(const Array& array) {
  const BoundDevice& device = array.device();
  const std::string& api = device.context().api().shortcut();
  const Buffer& base = array.base_buffer();
  ExportedMemory memory;
  const auto id = static_cast<std::int32_t>(device.device().native_handle());
  if (api == "cuda" || api == "hip") {
    memory.device = {api == "cuda" ? kDLCUDA : kDLROCM, id};
    memory.first_element = base.native_handle() + array.first_element_offset();
  } else if (api == "level_zero") {
    memory.device = {kDLOneAPI, static_cast<std::int32_t>(device.device().index())};
    memory.first_element = base.native_handle() + array.first_element_offset();
  } else if (base.is_managed()) {
    // OpenCL's fine-grained SVM (Buffer::allocate_managed): the host's address is the memory.
    memory.device = {kDLCPU, 0};
    memory.first_element =
        reinterpret_cast<std::uintptr_t>(base.host_pointer()) + array.first_element_offset();
  } else {
    memory.refusal = "plinth: an array of the " + api +
                     " backend has no address that DLPack can carry (its memory is a " +
                     (api == "opencl" ? std::string("cl_mem") : std::string("handle")) +
                     ", not a pointer; only managed memory, Buffer.allocate_managed, has a host "
                     "address): copy it to the host with get() instead";
  }
  return memory;
}

DLDataType dl_dtype(const DType& dtype) {
  const nb::object numpy_dtype = to_numpy_dtype(dtype);
  const std::string kind = nb::cast<std::string>(numpy_dtype.attr("kind"));
  const auto itemsize = nb::cast<std::size_t>(numpy_dtype.attr("itemsize"));
  const bool has_fields = !numpy_dtype.attr("fields").is_none();
  DLDataType out{0, static_cast<std::uint8_t>(itemsize * 8), 1};
  if (!has_fields && kind.size() == 1) {
    switch (kind[0]) {
      case 'b': return {kDLBool, 8, 1};
      case 'i': out.code = kDLInt; return out;
      case 'u': out.code = kDLUInt; return out;
      case 'f': out.code = kDLFloat; return out;
      case 'c': out.code = kDLComplex; return out;
      default: break;
    }
  }
  buffer_error("plinth: DLPack has no type for the dtype " +
               nb::cast<std::string>(nb::str(numpy_dtype)));
}

/// The numpy dtype name of a DLPack type, or a LogicError.
std::string numpy_name(const DLDataType& type) {
  if (type.lanes != 1) {
    throw LogicError("plinth.from_dlpack: vector types (" + std::to_string(type.lanes) +
                     " lanes) have no plinth dtype");
  }
  const std::string bits = std::to_string(type.bits);
  switch (type.code) {
    case kDLInt: return "int" + bits;
    case kDLUInt: return "uint" + bits;
    case kDLFloat: return "float" + bits;
    case kDLComplex: return "complex" + bits;
    case kDLBool:
      if (type.bits == 8) return "bool";
      break;
    default: break;
  }
  throw LogicError("plinth.from_dlpack: DLPack type code " + std::to_string(type.code) + " with " +
                   bits + " bits has no plinth dtype");
}

/// The native stream handle that DLPack's `stream` argument names on CUDA and HIP (the array
/// API's rules), or nullopt for "no synchronization" (-1).
std::optional<std::uintptr_t> consumer_stream(const std::string& api,
                                              const std::optional<std::intptr_t>& stream) {
  if (stream && *stream == -1) return std::nullopt;
  if (api == "cuda") {
    if (!stream) return std::uintptr_t{1};  // CU_STREAM_LEGACY
    if (*stream == 0) {
      buffer_error(
          "plinth: __dlpack__(stream=0) is ambiguous on CUDA: pass 1 (the legacy "
          "default stream), 2 (the per-thread default stream) or a stream handle");
    }
    return static_cast<std::uintptr_t>(*stream);
  }
  return static_cast<std::uintptr_t>(stream.value_or(0));  // HIP: 0 is the default stream
}

/// Makes work that the consumer enqueues later (on `stream`) see the array's pending work.
void order_for_consumer(const PyArray& a, const std::optional<std::intptr_t>& stream) {
  const std::string& api = a.array.device().context().api().shortcut();
  if (api == "cuda" || api == "hip") {
    const auto native = consumer_stream(api, stream);
    if (!native) return;
    nb::gil_scoped_release release;
    const Queue consumer = Queue::from_backend_queue(a.array.device(), *native);
    consumer.wait_for(a.queue.record_event());
    return;
  }
  if (stream && *stream != -1) {
    buffer_error(
        "plinth: __dlpack__(stream=...) takes a stream only for CUDA and HIP arrays; "
        "this one is of the " +
        api + " backend");
  }
  if (!stream) {
    nb::gil_scoped_release release;
    a.queue.synchronize();
  }
}

template <typename Managed>
nb::capsule make_capsule(const Array& array, const ExportedMemory& memory, std::uint64_t flags) {
  auto context = std::make_unique<ExportContext<Managed>>(array);
  const DLDataType type = dl_dtype(array.dtype());
  const auto itemsize = static_cast<std::ptrdiff_t>(array.dtype().itemsize());
  for (std::size_t d = 0; d < array.ndim(); ++d) {
    context->shape.push_back(static_cast<std::int64_t>(array.shape()[d]));
    const std::ptrdiff_t stride = array.strides()[d];
    if (stride % itemsize != 0) {
      buffer_error("plinth: DLPack strides count elements; stride " + std::to_string(stride) +
                   " is not a multiple of the item size " + std::to_string(itemsize));
    }
    context->strides.push_back(stride / itemsize);
  }
  DLTensor& tensor = context->managed.dl_tensor;
  tensor.data = reinterpret_cast<void*>(memory.first_element);
  tensor.device = memory.device;
  tensor.ndim = static_cast<std::int32_t>(array.ndim());
  tensor.dtype = type;
  tensor.shape = context->shape.data();
  tensor.strides = context->strides.data();
  tensor.byte_offset = 0;
  context->managed.manager_ctx = context.get();
  context->managed.deleter = &ExportContext<Managed>::deleter;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    context->managed.version = {1, 0};
    context->managed.flags = flags;
  }
  Managed* managed = &context->managed;
  constexpr bool versioned = std::is_same_v<Managed, DLManagedTensorVersioned>;
  // A capsule not consumed (still named "dltensor...") frees the tensor; a consumer renames it
  // and calls the deleter itself.
  auto capsule = nb::steal<nb::capsule>(
      PyCapsule_New(managed, versioned ? kVersionedName : kLegacyName, [](PyObject* object) {
        const char* name = versioned ? kVersionedName : kLegacyName;
        if (!PyCapsule_IsValid(object, name)) return;  // consumed
        auto* unused = static_cast<Managed*>(PyCapsule_GetPointer(object, name));
        if (unused != nullptr && unused->deleter != nullptr) unused->deleter(unused);
      }));
  if (!capsule.is_valid()) throw nb::python_error();
  context.release();
  return capsule;
}

nb::object dlpack(const PyArray& a, nb::handle stream_object, nb::handle max_version,
                  nb::handle dl_device, nb::handle copy_object) {
  std::optional<std::intptr_t> stream;
  if (!stream_object.is_none()) stream = nb::cast<std::intptr_t>(stream_object);
  const std::optional<bool> copy =
      copy_object.is_none() ? std::nullopt : std::optional<bool>(nb::cast<bool>(copy_object));
  bool versioned = false;
  if (!max_version.is_none()) {
    const auto version = nb::cast<std::pair<std::int64_t, std::int64_t>>(max_version);
    versioned = version.first >= 1;
  }
  const ExportedMemory memory = exported_memory(a.array);
  if (!dl_device.is_none()) {
    const auto wanted = nb::cast<std::pair<std::int32_t, std::int32_t>>(dl_device);
    const bool same = memory.refusal.empty() && wanted.first == memory.device.device_type &&
                      wanted.second == memory.device.device_id;
    if (!same) {
      if (wanted.first == kDLCPU && copy != false) {
        // A copy on the host: numpy's own capsule of a.get().
        HostArray host = [&] {
          nb::gil_scoped_release release;
          return a.array.get(a.queue);
        }();
        nb::object kwargs = nb::dict();
        if (!max_version.is_none()) kwargs["max_version"] = max_version;
        return to_numpy(host).attr("__dlpack__")(**kwargs);
      }
      buffer_error("plinth: __dlpack__ cannot export to device (" + std::to_string(wanted.first) +
                   ", " + std::to_string(wanted.second) + ")" +
                   (copy == false ? " without a copy (copy=False)" : std::string()) +
                   "; the array's memory is " +
                   (memory.refusal.empty()
                        ? "on (" + std::to_string(memory.device.device_type) + ", " +
                              std::to_string(memory.device.device_id) + ")"
                        : std::string("not exportable")));
    }
  }
  if (!memory.refusal.empty()) buffer_error(memory.refusal);
  Array exported = a.array;
  ExportedMemory exported_at = memory;
  std::uint64_t flags = 0;
  if (copy == true) {
    nb::gil_scoped_release release;
    exported = Array::empty(a.queue, a.array.shape(), a.array.dtype());
    exported.set(a.queue, a.array);
    exported_at = exported_memory(exported);
    flags |= kDLFlagIsCopied;
  }
  order_for_consumer(PyArray{exported, a.queue}, stream);
  if (versioned) return make_capsule<DLManagedTensorVersioned>(exported, exported_at, flags);
  return make_capsule<DLManagedTensor>(exported, exported_at, 0);
}

/// A queue for imported memory when none is given: one per (API, device ordinal), made once
/// (and kept for the process: its context must outlive every array made on it).
Queue default_queue(std::int32_t device_type, std::int32_t device_id) {
  static std::mutex mutex;
  static auto* queues = new std::map<std::pair<std::int32_t, std::int32_t>, Queue>();
  std::lock_guard lock(mutex);
  const auto key = std::make_pair(device_type, device_id);
  if (auto found = queues->find(key); found != queues->end()) return found->second;
  std::string shortcut;
  switch (device_type) {
    case kDLCUDA:
    case kDLCUDAManaged: shortcut = "cuda"; break;
    case kDLROCM: shortcut = "hip"; break;
    default:
      throw LogicError("plinth.from_dlpack: no default queue for DLPack device type " +
                       std::to_string(device_type) + ": pass queue=");
  }
  const API api = API::all_by_shortcut(shortcut).at(0);
  const Context context =
      Context::from_backend_devices(api, {static_cast<std::uintptr_t>(device_id)});
  return queues->emplace(key, Queue(context.devices()[0])).first->second;
}

/// Refuses host memory, which no backend's Array can wrap.
void check_host(const DLDevice& device) {
  if (device.device_type == kDLCPU || device.device_type == kDLCUDAHost) {
    throw LogicError("plinth.from_dlpack: the array is in host memory (DLPack device type " +
                     std::to_string(device.device_type) +
                     "), which a plinth Array cannot wrap; from_dlpack never copies: use "
                     "plinth.to_device(queue, numpy.asarray(x)) for a copy");
  }
}

/// Checks that memory of DLPack device `device` can be used on `queue`'s device as it is.
void check_device(const Queue& queue, const DLDevice& device) {
  check_host(device);
  const BoundDevice& bound = queue.device();
  const std::string& api = bound.context().api().shortcut();
  const auto ordinal = static_cast<std::int32_t>(bound.device().native_handle());
  const bool matches =
      (api == "cuda" && (device.device_type == kDLCUDA || device.device_type == kDLCUDAManaged) &&
       device.device_id == ordinal) ||
      (api == "hip" && device.device_type == kDLROCM && device.device_id == ordinal) ||
      (api == "level_zero" && device.device_type == kDLOneAPI &&
       device.device_id == static_cast<std::int32_t>(bound.device().index()));
  if (!matches) {
    throw LogicError("plinth.from_dlpack: the array is on DLPack device (" +
                     std::to_string(device.device_type) + ", " + std::to_string(device.device_id) +
                     "), not on the queue's device " + bound.device().full_name() +
                     " (from_dlpack never copies)");
  }
}

/// An Array over foreign memory whose first element is at `first_element` (a pointer, or a
/// cl_mem on OpenCL), keeping `owner` until the last handle of the array goes.
Array wrap_foreign(const Queue& queue, std::uintptr_t first_element,
                   const std::vector<std::size_t>& shape, const DType& dtype,
                   const std::optional<std::vector<std::ptrdiff_t>>& strides,
                   std::shared_ptr<void> owner) {
  const std::vector<std::ptrdiff_t> byte_strides =
      strides ? *strides : ArrayMetadata::default_strides(shape, dtype.itemsize());
  if (byte_strides.size() != shape.size()) {
    throw LogicError("plinth: " + std::to_string(byte_strides.size()) + " strides for " +
                     std::to_string(shape.size()) + " dimensions");
  }
  std::size_t elements = 1;
  std::ptrdiff_t low = 0;
  std::ptrdiff_t high = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    elements *= shape[d];
    if (shape[d] == 0) continue;
    const std::ptrdiff_t extent = byte_strides[d] * static_cast<std::ptrdiff_t>(shape[d] - 1);
    (extent < 0 ? low : high) += extent;
  }
  if (elements == 0) return Array::empty(queue, shape, dtype);  // nothing to share
  const bool is_pointer = queue.device().context().api().shortcut() != "opencl";
  if (low != 0 && !is_pointer) {
    throw LogicError("plinth: an OpenCL buffer (cl_mem) cannot be wrapped with negative strides");
  }
  const auto size = static_cast<std::size_t>(high - low) + dtype.itemsize();
  const Buffer buffer = Buffer::from_backend_buffer(
      queue.device(), first_element - static_cast<std::uintptr_t>(-low), size, std::move(owner));
  return Array::from_buffer(
      buffer, ArrayMetadata(shape, dtype, byte_strides, static_cast<std::size_t>(-low), size));
}

/// Calls a DLPack deleter with the GIL held (numpy's and CuPy's touch Python objects), unless
/// Python has gone: then the memory is left.
template <typename Managed>
std::shared_ptr<void> capsule_owner(Managed* managed) {
  return std::shared_ptr<void>(managed, [](void* pointer) {
    auto* tensor = static_cast<Managed*>(pointer);
    if (tensor->deleter == nullptr || !Py_IsInitialized()) return;
    nb::gil_scoped_acquire acquire;
    tensor->deleter(tensor);
  });
}

PyArray from_dlpack(nb::handle object, const std::optional<Queue>& given_queue) {
  if (!nb::hasattr(object, "__dlpack__")) {
    throw nb::type_error("plinth.from_dlpack: the object has no __dlpack__ method");
  }
  const auto device =
      nb::cast<std::pair<std::int32_t, std::int32_t>>(object.attr("__dlpack_device__")());
  const DLDevice dl_device{device.first, device.second};
  if (!given_queue) check_host(dl_device);
  const Queue queue = given_queue ? *given_queue : default_queue(device.first, device.second);
  check_device(queue, dl_device);
  // The producer orders its work before ours on the queue's stream (CUDA: 0, the legacy
  // default stream, is 1 in DLPack).
  nb::object stream = nb::none();
  const std::string& api = queue.device().context().api().shortcut();
  if (api == "cuda" || api == "hip") {
    std::uintptr_t native = queue.native_handle();
    if (api == "cuda" && native == 0) native = 1;
    stream = nb::int_(native);
  }
  nb::object capsule;
  try {
    capsule = object.attr("__dlpack__")(nb::arg("stream") = stream,
                                        nb::arg("max_version") = nb::make_tuple(1, 0));
  } catch (nb::python_error& error) {
    if (!error.matches(PyExc_TypeError)) throw;
    capsule = object.attr("__dlpack__")(nb::arg("stream") = stream);  // before DLPack 1.0
  }
  PyObject* raw = capsule.ptr();
  DLTensor* tensor = nullptr;
  std::shared_ptr<void> owner;
  if (PyCapsule_IsValid(raw, kVersionedName)) {
    auto* managed =
        static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(raw, kVersionedName));
    if (managed->version.major != 1) {
      throw LogicError("plinth.from_dlpack: DLPack version " +
                       std::to_string(managed->version.major) + " is not supported (1 is)");
    }
    if (managed->flags & kDLFlagReadOnly) {
      throw LogicError(
          "plinth.from_dlpack: the array is read-only, and plinth arrays are "
          "always writable");
    }
    PyCapsule_SetName(raw, kUsedVersionedName);
    owner = capsule_owner(managed);
    tensor = &managed->dl_tensor;
  } else if (PyCapsule_IsValid(raw, kLegacyName)) {
    auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(raw, kLegacyName));
    PyCapsule_SetName(raw, kUsedLegacyName);
    owner = capsule_owner(managed);
    tensor = &managed->dl_tensor;
  } else {
    throw LogicError("plinth.from_dlpack: __dlpack__ returned no unused DLPack capsule");
  }
  check_device(queue, tensor->device);
  const DType dtype = dtype_from_python(nb::str(numpy_name(tensor->dtype).c_str()));
  std::vector<std::size_t> shape;
  std::optional<std::vector<std::ptrdiff_t>> strides;
  for (std::int32_t d = 0; d < tensor->ndim; ++d) {
    if (tensor->shape[d] < 0) throw LogicError("plinth.from_dlpack: a negative extent");
    shape.push_back(static_cast<std::size_t>(tensor->shape[d]));
  }
  if (tensor->strides != nullptr) {
    strides.emplace();
    for (std::int32_t d = 0; d < tensor->ndim; ++d) {
      strides->push_back(static_cast<std::ptrdiff_t>(tensor->strides[d] *
                                                     static_cast<std::int64_t>(dtype.itemsize())));
    }
  }
  const auto first = reinterpret_cast<std::uintptr_t>(tensor->data) + tensor->byte_offset;
  nb::gil_scoped_release release;
  return PyArray{wrap_foreign(queue, first, shape, dtype, strides, std::move(owner)), queue};
}

}  // namespace

void bind_interop(nb::module_& m) {
  nb::object cls = m.attr("Array");
  nb::setattr(
      cls, "__dlpack__",
      nb::cpp_function(
          [](const PyArray& a, nb::handle stream, nb::handle max_version, nb::handle dl_device,
             nb::handle copy) { return dlpack(a, stream, max_version, dl_device, copy); },
          nb::is_method(), nb::scope(cls), nb::name("__dlpack__"), nb::kw_only(),
          nb::arg("stream") = nb::none(), nb::arg("max_version") = nb::none(),
          nb::arg("dl_device") = nb::none(), nb::arg("copy") = nb::none(),
          "The array as a DLPack capsule, sharing its memory (the array API's protocol: "
          "torch.from_dlpack(a), cupy.from_dlpack(a)). A versioned capsule when max_version "
          ">= (1, 0). `stream` (CUDA, HIP): the consumer's stream, made to wait for the "
          "array's queue (None: the default stream; -1: no ordering); elsewhere the queue is "
          "synchronized. copy=True exports a copy; dl_device=(1, 0) (the host) with copy not "
          "False exports a host copy. Raises BufferError where the memory has no address "
          "(OpenCL buffers that are not managed) or the device cannot be reached without a "
          "copy that copy=False forbids."));
  nb::setattr(cls, "__dlpack_device__",
              nb::cpp_function(
                  [](const PyArray& a) {
                    const ExportedMemory memory = exported_memory(a.array);
                    if (!memory.refusal.empty()) buffer_error(memory.refusal);
                    return std::make_pair(memory.device.device_type, memory.device.device_id);
                  },
                  nb::is_method(), nb::scope(cls), nb::name("__dlpack_device__"),
                  "(DLPack device type, device id) of the array's memory: (2, ordinal) on CUDA, "
                  "(10, ordinal) on HIP, (14, index) on Level Zero, (1, 0) for OpenCL managed "
                  "memory. Raises BufferError for memory without an address (OpenCL buffers)."));
  nb::object property = nb::module_::import_("builtins").attr("property");
  nb::setattr(
      cls, "__cuda_array_interface__",
      property(nb::cpp_function(
          [](const PyArray& a) {
            if (a.array.device().context().api().shortcut() != "cuda") {
              throw nb::attribute_error("__cuda_array_interface__: not a CUDA array");
            }
            nb::dict interface;
            interface["shape"] = nb::tuple(nb::cast(a.array.shape()));
            interface["typestr"] = to_numpy_dtype(a.array.dtype()).attr("str");
            const std::uintptr_t pointer =
                a.array.size() == 0
                    ? 0
                    : a.array.base_buffer().native_handle() + a.array.first_element_offset();
            interface["data"] = nb::make_tuple(pointer, false);
            interface["strides"] = a.array.is_c_contiguous()
                                       ? nb::object(nb::none())
                                       : nb::object(nb::tuple(nb::cast(a.array.strides())));
            const std::uintptr_t stream = a.queue.native_handle();
            interface["stream"] = stream == 0 ? std::uintptr_t{1} : stream;
            interface["version"] = 3;
            return interface;
          },
          nb::arg("self"),
          "CUDA's array interface (version 3) of a CUDA array, for Numba, CuPy and PyTorch: "
          "the pointer, shape, typestr, strides and `stream` (the array's queue, which the "
          "consumer waits for). AttributeError for arrays of other backends.")));

  m.def("from_dlpack", &from_dlpack, nb::arg("x"), nb::arg("queue") = nb::none(),
        "An Array over the memory of `x` (anything with __dlpack__: torch, CuPy, JAX arrays), "
        "without a copy: writes are seen both ways; the producer's memory is released when "
        "the last plinth handle goes. `queue` (default: one on x's device) becomes the "
        "array's default queue, and the producer's pending work is ordered before it. Never "
        "copies: LogicError for host memory (numpy: use plinth.to_device), another device, "
        "read-only or vector-typed arrays.");

  nb::setattr(
      cls, "from_pointer",
      nb::module_::import_("builtins")
          .attr("staticmethod")(nb::cpp_function(
              [](const Queue& queue, std::uintptr_t pointer, const std::vector<std::size_t>& shape,
                 const DType& dtype, const std::optional<std::vector<std::ptrdiff_t>>& strides,
                 nb::handle owner) {
                std::shared_ptr<void> keep;
                if (!owner.is_none()) {
                  keep = std::shared_ptr<void>(owner.inc_ref().ptr(), [](void* held) {
                    if (!Py_IsInitialized()) return;
                    nb::gil_scoped_acquire acquire;
                    Py_DECREF(static_cast<PyObject*>(held));
                  });
                }
                nb::gil_scoped_release release;
                return PyArray{wrap_foreign(queue, pointer, shape, dtype, strides, std::move(keep)),
                               queue};
              },
              nb::name("from_pointer"), nb::arg("queue"), nb::arg("ptr"), nb::arg("shape"),
              nb::arg("dtype"), nb::arg("strides") = nb::none(), nb::arg("owner") = nb::none(),
              "An Array over foreign device memory whose first element is at `ptr` (a device "
              "pointer on CUDA, HIP and Level Zero; a cl_mem on OpenCL), with numpy's byte "
              "`strides` (default C order), on `queue`'s device (its default queue). No copy: "
              "the memory must stay valid while the array lives; `owner` (any object) is kept "
              "alive until the last handle of the array goes. LogicError for bad strides.")));
}

}  // namespace plinth::python
