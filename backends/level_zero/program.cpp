#include "program.hpp"

#include "context.hpp"
#include "error.hpp"
#include "kernel.hpp"
#include "spirv_compiler.hpp"

#include <plinth/errors.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace plinth::level_zero {

namespace {

constexpr std::uint32_t spirv_magic = 0x07230203;

// Why `bytes` is not a SPIR-V module (a whole number of words, a header, the magic number in
// either byte order), or "" when it looks like one.
std::string spirv_problem(std::span<const std::byte> bytes) {
  if (bytes.size() < 20 || bytes.size() % 4 != 0)
    return "is not a SPIR-V module (" + std::to_string(bytes.size()) +
           " bytes: not a whole number of 32-bit words with a 5-word header)";
  std::uint32_t first = 0;
  std::memcpy(&first, bytes.data(), sizeof(first));
  const std::uint32_t swapped =
      ((first & 0xff) << 24) | ((first & 0xff00) << 8) | ((first >> 8) & 0xff00) | (first >> 24);
  if (first != spirv_magic && swapped != spirv_magic)
    return "is not a SPIR-V module (no SPIR-V magic number 0x07230203)";
  return {};
}

std::string join(const std::vector<std::string>& parts) {
  std::string result;
  for (const auto& part : parts) {
    if (!result.empty()) result += ' ';
    result += part;
  }
  return result;
}

// The driver's build log, destroying it.
std::string take_log(ze_module_build_log_handle_t log) {
  if (log == nullptr) return {};
  std::size_t size = 0;
  std::string text;
  if (zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS && size > 0) {
    text.assign(size, '\0');
    if (zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS) text.clear();
  }
  while (!text.empty() && text.back() == '\0') text.pop_back();
  PLINTH_CHECK_IN_DESTRUCTOR(zeModuleBuildLogDestroy(log));
  return text;
}

// Builds `spirv` for `device`. A module the driver refuses is a CompileError with its log.
ze_module_handle_t build(const ContextState& state, const DeviceEntry& device,
                         std::span<const std::byte> spirv, const std::vector<std::string>& flags,
                         const std::string& source) {
  const std::string flag_text = join(flags);
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        spirv.size(),
                        reinterpret_cast<const std::uint8_t*>(spirv.data()),
                        flag_text.c_str(),
                        nullptr};
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  const ze_result_t result = zeModuleCreate(state.context(), device.device, &desc, &module, &log);
  std::string text = take_log(log);
  switch (result) {
    case ZE_RESULT_SUCCESS: return module;
    case ZE_RESULT_ERROR_MODULE_BUILD_FAILURE:
    case ZE_RESULT_ERROR_MODULE_LINK_FAILURE:
    case ZE_RESULT_ERROR_INVALID_NATIVE_BINARY:
    case ZE_RESULT_ERROR_INVALID_ARGUMENT:
    case ZE_RESULT_ERROR_UNSUPPORTED_VERSION:
    case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
      if (module != nullptr) PLINTH_CHECK_IN_DESTRUCTOR(zeModuleDestroy(module));
      throw CompileError("Level Zero could not build the SPIR-V module (zeModuleCreate: " +
                             result_text(result) + ")" + (text.empty() ? "" : ":\n" + text),
                         flags, source, device.name);
    default: backend::check(result, "zeModuleCreate");
  }
  return module;
}

}  // namespace

Modules::~Modules() {
  for (ze_module_handle_t module : modules) PLINTH_CHECK_IN_DESTRUCTOR(zeModuleDestroy(module));
}

