#pragma once

#include <plinth/backend/kernel.hpp>

#include <level_zero/ze_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plinth::level_zero {

struct Modules;

/// A ze_kernel_handle_t. Its parameters come from the module's SPIR-V (reflect_kernels(),
/// spirv_reflection.hpp); where reflection could not tell (or disagrees with the driver's
/// count), they are ParamKind::unknown, as many as zeKernelGetProperties' numKernelArgs.
/// Dynamic local memory is the last parameter (LOCAL_MEM_DYNAMIC), as on OpenCL.
///
/// The core picks automatic local sizes itself: the SDK has no hook through which a backend
/// could suggest one, so zeKernelSuggestGroupSize is not used.
class Kernel final : public backend::KernelAdapter {
 public:
  /// Adopts `kernel`. `reflected`: the kernel's parameters from the SPIR-V, or null.
  /// `device_max`: the device's maxTotalGroupSize. Throws BackendError.
  Kernel(std::shared_ptr<const Modules> modules, ze_kernel_handle_t kernel, std::string name,
         const std::vector<backend::ParamInfo>* reflected, std::uint32_t device_max);
  ~Kernel() override;
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  std::span<const backend::ParamInfo> parameters() const override { return parameters_; }
  std::size_t max_total_local_size() const override { return max_total_local_size_; }
  /// zeKernelSetGroupSize (when it changed), zeKernelSetArgumentValue for each argument (and
  /// the trailing local pointer with LaunchShape::local_mem bytes), then
  /// zeCommandListAppendLaunchKernel on the queue's command list. No heap allocation.
  void launch(backend::QueueAdapter& queue, const backend::LaunchShape& shape,
              std::span<const backend::ArgValue> args) override;
  /// The ze_kernel_handle_t.
  backend::NativeHandle native_handle() const override;
  backend::DynamicLocalMemory dynamic_local_memory() const override {
    return backend::DynamicLocalMemory::last_parameter;
  }

 private:
  [[noreturn]] void throw_arg_error(ze_result_t result, std::size_t index) const;

  std::shared_ptr<const Modules> modules_;  // keeps the kernel's module
  ze_kernel_handle_t kernel_;
  std::string name_;
  std::vector<backend::ParamInfo> parameters_;
  std::size_t max_total_local_size_ = 1;
  std::array<std::uint32_t, 3> group_size_{0, 0, 0};  // what zeKernelSetGroupSize last got
};

}  // namespace plinth::level_zero
