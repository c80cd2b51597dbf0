#pragma once

// Fixtures of the conformance suite: the devices chosen by the runner's options, and
// test bases that give each test a context and a queue on one device (or several).

#include <plinth/plinth.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace plinth {

/// How gtest prints a Device (a test's parameter, or one of a multi-device test's): its full
/// name, "opencl:0.1 pthread-...", rather than its bytes.
void PrintTo(const Device& device, std::ostream* os);

}  // namespace plinth

namespace plinth::conformance {

/// What the runner's options selected (set once by main before the tests register).
struct Selection {
  /// One entry per device to run single-device tests on.
  std::vector<Device> devices;
  /// Per platform, every selected device (duplicates included) for multi-device tests.
  std::vector<std::vector<Device>> platforms;
};

Selection& selection();

/// A test name for a device: "opencl_0_1_pthread_haswell".
std::string device_test_name(const ::testing::TestParamInfo<Device>& info);
std::string platform_test_name(const ::testing::TestParamInfo<std::vector<Device>>& info);

/// A context and a queue on the parameter's device.
class DeviceTest : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override;
  const Context& context() const { return *context_; }
  const BoundDevice& device() const { return queue_->device(); }
  const Queue& queue() const { return *queue_; }

 private:
  std::optional<Context> context_;
  std::optional<Queue> queue_;
};

/// A context on every selected device of the parameter's platform, however many (skips with
/// fewer than 2). Its tests are instantiated as "Platforms/...": `--gtest_filter=Platforms/*`
/// runs the multi-device tests alone, `--gtest_filter=-Platforms/*` all the others.
class MultiDeviceTest : public ::testing::TestWithParam<std::vector<Device>> {
 protected:
  void SetUp() override;
  const Context& context() const { return *context_; }

 private:
  std::optional<Context> context_;
};

/// The message of the LogicError `call` throws, or "(no LogicError)" if it throws none.
std::string logic_error_message(const std::function<void()>& call);

/// Bytes 0, 1, 2, ... (mod 251, so that offsets show) for transfers.
std::vector<std::byte> pattern(std::size_t size, unsigned seed = 0);

}  // namespace plinth::conformance

#define PLINTH_INSTANTIATE_DEVICE_TEST(suite)                                               \
  INSTANTIATE_TEST_SUITE_P(Devices, suite,                                                  \
                           ::testing::ValuesIn(::plinth::conformance::selection().devices), \
                           ::plinth::conformance::device_test_name)

#define PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(suite)                                           \
  INSTANTIATE_TEST_SUITE_P(Platforms, suite,                                                  \
                           ::testing::ValuesIn(::plinth::conformance::selection().platforms), \
                           ::plinth::conformance::platform_test_name)
