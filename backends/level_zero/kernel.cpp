#include "kernel.hpp"

#include "error.hpp"
#include "program.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <algorithm>

namespace plinth::level_zero {

Kernel::Kernel(std::shared_ptr<const Modules> modules, ze_kernel_handle_t kernel, std::string name,
               const std::vector<backend::ParamInfo>* reflected, std::uint32_t device_max)
    : modules_(std::move(modules)), kernel_(kernel), name_(std::move(name)) {
  ze_kernel_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  const ze_result_t result = zeKernelGetProperties(kernel_, &properties);
  if (result != ZE_RESULT_SUCCESS) {
    PLINTH_CHECK_IN_DESTRUCTOR(zeKernelDestroy(kernel_));
    backend::check(result, "zeKernelGetProperties");
  }
  if (reflected != nullptr && reflected->size() == properties.numKernelArgs)
    parameters_ = *reflected;
  else
    parameters_.assign(properties.numKernelArgs, backend::ParamInfo{});  // unknown, size 0

  std::size_t limit = device_max;
  if (properties.requiredGroupSizeX > 0 && properties.requiredGroupSizeY > 0 &&
      properties.requiredGroupSizeZ > 0)
    limit = std::size_t{properties.requiredGroupSizeX} * properties.requiredGroupSizeY *
            properties.requiredGroupSizeZ;
  else if (properties.maxNumSubgroups > 0 && properties.maxSubgroupSize > 0)
    // What the compiled kernel fits in a group (its SIMD width and register use).
    limit = std::min<std::size_t>(
        limit, std::size_t{properties.maxNumSubgroups} * properties.maxSubgroupSize);
  max_total_local_size_ = std::max<std::size_t>(limit, 1);
}

Kernel::~Kernel() { PLINTH_CHECK_IN_DESTRUCTOR(zeKernelDestroy(kernel_)); }

void Kernel::launch(backend::QueueAdapter& queue, const backend::LaunchShape& shape,
                    std::span<const backend::ArgValue> args) {
  const std::array<std::uint32_t, 3> local{static_cast<std::uint32_t>(shape.local[0]),
                                           static_cast<std::uint32_t>(shape.local[1]),
                                           static_cast<std::uint32_t>(shape.local[2])};
  if (local != group_size_) {
    PLINTH_CHECK(zeKernelSetGroupSize(kernel_, local[0], local[1], local[2]));
    group_size_ = local;
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const ze_result_t result = zeKernelSetArgumentValue(kernel_, static_cast<std::uint32_t>(i),
                                                        args[i].size, args[i].data);
    if (result != ZE_RESULT_SUCCESS) [[unlikely]]
      throw_arg_error(result, i);
  }
  if (shape.local_mem > 0) {
    // The trailing LOCAL_MEM_DYNAMIC parameter: a size and no data (the core checked at
    // prepare time that there is one, and passed the arguments before it).
    const auto index = args.size();
    const ze_result_t result = zeKernelSetArgumentValue(kernel_, static_cast<std::uint32_t>(index),
                                                        shape.local_mem, nullptr);
    if (result != ZE_RESULT_SUCCESS) [[unlikely]]
      throw_arg_error(result, index);
  }
  const ze_group_count_t groups{static_cast<std::uint32_t>(shape.global[0] / shape.local[0]),
                                static_cast<std::uint32_t>(shape.global[1] / shape.local[1]),
                                static_cast<std::uint32_t>(shape.global[2] / shape.local[2])};
  auto& target = static_cast<Queue&>(queue);
  target.order();
  PLINTH_CHECK(
      zeCommandListAppendLaunchKernel(target.list(), kernel_, &groups, nullptr, 0, nullptr));
}

void Kernel::throw_arg_error(ze_result_t result, std::size_t index) const {
  std::string detail = "kernel '" + name_ + "', argument " + std::to_string(index);
  if (index < parameters_.size() && !parameters_[index].name.empty())
    detail += " (" + parameters_[index].type_name + " " + parameters_[index].name + ")";
  throw BackendError("Level Zero", "zeKernelSetArgumentValue", result, result_name(result), detail);
}

backend::NativeHandle Kernel::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(kernel_);
}

}  // namespace plinth::level_zero
