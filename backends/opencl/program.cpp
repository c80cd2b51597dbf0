#include "program.hpp"

#include "device.hpp"
#include "error.hpp"
#include "kernel.hpp"
#include "platform.hpp"
#include "pocl_binary.hpp"
#include "ptx_binary.hpp"

#include <plinth/errors.hpp>

#include <algorithm>
#include <fstream>

namespace plinth::opencl {

namespace {

// The options of a build for `devices`: the OpenCL C version that every one of them is built
// as (device_dialect_build(): what their features promise; compiler_identity() names it),
// unless the user chose one.
std::vector<std::string> build_options(const backend::BuildOptions& options,
                                       const std::vector<cl_device_id>& devices) {
  std::vector<std::string> result{"-cl-kernel-arg-info"};  // for Kernel::parameters()
  const bool chosen =
      std::any_of(options.compiler_options.begin(), options.compiler_options.end(),
                  [](const std::string& option) { return option.rfind("-cl-std=", 0) == 0; });
  // One query per device: the lowest language of them all, and emulated sub-groups if any
  // device's are too wide for the dialect.
  int language = 0;
  bool no_native_sub_groups = false;
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const auto build = device_dialect_build(devices[k]);
    language = k == 0 ? build.language : std::min(language, build.language);
    no_native_sub_groups = no_native_sub_groups || build.no_native_sub_groups;
  }
  if (!chosen) {
    if (auto option = language_option(language); !option.empty())
      result.push_back(std::move(option));
  }
  if (no_native_sub_groups) result.emplace_back("-DPLINTH_NO_NATIVE_SUB_GROUPS");
  if (options.fast_math) result.emplace_back("-cl-fast-relaxed-math");
  result.insert(result.end(), options.compiler_options.begin(), options.compiler_options.end());
  return result;
}

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string result;
  for (const auto& part : parts) {
    if (!result.empty()) result += separator;
    result += part;
  }
  return result;
}

/// Why `binary` cannot be what `device` loads, or "" when its container is whole. Each
/// implementation's loader trusts its own container, so each is checked before it sees one:
/// PoCL's program binaries, NVIDIA's PTX text. An implementation plinth does not know gets
/// the binary unchanged: its own loader decides.
std::string binary_problem(cl_device_id device, std::span<const std::byte> binary) {
  const auto platform = device_value<cl_platform_id>(device, CL_DEVICE_PLATFORM);
  const auto name = platform_string(platform, CL_PLATFORM_NAME);
  if (name.find("Portable Computing Language") != std::string::npos || is_pocl_binary(binary))
    return pocl_binary_problem(binary);
  if (platform_string(platform, CL_PLATFORM_VENDOR).find("NVIDIA") != std::string::npos)
    return ptx_binary_problem(binary);
  return {};
}

}  // namespace

// CL_DEVICE_IL_VERSION (OpenCL 2.1; the headers hide it at CL_TARGET_OPENCL_VERSION 120).
constexpr cl_device_info device_il_version = 0x105B;

using CreateProgramWithIL = cl_program(CL_API_CALL*)(cl_context, const void*, std::size_t, cl_int*);

