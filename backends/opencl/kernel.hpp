#pragma once

#include <plinth/backend/kernel.hpp>
#include <plinth/backend/types.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace plinth::opencl {

/// A cl_kernel (one reference owned) for one device, its parameters introspected once.
class Kernel final : public backend::KernelAdapter {
 public:
  /// Adopts `kernel`'s reference and introspects it for `device`.
  static std::unique_ptr<Kernel> create(cl_kernel kernel, cl_device_id device, std::string name);

  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;
  ~Kernel() override;

  std::span<const backend::ParamInfo> parameters() const override;
  std::size_t max_total_local_size() const override;
  /// Binds `args` in order; with shape.local_mem > 0, binds it to one more trailing
  /// local-pointer parameter (LOCAL_MEM_DYNAMIC).
  void launch(backend::QueueAdapter& queue, const backend::LaunchShape& shape,
              std::span<const backend::ArgValue> args) override;
  backend::NativeHandle native_handle() const override;
  backend::DynamicLocalMemory dynamic_local_memory() const override {
    return backend::DynamicLocalMemory::last_parameter;
  }

 private:
  Kernel(cl_kernel kernel, std::string name) noexcept;
  void introspect(cl_device_id device);
  [[noreturn]] void throw_arg_error(cl_int code, std::size_t index) const;

  cl_kernel kernel_;
  std::string name_;
  std::vector<backend::ParamInfo> params_;
  std::size_t max_total_local_size_ = 1;
  bool in_launch_order_ = false;  ///< launches_race() of its device: launch_order.hpp
};

}  // namespace plinth::opencl
