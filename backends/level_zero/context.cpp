#include "context.hpp"

#include "buffer.hpp"
#include "device_parameters.hpp"
#include "error.hpp"
#include "event_pool.hpp"
#include "image.hpp"
#include "program.hpp"
#include "queue.hpp"
#include "retirements.hpp"

#include <plinth/errors.hpp>

#include <level_zero/zes_api.h>

#include <cstring>
#include <string_view>
#include <vector>

namespace plinth::level_zero {

namespace {

// The extensions the driver lists (none where it cannot say).
std::vector<ze_driver_extension_properties_t> extensions(ze_driver_handle_t driver) {
  std::uint32_t count = 0;
  if (zeDriverGetExtensionProperties(driver, &count, nullptr) != ZE_RESULT_SUCCESS) return {};
  std::vector<ze_driver_extension_properties_t> listed(count);
  if (count == 0 ||
      zeDriverGetExtensionProperties(driver, &count, listed.data()) != ZE_RESULT_SUCCESS)
    return {};
  listed.resize(count);
  return listed;
}

// Whether `listed` names the extension `name`.
bool has_extension(const std::vector<ze_driver_extension_properties_t>& listed,
                   std::string_view name) {
  for (const auto& extension : listed)
    if (bounded_text(extension.name) == name) return true;
  return false;
}

// The memory free policies the driver offers (0 without the extension).
ze_driver_memory_free_policy_ext_flags_t free_policies(
    ze_driver_handle_t driver, const std::vector<ze_driver_extension_properties_t>& listed) {
  if (!has_extension(listed, ZE_MEMORY_FREE_POLICIES_EXT_NAME)) return 0;
  ze_driver_memory_free_ext_properties_t policies{
      ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES, nullptr, 0};
  ze_driver_properties_t properties{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES, &policies, {}, 0};
  if (zeDriverGetProperties(driver, &properties) != ZE_RESULT_SUCCESS) return 0;
  return policies.freePolicies;
}

// ZE_COMMAND_QUEUE_FLAG_IN_ORDER (Level Zero 1.7; ze_api.h of libze-dev 1.8 is 1.4): each
// command of the list starts after the one before has completed.
constexpr ze_command_queue_flags_t in_order_flag = 1u << 1;
constexpr ze_api_version_t in_order_version = static_cast<ze_api_version_t>(ZE_MAKE_VERSION(1, 7));

}  // namespace

DeviceEntry describe_device(ze_device_handle_t device) {
  DeviceEntry entry;
  entry.device = device;
  ze_device_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;  // timerResolution in nanoseconds
  PLINTH_CHECK(zeDeviceGetProperties(device, &properties));
  entry.name = bounded_text(properties.name);
  entry.ns_per_tick = properties.timerResolution > 0 ? double(properties.timerResolution) : 1.0;
  if (properties.timestampValidBits > 0 && properties.timestampValidBits < 64)
    entry.timestamp_mask = (std::uint64_t{1} << properties.timestampValidBits) - 1;
  ze_device_compute_properties_t compute{};
  compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  PLINTH_CHECK(zeDeviceGetComputeProperties(device, &compute));
  entry.max_total_group_size = compute.maxTotalGroupSize > 0 ? compute.maxTotalGroupSize : 1;
  ze_device_module_properties_t module{};
  module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  PLINTH_CHECK(zeDeviceGetModuleProperties(device, &module));
  entry.int64_atomics = (module.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS) != 0;

  std::uint32_t count = 0;
  PLINTH_CHECK(zeDeviceGetCommandQueueGroupProperties(device, &count, nullptr));
  std::vector<ze_command_queue_group_properties_t> groups(count);
  for (auto& group : groups) group.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  if (count > 0)
    PLINTH_CHECK(zeDeviceGetCommandQueueGroupProperties(device, &count, groups.data()));
  for (std::uint32_t ordinal = 0; ordinal < count; ++ordinal) {
    if (groups[ordinal].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
      entry.compute_ordinal = ordinal;
      entry.max_fill_pattern = groups[ordinal].maxMemoryFillPatternSize;
      return entry;
    }
  }
  throw LogicError("the Level Zero device '" + entry.name + "' has no compute queue group");
}

ContextState::ContextState(ze_driver_handle_t driver, ze_context_handle_t context,
                           std::vector<ze_device_handle_t> devices, bool owned)
    : context_(context), owned_(owned) {
  try {
    for (ze_device_handle_t device : devices) devices_.push_back(describe_device(device));
    peer_.assign(devices_.size() * devices_.size(), false);
    for (std::size_t dst = 0; dst < devices_.size(); ++dst) {
      for (std::size_t src = 0; src < devices_.size(); ++src) {
        ze_bool_t value = dst == src;
        if (dst != src)
          PLINTH_CHECK(zeDeviceCanAccessPeer(devices_[dst].device, devices_[src].device, &value));
        peer_[dst * devices_.size() + src] = value != 0;
      }
    }
    PLINTH_CHECK(zeDriverGetApiVersion(driver, &api_version_));
    const auto listed = extensions(driver);
    image_copy_ext_ = has_extension(listed, ZE_IMAGE_COPY_EXT_NAME);
    const auto policies = free_policies(driver, listed);
    if (policies & ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE)
      free_policy_ = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
    else if (policies & ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE)
      free_policy_ = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE;
  } catch (...) {
    if (owned_) PLINTH_CHECK_IN_DESTRUCTOR(zeContextDestroy(context_));
    throw;
  }
}

ContextState::~ContextState() {
  if (owned_) PLINTH_CHECK_IN_DESTRUCTOR(zeContextDestroy(context_));
}

void ContextState::free(void* memory) const noexcept {
  if (free_policy_ != 0) {
    ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr, free_policy_};
    PLINTH_CHECK_IN_DESTRUCTOR(zeMemFreeExt(context_, &desc, memory));
  } else {
    PLINTH_CHECK_IN_DESTRUCTOR(zeMemFree(context_, memory));
  }
}