std::unique_ptr<Program> Program::create(cl_context context, std::vector<cl_device_id> devices,
                                         const backend::ProgramInput& input,
                                         const backend::BuildOptions& options) {
  if (!options.constant_arrays.empty()) {
    // Declaring them would take kernel parameters the user's kernels do not have; refusing
    // here beats a compile error about an undeclared name far from the cause.
    throw LogicError("ProgramOptions::constant_arrays ('" + options.constant_arrays.front().name +
                     "', ...) are not supported on OpenCL: pass the data as a CONSTANT_MEM "
                     "kernel argument (a Buffer) instead");
  }
  cl_int code = CL_SUCCESS;
  cl_program handle = nullptr;
  std::string source;
  switch (input.kind) {
    case backend::ProgramInputKind::source: {
      source = std::string(input.prelude);
      if (!source.empty()) source += '\n';
      source += input.source;
      if (options.keep != nullptr) options.keep->write_text("program.cl", source);
      const char* text = source.c_str();
      const std::size_t length = source.size();
      handle = clCreateProgramWithSource(context, 1, &text, &length, &code);
      check_alloc(code, "clCreateProgramWithSource");
      break;
    }
    case backend::ProgramInputKind::binary: {
      std::vector<std::size_t> lengths;
      std::vector<const unsigned char*> binaries;
      for (std::size_t d = 0; d < devices.size() && d < input.binaries.size(); ++d) {
        if (const auto problem = binary_problem(devices[d], input.binaries[d]); !problem.empty())
          throw CompileError("binary " + std::to_string(d) + " is " + problem, {}, {},
                             device_string(devices[d], CL_DEVICE_NAME));
      }
      for (const auto& binary : input.binaries) {
        lengths.push_back(binary.size());
        binaries.push_back(reinterpret_cast<const unsigned char*>(binary.data()));
      }
      std::vector<cl_int> status(devices.size(), CL_SUCCESS);
      handle =
          clCreateProgramWithBinary(context, static_cast<cl_uint>(devices.size()), devices.data(),
                                    lengths.data(), binaries.data(), status.data(), &code);
      if (code == CL_INVALID_BINARY) {
        std::size_t bad = 0;
        while (bad + 1 < status.size() && status[bad] == CL_SUCCESS) ++bad;
        throw CompileError("binary " + std::to_string(bad) + " is not one the device can load (" +
                               code_name(status[bad] != CL_SUCCESS ? status[bad] : code) + ")",
                           {}, {}, device_string(devices[bad], CL_DEVICE_NAME));
      }
      check_alloc(code, "clCreateProgramWithBinary");
      break;
    }
    case backend::ProgramInputKind::spirv: {
      for (auto device : devices) {
        std::string il;
        if (clGetDeviceInfo(device, device_il_version, 0, nullptr, nullptr) == CL_SUCCESS)
          il = device_string(device, device_il_version);
        if (il.find("SPIR-V") == std::string::npos)
          throw CompileError(
              "the device takes no SPIR-V (its CL_DEVICE_IL_VERSION is '" + il + "')", {}, {},
              device_string(device, CL_DEVICE_NAME));
      }
      const auto platform = device_value<cl_platform_id>(devices.front(), CL_DEVICE_PLATFORM);
      const auto create = reinterpret_cast<CreateProgramWithIL>(
          clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR"));
      if (create == nullptr)
        throw CompileError("the platform offers no clCreateProgramWithILKHR for SPIR-V", {}, {},
                           device_string(devices.front(), CL_DEVICE_NAME));
      const auto& module = input.binaries.front();
      handle = create(context, module.data(), module.size(), &code);
      if (code == CL_INVALID_VALUE)
        throw CompileError("the SPIR-V module was refused (CL_INVALID_VALUE)", {}, {},
                           device_string(devices.front(), CL_DEVICE_NAME));
      check_alloc(code, "clCreateProgramWithILKHR");
      break;
    }
  }
  auto program = std::make_unique<Program>(handle, std::move(devices));

  auto opts = build_options(options, program->devices_);
  const auto build = [&] {
    return clBuildProgram(handle, static_cast<cl_uint>(program->devices_.size()),
                          program->devices_.data(), join(opts, " ").c_str(), nullptr, nullptr);
  };
  code = build();
  if (code == CL_BUILD_PROGRAM_FAILURE) {
    // NVIDIA's compiler (CUDA 13.0) fails on a kernel without parameters when asked for
    // argument info ("ptxas ... Parsing error near '}'"). Without it the program builds; its
    // kernels then report unknown parameter kinds and only the argument count is checked.
    opts.erase(opts.begin());
    if (build() != CL_SUCCESS) {
      opts.insert(opts.begin(), "-cl-kernel-arg-info");
      code = build();  // report the first attempt's log
    } else {
      code = CL_SUCCESS;
    }
  }
  if (code == CL_BUILD_PROGRAM_FAILURE || code == CL_INVALID_BUILD_OPTIONS ||
      code == CL_INVALID_BINARY)
    program->throw_compile_error(opts, source);
  plinth::backend::check(code, "clBuildProgram");
  if (options.keep != nullptr) {
    for (std::size_t d = 0; d < program->devices_.size(); ++d) {
      const auto binary = program->binary(d);
      if (!binary.empty()) options.keep->write("program." + std::to_string(d) + ".bin", binary);
    }
  }
  return program;
}

Program::Program(cl_program program, std::vector<cl_device_id> devices) noexcept
    : program_(program), devices_(std::move(devices)) {}

Program::~Program() { PLINTH_CHECK_IN_DESTRUCTOR(clReleaseProgram(program_)); }

std::string Program::build_log(cl_device_id device) const {
  return info_string(
      [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, size, value, size_ret);
      },
      "clGetProgramBuildInfo");
}

