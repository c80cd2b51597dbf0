#pragma once

#include "code_object.hpp"

#include <plinth/backend/kernel.hpp>

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace plinth::hip {

struct Modules;

/// A hipFunction_t. The HIP 5.2 runtime cannot introspect a kernel's parameters; they come
/// from the code object's metadata (code_object.hpp): ParamKind::unknown with their sizes,
/// which the core checks. Dynamic local memory is a launch parameter, as in CUDA.
class Kernel final : public backend::KernelAdapter {
 public:
  Kernel(std::shared_ptr<const Modules> modules, hipFunction_t function, const KernelInfo& info);

  std::span<const backend::ParamInfo> parameters() const override { return parameters_; }
  std::size_t max_total_local_size() const override { return max_total_local_size_; }
  void launch(backend::QueueAdapter& queue, const backend::LaunchShape& shape,
              std::span<const backend::ArgValue> args) override;
  backend::NativeHandle native_handle() const override;
  backend::DynamicLocalMemory dynamic_local_memory() const override {
    return backend::DynamicLocalMemory::launch_parameter;
  }

 private:
  /// Arguments up to this many are passed from an array on the stack; beyond it from
  /// pointers_, sized once here for the kernel's parameter count.
  static constexpr std::size_t stack_args = 64;

  std::shared_ptr<const Modules> modules_;  // keeps the function's module loaded
  hipFunction_t function_;
  std::vector<backend::ParamInfo> parameters_;
  std::size_t max_total_local_size_ = 0;
  std::vector<void*> pointers_;
};

}  // namespace plinth::hip
