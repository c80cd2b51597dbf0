#pragma once

#include <plinth/backend/kernel.hpp>

#include <cuda.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace plinth::cuda {

struct Modules;

/// A CUfunction with its parameters introspected once (cuFuncGetParamInfo).
class Kernel final : public backend::KernelAdapter {
 public:
  Kernel(std::shared_ptr<const Modules> modules, CUfunction function);

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
  CUfunction function_;
  std::vector<backend::ParamInfo> parameters_;
  std::size_t max_total_local_size_ = 0;
  std::size_t dynamic_local_limit_ = 0;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
  std::vector<void*> pointers_;
};

}  // namespace plinth::cuda
