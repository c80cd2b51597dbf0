#include "api.hpp"

#include "context.hpp"
#include "device.hpp"
#include "error.hpp"
#include "platform.hpp"
#include "prelude.hpp"
#include "spirv_compiler.hpp"
#include "targets.hpp"

#include <plinth/errors.hpp>

namespace plinth::level_zero {

std::unique_ptr<backend::ApiAdapter> create_api() { return std::make_unique<Api>(); }

void Api::initialize() {
  // zeInit loads the drivers the loader finds. Without one (this machine: the loader only) it
  // answers ZE_RESULT_ERROR_UNINITIALIZED: no platforms, and the reason, but still a plugin
  // that compiles to SPIR-V.
  const ze_result_t result = zeInit(0);
  if (result != ZE_RESULT_SUCCESS) {
    if (out_of_memory(result)) backend::check(result, "zeInit");
    no_devices_reason_ = "zeInit: " + result_text(result);
    return;
  }
  std::uint32_t count = 0;
  PLINTH_CHECK(zeDriverGet(&count, nullptr));
  drivers_.resize(count);
  if (count > 0) PLINTH_CHECK(zeDriverGet(&count, drivers_.data()));
  drivers_.resize(count);
  if (drivers_.empty()) {
    no_devices_reason_ = "zeDriverGet: no Level Zero driver";
    return;
  }
  std::size_t gpus = 0;
  for (ze_driver_handle_t driver : drivers_) gpus += Platform::gpu_devices(driver).size();
  if (gpus == 0)
    no_devices_reason_ = "zeDeviceGet: the " + std::to_string(drivers_.size()) +
                         " Level Zero driver(s) have no GPU device";
}

std::unique_ptr<backend::PlatformAdapter> Api::platform(std::size_t index) const {
  if (index >= drivers_.size())
    throw LogicError("Level Zero has " + std::to_string(drivers_.size()) +
                     " drivers, no platform " + std::to_string(index));
  return std::make_unique<Platform>(drivers_[index]);
}

namespace {

std::vector<ze_device_handle_t> handles(std::span<const backend::DeviceAdapter* const> devices) {
  std::vector<ze_device_handle_t> result;
  result.reserve(devices.size());
  for (const auto* device : devices) result.push_back(static_cast<const Device&>(*device).device());
  return result;
}

ze_driver_handle_t driver_of(std::span<const backend::DeviceAdapter* const> devices) {
  return static_cast<const Device&>(*devices.front()).driver();
}

}  // namespace

std::unique_ptr<backend::ContextAdapter> Api::create_context(
    std::span<const backend::DeviceAdapter* const> devices) {
  const ze_driver_handle_t driver = driver_of(devices);
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context = nullptr;
  PLINTH_CHECK(zeContextCreate(driver, &desc, &context));
  return std::make_unique<Context>(
      std::make_shared<ContextState>(driver, context, handles(devices), true));
}

std::unique_ptr<backend::ContextAdapter> Api::wrap_context(
    backend::NativeHandle context, std::span<const backend::DeviceAdapter* const> devices,
    bool take_ownership) {
  if (context == 0) throw LogicError("a Level Zero context is a ze_context_handle_t; got null");
  return std::make_unique<Context>(std::make_shared<ContextState>(
      driver_of(devices), reinterpret_cast<ze_context_handle_t>(context), handles(devices),
      take_ownership));
}

std::string Api::prelude(bool fast_math) const { return level_zero::prelude(fast_math); }

std::vector<backend::CompileTarget> Api::compile_targets() const {
  return level_zero::compile_targets();
}

void Api::target_features(std::string_view /*target*/, DeviceFeatures& features) const {
  features = spirv64_features();  // the one target: the core checked the name
}

backend::TargetBinary Api::compile_for_target(std::string_view /*target*/,
                                              const backend::ProgramInput& input,
                                              const backend::BuildOptions& options) const {
  // One target, "spirv64" (the core checked the name): SPIR-V is device-independent.
  if (input.kind != backend::ProgramInputKind::source)
    throw LogicError("Level Zero compiles for a named target from source only");
  SpirvModule module = compile_to_spirv(translation_unit(input, options), options);
  return {std::move(module.binary), std::move(module.log)};
}

}  // namespace plinth::level_zero
