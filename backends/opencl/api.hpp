#pragma once

#include <plinth/backend/api.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace plinth::opencl {

/// The OpenCL API: the platforms of the ICD loader.
class Api final : public backend::ApiAdapter {
 public:
  std::string name() const override;
  void initialize() override;
  std::size_t platform_count() const override;
  std::unique_ptr<backend::PlatformAdapter> platform(std::size_t index) const override;
  std::unique_ptr<backend::ContextAdapter> create_context(
      std::span<const backend::DeviceAdapter* const> devices) override;
  std::unique_ptr<backend::ContextAdapter> wrap_context(
      backend::NativeHandle context, std::span<const backend::DeviceAdapter* const> devices,
      bool take_ownership) override;
  std::string prelude(bool fast_math) const override;
  /// Source, program binaries, and SPIR-V (where the devices report an IL version).
  unsigned program_inputs() const override {
    return static_cast<unsigned>(backend::ProgramInputKind::source) |
           static_cast<unsigned>(backend::ProgramInputKind::spirv) |
           static_cast<unsigned>(backend::ProgramInputKind::binary);
  }
  /// CLBlast (clblast.hpp), loaded on the first call: "CLBlast (libclblast.so.1)", or why it
  /// cannot be used.
  backend::BlasLibrary blas_library() const override;
  /// SDK 1.9: a context made with CL_GL_CONTEXT_KHR and the EGL or GLX display, where the
  /// platform has cl_khr_gl_sharing and clGetGLContextInfoKHR lists every device
  /// (gl_interop.hpp's create_gl_context()). Throws LogicError naming why not, BackendError.
  std::unique_ptr<backend::ContextAdapter> create_gl_context(
      std::span<const backend::DeviceAdapter* const> devices, const GlContext& gl) override;
};

/// The plugin's factory (exported by plugin.cpp).
std::unique_ptr<backend::ApiAdapter> create_api();

}  // namespace plinth::opencl
