#pragma once

#include <plinth/backend/api.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace plinth::cuda {

/// The CUDA driver API: one platform holding every device cuInit found.
class Api final : public backend::ApiAdapter {
 public:
  std::string name() const override { return "CUDA"; }
  void initialize() override;
  std::size_t platform_count() const override { return 1; }
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

 private:
  std::size_t device_count_ = 0;
  int driver_version_ = 0;
};

/// The plugin's factory (exported by plugin.cpp).
std::unique_ptr<backend::ApiAdapter> create_api();

}  // namespace plinth::cuda
