#include "api.hpp"

#include "context.hpp"
#include "cublas.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "gl_interop.hpp"
#include "nccl.hpp"
#include "platform.hpp"
#include "prelude.hpp"
#include "program.hpp"

#include <plinth/errors.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace plinth::cuda {

namespace {

// "13.0" from cuDriverGetVersion's 13000.
std::string version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// "cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)": the driver's words.
std::string failure(const char* function, CUresult result) {
  const auto error = backend::VendorResult<CUresult>::describe(result);
  return std::string(function) + ": " + error.name + " (" + error.description + ")";
}

// A typical device of compute capability arch / 10 . arch % 10, for rendering templates for
// a target (CompileTarget::params): the limits every architecture NVRTC knows shares, as the
// backend's devices report them (Device::parameters()).
DeviceParameters nominal_parameters(int arch) {
  DeviceParameters params;
  params.type = DeviceType::gpu;
  params.local_mem_banks = 32;
  params.local_mem_size = std::size_t{48} << 10;  // a block's without opting in
  params.max_local_sizes = {1024, 1024, 64};
  params.max_num_groups = {2147483647, 65535, 65535};
  params.max_total_local_size = 1024;
  params.warp_size = 32;
  params.address_alignment = 256;
  params.supports_double = true;
  params.compute_capability = std::to_string(arch / 10) + "." + std::to_string(arch % 10);
  return params;
}

// The architecture of a target name "sm_XY" or "compute_XY"; arch 0 for anything else.
NvrtcTarget parse_target(std::string_view name) {
  NvrtcTarget target;
  std::string_view digits;
  if (name.starts_with("sm_")) {
    digits = name.substr(3);
  } else if (name.starts_with("compute_")) {
    digits = name.substr(8);
    target.ptx = true;
  }
  if (digits.empty() || digits.size() > 4) return {};
  for (char c : digits) {
    if (c < '0' || c > '9') return {};
    target.arch = target.arch * 10 + (c - '0');
  }
  return target;
}

// "device 0", "devices 0, 2", "no device": CUDA device ordinals for a message.
std::string device_list(std::span<const CUdevice> devices) {
  if (devices.empty()) return "no device";
  std::string text = devices.size() == 1 ? "device " : "devices ";
  for (std::size_t i = 0; i < devices.size(); ++i)
    text += (i == 0 ? "" : ", ") + std::to_string(devices[i]);
  return text;
}

// Throws LogicError unless the GL context current on this thread runs on every one of
// `requested` (cuGLGetDevices, every device the GL context uses).
void check_gl_devices(std::span<const CUdevice> requested) {
  constexpr unsigned int capacity = 64;
  std::array<CUdevice, capacity> listed{};
  unsigned int count = 0;
  const CUresult result =
      driver().cuGLGetDevices_v2(&count, listed.data(), capacity, gl::device_list_all);
  if (result == CUDA_ERROR_INVALID_GRAPHICS_CONTEXT || result == CUDA_ERROR_INVALID_CONTEXT)
    throw LogicError("no GL context is current on this thread (" +
                     failure("cuGLGetDevices", result) +
                     "): make the GL context current before making a context that shares with it");
  if (result == CUDA_ERROR_NO_DEVICE)
    throw LogicError("the GL context current on this thread runs on no CUDA device (" +
                     failure("cuGLGetDevices", result) +
                     "): its renderer is another vendor's GPU or a software one");
  if (result != CUDA_SUCCESS)
    throw LogicError("the CUDA devices of the GL context current on this thread are unknown (" +
                     failure("cuGLGetDevices", result) + ")");
  const std::span<const CUdevice> runs_on(listed.data(), std::min(count, capacity));
  std::vector<CUdevice> missing;
  for (const CUdevice device : requested)
    if (std::find(runs_on.begin(), runs_on.end(), device) == runs_on.end())
      missing.push_back(device);
  if (!missing.empty())
    throw LogicError("the GL context current on this thread does not run on CUDA " +
                     device_list(missing) + " (cuGLGetDevices lists " + device_list(runs_on) + ")");
}

}  // namespace

std::unique_ptr<backend::ApiAdapter> create_api() { return std::make_unique<Api>(); }

void Api::initialize() {
  // Without a usable driver the plugin still compiles for named targets: no platform, and
  // the reason for the core to show.
  if (const std::string& problem = load_driver(); !problem.empty()) {
    no_devices_reason_ = problem;
    return;
  }
  if (const CUresult result = driver().cuDriverGetVersion(&driver_version_);  // needs no cuInit
      result != CUDA_SUCCESS) {
    no_devices_reason_ = failure("cuDriverGetVersion", result);
    return;
  }
  driver_loaded_ = true;
  // CUDA_ERROR_NO_DEVICE where there are none; other failures (a driver that does not match
  // the kernel module, ...) leave no devices either.
  if (const CUresult result = driver().cuInit(0); result != CUDA_SUCCESS) {
    no_devices_reason_ = failure("cuInit", result);
    return;
  }
  int count = 0;
  CU_CHECK(cuDeviceGetCount(&count));
  device_count_ = static_cast<std::size_t>(count);
}