Program::Program(std::shared_ptr<ContextState> state, std::span<const std::size_t> devices,
                 const backend::ProgramInput& input, const backend::BuildOptions& options)
    : modules_(std::make_shared<Modules>()) {
  modules_->state = std::move(state);
  modules_->devices.assign(devices.begin(), devices.end());
  const ContextState& context = *modules_->state;
  std::string source;
  // Options for the driver's compiler (IGC): fast math again, since it optimises the SPIR-V;
  // for a user's SPIR-V module, the compiler options too (as OpenCL's clBuildProgram takes them).
  std::vector<std::string> flags;
  if (options.fast_math) flags.emplace_back("-cl-fast-relaxed-math");

  switch (input.kind) {
    case backend::ProgramInputKind::source: {
      source = translation_unit(input, options);  // LogicError for constant arrays
      bool int64_atomics = true;
      for (const auto device : devices)
        int64_atomics = int64_atomics && context[device].int64_atomics;
      SpirvModule module = compile_to_spirv(source, options, device_dialect_flags(int64_atomics));
      auto shared = std::make_shared<const std::vector<std::byte>>(std::move(module.binary));
      spirv_.assign(devices.size(), shared);
      break;
    }
    case backend::ProgramInputKind::spirv: {
      const auto bytes = input.binaries.front();
      if (auto problem = spirv_problem(bytes); !problem.empty())
        throw CompileError("the module " + problem, {}, {}, context[devices.front()].name);
      spirv_.assign(devices.size(),
                    std::make_shared<const std::vector<std::byte>>(bytes.begin(), bytes.end()));
      flags.insert(flags.end(), options.compiler_options.begin(), options.compiler_options.end());
      break;
    }
    case backend::ProgramInputKind::binary: {
      for (std::size_t slot = 0; slot < devices.size(); ++slot) {
        const auto bytes = input.binaries[slot];
        if (auto problem = spirv_problem(bytes); !problem.empty())
          throw CompileError("binary " + std::to_string(slot) + " " + problem +
                                 "; Level Zero programs' binaries are SPIR-V",
                             {}, {}, context[devices[slot]].name);
        // Every instruction inside the module (a truncated one is refused here, not by the
        // driver); the kernels below are read from the first binary only.
        try {
          reflect_kernels(bytes);
        } catch (const LogicError& e) {
          throw CompileError("binary " + std::to_string(slot) + " is not a whole " + e.what(), {},
                             {}, context[devices[slot]].name);
        }
        spirv_.push_back(
            std::make_shared<const std::vector<std::byte>>(bytes.begin(), bytes.end()));
      }
      break;
    }
  }

  // The kernels' parameters, from the module itself. Every device has the same module but for
  // binaries, which should be the same too: the first one's kernels stand for all.
  try {
    modules_->kernels = reflect_kernels(*spirv_.front());
  } catch (const LogicError& e) {
    if (input.kind != backend::ProgramInputKind::source)
      throw CompileError(std::string("the SPIR-V module cannot be read: ") + e.what(), {}, {},
                         context[devices.front()].name);
    // Our own compiler's output: build it anyway, with parameters the driver counts.
  }

  for (std::size_t slot = 0; slot < devices.size(); ++slot)
    modules_->modules.push_back(
        build(context, context[devices[slot]], *spirv_[slot], flags, source));

  if (options.keep != nullptr) {
    // The device's own binary (what IGC made of the SPIR-V), for a look at it.
    for (std::size_t slot = 0; slot < devices.size(); ++slot) {
      std::size_t size = 0;
      if (zeModuleGetNativeBinary(modules_->modules[slot], &size, nullptr) != ZE_RESULT_SUCCESS ||
          size == 0)
        continue;
      std::vector<std::byte> native(size);
      PLINTH_CHECK(zeModuleGetNativeBinary(modules_->modules[slot], &size,
                                           reinterpret_cast<std::uint8_t*>(native.data())));
      native.resize(size);
      options.keep->write("program." + std::to_string(slot) + ".bin", native);
    }
  }
}

std::vector<std::byte> Program::binary(std::size_t device) const { return *spirv_.at(device); }

std::unique_ptr<backend::KernelAdapter> Program::create_kernel(std::size_t device,
                                                               const std::string& name) {
  const auto& kernels = modules_->kernels;
  const auto found =
      std::find_if(kernels.begin(), kernels.end(),
                   [&](const KernelSignature& kernel) { return kernel.name == name; });
  // Reflection may have failed on our own module: then the driver decides.
  if (found == kernels.end() && !kernels.empty())
    throw LogicError("program has no kernel '" + name + "'");
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name.c_str()};
  ze_kernel_handle_t kernel = nullptr;
  const ze_result_t result = zeKernelCreate(modules_->modules[device], &desc, &kernel);
  if (result == ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
    throw LogicError("program has no kernel '" + name + "'");
  backend::check(result, "zeKernelCreate");
  const std::vector<backend::ParamInfo>* reflected =
      found == kernels.end() ? nullptr : &found->parameters;
  const DeviceEntry& entry = (*modules_->state)[modules_->devices[device]];
  return std::make_unique<Kernel>(modules_, kernel, name, reflected, entry.max_total_group_size);
}

void Program::set_constant_array(std::size_t /*device*/, backend::QueueAdapter& /*queue*/,
                                 const std::string& name, backend::BufferAdapter& /*src*/,
                                 std::size_t /*size*/) {
  throw LogicError("cannot set constant array '" + name +
                   "': Level Zero passes constant arrays as CONSTANT_MEM kernel arguments");
}

backend::NativeHandle Program::native_handle(std::size_t device) const {
  return reinterpret_cast<backend::NativeHandle>(modules_->modules.at(device));
}

}  // namespace plinth::level_zero
