// A fake Level Zero driver, so that CI runs the Level Zero backend's runtime code (discovery,
// contexts, buffers, queues, events, programs, kernel launches) on machines without an Intel
// GPU. The Level Zero loader loads it as a driver through ZE_ENABLE_ALT_DRIVERS=<this file>;
// tests/backends/level_zero/CMakeLists.txt runs plinth-conformance and plinth-info on it.
//
// What it fakes: one driver with two GPU devices ("Fake Xe GPU 0" and "1", 8 GiB each, peer
// access between them), whose device memory is host memory; immediate command lists that run
// every command at once (copies, barriers, timestamps, event signals); event pools and
// events; modules built from SPIR-V, whose kernels and parameter counts it reads from the
// module itself; build logs; kernels that check their group size and arguments and then do
// nothing; images (host memory of packed pixels, in R, RG and RGBA layouts of 8, 16 and 32
// bits) with their copies to and from memory and between images, and samplers that only
// check their descriptor. What it does not fake: running a kernel (so every test that reads a
// kernel's output fails, and the tests are chosen accordingly), native binaries
// (zeModuleGetNativeBinary answers the SPIR-V), command queues, fences, virtual memory, sysman
// and tools (their tables are empty: the loader answers ZE_RESULT_ERROR_UNSUPPORTED_FEATURE).
//
// It is stricter than a real driver where a real one would hang or corrupt memory: waiting on
// an event that nothing has signalled fails instead of hanging (commands run at once, so such
// a wait could never end), a launch with some arguments unset fails, freeing unknown memory
// fails, and destroying an event pool whose events are alive fails. Each refusal prints one
// line starting "fake-ze:" on stderr.
//
// Leak check: it counts every live object it handed out. When it is unloaded (at exit, or
// when the loader closes it) with any object alive, it prints "fake-ze: ... alive at unload"
// on stderr and ends the process with status 1, so the test fails even if every test passed.
//
// Environment: FAKE_ZE_API_MINOR=<n> makes it a Level Zero 1.<n> driver (default 4, the
// version of libze-dev 1.8's headers; 7 and later accept ZE_COMMAND_QUEUE_FLAG_IN_ORDER);
// FAKE_ZE_NO_PEER (any value) denies peer access between the devices. Interprocess memory
// works within one process only (see mem_get_ipc_handle).
// FAKE_ZE_NO_PEER (any value) denies peer access between the devices; FAKE_ZE_NO_SHARED (any
// value) gives the devices no shared (managed) memory. Shared allocations are host memory too;
// prefetches and memory advice check that they name one and do nothing else.
// FAKE_ZE_NO_IMAGES (any value) gives the devices no images (zeDeviceGetImageProperties
// answers zeros); FAKE_ZE_IMAGE_COPY_EXT (any value) lists ZE_extension_image_copy, whose
// pitched copies (zeCommandListAppendImageCopy{To,From}MemoryExt) are refused without it.
//
// Thread safety: every entry point takes one lock, so any thread may call any of them.

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------------
// The objects behind the handles, and the count of live ones.

struct Driver {};
struct Device {
  int index;
};
struct Context {};
struct CommandList {
  ze_command_queue_flags_t flags;
};
struct EventPool {
  std::vector<bool> created;  // by index
  std::uint32_t alive = 0;
};
struct Event {
  EventPool* pool;
  std::uint32_t index;
  bool signalled = false;
};
// A kernel of a module: its name and how many parameters its OpFunction has.
struct KernelInfo {
  std::string name;
  std::uint32_t parameters;
};
struct Module {
  std::vector<KernelInfo> kernels;
  std::vector<std::uint8_t> spirv;
};
struct Kernel {
  std::string name;
  std::vector<bool> set;  // which arguments were given a value
  bool group_size_set = false;
};
struct BuildLog {
  std::string text;
};
// An image: packed pixels along OpenCL's axes (a 1-D array's layers are its rows, a 2-D
// array's its slices), as Level Zero's image regions address them.
struct Image {
  ze_image_desc_t desc;
  std::size_t pixel_size;
  std::uint32_t axes[3];  // width, rows, slices
  std::vector<std::byte> pixels;
};
struct Sampler {};

constexpr int device_count = 2;
constexpr std::uint64_t max_allocation = std::uint64_t{4} << 30;
constexpr std::uint64_t device_memory = std::uint64_t{8} << 30;
constexpr std::uint32_t max_group_size = 1024;

// The driver's state; `mutex` guards all of it.
struct State {
  std::mutex mutex;
  Driver driver;
  Device devices[device_count] = {{0}, {1}};
  std::map<const void*, std::size_t> allocations;  // base -> size
  std::map<const void*, std::size_t> shared;       // the shared ones among them
  long contexts = 0, lists = 0, pools = 0, events = 0, modules = 0, kernels = 0, logs = 0;
  long images = 0, samplers = 0;
  long launches = 0;
  std::map<const void*, long> ipc_mappings;  // base -> times opened and not closed
};
State state;

// The leak check at unload (see the header comment). A static object's destructor runs when
// the library is closed or the process exits, whichever comes first.
struct LeakCheck {
  LeakCheck() = default;
  LeakCheck(const LeakCheck&) = delete;
  LeakCheck& operator=(const LeakCheck&) = delete;
  ~LeakCheck() {
    const long alive = static_cast<long>(state.allocations.size()) + state.contexts + state.lists +
                       state.pools + state.events + state.modules + state.kernels + state.logs +
                       state.images + state.samplers + static_cast<long>(state.ipc_mappings.size());
    if (alive == 0) {
      std::fprintf(stderr, "fake-ze: unloaded with no object alive (%ld kernel launches)\n",
                   state.launches);
      return;
    }
    std::fprintf(stderr,
                 "fake-ze: %zu allocations, %ld contexts, %ld command lists, %ld event pools, %ld "
                 "events, %ld modules, %ld kernels, %ld build logs, %ld images, %ld samplers, %zu "
                 "IPC mappings alive at unload: the backend leaked them\n",
                 state.allocations.size(), state.contexts, state.lists, state.pools, state.events,
                 state.modules, state.kernels, state.logs, state.images, state.samplers,
                 state.ipc_mappings.size());
    std::fflush(nullptr);
    ::_exit(1);
  }
};
LeakCheck leak_check;

// ---------------------------------------------------------------------------------------------
// Helpers.

template <typename T, typename Handle>
T* object(Handle handle) {
  return reinterpret_cast<T*>(handle);
}

template <typename Handle, typename T>
Handle to_handle(T* pointer) {
  return reinterpret_cast<Handle>(pointer);
}

// Refuses a call with `result`, saying why on stderr.
ze_result_t refuse(ze_result_t result, const std::string& why) {
  std::fprintf(stderr, "fake-ze: %s\n", why.c_str());
  return result;
}

// The API version the driver reports: 1.<FAKE_ZE_API_MINOR>, default 1.4.
ze_api_version_t api_version() {
  const char* text = std::getenv("FAKE_ZE_API_MINOR");
  const unsigned long minor = text != nullptr ? std::strtoul(text, nullptr, 10) : 4;
  return static_cast<ze_api_version_t>(ZE_MAKE_VERSION(1, std::min(minor, 0xffffUL)));
}

// Clears a properties struct that the caller gave, keeping its stype and pNext.
template <typename Properties>
void clear(Properties* properties) {
  const auto stype = properties->stype;
  void* const next = properties->pNext;
  *properties = Properties{};
  properties->stype = stype;
  properties->pNext = next;
}

