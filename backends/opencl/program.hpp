#pragma once

#include <plinth/backend/program.hpp>
#include <plinth/backend/types.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace plinth::opencl {

/// A cl_program (one reference owned) built for some devices of a context.
class Program final : public backend::ProgramAdapter {
 public:
  /// Builds `input` (source, program binaries or SPIR-V) for `devices`. Throws CompileError
  /// with the failing devices' logs, or saying why a binary or SPIR-V was refused;
  /// LogicError for constant arrays, which OpenCL passes as kernel arguments.
  static std::unique_ptr<Program> create(cl_context context, std::vector<cl_device_id> devices,
                                         const backend::ProgramInput& input,
                                         const backend::BuildOptions& options);

  /// Adopts `program`'s reference.
  Program(cl_program program, std::vector<cl_device_id> devices) noexcept;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  ~Program() override;

  std::unique_ptr<backend::KernelAdapter> create_kernel(std::size_t device,
                                                        const std::string& name) override;
  /// Throws LogicError: OpenCL passes constant arrays as kernel arguments.
  void set_constant_array(std::size_t device, backend::QueueAdapter& queue, const std::string& name,
                          backend::BufferAdapter& src, std::size_t size) override;
  backend::NativeHandle native_handle(std::size_t device) const override;
  /// CL_PROGRAM_BINARIES of program device `device` (empty if the driver gives none).
  std::vector<std::byte> binary(std::size_t device) const override;

 private:
  std::string build_log(cl_device_id device) const;
  [[noreturn]] void throw_compile_error(const std::vector<std::string>& options,
                                        const std::string& source) const;

  cl_program program_;
  std::vector<cl_device_id> devices_;
};

}  // namespace plinth::opencl