Context::Context(std::shared_ptr<ContextState> state)
    : state_(std::move(state)),
      events_(std::make_shared<EventPools>(state_)),
      retirements_(std::make_shared<Retirements>(state_)) {}

std::unique_ptr<backend::BufferAdapter> Context::allocate(std::size_t device, std::size_t size) {
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  void* pointer = nullptr;
  const ze_result_t result =
      zeMemAllocDevice(state_->context(), &desc, size, 256, (*state_)[device].device, &pointer);
  if (result == ZE_RESULT_ERROR_UNSUPPORTED_SIZE) {
    // Above the device's maxMemAllocSize: for the user, the device has not that much memory.
    throw OutOfMemoryError("Level Zero", "zeMemAllocDevice", result, result_name(result),
                           std::to_string(size) + " bytes is more than one allocation of '" +
                               (*state_)[device].name + "' may have");
  }
  backend::check(result, "zeMemAllocDevice");
  return std::make_unique<Buffer>(state_, pointer, size, true);
}

std::unique_ptr<backend::BufferAdapter> Context::wrap_buffer(std::size_t /*device*/,
                                                             backend::NativeHandle memory,
                                                             std::size_t size,
                                                             bool take_ownership) {
  return std::make_unique<Buffer>(state_, reinterpret_cast<void*>(memory), size, take_ownership);
}

std::unique_ptr<backend::QueueAdapter> Context::create_queue(std::size_t device) {
  const DeviceEntry& entry = (*state_)[device];
  ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                               nullptr,
                               entry.compute_ordinal,
                               0,
                               0,
                               ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                               ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  // Drivers before 1.7 do not know the flag (and may refuse unknown ones): the queue then puts
  // a barrier before each command (queue.hpp).
  const bool in_order = state_->api_version() >= in_order_version;
  if (in_order) desc.flags = in_order_flag;
  ze_command_list_handle_t list = nullptr;
  PLINTH_CHECK(zeCommandListCreateImmediate(state_->context(), entry.device, &desc, &list));
  return std::make_unique<Queue>(state_, events_, retirements_, device, list, true, in_order);
}

std::unique_ptr<backend::QueueAdapter> Context::wrap_queue(std::size_t device,
                                                           backend::NativeHandle queue,
                                                           bool take_ownership) {
  if (queue == 0) throw LogicError("a Level Zero queue is a command list handle; got null");
  return std::make_unique<Queue>(state_, events_, retirements_, device,
                                 reinterpret_cast<ze_command_list_handle_t>(queue), take_ownership,
                                 false);  // its flags cannot be read: barriers keep it in order
}

