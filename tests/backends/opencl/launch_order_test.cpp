// Which devices launch one kernel at a time (backends/opencl/launch_order.hpp): CPU devices of
// PoCL before 7.0, read from the platform's name and version strings as PoCL writes them.

#include "launch_order.hpp"

#include <gtest/gtest.h>

namespace plinth::opencl {
namespace launch_order_test {
namespace {

constexpr const char* pocl = "Portable Computing Language";

TEST(LaunchOrder, PoclCpuDevicesBeforeSevenAreOrdered) {
  // Debian 12's and Ubuntu 24.04's PoCL, as their platforms name themselves.
  EXPECT_TRUE(pocl_launches_race(
      pocl, "OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, RELOC, LLVM 15.0.6, SLEEF", true));
  EXPECT_TRUE(pocl_launches_race(pocl, "OpenCL 3.0 PoCL 5.0+debian  Linux, None+Asserts", true));
  EXPECT_TRUE(pocl_launches_race(pocl, "OpenCL 3.0 PoCL 6.0  Linux, Release", true));
  EXPECT_TRUE(pocl_launches_race(pocl, "OpenCL 1.2 PoCL 1.8", true));
}

TEST(LaunchOrder, FixedPoclAndOtherDevicesAreNot) {
  EXPECT_FALSE(pocl_launches_race(pocl, "OpenCL 3.0 PoCL 7.0  Linux, Release", true));
  EXPECT_FALSE(pocl_launches_race(pocl, "OpenCL 3.0 PoCL 12.1", true));
  // PoCL's GPU drivers (CUDA, Level Zero) keep no such cache.
  EXPECT_FALSE(pocl_launches_race(pocl, "OpenCL 3.0 PoCL 5.0", false));
  EXPECT_FALSE(pocl_launches_race("NVIDIA CUDA", "OpenCL 3.0 CUDA 13.0.48", false));
  EXPECT_FALSE(pocl_launches_race("Intel(R) OpenCL", "OpenCL 3.0 LINUX", true));
}

TEST(LaunchOrder, UnreadablePoclVersionsCountAsAffected) {
  EXPECT_TRUE(pocl_launches_race(pocl, "OpenCL 3.0", true));
  EXPECT_TRUE(pocl_launches_race(pocl, "OpenCL 3.0 PoCL ", true));
  EXPECT_TRUE(pocl_launches_race(pocl, "OpenCL 3.0 PoCL x.y", true));
  EXPECT_FALSE(pocl_launches_race(pocl, "OpenCL 3.0 PoCL 99999999999999999999", true));
}

}  // namespace
}  // namespace launch_order_test
}  // namespace plinth::opencl