// The first `count` of `items` into `out`, or their count into `count` when `out` is null
// (the usual Level Zero two-call pattern).
template <typename T>
void list(std::uint32_t* count, T* out, const std::vector<T>& items) {
  if (out != nullptr) {
    *count = std::min<std::uint32_t>(*count, static_cast<std::uint32_t>(items.size()));
    std::copy_n(items.begin(), *count, out);
  } else {
    *count = static_cast<std::uint32_t>(items.size());
  }
}

std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

// Commands run at once, so the events a command waits for must be signalled already.
ze_result_t check_waits(std::uint32_t count, const ze_event_handle_t* events) {
  for (std::uint32_t i = 0; i < count; ++i)
    if (!object<Event>(events[i])->signalled)
      return refuse(ZE_RESULT_ERROR_NOT_AVAILABLE,
                    "a command waits for an event that nothing signalled: it would hang");
  return ZE_RESULT_SUCCESS;
}

void signal(ze_event_handle_t event) {
  if (event != nullptr) object<Event>(event)->signalled = true;
}

// The kernels of a SPIR-V module (native byte order) and their parameter counts: each
// OpEntryPoint of the Kernel execution model, with the OpFunctionParameters of its OpFunction.
// The fake's own small reader, independent of the backend's reflection that it tests. Throws
// nothing: an empty `error` on success, else what is wrong.
std::vector<KernelInfo> read_kernels(const std::uint8_t* bytes, std::size_t size,
                                     std::string& error) {
  constexpr std::uint32_t magic = 0x07230203, op_entry_point = 15, op_function = 54,
                          op_function_parameter = 55, kernel_model = 6;
  if (bytes == nullptr || size % 4 != 0 || size < 20) {
    error = "not a SPIR-V module (size " + std::to_string(size) + ")";
    return {};
  }
  std::vector<std::uint32_t> words(size / 4);
  std::memcpy(words.data(), bytes, size);
  if (words[0] != magic) {
    error = "not a SPIR-V module in native byte order (bad magic number)";
    return {};
  }
  std::vector<std::pair<std::uint32_t, std::string>> entry_points;  // function id, name
  std::map<std::uint32_t, std::uint32_t> parameters;                // function id -> count
  std::uint32_t function = 0;
  for (std::size_t at = 5; at < words.size();) {
    const std::uint32_t length = words[at] >> 16, opcode = words[at] & 0xffff;
    if (length == 0 || at + length > words.size()) {
      error = "a SPIR-V instruction runs past the end of the module";
      return {};
    }
    if (opcode == op_entry_point && length >= 4 && words[at + 1] == kernel_model) {
      const char* name = reinterpret_cast<const char*>(&words[at + 3]);
      entry_points.emplace_back(words[at + 2], std::string(name, strnlen(name, (length - 3) * 4)));
    } else if (opcode == op_function && length >= 3) {
      function = words[at + 2];
    } else if (opcode == op_function_parameter) {
      ++parameters[function];
    }
    at += length;
  }
  std::vector<KernelInfo> kernels;
  for (const auto& [id, name] : entry_points) kernels.push_back({name, parameters[id]});
  if (kernels.empty()) error = "a SPIR-V module without kernels";
  return kernels;
}

// ---------------------------------------------------------------------------------------------
// Driver: zeInit, zeDriverGet and the driver's version, properties and extensions.

ze_result_t ZE_APICALL init(ze_init_flags_t) { return ZE_RESULT_SUCCESS; }

