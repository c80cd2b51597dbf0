#include "kernel.hpp"

#include "context.hpp"
#include "error.hpp"
#include "program.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <array>
#include <string>

namespace plinth::hip {

Kernel::Kernel(std::shared_ptr<const Modules> modules, hipFunction_t function,
               const KernelInfo& info)
    : modules_(std::move(modules)), function_(function), parameters_(info.parameters) {
  if (parameters_.size() > stack_args) pointers_.resize(parameters_.size());
  int value = 0;
  PLINTH_CHECK(hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function_));
  max_total_local_size_ = static_cast<std::size_t>(value);
}

void Kernel::launch(backend::QueueAdapter& queue, const backend::LaunchShape& shape,
                    std::span<const backend::ArgValue> args) {
  auto& target = static_cast<Queue&>(queue);
  std::array<void*, stack_args> on_stack;
  void** pointers = on_stack.data();
  if (args.size() > on_stack.size()) {
    if (args.size() > pointers_.size())
      throw LogicError("HIP kernel launched with " + std::to_string(args.size()) +
                       " arguments; it has " + std::to_string(parameters_.size()));
    pointers = pointers_.data();
  }
  // hipModuleLaunchKernel reads each argument through a pointer (at the offsets and sizes of
  // the kernel's metadata) and copies it before returning.
  for (std::size_t i = 0; i < args.size(); ++i) pointers[i] = const_cast<void*>(args[i].data);

  ScopedDevice current(target.device());
  auto groups = [&](unsigned d) { return static_cast<unsigned>(shape.global[d] / shape.local[d]); };
  auto local = [&](unsigned d) { return static_cast<unsigned>(shape.local[d]); };
  PLINTH_CHECK(hipModuleLaunchKernel(function_, groups(0), groups(1), groups(2), local(0), local(1),
                                     local(2), static_cast<unsigned>(shape.local_mem),
                                     target.stream(), pointers, nullptr));
}

backend::NativeHandle Kernel::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(function_);
}

}  // namespace plinth::hip
