#pragma once

// A Level Zero context (ze_context_handle_t, zeContextCreate) over devices of one driver.
// Unlike CUDA or HIP there is no current context or device: every call names its context
// and device, so activate() and deactivate() do nothing.

#include <plinth/backend/context.hpp>

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plinth::level_zero {

class EventPools;
class Retirements;

/// A device of a context, with what its queues, events and programs need.
struct DeviceEntry {
  ze_device_handle_t device = nullptr;
  std::string name;                   ///< for messages
  std::uint32_t compute_ordinal = 0;  ///< the first command queue group that can compute
  /// That group's maxMemoryFillPatternSize: the longest pattern its fills take.
  std::size_t max_fill_pattern = 0;
  double ns_per_tick = 1;  ///< the global timer's resolution (timerResolution)
  std::uint64_t timestamp_mask = ~std::uint64_t{0};  ///< its valid bits (timestampValidBits)
  std::uint32_t max_total_group_size = 1;            ///< of the compute properties
  /// ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS: programs for the device may use 64-bit atomics.
  bool int64_atomics = false;
};

/// Reads what a context needs of `device` (zeDeviceGetProperties, queue groups). Throws
/// BackendError, or LogicError for a device without a compute queue group.
DeviceEntry describe_device(ze_device_handle_t device);

/// What a context's buffers, queues, events and programs share and keep alive: the native
/// context, its devices, which device can reach which one's memory, and the free policy.
/// Immutable after construction: any thread may read it.
class ContextState {
 public:
  /// Adopts `context` (destroyed with this object when `owned`). Throws BackendError.
  ContextState(ze_driver_handle_t driver, ze_context_handle_t context,
               std::vector<ze_device_handle_t> devices, bool owned);
  ~ContextState();
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;

  ze_context_handle_t context() const { return context_; }
  /// The Level Zero API version the driver implements (zeDriverGetApiVersion).
  ze_api_version_t api_version() const { return api_version_; }
  /// Whether the driver lists ZE_extension_image_copy: image copies to and from memory with
  /// pitches (zeCommandListAppendImageCopy{To,From}MemoryExt).
  bool image_copy_ext() const { return image_copy_ext_; }
  std::size_t size() const { return devices_.size(); }
  const DeviceEntry& operator[](std::size_t index) const { return devices_[index]; }
  /// Whether device `dst` can read and write memory of device `src` (zeDeviceCanAccessPeer).
  bool can_access(std::size_t dst, std::size_t src) const {
    return peer_[dst * devices_.size() + src];
  }
  /// Frees device or host memory of this context once no queued command uses it any more,
  /// where the driver can (ZE_extension_memory_free_policies: deferred, else blocking);
  /// otherwise at once (zeMemFree). Reports failures on stderr; never throws.
  void free(void* memory) const noexcept;

 private:
  ze_context_handle_t context_;
  std::vector<DeviceEntry> devices_;
  std::vector<bool> peer_;
  ze_driver_memory_free_policy_ext_flags_t free_policy_ = 0;
  ze_api_version_t api_version_ = ZE_API_VERSION_1_0;
  bool image_copy_ext_ = false;
  bool owned_;
};

class Context final : public backend::ContextAdapter {
 public:
  explicit Context(std::shared_ptr<ContextState> state);

  std::size_t device_count() const override { return state_->size(); }
  /// zeMemAllocDevice, 256-byte aligned. Throws OutOfMemoryError, BackendError.
  std::unique_ptr<backend::BufferAdapter> allocate(std::size_t device, std::size_t size) override;
  /// `memory` is a device pointer (zeMemAllocDevice, or shared memory) of this context.
  std::unique_ptr<backend::BufferAdapter> wrap_buffer(std::size_t device,
                                                      backend::NativeHandle memory,
                                                      std::size_t size,
                                                      bool take_ownership) override;
  /// An in-order immediate command list (queue.hpp).
  std::unique_ptr<backend::QueueAdapter> create_queue(std::size_t device) override;
  /// `queue` must be an immediate command list (ze_command_list_handle_t) of the device in
  /// this context; Level Zero 1.4 cannot check that, nor read its flags, so the queue puts a
  /// barrier before each command (queue.hpp).
  std::unique_ptr<backend::QueueAdapter> wrap_queue(std::size_t device, backend::NativeHandle queue,
                                                    bool take_ownership) override;
  std::unique_ptr<backend::ProgramAdapter> create_program(
      std::span<const std::size_t> devices, const backend::ProgramInput& input,
      const backend::BuildOptions& options) override;
  void activate() override {}
  void deactivate() override {}
  /// The ze_context_handle_t (the same for every device).
  backend::NativeHandle native_handle(std::size_t device) const override;
  /// zeMemAllocHost: host memory every device of the context reads and writes directly.
  void* allocate_host(std::size_t size) override;
  void free_host(void* memory) noexcept override;
  // SDK 1.6: managed memory: shared memory (zeMemAllocShared) of the device, where its
  // memory access properties allow single-device shared allocations; global only.
  std::unique_ptr<backend::BufferAdapter> allocate_managed(std::size_t device, std::size_t size,
                                                           ManagedAttach attach) override;
  // SDK 1.6: memory info: the total of zeDeviceGetMemoryProperties, and the free memory of
  // Sysman's memory modules (zesMemoryGetState) where Sysman answers (ZES_ENABLE_SYSMAN=1).
  bool memory_info(std::size_t device, MemoryInfo& info) override;
  // register_host() keeps the SDK's default (LogicError): Level Zero has no call that
  // page-locks existing host memory (there is no counterpart of cuMemHostRegister).
  // SDK 1.6: interprocess memory (ipc.cpp); events keep the SDK's defaults.
  backend::IpcAvailability ipc_availability(std::size_t device) override;
  backend::IpcMemoryExport export_memory(std::size_t device,
                                         backend::BufferAdapter& buffer) override;
  std::unique_ptr<backend::BufferAdapter> import_memory(std::size_t device,
                                                        std::span<const std::byte> handle,
                                                        std::size_t size) override;
  // SDK 1.8: images (zeImageCreate) and samplers (zeSamplerCreate), image.hpp; dropped ones
  // are destroyed once no queue may use them (retirements.hpp). A Level Zero sampler belongs
  // to one device (zeSamplerCreate takes one) while the SDK's serves the whole context and
  // gives one kernel argument: it is made on the first device with images, and on a context
  // of several devices the others use that handle too (Intel's driver copies a sampler's
  // state into the kernel when the argument is set, so devices of one driver should read it
  // alike; not verified on a GPU, and an SDK method per device would remove the doubt).
  ImageSupport image_support(std::size_t device) override;
  std::unique_ptr<backend::ImageAdapter> create_image(std::size_t device,
                                                      const backend::ImageDesc& desc) override;
  std::unique_ptr<backend::SamplerAdapter> create_sampler(const SamplerDesc& desc) override;

 private:
  std::shared_ptr<ContextState> state_;
  std::shared_ptr<EventPools> events_;
  std::shared_ptr<Retirements> retirements_;
};

}  // namespace plinth::level_zero
