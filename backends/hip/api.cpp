#include "api.hpp"

#include "compiler.hpp"
#include "context.hpp"
#include "device.hpp"
#include "error.hpp"
#include "gl_interop.hpp"
#include "platform.hpp"
#include "prelude.hpp"
#include "targets.hpp"

#include <plinth/backend/vendor_library.hpp>
#include <plinth/errors.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace plinth::hip {

std::unique_ptr<backend::ApiAdapter> create_api() { return std::make_unique<Api>(); }

void Api::initialize() {
  int version = 0;
  PLINTH_CHECK(hipRuntimeGetVersion(&version));  // the library's own; needs no device
  runtime_version_ = hip_version_string(version);
  // hipGetDeviceCount starts the runtime. Without an AMD GPU (no /dev/kfd, or no device
  // behind it) it fails, with hipErrorNoDevice on ROCm 5.2: zero devices, and the reason.
  int count = 0;
  const hipError_t result = hipGetDeviceCount(&count);
  if (result != hipSuccess) {
    no_devices_reason_ = "hipGetDeviceCount: " + error_text(result);
    return;
  }
  device_count_ = static_cast<std::size_t>(count);
  if (device_count_ == 0) no_devices_reason_ = "hipGetDeviceCount: 0 devices";
}

std::unique_ptr<backend::PlatformAdapter> Api::platform(std::size_t /*index*/) const {
  return std::make_unique<Platform>(device_count_, runtime_version_);
}

std::unique_ptr<backend::ContextAdapter> Api::create_context(
    std::span<const backend::DeviceAdapter* const> devices) {
  auto state = std::make_shared<ContextState>();
  for (const auto* adapter : devices) state->add(static_cast<const Device&>(*adapter).device());
  return std::make_unique<Context>(std::move(state));
}

std::unique_ptr<backend::ContextAdapter> Api::wrap_context(
    backend::NativeHandle context, std::span<const backend::DeviceAdapter* const> devices,
    bool /*take_ownership*/) {
  if (devices.size() != 1)
    throw LogicError("a HIP context (a device ordinal) covers exactly one device; got " +
                     std::to_string(devices.size()));
  const int device = static_cast<const Device&>(*devices[0]).device();
  if (context != static_cast<backend::NativeHandle>(device))
    throw LogicError("the HIP context " + std::to_string(context) + " is not device " +
                     std::to_string(device) + " (HIP contexts are device ordinals)");
  auto state = std::make_shared<ContextState>();
  state->add(device);
  return std::make_unique<Context>(std::move(state));
}

std::unique_ptr<backend::ContextAdapter> Api::create_gl_context(
    std::span<const backend::DeviceAdapter* const> devices, const GlContext& gl) {
  if (gl.display == nullptr || gl.context == nullptr)
    throw LogicError(std::string("the GL context's ") +
                     (gl.display == nullptr ? "display" : "context") +
                     " handle is null: a context shares with a GL context that exists and is "
                     "current on this thread");
  std::vector<int> requested;
  requested.reserve(devices.size());
  for (const auto* adapter : devices)
    requested.push_back(static_cast<const Device&>(*adapter).device());
  if (const GlSharing sharing = query_gl_sharing(); !sharing.available)
    throw LogicError(sharing.reason);
  constexpr unsigned int capacity = 64;
  std::array<int, capacity> listed{};
  unsigned int count = 0;
  const hipError_t result =
      gl_calls().hipGLGetDevices(&count, listed.data(), capacity, hipGLDeviceListAll);
  if (result != hipSuccess) (void)hipGetLastError();  // not the caller's error to see later
  const std::string problem = gl_device_problem(
      requested, result, std::span<const int>(listed.data(), std::min(count, capacity)));
  if (!problem.empty()) throw LogicError(problem);
  return create_context(devices);  // HIP's GL interop needs no special context
}

std::string Api::prelude(bool fast_math) const { return hip::prelude(fast_math); }

std::vector<backend::CompileTarget> Api::compile_targets() const { return hip::compile_targets(); }

void Api::target_features(std::string_view target, DeviceFeatures& features) const {
  features = hip::target_features(processor_of(target));
}

backend::TargetBinary Api::compile_for_target(std::string_view target,
                                              const backend::ProgramInput& input,
                                              const backend::BuildOptions& options) const {
  if (input.kind != backend::ProgramInputKind::source)
    throw LogicError("HIP compiles for a named target from source only");
  // compile() checks the target again; checking here first keeps the keep directory clean.
  if (const auto problem = target_problem(target)) throw LogicError(*problem);
  const std::string source = full_source(input, options);
  if (options.keep != nullptr) options.keep->write_text("program.hip", source);
  CodeObject object = compile(source, target, options, std::string(target));
  return {std::move(object.code), std::move(object.log)};
}

backend::BlasLibrary Api::blas_library() const {
  try {
    std::string why;
    const auto opened = backend::VendorLibrary::open("libhipblas.so.2", why);
    return {false, (opened ? std::string("libhipblas.so.2 is installed, but") : why + "; and") +
                       " plinth's HIP backend has no hipBLAS adapter yet: products run on "
                       "plinth's kernels"};
  } catch (...) {  // std::bad_alloc: must not throw
    return {false, "plinth's HIP backend has no hipBLAS adapter yet"};
  }
}

}  // namespace plinth::hip