std::vector<backend::CompileTarget> Api::compile_targets() const {
  std::vector<backend::CompileTarget> targets;
  for (int arch : nvrtc_archs()) {
    const std::string capability = std::to_string(arch / 10) + "." + std::to_string(arch % 10);
    targets.push_back({target_name({arch, false}), "cubin for compute capability " + capability,
                       "cubin", nominal_parameters(arch)});
    targets.push_back({target_name({arch, true}), "PTX for compute capability " + capability, "ptx",
                       nominal_parameters(arch)});
  }
  return targets;
}

backend::TargetBinary Api::compile_for_target(std::string_view target,
                                              const backend::ProgramInput& input,
                                              const backend::BuildOptions& options) const {
  const NvrtcTarget nvrtc = parse_target(target);
  const auto& archs = nvrtc_archs();
  if (std::find(archs.begin(), archs.end(), nvrtc.arch) == archs.end())
    throw LogicError("NVRTC cannot compile for '" + std::string(target) + "'");
  if (input.kind != backend::ProgramInputKind::source)
    throw LogicError("CUDA compiles for a named target from source only");
  const std::string source = full_source(input, options);  // and program.cu, with keep
  CompiledImage image = compile(source, nvrtc, options, std::string(target));
  if (nvrtc.ptx)  // text, as a .ptx file holds it
    while (!image.data.empty() && image.data.back() == '\0') image.data.pop_back();
  const auto bytes = std::as_bytes(std::span(image.data));
  return {{bytes.begin(), bytes.end()}, std::move(image.log)};
}

void Api::target_features(std::string_view target, DeviceFeatures& features) const {
  const NvrtcTarget nvrtc = parse_target(target);
  if (nvrtc.arch != 0) features = nominal_features(nvrtc.arch);
}

std::unique_ptr<backend::PlatformAdapter> Api::platform(std::size_t /*index*/) const {
  return std::make_unique<Platform>(device_count_, version_string(driver_version_));
}

std::unique_ptr<backend::ContextAdapter> Api::create_context(
    std::span<const backend::DeviceAdapter* const> devices) {
  // Primary contexts: the ones the CUDA runtime and vendor libraries use too.
  auto state = std::make_shared<ContextState>(ContextState::Ownership::primary);
  for (const auto* adapter : devices) {
    const CUdevice device = static_cast<const Device&>(*adapter).device();
    CUcontext context = nullptr;
    CU_CHECK(cuDevicePrimaryCtxRetain(&context, device));
    state->add(device, context);
  }
  return std::make_unique<Context>(std::move(state));
}

std::unique_ptr<backend::ContextAdapter> Api::wrap_context(
    backend::NativeHandle context, std::span<const backend::DeviceAdapter* const> devices,
    bool take_ownership) {
  if (devices.size() != 1)
    throw LogicError("a CUDA context covers exactly one device; got " +
                     std::to_string(devices.size()));
  const auto native = reinterpret_cast<CUcontext>(context);
  const CUdevice device = static_cast<const Device&>(*devices[0]).device();
  CUdevice actual = 0;
  CU_CHECK(cuCtxGetDevice_v2(&actual, native));
  if (actual != device)
    throw LogicError("the CUDA context belongs to device " + std::to_string(actual) +
                     ", not device " + std::to_string(device));
  auto state = std::make_shared<ContextState>(take_ownership ? ContextState::Ownership::owned
                                                             : ContextState::Ownership::borrowed);
  state->add(device, native);
  return std::make_unique<Context>(std::move(state));
}

std::unique_ptr<backend::ContextAdapter> Api::create_gl_context(
    std::span<const backend::DeviceAdapter* const> devices, const GlContext& gl) {
  if (gl.display == nullptr || gl.context == nullptr)
    throw LogicError(std::string("the GL context's ") +
                     (gl.display == nullptr ? "display" : "context") +
                     " handle is null: a context shares with a GL context that exists and is "
                     "current on this thread");
  if (const GlSharing sharing = query_gl_sharing(); !sharing.available)
    throw LogicError(sharing.reason);
  std::vector<CUdevice> requested;
  requested.reserve(devices.size());
  for (const auto* adapter : devices)
    requested.push_back(static_cast<const Device&>(*adapter).device());
  check_gl_devices(requested);
  return create_context(devices);  // CUDA's GL interop works in any context of the device
}

std::string Api::prelude(bool fast_math) const { return cuda::prelude(fast_math); }

backend::CollectivesLibrary Api::collectives() const {
  try {
    const nccl::Library& library = nccl::library();
    return {library.available, library.description};
  } catch (...) {  // std::bad_alloc: must not throw
    return {false, "NCCL could not be loaded (out of memory)"};
  }
}

backend::BlasLibrary Api::blas_library() const {
  try {
    const cublas::Library& library = cublas::library();
    return {library.available, library.description};
  } catch (...) {  // std::bad_alloc: must not throw
    return {false, "cuBLAS could not be loaded (out of memory)"};
  }
}

std::vector<std::byte> Api::create_communicator_id() const {
  if (const nccl::Library& library = nccl::library(); !library.available)
    throw LogicError("NCCL is unavailable: " + library.description);
  nccl::UniqueId id{};
  NCCL_CHECK(ncclGetUniqueId(&id));
  std::vector<std::byte> bytes(sizeof(id.internal));
  std::memcpy(bytes.data(), id.internal, bytes.size());
  return bytes;
}

}  // namespace plinth::cuda
