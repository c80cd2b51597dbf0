#include "program.hpp"

#include "buffer.hpp"
#include "context.hpp"
#include "error.hpp"
#include "kernel.hpp"
#include "prelude.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <utility>

namespace plinth::cuda {

namespace {

// A compiled image: a CUBIN for sm_XY, or PTX (null-terminated) for compute_XY.
struct Image {
  int arch = 0;
  bool ptx = false;
  std::vector<char> data;
  std::vector<std::string> options;  // NVRTC's, for error messages
};

struct NvrtcProgram {
  nvrtcProgram handle = nullptr;
  ~NvrtcProgram() {
    if (handle) nvrtcDestroyProgram(&handle);
  }
};

void write_file(const std::filesystem::path& path, const char* data, std::size_t size) {
  std::ofstream file(path, std::ios::binary);
  file.write(data, static_cast<std::streamsize>(size));
  if (!file) throw Error("CUDA: cannot write " + path.string());
}

std::string arch_name(const Image& image) {
  return (image.ptx ? "compute_" : "sm_") + std::to_string(image.arch);
}

// The CUBIN target when NVRTC knows the device's architecture; otherwise PTX for the newest
// architecture NVRTC knows that the device can run, for the driver to JIT.
Image pick_target(const DeviceContext& device, const std::string& source,
                  const std::vector<std::string>& options) {
  int count = 0;
  PLINTH_CHECK(nvrtcGetNumSupportedArchs(&count));
  std::vector<int> archs(static_cast<std::size_t>(count));
  PLINTH_CHECK(nvrtcGetSupportedArchs(archs.data()));
  const int arch = device.cc_major * 10 + device.cc_minor;
  if (std::find(archs.begin(), archs.end(), arch) != archs.end()) return {arch, false, {}, {}};
  int best = 0;
  for (int known : archs)
    if (known <= arch) best = std::max(best, known);
  if (best == 0)
    throw CompileError(
        "NVRTC cannot compile for sm_" + std::to_string(arch) + " or any older architecture",
        options, source, device.name);
  return {best, true, {}, {}};
}

Image compile(const std::string& source, const DeviceContext& device,
              const backend::BuildOptions& build, const std::filesystem::path& keep) {
  std::vector<std::string> options{"--std=c++17"};
  Image image = pick_target(device, source, options);
  options.push_back("--gpu-architecture=" + arch_name(image));
  if (build.fast_math) options.emplace_back("-use_fast_math");
  options.insert(options.end(), build.compiler_options.begin(), build.compiler_options.end());
  std::vector<const char*> pointers;
  for (const auto& option : options) pointers.push_back(option.c_str());

  NvrtcProgram program;
  PLINTH_CHECK(
      nvrtcCreateProgram(&program.handle, source.c_str(), "program.cu", 0, nullptr, nullptr));
  const nvrtcResult result =
      nvrtcCompileProgram(program.handle, static_cast<int>(pointers.size()), pointers.data());
  std::size_t log_size = 0;
  PLINTH_CHECK(nvrtcGetProgramLogSize(program.handle, &log_size));
  std::string log(log_size, '\0');
  PLINTH_CHECK(nvrtcGetProgramLog(program.handle, log.data()));
  while (!log.empty() && log.back() == '\0') log.pop_back();
  const std::string stem = "program_" + arch_name(image);
  if (!keep.empty()) write_file(keep / (stem + ".log"), log.data(), log.size());
  if (result == NVRTC_ERROR_COMPILATION) throw CompileError(log, options, source, device.name);
  plinth::backend::check(result, "nvrtcCompileProgram");

  std::size_t size = 0;
  if (image.ptx) {
    PLINTH_CHECK(nvrtcGetPTXSize(program.handle, &size));
    image.data.resize(size);
    PLINTH_CHECK(nvrtcGetPTX(program.handle, image.data.data()));
  } else {
    PLINTH_CHECK(nvrtcGetCUBINSize(program.handle, &size));
    image.data.resize(size);
    PLINTH_CHECK(nvrtcGetCUBIN(program.handle, image.data.data()));
  }
  image.options = std::move(options);
  if (!keep.empty())
    write_file(keep / (stem + (image.ptx ? ".ptx" : ".cubin")), image.data.data(),
               image.data.size());
  return image;
}

// `__constant__ <ctype> <name>[<length>];` for each constant array, after the prelude when
// the source starts with it (so that the prelude's types can be used), else first.
std::string with_constant_arrays(const std::string& source, const backend::BuildOptions& build) {
  if (build.constant_arrays.empty()) return source;
  std::string declarations;
  for (const auto& array : build.constant_arrays)
    declarations += "__constant__ " + array.ctype + " " + array.name + "[" +
                    std::to_string(array.length) + "];\n";
  const std::string preamble = prelude(build.fast_math);
  const std::size_t at = source.starts_with(preamble) ? preamble.size() : 0;
  return source.substr(0, at) + declarations + source.substr(at);
}

CUmodule load(const Image& image, const std::string& source, const DeviceContext& device) {
  ScopedContext current(device.context);
  CUmodule module = nullptr;
  if (!image.ptx) {
    PLINTH_CHECK(cuModuleLoadData(&module, image.data.data()));
    return module;
  }
  std::array<char, 8192> log{};
  std::array<CUjit_option, 2> keys{CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  std::array<void*, 2> values{log.data(), reinterpret_cast<void*>(log.size())};
  const CUresult result =
      cuModuleLoadDataEx(&module, image.data.data(), 2, keys.data(), values.data());
  if (result == CUDA_ERROR_INVALID_PTX || result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    throw CompileError(
        std::string("driver JIT of ") + arch_name(image) + " PTX failed:\n" + log.data(),
        image.options, source, device.name);
  plinth::backend::check(result, "cuModuleLoadDataEx");
  return module;
}

}  // namespace

Modules::~Modules() {
  for (std::size_t i = 0; i < modules.size(); ++i) {
    ScopedContext current((*state)[devices[i]].context, std::nothrow);
    PLINTH_CHECK_IN_DESTRUCTOR(cuModuleUnload(modules[i]));
  }
}

Program::Program(std::shared_ptr<ContextState> state, std::span<const std::size_t> devices,
                 const std::string& source, const backend::BuildOptions& options)
    : modules_(std::make_shared<Modules>()) {
  modules_->state = std::move(state);
  modules_->devices.assign(devices.begin(), devices.end());
  const ContextState& context = *modules_->state;
  const std::string full_source = with_constant_arrays(source, options);
  if (!options.keep_dir.empty())
    write_file(options.keep_dir / "program.cu", full_source.data(), full_source.size());

  std::vector<std::pair<int, Image>> images;  // by compute capability
  for (std::size_t index : devices) {
    const DeviceContext& device = context[index];
    const int capability = device.cc_major * 10 + device.cc_minor;
    auto image = std::find_if(images.begin(), images.end(),
                              [&](const auto& entry) { return entry.first == capability; });
    if (image == images.end()) {
      images.emplace_back(capability, compile(full_source, device, options, options.keep_dir));
      image = images.end() - 1;
    }
    modules_->modules.push_back(load(image->second, full_source, device));
  }
}

std::unique_ptr<backend::KernelAdapter> Program::create_kernel(std::size_t device,
                                                               const std::string& name) {
  ScopedContext current((*modules_->state)[modules_->devices[device]].context);
  CUfunction function = nullptr;
  const CUresult result = cuModuleGetFunction(&function, modules_->modules[device], name.c_str());
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
      cuModuleGetGlobal(&symbol, &symbol_size, modules_->modules[device], name.c_str());
  if (result == CUDA_ERROR_NOT_FOUND)
    throw LogicError("program has no constant array '" + name + "'");
  plinth::backend::check(result, "cuModuleGetGlobal");
  if (symbol_size != size)
    throw LogicError("constant array '" + name + "' has " + std::to_string(symbol_size) +
                     " bytes; got " + std::to_string(size));
  PLINTH_CHECK(cuMemcpyDtoDAsync(symbol, device_pointer(src), size, target.stream()));
}

backend::NativeHandle Program::native_handle(std::size_t device) const {
  return reinterpret_cast<backend::NativeHandle>(modules_->modules[device]);
}

}  // namespace plinth::cuda
