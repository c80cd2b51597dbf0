#include "fixture.hpp"

#include <cctype>

namespace plinth {

void PrintTo(const Device& device, std::ostream* os) { *os << device.full_name(); }

}  // namespace plinth

namespace plinth::conformance {

Selection& selection() {
  static Selection instance;
  return instance;
}

namespace {

std::string sanitize(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) != 0;
    if (keep) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace

std::string device_test_name(const ::testing::TestParamInfo<Device>& info) {
  const auto& d = info.param;
  return sanitize(d.api().shortcut() + "_" + std::to_string(d.platform().index()) + "_" +
                  std::to_string(d.index()) + "_" + d.name());
}

std::string platform_test_name(const ::testing::TestParamInfo<std::vector<Device>>& info) {
  const auto& p = info.param.front().platform();
  return sanitize(p.api().shortcut() + "_" + std::to_string(p.index()) + "_" + p.name());
}

void DeviceTest::SetUp() {
  context_ = Context::from_devices({GetParam()});
  queue_.emplace(context_->devices()[0]);
}

void MultiDeviceTest::SetUp() {
  if (GetParam().size() < 2) {
    GTEST_SKIP() << "needs two devices of one platform; '" << GetParam().front().platform().name()
                 << "' has " << GetParam().size()
                 << " selected (on PoCL: POCL_DEVICES=\"pthread pthread\" and "
                    "--include-duplicate-devices)";
  }
  context_ = Context::from_devices(GetParam());
}

std::vector<std::byte> pattern(std::size_t size, unsigned seed) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>((i + seed) % 251);
  return bytes;
}

std::string logic_error_message(const std::function<void()>& call) {
  try {
    call();
  } catch (const LogicError& e) {
    return e.what();
  }
  return "(no LogicError)";
}

}  // namespace plinth::conformance
