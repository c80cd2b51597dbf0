#pragma once

#include <plinth/backend/api.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::hip {

/// The HIP runtime API: one platform holding every device hipGetDeviceCount finds. Without
/// an AMD GPU (or its kernel driver) HIP reports no devices; the plugin is then still loaded
/// and compiles for named targets (compile_for_target).
class Api final : public backend::ApiAdapter {
 public:
  std::string name() const override { return "HIP"; }
  /// Never throws for a machine without AMD GPUs: zero devices, and no_devices_reason() says
  /// what HIP said.
  void initialize() override;
  std::size_t platform_count() const override { return 1; }
  std::unique_ptr<backend::PlatformAdapter> platform(std::size_t index) const override;
  std::unique_ptr<backend::ContextAdapter> create_context(
      std::span<const backend::DeviceAdapter* const> devices) override;
  /// HIP has no context objects (context.hpp): `context` is a device ordinal, as
  /// Context::native_handle() gives it, and must be the one device's; nothing is owned.
  std::unique_ptr<backend::ContextAdapter> wrap_context(
      backend::NativeHandle context, std::span<const backend::DeviceAdapter* const> devices,
      bool take_ownership) override;
  std::string prelude(bool fast_math) const override;
  /// Source (hiprtc) and binaries (code objects); no SPIR-V.
  unsigned program_inputs() const override {
    return static_cast<unsigned>(backend::ProgramInputKind::source) |
           static_cast<unsigned>(backend::ProgramInputKind::binary);
  }

  // SDK 1.3
  /// "hipGetDeviceCount: hipErrorNoDevice (hipErrorNoDevice)": HIP's error name and text.
  std::string no_devices_reason() const override { return no_devices_reason_; }
  /// Every processor of comgr's list (targets.hpp).
  std::vector<backend::CompileTarget> compile_targets() const override;
  /// hiprtc for `target`, checked against comgr's list first (LogicError otherwise); the
  /// same compile() as a device's build.
  backend::TargetBinary compile_for_target(std::string_view target,
                                           const backend::ProgramInput& input,
                                           const backend::BuildOptions& options) const override;

  // SDK 1.5
  /// target_features() (targets.hpp) of the target's processor: sub-groups of the wavefront
  /// hiprtc compiles for (64 for gfx90a, 32 for gfx1030).
  void target_features(std::string_view target, DeviceFeatures& features) const override;

  // SDK 1.7
  /// None: plinth has no hipBLAS adapter yet (Debian 12's HIP 5.2 has neither hipBLAS nor
  /// rocBLAS, and no AMD GPU here could run one), so products run on plinth's kernels. Says so,
  /// and whether libhipblas.so.2 is installed, in the reason.
  backend::BlasLibrary blas_library() const override;

  // SDK 1.9
  /// An ordinary context (create_context()), once hipGLGetDevices (hipGLDeviceListAll) says
  /// that the GL context current on this thread runs on every one of `devices`
  /// (gl_device_problem()). Throws LogicError where `gl`'s display or context is null, no GL
  /// context is current, or it runs on other devices; BackendError.
  std::unique_ptr<backend::ContextAdapter> create_gl_context(
      std::span<const backend::DeviceAdapter* const> devices, const GlContext& gl) override;

 private:
  std::size_t device_count_ = 0;
  std::string runtime_version_;
  std::string no_devices_reason_;
};

/// The plugin's factory (exported by plugin.cpp).
std::unique_ptr<backend::ApiAdapter> create_api();

}  // namespace plinth::hip
