#include "program.hpp"

#include "buffer.hpp"
#include "compiler.hpp"
#include "context.hpp"
#include "error.hpp"
#include "kernel.hpp"
#include "queue.hpp"
#include "targets.hpp"

#include <plinth/backend/binary_image.hpp>
#include <plinth/errors.hpp>

#include <algorithm>
#include <utility>

namespace plinth::hip {

namespace {

// A code object and the kernels its metadata lists, shared between the devices of one
// architecture.
struct CodeImage {
  std::shared_ptr<const std::vector<std::byte>> code;
  std::shared_ptr<const std::vector<KernelInfo>> kernels;
};

// Loads `code` (checked already) on `device`. A failure to load is the user's CompileError;
// other failures are BackendErrors.
hipModule_t load(const std::vector<std::byte>& code, const std::string& what,
                 const std::vector<std::string>& options, const std::string& source,
                 const DeviceEntry& device) {
  ScopedDevice current(device.device);
  hipModule_t module = nullptr;
  const hipError_t result = hipModuleLoadData(&module, code.data());
  switch (result) {
    case hipErrorInvalidImage:
    case hipErrorInvalidKernelFile:
    case hipErrorNoBinaryForGpu:
    case hipErrorSharedObjectInitFailed:
    case hipErrorInvalidSource:
      throw CompileError(
          "HIP cannot load " + what + " on " + device.arch + " (" + error_text(result) + ")",
          options, source, device.name);
    default: plinth::backend::check(result, "hipModuleLoadData");
  }
  return module;
}

// The kernels of a code object; CompileError if its metadata cannot be read.
std::shared_ptr<const std::vector<KernelInfo>> kernels_of(const std::vector<std::byte>& code,
                                                          const std::string& what,
                                                          const DeviceEntry& device) {
  try {
    return std::make_shared<const std::vector<KernelInfo>>(read_kernels(code));
  } catch (const Error& e) {
    throw CompileError(what + " has no readable kernel metadata: " + e.what(), {}, {}, device.name);
  }
}

}  // namespace

Modules::~Modules() {
  for (std::size_t i = 0; i < modules.size(); ++i) {
    ScopedDevice current((*state)[devices[i]].device, std::nothrow);
    PLINTH_CHECK_IN_DESTRUCTOR(hipModuleUnload(modules[i]));
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
      const DeviceEntry& device = context[devices[slot]];
      const auto bytes = input.binaries[slot];
      const std::string what = "binary " + std::to_string(slot);
      // hipModuleLoadData takes no size: check the image's own offsets first.
      std::string problem = code_object_problem(bytes);
      if (problem.empty()) problem = backend::binary_image_problem(bytes);
      if (!problem.empty()) throw CompileError(what + " is " + problem, {}, {}, device.name);
      auto code = std::make_shared<const std::vector<std::byte>>(bytes.begin(), bytes.end());
      modules_->kernels.push_back(kernels_of(*code, what, device));
      modules_->modules.push_back(load(*code, what, options.compiler_options, {}, device));
      images_.push_back(std::move(code));
    }
    return;
  }
  if (input.kind != backend::ProgramInputKind::source)
    throw LogicError("HIP creates programs from source or binaries only");
  const std::string source = full_source(input, options);
  if (options.keep != nullptr) options.keep->write_text("program.hip", source);

  std::vector<std::pair<std::string, CodeImage>> compiled;  // by target ID
  for (std::size_t index : devices) {
    const DeviceEntry& device = context[index];
    auto found = std::find_if(compiled.begin(), compiled.end(),
                              [&](const auto& entry) { return entry.first == device.arch; });
    if (found == compiled.end()) {
      // A device whose architecture this installation's compiler does not know is the build's
      // failure, not a misuse (compile() would say LogicError).
      if (const auto problem = target_problem(device.arch))
        throw CompileError(*problem, {}, source, device.name);
      CodeObject object = compile(source, device.arch, options, device.name);
      CodeImage image{std::make_shared<const std::vector<std::byte>>(std::move(object.code)), {}};
      image.kernels = kernels_of(*image.code, "the code object for " + device.arch, device);
      modules_->modules.push_back(
          load(*image.code, "the code object for " + device.arch, object.options, source, device));
      compiled.emplace_back(device.arch, std::move(image));
      found = std::prev(compiled.end());
    } else {
      modules_->modules.push_back(load(*found->second.code, "the program", {}, source, device));
    }
    modules_->kernels.push_back(found->second.kernels);
    images_.push_back(found->second.code);
  }
}

std::vector<std::byte> Program::binary(std::size_t device) const { return *images_.at(device); }

std::unique_ptr<backend::KernelAdapter> Program::create_kernel(std::size_t device,
                                                               const std::string& name) {
  const auto& kernels = *modules_->kernels[device];
  const auto info = std::find_if(kernels.begin(), kernels.end(),
                                 [&](const KernelInfo& kernel) { return kernel.name == name; });
  if (info == kernels.end()) throw LogicError("program has no kernel '" + name + "'");
  ScopedDevice current((*modules_->state)[modules_->devices[device]].device);
  hipFunction_t function = nullptr;
  const hipError_t result =
      hipModuleGetFunction(&function, modules_->modules[device], name.c_str());
  if (result == hipErrorNotFound) throw LogicError("program has no kernel '" + name + "'");
  plinth::backend::check(result, "hipModuleGetFunction");
  return std::make_unique<Kernel>(modules_, function, *info);
}

void Program::set_constant_array(std::size_t device, backend::QueueAdapter& queue,
                                 const std::string& name, backend::BufferAdapter& src,
                                 std::size_t size) {
  auto& target = static_cast<Queue&>(queue);
  ScopedDevice current(target.device());
  hipDeviceptr_t symbol = nullptr;
  std::size_t symbol_size = 0;
  const hipError_t result =
      hipModuleGetGlobal(&symbol, &symbol_size, modules_->modules[device], name.c_str());
  if (result == hipErrorNotFound) throw LogicError("program has no constant array '" + name + "'");
  plinth::backend::check(result, "hipModuleGetGlobal");
  if (symbol_size != size)
    throw LogicError("constant array '" + name + "' has " + std::to_string(symbol_size) +
                     " bytes; got " + std::to_string(size));
  PLINTH_CHECK(hipMemcpyDtoDAsync(symbol, device_pointer(src), size, target.stream()));
}

backend::NativeHandle Program::native_handle(std::size_t device) const {
  return reinterpret_cast<backend::NativeHandle>(modules_->modules[device]);
}

}  // namespace plinth::hip
