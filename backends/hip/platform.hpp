#pragma once

#include <plinth/backend/platform.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace plinth::hip {

/// HIP has one platform: "HIP" by AMD, versioned by the HIP runtime's version.
class Platform final : public backend::PlatformAdapter {
 public:
  Platform(std::size_t device_count, std::string version)
      : device_count_(device_count), version_(std::move(version)) {}

  std::string name() const override { return "HIP"; }
  std::string vendor() const override { return "AMD"; }
  std::string version() const override { return version_; }
  std::size_t device_count() const override { return device_count_; }
  std::unique_ptr<backend::DeviceAdapter> device(std::size_t index) const override;
  backend::NativeHandle native_handle() const override { return 0; }

 private:
  std::size_t device_count_;
  std::string version_;
};

}  // namespace plinth::hip