void Program::throw_compile_error(const std::vector<std::string>& options,
                                  const std::string& source) const {
  // The logs of the devices whose build failed (all of them if none says so).
  std::vector<std::size_t> failed;
  for (std::size_t d = 0; d < devices_.size(); ++d) {
    cl_build_status status = CL_BUILD_NONE;
    clGetProgramBuildInfo(program_, devices_[d], CL_PROGRAM_BUILD_STATUS, sizeof(status), &status,
                          nullptr);
    if (status == CL_BUILD_ERROR) failed.push_back(d);
  }
  if (failed.empty())
    for (std::size_t d = 0; d < devices_.size(); ++d) failed.push_back(d);
  std::string log;
  std::vector<std::string> names;
  for (auto d : failed) {
    auto name = device_string(devices_[d], CL_DEVICE_NAME);
    const auto text = build_log(devices_[d]);
    if (failed.size() > 1 && !text.empty())
      log += "--- device " + std::to_string(d) + " (" + name + ")\n";
    log += text;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (log.find_first_not_of(" \n") == std::string::npos)
    log = "(the compiler gave no log; it rejected the options?)";
  throw CompileError(log, options, source, join(names, ", "));
}

std::vector<std::byte> Program::binary(std::size_t device) const {
  const auto all = info_array<cl_device_id>(
      [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetProgramInfo(program_, CL_PROGRAM_DEVICES, size, value, size_ret);
      },
      "clGetProgramInfo");
  // The binaries are listed per device of CL_PROGRAM_DEVICES (the context's), as the standard
  // says; PoCL 3.1 lists only the devices the program was built for, in the order they were
  // given, and writes the first binary to the first pointer. The number of sizes tells which.
  std::size_t bytes = 0;
  PLINTH_CHECK(clGetProgramInfo(program_, CL_PROGRAM_BINARY_SIZES, 0, nullptr, &bytes));
  const std::size_t count = bytes / sizeof(std::size_t);
  std::size_t index = 0;
  if (count == all.size()) {
    const auto it = std::find(all.begin(), all.end(), devices_.at(device));
    if (it == all.end()) return {};
    index = static_cast<std::size_t>(it - all.begin());
  } else if (count == devices_.size()) {
    index = device;
  } else {
    return {};
  }
  std::vector<std::size_t> sizes(count);
  PLINTH_CHECK(clGetProgramInfo(program_, CL_PROGRAM_BINARY_SIZES,
                                sizes.size() * sizeof(std::size_t), sizes.data(), nullptr));
  // Every entry gets a buffer, though one binary is wanted: the standard lets the others be
  // null, but not every implementation checks.
  std::vector<std::vector<std::byte>> binaries(count);
  std::vector<unsigned char*> pointers(count, nullptr);
  for (std::size_t i = 0; i < count; ++i) {
    binaries[i].resize(std::max<std::size_t>(sizes[i], 1));
    pointers[i] = reinterpret_cast<unsigned char*>(binaries[i].data());
  }
  PLINTH_CHECK(clGetProgramInfo(program_, CL_PROGRAM_BINARIES,
                                pointers.size() * sizeof(unsigned char*), pointers.data(),
                                nullptr));
  auto& binary = binaries[index];
  binary.resize(sizes[index]);
  return std::move(binary);
}

std::unique_ptr<backend::KernelAdapter> Program::create_kernel(std::size_t device,
                                                               const std::string& name) {
  cl_int code = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program_, name.c_str(), &code);
  if (code == CL_INVALID_KERNEL_NAME) throw LogicError("program has no kernel '" + name + "'");
  check_alloc(code, "clCreateKernel");
  return Kernel::create(kernel, devices_[device], name);
}

void Program::set_constant_array(std::size_t, backend::QueueAdapter&, const std::string& name,
                                 backend::BufferAdapter&, std::size_t) {
  throw LogicError("cannot set constant array '" + name +
                   "': OpenCL passes constant arrays as kernel arguments (not supported yet)");
}

backend::NativeHandle Program::native_handle(std::size_t) const {
  return reinterpret_cast<backend::NativeHandle>(program_);
}

}  // namespace plinth::opencl
