// Checking global/local sizes and choosing a local size, without a device
// (core/runtime/launch_shape.hpp): artificial DeviceParameters with small limits.

#include "runtime/launch_shape.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace plinth::detail {
namespace launch_shape_test {
namespace {

using Sizes = std::vector<std::size_t>;
using Triple = std::array<std::size_t, 3>;

constexpr std::size_t no_kernel_limit = 1024;

/// 8x4x2 work items per dimension, 16 in total, 16x8x4 groups, 1 KiB of local memory.
DeviceParameters small_device() {
  DeviceParameters device;
  device.max_local_sizes = {8, 4, 2};
  device.max_num_groups = {16, 8, 4};
  device.max_total_local_size = 16;
  device.local_mem_size = 1024;
  return device;
}

/// small_device() with room for any number of groups, to look at local sizes alone.
DeviceParameters many_groups_device() {
  auto device = small_device();
  device.max_num_groups = {1000, 1000, 1000};
  return device;
}

backend::LaunchShape shape_of(const Sizes& global, const Sizes& local = {},
                              const DeviceParameters& device = small_device(),
                              std::size_t kernel_limit = no_kernel_limit,
                              std::size_t local_mem = 0) {
  return make_launch_shape("my_kernel", global, local, local_mem, device, kernel_limit);
}

/// The LogicError message make_launch_shape throws ("" if it returns a shape).
std::string error_of(const Sizes& global, const Sizes& local = {},
                     const DeviceParameters& device = small_device(),
                     std::size_t kernel_limit = no_kernel_limit, std::size_t local_mem = 0) {
  try {
    shape_of(global, local, device, kernel_limit, local_mem);
  } catch (const LogicError& e) {
    return e.what();
  }
  return {};
}

// --- Valid shapes are passed through -------------------------------------------------------

TEST(LaunchShapeExplicitLocal, KeepsAValidShapeAndPadsUnusedDimensionsWithOne) {
  const auto shape = shape_of({8, 6}, {4, 2}, small_device(), no_kernel_limit, 512);
  EXPECT_EQ(shape.dims, 2u);
  EXPECT_EQ(shape.global, (Triple{8, 6, 1}));
  EXPECT_EQ(shape.local, (Triple{4, 2, 1}));
  EXPECT_EQ(shape.local_mem, 512u);
}

TEST(LaunchShapeExplicitLocal, AcceptsEveryLimitExactlyReached) {
  // 8 and 2 are the per-dimension limits, 16 the total, 16 and 4 groups the group limits,
  // 1024 bytes the local memory.
  const auto shape = shape_of({128, 1, 8}, {8, 1, 2}, small_device(), 16, 1024);
  EXPECT_EQ(shape.dims, 3u);
  EXPECT_EQ(shape.global, (Triple{128, 1, 8}));
  EXPECT_EQ(shape.local, (Triple{8, 1, 2}));
  EXPECT_EQ(shape.local_mem, 1024u);
}

TEST(LaunchShapeExplicitLocal, WithoutGroupLimitsAnyNumberOfGroupsIsAccepted) {
  auto device = small_device();
  device.max_num_groups.clear();
  EXPECT_EQ(shape_of({1u << 20}, {1}, device).global[0], 1u << 20);
  EXPECT_EQ(error_of({17}, {1}, small_device()),
            "kernel 'my_kernel': 17 groups in dimension 0 exceed the device's limit of 16");
}

// --- The automatic local size --------------------------------------------------------------

TEST(LaunchShapeAutomaticLocal, PicksTheLargestDivisorWithinTheDimensionsLimit) {
  const auto device = many_groups_device();
  EXPECT_EQ(shape_of({16}, {}, device).local[0], 8u);  // the limit itself
  EXPECT_EQ(shape_of({12}, {}, device).local[0], 6u);  // 8 and 7 do not divide 12
  EXPECT_EQ(shape_of({7}, {}, device).local[0], 7u);   // the whole dimension
  EXPECT_EQ(shape_of({1}, {}, device).local[0], 1u);
  EXPECT_EQ(shape_of({13}, {}, device).local[0], 1u);  // a prime above the limit
  EXPECT_EQ(shape_of({12}, {}, device).dims, 1u);
  EXPECT_EQ(shape_of({12}, {}, device).local, (Triple{6, 1, 1}));
}

TEST(LaunchShapeAutomaticLocal, FillsDimensionZeroFirstWithinTheTotalLimit) {
  const auto device = many_groups_device();
  // Dimension 0 takes 8, leaving 16 / 8 = 2 work items for dimension 1.
  EXPECT_EQ(shape_of({8, 8}, {}, device).local, (Triple{8, 2, 1}));
  // Dimension 0 takes 2 (the whole dimension), dimension 1 its limit 4, dimension 2 what
  // is left of 16 (2, also its limit).
  EXPECT_EQ(shape_of({2, 12, 6}, {}, device).local, (Triple{2, 4, 2}));
  // Dimension 0 takes 4, dimension 1 at most 16 / 4 = 4, and 3 is the largest divisor of 9
  // below that; dimension 2 gets at most 16 / 12 = 1.
  EXPECT_EQ(shape_of({4, 9, 2}, {}, device).local, (Triple{4, 3, 1}));
}

TEST(LaunchShapeAutomaticLocal, TheKernelsLimitTightensTheDevicesTotal) {
  const auto device = many_groups_device();
  EXPECT_EQ(shape_of({8, 8}, {}, device, 4).local, (Triple{4, 1, 1}));
  // 6 does not divide 8, so 4; 6 / 4 leaves one work item for dimension 1.
  EXPECT_EQ(shape_of({8, 8}, {}, device, 6).local, (Triple{4, 1, 1}));
  // The device's total counts when the kernel allows more.
  EXPECT_EQ(shape_of({8, 8}, {}, device, 64).local, (Triple{8, 2, 1}));
}

TEST(LaunchShapeAutomaticLocal, AZeroTotalLimitStillAllowsOneWorkItemPerGroup) {
  auto device = many_groups_device();
  device.max_total_local_size = 0;
  EXPECT_EQ(shape_of({8, 4}, {}, device).local, (Triple{1, 1, 1}));
  EXPECT_EQ(shape_of({8, 4}, {}, many_groups_device(), 0).local, (Triple{1, 1, 1}));
}

TEST(LaunchShapeAutomaticLocal, MissingOrZeroPerDimensionLimitsCountAsOne) {
  auto device = many_groups_device();
  device.max_local_sizes = {8, 0};  // dimension 1 zero, dimension 2 missing
  EXPECT_EQ(shape_of({8, 4, 2}, {}, device).local, (Triple{8, 1, 1}));
  EXPECT_EQ(error_of({8, 4}, {1, 2}, device),
            "kernel 'my_kernel': local size 2 exceeds the device's limit 1 in dimension 1");
}

TEST(LaunchShapeAutomaticLocal, AlwaysDividesTheGlobalSizeWithinEveryLimit) {
  const auto device = many_groups_device();
  for (std::size_t x = 1; x <= 24; ++x) {
    for (std::size_t y = 1; y <= 24; ++y) {
      for (std::size_t z = 1; z <= 6; ++z) {
        const Sizes global{x, y, z};
        const auto shape = shape_of(global, {}, device);
        std::size_t total = 1;
        for (std::size_t d = 0; d < 3; ++d) {
          SCOPED_TRACE(testing::Message() << "global " << x << "x" << y << "x" << z << ", dim " << d
                                          << ", local " << shape.local[d]);
          ASSERT_GE(shape.local[d], 1u);
          EXPECT_EQ(global[d] % shape.local[d], 0u);
          EXPECT_LE(shape.local[d], device.max_local_sizes[d]);
          total *= shape.local[d];
        }
        EXPECT_LE(total, device.max_total_local_size);
        // Dimension 0 gets the largest divisor its own limit allows.
        std::size_t best0 = 1;
        for (std::size_t c = 1; c <= std::min<std::size_t>(x, 8); ++c) {
          if (x % c == 0) best0 = c;
        }
        EXPECT_EQ(shape.local[0], best0) << "global " << x << "x" << y << "x" << z;
      }
    }
  }
}

TEST(LaunchShapeAutomaticLocal, DoesNotTradeGroupsBetweenDimensions) {
  // Filling dimension 0 first leaves 2 work items for dimension 1: 16 groups there, beyond
  // the limit of 8, although 2x4 (4x8 groups) would fit. The documented rule ignores the
  // group limits; checked so that a change to it is noticed.
  EXPECT_EQ(error_of({8, 32}),
            "kernel 'my_kernel': 16 groups in dimension 1 exceed the device's limit of 8");
  EXPECT_EQ(shape_of({8, 32}, {2, 4}).local, (Triple{2, 4, 1}));
}

// --- Errors ---------------------------------------------------------------------------------

TEST(LaunchShapeErrors, GlobalSizeNeedsOneToThreeDimensions) {
  EXPECT_EQ(error_of({}), "kernel 'my_kernel': the global size must have 1 to 3 dimensions, not 0");
  EXPECT_EQ(error_of({2, 2, 2, 2}),
            "kernel 'my_kernel': the global size must have 1 to 3 dimensions, not 4");
  EXPECT_EQ(error_of({2, 2, 2, 2}, {1, 1, 1, 1}),
            "kernel 'my_kernel': the global size must have 1 to 3 dimensions, not 4");
  EXPECT_THROW(shape_of({}), LogicError);
}

TEST(LaunchShapeErrors, LocalSizeNeedsAsManyDimensionsAsGlobal) {
  EXPECT_EQ(error_of({8, 8}, {4}),
            "kernel 'my_kernel': the local size has 1 dimension(s), the global 2");
  EXPECT_EQ(error_of({8}, {4, 1, 1}),
            "kernel 'my_kernel': the local size has 3 dimension(s), the global 1");
}

TEST(LaunchShapeErrors, GlobalSizeOfZeroIsRefusedInAnyDimension) {
  EXPECT_EQ(error_of({0}), "kernel 'my_kernel': global size 0 is 0 in dimension 0");
  EXPECT_EQ(error_of({8, 0}), "kernel 'my_kernel': global size 8x0 is 0 in dimension 1");
  EXPECT_EQ(error_of({8, 4, 0}, {4, 2, 1}),
            "kernel 'my_kernel': global size 8x4x0 is 0 in dimension 2");
}

TEST(LaunchShapeErrors, LocalSizeMustDivideTheGlobalSize) {
  EXPECT_EQ(error_of({8, 6}, {4, 4}),
            "kernel 'my_kernel': local size 4x4 does not divide global size 8x6 in dimension 1");
  EXPECT_EQ(error_of({6}, {4}),
            "kernel 'my_kernel': local size 4 does not divide global size 6 in dimension 0");
  // A local size of 0 divides nothing.
  EXPECT_EQ(error_of({8, 4}, {0, 4}),
            "kernel 'my_kernel': local size 0x4 does not divide global size 8x4 in dimension 0");
}

TEST(LaunchShapeErrors, LocalSizeMustBeWithinTheDevicesPerDimensionLimit) {
  EXPECT_EQ(error_of({16}, {16}),
            "kernel 'my_kernel': local size 16 exceeds the device's limit 8 in dimension 0");
  EXPECT_EQ(error_of({1, 8}, {1, 8}),
            "kernel 'my_kernel': local size 8 exceeds the device's limit 4 in dimension 1");
  EXPECT_EQ(error_of({1, 1, 4}, {1, 1, 4}),
            "kernel 'my_kernel': local size 4 exceeds the device's limit 2 in dimension 2");
}

TEST(LaunchShapeErrors, LocalSizeMustBeWithinTheTotalOfDeviceAndKernel) {
  // Every dimension within its limit (8, 4), but 32 work items in total.
  EXPECT_EQ(error_of({8, 4}, {8, 4}),
            "kernel 'my_kernel': local size 8x4 has 32 work items, more than the 16 this kernel "
            "can have on this device");
  // Within the device's 16, beyond the kernel's 8.
  EXPECT_EQ(error_of({4, 4}, {4, 4}, small_device(), 8),
            "kernel 'my_kernel': local size 4x4 has 16 work items, more than the 8 this kernel "
            "can have on this device");
  EXPECT_EQ(shape_of({4, 2}, {4, 2}, small_device(), 8).local, (Triple{4, 2, 1}));
}

TEST(LaunchShapeErrors, TooManyGroupsAreRefused) {
  EXPECT_EQ(error_of({32}, {1}),
            "kernel 'my_kernel': 32 groups in dimension 0 exceed the device's limit of 16");
  EXPECT_EQ(error_of({1, 9}, {1, 1}),
            "kernel 'my_kernel': 9 groups in dimension 1 exceed the device's limit of 8");
  // Automatic: 17 is a prime above the local limit 8, so 17 groups of 1.
  EXPECT_EQ(error_of({17}),
            "kernel 'my_kernel': 17 groups in dimension 0 exceed the device's limit of 16");
}

TEST(LaunchShapeErrors, DynamicLocalMemoryMustFitTheDevice) {
  EXPECT_EQ(error_of({8}, {}, small_device(), no_kernel_limit, 1025),
            "kernel 'my_kernel': 1025 bytes of dynamic local memory exceed the device's 1024");
  EXPECT_EQ(error_of({8}, {}, small_device(), no_kernel_limit, 1024), "");
}

TEST(LaunchShapeErrors, NameTheKernel) {
  try {
    make_launch_shape("reduce<float>", {0}, {}, 0, small_device(), no_kernel_limit);
    FAIL() << "no LogicError";
  } catch (const LogicError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("kernel 'reduce<float>': ", 0), 0u) << e.what();
  }
}

// A local size whose product of dimensions overflows std::size_t wraps the total to a small
// number (here 2^32 * 2^32 = 0) and passes the total check.
TEST(LaunchShapeErrors, LocalSizeWhoseTotalOverflowsIsRefused) {
  auto device = small_device();
  constexpr std::size_t big = std::size_t{1} << 32;
  device.max_local_sizes = {big, big, 1};
  try {
    const auto shape = shape_of({big, big}, {big, big}, device);
    ADD_FAILURE() << "accepted local size " << shape.local[0] << "x" << shape.local[1]
                  << " on a device with at most 16 work items per group";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("more than the 16"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace launch_shape_test
}  // namespace plinth::detail