std::unique_ptr<backend::ProgramAdapter> Context::create_program(
    std::span<const std::size_t> devices, const backend::ProgramInput& input,
    const backend::BuildOptions& options) {
  return std::make_unique<Program>(state_, devices, input, options);
}

backend::NativeHandle Context::native_handle(std::size_t /*device*/) const {
  return reinterpret_cast<backend::NativeHandle>(state_->context());
}

void* Context::allocate_host(std::size_t size) {
  ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void* memory = nullptr;
  PLINTH_CHECK(zeMemAllocHost(state_->context(), &desc, size, 64, &memory));
  return memory;
}

void Context::free_host(void* memory) noexcept { state_->free(memory); }

std::unique_ptr<backend::BufferAdapter> Context::allocate_managed(std::size_t device,
                                                                  std::size_t size,
                                                                  ManagedAttach attach) {
  const auto& entry = (*state_)[device];
  ze_device_memory_access_properties_t access{};
  access.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES;
  PLINTH_CHECK(zeDeviceGetMemoryAccessProperties(entry.device, &access));
  if (access.sharedSingleDeviceAllocCapabilities == 0) {
    throw LogicError("Level Zero device '" + entry.name +
                     "' has no managed memory (its sharedSingleDeviceAllocCapabilities are 0)");
  }
  if (attach != ManagedAttach::global) {
    throw LogicError("Level Zero device '" + entry.name + "' cannot attach managed memory as '" +
                     to_string(attach) +
                     "': Level Zero has no attach kinds (shared memory is always reachable by "
                     "every command list and the host)");
  }
  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void* pointer = nullptr;
  const ze_result_t result = zeMemAllocShared(state_->context(), &device_desc, &host_desc, size,
                                              256, entry.device, &pointer);
  if (result == ZE_RESULT_ERROR_UNSUPPORTED_SIZE) {
    throw OutOfMemoryError("Level Zero", "zeMemAllocShared", result, result_name(result),
                           std::to_string(size) + " bytes is more than one allocation of '" +
                               entry.name + "' may have");
  }
  backend::check(result, "zeMemAllocShared");
  return std::make_unique<Buffer>(state_, pointer, size, true, true);
}

bool Context::memory_info(std::size_t device, MemoryInfo& info) {
  const ze_device_handle_t handle = (*state_)[device].device;
  std::uint32_t count = 0;
  PLINTH_CHECK(zeDeviceGetMemoryProperties(handle, &count, nullptr));
  std::vector<ze_device_memory_properties_t> memories(count);
  for (auto& memory : memories) memory.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  PLINTH_CHECK(zeDeviceGetMemoryProperties(handle, &count, memories.data()));
  info.total = 0;
  for (std::uint32_t i = 0; i < count; ++i) info.total += memories[i].totalSize;
  // Sysman answers only where it was enabled before zeInit (ZES_ENABLE_SYSMAN=1) and the driver
  // has it: any failure means the free memory is unknown, not an error.
  const auto sysman = reinterpret_cast<zes_device_handle_t>(handle);
  std::uint32_t modules = 0;
  if (zesDeviceEnumMemoryModules(sysman, &modules, nullptr) != ZE_RESULT_SUCCESS || modules == 0)
    return true;
  std::vector<zes_mem_handle_t> handles(modules);
  if (zesDeviceEnumMemoryModules(sysman, &modules, handles.data()) != ZE_RESULT_SUCCESS)
    return true;
  std::size_t free = 0;
  for (std::uint32_t i = 0; i < modules; ++i) {
    zes_mem_state_t state{};
    state.stype = ZES_STRUCTURE_TYPE_MEM_STATE;
    if (zesMemoryGetState(handles[i], &state) != ZE_RESULT_SUCCESS) return true;
    free += state.free;
  }
  info.free = free;
  return true;
}

ImageSupport Context::image_support(std::size_t device) {
  return query_image_support((*state_)[device].device);
}

std::unique_ptr<backend::ImageAdapter> Context::create_image(std::size_t device,
                                                             const backend::ImageDesc& desc) {
  return level_zero::create_image(*state_, retirements_, device, desc);
}

std::unique_ptr<backend::SamplerAdapter> Context::create_sampler(const SamplerDesc& desc) {
  return level_zero::create_sampler(*state_, retirements_, desc);
}

}  // namespace plinth::level_zero
