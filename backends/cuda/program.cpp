#include "program.hpp"

#include "buffer.hpp"
#include "context.hpp"
#include "driver.hpp"
#include "kernel.hpp"
#include "prelude.hpp"
#include "queue.hpp"

#include <plinth/backend/binary_image.hpp>
#include <plinth/errors.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

namespace plinth::cuda {

namespace {

struct NvrtcProgram {
  nvrtcProgram handle = nullptr;
  NvrtcProgram() = default;
  ~NvrtcProgram() {
    if (handle) nvrtcDestroyProgram(&handle);
  }
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;
};

// Loads a CUBIN or PTX image into the device's context. `image` ends in a NUL byte, so that
// the driver's reading of PTX text stops inside it whatever the image holds (a binary from
// Program::from_binaries may be anything). A failure to load is the user's CompileError
// (with the driver JIT's log for PTX); other failures are BackendErrors.
CUmodule load(std::span<const char> image, const std::string& what,
              const std::vector<std::string>& options, const std::string& source,
              const DeviceContext& device) {
  ScopedContext current(device.context);
  CUmodule module = nullptr;
  std::array<char, 8192> log{};
  std::array<CUjit_option, 2> keys{CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  std::array<void*, 2> values{log.data(), reinterpret_cast<void*>(log.size())};
  const CUresult result =
      driver().cuModuleLoadDataEx(&module, image.data(), 2, keys.data(), values.data());
  switch (result) {
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_INVALID_SOURCE: {
      const char* name = nullptr;
      if (driver().cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) name = "?";
      throw CompileError("the driver cannot load " + what + " (" + name + ")" +
                             (log[0] != '\0' ? std::string(":\n") + log.data() : std::string()),
                         options, source, device.name);
    }
    default: plinth::backend::check(result, "cuModuleLoadDataEx");
  }
  return module;
}

std::vector<char> terminated(std::span<const std::byte> bytes) {
  std::vector<char> image(bytes.size() + 1, '\0');
  std::memcpy(image.data(), bytes.data(), bytes.size());
  return image;
}

}  // namespace

const std::vector<int>& nvrtc_archs() {
  // Thread-safe: a static's initialisation runs once (again after a throw).
  static const std::vector<int> archs = [] {
    int count = 0;
    PLINTH_CHECK(nvrtcGetNumSupportedArchs(&count));
    std::vector<int> known(static_cast<std::size_t>(count));
    PLINTH_CHECK(nvrtcGetSupportedArchs(known.data()));
    std::sort(known.begin(), known.end());
    return known;
  }();
  return archs;
}

NvrtcTarget nvrtc_target(int capability) {
  const auto& archs = nvrtc_archs();
  // The CUBIN target when NVRTC knows the device's architecture; otherwise PTX for the newest
  // architecture NVRTC knows that the device can run, for the driver to JIT.
  if (std::find(archs.begin(), archs.end(), capability) != archs.end()) return {capability, false};
  int best = 0;
  for (int known : archs)
    if (known <= capability) best = std::max(best, known);
  return {best, true};
}

std::string target_name(NvrtcTarget target) {
  return (target.ptx ? "compute_" : "sm_") + std::to_string(target.arch);
}

std::string full_source(const backend::ProgramInput& input, const backend::BuildOptions& build) {
  std::string source(input.prelude);
  if (!source.empty()) source += '\n';
  for (const auto& array : build.constant_arrays)
    source += "__constant__ " + array.ctype + " " + array.name + "[" +
              std::to_string(array.length) + "];\n";
  source += input.source;
  if (build.keep != nullptr) build.keep->write_text("program.cu", source);
  return source;
}

CompiledImage compile(const std::string& source, NvrtcTarget target,
                      const backend::BuildOptions& build, const std::string& where) {
  CompiledImage image;
  image.target = target;
  image.options = {"--std=c++17", "--gpu-architecture=" + target_name(target)};
  if (build.fast_math) image.options.emplace_back("-use_fast_math");
  image.options.insert(image.options.end(), build.compiler_options.begin(),
                       build.compiler_options.end());
  std::vector<const char*> pointers;
  for (const auto& option : image.options) pointers.push_back(option.c_str());

  NvrtcProgram program;
  PLINTH_CHECK(
      nvrtcCreateProgram(&program.handle, source.c_str(), "program.cu", 0, nullptr, nullptr));
  const nvrtcResult result =
      nvrtcCompileProgram(program.handle, static_cast<int>(pointers.size()), pointers.data());
  std::size_t log_size = 0;
  PLINTH_CHECK(nvrtcGetProgramLogSize(program.handle, &log_size));
  image.log.assign(log_size, '\0');
  PLINTH_CHECK(nvrtcGetProgramLog(program.handle, image.log.data()));
  while (!image.log.empty() && image.log.back() == '\0') image.log.pop_back();
  const std::string stem = "program_" + target_name(target);
  if (build.keep != nullptr) build.keep->write_text(stem + ".log", image.log);
  if (result == NVRTC_ERROR_COMPILATION)
    throw CompileError(image.log, image.options, source, where);
  // A bad option: NVRTC's own result names neither the option nor the log, so the error
  // carries both (the options are part of what CompileError shows).
  if (result == NVRTC_ERROR_INVALID_OPTION)
    throw CompileError(std::string("NVRTC refused an option (NVRTC_ERROR_INVALID_OPTION)") +
                           (image.log.empty() ? "" : ":\n" + image.log),
                       image.options, source, where);
  plinth::backend::check(result, "nvrtcCompileProgram");

  std::size_t size = 0;
  if (target.ptx) {
    PLINTH_CHECK(nvrtcGetPTXSize(program.handle, &size));
    image.data.resize(size);
    PLINTH_CHECK(nvrtcGetPTX(program.handle, image.data.data()));
  } else {
    PLINTH_CHECK(nvrtcGetCUBINSize(program.handle, &size));
    image.data.resize(size);
    PLINTH_CHECK(nvrtcGetCUBIN(program.handle, image.data.data()));
  }
  if (build.keep != nullptr)
    build.keep->write(stem + (target.ptx ? ".ptx" : ".cubin"),
                      std::as_bytes(std::span(image.data)));
  return image;
}

Modules::~Modules() {
  for (std::size_t i = 0; i < modules.size(); ++i) {
    ScopedContext current((*state)[devices[i]].context, std::nothrow);
    CU_CHECK_IN_DESTRUCTOR(cuModuleUnload(modules[i]));
  }
}

Program::Program(std::shared_ptr<ContextState> state, std::span<const std::size_t> devices,
                 const backend::ProgramInput& input, const backend::BuildOptions& options)
    : modules_(std::make_shared<Modules>()) {
  modules_->state = std::move(state);
  modules_->devices.assign(devices.begin(), devices.end());
  const ContextState& context = *modules_->state;

  if (input.kind == backend::ProgramInputKind::binary) {
    for (std::size_t slot = 0; slot < devices.size(); ++slot) {
      const DeviceContext& device = context[devices[slot]];
      // cuModuleLoadData takes no size: check the image's own offsets first.
      if (const auto problem = backend::binary_image_problem(input.binaries[slot]);
          !problem.empty())
        throw CompileError("binary " + std::to_string(slot) + " is " + problem, {}, {},
                           device.name);
      auto image = terminated(input.binaries[slot]);
      modules_->modules.push_back(
          load(image, "binary " + std::to_string(slot), options.compiler_options, {}, device));
      image.pop_back();
      images_.push_back(std::make_shared<const std::vector<char>>(std::move(image)));
    }
    return;
  }
  if (input.kind != backend::ProgramInputKind::source)
    throw LogicError("CUDA creates programs from source or binaries only");
  const std::string source = full_source(input, options);  // and program.cu, with keep

  std::vector<std::pair<int, std::shared_ptr<const std::vector<char>>>> compiled;  // by capability
  for (std::size_t index : devices) {
    const DeviceContext& device = context[index];
    const int capability = device.cc_major * 10 + device.cc_minor;
    auto found = std::find_if(compiled.begin(), compiled.end(),
                              [&](const auto& entry) { return entry.first == capability; });
    if (found == compiled.end()) {
      // The device's own architecture (or PTX for the newest older one NVRTC knows).
      const NvrtcTarget target = nvrtc_target(capability);
      if (target.arch == 0)
        throw CompileError("NVRTC cannot compile for sm_" + std::to_string(capability) +
                               " or any older architecture",
                           {"--std=c++17"}, source, device.name);
      CompiledImage image = compile(source, target, options, device.name);
      // The module is loaded from the image as compiled; PTX comes NUL-terminated from NVRTC.
      modules_->modules.push_back(load(image.data,
                                       target_name(target) + " " + (target.ptx ? "PTX" : "CUBIN"),
                                       image.options, source, device));
      compiled.emplace_back(capability,
                            std::make_shared<const std::vector<char>>(std::move(image.data)));
      images_.push_back(compiled.back().second);
      continue;
    }
    modules_->modules.push_back(load(*found->second, "the program", {}, source, device));
    images_.push_back(found->second);
  }
}

std::vector<std::byte> Program::binary(std::size_t device) const {
  const auto& image = *images_.at(device);
  const auto bytes = std::as_bytes(std::span(image));
  return {bytes.begin(), bytes.end()};
}

std::unique_ptr<backend::KernelAdapter> Program::create_kernel(std::size_t device,
                                                               const std::string& name) {
  ScopedContext current((*modules_->state)[modules_->devices[device]].context);
  CUfunction function = nullptr;
  const CUresult result =
      driver().cuModuleGetFunction(&function, modules_->modules[device], name.c_str());
  if (result == CUDA_ERROR_NOT_FOUND) throw LogicError("program has no kernel '" + name + "'");
  plinth::backend::check(result, "cuModuleGetFunction");
  return std::make_unique<Kernel>(modules_, function);
}

void Program::set_constant_array(std::size_t device, backend::QueueAdapter& queue,
                                 const std::string& name, backend::BufferAdapter& src,
                                 std::size_t size) {
  auto& target = static_cast<Queue&>(queue);
  ScopedContext current(target.context());
  CUdeviceptr symbol = 0;
  std::size_t symbol_size = 0;
  const CUresult result =
      driver().cuModuleGetGlobal(&symbol, &symbol_size, modules_->modules[device], name.c_str());
  if (result == CUDA_ERROR_NOT_FOUND)
    throw LogicError("program has no constant array '" + name + "'");
  plinth::backend::check(result, "cuModuleGetGlobal");
  if (symbol_size != size)
    throw LogicError("constant array '" + name + "' has " + std::to_string(symbol_size) +
                     " bytes; got " + std::to_string(size));
  CU_CHECK(cuMemcpyDtoDAsync(symbol, device_pointer(src), size, target.stream()));
}

backend::NativeHandle Program::native_handle(std::size_t device) const {
  return reinterpret_cast<backend::NativeHandle>(modules_->modules[device]);
}

}  // namespace plinth::cuda
