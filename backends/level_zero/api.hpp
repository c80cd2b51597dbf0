#pragma once

// The Level Zero API (oneAPI Level Zero, through the loader libze_loader.so.1).
//
// Platforms are drivers (zeDriverGet); devices are a driver's root devices of type GPU
// (zeDeviceGet). Sub-devices (the tiles of a multi-tile GPU such as the Data Center GPU Max
// 1550, zeDeviceGetSubDevices) are not exposed as devices of their own: a root device spreads
// its work over its tiles (the driver's implicit scaling), and a context over sub-devices would
// need its queues, memory and modules on those handles. Users who want one tile per device set
// ZE_FLAT_DEVICE_HIERARCHY=FLAT (newer drivers) or ZE_AFFINITY_MASK, which make the driver
// report tiles as root devices.
//
// Contexts are ze_context_handle_t (zeContextCreate), queues in-order immediate command lists
// (queue.hpp), buffers device pointers (zeMemAllocDevice), events host-visible events of the
// context's pools with global timestamps (event_pool.hpp), programs modules built from SPIR-V
// (program.hpp), which clang and llvm-spirv make from the kernel dialect (spirv_compiler.hpp),
// images and samplers ze_image_handle_t and ze_sampler_handle_t (image.hpp).

#include <plinth/backend/api.hpp>

#include <level_zero/ze_api.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::level_zero {

class Api final : public backend::ApiAdapter {
 public:
  std::string name() const override { return "Level Zero"; }
  /// zeInit(0), then the drivers. Without a driver (zeInit answers
  /// ZE_RESULT_ERROR_UNINITIALIZED, or another failure but running out of host memory) it
  /// returns normally with no platforms, and no_devices_reason() says what zeInit said: the
  /// plugin still compiles for "spirv64". Throws OutOfMemoryError, BackendError for
  /// zeDriverGet's failures.
  void initialize() override;
  std::size_t platform_count() const override { return drivers_.size(); }
  /// A Platform of driver `index`. Throws BackendError, LogicError for an index out of range.
  std::unique_ptr<backend::PlatformAdapter> platform(std::size_t index) const override;
  /// zeContextCreate on the devices' driver.
  std::unique_ptr<backend::ContextAdapter> create_context(
      std::span<const backend::DeviceAdapter* const> devices) override;
  /// `context` is a ze_context_handle_t of the devices' driver; destroyed with the adapter
  /// when `take_ownership`.
  std::unique_ptr<backend::ContextAdapter> wrap_context(
      backend::NativeHandle context, std::span<const backend::DeviceAdapter* const> devices,
      bool take_ownership) override;
  /// level_zero::prelude(fast_math) (prelude.hpp).
  std::string prelude(bool fast_math) const override;
  /// Source (compiled to SPIR-V here), SPIR-V modules, and binaries, which are SPIR-V too
  /// (ProgramAdapter::binary()).
  unsigned program_inputs() const override {
    return static_cast<unsigned>(backend::ProgramInputKind::source) |
           static_cast<unsigned>(backend::ProgramInputKind::spirv) |
           static_cast<unsigned>(backend::ProgramInputKind::binary);
  }

  // SDK 1.3
  /// "zeInit: ZE_RESULT_ERROR_UNINITIALIZED (no Level Zero driver is installed, ...)", or
  /// why the drivers have no GPU.
  std::string no_devices_reason() const override { return no_devices_reason_; }
  /// "spirv64" (targets.hpp).
  std::vector<backend::CompileTarget> compile_targets() const override;
  /// The dialect to SPIR-V with clang and llvm-spirv, no driver needed: the same
  /// translation_unit() and compile_to_spirv() as a program's build.
  backend::TargetBinary compile_for_target(std::string_view target,
                                           const backend::ProgramInput& input,
                                           const backend::BuildOptions& options) const override;
  /// spirv64_features() (targets.hpp) for "spirv64".
  void target_features(std::string_view target, DeviceFeatures& features) const override;
  // collectives(): the SDK's default (none): the core runs collectives with its own engine.

 private:
  std::vector<ze_driver_handle_t> drivers_;
  std::string no_devices_reason_;
};

/// The plugin's factory (exported by plugin.cpp).
std::unique_ptr<backend::ApiAdapter> create_api();

}  // namespace plinth::level_zero
