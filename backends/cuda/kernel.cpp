#include "kernel.hpp"

#include "context.hpp"
#include "driver.hpp"
#include "program.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <array>
#include <string>

namespace plinth::cuda {

Kernel::Kernel(std::shared_ptr<const Modules> modules, CUfunction function)
    : modules_(std::move(modules)), function_(function) {
  // The driver knows each parameter's size but not its type: a pointer and a 64-bit scalar
  // look alike, so every parameter is `unknown` with its size, which the core checks.
  for (std::size_t index = 0;; ++index) {
    std::size_t offset = 0;
    std::size_t size = 0;
    const CUresult result = driver().cuFuncGetParamInfo(function_, index, &offset, &size);
    if (result == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
    plinth::backend::check(result, "cuFuncGetParamInfo");
    parameters_.push_back({backend::ParamKind::unknown, size, {}, {}});
  }
  if (parameters_.size() > stack_args) pointers_.resize(parameters_.size());

  int value = 0;
  CU_CHECK(cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function_));
  max_total_local_size_ = static_cast<std::size_t>(value);
  CU_CHECK(cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, function_));
  dynamic_local_limit_ = static_cast<std::size_t>(value);
}

void Kernel::launch(backend::QueueAdapter& queue, const backend::LaunchShape& shape,
                    std::span<const backend::ArgValue> args) {
  auto& target = static_cast<Queue&>(queue);
  std::array<void*, stack_args> on_stack;
  void** pointers = on_stack.data();
  if (args.size() > on_stack.size()) {
    if (args.size() > pointers_.size())
      throw LogicError("CUDA kernel launched with " + std::to_string(args.size()) +
                       " arguments; it has " + std::to_string(parameters_.size()));
    pointers = pointers_.data();
  }
  // cuLaunchKernel reads each argument through a pointer and copies it before returning.
  for (std::size_t i = 0; i < args.size(); ++i) pointers[i] = const_cast<void*>(args[i].data);

  ScopedContext current(target.context());
  if (shape.local_mem > dynamic_local_limit_) {
    // Beyond 48 KiB a kernel must opt in; done once per size increase, not per launch.
    CU_CHECK(cuFuncSetAttribute(function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                static_cast<int>(shape.local_mem)));
    dynamic_local_limit_ = shape.local_mem;
  }
  auto groups = [&](unsigned d) { return static_cast<unsigned>(shape.global[d] / shape.local[d]); };
  auto local = [&](unsigned d) { return static_cast<unsigned>(shape.local[d]); };
  CU_CHECK(cuLaunchKernel(function_, groups(0), groups(1), groups(2), local(0), local(1), local(2),
                          static_cast<unsigned>(shape.local_mem), target.stream(), pointers,
                          nullptr));
}

backend::NativeHandle Kernel::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(function_);
}

}  // namespace plinth::cuda