ze_result_t ZE_APICALL driver_get(std::uint32_t* count, ze_driver_handle_t* out) {
  list(count, out, {to_handle<ze_driver_handle_t>(&state.driver)});
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_api_version(ze_driver_handle_t, ze_api_version_t* version) {
  *version = api_version();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_properties(ze_driver_handle_t,
                                             ze_driver_properties_t* properties) {
  clear(properties);
  properties->driverVersion = (1u << 24) | (3u << 16) | 26241u;
  for (auto* next = static_cast<ze_base_properties_t*>(properties->pNext); next != nullptr;
       next = static_cast<ze_base_properties_t*>(next->pNext))
    if (next->stype == ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES)
      reinterpret_cast<ze_driver_memory_free_ext_properties_t*>(next)->freePolicies =
          ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL driver_get_extension_properties(ze_driver_handle_t, std::uint32_t* count,
                                                       ze_driver_extension_properties_t* out) {
  ze_driver_extension_properties_t free_policies{};
  std::snprintf(free_policies.name, sizeof free_policies.name, "%s",
                ZE_MEMORY_FREE_POLICIES_EXT_NAME);
  free_policies.version = 1;
  ze_driver_extension_properties_t image_copy{};
  std::snprintf(image_copy.name, sizeof image_copy.name, "%s", ZE_IMAGE_COPY_EXT_NAME);
  image_copy.version = ZE_IMAGE_COPY_EXT_VERSION_1_0;
  if (std::getenv("FAKE_ZE_IMAGE_COPY_EXT") != nullptr)
    list(count, out, {free_policies, image_copy});
  else
    list(count, out, {free_policies});
  return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Devices: two identical GPUs with a copy-only queue group (ordinal 0) and a compute one (1).

ze_result_t ZE_APICALL device_get(ze_driver_handle_t, std::uint32_t* count,
                                  ze_device_handle_t* out) {
  std::vector<ze_device_handle_t> devices;
  for (auto& device : state.devices) devices.push_back(to_handle<ze_device_handle_t>(&device));
  list(count, out, devices);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_properties(ze_device_handle_t device,
                                             ze_device_properties_t* properties) {
  if (properties->stype != ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeDeviceGetProperties: wrong stype");
  clear(properties);
  properties->type = ZE_DEVICE_TYPE_GPU;
  properties->vendorId = 0x8086;
  properties->deviceId = 0x0bda;
  properties->coreClockRate = 1550;
  properties->maxMemAllocSize = max_allocation;
  properties->numThreadsPerEU = 8;
  properties->physicalEUSimdWidth = 8;
  properties->numEUsPerSubslice = 8;
  properties->numSubslicesPerSlice = 56;
  properties->numSlices = 1;
  properties->timerResolution = 1;
  properties->timestampValidBits = 64;
  properties->kernelTimestampValidBits = 32;
  properties->uuid.id[0] = static_cast<std::uint8_t>(object<Device>(device)->index + 1);
  std::snprintf(properties->name, sizeof properties->name, "Fake Xe GPU %d",
                object<Device>(device)->index);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_compute_properties(ze_device_handle_t,
                                                     ze_device_compute_properties_t* properties) {
  clear(properties);
  properties->maxTotalGroupSize = max_group_size;
  properties->maxGroupSizeX = properties->maxGroupSizeY = properties->maxGroupSizeZ =
      max_group_size;
  properties->maxGroupCountX = properties->maxGroupCountY = properties->maxGroupCountZ =
      0xffffffffu;
  properties->maxSharedLocalMemory = 131072;
  properties->numSubGroupSizes = 2;
  properties->subGroupSizes[0] = 16;
  properties->subGroupSizes[1] = 32;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_module_properties(ze_device_handle_t,
                                                    ze_device_module_properties_t* properties) {
  clear(properties);
  properties->spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
  properties->flags = ZE_DEVICE_MODULE_FLAG_FP64;
  properties->fp64flags = ZE_DEVICE_FP_FLAG_FMA;
  return ZE_RESULT_SUCCESS;
}

// Fills as a real driver's: a power-of-two pattern of at most the compute group's
// maxMemoryFillPatternSize (4 here, so the core's kernel fallback is needed beyond), a size
// that is a multiple of it, a destination aligned to it.
constexpr std::size_t fake_max_fill_pattern = 4;

ze_result_t ZE_APICALL device_get_command_queue_group_properties(
    ze_device_handle_t, std::uint32_t* count, ze_command_queue_group_properties_t* out) {
  ze_command_queue_group_properties_t copy{};
  copy.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  copy.flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
  copy.numQueues = 1;
  ze_command_queue_group_properties_t compute = copy;
  compute.flags |= ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE;
  compute.maxMemoryFillPatternSize = fake_max_fill_pattern;
  list(count, out, {copy, compute});
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_get_memory_properties(ze_device_handle_t, std::uint32_t* count,
                                                    ze_device_memory_properties_t* out) {
  ze_device_memory_properties_t memory{};
  memory.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  memory.totalSize = device_memory;
  list(count, out, {memory});
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL device_can_access_peer(ze_device_handle_t, ze_device_handle_t,
                                              ze_bool_t* value) {
  *value = std::getenv("FAKE_ZE_NO_PEER") != nullptr ? 0 : 1;
  return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Contexts and memory: device and host allocations are both aligned host memory.

ze_result_t ZE_APICALL context_create(ze_driver_handle_t, const ze_context_desc_t*,
                                      ze_context_handle_t* out) {
  const std::lock_guard lock(state.mutex);
  *out = to_handle<ze_context_handle_t>(new Context);
  ++state.contexts;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL context_destroy(ze_context_handle_t context) {
  const std::lock_guard lock(state.mutex);
  delete object<Context>(context);
  --state.contexts;
  return ZE_RESULT_SUCCESS;
}

ze_result_t allocate(std::size_t size, std::size_t alignment, void** out) {
  if (size > max_allocation) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (alignment == 0) alignment = 64;
  if ((alignment & (alignment - 1)) != 0) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  // aligned_alloc wants a multiple of the alignment; a zero size still gets a unique address.
  *out = std::aligned_alloc(
      alignment, std::max<std::size_t>(1, (size + alignment - 1) / alignment) * alignment);
  if (*out == nullptr) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  const std::lock_guard lock(state.mutex);
  state.allocations[*out] = size;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_alloc_device(ze_context_handle_t, const ze_device_mem_alloc_desc_t*,
                                        std::size_t size, std::size_t alignment, ze_device_handle_t,
                                        void** out) {
  return allocate(size, alignment, out);
}

ze_result_t ZE_APICALL mem_alloc_host(ze_context_handle_t, const ze_host_mem_alloc_desc_t*,
                                      std::size_t size, std::size_t alignment, void** out) {
  return allocate(size, alignment, out);
}

ze_result_t ZE_APICALL mem_alloc_shared(ze_context_handle_t, const ze_device_mem_alloc_desc_t*,
                                        const ze_host_mem_alloc_desc_t*, std::size_t size,
                                        std::size_t alignment, ze_device_handle_t, void** out) {
  if (std::getenv("FAKE_ZE_NO_SHARED") != nullptr)
    return refuse(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "zeMemAllocShared on a device without it");
  const ze_result_t result = allocate(size, alignment, out);
  if (result != ZE_RESULT_SUCCESS) return result;
  const std::lock_guard lock(state.mutex);
  state.shared[*out] = size;
  return ZE_RESULT_SUCCESS;
}

// Whether [pointer, pointer + size) lies inside one shared allocation (the caller holds the lock).
bool in_shared(const void* pointer, std::size_t size) {
  const auto after = state.shared.upper_bound(pointer);
  if (after == state.shared.begin()) return false;
  const auto& [base, length] = *std::prev(after);
  const auto* begin = static_cast<const char*>(base);
  const auto* first = static_cast<const char*>(pointer);
  return first + size <= begin + length;
}

ze_result_t ZE_APICALL device_get_memory_access_properties(
    ze_device_handle_t, ze_device_memory_access_properties_t* properties) {
  clear(properties);
  properties->hostAllocCapabilities = ZE_MEMORY_ACCESS_CAP_FLAG_RW;
  properties->deviceAllocCapabilities = ZE_MEMORY_ACCESS_CAP_FLAG_RW;
  properties->sharedSingleDeviceAllocCapabilities =
      std::getenv("FAKE_ZE_NO_SHARED") != nullptr ? 0 : ZE_MEMORY_ACCESS_CAP_FLAG_RW;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_free(ze_context_handle_t, void* pointer) {
  const std::lock_guard lock(state.mutex);
  state.shared.erase(pointer);
  if (state.allocations.erase(pointer) == 0)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "zeMemFree of memory the driver did not allocate");
  std::free(pointer);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_free_ext(ze_context_handle_t context, const ze_memory_free_ext_desc_t*,
                                    void* pointer) {
  return mem_free(context, pointer);
}

ze_result_t ZE_APICALL mem_get_alloc_properties(ze_context_handle_t, const void* pointer,
                                                ze_memory_allocation_properties_t* properties,
                                                ze_device_handle_t* device) {
  const std::lock_guard lock(state.mutex);
  clear(properties);
  properties->type = ZE_MEMORY_TYPE_UNKNOWN;
  if (device != nullptr) *device = nullptr;
  const auto after = state.allocations.upper_bound(pointer);
  if (after != state.allocations.begin()) {
    const auto& [base, size] = *std::prev(after);
    if (static_cast<const char*>(pointer) < static_cast<const char*>(base) + size)
      properties->type = ZE_MEMORY_TYPE_DEVICE;
  }
  return ZE_RESULT_SUCCESS;
}

// Interprocess memory, within this process only (the fake's memory is ordinary heap memory):
// a handle holds the allocation's base and the exporting process's id; opening a handle of
// another process fails, saying so. Mappings are counted for the leak check.

// The allocation that `pointer` lies in (base, size), or (nullptr, 0); `state.mutex` held.
std::pair<const void*, std::size_t> allocation_of(const void* pointer) {
  const auto after = state.allocations.upper_bound(pointer);
  if (after == state.allocations.begin()) return {nullptr, 0};
  const auto& [base, size] = *std::prev(after);
  if (static_cast<const char*>(pointer) >= static_cast<const char*>(base) + size)
    return {nullptr, 0};
  return {base, size};
}

ze_result_t ZE_APICALL mem_get_address_range(ze_context_handle_t, const void* pointer, void** base,
                                             std::size_t* size) {
  const std::lock_guard lock(state.mutex);
  const auto [found, extent] = allocation_of(pointer);
  if (found == nullptr)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "zeMemGetAddressRange of memory the driver did not allocate");
  if (base != nullptr) *base = const_cast<void*>(found);
  if (size != nullptr) *size = extent;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_get_ipc_handle(ze_context_handle_t, const void* pointer,
                                          ze_ipc_mem_handle_t* handle) {
  const std::lock_guard lock(state.mutex);
  if (state.allocations.count(pointer) == 0)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "zeMemGetIpcHandle of a pointer that is not an allocation's base");
  *handle = {};
  const pid_t pid = ::getpid();
  std::memcpy(handle->data, &pointer, sizeof(pointer));
  std::memcpy(handle->data + sizeof(pointer), &pid, sizeof(pid));
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_open_ipc_handle(ze_context_handle_t, ze_device_handle_t,
                                           ze_ipc_mem_handle_t handle, ze_ipc_memory_flags_t,
                                           void** out) {
  const void* base = nullptr;
  pid_t pid = 0;
  std::memcpy(&base, handle.data, sizeof(base));
  std::memcpy(&pid, handle.data + sizeof(base), sizeof(pid));
  const std::lock_guard lock(state.mutex);
  if (pid != ::getpid())
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "zeMemOpenIpcHandle of another process's handle (the fake's memory is its own)");
  if (state.allocations.count(base) == 0)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "zeMemOpenIpcHandle of an allocation that is gone or never was");
  ++state.ipc_mappings[base];
  *out = const_cast<void*>(base);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL mem_close_ipc_handle(ze_context_handle_t, const void* pointer) {
  const std::lock_guard lock(state.mutex);
  const auto found = state.ipc_mappings.find(pointer);
  if (found == state.ipc_mappings.end())
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "zeMemCloseIpcHandle of a pointer zeMemOpenIpcHandle did not return");
  if (--found->second == 0) state.ipc_mappings.erase(found);
  return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Immediate command lists: each command runs when it is appended.

ze_result_t ZE_APICALL command_list_create_immediate(ze_context_handle_t, ze_device_handle_t,
                                                     const ze_command_queue_desc_t* desc,
                                                     ze_command_list_handle_t* out) {
  // ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY (1.0); ZE_COMMAND_QUEUE_FLAG_IN_ORDER (1.7).
  const ze_command_queue_flags_t allowed =
      api_version() >= static_cast<ze_api_version_t>(ZE_MAKE_VERSION(1, 7)) ? 0x3u : 0x1u;
  if ((desc->flags & ~allowed) != 0)
    return refuse(ZE_RESULT_ERROR_INVALID_ENUMERATION,
                  "command queue flags " + std::to_string(desc->flags) +
                      " that this driver's API version does not have");
  if (desc->ordinal != 1)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "a command list on queue group " + std::to_string(desc->ordinal) +
                      ", which cannot run kernels (the compute group is 1)");
  const std::lock_guard lock(state.mutex);
  *out = to_handle<ze_command_list_handle_t>(new CommandList{desc->flags});
  ++state.lists;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_list_destroy(ze_command_list_handle_t list) {
  const std::lock_guard lock(state.mutex);
  delete object<CommandList>(list);
  --state.lists;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL append_memory_copy(ze_command_list_handle_t, void* destination,
                                          const void* source, std::size_t size,
                                          ze_event_handle_t event, std::uint32_t wait_count,
                                          ze_event_handle_t* waits) {
  const std::lock_guard lock(state.mutex);
  if (const ze_result_t result = check_waits(wait_count, waits)) return result;
  std::memmove(destination, source, size);
  signal(event);
  return ZE_RESULT_SUCCESS;
}

// Rows of `width` bytes, `height` per slice, `depth` slices; origins as the API defines them.
ze_result_t ZE_APICALL append_memory_copy_region(
    ze_command_list_handle_t, void* destination, const ze_copy_region_t* destination_region,
    std::uint32_t destination_pitch, std::uint32_t destination_slice_pitch, const void* source,
    const ze_copy_region_t* source_region, std::uint32_t source_pitch,
    std::uint32_t source_slice_pitch, ze_event_handle_t event, std::uint32_t wait_count,
    ze_event_handle_t* waits) {
  const std::lock_guard lock(state.mutex);
  if (const ze_result_t result = check_waits(wait_count, waits)) return result;
  const auto& d = *destination_region;
  const auto& s = *source_region;
  if (d.width != s.width || d.height != s.height || d.depth != s.depth ||
      destination_pitch < d.width || source_pitch < s.width ||
      destination_slice_pitch < destination_pitch * d.height ||
      source_slice_pitch < source_pitch * s.height)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  for (std::size_t z = 0; z < d.depth; ++z) {
    for (std::size_t y = 0; y < d.height; ++y) {
      std::memmove(static_cast<std::byte*>(destination) + d.originX +
                       (d.originY + y) * destination_pitch +
                       (d.originZ + z) * destination_slice_pitch,
                   static_cast<const std::byte*>(source) + s.originX +
                       (s.originY + y) * source_pitch + (s.originZ + z) * source_slice_pitch,
                   d.width);
    }
  }
  signal(event);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL append_memory_prefetch(ze_command_list_handle_t, const void* pointer,
                                              std::size_t size) {
  const std::lock_guard lock(state.mutex);
  if (!in_shared(pointer, size))
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, "a prefetch of memory that is not shared");
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL append_mem_advise(ze_command_list_handle_t, ze_device_handle_t device,
                                         const void* pointer, std::size_t size,
                                         ze_memory_advice_t advice) {
  const std::lock_guard lock(state.mutex);
  if (device == nullptr || advice > ZE_MEMORY_ADVICE_BIAS_UNCACHED)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "memory advice without a device or known advice");
  if (!in_shared(pointer, size))
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, "memory advice on memory that is not shared");
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL append_memory_fill(ze_command_list_handle_t, void* destination,
                                          const void* pattern, std::size_t pattern_size,
                                          std::size_t size, ze_event_handle_t event,
                                          std::uint32_t wait_count, ze_event_handle_t* waits) {
  const std::lock_guard lock(state.mutex);
  if (const ze_result_t result = check_waits(wait_count, waits)) return result;
  if (pattern_size == 0 || (pattern_size & (pattern_size - 1)) != 0 ||
      pattern_size > fake_max_fill_pattern || size % pattern_size != 0 ||
      reinterpret_cast<std::uintptr_t>(destination) % pattern_size != 0) {
    std::fprintf(stderr,
                 "fake-ze: zeCommandListAppendMemoryFill of %zu bytes with a %zu-byte pattern "
                 "at %p refused\n",
                 size, pattern_size, destination);
    return ZE_RESULT_ERROR_INVALID_SIZE;
  }
  auto* bytes = static_cast<unsigned char*>(destination);
  for (std::size_t k = 0; k < size; ++k) {
    bytes[k] = static_cast<const unsigned char*>(pattern)[k % pattern_size];
  }
  signal(event);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL append_barrier(ze_command_list_handle_t, ze_event_handle_t event,
                                      std::uint32_t wait_count, ze_event_handle_t* waits) {
  const std::lock_guard lock(state.mutex);
  if (const ze_result_t result = check_waits(wait_count, waits)) return result;
  signal(event);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL append_write_global_timestamp(ze_command_list_handle_t,
                                                     std::uint64_t* destination,
                                                     ze_event_handle_t event,
                                                     std::uint32_t wait_count,
                                                     ze_event_handle_t* waits) {
  const std::lock_guard lock(state.mutex);
  if (const ze_result_t result = check_waits(wait_count, waits)) return result;
  *destination = now_ns();
  signal(event);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL append_wait_on_events(ze_command_list_handle_t, std::uint32_t wait_count,
                                             ze_event_handle_t* waits) {
  const std::lock_guard lock(state.mutex);
  return check_waits(wait_count, waits);
}

ze_result_t ZE_APICALL append_event_reset(ze_command_list_handle_t, ze_event_handle_t event) {
  const std::lock_guard lock(state.mutex);
  object<Event>(event)->signalled = false;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL append_launch_kernel(ze_command_list_handle_t, ze_kernel_handle_t handle,
                                            const ze_group_count_t* groups, ze_event_handle_t event,
                                            std::uint32_t wait_count, ze_event_handle_t* waits) {
  const std::lock_guard lock(state.mutex);
  auto* kernel = object<Kernel>(handle);
  if (!kernel->group_size_set)
    return refuse(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
                  "kernel " + kernel->name + " launched before zeKernelSetGroupSize");
  const auto set = std::count(kernel->set.begin(), kernel->set.end(), true);
  if (static_cast<std::size_t>(set) != kernel->set.size())
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "kernel " + kernel->name + " launched with " + std::to_string(set) + " of " +
                      std::to_string(kernel->set.size()) + " arguments set");
  if (groups->groupCountX == 0 || groups->groupCountY == 0 || groups->groupCountZ == 0)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "kernel " + kernel->name + " launched with no groups");
  if (const ze_result_t result = check_waits(wait_count, waits)) return result;
  ++state.launches;
  signal(event);
  return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Event pools and events: host-visible pools only; an event is signalled by the command that
// names it and reset by the host or a command.

ze_result_t ZE_APICALL event_pool_create(ze_context_handle_t, const ze_event_pool_desc_t* desc,
                                         std::uint32_t, ze_device_handle_t*,
                                         ze_event_pool_handle_t* out) {
  if ((desc->flags & ZE_EVENT_POOL_FLAG_HOST_VISIBLE) == 0)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "an event pool that the host cannot see (the fake has only host-visible ones)");
  const std::lock_guard lock(state.mutex);
  *out = to_handle<ze_event_pool_handle_t>(new EventPool{std::vector<bool>(desc->count)});
  ++state.pools;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_pool_destroy(ze_event_pool_handle_t handle) {
  const std::lock_guard lock(state.mutex);
  auto* pool = object<EventPool>(handle);
  if (pool->alive != 0)
    return refuse(
        ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
        "zeEventPoolDestroy of a pool with " + std::to_string(pool->alive) + " events alive");
  delete pool;
  --state.pools;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_create(ze_event_pool_handle_t handle, const ze_event_desc_t* desc,
                                    ze_event_handle_t* out) {
  const std::lock_guard lock(state.mutex);
  auto* pool = object<EventPool>(handle);
  if (desc->index >= pool->created.size() || pool->created[desc->index])
    return refuse(
        ZE_RESULT_ERROR_INVALID_ARGUMENT,
        "zeEventCreate at index " + std::to_string(desc->index) + ", outside the pool or taken");
  pool->created[desc->index] = true;
  ++pool->alive;
  *out = to_handle<ze_event_handle_t>(new Event{pool, desc->index});
  ++state.events;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_destroy(ze_event_handle_t handle) {
  const std::lock_guard lock(state.mutex);
  auto* event = object<Event>(handle);
  event->pool->created[event->index] = false;
  --event->pool->alive;
  delete event;
  --state.events;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_host_synchronize(ze_event_handle_t event, std::uint64_t) {
  const std::lock_guard lock(state.mutex);
  if (object<Event>(event)->signalled) return ZE_RESULT_SUCCESS;
  return refuse(ZE_RESULT_NOT_READY,
                "the host waits for an event that nothing signalled: it would hang");
}

ze_result_t ZE_APICALL event_query_status(ze_event_handle_t event) {
  const std::lock_guard lock(state.mutex);
  return object<Event>(event)->signalled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL event_host_reset(ze_event_handle_t event) {
  const std::lock_guard lock(state.mutex);
  object<Event>(event)->signalled = false;
  return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Images and samplers. Every command checks its region against the image and copies at once.

// Limits like an Intel GPU's, or zeros (FAKE_ZE_NO_IMAGES).
ze_result_t ZE_APICALL device_get_image_properties(ze_device_handle_t,
                                                   ze_device_image_properties_t* properties) {
  if (properties->stype != ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeDeviceGetImageProperties: wrong stype");
  clear(properties);
  if (std::getenv("FAKE_ZE_NO_IMAGES") != nullptr) return ZE_RESULT_SUCCESS;
  properties->maxImageDims1D = 16384;
  properties->maxImageDims2D = 16384;
  properties->maxImageDims3D = 2048;
  properties->maxImageBufferSize = max_allocation;
  properties->maxImageArraySlices = 2048;
  properties->maxSamplers = 16;
  properties->maxReadImageArgs = 128;
  properties->maxWriteImageArgs = 64;
  return ZE_RESULT_SUCCESS;
}

// Bytes per pixel of the layouts the fake takes (R, RG, RGBA of 8, 16, 32 bits), else 0.
std::size_t pixel_size(const ze_image_format_t& format) {
  switch (format.layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_8: return 1;
    case ZE_IMAGE_FORMAT_LAYOUT_16:
    case ZE_IMAGE_FORMAT_LAYOUT_8_8: return 2;
    case ZE_IMAGE_FORMAT_LAYOUT_32:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8: return 4;
    case ZE_IMAGE_FORMAT_LAYOUT_32_32:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16: return 8;
    case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32: return 16;
    default: return 0;
  }
}

// An image of a layout above and of a type from 1D to 3D, no mipmaps, within the limits; a
// float format of 8-bit channels is refused, as no real one exists.
ze_result_t ZE_APICALL image_create(ze_context_handle_t, ze_device_handle_t,
                                    const ze_image_desc_t* desc, ze_image_handle_t* out) {
  if (desc->stype != ZE_STRUCTURE_TYPE_IMAGE_DESC)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeImageCreate: wrong stype");
  if (desc->flags > 0x3u || desc->type > ZE_IMAGE_TYPE_3D || desc->miplevels != 0)
    return refuse(ZE_RESULT_ERROR_INVALID_ENUMERATION,
                  "zeImageCreate: flags, a type or mipmaps the fake does not make");
  const std::size_t size = pixel_size(desc->format);
  const bool eight_bits = desc->format.layout == ZE_IMAGE_FORMAT_LAYOUT_8 ||
                          desc->format.layout == ZE_IMAGE_FORMAT_LAYOUT_8_8 ||
                          desc->format.layout == ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8;
  if (size == 0 || desc->format.type > ZE_IMAGE_FORMAT_TYPE_FLOAT ||
      (desc->format.type == ZE_IMAGE_FORMAT_TYPE_FLOAT && eight_bits))
    return refuse(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
                  "zeImageCreate: a format the fake does not make");
  const bool layered = desc->type == ZE_IMAGE_TYPE_1DARRAY || desc->type == ZE_IMAGE_TYPE_2DARRAY;
  const std::uint64_t width = desc->width;
  const std::uint32_t height = desc->type == ZE_IMAGE_TYPE_2D || desc->type == ZE_IMAGE_TYPE_3D ||
                                       desc->type == ZE_IMAGE_TYPE_2DARRAY
                                   ? desc->height
                                   : 1;
  const std::uint32_t depth = desc->type == ZE_IMAGE_TYPE_3D ? desc->depth : 1;
  const std::uint32_t layers = layered ? desc->arraylevels : 1;
  const std::uint32_t limit = desc->type == ZE_IMAGE_TYPE_3D ? 2048 : 16384;
  if (width == 0 || height == 0 || depth == 0 || layers == 0 || width > limit || height > limit ||
      depth > limit || layers > 2048)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "zeImageCreate: a side of 0 or beyond the device's limits");
  auto* image = new Image{*desc, size, {}, {}};
  image->axes[0] = static_cast<std::uint32_t>(width);
  image->axes[1] = desc->type == ZE_IMAGE_TYPE_1DARRAY ? layers : height;
  image->axes[2] = desc->type == ZE_IMAGE_TYPE_2DARRAY ? layers : depth;
  image->pixels.resize(size * image->axes[0] * image->axes[1] * image->axes[2]);
  const std::lock_guard lock(state.mutex);
  *out = to_handle<ze_image_handle_t>(image);
  ++state.images;
  return ZE_RESULT_SUCCESS;
}

// Frees the image's pixels.
ze_result_t ZE_APICALL image_destroy(ze_image_handle_t image) {
  const std::lock_guard lock(state.mutex);
  delete object<Image>(image);
  --state.images;
  return ZE_RESULT_SUCCESS;
}

// The region of `image` that `region` names (null: the whole image), or false, saying why,
// where it does not lie inside the image.
bool image_box(const Image& image, const ze_image_region_t* region, ze_image_region_t& box,
               const char* call) {
  box = region != nullptr ? *region
                          : ze_image_region_t{0, 0, 0, image.axes[0], image.axes[1], image.axes[2]};
  const std::uint64_t origin[3] = {box.originX, box.originY, box.originZ};
  const std::uint64_t size[3] = {box.width, box.height, box.depth};
  for (int axis = 0; axis < 3; ++axis) {
    if (size[axis] == 0 || origin[axis] + size[axis] > image.axes[axis]) {
      refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
             std::string(call) + ": a region empty or outside the image along axis " +
                 std::to_string(axis));
      return false;
    }
  }
  return true;
}

// The first byte of pixel (x, y, z) of `image`.
std::byte* pixel_at(Image& image, std::size_t x, std::size_t y, std::size_t z) {
  return image.pixels.data() + ((z * image.axes[1] + y) * image.axes[0] + x) * image.pixel_size;
}

// A copy between `image`'s `region` and memory whose rows are `row_pitch` apart and slices
// `slice_pitch` (0: packed), in the direction `to_image` says. The pitches' rules are the
// extension's: 0 row pitch for 1-D images, 0 slice pitch for 1-D and 2-D images.
ze_result_t image_memory_copy(ze_image_handle_t handle, void* memory,
                              const ze_image_region_t* region, std::uint32_t row_pitch,
                              std::uint32_t slice_pitch, bool to_image, ze_event_handle_t event,
                              std::uint32_t wait_count, ze_event_handle_t* waits,
                              const char* call) {
  const std::lock_guard lock(state.mutex);
  if (const ze_result_t result = check_waits(wait_count, waits)) return result;
  auto& image = *object<Image>(handle);
  ze_image_region_t box{};
  if (!image_box(image, region, box, call)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  const auto type = image.desc.type;
  const std::size_t row = std::size_t{box.width} * image.pixel_size;
  if ((type == ZE_IMAGE_TYPE_1D && row_pitch != 0) ||
      ((type == ZE_IMAGE_TYPE_1D || type == ZE_IMAGE_TYPE_2D) && slice_pitch != 0) ||
      (row_pitch != 0 && row_pitch < row) ||
      (slice_pitch != 0 &&
       slice_pitch < std::size_t{row_pitch != 0 ? row_pitch : row} * box.height))
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  std::string(call) + ": pitches that " + "the extension does not allow");
  const std::size_t rows = row_pitch != 0 ? row_pitch : row;
  const std::size_t slices = slice_pitch != 0 ? slice_pitch : rows * box.height;
  for (std::size_t z = 0; z < box.depth; ++z) {
    for (std::size_t y = 0; y < box.height; ++y) {
      std::byte* pixels = pixel_at(image, box.originX, box.originY + y, box.originZ + z);
      std::byte* bytes = static_cast<std::byte*>(memory) + z * slices + y * rows;
      if (to_image)
        std::memcpy(pixels, bytes, row);
      else
        std::memcpy(bytes, pixels, row);
    }
  }
  signal(event);
  return ZE_RESULT_SUCCESS;
}

// Packed memory into an image's region.
ze_result_t ZE_APICALL append_image_copy_from_memory(ze_command_list_handle_t,
                                                     ze_image_handle_t image, const void* source,
                                                     const ze_image_region_t* region,
                                                     ze_event_handle_t event,
                                                     std::uint32_t wait_count,
                                                     ze_event_handle_t* waits) {
  return image_memory_copy(image, const_cast<void*>(source), region, 0, 0, true, event, wait_count,
                           waits, "zeCommandListAppendImageCopyFromMemory");
}

// An image's region into packed memory.
ze_result_t ZE_APICALL append_image_copy_to_memory(ze_command_list_handle_t, void* destination,
                                                   ze_image_handle_t image,
                                                   const ze_image_region_t* region,
                                                   ze_event_handle_t event,
                                                   std::uint32_t wait_count,
                                                   ze_event_handle_t* waits) {
  return image_memory_copy(image, destination, region, 0, 0, false, event, wait_count, waits,
                           "zeCommandListAppendImageCopyToMemory");
}

// The pitched copies exist only where the driver lists ZE_extension_image_copy.
bool image_copy_extension(const char* call) {
  if (std::getenv("FAKE_ZE_IMAGE_COPY_EXT") != nullptr) return true;
  refuse(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
         std::string(call) + " without ZE_extension_image_copy listed");
  return false;
}

// Pitched memory into an image's region (ZE_extension_image_copy).
ze_result_t ZE_APICALL append_image_copy_from_memory_ext(
    ze_command_list_handle_t, ze_image_handle_t image, const void* source,
    const ze_image_region_t* region, std::uint32_t row_pitch, std::uint32_t slice_pitch,
    ze_event_handle_t event, std::uint32_t wait_count, ze_event_handle_t* waits) {
  constexpr const char* call = "zeCommandListAppendImageCopyFromMemoryExt";
  if (!image_copy_extension(call)) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  return image_memory_copy(image, const_cast<void*>(source), region, row_pitch, slice_pitch, true,
                           event, wait_count, waits, call);
}

// An image's region into pitched memory (ZE_extension_image_copy).
ze_result_t ZE_APICALL append_image_copy_to_memory_ext(
    ze_command_list_handle_t, void* destination, ze_image_handle_t image,
    const ze_image_region_t* region, std::uint32_t row_pitch, std::uint32_t slice_pitch,
    ze_event_handle_t event, std::uint32_t wait_count, ze_event_handle_t* waits) {
  constexpr const char* call = "zeCommandListAppendImageCopyToMemoryExt";
  if (!image_copy_extension(call)) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  return image_memory_copy(image, destination, region, row_pitch, slice_pitch, false, event,
                           wait_count, waits, call);
}

// Between images of one format; regions of one size that do not overlap within one image.
ze_result_t ZE_APICALL append_image_copy_region(
    ze_command_list_handle_t, ze_image_handle_t destination, ze_image_handle_t source,
    const ze_image_region_t* destination_region, const ze_image_region_t* source_region,
    ze_event_handle_t event, std::uint32_t wait_count, ze_event_handle_t* waits) {
  constexpr const char* call = "zeCommandListAppendImageCopyRegion";
  const std::lock_guard lock(state.mutex);
  if (const ze_result_t result = check_waits(wait_count, waits)) return result;
  auto& dst = *object<Image>(destination);
  auto& src = *object<Image>(source);
  ze_image_region_t to{};
  ze_image_region_t from{};
  if (!image_box(dst, destination_region, to, call) || !image_box(src, source_region, from, call))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (std::memcmp(&dst.desc.format, &src.desc.format, sizeof(ze_image_format_t)) != 0)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, std::string(call) + ": formats differ");
  if (to.width != from.width || to.height != from.height || to.depth != from.depth)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, std::string(call) + ": sizes differ");
  if (&dst == &src && to.originX < from.originX + from.width &&
      from.originX < to.originX + to.width && to.originY < from.originY + from.height &&
      from.originY < to.originY + to.height && to.originZ < from.originZ + from.depth &&
      from.originZ < to.originZ + to.depth)
    return refuse(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, std::string(call) + ": regions overlap");
  const std::size_t row = std::size_t{to.width} * dst.pixel_size;
  for (std::size_t z = 0; z < to.depth; ++z)
    for (std::size_t y = 0; y < to.height; ++y)
      std::memmove(pixel_at(dst, to.originX, to.originY + y, to.originZ + z),
                   pixel_at(src, from.originX, from.originY + y, from.originZ + z), row);
  signal(event);
  return ZE_RESULT_SUCCESS;
}

// A sampler of known modes; it holds nothing (kernels do not run).
ze_result_t ZE_APICALL sampler_create(ze_context_handle_t, ze_device_handle_t,
                                      const ze_sampler_desc_t* desc, ze_sampler_handle_t* out) {
  if (desc->stype != ZE_STRUCTURE_TYPE_SAMPLER_DESC)
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeSamplerCreate: wrong stype");
  if (desc->addressMode > ZE_SAMPLER_ADDRESS_MODE_MIRROR ||
      desc->filterMode > ZE_SAMPLER_FILTER_MODE_LINEAR)
    return refuse(ZE_RESULT_ERROR_INVALID_ENUMERATION, "zeSamplerCreate: an unknown mode");
  const std::lock_guard lock(state.mutex);
  *out = to_handle<ze_sampler_handle_t>(new Sampler);
  ++state.samplers;
  return ZE_RESULT_SUCCESS;
}

// Frees the sampler.
ze_result_t ZE_APICALL sampler_destroy(ze_sampler_handle_t sampler) {
  const std::lock_guard lock(state.mutex);
  delete object<Sampler>(sampler);
  --state.samplers;
  return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Modules and build logs: a module is built from SPIR-V that has at least one kernel; its
// "native binary" is the same SPIR-V. Every build, failed or not, gives a log when asked.

ze_result_t ZE_APICALL module_create(ze_context_handle_t, ze_device_handle_t,
                                     const ze_module_desc_t* desc, ze_module_handle_t* out,
                                     ze_module_build_log_handle_t* log) {
  const std::lock_guard lock(state.mutex);
  std::string error;
  std::vector<KernelInfo> kernels;
  if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV)
    error = "fake-ze builds SPIR-V only";
  else
    kernels = read_kernels(desc->pInputModule, desc->inputSize, error);
  if (log != nullptr) {
    *log = to_handle<ze_module_build_log_handle_t>(
        new BuildLog{error.empty() ? "fake-ze: built" : "fake-ze: " + error});
    ++state.logs;
  }
  if (!error.empty()) return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  *out = to_handle<ze_module_handle_t>(
      new Module{std::move(kernels), {desc->pInputModule, desc->pInputModule + desc->inputSize}});
  ++state.modules;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_destroy(ze_module_handle_t module) {
  const std::lock_guard lock(state.mutex);
  delete object<Module>(module);
  --state.modules;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL module_get_native_binary(ze_module_handle_t handle, std::size_t* size,
                                                std::uint8_t* out) {
  const std::lock_guard lock(state.mutex);
  const auto& spirv = object<Module>(handle)->spirv;
  if (out != nullptr) std::memcpy(out, spirv.data(), std::min(*size, spirv.size()));
  *size = spirv.size();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL build_log_get_string(ze_module_build_log_handle_t handle, std::size_t* size,
                                            char* out) {
  const std::lock_guard lock(state.mutex);
  const std::string& text = object<BuildLog>(handle)->text;
  if (out != nullptr && *size > 0) {
    const std::size_t length = std::min(*size - 1, text.size());
    std::memcpy(out, text.data(), length);
    out[length] = '\0';
  }
  *size = text.size() + 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL build_log_destroy(ze_module_build_log_handle_t log) {
  const std::lock_guard lock(state.mutex);
  delete object<BuildLog>(log);
  --state.logs;
  return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Kernels: a group size and every argument must be set before a launch.

ze_result_t ZE_APICALL kernel_create(ze_module_handle_t module, const ze_kernel_desc_t* desc,
                                     ze_kernel_handle_t* out) {
  const std::lock_guard lock(state.mutex);
  for (const auto& kernel : object<Module>(module)->kernels)
    if (kernel.name == desc->pKernelName) {
      *out = to_handle<ze_kernel_handle_t>(
          new Kernel{kernel.name, std::vector<bool>(kernel.parameters)});
      ++state.kernels;
      return ZE_RESULT_SUCCESS;
    }
  return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
}

ze_result_t ZE_APICALL kernel_destroy(ze_kernel_handle_t kernel) {
  const std::lock_guard lock(state.mutex);
  delete object<Kernel>(kernel);
  --state.kernels;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_get_properties(ze_kernel_handle_t kernel,
                                             ze_kernel_properties_t* properties) {
  const std::lock_guard lock(state.mutex);
  clear(properties);
  properties->numKernelArgs = static_cast<std::uint32_t>(object<Kernel>(kernel)->set.size());
  properties->maxSubgroupSize = 16;
  properties->maxNumSubgroups = 64;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_set_group_size(ze_kernel_handle_t kernel, std::uint32_t x,
                                             std::uint32_t y, std::uint32_t z) {
  if (x == 0 || y == 0 || z == 0 || std::uint64_t{x} * y * z > max_group_size)
    return refuse(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
                  "group size " + std::to_string(x) + "x" + std::to_string(y) + "x" +
                      std::to_string(z) + " is empty or above " + std::to_string(max_group_size));
  const std::lock_guard lock(state.mutex);
  object<Kernel>(kernel)->group_size_set = true;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL kernel_set_argument_value(ze_kernel_handle_t handle, std::uint32_t index,
                                                 std::size_t, const void*) {
  const std::lock_guard lock(state.mutex);
  auto* kernel = object<Kernel>(handle);
  if (index >= kernel->set.size()) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
  kernel->set[index] = true;
  return ZE_RESULT_SUCCESS;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The driver's exports: the loader asks each zeGet*ProcAddrTable for a table of entry points
// (ze_ddi.h declares them, with default visibility). A null entry is one the fake lacks.

extern "C" {

ze_result_t ZE_APICALL zeGetGlobalProcAddrTable(ze_api_version_t, ze_global_dditable_t* table) {
  *table = {};
  table->pfnInit = init;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetDriverProcAddrTable(ze_api_version_t, ze_driver_dditable_t* table) {
  *table = {};
  table->pfnGet = driver_get;
  table->pfnGetApiVersion = driver_get_api_version;
  table->pfnGetProperties = driver_get_properties;
  table->pfnGetExtensionProperties = driver_get_extension_properties;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetDeviceProcAddrTable(ze_api_version_t, ze_device_dditable_t* table) {
  *table = {};
  table->pfnGet = device_get;
  table->pfnGetProperties = device_get_properties;
  table->pfnGetComputeProperties = device_get_compute_properties;
  table->pfnGetModuleProperties = device_get_module_properties;
  table->pfnGetCommandQueueGroupProperties = device_get_command_queue_group_properties;
  table->pfnGetMemoryProperties = device_get_memory_properties;
  table->pfnCanAccessPeer = device_can_access_peer;
  table->pfnGetMemoryAccessProperties = device_get_memory_access_properties;
  table->pfnGetImageProperties = device_get_image_properties;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetContextProcAddrTable(ze_api_version_t, ze_context_dditable_t* table) {
  *table = {};
  table->pfnCreate = context_create;
  table->pfnDestroy = context_destroy;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetMemProcAddrTable(ze_api_version_t, ze_mem_dditable_t* table) {
  *table = {};
  table->pfnAllocDevice = mem_alloc_device;
  table->pfnAllocHost = mem_alloc_host;
  table->pfnAllocShared = mem_alloc_shared;
  table->pfnFree = mem_free;
  table->pfnFreeExt = mem_free_ext;
  table->pfnGetAllocProperties = mem_get_alloc_properties;
  table->pfnGetAddressRange = mem_get_address_range;
  table->pfnGetIpcHandle = mem_get_ipc_handle;
  table->pfnOpenIpcHandle = mem_open_ipc_handle;
  table->pfnCloseIpcHandle = mem_close_ipc_handle;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetCommandListProcAddrTable(ze_api_version_t,
                                                     ze_command_list_dditable_t* table) {
  *table = {};
  table->pfnCreateImmediate = command_list_create_immediate;
  table->pfnDestroy = command_list_destroy;
  table->pfnAppendMemoryCopy = append_memory_copy;
  table->pfnAppendMemoryFill = append_memory_fill;
  table->pfnAppendMemoryCopyRegion = append_memory_copy_region;
  table->pfnAppendMemoryPrefetch = append_memory_prefetch;
  table->pfnAppendMemAdvise = append_mem_advise;
  table->pfnAppendBarrier = append_barrier;
  table->pfnAppendWriteGlobalTimestamp = append_write_global_timestamp;
  table->pfnAppendWaitOnEvents = append_wait_on_events;
  table->pfnAppendEventReset = append_event_reset;
  table->pfnAppendLaunchKernel = append_launch_kernel;
  table->pfnAppendImageCopyRegion = append_image_copy_region;
  table->pfnAppendImageCopyFromMemory = append_image_copy_from_memory;
  table->pfnAppendImageCopyToMemory = append_image_copy_to_memory;
  table->pfnAppendImageCopyFromMemoryExt = append_image_copy_from_memory_ext;
  table->pfnAppendImageCopyToMemoryExt = append_image_copy_to_memory_ext;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetEventPoolProcAddrTable(ze_api_version_t,
                                                   ze_event_pool_dditable_t* table) {
  *table = {};
  table->pfnCreate = event_pool_create;
  table->pfnDestroy = event_pool_destroy;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetEventProcAddrTable(ze_api_version_t, ze_event_dditable_t* table) {
  *table = {};
  table->pfnCreate = event_create;
  table->pfnDestroy = event_destroy;
  table->pfnHostSynchronize = event_host_synchronize;
  table->pfnQueryStatus = event_query_status;
  table->pfnHostReset = event_host_reset;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetModuleProcAddrTable(ze_api_version_t, ze_module_dditable_t* table) {
  *table = {};
  table->pfnCreate = module_create;
  table->pfnDestroy = module_destroy;
  table->pfnGetNativeBinary = module_get_native_binary;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetModuleBuildLogProcAddrTable(ze_api_version_t,
                                                        ze_module_build_log_dditable_t* table) {
  *table = {};
  table->pfnGetString = build_log_get_string;
  table->pfnDestroy = build_log_destroy;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetKernelProcAddrTable(ze_api_version_t, ze_kernel_dditable_t* table) {
  *table = {};
  table->pfnCreate = kernel_create;
  table->pfnDestroy = kernel_destroy;
  table->pfnGetProperties = kernel_get_properties;
  table->pfnSetGroupSize = kernel_set_group_size;
  table->pfnSetArgumentValue = kernel_set_argument_value;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetImageProcAddrTable(ze_api_version_t, ze_image_dditable_t* table) {
  *table = {};
  table->pfnCreate = image_create;
  table->pfnDestroy = image_destroy;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeGetSamplerProcAddrTable(ze_api_version_t, ze_sampler_dditable_t* table) {
  *table = {};
  table->pfnCreate = sampler_create;
  table->pfnDestroy = sampler_destroy;
  return ZE_RESULT_SUCCESS;
}

}  // extern "C"

// The tables the loader asks every driver for, which the fake leaves empty.
#define FAKE_ZE_EMPTY_TABLE(function, table_type)                                   \
  extern "C" ze_result_t ZE_APICALL function(ze_api_version_t, table_type* table) { \
    *table = {};                                                                    \
    return ZE_RESULT_SUCCESS;                                                       \
  }

FAKE_ZE_EMPTY_TABLE(zeGetCommandQueueProcAddrTable, ze_command_queue_dditable_t)
FAKE_ZE_EMPTY_TABLE(zeGetFenceProcAddrTable, ze_fence_dditable_t)
FAKE_ZE_EMPTY_TABLE(zeGetPhysicalMemProcAddrTable, ze_physical_mem_dditable_t)
FAKE_ZE_EMPTY_TABLE(zeGetVirtualMemProcAddrTable, ze_virtual_mem_dditable_t)
FAKE_ZE_EMPTY_TABLE(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t)
FAKE_ZE_EMPTY_TABLE(zeGetEventExpProcAddrTable, ze_event_exp_dditable_t)
FAKE_ZE_EMPTY_TABLE(zeGetImageExpProcAddrTable, ze_image_exp_dditable_t)
FAKE_ZE_EMPTY_TABLE(zeGetKernelExpProcAddrTable, ze_kernel_exp_dditable_t)
FAKE_ZE_EMPTY_TABLE(zeGetFabricEdgeExpProcAddrTable, ze_fabric_edge_exp_dditable_t)
FAKE_ZE_EMPTY_TABLE(zeGetFabricVertexExpProcAddrTable, ze_fabric_vertex_exp_dditable_t)

FAKE_ZE_EMPTY_TABLE(zetGetDeviceProcAddrTable, zet_device_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetContextProcAddrTable, zet_context_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetCommandListProcAddrTable, zet_command_list_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetModuleProcAddrTable, zet_module_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetKernelProcAddrTable, zet_kernel_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetMetricGroupProcAddrTable, zet_metric_group_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetMetricGroupExpProcAddrTable, zet_metric_group_exp_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetMetricProcAddrTable, zet_metric_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetMetricStreamerProcAddrTable, zet_metric_streamer_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetMetricQueryPoolProcAddrTable, zet_metric_query_pool_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetMetricQueryProcAddrTable, zet_metric_query_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetTracerExpProcAddrTable, zet_tracer_exp_dditable_t)
FAKE_ZE_EMPTY_TABLE(zetGetDebugProcAddrTable, zet_debug_dditable_t)

FAKE_ZE_EMPTY_TABLE(zesGetDriverProcAddrTable, zes_driver_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetDeviceProcAddrTable, zes_device_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetPerformanceFactorProcAddrTable, zes_performance_factor_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetPowerProcAddrTable, zes_power_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetEngineProcAddrTable, zes_engine_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetStandbyProcAddrTable, zes_standby_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetMemoryProcAddrTable, zes_memory_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetPsuProcAddrTable, zes_psu_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetFanProcAddrTable, zes_fan_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetLedProcAddrTable, zes_led_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetRasProcAddrTable, zes_ras_dditable_t)
FAKE_ZE_EMPTY_TABLE(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t)
