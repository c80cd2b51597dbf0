#pragma once

#include "spirv_reflection.hpp"

#include <plinth/backend/program.hpp>

#include <level_zero/ze_api.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace plinth::level_zero {

class ContextState;

/// The ze_module_handle_t of a program on each program device and the kernels' parameters
/// read from its SPIR-V (reflect_kernels()); shared with the kernels so that they keep their
/// module.
struct Modules {
  std::shared_ptr<ContextState> state;
  std::vector<std::size_t> devices;  // the context's index of each program device
  std::vector<ze_module_handle_t> modules;
  std::vector<KernelSignature> kernels;  // empty where the module could not be reflected

  Modules() = default;
  ~Modules();
  Modules(const Modules&) = delete;
  Modules& operator=(const Modules&) = delete;
};

/// A program: one SPIR-V module (compiled from the dialect with clang and llvm-spirv, or the
/// user's, or a binary from binary(), which is that SPIR-V again) built for each device with
/// zeModuleCreate (ZE_MODULE_FORMAT_IL_SPIRV). Constant arrays are refused (Level Zero takes
/// such data as CONSTANT_MEM kernel arguments, as OpenCL does).
class Program final : public backend::ProgramAdapter {
 public:
  /// Compiles or loads `input` for `devices` (indices of the context). Throws CompileError
  /// with clang's log or the driver's build log (zeModuleBuildLogGetString), or saying why
  /// the input is not a SPIR-V module it can read; LogicError for constant arrays;
  /// BackendError.
  Program(std::shared_ptr<ContextState> state, std::span<const std::size_t> devices,
          const backend::ProgramInput& input, const backend::BuildOptions& options);

  /// zeKernelCreate; LogicError if the module has no kernel `name`.
  std::unique_ptr<backend::KernelAdapter> create_kernel(std::size_t device,
                                                        const std::string& name) override;
  /// Throws LogicError: constant arrays are kernel arguments on Level Zero.
  void set_constant_array(std::size_t device, backend::QueueAdapter& queue, const std::string& name,
                          backend::BufferAdapter& src, std::size_t size) override;
  /// The ze_module_handle_t of program device `device`.
  backend::NativeHandle native_handle(std::size_t device) const override;
  /// The SPIR-V module (the same for every device): what the program cache stores, and what
  /// ProgramInputKind::binary takes back.
  std::vector<std::byte> binary(std::size_t device) const override;

 private:
  std::shared_ptr<Modules> modules_;
  std::vector<std::shared_ptr<const std::vector<std::byte>>> spirv_;  // per program device
};

}  // namespace plinth::level_zero
