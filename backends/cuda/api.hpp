#pragma once

#include <plinth/backend/api.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::cuda {

/// The CUDA driver API: one platform holding every device cuInit found. Without a driver the
/// plugin still compiles for named targets (NVRTC needs none).
class Api final : public backend::ApiAdapter {
 public:
  std::string name() const override { return "CUDA"; }
  /// Loads the driver (driver.hpp) and starts it. Where libcuda.so.1 is missing (or too old)
  /// there is no platform; where cuInit fails (CUDA_ERROR_NO_DEVICE...) the platform has no
  /// devices; either way no_devices_reason() says why, and nothing is thrown.
  void initialize() override;
  std::size_t platform_count() const override { return driver_loaded_ ? 1 : 0; }
  std::unique_ptr<backend::PlatformAdapter> platform(std::size_t index) const override;
  std::unique_ptr<backend::ContextAdapter> create_context(
      std::span<const backend::DeviceAdapter* const> devices) override;
  std::unique_ptr<backend::ContextAdapter> wrap_context(
      backend::NativeHandle context, std::span<const backend::DeviceAdapter* const> devices,
      bool take_ownership) override;
  std::string prelude(bool fast_math) const override;
  /// Source (NVRTC) and binaries (CUBIN or PTX); no SPIR-V.
  unsigned program_inputs() const override {
    return static_cast<unsigned>(backend::ProgramInputKind::source) |
           static_cast<unsigned>(backend::ProgramInputKind::binary);
  }
  // SDK 1.3.
  std::string no_devices_reason() const override { return no_devices_reason_; }
  /// sm_XY (CUBIN) and compute_XY (PTX) for every architecture NVRTC knows, by architecture.
  std::vector<backend::CompileTarget> compile_targets() const override;
  /// NVRTC alone, as a device's build compiles: the CUBIN for sm_XY, the PTX text (without
  /// NVRTC's terminating NUL) for compute_XY.
  backend::TargetBinary compile_for_target(std::string_view target,
                                           const backend::ProgramInput& input,
                                           const backend::BuildOptions& options) const override;
  // SDK 1.4.
  /// NCCL (nccl.hpp), loaded on the first call: "NCCL 2.28.9", or why it cannot be used.
  backend::CollectivesLibrary collectives() const override;
  /// cuBLAS (cublas.hpp), loaded on the first call: "cuBLAS 13.0.2 (libcublas.so.13)", or why
  /// neither libcublas.so.13 nor .12 can be used.
  backend::BlasLibrary blas_library() const override;
  /// ncclGetUniqueId's 128 bytes. Throws LogicError where NCCL is unavailable, BackendError.
  std::vector<std::byte> create_communicator_id() const override;
  // SDK 1.5.
  /// nominal_features() (device.hpp) of the target's architecture.
  void target_features(std::string_view target, DeviceFeatures& features) const override;
  // SDK 1.9.
  /// An ordinary context (create_context()), once cuGLGetDevices (CU_GL_DEVICE_LIST_ALL) says
  /// that the GL context current on this thread runs on every one of `devices`. Throws
  /// LogicError where `gl`'s display or context is null, the driver has no GL interop, no GL
  /// context is current, or it runs on other devices (naming them and those it runs on);
  /// BackendError.
  std::unique_ptr<backend::ContextAdapter> create_gl_context(
      std::span<const backend::DeviceAdapter* const> devices, const GlContext& gl) override;

 private:
  bool driver_loaded_ = false;
  std::size_t device_count_ = 0;
  int driver_version_ = 0;
  std::string no_devices_reason_;
};

/// The plugin's factory (exported by plugin.cpp).
std::unique_ptr<backend::ApiAdapter> create_api();

}  // namespace plinth::cuda
